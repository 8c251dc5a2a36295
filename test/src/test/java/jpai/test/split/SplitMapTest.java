package jpai.test.split;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Random;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfEnvironmentVariable;

import jpai.AF;
import jpai.ApplyProfile;
import jpai.ArrayFunction;
import jpai.Devices;
import jpai.Executor;
import jpai.PArray;
import jpai.Tuple2;
import jpai.runtime.device.OpenCLPlatforms;

/**
 * Issue 22: a map split over several devices ({@code f.on(Devices)}), tested on two PoCL devices
 * (this JVM runs with {@code POCL_DEVICES="pthread pthread"}, see test/pom.xml). Each test proves
 * that both devices ran a part (the profile names each device with its share), and compares every
 * element, bit for bit, with the same function run sequentially by the JVM.
 */
@EnabledIfEnvironmentVariable(named = "JPAI_EXPECT_OPENCL", matches = "1")
class SplitMapTest {

    /** The two devices: {@code -Djpai.test.splitDevices=1,2} names others (a GPU host lists PoCL's CPU first). */
    private static final Devices TWO = Devices.of(System.getProperty("jpai.test.splitDevices", "0,1").split(","));
    private static final int SECOND = Integer.parseInt(TWO.specs().get(1).strip());
    private static final int FIRST = Integer.parseInt(TWO.specs().get(0).strip());
    private static final Pattern SHARE = Pattern.compile("\\[(\\d+)\\] (\\d+) %");

    /** The split's minimum work ({@code SplitPlan}): 0 here, so that the small maps these tests cut stay cut on every apply. */
    private static final String MIN_WORK = "jpai.split.minWorkMicros";

    @BeforeAll
    static void twoDevices() {
        int devices = OpenCLPlatforms.discover().devices().size();
        assertTrue(devices >= 2, "these tests need two OpenCL devices (POCL_DEVICES=\"pthread pthread\" on PoCL); found " + devices);
    }

    @org.junit.jupiter.api.BeforeEach
    void alwaysSplit() {
        System.setProperty(MIN_WORK, "0");
    }

    @AfterEach
    void noSlowdown() {
        System.clearProperty("jpai.test.splitSlowdown");
        System.clearProperty(MIN_WORK);
    }

    /**
     * Parts too short to pay for a split: after an apply whose parts did less device work than the
     * minimum, the next applies run whole on one device (the same results), until that device's work
     * exceeds twice the minimum; then they are split again.
     */
    @Test
    void anApplyTooShortToSplitRunsOnOneDeviceUntilItsWorkGrows() {
        float[] values = new float[10_000];
        for (int i = 0; i < values.length; i++) {
            values[i] = i * 0.5f - 3f;
        }
        ArrayFunction<Float, Float> f = AF.map((Float x) -> x * 3f + 1f).on(TWO);
        try (PArray<Float> input = PArray.of(values)) {
            System.setProperty(MIN_WORK, "100000000"); // 100 s: every split is too short
            assertEquals(2, applyAndCheck(f, input, values).size(), "the first apply is split");
            // applies that built a program (each device's first) decide nothing: within a few, one device runs it whole
            assertEquals(1, partsAfterApplies(f, input, values, 1), "one device runs the apply whole");
            System.setProperty(MIN_WORK, "0"); // any work is enough
            assertEquals(2, partsAfterApplies(f, input, values, 2), "split again");
        }
    }

    /** The number of parts of the first of up to 5 applies that has {@code wanted} parts (or of the last). */
    private static int partsAfterApplies(ArrayFunction<Float, Float> f, PArray<Float> input, float[] values, int wanted) {
        int parts = 0;
        for (int apply = 0; apply < 5 && parts != wanted; apply++) {
            parts = applyAndCheck(f, input, values).size();
        }
        return parts;
    }

    /** Applies {@code f}, checks its results bit for bit against Java's, and returns the devices' shares. */
    private static Map<Integer, Integer> applyAndCheck(ArrayFunction<Float, Float> f, PArray<Float> input, float[] values) {
        try (PArray<Float> out = f.apply(input)) {
            float[] got = out.toFloatArray();
            for (int i = 0; i < values.length; i++) {
                assertEquals(Float.floatToRawIntBits(values[i] * 3f + 1f), Float.floatToRawIntBits(got[i]), "element " + i);
            }
        }
        return shares(AF.lastProfile());
    }

    /** Each device's share of the last apply, in percent, by flat index; asserts that the apply was split. */
    private static Map<Integer, Integer> shares(ApplyProfile profile) {
        assertTrue(profile.device().endsWith("(split)") && !profile.fellBack(), "a split apply: " + profile);
        Map<Integer, Integer> shares = new LinkedHashMap<>();
        Matcher m = SHARE.matcher(profile.device());
        while (m.find()) {
            shares.put(Integer.parseInt(m.group(1)), Integer.parseInt(m.group(2)));
        }
        return shares;
    }

    private static void assertBothDevicesRan(ApplyProfile profile) {
        assertEquals(2, shares(profile).size(), "a part on each device: " + profile.device());
    }

    @Test
    void floatIntLongDoubleAndTupleMapsGiveJavasBitsAtEveryLength() {
        Random random = new Random(22);
        for (int n : new int[] {0, 1, 2, 1023, 1025, (1 << 20) + 3}) {
            float[] f = new float[n];
            int[] i = new int[n];
            long[] l = new long[n];
            double[] d = new double[n];
            for (int k = 0; k < n; k++) {
                f[k] = (float) random.nextGaussian() * 1e3f;
                i[k] = random.nextInt();
                l[k] = random.nextLong();
                d[k] = random.nextGaussian() * 1e5;
            }
            check(AF.map((Float x) -> x * 1.5f - 2f / (x + 3f), Float.class), PArray.of(f), n);
            check(AF.map((Integer x) -> x * 31 + (x >>> 7), Integer.class), PArray.of(i), n);
            check(AF.map((Long x) -> x * 0x9E3779B97F4A7C15L ^ (x >> 17), Long.class), PArray.of(l), n);
            check(AF.map((Double x) -> Math.sqrt(Math.abs(x)) + x / 3.0, Double.class), PArray.of(d), n);
            check(AF.map((Tuple2<Float, Integer> t) -> t._1() * t._2(), Float.class), PArray.zip(PArray.of(f), PArray.of(i)), n);
        }
    }

    private static <T, R> void check(ArrayFunction<T, R> f, PArray<T> input, int n) {
        try (input; PArray<R> expected = f.on(Executor.SEQUENTIAL).apply(input); PArray<R> split = f.on(TWO).apply(input)) {
            ApplyProfile profile = AF.lastProfile();
            assertEquals(n, split.length());
            for (long k = 0; k < n; k++) {
                assertEquals(expected.get(k), split.get(k), f + ": element " + k + " of " + n);
            }
            if (n >= 2) {
                assertBothDevicesRan(profile);
            }
        }
    }

    @Test
    void twoDimensionalIndexSpacesSplitByRows() {
        ArrayFunction<Tuple2<Integer, Integer>, Float> hilbert = AF.map2D((Integer i, Integer j) -> 1.0f / (i + j + 1));
        try (PArray<Tuple2<Integer, Integer>> grid = PArray.range(1001, 999); PArray<Float> split = hilbert.on(TWO).apply(grid)) {
            assertBothDevicesRan(AF.lastProfile());
            for (int i = 0; i < 1001; i++) {
                for (int j = 0; j < 999; j++) {
                    assertEquals(Float.floatToRawIntBits(1.0f / (i + j + 1)), Float.floatToRawIntBits(split.get(i * 999L + j)), "(" + i + ", " + j + ")");
                }
            }
        }
    }

    /** An exception at a random element of a 1M map: the JVM's, at that element, whichever device's part it lies in. */
    @Test
    void anExceptionInEitherPartIsTheSequentialLoops() {
        int n = 1_000_000;
        for (int zero : new int[] {3, 123_457, 600_001, n - 1}) {
            ArrayFunction<Integer, Integer> f = AF.map((Integer i) -> 1_000_000 / (i - zero)).on(TWO);
            try (PArray<Integer> indices = PArray.range(n)) {
                ArithmeticException e = assertThrows(ArithmeticException.class, () -> f.apply(indices).close());
                assertEquals("/ by zero", e.getMessage());
            }
            int[] seen = new int[1];
            ArrayFunction<Integer, Integer> bounds = AF.map((Integer i) -> new int[] {1, 2}[i == zero ? 2 : 0] + i).on(TWO);
            try (PArray<Integer> indices = PArray.range(n)) {
                ArrayIndexOutOfBoundsException e = assertThrows(ArrayIndexOutOfBoundsException.class, () -> bounds.apply(indices).close());
                assertTrue(e.getMessage().contains("2"), e.getMessage());
            }
            seen[0]++;
        }
    }

    /** The input's parts stay on their devices: sent once, again after a host write, and the captured array too. */
    @Test
    void partsStayOnTheirDevicesUntilTheArrayChanges() {
        int n = 100_000;
        float[] values = new float[n];
        for (int k = 0; k < n; k++) {
            values[k] = k * 0.25f;
        }
        try (PArray<Float> input = PArray.of(values); PArray<Float> scale = PArray.of(2f)) {
            ArrayFunction<Float, Float> f = AF.map((Float x) -> x * scale.get(0)).on(TWO);
            applyAndCheck(f, input, values, 2f);
            assertTrue(AF.lastProfile().hostToDeviceBytes() >= 4L * n, "the first apply sends the input: " + AF.lastProfile());
            applyAndCheck(f, input, values, 2f);
            assertEquals(0, AF.lastProfile().hostToDeviceBytes(), "nothing changed, nothing sent: " + AF.lastProfile());
            values[77_777] = -1f;
            input.put(77_777L, -1f);
            applyAndCheck(f, input, values, 2f);
            assertTrue(AF.lastProfile().hostToDeviceBytes() > 0, "a host write sends again: " + AF.lastProfile());
            scale.put(0L, 3f);
            applyAndCheck(f, input, values, 3f);
            // the captured array written by a kernel on the single device, then read by the split map: never stale
            try (PArray<Float> doubled = AF.map((Float x) -> x * 2f).on(Executor.ACCELERATOR).apply(scale)) {
                ArrayFunction<Float, Float> g = AF.map((Float x) -> x * doubled.get(0)).on(TWO);
                applyAndCheck(g, input, values, 6f);
                try (PArray<Float> again = AF.map((Float x) -> x + 1f).on(Executor.ACCELERATOR).apply(doubled)) {
                    ArrayFunction<Float, Float> h = AF.map((Float x) -> x * again.get(0)).on(TWO);
                    applyAndCheck(h, input, values, 7f);
                }
            }
        }
    }

    private static void applyAndCheck(ArrayFunction<Float, Float> f, PArray<Float> input, float[] values, float factor) {
        try (PArray<Float> out = f.apply(input)) {
            assertBothDevicesRan(AF.lastProfile());
            float[] got = out.toFloatArray();
            for (int k = 0; k < values.length; k++) {
                assertEquals(values[k] * factor, got[k], "element " + k);
            }
        }
    }

    /** Two split maps in a row: the second reads the first's result where its parts were computed. */
    @Test
    void aSplitResultIsReadWhereItsPartsAre() {
        int n = 200_000;
        float[] values = new float[n];
        for (int k = 0; k < n; k++) {
            values[k] = k;
        }
        ArrayFunction<Float, Float> first = AF.map((Float x) -> x + 1f).on(TWO);
        ArrayFunction<Float, Float> second = AF.map((Float x) -> x * 2f).on(TWO);
        try (PArray<Float> input = PArray.of(values); PArray<Float> middle = first.apply(input); PArray<Float> out = second.apply(middle)) {
            assertBothDevicesRan(AF.lastProfile());
            assertEquals(0, AF.lastProfile().hostToDeviceBytes(), "the parts were on their devices already: " + AF.lastProfile());
            float[] got = out.toFloatArray();
            for (int k = 0; k < n; k++) {
                assertEquals((values[k] + 1f) * 2f, got[k], "element " + k);
            }
        }
    }

    /**
     * A device four times slower (the test hook waits after its part) gets the smaller part, but
     * still one. (The exact proportion is SplitMapBoundsTest's: two PoCL devices share this host's
     * cores, so a part's measured pace also depends on what the other part does meanwhile.)
     */
    @Test
    void theSplitFollowsTheDevicesMeasuredSpeed() {
        int n = 1 << 20;
        // kernels that take most of a part's time (the hook slows kernels only): a GPU runs 2^20 x 256
        // steps in a tenth of a millisecond, less than a part's fixed costs
        boolean gpus = OpenCLPlatforms.discover().devices().stream().anyMatch(d -> d.kind() == jpai.runtime.device.DeviceKind.GPU
                        && TWO.specs().contains(Integer.toString(d.globalIndex())));
        int steps = gpus ? 1 << 16 : 256;
        ArrayFunction<Integer, Float> f = AF.map((Integer i) -> {
            float x = i;
            for (int k = 0; k < steps; k++) {
                x = x * 0.999f + 1f;
            }
            return x;
        }).on(TWO);
        System.setProperty("jpai.test.splitSlowdown", "1:4");
        Map<Integer, Integer> shares = null;
        try (PArray<Integer> indices = PArray.range(n)) {
            for (int apply = 0; apply < 12; apply++) {
                f.apply(indices).close();
                shares = shares(AF.lastProfile());
            }
        }
        int slow = shares.getOrDefault(SECOND, 0);
        int fast = shares.getOrDefault(FIRST, 0);
        System.out.println("split with device " + SECOND + " slowed 4x: " + shares);
        assertTrue(fast >= 65 && slow >= 1, "the slowed device gets the smaller part: " + shares);
    }

    @Test
    void whatDoesNotSplitSaysSo() {
        UnsupportedOperationException e = assertThrows(UnsupportedOperationException.class, () -> AF.scan((Float a, Float b) -> a + b, 0f).on(TWO));
        assertTrue(e.getMessage().contains("only maps"), e.getMessage());
        assertThrows(UnsupportedOperationException.class, () -> AF.filter((Float x) -> x > 1f).on(TWO));
        assertThrows(IllegalArgumentException.class, () -> Devices.of());
    }

    /** A set that names a device twice, or one that is not there: the map runs in Java, says why, and gives Java's results. */
    @Test
    void aSetThatCannotBeMetFallsBackAndSaysWhy() {
        for (Devices wrong : new Devices[] {Devices.of(TWO.specs().get(0), TWO.specs().get(0)), Devices.of(TWO.specs().get(0), "no such device")}) {
            try (PArray<Float> input = PArray.of(1f, 2f, 3f); PArray<Float> out = AF.map((Float x) -> x + 1f).on(wrong).apply(input)) {
                assertArrayEquals(new float[] {2f, 3f, 4f}, out.toFloatArray());
                ApplyProfile profile = AF.lastProfile();
                assertTrue(profile.fellBack() && profile.fallbackReason() != null, "a fallback with its reason: " + profile);
                assertFalse(profile.device().endsWith("(split)"), profile.device());
            }
        }
    }

    /** Two threads applying split maps to one input at once: each gets Java's results. */
    @Test
    void concurrentSplitAppliesShareTheInputsCopies() throws Exception {
        int n = 300_000;
        float[] values = new float[n];
        for (int k = 0; k < n; k++) {
            values[k] = k * 0.5f;
        }
        try (PArray<Float> input = PArray.of(values)) {
            java.util.concurrent.ExecutorService threads = java.util.concurrent.Executors.newFixedThreadPool(2);
            try {
                java.util.List<java.util.concurrent.Future<?>> runs = new java.util.ArrayList<>();
                for (int t = 0; t < 2; t++) {
                    float factor = t + 2f;
                    ArrayFunction<Float, Float> f = AF.map((Float x) -> x * factor).on(TWO);
                    runs.add(threads.submit(() -> {
                        for (int r = 0; r < 10; r++) {
                            try (PArray<Float> out = f.apply(input)) {
                                float[] got = out.toFloatArray();
                                for (int k = 0; k < n; k += 997) {
                                    assertEquals(values[k] * factor, got[k], "element " + k);
                                }
                            }
                        }
                        return null;
                    }));
                }
                for (java.util.concurrent.Future<?> run : runs) {
                    run.get();
                }
            } finally {
                threads.shutdownNow();
            }
        }
    }

    /** An input closed by another thread while split applies run: each apply gives Java's results or says the array is closed; nothing else. */
    @Test
    void closingTheInputDuringSplitAppliesIsSafe() throws Exception {
        int n = 500_000;
        for (int round = 0; round < 5; round++) {
            PArray<Float> input = PArray.of(new float[n]);
            ArrayFunction<Float, Float> f = AF.map((Float x) -> x + 1f).on(TWO);
            long delay = 2_000_000L * (1 + 3L * round);
            Thread closer = new Thread(() -> {
                java.util.concurrent.locks.LockSupport.parkNanos(delay);
                input.close();
            });
            closer.start();
            try {
                for (int r = 0; r < 50; r++) {
                    try (PArray<Float> out = f.apply(input)) {
                        assertEquals(1f, out.get(n - 1));
                    }
                }
            } catch (IllegalStateException e) {
                assertTrue(e.getMessage().contains("closed") || e.getMessage().contains("released"), e.getMessage());
            } finally {
                closer.join();
            }
        }
    }
}
