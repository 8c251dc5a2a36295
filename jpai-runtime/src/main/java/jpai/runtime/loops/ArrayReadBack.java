package jpai.runtime.loops;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * The direct buffers a written array's device copy is read back into, and the copy from such a
 * buffer into the Java array: only after the kernel finished without an exit, so that a call that
 * falls back to Java starts from the caller's arrays as they were.
 */
final class ArrayReadBack {

    private ArrayReadBack() {
    }

    /** A direct buffer, in native order, as large as {@code array}'s elements on the device. */
    static ByteBuffer bufferFor(Object array) {
        return ByteBuffer.allocateDirect((int) Math.max(1, byteSize(array))).order(ByteOrder.nativeOrder());
    }

    /** Whether one direct buffer can hold {@code array}'s elements (at most 2^31 - 1 bytes). */
    static boolean fits(Object array) {
        return byteSize(array) <= Integer.MAX_VALUE;
    }

    /** Copies {@code buffer} (the device copy of {@code array}) into {@code array}. */
    static void copyInto(ByteBuffer buffer, Object array) {
        ByteBuffer bytes = buffer.duplicate().order(ByteOrder.nativeOrder()).rewind();
        switch (array) {
            case byte[] a -> bytes.get(a);
            case boolean[] a -> {
                for (int i = 0; i < a.length; i++) {
                    a[i] = bytes.get(i) != 0;
                }
            }
            case short[] a -> bytes.asShortBuffer().get(a);
            case char[] a -> bytes.asCharBuffer().get(a);
            case int[] a -> bytes.asIntBuffer().get(a);
            case float[] a -> bytes.asFloatBuffer().get(a);
            case long[] a -> bytes.asLongBuffer().get(a);
            case double[] a -> bytes.asDoubleBuffer().get(a);
            default -> throw new IllegalArgumentException("not a primitive array: " + array.getClass().getSimpleName());
        }
    }

    private static long byteSize(Object array) {
        long length = java.lang.reflect.Array.getLength(array);
        return switch (array) {
            case byte[] a -> length;
            case boolean[] a -> length;
            case short[] a -> 2 * length;
            case char[] a -> 2 * length;
            case int[] a -> 4 * length;
            case float[] a -> 4 * length;
            case long[] a -> 8 * length;
            case double[] a -> 8 * length;
            default -> throw new IllegalArgumentException("not a primitive array: " + array.getClass().getSimpleName());
        };
    }
}
