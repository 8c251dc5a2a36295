package jpai.ocl.c;

import static jpai.ocl.c.CExpr.BinaryOperator.ADD;
import static jpai.ocl.c.CExpr.BinaryOperator.AND;
import static jpai.ocl.c.CExpr.BinaryOperator.EQ;
import static jpai.ocl.c.CExpr.BinaryOperator.LOGICAL_AND;
import static jpai.ocl.c.CExpr.BinaryOperator.LOGICAL_OR;
import static jpai.ocl.c.CExpr.BinaryOperator.LT;
import static jpai.ocl.c.CExpr.BinaryOperator.MUL;
import static jpai.ocl.c.CExpr.BinaryOperator.SHL;
import static jpai.ocl.c.CExpr.BinaryOperator.SUB;
import static jpai.ocl.c.CExpr.binary;
import static jpai.ocl.c.CExpr.literal;
import static jpai.ocl.c.CExpr.name;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.junit.jupiter.api.Test;

import jpai.ocl.c.CStmt.Assignment;
import jpai.ocl.c.CStmt.Block;
import jpai.ocl.c.CStmt.Break;
import jpai.ocl.c.CStmt.Case;
import jpai.ocl.c.CStmt.Comment;
import jpai.ocl.c.CStmt.Continue;
import jpai.ocl.c.CStmt.Declaration;
import jpai.ocl.c.CStmt.For;
import jpai.ocl.c.CStmt.Goto;
import jpai.ocl.c.CStmt.If;
import jpai.ocl.c.CStmt.Label;
import jpai.ocl.c.CStmt.Return;
import jpai.ocl.c.CStmt.Switch;
import jpai.ocl.c.CStmt.While;

/** The C tree's printer: parentheses exactly where needed, nesting and indentation. */
class CPrinterTest {

    private static final CExpr A = name("a");
    private static final CExpr B = name("b");
    private static final CExpr C = name("c");

    private static String print(CExpr e) {
        return CPrinter.expression(e);
    }

    @Test
    void parenthesesOnlyWherePrecedenceNeedsThem() {
        assertEquals("a + b * c", print(binary(A, ADD, binary(B, MUL, C))));
        assertEquals("(a + b) * c", print(binary(binary(A, ADD, B), MUL, C)));
        // left associative: the right operand of the same precedence needs parentheses, the left does not
        assertEquals("a - b - c", print(binary(binary(A, SUB, B), SUB, C)));
        assertEquals("a - (b - c)", print(binary(A, SUB, binary(B, SUB, C))));
        assertEquals("a + b < c", print(binary(binary(A, ADD, B), LT, C)));
        assertEquals("a < b == b < c", print(binary(binary(A, LT, B), EQ, binary(B, LT, C))));
    }

    @Test
    void mixedBitwiseShiftAndLogicalOperatorsAreGroupedForReaders() {
        assertEquals("(a & b) == c", print(binary(binary(A, AND, B), EQ, C)));
        assertEquals("a << (b + c)", print(binary(A, SHL, binary(B, ADD, C))));
        assertEquals("(a * b) & c", print(binary(binary(A, MUL, B), AND, C)));
        assertEquals("a & b & c", print(binary(binary(A, AND, B), AND, C)));
        assertEquals("(a && b) || c", print(binary(binary(A, LOGICAL_AND, B), LOGICAL_OR, C)));
        assertEquals("a < b && b < c", print(binary(binary(A, LT, B), LOGICAL_AND, binary(B, LT, C))));
    }

    @Test
    void unaryCastsAndPostfixOperators() {
        assertEquals("-(-a)", print(new CExpr.Unary("-", new CExpr.Unary("-", A))));
        assertEquals("-(-1)", print(new CExpr.Unary("-", literal("-1"))));
        assertEquals("a - -1", print(binary(A, SUB, literal("-1"))));
        assertEquals("!(a < b)", print(new CExpr.Unary("!", binary(A, LT, B))));
        assertEquals("(long) a * b", print(binary(new CExpr.Cast("long", A), MUL, B)));
        assertEquals("(long) (a * b)", print(new CExpr.Cast("long", binary(A, MUL, B))));
        assertEquals("a[b + 1]", print(new CExpr.Index(A, binary(B, ADD, literal("1")))));
        assertEquals("(a + 1)[0]", print(new CExpr.Index(binary(A, ADD, literal("1")), literal("0"))));
        assertEquals("r.s0", print(new CExpr.Member(name("r"), "s0", false)));
        assertEquals("p->len", print(new CExpr.Member(name("p"), "len", true)));
        assertEquals("fma(a, b * c, a < b ? a : b)",
                print(new CExpr.Call("fma", A, binary(B, MUL, C), new CExpr.Conditional(binary(A, LT, B), A, B))));
        assertEquals("(a ? b : c) ? a : (b ? c : a)", print(new CExpr.Conditional(
                new CExpr.Conditional(A, B, C), A, new CExpr.Conditional(B, C, A))));
    }

    @Test
    void opaqueTextIsParenthesizedAsAnOperandUnlessItsPrecedenceIsGiven() {
        CExpr unknown = new CExpr.Text("x + 1");
        assertEquals("(x + 1) * a", print(binary(unknown, MUL, A)));
        assertEquals("x + 1", print(unknown));
        assertEquals("f(x + 1)", print(new CExpr.Call("f", unknown)));
        assertEquals("g(x) * a", print(binary(new CExpr.Text("g(x)", CExpr.PRIMARY), MUL, A)));
    }

    @Test
    void rejectsWhatIsNotC() {
        assertThrows(IllegalArgumentException.class, () -> name("a b"));
        assertThrows(IllegalArgumentException.class, () -> name("1a"));
        assertThrows(IllegalArgumentException.class, () -> new CExpr.Unary("++", A));
        assertThrows(IllegalArgumentException.class, () -> new Assignment(A, "==", B));
        assertThrows(IllegalArgumentException.class, () -> new Comment("a */ b"));
        assertThrows(IllegalArgumentException.class, () -> new Case(List.of(), false, Block.of()));
    }

    @Test
    void nestedStatementsAreIndentedFourSpacesPerLevel() {
        Block body = Block.of(
                new Declaration("int", "sum", literal("0")),
                new For(new Declaration("int", "i", literal("0")), binary(name("i"), LT, name("n")),
                        new Assignment(name("i"), "+=", literal("1")), Block.of(
                                new If(binary(name("i"), EQ, literal("3")), Block.of(new Continue())),
                                new While(null, Block.of(
                                        new If(binary(name("sum"), LT, literal("0")), Block.of(new Goto("done"))),
                                        new Break())),
                                new Assignment(name("sum"), "+=", name("i")))),
                new Label("done"),
                new Return(name("sum")));
        String expected = """
                    int sum = 0;
                    for (int i = 0; i < n; i += 1) {
                        if (i == 3) {
                            continue;
                        }
                        while (1) {
                            if (sum < 0) {
                                goto done;
                            }
                            break;
                        }
                        sum += i;
                    }
                done:;
                    return sum;
                """;
        assertEquals(expected, CPrinter.statements(body, 1));
    }

    @Test
    void elseIfChainsStayFlatAndSwitchArmsNest() {
        CStmt chain = new If(binary(A, LT, literal("0")), Block.of(new Return(literal("-1"))),
                Block.of(new If(binary(A, EQ, literal("0")), Block.of(new Return(literal("0"))),
                        Block.of(new Return(literal("1"))))));
        assertEquals("""
                if (a < 0) {
                    return -1;
                } else if (a == 0) {
                    return 0;
                } else {
                    return 1;
                }
                """, CPrinter.statement(chain, 0));
        CStmt sw = new Switch(A, List.of(
                new Case(List.of(literal("1"), literal("2")), false, Block.of(new Assignment(B, literal("3")), new Break())),
                new Case(List.of(), true, Block.of(new Comment("other values"), new Return(B)))));
        assertEquals("""
                switch (a) {
                    case 1:
                    case 2:
                        b = 3;
                        break;
                    default:
                        /* other values */
                        return b;
                }
                """, CPrinter.statement(sw, 0));
    }

    @Test
    void flowFactsComeFromTheTreeNotFromText() {
        assertFalse(CFlow.canCompleteNormally(Block.of(new Assignment(A, B), new Return(A))));
        assertTrue(CFlow.canCompleteNormally(Block.of(new Return(A), new Label("later"), new Assignment(A, B))));
        assertFalse(CFlow.canCompleteNormally(new If(A, Block.of(new Break()), Block.of(new Continue()))));
        assertTrue(CFlow.canCompleteNormally(new If(A, Block.of(new Break()))));
        assertFalse(CFlow.canCompleteNormally(new While(null, Block.of(new Assignment(A, B)))));
        assertTrue(CFlow.canCompleteNormally(new While(null, Block.of(new If(A, Block.of(new Break()))))));
        // a break inside an inner loop leaves the inner loop only
        assertFalse(CFlow.canCompleteNormally(new While(literal("1"), Block.of(new While(A, Block.of(new Break()))))));
        assertTrue(CFlow.canCompleteNormally(new While(A, Block.of())));
        CStmt allReturn = new Switch(A, List.of(new Case(List.of(literal("1")), false, Block.of(new Return(B))),
                new Case(List.of(), true, Block.of(new Return(C)))));
        assertFalse(CFlow.canCompleteNormally(allReturn));
        CStmt noDefault = new Switch(A, List.of(new Case(List.of(literal("1")), false, Block.of(new Return(B)))));
        assertTrue(CFlow.canCompleteNormally(noDefault));
    }

    @Test
    void labelsNoGotoNamesAreDroppedFromTheFinishedTree() {
        Block body = Block.of(
                new While(A, Block.of(new If(B, Block.of(new Goto("used"))), new Label("unused"), new Assignment(C, A))),
                new Label("used"),
                new Label("alsoUnused"),
                new Return(C));
        assertEquals("""
                while (a) {
                    if (b) {
                        goto used;
                    }
                    c = a;
                }
                used:;
                return c;
                """, CPrinter.statements(CLabels.withoutUnused(body), 0));
    }
}
