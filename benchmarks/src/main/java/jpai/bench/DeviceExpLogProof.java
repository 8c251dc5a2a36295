package jpai.bench;

import java.util.stream.IntStream;

import jpai.AF;
import jpai.ArrayFunction;
import jpai.Executor;
import jpai.PArray;

/**
 * The check behind {@code java-float-device} (docs/java-semantics.md): {@code (float) Math.exp(x)}
 * for every float with {@code |x| <= 104} and {@code (float) Math.log(x)} for every positive finite
 * float, computed by JPAI on the default device with the {@code -Djpai.math} the JVM was started
 * with (the device's default when unset), against {@code (float) StrictMath} on the host, bit for
 * bit; exits 1 if any differs. Chunks of 2^25 floats: a map over {@code PArray.range} capturing the
 * chunk's first bits in a one-element {@code int[]}, every apply required to run on the device.
 * An argument {@code k} checks every k-th chunk only (a smoke test on a CPU device).
 * {@code bin/gpu-check explogproof} runs it with {@code java-float-device}; 13 s on the H100.
 */
public final class DeviceExpLogProof {

    private DeviceExpLogProof() {
    }

    public static void main(String[] args) throws Exception {
        int chunk = 1 << 25;
        long step = args.length > 0 ? Long.parseLong(args[0]) * chunk : chunk; // a local smoke test checks every k-th chunk
        int[] base = {0};
        ArrayFunction<Integer, Float> exp = AF.map((Integer i) -> (float) Math.exp(Float.intBitsToFloat(base[0] + i))).on(Executor.ACCELERATOR);
        ArrayFunction<Integer, Float> log = AF.map((Integer i) -> (float) Math.log(Float.intBitsToFloat(base[0] + i))).on(Executor.ACCELERATOR);
        int expLimit = Float.floatToRawIntBits(104f);
        long[] checked = new long[2], differing = new long[2];
        long start = System.nanoTime();
        try (PArray<Integer> indices = PArray.range(chunk)) {
            // exp: positive floats 0..104 (bits 0..expLimit), then negative (bits 0x80000000..0x80000000+expLimit)
            for (int sign = 0; sign < 2; sign++) {
                for (long first = 0; first <= expLimit; first += step) {
                    run(exp, indices, base, (int) ((sign == 0 ? 0 : 0x80000000L) + first), (int) Math.min(chunk, expLimit - first + 1), true, checked, differing);
                }
            }
            int maxFinite = Float.floatToRawIntBits(Float.MAX_VALUE);
            for (long first = 1; first <= maxFinite; first += step) {
                run(log, indices, base, (int) first, (int) Math.min(chunk, maxFinite - first + 1), false, checked, differing);
            }
        }
        System.out.printf("exp: %,d floats (|x| <= 104) checked, %,d differ from (float) StrictMath.exp; log: %,d positive finite floats checked, %,d differ; %.1f s; last apply %s%n",
                checked[0], differing[0], checked[1], differing[1], (System.nanoTime() - start) / 1e9, AF.lastProfile());
        System.exit(differing[0] + differing[1] == 0 ? 0 : 1);
    }

    static void run(ArrayFunction<Integer, Float> f, PArray<Integer> indices, int[] base, int first, int count, boolean isExp, long[] checked, long[] differing) {
        base[0] = first;
        float[] out;
        try (PArray<Float> result = f.apply(indices)) {
            if (AF.lastProfile().fellBack() || AF.lastProfile().kernelCount() == 0) throw new AssertionError("not on the device: " + AF.lastProfile());
            out = result.toFloatArray();
        }
        int w = isExp ? 0 : 1;
        long bad = IntStream.range(0, count).parallel().filter(i -> {
            float x = Float.intBitsToFloat(first + i);
            float want = isExp ? (float) StrictMath.exp(x) : (float) StrictMath.log(x);
            return Float.floatToRawIntBits(want) != Float.floatToRawIntBits(out[i]);
        }).count();
        if (bad > 0 && differing[w] == 0) {
            for (int i = 0; i < count; i++) {
                float x = Float.intBitsToFloat(first + i);
                float want = isExp ? (float) StrictMath.exp(x) : (float) StrictMath.log(x);
                if (Float.floatToRawIntBits(want) != Float.floatToRawIntBits(out[i])) { System.out.printf("first difference: %s(%s) = %s, StrictMath %s%n", isExp ? "exp" : "log", x, out[i], want); break; }
            }
        }
        checked[w] += count;
        differing[w] += bad;
    }
}
