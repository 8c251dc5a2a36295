package jpai.compiler.math;

import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.DoubleUnaryOperator;
import java.util.stream.IntStream;

/**
 * Checks {@link FloatArgumentExpLog} on every {@code float} of its fast ranges (exp: |x| <= 104, both
 * signs; log: every positive finite float) against {@code (float) StrictMath} and, where they
 * differ, against a 60-digit reference (the result must then be correctly rounded); prints the count
 * of arguments the rounding test sent to FdLibm. Usage: {@code FloatArgumentExpLogProof [threads]}.
 */
public final class FloatArgumentExpLogProof {

    private static final MathContext DIGITS = new MathContext(70, RoundingMode.HALF_EVEN);
    private static final BigDecimal LN2 = new BigDecimal("0.6931471805599453094172321214581765680755001343602552541206800094933936219696947156058633269964186875");

    public static void main(String[] args) {
        int threads = args.length > 0 ? Integer.parseInt(args[0]) : Runtime.getRuntime().availableProcessors();
        long start = System.nanoTime();
        long expFailures = check("exp", threads, Float.floatToRawIntBits(FloatArgumentExpLog.EXP_LIMIT) + 1, true, FloatArgumentExpLog::exp, StrictMath::exp,
                        FloatArgumentExpLogProof::exactExp);
        long logFailures = check("log", threads, Float.floatToRawIntBits(Float.MAX_VALUE) + 1, false, FloatArgumentExpLog::log, StrictMath::log,
                        FloatArgumentExpLogProof::exactLog);
        System.out.printf("%.1f s on %d threads%n", (System.nanoTime() - start) / 1e9, threads);
        if (expFailures + logFailures > 0) {
            System.exit(1);
        }
    }

    interface FloatFunction {
        float apply(float x);
    }

    private static long check(String name, int threads, int endBits, boolean bothSigns, FloatFunction f, DoubleUnaryOperator strict, java.util.function.Function<Float, BigDecimal> exact) {
        AtomicLong checked = new AtomicLong(), differ = new AtomicLong(), failures = new AtomicLong(), uncertain = new AtomicLong();
        int chunks = 4096;
        new java.util.concurrent.ForkJoinPool(threads).submit(() -> IntStream.range(0, chunks).parallel().forEach(c -> {
            long from = (long) endBits * c / chunks;
            long to = (long) endBits * (c + 1) / chunks;
            long n = 0, d = 0, fails = 0, u = 0;
            for (long bits = from; bits < to; bits++) {
                for (int sign = 0; sign < (bothSigns ? 2 : 1); sign++) {
                    float x = Float.intBitsToFloat((int) bits | (sign << 31));
                    n++;
                    float result = f.apply(x);
                    float reference = (float) strict.applyAsDouble(x);
                    if (Float.floatToRawIntBits(result) != Float.floatToRawIntBits(reference)) {
                        d++;
                        if (!FloatArgumentTrigCheck.correctlyRounded(exact.apply(x), result)) {
                            fails++;
                            System.out.println("FAIL " + name + "(" + Float.toHexString(x) + ") = " + Float.toHexString(result) + ", StrictMath's " + Float.toHexString(reference));
                        }
                    }
                    double approximation = name.equals("exp") ? FloatArgumentExpLog.expApproximation(x) : FloatArgumentExpLog.logApproximation(x);
                    if (x != 0f && FloatArgumentTrig.roundedIfCertain(approximation) != FloatArgumentTrig.roundedIfCertain(approximation)) {
                        u++;
                    }
                }
            }
            checked.addAndGet(n);
            differ.addAndGet(d);
            failures.addAndGet(fails);
            uncertain.addAndGet(u);
        })).join();
        System.out.printf("%s: %d arguments; results not StrictMath's float: %d (each checked against 60 digits); not allowed: %d; rounding test uncertain (FdLibm decides): %d%n",
                        name, checked.get(), differ.get(), failures.get(), uncertain.get());
        return failures.get();
    }

    /** exp(x) to about 60 digits: 2^k exp(r), r = x - k ln2, Taylor. */
    static BigDecimal exactExp(float x) {
        BigDecimal value = new BigDecimal(x);
        BigDecimal k = value.divide(LN2, DIGITS).setScale(0, RoundingMode.HALF_EVEN);
        BigDecimal r = value.subtract(k.multiply(LN2, DIGITS), DIGITS);
        BigDecimal term = BigDecimal.ONE, sum = BigDecimal.ONE;
        for (int n = 1; term.abs().compareTo(new BigDecimal("1e-66")) > 0; n++) {
            term = term.multiply(r, DIGITS).divide(BigDecimal.valueOf(n), DIGITS);
            sum = sum.add(term, DIGITS);
        }
        int shift = k.intValueExact();
        return shift >= 0 ? sum.multiply(new BigDecimal(java.math.BigInteger.TWO.pow(shift)), DIGITS)
                        : sum.divide(new BigDecimal(java.math.BigInteger.TWO.pow(-shift)), DIGITS);
    }

    /** log(x) to about 60 digits: e ln2 + 2 atanh((m-1)/(m+1)). */
    static BigDecimal exactLog(float x) {
        int e = Math.getExponent((double) x);
        BigDecimal m = new BigDecimal(x).divide(new BigDecimal(2).pow(e, DIGITS).compareTo(BigDecimal.ZERO) > 0 && e >= 0 ? new BigDecimal(java.math.BigInteger.TWO.pow(e)) : BigDecimal.ONE.divide(new BigDecimal(java.math.BigInteger.TWO.pow(-e))), DIGITS);
        BigDecimal s = m.subtract(BigDecimal.ONE).divide(m.add(BigDecimal.ONE), DIGITS);
        BigDecimal s2 = s.multiply(s, DIGITS);
        BigDecimal power = s, sum = BigDecimal.ZERO;
        for (int n = 1; power.abs().compareTo(new BigDecimal("1e-66")) > 0; n += 2) {
            sum = sum.add(power.divide(BigDecimal.valueOf(n), DIGITS), DIGITS);
            power = power.multiply(s2, DIGITS);
        }
        return LN2.multiply(BigDecimal.valueOf(e), DIGITS).add(sum.multiply(BigDecimal.valueOf(2), DIGITS), DIGITS);
    }
}
