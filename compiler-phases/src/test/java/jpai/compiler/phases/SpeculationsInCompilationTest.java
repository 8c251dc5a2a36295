package jpai.compiler.phases;

import static jpai.compiler.phases.PhaseTestSupport.APPLY;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

import org.junit.jupiter.api.Test;

import jdk.graal.compiler.nodes.StaticDeoptimizingNode;
import jdk.graal.compiler.nodes.StructuredGraph;
import jdk.vm.ci.meta.DeoptimizationReason;
import jdk.vm.ci.meta.JavaKind;
import jpai.compiler.CapturedValue;
import jpai.compiler.KernelGraphCompiler;
import jpai.compiler.KernelSignature;
import jpai.compiler.GraalSpeculations;
import jpai.compiler.Speculation;
import jpai.compiler.Speculations;
import jpai.compiler.ValueShape;

/**
 * The exits each {@link Speculation} makes, and that a compilation without it makes none:
 * {@link SpeculativeBoundsCheckHoistingPhase} (LoopLimitCheck guards),
 * {@link LoopInvariantExitsPhase} from a counted loop's body (guards carrying
 * {@link Speculation#HOISTED_LOOP_EXITS}), and never-taken branches from the body's profile
 * ({@link UntakenBranchesAsSpeculationsPhase}).
 */
class SpeculationsInCompilationTest {

    private static StructuredGraph compile(Function<Integer, Integer> f, Speculations speculations) {
        List<CapturedValue> captures = new ArrayList<>();
        for (var field : f.getClass().getDeclaredFields()) {
            if (field.getType() == int[].class) {
                captures.add(new CapturedValue(field, new ValueShape.PrimitiveArray(JavaKind.Int)));
            } else if (field.getType() == int.class) {
                captures.add(new CapturedValue(field, new ValueShape.Primitive(JavaKind.Int)));
            }
        }
        KernelSignature signature = new KernelSignature(List.of(ValueShape.ofBoxed(Integer.class)), ValueShape.ofBoxed(Integer.class), captures);
        return new KernelGraphCompiler().compile(f, APPLY, signature, speculations).graph();
    }

    /** Exits (guards and deoptimisations) that carry {@code speculation}. */
    private static long exitsOf(StructuredGraph graph, Speculation speculation) {
        return graph.getNodes().filter(n -> n instanceof StaticDeoptimizingNode exit && GraalSpeculations.from(exit.getSpeculation()) == speculation).count();
    }

    private static long exitsFor(StructuredGraph graph, DeoptimizationReason reason) {
        return graph.getNodes().filter(n -> n instanceof StaticDeoptimizingNode exit && exit.getReason() == reason).count();
    }

    private static Function<Integer, Integer> earlyBreakingSum(int[] values, int n) {
        return k -> {
            int sum = 0;
            for (int j = 0; j < n; j++) {
                if (j == (k & 3)) {
                    break;
                }
                sum += values[j];
            }
            return sum;
        };
    }

    @Test
    void withoutHoistedBoundsChecksTheLoopKeepsItsOwnCheck() {
        Function<Integer, Integer> f = earlyBreakingSum(new int[] {1, 2, 3, 4}, 100);
        StructuredGraph speculating = compile(f, Speculations.ALL);
        assertTrue(exitsFor(speculating, DeoptimizationReason.LoopLimitCheck) >= 1, "the bounds check is hoisted");
        assertTrue(exitsOf(speculating, Speculation.HOISTED_LOOP_EXITS) >= 1, "the null check of the array is hoisted out of the body");
        StructuredGraph withoutBounds = compile(f, Speculations.ALL.without(Speculation.HOISTED_BOUNDS_CHECKS));
        assertEquals(0, exitsFor(withoutBounds, DeoptimizationReason.LoopLimitCheck), "no hoisted bounds check");
        assertTrue(exitsFor(withoutBounds, DeoptimizationReason.BoundsCheckException) >= 1, "the check stays in the loop");
        StructuredGraph withoutAny = compile(f, Speculations.NONE);
        assertEquals(0, exitsOf(withoutAny, Speculation.HOISTED_LOOP_EXITS), "no exit hoisted out of the body");
        assertEquals(0, exitsFor(withoutAny, DeoptimizationReason.LoopLimitCheck));
    }

    @Test
    void aBranchNeverTakenInJavaIsAnExitOnlyWhenTheProfileIsUsed() {
        int limit = 1 << 30;
        Function<Integer, Integer> f = x -> x > limit ? System.identityHashCode(new Object()) : x + 1;
        KernelGraphCompiler compiler = new KernelGraphCompiler();
        int sum = 0;
        for (int round = 0; round < 50 && !compiler.hasMatureProfile(f, APPLY); round++) {
            for (int i = 0; i < 20_000; i++) {
                sum += f.apply(i);
            }
        }
        assertTrue(sum != 0 && compiler.hasMatureProfile(f, APPLY), "HotSpot's profile of the lambda is mature");
        StructuredGraph fromProfile = compile(f, Speculations.ALL);
        assertTrue(exitsOf(fromProfile, Speculation.UNTAKEN_BRANCHES) >= 1, "the branch never taken is an exit");
        StructuredGraph withoutProfile = compile(f, Speculations.ALL.without(Speculation.UNTAKEN_BRANCHES));
        assertEquals(0, exitsOf(withoutProfile, Speculation.UNTAKEN_BRANCHES), "without the profile the cold branch is compiled");
        assertEquals(0, exitsFor(withoutProfile, DeoptimizationReason.UnreachedCode));
    }
}
