package jpai.test.fuzz;

import java.util.SplittableRandom;

import jpai.PArray;
import jpai.Tuple2;
import jpai.Tuple3;
import jpai.Tuple4;
import jpai.Tuple5;
import jpai.Tuple6;
import jpai.Tuple7;
import jpai.Tuple8;

/**
 * Random inputs for a program, from its seed: about a quarter of the values of each component are
 * edge values (0, -1, 1, MIN/MAX, NaN, the infinities, -0.0, the smallest values, powers of two at
 * the conversion limits), the rest random over the whole range and over small ranges.
 */
final class FuzzInputs {

    private FuzzInputs() {
    }

    static PArray<Object> of(Program program) {
        SplittableRandom r = new SplittableRandom(program.seed() ^ 0x5DEECE66DL);
        @SuppressWarnings("unchecked")
        PArray<Object> array = (PArray<Object>) PArray.allocate(program.inputType(), program.elements());
        int arity = program.inputs().size();
        Object[] components = new Object[arity];
        for (int i = 0; i < program.elements(); i++) {
            for (int c = 0; c < arity; c++) {
                components[c] = value(program.inputs().get(c), r);
            }
            array.put(i, program.tupleInput() ? tuple(components) : components[0]);
        }
        return array;
    }

    static Object tuple(Object[] c) {
        return switch (c.length) {
            case 2 -> new Tuple2<>(c[0], c[1]);
            case 3 -> new Tuple3<>(c[0], c[1], c[2]);
            case 4 -> new Tuple4<>(c[0], c[1], c[2], c[3]);
            case 5 -> new Tuple5<>(c[0], c[1], c[2], c[3], c[4]);
            case 6 -> new Tuple6<>(c[0], c[1], c[2], c[3], c[4], c[5]);
            case 7 -> new Tuple7<>(c[0], c[1], c[2], c[3], c[4], c[5], c[6]);
            case 8 -> new Tuple8<>(c[0], c[1], c[2], c[3], c[4], c[5], c[6], c[7]);
            default -> throw new IllegalArgumentException("arity " + c.length);
        };
    }

    private static <T> T pick(SplittableRandom r, T[] values) {
        return values[r.nextInt(values.length)];
    }

    static Object value(Prim type, SplittableRandom r) {
        boolean edge = r.nextInt(4) == 0;
        boolean small = r.nextBoolean();
        return switch (type) {
            case BOOLEAN -> r.nextBoolean();
            case BYTE -> edge ? pick(r, new Byte[] {0, -1, 1, Byte.MIN_VALUE, Byte.MAX_VALUE}) : (byte) r.nextInt();
            case SHORT -> edge ? pick(r, new Short[] {0, -1, 1, Short.MIN_VALUE, Short.MAX_VALUE, 255, 256}) : (short) (small ? r.nextInt(-300, 300) : r.nextInt());
            case CHAR -> edge ? pick(r, new Character[] {0, 1, 'a', '\u7fff', '\u8000', '\uffff'}) : (char) (small ? r.nextInt(128) : r.nextInt(65536));
            case INT -> edge ? pick(r, new Integer[] {0, -1, 1, 31, 32, 63, 64, Integer.MIN_VALUE, Integer.MAX_VALUE, Integer.MIN_VALUE + 1})
                            : small ? r.nextInt(-1000, 1001) : r.nextInt();
            case LONG -> edge ? pick(r, new Long[] {0L, -1L, 1L, 63L, 64L, Long.MIN_VALUE, Long.MAX_VALUE, (long) Integer.MIN_VALUE, (long) Integer.MAX_VALUE, 1L << 32})
                            : small ? r.nextLong(-1000, 1001) : r.nextLong();
            case FLOAT -> edge ? pick(r, new Float[] {0f, -0f, 1f, -1f, 0.5f, -0.5f, Float.NaN, Float.POSITIVE_INFINITY, Float.NEGATIVE_INFINITY, Float.MAX_VALUE, -Float.MAX_VALUE,
                            Float.MIN_VALUE, Float.MIN_NORMAL, 2.14748365E9f, -2.14748365E9f, 9.223372E18f, 16777217f})
                            : small ? (float) r.nextDouble(-1000, 1000) : r.nextInt(3) == 0 ? Float.intBitsToFloat(r.nextInt()) : (float) r.nextDouble(-1e12, 1e12);
            case DOUBLE -> edge ? pick(r, new Double[] {0d, -0d, 1d, -1d, 0.5, -0.5, Double.NaN, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY, Double.MAX_VALUE, -Double.MAX_VALUE,
                            Double.MIN_VALUE, Double.MIN_NORMAL, 2147483648d, -2147483649d, 9.223372036854776E18, 9007199254740993d})
                            : small ? r.nextDouble(-1000, 1000) : r.nextInt(3) == 0 ? Double.longBitsToDouble(r.nextLong()) : r.nextDouble(-1e12, 1e12);
        };
    }
}
