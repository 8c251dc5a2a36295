package jpai.compiler.math;

import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.IntStream;

/**
 * Checks {@link FloatArgumentTrig} on every {@code float} of its fast range (both signs: 2^31
 * arguments, each through sin and cos) and a sample beyond, with {@link FloatArgumentTrigCheck};
 * prints the count of arguments the rounding test sent to FdLibm and the smallest reduced argument
 * (|x - k pi/2|) met. A minute or two on 16 cores. Usage: {@code FloatArgumentTrigProof [threads]}.
 */
public final class FloatArgumentTrigProof {

    public static void main(String[] args) {
        int threads = args.length > 0 ? Integer.parseInt(args[0]) : Runtime.getRuntime().availableProcessors();
        int limitBits = Float.floatToRawIntBits(FloatArgumentTrig.FAST_LIMIT);
        AtomicLong checked = new AtomicLong();
        AtomicLong uncertain = new AtomicLong();
        AtomicLong differFromStrictMath = new AtomicLong();
        AtomicLong failures = new AtomicLong();
        double[] smallestReduced = {Double.MAX_VALUE};
        long start = System.nanoTime();
        int chunks = 4096;
        // positive arguments 0 .. FAST_LIMIT (bits 0 .. limitBits), then their negatives, then 2^24 past the limit
        new java.util.concurrent.ForkJoinPool(threads).submit(() -> IntStream.range(0, chunks).parallel().forEach(c -> {
            long from = (long) limitBits * c / chunks;
            long to = (long) limitBits * (c + 1) / chunks + (c == chunks - 1 ? 1 : 0);
            double smallest = Double.MAX_VALUE;
            long u = 0, d = 0, f = 0;
            for (long bits = from; bits < to; bits++) {
                for (int sign = 0; sign < 2; sign++) {
                    float x = Float.intBitsToFloat((int) bits | (sign << 31));
                    for (boolean sine : new boolean[] {true, false}) {
                        float result = sine ? FloatArgumentTrig.sin(x) : FloatArgumentTrig.cos(x);
                        if (Float.floatToRawIntBits(result) != Float.floatToRawIntBits((float) (sine ? StrictMath.sin(x) : StrictMath.cos(x)))) {
                            d++;
                            String problem = FloatArgumentTrigCheck.problem(sine, x, result);
                            if (problem != null) {
                                f++;
                                System.out.println("FAIL " + problem);
                            }
                        }
                    }
                    if (x != 0f) {
                        double k = Math.rint(x * 0x1.45f306dc9c883p-1);
                        double r = Math.abs(FloatArgumentTrig.reduced(x, k));
                        if (k != 0 && r < smallest) {
                            smallest = r;
                        }
                        for (boolean cosine : new boolean[] {false, true}) {
                            double approximation = FloatArgumentTrig.approximation(x, cosine);
                            if (FloatArgumentTrig.roundedIfCertain(approximation) != FloatArgumentTrig.roundedIfCertain(approximation)) {
                                u++;
                            }
                        }
                    }
                }
            }
            checked.addAndGet(2 * (to - from));
            uncertain.addAndGet(u);
            differFromStrictMath.addAndGet(d);
            failures.addAndGet(f);
            synchronized (smallestReduced) {
                smallestReduced[0] = Math.min(smallestReduced[0], smallest);
            }
        })).join();
        System.out.printf("arguments checked: %d (every float with |x| <= 2^20, both signs; sin and cos each)%n", checked.get());
        System.out.printf("results not StrictMath's float (then checked against 60 digits): %d; not allowed: %d%n", differFromStrictMath.get(), failures.get());
        System.out.printf("rounding test uncertain (FdLibm decides): %d of %d evaluations%n", uncertain.get(), 2 * checked.get());
        System.out.printf("smallest |x - k pi/2| (k != 0): %s = 2^%.1f%n", Double.toHexString(smallestReduced[0]), Math.log(smallestReduced[0]) / Math.log(2));
        System.out.printf("%.1f s on %d threads%n", (System.nanoTime() - start) / 1e9, threads);
        if (failures.get() > 0) {
            System.exit(1);
        }
    }
}
