package jpai.compiler.math;

import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;

/**
 * Whether a {@code float} result of {@code sin} or {@code cos} of a {@code float} is one Java allows
 * for {@code (float) Math.sin(x)}: equal to {@code (float) StrictMath.sin(x)} (Java's reference, a
 * {@code double} within 1 ulp), or else the correctly rounded {@code float} of the exact value, which
 * a 60-digit evaluation decides (see {@link FloatArgumentTrig}'s comment for why that is allowed).
 */
final class FloatArgumentTrigCheck {

    private static final MathContext DIGITS = new MathContext(70, RoundingMode.HALF_EVEN);
    private static final BigDecimal PI = new BigDecimal(
                    "3.14159265358979323846264338327950288419716939937510582097494459230781640628620899862803482534211706798");
    private static final BigDecimal HALF_PI = PI.divide(BigDecimal.valueOf(2), DIGITS);

    private FloatArgumentTrigCheck() {
    }

    /** Null when {@code result} is allowed for {@code (float) Math.sin(x)} (or cos), else why not. */
    static String problem(boolean sine, float x, float result) {
        float reference = (float) (sine ? StrictMath.sin(x) : StrictMath.cos(x));
        if (Float.floatToRawIntBits(result) == Float.floatToRawIntBits(reference)) {
            return null;
        }
        if (Float.isNaN(x) || Float.isInfinite(x)) {
            return Float.isNaN(result) ? null : "NaN expected";
        }
        BigDecimal exact = exact(sine, x);
        if (!correctlyRounded(exact, result)) {
            return (sine ? "sin" : "cos") + "(" + Float.toHexString(x) + ") = " + Float.toHexString(result) + ", neither StrictMath's " + Float.toHexString(reference)
                            + " nor the correctly rounded value of " + exact.round(new MathContext(25));
        }
        return null;
    }

    /** Whether {@code result} is the {@code float} nearest {@code exact} (never a tie: the value is transcendental). */
    static boolean correctlyRounded(BigDecimal exact, float result) {
        if (Float.isNaN(result) || Float.isInfinite(result)) {
            return false;
        }
        BigDecimal value = new BigDecimal(result);
        BigDecimal below = new BigDecimal(Math.nextDown(result));
        BigDecimal above = new BigDecimal(Math.nextUp(result));
        BigDecimal low = value.add(below).divide(BigDecimal.valueOf(2));
        BigDecimal high = value.add(above).divide(BigDecimal.valueOf(2));
        return exact.compareTo(low) > 0 && exact.compareTo(high) < 0;
    }

    /** sin(x) or cos(x) to about 60 digits, for |x| below 2^25. */
    static BigDecimal exact(boolean sine, float x) {
        BigDecimal value = new BigDecimal(x);
        BigDecimal k = value.divide(HALF_PI, DIGITS).setScale(0, RoundingMode.HALF_EVEN);
        BigDecimal r = value.subtract(k.multiply(HALF_PI, DIGITS), DIGITS);
        int quadrant = k.remainder(BigDecimal.valueOf(4)).intValue() & 3;
        boolean useSine = sine ? (quadrant & 1) == 0 : (quadrant & 1) == 1;
        BigDecimal result = useSine ? taylor(r, true) : taylor(r, false);
        boolean negate = sine ? quadrant >= 2 : quadrant == 1 || quadrant == 2;
        return negate ? result.negate() : result;
    }

    private static BigDecimal taylor(BigDecimal r, boolean sine) {
        BigDecimal r2 = r.multiply(r, DIGITS);
        BigDecimal term = sine ? r : BigDecimal.ONE;
        BigDecimal sum = term;
        BigDecimal epsilon = new BigDecimal("1e-66");
        for (int n = sine ? 1 : 0; term.abs().compareTo(epsilon) > 0; n += 2) {
            term = term.multiply(r2, DIGITS).divide(BigDecimal.valueOf((long) (n + 1) * (n + 2)), DIGITS).negate();
            sum = sum.add(term, DIGITS);
        }
        return sum;
    }
}
