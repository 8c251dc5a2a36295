package jpai;

import java.util.List;

/**
 * What a {@link PArray} holds: a scalar {@link ElementType}, or a {@link TupleType} of 2 to 8
 * scalars. Either way, storage is one flat array per component.
 */
public sealed interface DataType permits ElementType, TupleType {

    /** The scalar components, in order: one for a scalar type. */
    List<ElementType> components();

    /** The class of the values a lambda sees ({@code Float}, {@code Tuple2}, ...). */
    Class<?> javaClass();

    /** Written as in Java source: {@code Float}, {@code Tuple2<Float, Integer>}. */
    String javaName();

    /** True if {@code value} is a non-null value of this type, components included. */
    boolean isInstance(Object value);

    /**
     * The type of {@code value}: a wrapper of a scalar element type, or a tuple of them.
     *
     * @throws IllegalArgumentException if a PArray cannot hold such a value
     */
    static DataType of(Object value) {
        if (value == null) {
            throw new IllegalArgumentException("null is not a PArray element");
        }
        if (value instanceof Tuple tuple) {
            ElementType[] components = new ElementType[tuple.arity()];
            for (int i = 0; i < components.length; i++) {
                components[i] = ElementType.of(tuple.get(i).getClass());
            }
            return new TupleType(List.of(components));
        }
        return ElementType.of(value.getClass());
    }
}
