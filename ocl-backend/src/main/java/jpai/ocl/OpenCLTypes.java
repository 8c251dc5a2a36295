package jpai.ocl;

import jdk.graal.compiler.core.common.type.FloatStamp;
import jdk.graal.compiler.core.common.type.IntegerStamp;
import jdk.graal.compiler.core.common.type.Stamp;
import jdk.vm.ci.meta.JavaKind;

/**
 * Java types as OpenCL C types. Two views: the <em>value</em> type a kernel computes in (Java's
 * stack types: {@code boolean}, {@code byte}, {@code short} and {@code char} are {@code int}, as in the
 * JVM) and the <em>storage</em> type of an element in a buffer ({@code char} for {@code byte},
 * {@code ushort} for {@code char}, {@code uchar} for {@code boolean}, since OpenCL has no
 * {@code bool} buffers).
 */
public final class OpenCLTypes {

    private OpenCLTypes() {
    }

    /** The C type of a buffer element holding a Java value of {@code kind}. */
    public static String storageType(JavaKind kind) {
        return switch (kind) {
            case Boolean -> "uchar";
            case Byte -> "char";
            case Short -> "short";
            case Char -> "ushort";
            case Int -> "int";
            case Long -> "long";
            case Float -> "float";
            case Double -> "double";
            default -> throw new IllegalArgumentException("no OpenCL storage for " + kind);
        };
    }

    /** Bytes per element of {@code kind} in a buffer. */
    public static int storageBytes(JavaKind kind) {
        return kind == JavaKind.Boolean ? 1 : kind.getByteCount();
    }

    /** The C type a kernel computes a Java value of {@code kind} in (its JVM stack type). */
    public static String valueType(JavaKind kind) {
        return switch (kind.getStackKind()) {
            case Int -> "int";
            case Long -> "long";
            case Float -> "float";
            case Double -> "double";
            default -> throw new IllegalArgumentException("no OpenCL value type for " + kind);
        };
    }

    /**
     * The C type of a value with this stamp: integers by bit width (Graal narrows to 8 or 16 bits
     * for {@code (byte)} and {@code (short)} casts), floats by width.
     */
    public static String valueType(Stamp stamp) {
        if (stamp instanceof IntegerStamp integer) {
            // 8- and 16-bit values (Graal's (byte)/(short) narrowings) live in ints, sign-extended:
            // NVIDIA's compiler (H100, driver 580) lost the sign of char/short values (fuzz seed
            // 20261126 programs 2697, 8562, FuzzerFoundBugsTest.narrowingOfAnAbsoluteValue), and an int
            // holds every such value exactly; zero-extensions take the low bits explicitly.
            int bits = integer.getBits();
            return bits == 8 || bits == 16 ? "int" : integerType(bits);
        }
        if (stamp instanceof FloatStamp floating) {
            return floating.getBits() == 32 ? "float" : "double";
        }
        throw new IllegalArgumentException("no OpenCL type for stamp " + stamp);
    }

    /** The signed C integer type of {@code bits} bits. */
    public static String integerType(int bits) {
        return switch (bits) {
            case 1 -> "bool";
            case 8 -> "char";
            case 16 -> "short";
            case 32 -> "int";
            case 64 -> "long";
            default -> throw new IllegalArgumentException("no OpenCL integer of " + bits + " bits");
        };
    }

    /** The unsigned C type of the same width as a signed integer type ({@code int} → {@code uint}). */
    public static String unsigned(String signedType) {
        return switch (signedType) {
            case "char" -> "uchar";
            case "short" -> "ushort";
            case "int" -> "uint";
            case "long" -> "ulong";
            default -> throw new IllegalArgumentException("no unsigned form of " + signedType);
        };
    }
}
