package jpai.test.fuzz;

import jpai.ElementType;

/** The Java primitive types the fuzzer generates code over, with Java's promotion rules. */
enum Prim {
    BOOLEAN("boolean", "Boolean", ElementType.BOOLEAN),
    BYTE("byte", "Byte", ElementType.BYTE),
    SHORT("short", "Short", ElementType.SHORT),
    CHAR("char", "Character", ElementType.CHAR),
    INT("int", "Integer", ElementType.INT),
    LONG("long", "Long", ElementType.LONG),
    FLOAT("float", "Float", ElementType.FLOAT),
    DOUBLE("double", "Double", ElementType.DOUBLE);

    static final Prim[] NUMERIC = {BYTE, SHORT, CHAR, INT, LONG, FLOAT, DOUBLE};
    static final Prim[] INTEGRAL = {BYTE, SHORT, CHAR, INT, LONG};
    static final Prim[] WIDE = {INT, LONG, FLOAT, DOUBLE};

    final String java;
    final String box;
    final ElementType element;

    Prim(String java, String box, ElementType element) {
        this.java = java;
        this.box = box;
        this.element = element;
    }

    boolean isNumeric() {
        return this != BOOLEAN;
    }

    boolean isIntegral() {
        return this == BYTE || this == SHORT || this == CHAR || this == INT || this == LONG;
    }

    boolean isFloating() {
        return this == FLOAT || this == DOUBLE;
    }

    /** Unary numeric promotion (JLS 5.6): byte, short and char become int. */
    Prim promoted() {
        return this == BYTE || this == SHORT || this == CHAR ? INT : this;
    }

    /** Binary numeric promotion (JLS 5.6) of two numeric types. */
    static Prim promote(Prim a, Prim b) {
        if (a == DOUBLE || b == DOUBLE) {
            return DOUBLE;
        }
        if (a == FLOAT || b == FLOAT) {
            return FLOAT;
        }
        if (a == LONG || b == LONG) {
            return LONG;
        }
        return INT;
    }

    static Prim of(ElementType element) {
        for (Prim p : values()) {
            if (p.element == element) {
                return p;
            }
        }
        throw new IllegalArgumentException(String.valueOf(element));
    }
}
