package jpai.ocl.c;

import java.util.List;

import jpai.ocl.c.CExpr.Binary;
import jpai.ocl.c.CExpr.BinaryOperator;
import jpai.ocl.c.CExpr.Call;
import jpai.ocl.c.CExpr.Cast;
import jpai.ocl.c.CExpr.Conditional;
import jpai.ocl.c.CExpr.Index;
import jpai.ocl.c.CExpr.Literal;
import jpai.ocl.c.CExpr.Member;
import jpai.ocl.c.CExpr.Name;
import jpai.ocl.c.CExpr.Text;
import jpai.ocl.c.CExpr.Unary;
import jpai.ocl.c.CStmt.Assignment;
import jpai.ocl.c.CStmt.BlankLine;
import jpai.ocl.c.CStmt.Block;
import jpai.ocl.c.CStmt.Break;
import jpai.ocl.c.CStmt.Case;
import jpai.ocl.c.CStmt.Comment;
import jpai.ocl.c.CStmt.Continue;
import jpai.ocl.c.CStmt.Declaration;
import jpai.ocl.c.CStmt.ExpressionStatement;
import jpai.ocl.c.CStmt.For;
import jpai.ocl.c.CStmt.Goto;
import jpai.ocl.c.CStmt.If;
import jpai.ocl.c.CStmt.Label;
import jpai.ocl.c.CStmt.Return;
import jpai.ocl.c.CStmt.Switch;
import jpai.ocl.c.CStmt.While;

/**
 * Renders the C syntax tree as text: four spaces per level, braces on the statement's line, labels one
 * level out from the code around them, {@code else if} chains kept flat, and parentheses only where C's
 * precedence needs them or where mixed bitwise, shift and logical operators would make readers look
 * the precedence up.
 */
public final class CPrinter {

    private static final String INDENT = "    ";

    private CPrinter() {
    }

    /** The statements of {@code body} as lines starting {@code depth} levels in (no braces around them). */
    public static String statements(Block body, int depth) {
        StringBuilder out = new StringBuilder();
        for (CStmt statement : body.statements()) {
            statement(out, statement, depth);
        }
        return out.toString();
    }

    /** One statement as lines starting {@code depth} levels in. */
    public static String statement(CStmt statement, int depth) {
        StringBuilder out = new StringBuilder();
        statement(out, statement, depth);
        return out.toString();
    }

    /** An expression, without parentheses around the whole. */
    public static String expression(CExpr expression) {
        StringBuilder out = new StringBuilder();
        expression(out, expression);
        return out.toString();
    }

    private static void statement(StringBuilder out, CStmt statement, int depth) {
        switch (statement) {
            case Block block -> {
                line(out, depth, "{");
                body(out, block, depth + 1);
                line(out, depth, "}");
            }
            case Declaration _, Assignment _, ExpressionStatement _ -> line(out, depth, inline(statement) + ";");
            case If branch -> ifChain(out, branch, depth, "");
            case While loop -> {
                line(out, depth, "while (" + (loop.condition() == null ? "1" : expression(loop.condition())) + ") {");
                body(out, loop.body(), depth + 1);
                line(out, depth, "}");
            }
            case For loop -> {
                String header = "for (" + (loop.initializer() == null ? "" : inline(loop.initializer())) + ";"
                        + (loop.condition() == null ? "" : " " + expression(loop.condition())) + ";"
                        + (loop.update() == null ? "" : " " + inline(loop.update())) + ")";
                line(out, depth, header + " {");
                body(out, loop.body(), depth + 1);
                line(out, depth, "}");
            }
            case Break _ -> line(out, depth, "break;");
            case Continue _ -> line(out, depth, "continue;");
            case Return r -> line(out, depth, r.value() == null ? "return;" : "return " + expression(r.value()) + ";");
            case Goto g -> line(out, depth, "goto " + g.label() + ";");
            case Label l -> line(out, Math.max(depth - 1, 0), l.label() + ":;");
            case Switch s -> {
                line(out, depth, "switch (" + expression(s.selector()) + ") {");
                for (Case arm : s.cases()) {
                    for (CExpr value : arm.values()) {
                        line(out, depth + 1, "case " + expression(value) + ":");
                    }
                    if (arm.isDefault()) {
                        line(out, depth + 1, "default:");
                    }
                    body(out, arm.body(), depth + 2);
                }
                line(out, depth, "}");
            }
            case Comment c -> line(out, depth, "/* " + c.text() + " */");
            case BlankLine _ -> out.append('\n');
        }
    }

    private static void ifChain(StringBuilder out, If branch, int depth, String opening) {
        line(out, depth, opening + "if (" + expression(branch.condition()) + ") {");
        body(out, branch.ifTrue(), depth + 1);
        List<CStmt> otherwise = branch.ifFalse().statements();
        if (otherwise.size() == 1 && otherwise.get(0) instanceof If elseIf) {
            ifChain(out, elseIf, depth, "} else ");
            return;
        }
        if (!otherwise.isEmpty()) {
            line(out, depth, "} else {");
            body(out, branch.ifFalse(), depth + 1);
        }
        line(out, depth, "}");
    }

    private static void body(StringBuilder out, Block block, int depth) {
        for (CStmt statement : block.statements()) {
            statement(out, statement, depth);
        }
    }

    /** A declaration, assignment or expression statement without its semicolon (as in a for header). */
    private static String inline(CStmt statement) {
        return switch (statement) {
            case Declaration d -> d.type() + " " + d.name() + (d.initializer() == null ? "" : " = " + expression(d.initializer()));
            case Assignment a -> expression(a.target()) + " " + a.operator() + " " + expression(a.value());
            case ExpressionStatement e -> expression(e.expression());
            default -> throw new IllegalArgumentException("not a simple statement: " + statement);
        };
    }

    private static void line(StringBuilder out, int depth, String text) {
        out.append(INDENT.repeat(depth)).append(text).append('\n');
    }

    private static void expression(StringBuilder out, CExpr expression) {
        switch (expression) {
            case Name n -> out.append(n.name());
            case Literal l -> out.append(l.text());
            case Text t -> out.append(t.text());
            case Unary u -> {
                out.append(u.operator());
                String operand = expression(u.operand());
                boolean wouldFuse = !operand.isEmpty() && "+-&".indexOf(operand.charAt(0)) >= 0 && operand.charAt(0) == u.operator().charAt(0);
                operand(out, u.operand(), CExpr.UNARY, wouldFuse);
            }
            case Cast c -> {
                out.append('(').append(c.type()).append(") ");
                operand(out, c.operand(), CExpr.UNARY, false);
            }
            case Binary b -> {
                operand(out, b.left(), b.operator().precedence, needsGrouping(b.operator(), b.left()));
                out.append(' ').append(b.operator().symbol).append(' ');
                operand(out, b.right(), b.operator().precedence + 1, needsGrouping(b.operator(), b.right()));
            }
            case Conditional c -> {
                operand(out, c.condition(), CExpr.CONDITIONAL + 1, false);
                out.append(" ? ");
                operand(out, c.ifTrue(), CExpr.CONDITIONAL + 1, false);
                out.append(" : ");
                operand(out, c.ifFalse(), CExpr.CONDITIONAL + 1, false);
            }
            case Call c -> {
                out.append(c.function()).append('(');
                for (int i = 0; i < c.arguments().size(); i++) {
                    out.append(i == 0 ? "" : ", ");
                    expression(out, c.arguments().get(i));
                }
                out.append(')');
            }
            case Index i -> {
                operand(out, i.array(), CExpr.PRIMARY, false);
                out.append('[');
                expression(out, i.index());
                out.append(']');
            }
            case Member m -> {
                operand(out, m.base(), CExpr.PRIMARY, false);
                out.append(m.throughPointer() ? "->" : ".").append(m.member());
            }
        }
    }

    /** {@code operand}, in parentheses if it binds less tightly than {@code required} or {@code group} says so. */
    private static void operand(StringBuilder out, CExpr operand, int required, boolean group) {
        boolean parenthesize = group || operand.precedence() < required;
        if (parenthesize) {
            out.append('(');
        }
        expression(out, operand);
        if (parenthesize) {
            out.append(')');
        }
    }

    /**
     * True where C would parse the operand right without parentheses but readers would have to look its
     * precedence up: a different binary operator under a bitwise or shift operator, and a bitwise or the
     * other logical operator under a logical one.
     */
    private static boolean needsGrouping(BinaryOperator parent, CExpr operand) {
        if (!(operand instanceof Binary child) || child.operator() == parent || !parent.wantsExplicitGrouping()) {
            return false;
        }
        boolean parentIsLogical = parent == BinaryOperator.LOGICAL_AND || parent == BinaryOperator.LOGICAL_OR;
        return !parentIsLogical || child.operator().wantsExplicitGrouping();
    }
}
