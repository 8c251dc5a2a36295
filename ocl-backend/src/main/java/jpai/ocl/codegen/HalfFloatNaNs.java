package jpai.ocl.codegen;

/**
 * The bits of the NaNs that {@code Float.floatToFloat16} and {@code Float.float16ToFloat} return in
 * this JVM. Java specifies only "a NaN", but a {@code short} shows every bit, and the JVM's choice
 * is what users see: HotSpot on x86 uses the processor's conversions in every tier (the payload's
 * top bits, quieted), while the JDK's Java code keeps the payload and folds the low bits in. Asked
 * of the JVM once, with a signalling NaN whose payload tells the two apart; the helpers in
 * {@link Helper} follow the answer.
 */
final class HalfFloatNaNs {

    /** Whether {@code floatToFloat16} of a signalling float NaN gives a quiet half NaN of its top payload bits. */
    private static final boolean QUIETS_HALF = Float.floatToFloat16(Float.intBitsToFloat(0x7F800001)) == (short) 0x7E00;

    /** Whether {@code float16ToFloat} of a signalling half NaN gives a quiet float NaN. */
    private static final boolean QUIETS_FLOAT = (Float.floatToRawIntBits(Float.float16ToFloat((short) 0x7C01)) & 0x00400000) != 0;

    private HalfFloatNaNs() {
    }

    /** The C expression of a half NaN's significand from the float's {@code bits} (no sign, no exponent). */
    static String payloadOfHalf() {
        return QUIETS_HALF ? "0x0200u | ((bits >> 13) & 0x03FFu)" : "((bits & 0x007FE000u) >> 13) | ((bits & 0x00001FF0u) >> 4) | (bits & 0x0000000Fu)";
    }

    /** What to OR into a float made from a half of the top exponent: the quiet bit for a NaN (not for infinity), or nothing. */
    static String quietBitOfFloat() {
        return QUIETS_FLOAT ? " | (significand != 0u ? 0x00400000u : 0u)" : "";
    }
}
