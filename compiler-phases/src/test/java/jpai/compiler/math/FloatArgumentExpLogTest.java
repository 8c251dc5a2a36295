package jpai.compiler.math;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Random;

import org.junit.jupiter.api.Test;

/**
 * {@link FloatArgumentExpLog} gives results Java allows for {@code (float) Math.exp/log} of a
 * {@code float}: {@code (float) StrictMath}'s, or else the correctly rounded value (60 digits), on
 * a sample of every range (every 997th float), random arguments and the edges.
 * {@code FloatArgumentExpLogProof} checks every {@code float} of the fast ranges.
 */
class FloatArgumentExpLogTest {

    @Test
    void aSampleOfEveryFloatGivesResultsJavaAllows() {
        for (long bits = 0; bits <= 0xFFFF_FFFFL; bits += 997) {
            check(Float.intBitsToFloat((int) bits));
        }
    }

    @Test
    void randomAndEdgeArgumentsGiveResultsJavaAllows() {
        Random random = new Random(19);
        for (int i = 0; i < 200_000; i++) {
            check((random.nextFloat() * 2 - 1) * (i % 2 == 0 ? 10f : 110f));
        }
        float[] edges = {0f, -0f, Float.MIN_VALUE, Float.MIN_NORMAL, 1f, Math.nextDown(1f), Math.nextUp(1f), 2f, 0.5f, (float) Math.E, 88.72283f, 88.72284f, 89f,
            -87.33655f, -103.27893f, -103.97208f, -104f, 104f, Math.nextUp(104f), -Math.nextUp(104f), Float.MAX_VALUE, -Float.MAX_VALUE, Float.POSITIVE_INFINITY,
            Float.NEGATIVE_INFINITY, Float.NaN};
        for (float x : edges) {
            check(x);
        }
        assertEquals(1f, FloatArgumentExpLog.exp(-0f));
        assertEquals(Float.floatToRawIntBits(0f), Float.floatToRawIntBits(FloatArgumentExpLog.log(1f)), "log(1) is +0");
        assertEquals(Float.NEGATIVE_INFINITY, FloatArgumentExpLog.log(0f));
        assertTrue(Float.isNaN(FloatArgumentExpLog.log(-1f)) && Float.isNaN(FloatArgumentExpLog.exp(Float.NaN)));
        assertEquals(Float.POSITIVE_INFINITY, FloatArgumentExpLog.exp(89f));
        assertEquals(0f, FloatArgumentExpLog.exp(-104f));
    }

    /** The references agree with StrictMath where it is known right, so the check can tell a wrong result. */
    @Test
    void theReferencesCanFail() {
        float x = 1.2345f;
        float exp = (float) StrictMath.exp(x);
        assertTrue(FloatArgumentTrigCheck.correctlyRounded(FloatArgumentExpLogProof.exactExp(x), exp));
        assertTrue(!FloatArgumentTrigCheck.correctlyRounded(FloatArgumentExpLogProof.exactExp(x), Math.nextUp(exp)));
        float log = (float) StrictMath.log(x);
        assertTrue(FloatArgumentTrigCheck.correctlyRounded(FloatArgumentExpLogProof.exactLog(x), log));
        assertTrue(!FloatArgumentTrigCheck.correctlyRounded(FloatArgumentExpLogProof.exactLog(x), Math.nextDown(log)));
        assertTrue(FloatArgumentTrigCheck.correctlyRounded(FloatArgumentExpLogProof.exactLog(1e-40f), (float) StrictMath.log(1e-40f)), "a subnormal's log");
    }

    private static void check(float x) {
        for (boolean exp : new boolean[] {true, false}) {
            float result = exp ? FloatArgumentExpLog.exp(x) : FloatArgumentExpLog.log(x);
            float reference = (float) (exp ? StrictMath.exp(x) : StrictMath.log(x));
            if (Float.floatToRawIntBits(result) != Float.floatToRawIntBits(reference) && !(Float.isNaN(result) && Float.isNaN(reference))) {
                assertTrue(FloatArgumentTrigCheck.correctlyRounded(exp ? FloatArgumentExpLogProof.exactExp(x) : FloatArgumentExpLogProof.exactLog(x), result),
                                (exp ? "exp(" : "log(") + Float.toHexString(x) + ") = " + Float.toHexString(result) + ", StrictMath's " + Float.toHexString(reference));
            }
        }
    }
}
