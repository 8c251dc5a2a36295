package jpai.bench;

import java.util.Random;

import jpai.AF;
import jpai.ArrayFunction;
import jpai.Executor;
import jpai.PArray;
import jpai.runtime.JpaiOptions;

/**
 * Issue 21: a long reduction's first call in a fresh JVM, in {@link FirstApply}'s modes:
 * {@code device} (the call waits for its kernel), {@code tiered} ({@code -Djpai.tiering=true}: Java
 * threads start, and the device takes over the elements not started once the kernel is ready) and
 * {@code threads} (JPAI on Java threads, {@code jpai.device=java}). The reduction is a fused map
 * then sum of {@code n} floats, each mapped through {@code steps} dependent multiply-adds: long
 * enough on Java threads for a compilation to end meanwhile. Every mode's result has the same bits
 * (the one combining tree), checked against a Java-threads run made after the timed call.
 *
 * <p>Usage: {@code bin/jpai run jpai.bench.FirstReduction device|tiered|threads [n, default 2^24] [steps, default 2000]};
 * prints {@code first_reduction,n,steps,mode,first_call_ms,ran_on}.
 */
public final class FirstReduction {

    private FirstReduction() {
    }

    static float chain(float x, int steps) {
        float s = x;
        for (int k = 0; k < steps; k++) {
            s = s * 0.9999f + 0.5f;
        }
        return s;
    }

    public static void main(String[] args) {
        if (args.length < 1) {
            System.err.println("usage: FirstReduction device|tiered|threads [n] [steps]");
            System.exit(2);
        }
        String mode = args[0];
        int n = args.length > 1 ? Integer.parseInt(args[1]) : 1 << 24;
        int steps = args.length > 2 ? Integer.parseInt(args[2]) : 2000;
        JpaiExecution.Executor executor = switch (mode) {
            case "device", "tiered" -> JpaiExecution.Executor.OPENCL;
            case "threads" -> JpaiExecution.Executor.THREADS;
            default -> throw new IllegalArgumentException("mode " + mode + ": device, tiered or threads");
        };
        if (mode.equals("tiered")) {
            System.setProperty(JpaiOptions.TIERING, "true");
        }
        float[] values = new float[n];
        Random random = new Random(42);
        for (int i = 0; i < n; i++) {
            values[i] = random.nextFloat() * 2f - 1f;
        }
        try (JpaiExecution ignored = JpaiExecution.enter(executor, false); PArray<Float> input = PArray.of(values)) {
            ArrayFunction<Float, Float> sum = AF.map((Float x) -> chain(x, steps)).reduce((Float a, Float b) -> a + b, 0f);
            long start = System.nanoTime();
            float result;
            try (PArray<Float> out = sum.apply(input)) {
                result = out.get(0);
            }
            double ms = (System.nanoTime() - start) / 1e6;
            String ranOn = AF.lastProfile().device();
            float java;
            try (PArray<Float> out = AF.map((Float x) -> chain(x, steps)).reduce((Float a, Float b) -> a + b, 0f).on(Executor.THREADS).apply(input)) {
                java = out.get(0);
            }
            if (Float.floatToRawIntBits(result) != Float.floatToRawIntBits(java)) {
                System.out.println("first_reduction: RESULT DIFFERS (" + mode + "): " + result + " where Java threads give " + java);
                System.exit(1);
            }
            System.out.printf("first_reduction,%d,%d,%s,%.1f,%s%n", n, steps, mode, ms, ranOn);
        }
    }
}
