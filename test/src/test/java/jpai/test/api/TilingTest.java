package jpai.test.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Random;
import java.util.function.Function;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import jpai.AF;
import jpai.ArrayFunction;
import jpai.Executor;
import jpai.PArray;
import jpai.Tuple2;
import jpai.Tuple3;
import jpai.Tuple6;
import jpai.ocl.Tiling;
import jpai.runtime.JpaiOptions;
import jpai.runtime.device.DeviceChoice;
import jpai.runtime.device.DeviceKind;
import jpai.runtime.opencl.KernelLaunches;
import jpai.runtime.opencl.OpenCLRuntime;

/**
 * Automatic local-memory tiling (docs/backend.md, "Tiling"): all-pairs loops (N-Body) and the
 * inner loop of a matrix product read captured arrays through {@code __local} tiles, at sizes
 * that are not multiples of the tile (1, 17, 1000, 4097 bodies; 1x1, 17x33, 1025x1023 matrices),
 * with Java's results bit for bit, Java's exception where Java throws, and the untiled kernel
 * where the pattern does not hold. On a device, each case checks that a tiled kernel ran (or did not).
 * The class runs with {@code -Djpai.tiling=all}, so that 2-D tiles are tested on every device (a
 * GPU's default leaves them out: {@link #theDefaultTilesMatrixProductsOnCpuDevicesOnly}).
 */
class TilingTest {

    @BeforeAll
    static void tileEveryLoop() {
        System.setProperty("jpai.tiling", "all");
    }

    @AfterAll
    static void deviceDefault() {
        System.clearProperty("jpai.tiling");
    }

    @Test
    void theDefaultTilesMatrixProductsOnCpuDevicesOnly() {
        System.clearProperty("jpai.tiling");
        try {
            Tiling expected = OpenCLRuntime.choice() instanceof DeviceChoice.OpenCL chosen && chosen.device().kind() == DeviceKind.CPU ? Tiling.ALL : Tiling.ONE_DIMENSIONAL;
            assertEquals(expected, JpaiOptions.tiling());
            System.setProperty("jpai.tiling", "1d");
            assertEquals(Tiling.ONE_DIMENSIONAL, JpaiOptions.tiling());
            System.setProperty("jpai.tiling", "sometimes");
            IllegalArgumentException refused = assertThrows(IllegalArgumentException.class, JpaiOptions::tiling);
            assertTrue(refused.getMessage().contains("-Djpai.tiling=sometimes"), refused.getMessage());
        } finally {
            System.setProperty("jpai.tiling", "all");
        }
    }

    private static final float EPS2 = 0.01f;
    /** The time step of the benchmark suite's N-Body ({@code jpai.bench.NBody.DT}). */
    private static final float DT = 0.005f;

    private static float[] randomFloats(int n, long seed) {
        Random random = new Random(seed);
        float[] values = new float[n];
        for (int i = 0; i < n; i++) {
            values[i] = random.nextFloat() * 2 - 1;
        }
        return values;
    }

    private static double[] randomDoubles(int n, long seed) {
        Random random = new Random(seed);
        double[] values = new double[n];
        for (int i = 0; i < n; i++) {
            values[i] = random.nextDouble() * 2 - 1;
        }
        return values;
    }

    /**
     * Applies {@code function} on the device over {@code input}: Java's result element for element,
     * and a tiled kernel ran ({@code tiled}) or only untiled ones.
     */
    private static <T, R> void check(Function<T, R> lambda, ArrayFunction<T, R> function, PArray<T> input, boolean tiled, String what) {
        long launches = KernelLaunches.count();
        long tiledLaunches = KernelLaunches.tiledCount();
        try (PArray<R> out = ExecutorCase.apply(function, Executor.ACCELERATOR, input)) {
            if (ExecutorCase.openCLExpected()) {
                assertTrue(!AF.lastProfile().fellBack() && KernelLaunches.count() > launches, what + ": the device ran: " + AF.lastProfile());
                assertEquals(tiled, KernelLaunches.tiledCount() > tiledLaunches, what + ": a tiled kernel ran: " + tiled);
            }
            ExecutorCase.assertSameAsJava(ExecutorCase.javaLoop(lambda, input), out, what);
        }
    }

    @ParameterizedTest(name = "{0} bodies")
    @ValueSource(ints = {1, 17, 1000, 4097})
    void nBodyAllPairsInFloat(int n) {
        float[] x = randomFloats(n, 1);
        float[] y = randomFloats(n, 2);
        float[] z = randomFloats(n, 3);
        float[] m = randomFloats(n, 4);
        Function<Integer, Tuple3<Float, Float, Float>> accelerations = i -> {
            float px = x[i];
            float py = y[i];
            float pz = z[i];
            float ax = 0;
            float ay = 0;
            float az = 0;
            for (int j = 0; j < x.length; j++) {
                float dx = x[j] - px;
                float dy = y[j] - py;
                float dz = z[j] - pz;
                float d2 = dx * dx + dy * dy + dz * dz + EPS2;
                float inv = 1.0f / (float) Math.sqrt(d2);
                float s = m[j] * inv * inv * inv;
                ax += s * dx;
                ay += s * dy;
                az += s * dz;
            }
            return new Tuple3<>(ax, ay, az);
        };
        try (PArray<Integer> bodies = PArray.range(n)) {
            check(accelerations, AF.map(accelerations), bodies, true, "N-Body, float, " + n + " bodies");
        }
    }

    @ParameterizedTest(name = "{0} bodies")
    @ValueSource(ints = {1, 17, 1000, 4097})
    void nBodyAllPairsInDouble(int n) {
        double[] x = randomDoubles(n, 5);
        double[] y = randomDoubles(n, 6);
        double[] m = randomDoubles(n, 7);
        Function<Integer, Double> potential = i -> {
            double sum = 0;
            for (int j = 0; j < m.length; j++) {
                double dx = x[j] - x[i];
                double dy = y[j] - y[i];
                sum += m[j] / Math.sqrt(dx * dx + dy * dy + 0.01);
            }
            return sum;
        };
        try (PArray<Integer> bodies = PArray.range(n)) {
            check(potential, AF.map(potential), bodies, true, "N-Body, double, " + n + " bodies");
        }
    }

    @Test
    void aMapOverBuffersTilesALoopWhoseReadsAreTheSameForAllElements() {
        float[] weights = randomFloats(300, 8);
        Function<Float, Float> weighted = v -> {
            float sum = 0;
            for (int j = 1; j < weights.length; j++) {
                sum += weights[j - 1] * v + weights[j];
            }
            return sum;
        };
        try (PArray<Float> values = PArray.of(randomFloats(1000, 9))) {
            check(weighted, AF.map(weighted), values, true, "a[j - 1] and a[j] over buffers");
        }
    }

    @ParameterizedTest(name = "n = {0}")
    @ValueSource(ints = {0, 1, 255, 256, 257, 999})
    void aCapturedBoundBelowTheArrayLengthReadsOnlyThatFar(int n) {
        float[] a = randomFloats(1000, 10);
        Function<Integer, Float> f = i -> {
            float sum = 0;
            for (int j = 0; j < n; j++) {
                sum += a[j] * a[i];
            }
            return sum;
        };
        try (PArray<Integer> indices = PArray.range(1000)) {
            check(f, AF.map(f), indices, true, "j < " + n + " over an array of 1000");
        }
    }

    @Test
    void aCapturedBoundBeyondTheArrayThrowsJavasException() {
        float[] a = randomFloats(1000, 11);
        int n = 1001;
        Function<Integer, Float> f = i -> {
            float sum = 0;
            for (int j = 0; j < n; j++) {
                sum += a[j] * i;
            }
            return sum;
        };
        try (PArray<Integer> indices = PArray.range(600)) {
            // the bound and the length are known before the launch: the apply goes to Java first, tiled or not
            DeviceRun.assertThrowsAsJava(ArrayIndexOutOfBoundsException.class, f, AF.map(f), indices, false, "j < 1001 over an array of 1000");
        }
    }

    @Test
    void anExceptionBeforeTheLoopInSomeWorkItemsLeavesTheOthersRight() {
        float[] a = randomFloats(700, 12);
        float[] b = randomFloats(500, 13); // b[i] fails for i >= 500, before the loop
        Function<Integer, Float> f = i -> {
            float own = b[i];
            float sum = 0;
            for (int j = 0; j < a.length; j++) {
                sum += a[j] * own;
            }
            return sum;
        };
        try (PArray<Integer> indices = PArray.range(700)) {
            DeviceRun.assertThrowsAsJava(ArrayIndexOutOfBoundsException.class, f, AF.map(f), indices, true, "b[i] out of bounds before a tiled loop");
        }
        try (PArray<Integer> indices = PArray.range(500)) {
            check(f, AF.map(f), indices, true, "b[i] in bounds before a tiled loop");
        }
    }

    @Test
    void anExceptionInALoopBeforeTheTiledLoopLeavesTheOthersRight() {
        float[] a = randomFloats(2000, 23);
        int[] divisors = new int[2003];
        for (int k = 0; k < divisors.length; k++) {
            divisors[k] = k > 0 && k % 997 == 0 ? 0 : k + 1;
        }
        Function<Integer, Float> f = i -> {
            int own = 0;
            for (int k = 0; k < 3; k++) {
                own += 100_000 / divisors[i + k]; // / by zero in work-items 995..997 (k = 2, 1, 0), inside a loop
            }
            float sum = 0;
            for (int j = 0; j < a.length; j++) {
                sum += a[j] * own;
            }
            return sum;
        };
        try (PArray<Integer> indices = PArray.range(2000)) {
            // not DeviceRun.assertThrowsAsJava: once C2 has compiled the lambda, the JVM may throw its
            // preallocated ArithmeticException without a message (OmitStackTraceInFastThrow)
            assertThrows(ArithmeticException.class, () -> ExecutorCase.javaLoop(f, indices), "Java throws");
            long launches = KernelLaunches.count();
            assertThrows(ArithmeticException.class, () -> ExecutorCase.apply(AF.map(f), Executor.ACCELERATOR, indices).close(), "the apply throws");
            if (ExecutorCase.openCLExpected()) {
                assertTrue(KernelLaunches.count() > launches, "the kernel ran first");
            }
        }
        try (PArray<Integer> indices = PArray.range(990)) {
            check(f, AF.map(f), indices, true, "no zero divisor before a tiled loop");
        }
    }

    @Test
    void aBoundComputedFromCapturedValuesIsUniform() {
        float[] a = randomFloats(1500, 24);
        int n = 1200;
        Function<Integer, Float> f = i -> {
            float sum = 0;
            for (int j = Math.max(n - a.length, 3); j < Math.min(n, a.length) - 1; j++) {
                sum += a[j + 1] * i - a[j];
            }
            return sum;
        };
        try (PArray<Integer> indices = PArray.range(1500)) {
            check(f, AF.map(f), indices, true, "j from max(n - length, 3) below min(n, length) - 1");
        }
    }

    @Test
    void aBoundThatDependsOnTheElementIsNotTiled() {
        float[] a = randomFloats(1000, 14);
        Function<Integer, Float> f = i -> {
            float sum = 0;
            for (int j = 0; j < i; j++) {
                sum += a[j];
            }
            return sum;
        };
        try (PArray<Integer> indices = PArray.range(1000)) {
            check(f, AF.map(f), indices, false, "j < i");
        }
    }

    @Test
    void aLoopThatOnlySomeElementsRunIsTiledAndTheOthersFillTiles() {
        float[] a = randomFloats(1000, 21);
        Function<Integer, Float> f = i -> {
            float sum = i;
            if (i % 3 == 0) {
                for (int j = 0; j < a.length; j++) {
                    sum += a[j];
                }
            }
            return sum * 0.5f;
        };
        try (PArray<Integer> indices = PArray.range(1000)) {
            check(f, AF.map(f), indices, true, "a loop under a condition on the element");
        }
    }

    /** Graal merges the two returns after the loop: the work-items that skip the loop fill tiles, then return. */
    @Test
    void anEarlyReturnThatJoinsTheLoopsReturnLeavesTheOthersRight() {
        float[] a = randomFloats(1000, 22);
        Function<Integer, Float> f = i -> {
            if (i % 3 == 0) {
                return -1f;
            }
            float sum = 0;
            for (int j = 0; j < a.length; j++) {
                sum += a[j] * i;
            }
            return sum;
        };
        try (PArray<Integer> indices = PArray.range(1000)) {
            check(f, AF.map(f), indices, true, "an early return joining the loop's return");
        }
    }

    /**
     * A kernel exit inside the tiled loop (an integer division whose divisor is zero at an iteration
     * that depends on the element) is deferred: the work-item stops computing, still fills the
     * later tiles, and leaves after the loop. Where no element divides by zero the loop is tiled and
     * every result Java's; where some do, the apply throws Java's exception at Java's element.
     */
    @Test
    void anExitInsideTheTiledLoopIsDeferredAndTheExceptionIsJavas() {
        float[] a = randomFloats(1500, 24);
        int[] d = new int[1500];
        for (int k = 0; k < d.length; k++) {
            d[k] = k + 700; // d[j] - i is zero at j = i - 700, for elements 700 to 2199
        }
        Function<Integer, Float> f = i -> {
            float sum = 0;
            for (int j = 0; j < a.length; j++) {
                sum += a[j] * (1000 / (d[j] - i));
            }
            return sum;
        };
        try (PArray<Integer> indices = PArray.range(700)) {
            check(f, AF.map(f), indices, true, "a division inside the tiled loop that never divides by zero");
        }
        try (PArray<Integer> indices = PArray.range(1800)) {
            DeviceRun.assertThrowsAsJava(ArithmeticException.class, f, AF.map(f), indices, true, "elements 700 on divide by zero inside the tiled loop");
        }
    }

    /** A failed bounds check inside the tiled loop (an index that depends on the element) is deferred the same way. */
    @Test
    void aBoundsCheckInsideTheTiledLoopIsDeferred() {
        float[] a = randomFloats(1024, 25);
        float[] b = randomFloats(1100, 26);
        Function<Integer, Float> f = i -> {
            float sum = 0;
            for (int j = 0; j < a.length; j++) {
                sum += a[j] * b[j + i]; // out of bounds once j + i reaches 1100
            }
            return sum;
        };
        try (PArray<Integer> indices = PArray.range(77)) {
            check(f, AF.map(f), indices, true, "an element-dependent index inside the tiled loop, in bounds");
        }
        try (PArray<Integer> indices = PArray.range(300)) {
            DeviceRun.assertThrowsAsJava(ArrayIndexOutOfBoundsException.class, f, AF.map(f), indices, true, "b[j + i] out of bounds inside the tiled loop");
        }
    }

    /**
     * A path left to Java inside the tiled loop (FdLibm's reduction of a huge angle, the fallback of
     * {@code (float) Math.sin} of a float) exits every work-item at that iteration: the tiled kernel
     * ran, exited, and Java's results came back; without the huge angle the kernel computes them.
     */
    @Test
    void aPathLeftToJavaInsideTheTiledLoop() {
        float[] angles = randomFloats(900, 27);
        Function<Integer, Float> f = i -> {
            float sum = 0;
            for (int j = 0; j < angles.length; j++) {
                sum += (float) Math.sin(angles[j]) * i;
            }
            return sum;
        };
        try (PArray<Integer> indices = PArray.range(600)) {
            check(f, AF.map(f), indices, true, "sin of captured angles in a tiled loop");
            angles[450] = 3e8f; // beyond 2^19 pi/2: FdLibm's reduction of huge angles is left to Java
            long tiled = KernelLaunches.tiledCount();
            ArrayFunction<Integer, Float> g = AF.map(f);
            try (PArray<Float> out = ExecutorCase.apply(g, Executor.ACCELERATOR, indices)) {
                if (ExecutorCase.openCLExpected()) {
                    assertTrue(KernelLaunches.tiledCount() > tiled, "a tiled kernel ran first");
                    assertTrue(AF.lastProfile().kernelExits() > 0, "it exited: " + AF.lastProfile());
                }
                ExecutorCase.assertSameAsJava(ExecutorCase.javaLoop(f, indices), out, "a huge angle inside the tiled loop");
            }
        }
    }

    @Test
    void aBreakThatDependsOnTheDataIsNotTiled() {
        float[] a = randomFloats(1000, 15);
        Function<Integer, Float> f = i -> {
            float sum = 0;
            for (int j = 0; j < a.length; j++) {
                if (a[j] > 0.999f - i * 0.0005f) {
                    break;
                }
                sum += a[j];
            }
            return sum;
        };
        try (PArray<Integer> indices = PArray.range(1000)) {
            check(f, AF.map(f), indices, false, "a break on the data");
        }
    }

    @Test
    void withTilingOffTheSameKernelIsUntiledAndGivesTheSameBits() {
        float[] a = randomFloats(3000, 16);
        Function<Integer, Float> f = i -> {
            float sum = 0;
            for (int j = 0; j < a.length; j++) {
                sum += a[j] * (a[i] - a[j]);
            }
            return sum;
        };
        System.setProperty("jpai.tiling", "false");
        try (PArray<Integer> indices = PArray.range(3000)) {
            check(f, AF.map(f), indices, false, "-Djpai.tiling=false");
        } finally {
            System.setProperty("jpai.tiling", "all");
        }
        try (PArray<Integer> indices = PArray.range(3000)) {
            check(f, AF.map(f), indices, true, "tiling on again");
        }
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"1x1x1", "17x33x5", "17x33x40", "1025x1023x70"})
    void matrixProductsReadSquareTiles(String shape) {
        String[] sizes = shape.split("x");
        int rows = Integer.parseInt(sizes[0]);
        int columns = Integer.parseInt(sizes[1]);
        int inner = Integer.parseInt(sizes[2]);
        float[] a = randomFloats(rows * inner, 17);
        float[] b = randomFloats(inner * columns, 18);
        Function<Tuple2<Integer, Integer>, Float> product = ij -> {
            int i = ij._1();
            int j = ij._2();
            float sum = 0;
            for (int k = 0; k < inner; k++) {
                sum += a[i * inner + k] * b[k * columns + j];
            }
            return sum;
        };
        try (PArray<Tuple2<Integer, Integer>> grid = PArray.range(rows, columns)) {
            check(product, AF.map(product, Float.class), grid, true, "a " + shape + " matrix product");
        }
    }

    @Test
    void aDoubleMatrixProductWithAnOffsetRowReadsTiles() {
        int n = 100;
        double[] a = randomDoubles(n * n + 3, 19);
        double[] b = randomDoubles(n * n, 20);
        Function<Tuple2<Integer, Integer>, Double> product = ij -> {
            double sum = 0;
            for (int k = 0; k < n; k++) {
                sum += a[ij._1() * n + k + 3] * b[k * n + ij._2()];
            }
            return sum;
        };
        try (PArray<Tuple2<Integer, Integer>> grid = PArray.range(n, n)) {
            check(product, AF.map(product, Double.class), grid, true, "a double 100x100 matrix product");
        }
    }

    /**
     * The benchmark suite's JPAI N-Body ({@code jpai.bench.NBody.jpai}), the same lambda shape (the
     * test module does not depend on the benchmarks): the bodies captured as {@code PArray}s, read
     * with {@code get(j)} (a long index: {@code (long) j}) in a loop up to a captured {@code n}, a
     * {@code Tuple6} of new positions and velocities.
     */
    @ParameterizedTest(name = "{0} bodies")
    @ValueSource(ints = {1, 17, 1000, 4097})
    void nBodyOverCapturedPArraysAsTheBenchmarkWritesIt(int n) {
        try (PArray<Float> x = PArray.of(randomFloats(n, 31)); PArray<Float> y = PArray.of(randomFloats(n, 32)); PArray<Float> z = PArray.of(randomFloats(n, 33));
                        PArray<Float> m = PArray.of(randomFloats(n, 34)); PArray<Float> vx = PArray.of(randomFloats(n, 35)); PArray<Float> vy = PArray.of(randomFloats(n, 36));
                        PArray<Float> vz = PArray.of(randomFloats(n, 37)); PArray<Integer> bodies = PArray.range(n)) {
            Function<Integer, Tuple6<Float, Float, Float, Float, Float, Float>> step = (Integer i) -> {
                float px = x.get(i);
                float py = y.get(i);
                float pz = z.get(i);
                float ax = 0;
                float ay = 0;
                float az = 0;
                for (int j = 0; j < n; j++) {
                    float dx = x.get(j) - px;
                    float dy = y.get(j) - py;
                    float dz = z.get(j) - pz;
                    float d2 = dx * dx + dy * dy + dz * dz + EPS2;
                    float inv = 1.0f / (float) Math.sqrt(d2);
                    float s = m.get(j) * inv * inv * inv;
                    ax += s * dx;
                    ay += s * dy;
                    az += s * dz;
                }
                float nvx = vx.get(i) + ax * DT;
                float nvy = vy.get(i) + ay * DT;
                float nvz = vz.get(i) + az * DT;
                return new Tuple6<>(px + nvx * DT, py + nvy * DT, pz + nvz * DT, nvx, nvy, nvz);
            };
            check(step, AF.map(step), bodies, true, "N-Body over captured PArrays, " + n + " bodies");
        }
    }

    /**
     * A loop over a captured {@code PArray}'s {@code length()} with a {@code long} counter is not
     * tiled (only {@code int} counters are, whose checks the compiler hoists before the loop): the
     * untiled kernel, Java's bits.
     */
    @Test
    void aLongCounterOverACapturedPArrayIsNotTiled() {
        try (PArray<Float> a = PArray.of(randomFloats(700, 38)); PArray<Integer> indices = PArray.range(700)) {
            Function<Integer, Float> f = i -> {
                float sum = 0;
                for (long j = 0; j < a.length(); j++) {
                    sum += a.get(j) * (a.get(i) - a.get(j));
                }
                return sum;
            };
            check(f, AF.map(f), indices, false, "a long counter up to a captured PArray's length");
        }
    }

    /** One element of the benchmark suite's JPAI MatMul ({@code jpai.bench.MatMul.element}), the same method. */
    private static float element(PArray<Float> a, PArray<Float> b, int n, int i, int j) {
        float sum = 0;
        for (int k = 0; k < n; k++) {
            sum += a.get(i * n + k) * b.get(k * n + j);
        }
        return sum;
    }

    /** The benchmark suite's JPAI MatMul ({@code jpai.bench.MatMul.jpai}), the same lambda shape, square. */
    @ParameterizedTest(name = "n = {0}")
    @ValueSource(ints = {1, 17, 100})
    void matMulOverCapturedPArraysAsTheBenchmarkWritesIt(int n) {
        try (PArray<Float> a = PArray.of(randomFloats(n * n, 39)); PArray<Float> b = PArray.of(randomFloats(n * n, 40));
                        PArray<Tuple2<Integer, Integer>> elements = PArray.range(n, n)) {
            Function<Tuple2<Integer, Integer>, Float> multiply = (Tuple2<Integer, Integer> ij) -> element(a, b, n, ij._1(), ij._2());
            check(multiply, AF.map(multiply, Float.class), elements, true, "the benchmark's matmul over captured PArrays, n = " + n);
        }
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"1x1x1", "17x33x5", "1025x1023x40"})
    void matrixProductsOverCapturedPArraysReadSquareTiles(String shape) {
        String[] sizes = shape.split("x");
        int rows = Integer.parseInt(sizes[0]);
        int columns = Integer.parseInt(sizes[1]);
        int inner = Integer.parseInt(sizes[2]);
        try (PArray<Float> a = PArray.of(randomFloats(rows * inner, 41)); PArray<Float> b = PArray.of(randomFloats(inner * columns, 42));
                        PArray<Tuple2<Integer, Integer>> grid = PArray.range(rows, columns)) {
            Function<Tuple2<Integer, Integer>, Float> product = ij -> {
                int i = ij._1();
                int j = ij._2();
                float sum = 0;
                for (int k = 0; k < inner; k++) {
                    sum += a.get(i * inner + k) * b.get(k * columns + j);
                }
                return sum;
            };
            check(product, AF.map(product, Float.class), grid, true, "a " + shape + " matrix product over captured PArrays");
        }
    }

    @Test
    void aCapturedBoundBeyondACapturedPArrayThrowsJavasException() {
        int n = 1001;
        try (PArray<Float> a = PArray.of(randomFloats(1000, 43)); PArray<Integer> indices = PArray.range(600)) {
            Function<Integer, Float> f = i -> {
                float sum = 0;
                for (int j = 0; j < n; j++) {
                    sum += a.get(j) * i;
                }
                return sum;
            };
            DeviceRun.assertThrowsAsJava(IndexOutOfBoundsException.class, f, AF.map(f), indices, false, "j < 1001 over a PArray of 1000");
        }
    }
}
