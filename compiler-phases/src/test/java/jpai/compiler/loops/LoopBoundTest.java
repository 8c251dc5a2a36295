package jpai.compiler.loops;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

/** Bounds computed by the runtime give what Java's int and long arithmetic gives, wrapping, masked shifts and exceptions included. */
class LoopBoundTest {

    private static final LoopBound N = new LoopBound.Parameter(0);
    private static final LoopBound LENGTH = new LoopBound.ArrayLength(1);

    private static long int32(LoopBound.Operator operator, long x, long y) {
        return new LoopBound.Computed(operator, new LoopBound.Constant(x), new LoopBound.Constant(y), 32).valueFor(new Object[0]);
    }

    @Test
    void intArithmeticWrapsAndMasksShiftsAsJavaDoes() {
        int max = Integer.MAX_VALUE;
        assertEquals(max + 1, int32(LoopBound.Operator.ADD, max, 1));
        assertEquals(Integer.MIN_VALUE - 1, int32(LoopBound.Operator.SUB, Integer.MIN_VALUE, 1));
        assertEquals(max * 3, int32(LoopBound.Operator.MUL, max, 3));
        assertEquals(-7 / 2, int32(LoopBound.Operator.DIV, -7, 2));
        assertEquals(-7 % 2, int32(LoopBound.Operator.REM, -7, 2));
        assertEquals(Integer.MIN_VALUE / -1, int32(LoopBound.Operator.DIV, Integer.MIN_VALUE, -1));
        assertEquals(1 << 33, int32(LoopBound.Operator.SHL, 1, 33));
        assertEquals(-8 >> 1, int32(LoopBound.Operator.SHR, -8, 1));
        assertEquals(-8 >>> 1, int32(LoopBound.Operator.USHR, -8, 1));
        assertEquals(0x0f & 0x3c, int32(LoopBound.Operator.AND, 0x0f, 0x3c));
        assertEquals(0x0f | 0x30, int32(LoopBound.Operator.OR, 0x0f, 0x30));
        assertEquals(0x0f ^ 0x3c, int32(LoopBound.Operator.XOR, 0x0f, 0x3c));
        assertThrows(ArithmeticException.class, () -> int32(LoopBound.Operator.DIV, 5, 0));
    }

    @Test
    void longArithmeticIsSixtyFourBits() {
        LoopBound shifted = new LoopBound.Computed(LoopBound.Operator.SHL, new LoopBound.Constant(1), new LoopBound.Constant(40), 64);
        assertEquals(1L << 40, shifted.valueFor(new Object[0]));
    }

    @Test
    void boundsReadTheCallsArguments() {
        LoopBound lastButOne = new LoopBound.Computed(LoopBound.Operator.SUB, LENGTH, new LoopBound.Constant(1), 32);
        LoopBound half = new LoopBound.Computed(LoopBound.Operator.DIV, N, new LoopBound.Constant(2), 32);
        Object[] arguments = {9, new float[12]};
        assertEquals(11, lastButOne.valueFor(arguments));
        assertEquals(4, half.valueFor(arguments));
        assertEquals('a' + 1, new LoopBound.Computed(LoopBound.Operator.ADD, N, new LoopBound.Constant(1), 32).valueFor(new Object[] {'a'}));
    }
}
