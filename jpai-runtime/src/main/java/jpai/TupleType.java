package jpai;

import java.util.List;
import java.util.stream.Collectors;

/** The type of {@code TupleN} elements: the element type of each component, 2 to 8 of them. */
public record TupleType(List<ElementType> components) implements DataType {

    public TupleType {
        components = List.copyOf(components);
        if (components.size() < 2 || components.size() > 8) {
            throw new IllegalArgumentException("tuples have 2 to 8 components, not " + components.size());
        }
    }

    /** The tuple type of these component types: {@code TupleType.of(Float.class, Integer.class)}. */
    public static TupleType of(Class<?>... componentTypes) {
        ElementType[] components = new ElementType[componentTypes.length];
        for (int i = 0; i < components.length; i++) {
            components[i] = ElementType.of(componentTypes[i]);
        }
        return new TupleType(List.of(components));
    }

    public int arity() {
        return components.size();
    }

    @Override
    public Class<?> javaClass() {
        return Tuple.classOf(components.size());
    }

    @Override
    public String javaName() {
        return "Tuple" + components.size() + components.stream().map(ElementType::javaName).collect(Collectors.joining(", ", "<", ">"));
    }

    @Override
    public boolean isInstance(Object value) {
        if (!(value instanceof Tuple tuple) || tuple.arity() != components.size()) {
            return false;
        }
        for (int i = 0; i < components.size(); i++) {
            if (!components.get(i).isInstance(tuple.get(i))) {
                return false;
            }
        }
        return true;
    }

    @Override
    public String toString() {
        return javaName();
    }
}
