package jpai.compiler.phases;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import jdk.graal.compiler.core.common.type.IntegerStamp;
import jdk.graal.compiler.nodes.NodeView;
import jdk.graal.compiler.nodes.calc.CompareNode;
import jdk.vm.ci.meta.JavaKind;
import jpai.compiler.ParallelLoopCompiler;
import jpai.compiler.Speculations;
import jpai.compiler.ValueShape;
import jpai.compiler.loops.MarkedVariable;

/**
 * An accelerated method's loops are tested in 32 bits where both sides of a comparison are
 * widened ints, as a lambda's are ({@link NarrowWidenedComparisonsPhase} in the parallel loop's
 * pipeline too): NVIDIA's compiler unrolls only loops whose test is on ints.
 */
class ParallelLoopWidenedComparisonsTest {

    /**
     * Each element: the sum of {@code x}'s elements from it on, around; the inner loop's bound is
     * {@code x}'s length as an unsigned long, a zero extension that Graal's own canonicaliser does
     * not narrow beside the counter's sign extension (an int length never negative: the phase does).
     */
    static void windowSums(float[] x, float[] sums) {
        for (int i = 0; i < sums.length; i++) {
            long count = Integer.toUnsignedLong(x.length);
            float sum = 0;
            for (int k = 0; k < count; k++) {
                sum += x[(i + k) % x.length];
            }
            sums[i] = sum;
        }
    }

    @Test
    void aLoopBoundOfAWidenedIntIsTestedInThirtyTwoBits() throws Exception {
        Method method = ParallelLoopWidenedComparisonsTest.class.getDeclaredMethod("windowSums", float[].class, float[].class);
        ValueShape floats = new ValueShape.PrimitiveArray(JavaKind.Float);
        // the parallel loop's variable i is in slot 2 (after x and sums) over the whole method
        ParallelLoopCompiler.LoopKernel loop = new ParallelLoopCompiler().compile(method, List.of(floats, floats), Map.of(), List.of(),
                        List.of(new MarkedVariable(2, 0, 10_000)), null, false, Speculations.WITHOUT_PROFILE);
        List<String> wide = new ArrayList<>();
        int comparisons = 0;
        for (CompareNode compare : loop.graph().graph().getNodes().filter(CompareNode.class)) {
            comparisons++;
            if (compare.getX().stamp(NodeView.DEFAULT) instanceof IntegerStamp stamp && stamp.getBits() == 64) {
                wide.add(compare + "(" + compare.getX() + ", " + compare.getY() + ")");
            }
        }
        assertTrue(comparisons > 0, "the inner loop has its test");
        assertEquals(List.of(), wide, "k < count compares the ints k and x.length");
    }
}
