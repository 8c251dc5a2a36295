package jpai.test.fuzz;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

/** The fuzzer's ulp bounds are docs/java-semantics.md's, and cover every function the generator calls. */
class UlpBoundsTest {

    @Test
    void everyGeneratedTranscendentalHasTheDocumentsBound() {
        Stream.concat(Stream.of(ProgramGenerator.UNARY_TRANSCENDENTALS), Stream.of(ProgramGenerator.BINARY_TRANSCENDENTALS))
                        .forEach(f -> assertTrue(UlpBounds.DOUBLE_ULPS.containsKey(f), f + " has no bound in " + UlpBounds.DOCUMENT));
        // OpenCL 1.2 section 7.4 plus java.lang.Math's Javadoc, rounded up
        assertEquals(5, UlpBounds.bound("sin", Prim.DOUBLE));
        assertEquals(7, UlpBounds.bound("tan", Prim.DOUBLE)); // 5 + 1.25
        assertEquals(8, UlpBounds.bound("atan2", Prim.DOUBLE)); // 6 + 2
        assertEquals(8, UlpBounds.bound("tanh", Prim.DOUBLE)); // 5 + 2.5
        assertEquals(6, UlpBounds.bound("hypot", Prim.DOUBLE)); // 4 + 1.5
        assertEquals(17, UlpBounds.bound("pow", Prim.DOUBLE)); // 16 + 1
        // float results of (float) Math.f(x) use the float built-in: OpenCL's float bound plus 1
        assertEquals(17, UlpBounds.bound("pow", Prim.FLOAT)); // 16 + 1
        assertEquals(6, UlpBounds.bound("tan", Prim.FLOAT)); // 5 + 1
        assertEquals(5, UlpBounds.bound("sinh", Prim.FLOAT)); // 4 + 1
        Stream.concat(Stream.of(ProgramGenerator.UNARY_TRANSCENDENTALS), Stream.of(ProgramGenerator.BINARY_TRANSCENDENTALS))
                        .forEach(f -> assertTrue(UlpBounds.FLOAT_ULPS.containsKey(f), f + " has no float bound in " + UlpBounds.DOCUMENT));
    }

    @Test
    void distances() {
        assertEquals(0, UlpBounds.distance(Double.NaN, Double.NaN));
        assertEquals(1, UlpBounds.distance(0.0, -0.0));
        assertEquals(1, UlpBounds.distance(Double.MAX_VALUE, Double.POSITIVE_INFINITY));
        assertEquals(Long.MAX_VALUE, UlpBounds.distance(1.0, Double.NaN));
        assertEquals(2, UlpBounds.distance(1.0f, Math.nextUp(Math.nextUp(1.0f))));
    }
}
