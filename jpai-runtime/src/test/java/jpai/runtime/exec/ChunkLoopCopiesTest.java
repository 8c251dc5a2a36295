package jpai.runtime.exec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.function.Function;

import org.junit.jupiter.api.Test;

import jpai.PArray;

class ChunkLoopCopiesTest {

    private static Function<Object, Object> scale(float factor) {
        return x -> (Float) x * factor; // one class for every factor
    }

    @Test
    void eachFunctionClassGetsItsOwnCopyOfTheTemplate() {
        Function<Object, Object> negate = x -> -(Float) x;
        ChunkLoops forScale = ChunkLoopCopies.of(scale(2f));
        ChunkLoops forNegate = ChunkLoopCopies.of(negate);
        assertNotSame(forScale.getClass(), forNegate.getClass(), "two function classes, two copies");
        assertSame(forScale, ChunkLoopCopies.of(scale(3f)), "instances of one lambda class share its copy");
        for (ChunkLoops loops : new ChunkLoops[] {forScale, forNegate}) {
            assertTrue(loops.getClass().isHidden());
            assertNotEquals(ChunkLoopsTemplate.class, loops.getClass());
        }
    }

    @Test
    void aCopyRunsTheTemplatesLoopsOverTheGivenRange() {
        try (PArray<Float> input = PArray.of(1f, 2f, 3f, 4f); PArray<Float> output = PArray.allocate(Float.class, 4)) {
            ChunkLoops loops = ChunkLoopCopies.of(scale(2f));
            java.util.function.BinaryOperator<Object> sum = (a, b) -> (Float) a + (Float) b;
            try (jpai.runtime.memory.BufferLeases leases = jpai.runtime.memory.BufferLeases.of(input, output)) {
                loops.map(scale(10f), ElementReader.ofLeased(input), ElementWriter.ofLeased(output), 1, 3);
                assertEquals(11f, ChunkLoopCopies.of(sum).fold(sum, 1f, ElementReader.ofLeased(input), 0, 4));
            }
            assertEquals(java.util.List.of(0f, 20f, 30f, 0f), java.util.List.of(output.get(0), output.get(1), output.get(2), output.get(3)));
        }
    }
}
