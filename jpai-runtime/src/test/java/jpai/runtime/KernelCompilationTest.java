package jpai.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.function.BinaryOperator;
import java.util.function.Function;

import org.junit.jupiter.api.Test;

import jpai.ElementType;
import jpai.TupleType;

/** The uncached, timed compilation entry point compiles what the runtime would, and times both halves. */
class KernelCompilationTest {

    @Test
    void mapOfATupleWithACapture() {
        float scale = 3f;
        Function<jpai.Tuple2<Float, Float>, Float> f = t -> t._1() * scale + t._2();
        KernelCompilation.Result result = KernelCompilation.map(f, TupleType.of(Float.class, Float.class), ElementType.FLOAT);
        assertEquals("jpai_map", result.kernel().kernelName());
        assertEquals(1, result.kernel().captures().size());
        assertTrue(result.graphNanos() > 0 && result.generationNanos() > 0);
        assertEquals(result.graphNanos() + result.generationNanos(), result.totalNanos());
        assertTrue(result.phases().steps().size() > 5, result.phases().toString());
    }

    @Test
    void fusedMapAndReduce() {
        Function<Integer, Long> square = x -> (long) x * x;
        BinaryOperator<Long> sum = Long::sum;
        KernelCompilation.Result result = KernelCompilation.reduce(sum, ElementType.LONG, square, ElementType.INT);
        assertEquals("jpai_reduce", result.kernel().kernelName());
        assertTrue(result.kernel().text().contains("jpai_m0_"), "the mapper is fused in");
    }
}
