package jpai.test.api;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfEnvironmentVariable;

import jpai.AF;
import jpai.ApplyProfile;
import jpai.ArrayFunction;
import jpai.Executor;
import jpai.PArray;
import jpai.Tuple2;
import jpai.runtime.JpaiOptions;
import jpai.runtime.TieredTakeover;
import jpai.runtime.memory.HostMemory;
import jpai.runtime.memory.PArrayStorage;
import jpai.runtime.memory.PlainHostMemory;
import jpai.runtime.opencl.KernelLaunches;

/**
 * Tiering (issue 21, {@code -Djpai.tiering=true}): under {@code AUTO}, a map (or a reduction) whose kernel is not
 * compiled yet runs on Java threads, with Java's results, while the kernel compiles in the
 * background, and a later apply runs on the device; the profile says so apart from fallbacks.
 * {@code ACCELERATOR} never tiers, and without the property nothing tiers.
 */
@EnabledIfEnvironmentVariable(named = "JPAI_EXPECT_OPENCL", matches = "1")
class TieringTest {

    private static final int N = 50_000;
    private final float[] values = new float[N];
    private final float[] expected = new float[N];

    @BeforeEach
    void tiering() {
        for (int i = 0; i < N; i++) {
            values[i] = i * 0.125f - 1000f;
            expected[i] = values[i] * 3f - 7f;
        }
        System.setProperty(JpaiOptions.TIERING, "true");
    }

    @AfterEach
    void noTiering() {
        System.clearProperty(JpaiOptions.TIERING);
    }

    @Test
    void aFirstApplyRunsInJavaWhileTheKernelCompilesThenTheDeviceTakesOver() throws InterruptedException {
        ArrayFunction<Float, Float> f = AF.map((Float x) -> x * 3f - 7f);
        try (PArray<Float> input = PArray.of(values)) {
            long launches = KernelLaunches.count();
            try (PArray<Float> out = f.apply(input)) {
                ApplyProfile first = AF.lastProfile();
                assertArrayEquals(expected, out.toFloatArray(), "the tiered apply's results");
                assertEquals(launches, KernelLaunches.count(), "no kernel ran for the first apply: " + first);
                assertTrue(first.tiered() && !first.fellBack(), "tiered, not a fallback: " + first);
                assertEquals(null, PArrayStorage.buffer(out, 0).allocation().deviceHandle(),
                                "Java threads wrote the first result: it is in plain memory, not in a freshly pinned block");
            }
            long launched = untilTheDeviceRuns("the map", () -> {
                try (PArray<Float> out = f.apply(input)) {
                    assertArrayEquals(expected, out.toFloatArray(), "each apply's results");
                    if (KernelLaunches.count() > launches) {
                        assertTrue(HostMemory.current() instanceof PlainHostMemory || PArrayStorage.buffer(out, 0).allocation().deviceHandle() != null,
                                        "a result the device wrote is in the device's pinned memory");
                    }
                }
            });
            assertFalse(AF.lastProfile().tiered(), "the apply that launched is not tiered: " + AF.lastProfile());
            assertEquals(1, launched, "one kernel");
        }
    }

    /** Composed maps (one fused kernel on the device) tier as one: the first apply runs on Java threads, later ones as one kernel. */
    @Test
    void composedMapsTierAsOne() throws InterruptedException {
        ArrayFunction<Float, Float> composed = AF.<Float, Float> map(x -> x * 3f).andThen(AF.map(x -> x - 7f));
        try (PArray<Float> input = PArray.of(values)) {
            long launches = KernelLaunches.count();
            try (PArray<Float> out = composed.apply(input)) {
                assertArrayEquals(expected, out.toFloatArray(), "the tiered apply's results");
                assertEquals(launches, KernelLaunches.count(), "no kernel ran for the first apply: " + AF.lastProfile());
                assertTrue(AF.lastProfile().tiered(), "tiered: " + AF.lastProfile());
            }
            long launched = untilTheDeviceRuns("the composed maps", () -> {
                try (PArray<Float> out = composed.apply(input)) {
                    assertArrayEquals(expected, out.toFloatArray(), "each apply's results");
                }
            });
            assertEquals(1, launched, "the maps ran as one fused kernel");
        }
    }

    /**
     * A float sum and a map fused with one tier alike: the first apply on Java threads, later ones on
     * the device, every one with the bits of the one combining tree (docs/java-semantics.md, "Reductions").
     */
    @Test
    void reductionsTierWithTheSameBitsOnEitherSide() throws InterruptedException {
        java.util.function.BinaryOperator<Float> plus = (a, b) -> a + b;
        try (PArray<Float> input = PArray.of(values); PArray<Float> tripled = AF.map((Float x) -> x * 3f - 7f).on(Executor.SEQUENTIAL).apply(input)) {
            int sumBits = Float.floatToRawIntBits(CombiningOrder.fold(plus, 0f, input));
            int mappedSumBits = Float.floatToRawIntBits(CombiningOrder.fold(plus, 0f, tripled));
            ArrayFunction<Float, Float> sum = AF.reduce((Float a, Float b) -> a + b, 0f);
            ArrayFunction<Float, Float> mapThenSum = AF.map((Float x) -> x * 3f - 7f).reduce((Float a, Float b) -> a + b, 0f);
            assertTiersThenRunsOnDevice(sum, input, sumBits, "a sum");
            assertTiersThenRunsOnDevice(mapThenSum, input, mappedSumBits, "a map then a sum");
        }
    }

    /** Scans, filters and keyed reductions tier as well: Java threads first, with the device's bits, the device later. */
    @Test
    void scansFiltersAndKeyedReductionsTierToo() throws InterruptedException {
        try (PArray<Float> input = PArray.of(values)) {
            ArrayFunction<Float, Float> scan = AF.scan((Float a, Float b) -> a + b, 0f);
            ArrayFunction<Float, Float> filter = AF.filter((Float x) -> x > 3.5f);
            ArrayFunction<Float, Float> keyed = AF.reduceByKey((Float x) -> ((int) x.floatValue()) & 15, (Float x) -> x * 0.5f, (Float a, Float b) -> a + b, 0f, 16);
            assertTiersThenRunsOnDevice(scan, input, sequential(scan, input), "a scan");
            assertTiersThenRunsOnDevice(filter, input, sequential(filter, input), "a filter");
            assertTiersThenRunsOnDevice(keyed, input, sequential(keyed, input), "a keyed reduction");
        }
    }

    private static float[] sequential(ArrayFunction<Float, Float> f, PArray<Float> input) {
        try (PArray<Float> out = f.on(Executor.SEQUENTIAL).apply(input)) {
            return out.toFloatArray();
        }
    }

    private static void assertTiersThenRunsOnDevice(ArrayFunction<Float, Float> f, PArray<Float> input, float[] expected, String what) throws InterruptedException {
        long launches = KernelLaunches.count();
        try (PArray<Float> out = f.apply(input)) {
            assertArrayEquals(expected, out.toFloatArray(), what + ": the tiered apply's results");
            assertEquals(launches, KernelLaunches.count(), what + ": no kernel ran for the first apply: " + AF.lastProfile());
            assertTrue(AF.lastProfile().tiered() && !AF.lastProfile().fellBack(), what + ": tiered, not a fallback: " + AF.lastProfile());
        }
        untilTheDeviceRuns(what, () -> {
            try (PArray<Float> out = f.apply(input)) {
                assertArrayEquals(expected, out.toFloatArray(), what + ": each apply's results");
            }
        });
    }

    private static void assertTiersThenRunsOnDevice(ArrayFunction<Float, Float> f, PArray<Float> input, int bits, String what) throws InterruptedException {
        long launches = KernelLaunches.count();
        try (PArray<Float> out = f.apply(input)) {
            assertEquals(bits, Float.floatToRawIntBits(out.get(0)), what + ": the tiered apply's bits");
            assertEquals(launches, KernelLaunches.count(), what + ": no kernel ran for the first apply: " + AF.lastProfile());
            assertTrue(AF.lastProfile().tiered() && !AF.lastProfile().fellBack(), what + ": tiered, not a fallback: " + AF.lastProfile());
        }
        untilTheDeviceRuns(what, () -> {
            try (PArray<Float> out = f.apply(input)) {
                assertEquals(bits, Float.floatToRawIntBits(out.get(0)), what + ": each apply's bits");
            }
        });
    }

    /**
     * For a failing element near the end (in the device's part, once it takes over) and one near the
     * start (in Java's part): {@code failingAt}'s function applied to {@code input} throws Java's
     * {@link ArithmeticException} ({@code / by zero}; HotSpot may drop the message), and for the
     * late one the device took over before it.
     */
    private static void assertJavasExceptionWhereverItFails(java.util.function.IntFunction<ArrayFunction<Integer, ?>> failingAt, PArray<Integer> input) {
        long n = input.length();
        for (int failAt : new int[] {(int) n - 3, 5}) {
            aShortCompilationMeasured();
            ArrayFunction<Integer, ?> f = failingAt.apply(failAt);
            long launches = KernelLaunches.count();
            Throwable thrown = org.junit.jupiter.api.Assertions.assertThrows(Throwable.class, () -> f.apply(input).close());
            assertTrue(thrown instanceof ArithmeticException && (thrown.getMessage() == null || thrown.getMessage().equals("/ by zero")), "Java's exception: " + thrown);
            if (failAt > n / 2) {
                assertTrue(KernelLaunches.count() > launches, "the device took over before element " + failAt);
            }
        }
    }

    /**
     * {@code f}'s first apply to {@code input}, which must have run tiered (not a fallback) and been
     * taken over by the device; its result.
     */
    private static float[] takenOverFirstApply(ArrayFunction<Float, Float> f, PArray<Float> input) {
        long launches = KernelLaunches.count();
        try (PArray<Float> out = f.apply(input)) {
            ApplyProfile first = AF.lastProfile();
            assertTrue(first.tiered() && !first.fellBack(), "tiered, not a fallback: " + first);
            assertTrue(KernelLaunches.count() > launches && first.device().startsWith("Java threads, then "), "the device took over: " + first);
            return out.toFloatArray();
        }
    }

    /** {@code i * 0.001f - 300f} for each of {@code n} elements: the long maps' inputs. */
    private static float[] ramp(int n) {
        float[] values = new float[n];
        for (int i = 0; i < n; i++) {
            values[i] = i * 0.001f - 300f;
        }
        return values;
    }

    /**
     * Multiply-adds per element of the long maps below: seconds of Java threads for 2^20 elements on
     * this project's 2-core CI machine, and as long on a host with more cores (up to 8): on the H100's
     * 16-core host 3,000 steps took half a second, less than a background compilation there, so the
     * device had nothing left to take over.
     */
    private static final int STEPS = 3000 * Math.clamp(Runtime.getRuntime().availableProcessors() / 2, 1, 4);

    /**
     * A first apply long enough for its kernel to compile meanwhile: the device takes over the
     * elements Java threads have not started, and the result is the JVM's, bit for bit (checked
     * against the device's own run in full and against Java on every 61st element).
     */
    @Test
    void theDeviceTakesOverALongFirstApplyWhenItsKernelIsReady() {
        aShortCompilationMeasured();
        int steps = STEPS;
        ArrayFunction<Float, Float> f = AF.map((Float x) -> SlowElements.chain(x, steps));
        float[] inputs = ramp(1 << 20);
        try (PArray<Float> input = PArray.of(inputs)) {
            float[] tiered = takenOverFirstApply(f, input);
            try (PArray<Float> out = AF.map((Float x) -> SlowElements.chain(x, steps)).on(Executor.ACCELERATOR).apply(input)) {
                assertArrayEquals(out.toFloatArray(), tiered, "the device's results");
            }
            for (int i = 0; i < inputs.length; i += 61) {
                assertEquals(Float.floatToRawIntBits(SlowElements.chain(inputs[i], steps)), Float.floatToRawIntBits(tiered[i]), "element " + i);
            }
        }
    }

    /** A 2-D index space is taken over at a whole row: the device's launch starts there. */
    @Test
    void aTakeoverOfA2DMapStartsAtARow() {
        aShortCompilationMeasured();
        int steps = STEPS;
        int rows = 1000;
        int columns = 1001;
        ArrayFunction<Tuple2<Integer, Integer>, Float> f = AF.map2D((i, j) -> SlowElements.chain(i - 0.5f * j, steps));
        try (PArray<Tuple2<Integer, Integer>> indices = PArray.range(rows, columns)) {
            long launches = KernelLaunches.count();
            float[] tiered;
            try (PArray<Float> out = f.apply(indices)) {
                assertTrue(KernelLaunches.count() > launches, "the device took over: " + AF.lastProfile());
                tiered = out.toFloatArray();
            }
            for (int i = 0; i < rows; i += 7) {
                for (int j = 0; j < columns; j += 13) {
                    assertEquals(Float.floatToRawIntBits(SlowElements.chain(i - 0.5f * j, steps)), Float.floatToRawIntBits(tiered[i * columns + j]), "element (" + i + ", " + j + ")");
                }
            }
            for (int i = 0; i < rows; i++) { // every row's last element, wherever the takeover began
                int j = columns - 1;
                assertEquals(Float.floatToRawIntBits(SlowElements.chain(i - 0.5f * j, steps)), Float.floatToRawIntBits(tiered[i * columns + j]), "element (" + i + ", " + j + ")");
            }
        }
    }

    /**
     * A Java exception at an element the device took over is the JVM's, at that element: the kernel
     * exits there and Java runs the elements from it on; one at an element of Java's part is thrown
     * by Java threads.
     */
    @Test
    void exceptionsOfATakenOverApplyAreTheSequentialLoops() {
        int steps = STEPS;
        int n = 1 << 20;
        try (PArray<Integer> input = PArray.range(n)) {
            assertJavasExceptionWhereverItFails(failAt -> AF.map((Integer i) -> SlowElements.chain(i, steps) + 100 / (i - failAt)), input);
        }
    }

    /**
     * A kernel whose bits may differ from the JVM's ({@code Math.sin}: Java allows either result)
     * never takes over: the whole first apply runs on Java threads, so one array never holds both.
     * The test hook {@code jpai.test.tieringWaitsForKernel} has the apply wait for its kernel's
     * compilation at its first decision, so the kernel is ready during the apply on any machine, and
     * the count of declines proves that its bits alone kept it out (not a compilation that ended
     * after the Java threads, which the race without the hook allowed).
     */
    @Test
    void aKernelWhoseBitsMayDifferDoesNotTakeOver() throws InterruptedException {
        int steps = STEPS;
        ArrayFunction<Float, Float> f = AF.map((Float x) -> SlowElements.chain(x, steps) + (float) Math.sin(x));
        float[] inputs = new float[1 << 20];
        for (int i = 0; i < inputs.length; i++) {
            inputs[i] = i * 0.001f;
        }
        try (PArray<Float> input = PArray.of(inputs)) {
            long launches = KernelLaunches.count();
            long declined = TieredTakeover.declinedForTheirBits();
            System.setProperty(TieredTakeover.WAIT_FOR_KERNEL, "true");
            try (PArray<Float> out = f.apply(input)) {
                assertEquals(declined + 1, TieredTakeover.declinedForTheirBits(), "the ready kernel was declined for its bits: " + AF.lastProfile());
                assertEquals(launches, KernelLaunches.count(), "no kernel ran for the first apply: " + AF.lastProfile());
                assertTrue(AF.lastProfile().tiered(), "tiered: " + AF.lastProfile());
                float[] got = out.toFloatArray();
                for (int i = 0; i < inputs.length; i += 61) {
                    assertEquals(Float.floatToRawIntBits(SlowElements.chain(inputs[i], steps) + (float) Math.sin(inputs[i])), Float.floatToRawIntBits(got[i]), "element " + i);
                }
            } finally {
                System.clearProperty(TieredTakeover.WAIT_FOR_KERNEL);
            }
            // the kernel compiled during the first apply: later applies run on the device
            try (PArray<Float> out = f.apply(input)) {
                assertEquals(launches + 1, KernelLaunches.count(), "the second apply ran its kernel: " + AF.lastProfile());
            }
        }
    }

    /**
     * A long first reduction is taken over too: Java threads compute the tree's nodes over their
     * chunks, the device the nodes of its work-groups from the first whole group on, and the host
     * combines them in the tree's order. Its bits are those of Java's whole run and of the device's,
     * checked with an operator that is neither associative nor commutative, over a length that ends
     * in a partial leaf (any other cut of the tree would show).
     */
    @Test
    void theDeviceTakesOverALongFirstReduction() {
        aShortCompilationMeasured();
        // twice the maps' steps: a reduction compiles two kernels, and on the H100's fresh JVM they
        // once outlasted a 2.5 s first apply (tiering-tests-s16.txt)
        int steps = 2 * STEPS;
        int n = (1 << 20) + 37;
        float[] inputs = new float[n];
        for (int i = 0; i < n; i++) {
            inputs[i] = (i % 1013) * 0.01f - 5f;
        }
        // 0 is neutral (as a reduction's identity must be), but the operator is neither associative nor commutative
        java.util.function.BinaryOperator<Float> op = (a, b) -> a == 0f ? b : b == 0f ? a : SlowElements.chain(a, steps) * 0.5f - b;
        try (PArray<Float> input = PArray.of(inputs)) {
            int tiered = Float.floatToRawIntBits(takenOverFirstApply(AF.reduce(op, 0f), input)[0]);
            try (PArray<Float> java = AF.reduce(op, 0f).on(Executor.THREADS).apply(input); PArray<Float> device = AF.reduce(op, 0f).on(Executor.ACCELERATOR).apply(input)) {
                assertEquals(Float.floatToRawIntBits(java.get(0)), tiered, "Java's bits");
                assertEquals(Float.floatToRawIntBits(device.get(0)), tiered, "the device's bits");
            }
        }
    }

    /**
     * A fused map then reduce is taken over the same way, its Java threads mapping and folding chunk
     * by chunk (no mapped array); its exception is the unfused pipeline's, whether the failing element
     * lies in Java's part or in the device's (whose kernel exits there).
     */
    @Test
    void theDeviceTakesOverALongFirstMapThenReduce() {
        aShortCompilationMeasured();
        int steps = STEPS;
        int n = (1 << 20) + 5;
        float[] inputs = ramp(n);
        try (PArray<Float> input = PArray.of(inputs)) {
            int tiered = Float.floatToRawIntBits(takenOverFirstApply(AF.map((Float x) -> SlowElements.chain(x, steps)).reduce((Float a, Float b) -> a + b, 0f), input)[0]);
            ArrayFunction<Float, Float> same = AF.map((Float x) -> SlowElements.chain(x, steps)).reduce((Float a, Float b) -> a + b, 0f);
            try (PArray<Float> java = same.on(Executor.THREADS).apply(input); PArray<Float> device = same.on(Executor.ACCELERATOR).apply(input)) {
                assertEquals(Float.floatToRawIntBits(java.get(0)), tiered, "Java's bits");
                assertEquals(Float.floatToRawIntBits(device.get(0)), tiered, "the device's bits");
            }
        }
        int[] indices = java.util.stream.IntStream.range(0, 1 << 20).toArray();
        try (PArray<Integer> input = PArray.of(indices)) {
            assertJavasExceptionWhereverItFails(failAt -> AF.map((Integer i) -> SlowElements.chain(i, steps) + 100 / (i - failAt)).reduce((Float a, Float b) -> a + b, 0f), input);
        }
    }

    /**
     * Composed maps are taken over as one: Java threads run them element by element, the fused
     * kernel the rest, with the JVM's bits. Their exception is the unfused maps': the first failing
     * element of the first failing map, though an element-wise run meets another map's failure at an
     * earlier element first, and whether the failing element lies in Java's part or in the device's.
     */
    @Test
    void composedMapsAreTakenOverAsOneWithTheUnfusedMapsExceptions() {
        aShortCompilationMeasured();
        int steps = STEPS;
        int n = 1 << 20;
        float[] inputs = ramp(n);
        try (PArray<Float> input = PArray.of(inputs)) {
            ArrayFunction<Float, Float> composed = AF.<Float, Float> map(x -> SlowElements.chain(x, steps)).andThen(AF.map((Float y) -> y * 0.5f + 1f));
            float[] tiered = takenOverFirstApply(composed, input);
            for (int i = 0; i < n; i += 61) {
                assertEquals(Float.floatToRawIntBits(SlowElements.chain(inputs[i], steps) * 0.5f + 1f), Float.floatToRawIntBits(tiered[i]), "element " + i);
            }
        }
        int[] indices = java.util.stream.IntStream.range(0, n).toArray();
        int[] small = new int[4];
        try (PArray<Integer> input = PArray.of(indices)) {
            // the first map fails at failAt; with failAt 5 the second fails at element 2 (an index past
            // the small array), which an element-wise run meets first
            for (int failAt : new int[] {n - 3, 5}) {
                aShortCompilationMeasured();
                int secondFailsAt = failAt < 100 ? 2 + 100 / (2 - failAt) : Integer.MIN_VALUE; // the first map's result for element 2
                ArrayFunction<Integer, Integer> composed = AF.<Integer, Integer> map(i -> SlowElements.chain(i, steps) > -1e30f ? i + 100 / (i - failAt) : 0)
                                .andThen(AF.map((Integer v) -> v + small[v == secondFailsAt ? 7 : 0]));
                long launches = KernelLaunches.count();
                Throwable thrown = org.junit.jupiter.api.Assertions.assertThrows(Throwable.class, () -> composed.apply(input).close());
                assertTrue(thrown instanceof ArithmeticException, "the first map's exception, as unfused: " + thrown);
                if (failAt > n / 2) {
                    assertTrue(KernelLaunches.count() > launches, "the device took over before element " + failAt);
                }
            }
        }
    }

    /**
     * A filter's first apply is taken over too: Java threads and then the predicate's map kernel
     * compute the flags, and the kept elements come out in order, as Java's filter keeps them; an
     * exception is the sequential loop's, in Java's part or in the device's.
     */
    @Test
    void theDeviceTakesOverALongFirstFilter() {
        aShortCompilationMeasured();
        // twice the maps' steps: the predicate's kernel and then the filter's compile while Java
        // threads run it, and from a fresh clone (no kernel cached) on 2 cores 3,000 steps were too few
        int steps = 2 * STEPS;
        int n = 1 << 20;
        float[] inputs = ramp(n);
        // the chain's value at the ramp's middle (it grows with x): about half kept, whatever STEPS is
        float threshold = SlowElements.chain(inputs[n / 2], steps);
        try (PArray<Float> input = PArray.of(inputs)) {
            ArrayFunction<Float, Float> filter = AF.filter((Float x) -> SlowElements.chain(x, steps) > threshold);
            float[] tiered = takenOverFirstApply(filter, input);
            java.util.List<Float> expected = new java.util.ArrayList<>();
            for (float x : inputs) {
                if (SlowElements.chain(x, steps) > threshold) {
                    expected.add(x);
                }
            }
            assertTrue(!expected.isEmpty() && expected.size() < n, "some kept, some not: " + expected.size());
            assertEquals(expected.size(), tiered.length, "the kept elements' count");
            for (int i = 0; i < tiered.length; i++) {
                assertEquals(Float.floatToRawIntBits(expected.get(i)), Float.floatToRawIntBits(tiered[i]), "kept element " + i);
            }
        }
        int[] indices = java.util.stream.IntStream.range(0, n).toArray();
        try (PArray<Integer> input = PArray.of(indices)) {
            assertJavasExceptionWhereverItFails(failAt -> AF.filter((Integer i) -> SlowElements.chain(i, steps) + 100 / (i - failAt) > 0f), input);
        }
    }

    /** A map then reduce whose kernel's bits may differ from the JVM's ({@code Math.sin}) is not taken over: its first apply's result is Java's alone. */
    @Test
    void aMapThenReduceWhoseBitsMayDifferIsNotTakenOver() {
        int steps = STEPS;
        float[] inputs = new float[1 << 20];
        for (int i = 0; i < inputs.length; i++) {
            inputs[i] = i * 0.001f;
        }
        try (PArray<Float> input = PArray.of(inputs)) {
            long launches = KernelLaunches.count();
            ArrayFunction<Float, Float> f = AF.map((Float x) -> SlowElements.chain(x, steps) + (float) Math.sin(x)).reduce((Float a, Float b) -> a + b, 0f);
            try (PArray<Float> out = f.apply(input); PArray<Float> java = f.on(Executor.THREADS).apply(input)) {
                assertEquals(launches, KernelLaunches.count(), "no kernel ran for the first apply: " + AF.lastProfile());
                assertEquals(Float.floatToRawIntBits(java.get(0)), Float.floatToRawIntBits(out.get(0)), "Java's bits");
            }
        }
    }

    /**
     * Has this JVM's last background compilation be a short one, as a takeover test needs: a first
     * apply starts its kernel's compilation during the apply only when Java threads will be busy for
     * 1.5 times the last compilation's time (2 s before the first), and an earlier test's compilation
     * (a reduction's two kernels, on this project's 2-core CI machine) may have taken long.
     */
    private static void aShortCompilationMeasured() {
        float offset = (float) System.nanoTime(); // a new constant each time: captured, so a kernel of its own
        ArrayFunction<Float, Float> f = AF.map((Float x) -> x + offset);
        try (PArray<Float> input = PArray.of(new float[] {1f, 2f, 3f})) {
            untilTheDeviceRuns("a short map", () -> f.apply(input).close());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
    }

    /**
     * Runs {@code apply} (an apply and its checks) until one run launches kernels, at most two minutes:
     * the background compilation ends meanwhile. Returns the kernels that run launched.
     */
    private static long untilTheDeviceRuns(String what, Runnable apply) throws InterruptedException {
        long deadline = System.nanoTime() + 120_000_000_000L;
        while (System.nanoTime() < deadline) {
            long before = KernelLaunches.count();
            apply.run();
            long launched = KernelLaunches.count() - before;
            if (launched > 0) {
                return launched;
            }
            Thread.sleep(20);
        }
        throw new AssertionError(what + ": not on the device two minutes after its first apply, though compiled in the background");
    }

    @Test
    void theAcceleratorNeverTiers() {
        ArrayFunction<Float, Float> f = AF.map((Float x) -> x * 3f - 7f).on(Executor.ACCELERATOR);
        try (PArray<Float> input = PArray.of(values)) {
            long launches = KernelLaunches.count();
            try (PArray<Float> out = f.apply(input)) {
                assertArrayEquals(expected, out.toFloatArray());
                assertTrue(KernelLaunches.count() > launches && !AF.lastProfile().tiered(), "the first apply ran on the device: " + AF.lastProfile());
            }
        }
    }

    @Test
    void withoutThePropertyNothingTiers() {
        System.clearProperty(JpaiOptions.TIERING);
        ArrayFunction<Float, Float> f = AF.map((Float x) -> x * 3f - 7f);
        try (PArray<Float> input = PArray.of(values)) {
            long launches = KernelLaunches.count();
            try (PArray<Float> out = f.apply(input)) {
                assertArrayEquals(expected, out.toFloatArray());
                assertTrue(KernelLaunches.count() > launches && !AF.lastProfile().tiered(), "the first apply ran on the device: " + AF.lastProfile());
            }
        }
    }
}
