package jpai.ocl.codegen;

import jdk.vm.ci.meta.JavaConstant;

/**
 * Java constants as OpenCL C literals that denote exactly the same value: integers without
 * overflowing literals ({@code Integer.MIN_VALUE} is not a valid C literal), floating-point numbers
 * in hexadecimal (no decimal rounding), NaN and infinities by their bit patterns.
 */
final class Literals {

    private Literals() {
    }

    static String of(JavaConstant constant) {
        return switch (constant.getJavaKind()) {
            case Boolean -> constant.asBoolean() ? "1" : "0";
            case Byte, Short, Char, Int -> ofInt(constant.asInt());
            case Long -> ofLong(constant.asLong());
            case Float -> ofFloat(constant.asFloat());
            case Double -> ofDouble(constant.asDouble());
            default -> throw new IllegalArgumentException("no OpenCL literal for " + constant);
        };
    }

    static String ofInt(int value) {
        return value == Integer.MIN_VALUE ? "(-2147483647 - 1)" : value < 0 ? "(" + value + ")" : Integer.toString(value);
    }

    static String ofLong(long value) {
        return value == Long.MIN_VALUE ? "(-9223372036854775807L - 1L)" : value < 0 ? "(" + value + "L)" : value + "L";
    }

    static String ofFloat(float value) {
        if (Float.isNaN(value) || Float.isInfinite(value)) {
            return "as_float(0x" + Integer.toHexString(Float.floatToRawIntBits(value)) + "u)";
        }
        String hex = Float.toHexString(value) + "f";
        return value < 0 || (value == 0 && 1 / value < 0) ? "(" + hex + ")" : hex;
    }

    static String ofDouble(double value) {
        if (Double.isNaN(value) || Double.isInfinite(value)) {
            return "as_double(0x" + Long.toHexString(Double.doubleToRawLongBits(value)) + "UL)";
        }
        String hex = Double.toHexString(value);
        return value < 0 || (value == 0 && 1 / value < 0) ? "(" + hex + ")" : hex;
    }
}
