package jpai.bench;

import java.util.Arrays;
import java.util.Random;
import java.util.function.Supplier;

import jpai.AF;
import jpai.Accelerate;
import jpai.ArrayFunction;
import jpai.PArray;
import jpai.Parallel;
import jpai.Tuple2;
import jpai.runtime.device.DeviceChoice;
import jpai.runtime.opencl.KernelLaunches;
import jpai.runtime.opencl.OpenCLRuntime;

/**
 * Issue 13's measurement: the annotated saxpy and matrix multiply against the same computations
 * through {@code AF}, data resident the same way in both ({@code PArray}s already on the device; the
 * annotated methods take {@code PArray} parameters, which stay resident between calls as the AF
 * functions' inputs do; no result is read back inside the timing). Each version's result is checked
 * against Java's before timing (bit for bit: the same float operations in the same order per
 * element), each timed call must launch a kernel (no fallback), the two versions are timed in turns
 * (one call of each per round, so that the machine's load weighs on both alike), and the median of
 * each is printed, with the ratio annotated / AF (the issue asks for at most 1.10 on the H100).
 *
 * <p>What differs by construction: the annotated saxpy writes {@code y} in place, the AF map writes a
 * new array (from the device's buffer pool). The annotated kernel keeps the checks of its index
 * against {@code x}'s and {@code y}'s lengths; since {@code x} is as long as {@code y} it cannot
 * exit, so no copy of {@code y} is saved before each call ({@code IndexExits}). The matrix multiply
 * may exit (its index checks are not of that form), so each call saves {@code c} on the device
 * first ({@code InPlaceUpdate}: n^2 of n^3 work). Also printed, for information: the annotated
 * methods on Java arrays (copied per call).
 *
 * <p>Run with the agent: {@code bin/jpai run jpai.bench.AcceleratedMethodsBench [saxpy n] [matmul n]
 * [timed calls]}, or on the GPU machine {@code bin/gpu-check accelerated}.
 */
public final class AcceleratedMethodsBench {

    private AcceleratedMethodsBench() {
    }

    @Accelerate
    static void saxpy(float alpha, PArray<Float> x, PArray<Float> y) {
        for (@Parallel int i = 0; i < y.length(); i++) {
            y.put(i, alpha * x.get(i) + y.get(i));
        }
    }

    @Accelerate
    static void matmul(PArray<Float> a, PArray<Float> b, PArray<Float> c, int n) {
        for (@Parallel int i = 0; i < n; i++) {
            for (@Parallel int j = 0; j < n; j++) {
                float sum = 0;
                for (int k = 0; k < n; k++) {
                    sum += a.get(i * n + k) * b.get(k * n + j);
                }
                c.put(i * n + j, sum);
            }
        }
    }

    @Accelerate
    static void saxpyArrays(float alpha, float[] x, float[] y) {
        for (@Parallel int i = 0; i < y.length; i++) {
            y[i] = alpha * x[i] + y[i];
        }
    }

    @Accelerate
    static void matmulArrays(float[] a, float[] b, float[] c, int n) {
        for (@Parallel int i = 0; i < n; i++) {
            for (@Parallel int j = 0; j < n; j++) {
                float sum = 0;
                for (int k = 0; k < n; k++) {
                    sum += a[i * n + k] * b[k * n + j];
                }
                c[i * n + j] = sum;
            }
        }
    }

    public static void main(String[] args) {
        int saxpyN = args.length > 0 ? Integer.parseInt(args[0]) : 1 << 24;
        int matmulN = args.length > 1 ? Integer.parseInt(args[1]) : 1024;
        int calls = args.length > 2 ? Integer.parseInt(args[2]) : 30;
        if (!Boolean.getBoolean("jpai.agent.installed")) {
            System.err.println("AcceleratedMethodsBench: start the JVM with JPAI's agent (bin/jpai run adds it)");
            System.exit(2);
        }
        if (!(OpenCLRuntime.choice() instanceof DeviceChoice.OpenCL device)) {
            System.err.println("AcceleratedMethodsBench: no OpenCL device (" + OpenCLRuntime.choice().describe() + ")");
            System.exit(2);
            return;
        }
        System.setProperty("jpai.fallback", "error"); // a call that falls back to Java is an error, not a timing
        System.out.println("device: " + device.describe());
        System.out.printf("%-28s %14s %14s %8s%n", "computation", "annotated ms", "AF ms", "ratio");
        boolean ok = saxpy(saxpyN, calls);
        ok &= matmul(matmulN, Math.max(3, calls / 3));
        System.exit(ok ? 0 : 1);
    }

    private static float[] random(Random random, int n) {
        float[] values = new float[n];
        for (int i = 0; i < n; i++) {
            values[i] = random.nextFloat() - 0.5f;
        }
        return values;
    }

    private static boolean saxpy(int n, int calls) {
        Random random = new Random(1);
        float[] x = random(random, n);
        float[] y = random(random, n);
        float[] expected = new float[n];
        for (int i = 0; i < n; i++) {
            expected[i] = 2.5f * x[i] + y[i];
        }
        ArrayFunction<Tuple2<Float, Float>, Float> af = AF.map((Tuple2<Float, Float> t) -> 2.5f * t._1() + t._2());
        try (PArray<Float> px = PArray.of(x); PArray<Float> py = PArray.of(y); PArray<Tuple2<Float, Float>> xy = PArray.zip(px, py)) {
            // validation, one call each from the same data
            boolean valid;
            try (PArray<Float> out = af.apply(xy)) {
                valid = Arrays.equals(expected, out.toFloatArray());
            }
            try (PArray<Float> annotated = PArray.of(y)) {
                saxpy(2.5f, px, annotated);
                valid &= Arrays.equals(expected, annotated.toFloatArray());
            }
            float[] copied = y.clone();
            saxpyArrays(2.5f, x, copied);
            valid &= Arrays.equals(expected, copied);
            if (!valid) {
                System.out.println("saxpy: RESULT DIFFERS FROM JAVA; not timed");
                return false;
            }
            // y changes at every annotated call (y += 2.5 x): as much work as the map's, on other values
            Medians ms = interleavedMedians(calls, () -> {
                saxpy(2.5f, px, py);
                return null;
            }, () -> {
                af.apply(xy).close();
                return null;
            });
            double arraysMs = interleavedMedians(Math.max(3, calls / 3), () -> {
                saxpyArrays(2.5f, x, copied);
                return null;
            }).wall()[0];
            print("saxpy " + n + " PArrays", ms);
            System.out.printf("%-28s %14.3f %14s%n", "saxpy " + n + " float[] (copied)", arraysMs, "");
            return true;
        }
    }

    private static boolean matmul(int n, int calls) {
        Random random = new Random(2);
        float[] a = random(random, n * n);
        float[] b = random(random, n * n);
        float[] expected = new float[n * n];
        for (int i = 0; i < n; i++) {
            for (int j = 0; j < n; j++) {
                float sum = 0;
                for (int k = 0; k < n; k++) {
                    sum += a[i * n + k] * b[k * n + j];
                }
                expected[i * n + j] = sum;
            }
        }
        try (PArray<Float> pa = PArray.of(a); PArray<Float> pb = PArray.of(b); PArray<Float> pc = PArray.allocate(Float.class, (long) n * n);
                        PArray<Tuple2<Integer, Integer>> range = PArray.range(n, n)) {
            ArrayFunction<Tuple2<Integer, Integer>, Float> af = AF.map2D((Integer i, Integer j) -> {
                float sum = 0;
                for (int k = 0; k < n; k++) {
                    sum += pa.get(i * n + k) * pb.get(k * n + j);
                }
                return sum;
            }, Float.class);
            boolean valid;
            try (PArray<Float> out = af.apply(range)) {
                valid = Arrays.equals(expected, out.toFloatArray());
            }
            matmul(pa, pb, pc, n);
            valid &= Arrays.equals(expected, pc.toFloatArray());
            float[] c = new float[n * n];
            matmulArrays(a, b, c, n);
            valid &= Arrays.equals(expected, c);
            if (!valid) {
                System.out.println("matmul: RESULT DIFFERS FROM JAVA; not timed");
                return false;
            }
            Medians ms = interleavedMedians(calls, () -> {
                matmul(pa, pb, pc, n);
                return null;
            }, () -> {
                af.apply(range).close();
                return null;
            });
            double arraysMs = interleavedMedians(calls, () -> {
                matmulArrays(a, b, c, n);
                return null;
            }).wall()[0];
            print("matmul " + n + "x" + n + " PArrays", ms);
            System.out.printf("%-28s %14.3f %14s%n", "matmul " + n + "x" + n + " float[]", arraysMs, "");
            return true;
        }
    }

    /** The annotated version's medians against the AF version's, wall time and kernels only. */
    private static void print(String what, Medians ms) {
        System.out.printf("%-28s %14.3f %14.3f %8.2f%n", what, ms.wall()[0], ms.wall()[1], ms.wall()[0] / ms.wall()[1]);
        // where a difference is: the kernels (the device's time, from each call's profile) or the host
        System.out.printf("%-28s %14.3f %14.3f %8.2f%n", "  kernels only", ms.kernels()[0], ms.kernels()[1], ms.kernels()[0] / ms.kernels()[1]);
    }

    /** Per version, in ms: the median wall time of a call, and the median device time of its kernels (from its profile). */
    private record Medians(double[] wall, double[] kernels) {
    }

    /**
     * The median wall and kernel times of each version over {@code calls} rounds, in ms, after as many warm-up
     * rounds; each round calls every version once, one after the other, so that a change of the
     * machine's load (other processes, a collection) weighs on all of them alike. Every timed call
     * must launch a kernel.
     */
    @SafeVarargs
    private static Medians interleavedMedians(int calls, Supplier<Void>... versions) {
        for (int i = 0; i < Math.max(3, calls); i++) {
            for (Supplier<Void> version : versions) {
                version.get();
            }
        }
        long[][] wallNanos = new long[versions.length][calls];
        long[][] kernelNanos = new long[versions.length][calls];
        for (int i = 0; i < calls; i++) {
            for (int v = 0; v < versions.length; v++) {
                long launches = KernelLaunches.count();
                long start = System.nanoTime();
                versions[v].get();
                wallNanos[v][i] = System.nanoTime() - start;
                kernelNanos[v][i] = AF.lastProfile().kernelNanos();
                if (KernelLaunches.count() == launches) {
                    throw new IllegalStateException("a timed call launched no kernel: it ran in Java");
                }
            }
        }
        double[] wall = new double[versions.length];
        double[] kernels = new double[versions.length];
        for (int v = 0; v < versions.length; v++) {
            wall[v] = Stats.of(wallNanos[v]).median() / 1e6;
            kernels[v] = Stats.of(kernelNanos[v]).median() / 1e6;
        }
        return new Medians(wall, kernels);
    }
}
