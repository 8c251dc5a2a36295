package jpai.ocl;

import static jpai.ocl.c.CExpr.BinaryOperator.ADD;
import static jpai.ocl.c.CExpr.BinaryOperator.AND;
import static jpai.ocl.c.CExpr.BinaryOperator.EQ;
import static jpai.ocl.c.CExpr.BinaryOperator.GE;
import static jpai.ocl.c.CExpr.BinaryOperator.GT;
import static jpai.ocl.c.CExpr.BinaryOperator.LT;
import static jpai.ocl.c.CExpr.BinaryOperator.MUL;
import static jpai.ocl.c.CExpr.BinaryOperator.SHL;
import static jpai.ocl.c.CExpr.BinaryOperator.SHR;
import static jpai.ocl.c.CExpr.BinaryOperator.SUB;
import static jpai.ocl.c.CExpr.BinaryOperator.XOR;
import static jpai.ocl.c.CExpr.binary;
import static jpai.ocl.c.CExpr.literal;
import static jpai.ocl.c.CExpr.name;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;

import java.util.List;
import java.util.Random;

import org.junit.jupiter.api.Test;

import jdk.vm.ci.meta.JavaKind;
import jpai.ocl.KernelParameter.Role;
import jpai.ocl.c.CExpr;
import jpai.ocl.c.CPrinter;
import jpai.ocl.c.CStmt;
import jpai.ocl.c.CStmt.Assignment;
import jpai.ocl.c.CStmt.Block;
import jpai.ocl.c.CStmt.Break;
import jpai.ocl.c.CStmt.Case;
import jpai.ocl.c.CStmt.Continue;
import jpai.ocl.c.CStmt.Declaration;
import jpai.ocl.c.CStmt.For;
import jpai.ocl.c.CStmt.Goto;
import jpai.ocl.c.CStmt.If;
import jpai.ocl.c.CStmt.Label;
import jpai.ocl.c.CStmt.Return;
import jpai.ocl.c.CStmt.Switch;
import jpai.ocl.c.CStmt.While;

/**
 * A kernel body built as a C tree (nested loops left with continue, break and a goto, a switch with a
 * shared arm, bitwise operators whose grouping the printer decides) builds on the device and computes
 * what the same Java code computes, element by element.
 */
class CTreeOnDeviceTest {

    /** The Java the tree below spells in C. */
    static int reference(int x) {
        int sum = 0;
        outer:
        for (int k = 0; k < 8; k += 1) {
            if (k == 3) {
                continue;
            }
            int j = 0;
            while (true) {
                if (sum > (x & 1023) * 4) {
                    break outer;
                }
                if (j >= k) {
                    break;
                }
                sum += ((x >> j) & 7) ^ (k << 1);
                j += 1;
            }
        }
        switch (sum & 3) {
            case 0:
                return sum;
            case 1:
            case 2:
                return sum * 3 - x;
            default:
                return x < 0 ? x - -1 : ~x + sum;
        }
    }

    static Block body() {
        CExpr x = name("x"), sum = name("sum"), k = name("k"), j = name("j");
        CStmt innerLoop = new While(null, Block.of(
                new If(binary(sum, GT, binary(binary(x, AND, literal("1023")), MUL, literal("4"))), Block.of(new Goto("done"))),
                new If(binary(j, GE, k), Block.of(new Break())),
                new Assignment(sum, "+=", binary(binary(binary(x, SHR, j), AND, literal("7")), XOR, binary(k, SHL, literal("1")))),
                new Assignment(j, "+=", literal("1"))));
        CStmt outerLoop = new For(new Declaration("int", "k", literal("0")), binary(k, LT, literal("8")), new Assignment(k, "+=", literal("1")),
                Block.of(new If(binary(k, EQ, literal("3")), Block.of(new Continue())),
                        new Declaration("int", "j", literal("0")),
                        innerLoop));
        CStmt choice = new Switch(binary(sum, AND, literal("3")), List.of(
                new Case(List.of(literal("0")), false, Block.of(new Return(sum))),
                new Case(List.of(literal("1"), literal("2")), false, Block.of(new Return(binary(binary(sum, MUL, literal("3")), SUB, x)))),
                new Case(List.of(), true, Block.of(new Return(new CExpr.Conditional(binary(x, LT, literal("0")),
                        binary(x, SUB, literal("-1")), binary(new CExpr.Unary("~", x), ADD, sum)))))));
        return Block.of(new Declaration("int", "sum", literal("0")), outerLoop, new Label("done"), choice);
    }

    @Test
    void treeBuiltKernelBuildsAndMatchesJava() {
        String text = "static int element(int x) {\n" + CPrinter.statements(body(), 1) + "}\n\n"
                + "__kernel void jpai_map(__global const int *in0, __global int *out0, const long n, __global int *jpai_status) {\n"
                + "    long i = get_global_id(0);\n"
                + "    if (i < n) {\n"
                + "        out0[i] = element(in0[i]);\n"
                + "    }\n"
                + "}\n";
        KernelSource source = new KernelSource("jpai_map", text, "", List.of(
                new KernelParameter(0, "in0", Role.INPUT_BUFFER, JavaKind.Int, 0),
                new KernelParameter(1, "out0", Role.OUTPUT_BUFFER, JavaKind.Int, 0),
                new KernelParameter(2, "n", Role.LENGTH, JavaKind.Long, 0),
                new KernelParameter(3, "jpai_status", Role.STATUS, JavaKind.Int, 0)));
        int[] inputs = new Random(12).ints(5000).toArray();
        int[] edges = {0, 1, -1, 2, 3, 7, 1023, 1024, -1024, Integer.MIN_VALUE, Integer.MAX_VALUE, Integer.MIN_VALUE + 1};
        System.arraycopy(edges, 0, inputs, 0, edges.length);
        int[] expected = new int[inputs.length];
        for (int i = 0; i < inputs.length; i++) {
            expected[i] = reference(inputs[i]);
        }
        OpenCLTestDevice.Result result = OpenCLTestDevice.get().map(source, inputs.length, List.of(inputs), List.of(JavaKind.Int), List.of());
        assertArrayEquals(expected, (int[]) result.outputs().get(0), text);
    }
}
