package jpai.test.exactness;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.SplittableRandom;
import java.util.function.Function;
import java.util.stream.Stream;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import jpai.AF;
import jpai.ApplyProfile;
import jpai.ArrayFunction;
import jpai.Executor;
import jpai.PArray;
import jpai.ocl.ExactFloatDivSqrt;
import jpai.runtime.JpaiOptions;

/**
 * Issue 12, cheaper exactness: every formulation of float division and square root
 * ({@code -Djpai.exactDivSqrt}) gives Java's bits on the device, on every pair of edge values and on
 * random operands (a few seconds; {@link ExactDivSqrtProof} is the long proof, every float's root and
 * tens of millions of quotients). With {@code JPAI_EXPECT_OPENCL=1} each apply must run on the device
 * ({@code -Djpai.fallback=error}, and the profile shows launched kernels).
 */
class ExactDivSqrtTest {

    private static final int RANDOM = 1 << 17;

    @AfterEach
    void restore() {
        System.clearProperty(JpaiOptions.EXACT_DIV_SQRT);
        System.clearProperty(JpaiOptions.FALLBACK);
        System.clearProperty(JpaiOptions.DUMP_OPENCL);
    }

    @ParameterizedTest
    @EnumSource(ExactFloatDivSqrt.class)
    void divisionIsJavasOnEdgePairsAndRandomPairs(ExactFloatDivSqrt formulation) {
        float[][] edges = FloatDivSqrtCases.edgePairs();
        float[] a = new float[edges[0].length + RANDOM];
        float[] b = new float[a.length];
        System.arraycopy(edges[0], 0, a, 0, edges[0].length);
        System.arraycopy(edges[1], 0, b, 0, edges[1].length);
        FloatDivSqrtCases.randomPairs(new SplittableRandom(12), a, b, edges[0].length, RANDOM);
        float[] expected = new float[a.length];
        for (int i = 0; i < a.length; i++) {
            expected[i] = a[i] / b[i];
        }
        try (PArray<Float> dividends = PArray.of(a); PArray<Float> divisors = PArray.of(b);
                        PArray<Float> quotients = onDevice(formulation, AF.<Float, Float>zip2().map(t -> t._1() / t._2()), PArray.zip(dividends, divisors))) {
            assertBits(expected, quotients.toFloatArray(), i -> a[i] + " / " + b[i], formulation);
        }
    }

    @ParameterizedTest
    @EnumSource(ExactFloatDivSqrt.class)
    void squareRootAndItsReciprocalAreJavasOnEdgesAndRandomArguments(ExactFloatDivSqrt formulation) {
        float[] edges = FloatDivSqrtCases.edges();
        float[] x = new float[edges.length + RANDOM];
        System.arraycopy(edges, 0, x, 0, edges.length);
        FloatDivSqrtCases.randomRoots(new SplittableRandom(13), x, edges.length, RANDOM);
        float[] roots = new float[x.length];
        float[] reciprocals = new float[x.length];
        for (int i = 0; i < x.length; i++) {
            roots[i] = (float) Math.sqrt(x[i]);
            reciprocals[i] = 1.0f / (float) Math.sqrt(x[i]);
        }
        try (PArray<Float> in = PArray.of(x)) {
            try (PArray<Float> out = onDevice(formulation, AF.map((Float v) -> (float) Math.sqrt(v)), in)) {
                assertBits(roots, out.toFloatArray(), i -> "sqrt(" + x[i] + ")", formulation);
            }
            // N-Body's 1.0f / (float) Math.sqrt(d2): two roundings, as Java's
            try (PArray<Float> out = onDevice(formulation, AF.map((Float v) -> 1.0f / (float) Math.sqrt(v)), in)) {
                assertBits(reciprocals, out.toFloatArray(), i -> "1 / sqrt(" + x[i] + ")", formulation);
            }
        }
    }

    @Test
    void eachFormulationEmitsItsOwnCodeAndBuildOptions(@TempDir Path dir) throws IOException {
        float[] values = {2f, 3f};
        for (ExactFloatDivSqrt formulation : ExactFloatDivSqrt.values()) {
            Path dump = dir.resolve(formulation.optionValue());
            System.setProperty(JpaiOptions.DUMP_OPENCL, dump.toString());
            try (PArray<Float> in = PArray.of(values); PArray<Float> out = onDevice(formulation, AF.map((Float v) -> 1.0f / (float) Math.sqrt(v)), in)) {
                assertEquals(1.0f / (float) Math.sqrt(3f), out.get(1));
            }
            String text;
            try (Stream<Path> files = Files.list(dump)) {
                text = Files.readString(files.findFirst().orElseThrow());
            }
            String helper = switch (formulation) {
                case BUILTIN -> null;
                case DOUBLE -> "jpai_sqrt_float_double(";
                case FMA -> "jpai_sqrt_float_fma(";
            };
            if (helper == null) {
                assertTrue(!text.contains("jpai_sqrt_float") && !text.contains("jpai_div_float"), text);
            } else {
                assertTrue(text.contains(helper) && text.contains(helper.replace("sqrt", "div")), text);
            }
        }
    }

    @Test
    void anUnknownFormulationIsRefusedWithTheProperty() {
        System.setProperty(JpaiOptions.EXACT_DIV_SQRT, "approximate");
        try (PArray<Float> in = PArray.of(4f)) {
            try (PArray<Float> out = AF.map((Float v) -> v / 3f).on(Executor.ACCELERATOR).apply(in)) {
                assertEquals(4f / 3f, out.get(0)); // in Java, for the reason below
            }
            ApplyProfile profile = AF.lastProfile();
            assertTrue(profile.fellBack() && profile.fallbackReason().contains("-Djpai.exactDivSqrt=approximate")
                            && profile.fallbackReason().contains("builtin, double or fma"), profile.toString());
        }
    }

    /** Applies {@code function} with {@code formulation}; where OpenCL is expected, it must run there. */
    private static <T> PArray<Float> onDevice(ExactFloatDivSqrt formulation, ArrayFunction<T, Float> function, PArray<T> input) {
        System.setProperty(JpaiOptions.EXACT_DIV_SQRT, formulation.optionValue());
        boolean expected = "1".equals(System.getenv("JPAI_EXPECT_OPENCL"));
        if (expected) {
            System.setProperty(JpaiOptions.FALLBACK, "error");
        }
        PArray<Float> out = function.on(Executor.ACCELERATOR).apply(input);
        ApplyProfile profile = AF.lastProfile();
        if (expected) {
            assertTrue(!profile.fellBack() && profile.kernelCount() > 0, formulation + ": the device ran: " + profile);
        }
        return out;
    }

    private static void assertBits(float[] expected, float[] actual, Function<Integer, String> operation, ExactFloatDivSqrt formulation) {
        assertEquals(expected.length, actual.length);
        for (int i = 0; i < expected.length; i++) {
            if (Float.floatToIntBits(expected[i]) != Float.floatToIntBits(actual[i])) {
                throw new AssertionError(formulation.optionValue() + ": " + operation.apply(i) + " is " + Float.toHexString(actual[i]) + " on the device, Java gives "
                                + Float.toHexString(expected[i]));
            }
        }
    }
}
