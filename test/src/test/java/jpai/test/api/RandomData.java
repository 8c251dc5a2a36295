package jpai.test.api;

import java.util.Random;

import jpai.ElementType;
import jpai.PArray;

/** Random arrays of every element type, with the edge values Java defines exactly mixed in. */
final class RandomData {

    private RandomData() {
    }

    static PArray<?> of(ElementType type, int length, long seed) {
        Random random = new Random(seed);
        PArray<?> array = PArray.allocate(type, length);
        for (int i = 0; i < length; i++) {
            put(array, i, value(type, random, i));
        }
        return array;
    }

    @SuppressWarnings("unchecked")
    private static void put(PArray<?> array, int index, Object value) {
        ((PArray<Object>) array).put(index, value);
    }

    private static Object value(ElementType type, Random random, int index) {
        int edge = index < 16 ? index : -1;
        return switch (type) {
            case BYTE -> edge >= 0 ? new byte[] {0, -1, 1, Byte.MIN_VALUE, Byte.MAX_VALUE}[edge % 5] : (byte) random.nextInt();
            case SHORT -> edge >= 0 ? new short[] {0, -1, 1, Short.MIN_VALUE, Short.MAX_VALUE}[edge % 5] : (short) random.nextInt();
            case CHAR -> edge >= 0 ? new char[] {0, 1, '\u7fff', '\u8000', '\uffff'}[edge % 5] : (char) random.nextInt();
            case INT -> edge >= 0 ? new int[] {0, -1, 1, Integer.MIN_VALUE, Integer.MAX_VALUE}[edge % 5] : random.nextInt();
            case LONG -> edge >= 0 ? new long[] {0, -1, 1, Long.MIN_VALUE, Long.MAX_VALUE}[edge % 5] : random.nextLong();
            case FLOAT -> edge >= 0 ? new float[] {0f, -0f, Float.NaN, Float.POSITIVE_INFINITY, Float.NEGATIVE_INFINITY, Float.MAX_VALUE, Float.MIN_VALUE, -1f}[edge % 8]
                            : (random.nextFloat() - 0.5f) * 2000f;
            case DOUBLE -> edge >= 0 ? new double[] {0d, -0d, Double.NaN, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY, Double.MAX_VALUE, Double.MIN_VALUE, -1d}[edge % 8]
                            : (random.nextDouble() - 0.5) * 2e6;
            case BOOLEAN -> random.nextBoolean();
        };
    }
}
