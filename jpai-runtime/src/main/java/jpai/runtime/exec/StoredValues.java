package jpai.runtime.exec;

import java.util.List;

import jpai.DataType;
import jpai.ElementType;
import jpai.Tuple;

/**
 * A value as an array of its type gives it back once it is stored there: a box made by
 * {@code valueOf} (so box identity is what reading the stored element gives, the JVM's own
 * cache included), a new tuple of such boxes. For maps fused in Java (a tiered map then reduce),
 * where no array lies between the map and the next step: each map's result is passed on as the
 * unfused maps' array would pass it. Throws for a value the array could not hold (null, another
 * type): the caller then runs the maps unfused, which fail as written.
 */
public final class StoredValues {

    private StoredValues() {
    }

    /** {@code value} stored into an array of {@code type} and read back. */
    public static Object asStored(Object value, DataType type) {
        if (type instanceof ElementType element) {
            return scalar(value, element);
        }
        List<ElementType> components = type.components();
        Tuple tuple = (Tuple) value;
        if (tuple.arity() != components.size()) {
            throw new ClassCastException("a tuple of " + tuple.arity() + " components where " + components.size() + " were expected");
        }
        Object[] stored = new Object[components.size()];
        for (int c = 0; c < stored.length; c++) {
            stored[c] = scalar(tuple.get(c), components.get(c));
        }
        return Tuple.of(stored);
    }

    private static Object scalar(Object value, ElementType type) {
        return switch (type) {
            case BYTE -> Byte.valueOf((Byte) value);
            case SHORT -> Short.valueOf((Short) value);
            case CHAR -> Character.valueOf((Character) value);
            case INT -> Integer.valueOf((Integer) value);
            case LONG -> Long.valueOf((Long) value);
            case FLOAT -> Float.valueOf((Float) value);
            case DOUBLE -> Double.valueOf((Double) value);
            case BOOLEAN -> Boolean.valueOf((Boolean) value);
        };
    }
}
