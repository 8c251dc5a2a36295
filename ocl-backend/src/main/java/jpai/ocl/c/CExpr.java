package jpai.ocl.c;

import java.util.List;
import java.util.Objects;

/**
 * An OpenCL C expression. Nodes are immutable; {@link CPrinter} renders them, adding parentheses only
 * where C's precedence and associativity need them (and around mixed bitwise, shift and logical
 * operators, where readers and {@code -Wparentheses} want them).
 */
public sealed interface CExpr {

    /** C's precedence of this expression's outermost operator: higher binds tighter. */
    int precedence();

    /** Precedence of identifiers, literals, calls, indexing and member access. */
    int PRIMARY = 16;
    /** Precedence of prefix unary operators and casts. */
    int UNARY = 15;
    /** Precedence of {@code ?:}. */
    int CONDITIONAL = 3;
    /** Precedence of assignment operators. */
    int ASSIGNMENT = 2;
    /** Lowest precedence: text of unknown shape, parenthesized wherever it is an operand. */
    int LOWEST = 0;

    /** A variable, parameter or function name. */
    record Name(String name) implements CExpr {
        public Name {
            requireIdentifier(name);
        }

        @Override
        public int precedence() {
            return PRIMARY;
        }
    }

    /**
     * A literal exactly as C spells it ({@code 7}, {@code -1L}, {@code 0x1p-3f}, {@code NAN}). A literal that
     * starts with a minus sign is a unary expression to C and is printed as one.
     */
    record Literal(String text) implements CExpr {
        public Literal {
            if (text.isBlank()) {
                throw new IllegalArgumentException("empty literal");
            }
        }

        @Override
        public int precedence() {
            return text.startsWith("-") || text.startsWith("+") ? UNARY : PRIMARY;
        }
    }

    /**
     * C text built elsewhere (for instance by the expression emitter), kept as a leaf. Its precedence is
     * what the text's own outermost operator has; {@link #LOWEST} when unknown, so that it is
     * parenthesized wherever it is an operand.
     */
    record Text(String text, int precedence) implements CExpr {
        public Text {
            Objects.requireNonNull(text);
        }

        /** Text of unknown shape. */
        public Text(String text) {
            this(text, LOWEST);
        }
    }

    /** A prefix operator: {@code -}, {@code !}, {@code ~}, {@code *}, {@code &}. */
    record Unary(String operator, CExpr operand) implements CExpr {
        public Unary {
            if (!List.of("-", "+", "!", "~", "*", "&").contains(operator)) {
                throw new IllegalArgumentException("not a C prefix operator: " + operator);
            }
        }

        @Override
        public int precedence() {
            return UNARY;
        }
    }

    /** A binary operator, left associative as all of C's binary operators other than assignment are. */
    record Binary(CExpr left, BinaryOperator operator, CExpr right) implements CExpr {
        @Override
        public int precedence() {
            return operator.precedence;
        }
    }

    /** {@code condition ? ifTrue : ifFalse}. */
    record Conditional(CExpr condition, CExpr ifTrue, CExpr ifFalse) implements CExpr {
        @Override
        public int precedence() {
            return CONDITIONAL;
        }
    }

    /** A call of a function or builtin by name. */
    record Call(String function, List<CExpr> arguments) implements CExpr {
        public Call {
            requireIdentifier(function);
            arguments = List.copyOf(arguments);
        }

        public Call(String function, CExpr... arguments) {
            this(function, List.of(arguments));
        }

        @Override
        public int precedence() {
            return PRIMARY;
        }
    }

    /** {@code array[index]}. */
    record Index(CExpr array, CExpr index) implements CExpr {
        @Override
        public int precedence() {
            return PRIMARY;
        }
    }

    /** {@code (type) operand}. */
    record Cast(String type, CExpr operand) implements CExpr {
        @Override
        public int precedence() {
            return UNARY;
        }
    }

    /** {@code base.member}, or {@code base->member} through a pointer. */
    record Member(CExpr base, String member, boolean throughPointer) implements CExpr {
        public Member {
            requireIdentifier(member);
        }

        @Override
        public int precedence() {
            return PRIMARY;
        }
    }

    /** C's binary operators with their precedence. */
    enum BinaryOperator {
        MUL("*", 13), DIV("/", 13), REM("%", 13),
        ADD("+", 12), SUB("-", 12),
        SHL("<<", 11), SHR(">>", 11),
        LT("<", 10), LE("<=", 10), GT(">", 10), GE(">=", 10),
        EQ("==", 9), NE("!=", 9),
        AND("&", 8), XOR("^", 7), OR("|", 6),
        LOGICAL_AND("&&", 5), LOGICAL_OR("||", 4);

        public final String symbol;
        public final int precedence;

        BinaryOperator(String symbol, int precedence) {
            this.symbol = symbol;
            this.precedence = precedence;
        }

        /**
         * Bitwise, shift and logical operators: C programmers do not rely on their relative precedence
         * (nor on theirs against arithmetic), so operands that are other operators get parentheses.
         */
        boolean wantsExplicitGrouping() {
            return switch (this) {
                case AND, XOR, OR, SHL, SHR, LOGICAL_AND, LOGICAL_OR -> true;
                default -> false;
            };
        }
    }

    static CExpr name(String name) {
        return new Name(name);
    }

    static CExpr literal(String text) {
        return new Literal(text);
    }

    static CExpr binary(CExpr left, BinaryOperator operator, CExpr right) {
        return new Binary(left, operator, right);
    }

    private static void requireIdentifier(String name) {
        if (name.isEmpty() || Character.isDigit(name.charAt(0))
                || !name.chars().allMatch(c -> c < 128 && (Character.isLetterOrDigit(c) || c == '_'))) {
            throw new IllegalArgumentException("not a C identifier: '" + name + "'");
        }
    }
}
