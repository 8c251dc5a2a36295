package jpai.ocl.c;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * An OpenCL C statement. Nodes are immutable; {@link CPrinter} renders them with consistent
 * indentation. Code generators build these instead of writing text, so that later passes (tiling,
 * barriers) can inspect and rearrange statements without re-parsing emitted C.
 */
public sealed interface CStmt {

    /** {@code { statements }}; the printer renders a block nested in another statement without a second brace pair. */
    record Block(List<CStmt> statements) implements CStmt {
        public Block {
            statements = List.copyOf(statements);
        }

        public static Block of(CStmt... statements) {
            if (statements.length == 1 && statements[0] instanceof Block block) {
                return block; // no braces inside braces
            }
            return new Block(List.of(statements));
        }

        /** This block followed by {@code more}. */
        public Block plus(CStmt... more) {
            List<CStmt> all = new ArrayList<>(statements);
            all.addAll(List.of(more));
            return new Block(all);
        }
    }

    /** {@code type name;} or {@code type name = initializer;}. */
    record Declaration(String type, String name, CExpr initializer) implements CStmt {
        public Declaration {
            Objects.requireNonNull(type);
            new CExpr.Name(name); // checks the name
        }

        public Declaration(String type, String name) {
            this(type, name, null);
        }
    }

    /** {@code target = value;}, or a compound assignment such as {@code target += value;}. */
    record Assignment(CExpr target, String operator, CExpr value) implements CStmt {
        public Assignment {
            if (!List.of("=", "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", "<<=", ">>=").contains(operator)) {
                throw new IllegalArgumentException("not a C assignment operator: " + operator);
            }
        }

        public Assignment(CExpr target, CExpr value) {
            this(target, "=", value);
        }
    }

    /** An expression evaluated for its effect, such as a call. */
    record ExpressionStatement(CExpr expression) implements CStmt {
    }

    /** {@code if (condition) { ifTrue } else { ifFalse }}; {@code ifFalse} is empty when there is no else. */
    record If(CExpr condition, Block ifTrue, Block ifFalse) implements CStmt {
        public If(CExpr condition, Block ifTrue) {
            this(condition, ifTrue, Block.of());
        }
    }

    /** {@code while (condition) { body }}; a null condition is {@code while (1)}. */
    record While(CExpr condition, Block body) implements CStmt {
    }

    /**
     * {@code for (initializer; condition; update) { body }}; each header part may be null. The initializer
     * is a {@link Declaration} or {@link Assignment}, the update an {@link Assignment} or
     * {@link ExpressionStatement}, printed without their semicolons.
     */
    record For(CStmt initializer, CExpr condition, CStmt update, Block body) implements CStmt {
        public For {
            if (initializer != null && !(initializer instanceof Declaration || initializer instanceof Assignment)) {
                throw new IllegalArgumentException("a for initializer is a declaration or an assignment: " + initializer);
            }
            if (update != null && !(update instanceof Assignment || update instanceof ExpressionStatement)) {
                throw new IllegalArgumentException("a for update is an assignment or an expression: " + update);
            }
        }
    }

    /** {@code break;} out of the innermost loop or switch. */
    record Break() implements CStmt {
    }

    /** {@code continue;} with the innermost loop's next iteration. */
    record Continue() implements CStmt {
    }

    /** {@code return;} or {@code return value;}. */
    record Return(CExpr value) implements CStmt {
    }

    /** {@code goto label;}: only where C has no structured jump, such as leaving two loops at once. */
    record Goto(String label) implements CStmt {
        public Goto {
            new CExpr.Name(label);
        }
    }

    /** {@code label:;}, the target of a {@link Goto}. */
    record Label(String label) implements CStmt {
        public Label {
            new CExpr.Name(label);
        }
    }

    /** {@code switch (selector) { cases }}. */
    record Switch(CExpr selector, List<Case> cases) implements CStmt {
        public Switch {
            cases = List.copyOf(cases);
        }
    }

    /**
     * One arm of a {@link Switch}: its case values (C literals), whether it is also the default arm, and
     * its body. Control falls into the next arm when the body can complete normally, as in C.
     */
    record Case(List<CExpr> values, boolean isDefault, Block body) {
        public Case {
            values = List.copyOf(values);
            if (values.isEmpty() && !isDefault) {
                throw new IllegalArgumentException("a case arm needs a value or to be the default");
            }
        }
    }

    /** {@code /* text *\/}, one line. */
    record Comment(String text) implements CStmt {
        public Comment {
            if (text.contains("*/") || text.contains("\n")) {
                throw new IllegalArgumentException("a comment is one line without '*/': " + text);
            }
        }
    }

    /** An empty line between groups of statements, for readers. */
    record BlankLine() implements CStmt {
    }
}
