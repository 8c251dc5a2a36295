package jpai.compiler.math;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import java.util.Random;

import org.junit.jupiter.api.Test;

/**
 * {@link FloatArgumentTrig} gives results Java allows for {@code (float) Math.sin/cos} of a
 * {@code float}: a sample of the fast range (every 1,009th {@code float}, both signs), random
 * arguments, and the edges (zeros, subnormals, the range's limit and beyond, multiples of pi/2,
 * infinities, NaN). {@code FloatArgumentTrigProof} checks every {@code float} of the range.
 */
class FloatArgumentTrigTest {

    @Test
    void aSampleOfTheFastRangeGivesResultsJavaAllows() {
        int limitBits = Float.floatToRawIntBits(FloatArgumentTrig.FAST_LIMIT);
        for (int bits = 0; bits <= limitBits; bits += 1009) {
            check(Float.intBitsToFloat(bits));
            check(-Float.intBitsToFloat(bits));
        }
    }

    @Test
    void randomArgumentsGiveResultsJavaAllows() {
        Random random = new Random(17);
        for (int i = 0; i < 200_000; i++) {
            check((random.nextFloat() * 2 - 1) * (i % 2 == 0 ? 10f : 1.1e6f));
        }
    }

    @Test
    void edges() {
        float[] edges = {0f, -0f, Float.MIN_VALUE, -Float.MIN_VALUE, Float.MIN_NORMAL, 1e-20f, 0x1p-12f, 0.7853982f, 0.78539815f, 1.5707964f, 1.5707963f, 3.1415927f,
            3.1415925f, 4.712389f, 6.2831855f, 0x1p20f, -0x1p20f, Math.nextUp(0x1p20f), 0x1p24f, 1e30f, Float.MAX_VALUE, -Float.MAX_VALUE, Float.POSITIVE_INFINITY,
            Float.NEGATIVE_INFINITY, Float.NaN};
        for (float x : edges) {
            check(x);
        }
        assertEquals(Float.floatToRawIntBits(-0f), Float.floatToRawIntBits(FloatArgumentTrig.sin(-0f)), "sin(-0) is -0");
        assertEquals(1f, FloatArgumentTrig.cos(-0f));
        assertTrue(Float.isNaN(FloatArgumentTrig.sin(Float.POSITIVE_INFINITY)) && Float.isNaN(FloatArgumentTrig.cos(Float.NaN)));
    }

    /** The checker itself rejects a result one float away from the correctly rounded one, where StrictMath's is that one. */
    @Test
    void theCheckerCanFail() {
        float x = 1.2345f;
        float right = (float) StrictMath.sin(x);
        assertTrue(FloatArgumentTrigCheck.correctlyRounded(FloatArgumentTrigCheck.exact(true, x), right));
        assertTrue(FloatArgumentTrigCheck.problem(true, x, Math.nextUp(right)) != null);
        assertTrue(FloatArgumentTrigCheck.exact(false, 0f).compareTo(BigDecimal.ONE) == 0);
    }

    private static void check(float x) {
        assertNull(FloatArgumentTrigCheck.problem(true, x, FloatArgumentTrig.sin(x)));
        assertNull(FloatArgumentTrigCheck.problem(false, x, FloatArgumentTrig.cos(x)));
    }
}
