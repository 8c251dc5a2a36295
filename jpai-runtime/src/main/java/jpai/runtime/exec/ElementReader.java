package jpai.runtime.exec;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

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
 * Reads elements of an array as the values a lambda sees: a box, or a new tuple of boxes. Made
 * once per operation, on the calling thread, from the array's host memory (a newer device copy is
 * brought back then, once): reading an element is then one memory access and the box, with none of
 * {@link PArray#get}'s per-element checks (open, index, device copy), so that worker threads share
 * no written state.
 *
 * <p>One small final class per element type and per tuple arity, alike in shape on purpose: each
 * call site in the chunk loops then sees one exact class and the JIT inlines the access and removes
 * the box; one class parameterised by a value layout would make every call site polymorphic.
 */
abstract sealed class ElementReader {

    /** Element {@code index}; the caller keeps it within the array. */
    abstract Object read(long index);

    /**
     * A reader of {@code array}'s current contents through its unscoped memory: the caller holds
     * the array's leases ({@code BufferLeases}) for as long as the reader is used.
     */
    static ElementReader ofLeased(PArray<?> array) {
        if (!array.isTuples()) {
            return scalar(PArrayStorage.buffer(array, 0).type(), PArrayStorage.buffer(array, 0).leasedForHostRead());
        }
        ElementReader[] c = new ElementReader[array.componentCount()];
        for (int i = 0; i < c.length; i++) {
            c[i] = scalar(PArrayStorage.buffer(array, i).type(), PArrayStorage.buffer(array, i).leasedForHostRead());
        }
        return switch (c.length) {
            case 2 -> new Of2(c[0], c[1]);
            case 3 -> new Of3(c[0], c[1], c[2]);
            case 4 -> new Of4(c[0], c[1], c[2], c[3]);
            case 5 -> new Of5(c[0], c[1], c[2], c[3], c[4]);
            case 6 -> new Of6(c[0], c[1], c[2], c[3], c[4], c[5]);
            case 7 -> new Of7(c[0], c[1], c[2], c[3], c[4], c[5], c[6]);
            case 8 -> new Of8(c[0], c[1], c[2], c[3], c[4], c[5], c[6], c[7]);
            default -> throw new IllegalArgumentException("tuples have 2 to 8 components, not " + c.length);
        };
    }

    private static ElementReader scalar(ElementType type, MemorySegment memory) {
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

    private static final class Bytes extends ElementReader {
        private final MemorySegment memory;

        Bytes(MemorySegment memory) {
            this.memory = memory;
        }

        @Override
        Object read(long index) {
            return memory.getAtIndex(ValueLayout.JAVA_BYTE, index);
        }
    }

    private static final class Shorts extends ElementReader {
        private final MemorySegment memory;

        Shorts(MemorySegment memory) {
            this.memory = memory;
        }

        @Override
        Object read(long index) {
            return memory.getAtIndex(ValueLayout.JAVA_SHORT, index);
        }
    }

    private static final class Chars extends ElementReader {
        private final MemorySegment memory;

        Chars(MemorySegment memory) {
            this.memory = memory;
        }

        @Override
        Object read(long index) {
            return memory.getAtIndex(ValueLayout.JAVA_CHAR, index);
        }
    }

    private static final class Ints extends ElementReader {
        private final MemorySegment memory;

        Ints(MemorySegment memory) {
            this.memory = memory;
        }

        @Override
        Object read(long index) {
            return memory.getAtIndex(ValueLayout.JAVA_INT, index);
        }
    }

    private static final class Longs extends ElementReader {
        private final MemorySegment memory;

        Longs(MemorySegment memory) {
            this.memory = memory;
        }

        @Override
        Object read(long index) {
            return memory.getAtIndex(ValueLayout.JAVA_LONG, index);
        }
    }

    private static final class Floats extends ElementReader {
        private final MemorySegment memory;

        Floats(MemorySegment memory) {
            this.memory = memory;
        }

        @Override
        Object read(long index) {
            return memory.getAtIndex(ValueLayout.JAVA_FLOAT, index);
        }
    }

    private static final class Doubles extends ElementReader {
        private final MemorySegment memory;

        Doubles(MemorySegment memory) {
            this.memory = memory;
        }

        @Override
        Object read(long index) {
            return memory.getAtIndex(ValueLayout.JAVA_DOUBLE, index);
        }
    }

    /** Stored as one byte, 0 or 1 (anything nonzero reads as true, as {@link ElementType#get} has it). */
    private static final class Booleans extends ElementReader {
        private final MemorySegment memory;

        Booleans(MemorySegment memory) {
            this.memory = memory;
        }

        @Override
        Object read(long index) {
            return memory.get(ValueLayout.JAVA_BYTE, index) != 0;
        }
    }

    private static final class Of2 extends ElementReader {
        private final ElementReader a, b;

        Of2(ElementReader a, ElementReader b) {
            this.a = a;
            this.b = b;
        }

        @Override
        Object read(long index) {
            return new Tuple2<>(a.read(index), b.read(index));
        }
    }

    private static final class Of3 extends ElementReader {
        private final ElementReader a, b, c;

        Of3(ElementReader a, ElementReader b, ElementReader c) {
            this.a = a;
            this.b = b;
            this.c = c;
        }

        @Override
        Object read(long index) {
            return new Tuple3<>(a.read(index), b.read(index), c.read(index));
        }
    }

    private static final class Of4 extends ElementReader {
        private final ElementReader a, b, c, d;

        Of4(ElementReader a, ElementReader b, ElementReader c, ElementReader d) {
            this.a = a;
            this.b = b;
            this.c = c;
            this.d = d;
        }

        @Override
        Object read(long index) {
            return new Tuple4<>(a.read(index), b.read(index), c.read(index), d.read(index));
        }
    }

    private static final class Of5 extends ElementReader {
        private final ElementReader a, b, c, d, e;

        Of5(ElementReader a, ElementReader b, ElementReader c, ElementReader d, ElementReader e) {
            this.a = a;
            this.b = b;
            this.c = c;
            this.d = d;
            this.e = e;
        }

        @Override
        Object read(long index) {
            return new Tuple5<>(a.read(index), b.read(index), c.read(index), d.read(index), e.read(index));
        }
    }

    private static final class Of6 extends ElementReader {
        private final ElementReader a, b, c, d, e, f;

        Of6(ElementReader a, ElementReader b, ElementReader c, ElementReader d, ElementReader e, ElementReader f) {
            this.a = a;
            this.b = b;
            this.c = c;
            this.d = d;
            this.e = e;
            this.f = f;
        }

        @Override
        Object read(long index) {
            return new Tuple6<>(a.read(index), b.read(index), c.read(index), d.read(index), e.read(index), f.read(index));
        }
    }

    private static final class Of7 extends ElementReader {
        private final ElementReader a, b, c, d, e, f, g;

        Of7(ElementReader a, ElementReader b, ElementReader c, ElementReader d, ElementReader e, ElementReader f, ElementReader g) {
            this.a = a;
            this.b = b;
            this.c = c;
            this.d = d;
            this.e = e;
            this.f = f;
            this.g = g;
        }

        @Override
        Object read(long index) {
            return new Tuple7<>(a.read(index), b.read(index), c.read(index), d.read(index), e.read(index), f.read(index), g.read(index));
        }
    }

    private static final class Of8 extends ElementReader {
        private final ElementReader a, b, c, d, e, f, g, h;

        Of8(ElementReader a, ElementReader b, ElementReader c, ElementReader d, ElementReader e, ElementReader f, ElementReader g, ElementReader h) {
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
        Object read(long index) {
            return new Tuple8<>(a.read(index), b.read(index), c.read(index), d.read(index), e.read(index), f.read(index), g.read(index), h.read(index));
        }
    }
}
