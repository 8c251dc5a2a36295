package jpai.runtime.exec;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

import jpai.DataType;
import jpai.ElementType;
import jpai.PArray;
import jpai.Tuple2;
import jpai.Tuple3;
import jpai.Tuple4;
import jpai.Tuple5;
import jpai.Tuple6;
import jpai.Tuple7;
import jpai.Tuple8;
import jpai.runtime.memory.PArrayStorage;

/**
 * Writes the values a lambda returned into an array, checking that each is of the array's type
 * (a lambda may return {@code Object}, so the compiler cannot). Made once per operation, on the
 * calling thread, from the array's host memory taken for writing (the device copy marked stale
 * then, once): writing an element is then a class test and one memory access per component, with
 * none of {@link PArray#put}'s per-element checks and no shared version counter for worker
 * threads to fight over.
 *
 * <p>One small final class per element type and per tuple arity, alike in shape on purpose: each
 * call site in the chunk loops then sees one exact class and the JIT inlines the access and removes
 * the box; one class parameterised by a value layout would make every call site polymorphic.
 */
abstract sealed class ElementWriter {

    private final DataType type;

    private ElementWriter(DataType type) {
        this.type = type;
    }

    /**
     * Writes {@code value} (not null: the caller says what returned null) as element {@code index};
     * the caller keeps {@code index} within the array.
     *
     * @throws ClassCastException if the array cannot hold {@code value}, with {@link PArray#put}'s message
     */
    abstract void write(long index, Object value);

    /**
     * A writer into {@code array}, whose contents it replaces, through its unscoped memory: the
     * caller holds the array's leases ({@code BufferLeases}) for as long as the writer is used, so
     * closing the array later costs no thread handshake (every apply makes a new output).
     */
    static ElementWriter ofLeased(PArray<?> array) {
        if (!array.isTuples()) {
            return scalar(PArrayStorage.buffer(array, 0).type(), PArrayStorage.buffer(array, 0).leasedForHostWrite());
        }
        Scalar[] c = new Scalar[array.componentCount()];
        for (int i = 0; i < c.length; i++) {
            c[i] = scalar(PArrayStorage.buffer(array, i).type(), PArrayStorage.buffer(array, i).leasedForHostWrite());
        }
        DataType type = array.type();
        return switch (c.length) {
            case 2 -> new Of2(type, c[0], c[1]);
            case 3 -> new Of3(type, c[0], c[1], c[2]);
            case 4 -> new Of4(type, c[0], c[1], c[2], c[3]);
            case 5 -> new Of5(type, c[0], c[1], c[2], c[3], c[4]);
            case 6 -> new Of6(type, c[0], c[1], c[2], c[3], c[4], c[5]);
            case 7 -> new Of7(type, c[0], c[1], c[2], c[3], c[4], c[5], c[6]);
            case 8 -> new Of8(type, c[0], c[1], c[2], c[3], c[4], c[5], c[6], c[7]);
            default -> throw new IllegalArgumentException("tuples have 2 to 8 components, not " + c.length);
        };
    }

    private static Scalar scalar(ElementType type, MemorySegment memory) {
        return switch (type) {
            case BYTE -> new Bytes(memory);
            case SHORT -> new Shorts(memory);
            case CHAR -> new Chars(memory);
            case INT -> new Ints(memory);
            case LONG -> new Longs(memory);
            case FLOAT -> new Floats(memory);
            case DOUBLE -> new Doubles(memory);
            case BOOLEAN -> new Booleans(memory);
        };
    }

    /** The exception {@link PArray#put} throws for a value of another type. */
    final ClassCastException cannotHold(Object value) {
        String described;
        try {
            described = DataType.of(value).javaName();
        } catch (IllegalArgumentException e) {
            described = value.getClass().getSimpleName();
        }
        return new ClassCastException("a PArray<" + type.javaName() + "> cannot hold a " + described);
    }

    /** One component's storage: writes a value of its type, or says it is not. */
    private abstract static sealed class Scalar extends ElementWriter {

        Scalar(ElementType type) {
            super(type);
        }

        /** Writes {@code value} and returns true if it is of this type; else writes nothing and returns false. */
        abstract boolean tryWrite(long index, Object value);

        @Override
        final void write(long index, Object value) {
            if (!tryWrite(index, value)) {
                throw cannotHold(value);
            }
        }
    }

    private static final class Bytes extends Scalar {
        private final MemorySegment memory;

        Bytes(MemorySegment memory) {
            super(ElementType.BYTE);
            this.memory = memory;
        }

        @Override
        boolean tryWrite(long index, Object value) {
            if (value instanceof Byte v) {
                memory.setAtIndex(ValueLayout.JAVA_BYTE, index, v);
                return true;
            }
            return false;
        }
    }

    private static final class Shorts extends Scalar {
        private final MemorySegment memory;

        Shorts(MemorySegment memory) {
            super(ElementType.SHORT);
            this.memory = memory;
        }

        @Override
        boolean tryWrite(long index, Object value) {
            if (value instanceof Short v) {
                memory.setAtIndex(ValueLayout.JAVA_SHORT, index, v);
                return true;
            }
            return false;
        }
    }

    private static final class Chars extends Scalar {
        private final MemorySegment memory;

        Chars(MemorySegment memory) {
            super(ElementType.CHAR);
            this.memory = memory;
        }

        @Override
        boolean tryWrite(long index, Object value) {
            if (value instanceof Character v) {
                memory.setAtIndex(ValueLayout.JAVA_CHAR, index, v);
                return true;
            }
            return false;
        }
    }

    private static final class Ints extends Scalar {
        private final MemorySegment memory;

        Ints(MemorySegment memory) {
            super(ElementType.INT);
            this.memory = memory;
        }

        @Override
        boolean tryWrite(long index, Object value) {
            if (value instanceof Integer v) {
                memory.setAtIndex(ValueLayout.JAVA_INT, index, v);
                return true;
            }
            return false;
        }
    }

    private static final class Longs extends Scalar {
        private final MemorySegment memory;

        Longs(MemorySegment memory) {
            super(ElementType.LONG);
            this.memory = memory;
        }

        @Override
        boolean tryWrite(long index, Object value) {
            if (value instanceof Long v) {
                memory.setAtIndex(ValueLayout.JAVA_LONG, index, v);
                return true;
            }
            return false;
        }
    }

    private static final class Floats extends Scalar {
        private final MemorySegment memory;

        Floats(MemorySegment memory) {
            super(ElementType.FLOAT);
            this.memory = memory;
        }

        @Override
        boolean tryWrite(long index, Object value) {
            if (value instanceof Float v) {
                memory.setAtIndex(ValueLayout.JAVA_FLOAT, index, v);
                return true;
            }
            return false;
        }
    }

    private static final class Doubles extends Scalar {
        private final MemorySegment memory;

        Doubles(MemorySegment memory) {
            super(ElementType.DOUBLE);
            this.memory = memory;
        }

        @Override
        boolean tryWrite(long index, Object value) {
            if (value instanceof Double v) {
                memory.setAtIndex(ValueLayout.JAVA_DOUBLE, index, v);
                return true;
            }
            return false;
        }
    }

    /** Stored as one byte, 0 or 1. */
    private static final class Booleans extends Scalar {
        private final MemorySegment memory;

        Booleans(MemorySegment memory) {
            super(ElementType.BOOLEAN);
            this.memory = memory;
        }

        @Override
        boolean tryWrite(long index, Object value) {
            if (value instanceof Boolean v) {
                memory.set(ValueLayout.JAVA_BYTE, index, (byte) (v ? 1 : 0));
                return true;
            }
            return false;
        }
    }

    private static final class Of2 extends ElementWriter {
        private final Scalar a, b;

        Of2(DataType type, Scalar a, Scalar b) {
            super(type);
            this.a = a;
            this.b = b;
        }

        @Override
        void write(long index, Object value) {
            // A failed component leaves the others half written: the operation then fails and closes the array.
            if (!(value instanceof Tuple2<?, ?> t && a.tryWrite(index, t._1()) && b.tryWrite(index, t._2()))) {
                throw cannotHold(value);
            }
        }
    }

    private static final class Of3 extends ElementWriter {
        private final Scalar a, b, c;

        Of3(DataType type, Scalar a, Scalar b, Scalar c) {
            super(type);
            this.a = a;
            this.b = b;
            this.c = c;
        }

        @Override
        void write(long index, Object value) {
            // A failed component leaves the others half written: the operation then fails and closes the array.
            if (!(value instanceof Tuple3<?, ?, ?> t && a.tryWrite(index, t._1()) && b.tryWrite(index, t._2()) && c.tryWrite(index, t._3()))) {
                throw cannotHold(value);
            }
        }
    }

    private static final class Of4 extends ElementWriter {
        private final Scalar a, b, c, d;

        Of4(DataType type, Scalar a, Scalar b, Scalar c, Scalar d) {
            super(type);
            this.a = a;
            this.b = b;
            this.c = c;
            this.d = d;
        }

        @Override
        void write(long index, Object value) {
            // A failed component leaves the others half written: the operation then fails and closes the array.
            if (!(value instanceof Tuple4<?, ?, ?, ?> t && a.tryWrite(index, t._1()) && b.tryWrite(index, t._2()) && c.tryWrite(index, t._3()) && d.tryWrite(index, t._4()))) {
                throw cannotHold(value);
            }
        }
    }

    private static final class Of5 extends ElementWriter {
        private final Scalar a, b, c, d, e;

        Of5(DataType type, Scalar a, Scalar b, Scalar c, Scalar d, Scalar e) {
            super(type);
            this.a = a;
            this.b = b;
            this.c = c;
            this.d = d;
            this.e = e;
        }

        @Override
        void write(long index, Object value) {
            // A failed component leaves the others half written: the operation then fails and closes the array.
            if (!(value instanceof Tuple5<?, ?, ?, ?, ?> t && a.tryWrite(index, t._1()) && b.tryWrite(index, t._2()) && c.tryWrite(index, t._3()) && d.tryWrite(index, t._4()) && e.tryWrite(index, t._5()))) {
                throw cannotHold(value);
            }
        }
    }

    private static final class Of6 extends ElementWriter {
        private final Scalar a, b, c, d, e, f;

        Of6(DataType type, Scalar a, Scalar b, Scalar c, Scalar d, Scalar e, Scalar f) {
            super(type);
            this.a = a;
            this.b = b;
            this.c = c;
            this.d = d;
            this.e = e;
            this.f = f;
        }

        @Override
        void write(long index, Object value) {
            // A failed component leaves the others half written: the operation then fails and closes the array.
            if (!(value instanceof Tuple6<?, ?, ?, ?, ?, ?> t && a.tryWrite(index, t._1()) && b.tryWrite(index, t._2()) && c.tryWrite(index, t._3()) && d.tryWrite(index, t._4()) && e.tryWrite(index, t._5()) && f.tryWrite(index, t._6()))) {
                throw cannotHold(value);
            }
        }
    }

    private static final class Of7 extends ElementWriter {
        private final Scalar a, b, c, d, e, f, g;

        Of7(DataType type, Scalar a, Scalar b, Scalar c, Scalar d, Scalar e, Scalar f, Scalar g) {
            super(type);
            this.a = a;
            this.b = b;
            this.c = c;
            this.d = d;
            this.e = e;
            this.f = f;
            this.g = g;
        }

        @Override
        void write(long index, Object value) {
            // A failed component leaves the others half written: the operation then fails and closes the array.
            if (!(value instanceof Tuple7<?, ?, ?, ?, ?, ?, ?> t && a.tryWrite(index, t._1()) && b.tryWrite(index, t._2()) && c.tryWrite(index, t._3()) && d.tryWrite(index, t._4()) && e.tryWrite(index, t._5()) && f.tryWrite(index, t._6()) && g.tryWrite(index, t._7()))) {
                throw cannotHold(value);
            }
        }
    }

    private static final class Of8 extends ElementWriter {
        private final Scalar a, b, c, d, e, f, g, h;

        Of8(DataType type, Scalar a, Scalar b, Scalar c, Scalar d, Scalar e, Scalar f, Scalar g, Scalar h) {
            super(type);
            this.a = a;
            this.b = b;
            this.c = c;
            this.d = d;
            this.e = e;
            this.f = f;
            this.g = g;
            this.h = h;
        }

        @Override
        void write(long index, Object value) {
            // A failed component leaves the others half written: the operation then fails and closes the array.
            if (!(value instanceof Tuple8<?, ?, ?, ?, ?, ?, ?, ?> t && a.tryWrite(index, t._1()) && b.tryWrite(index, t._2()) && c.tryWrite(index, t._3()) && d.tryWrite(index, t._4()) && e.tryWrite(index, t._5()) && f.tryWrite(index, t._6()) && g.tryWrite(index, t._7()) && h.tryWrite(index, t._8()))) {
                throw cannotHold(value);
            }
        }
    }
}
