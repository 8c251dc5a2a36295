package jpai.test.api;

import static jpai.test.api.DeviceRun.assertInJavaAsJava;
import static jpai.test.api.DeviceRun.assertOnDeviceAsJava;
import static jpai.test.api.DeviceRun.assertThrowsAsJava;

import java.util.function.Function;

import org.junit.jupiter.api.Test;

import jpai.AF;
import jpai.ArrayFunction;
import jpai.ElementType;
import jpai.PArray;

/**
 * Issue 19: the fields of captured objects and records (primitives, wrappers, arrays and 2-D
 * arrays, one or two objects deep) are read at each apply and passed to the kernel, which runs on
 * the device. A null object on the way runs that apply in Java (Java's result, or its exception at
 * the element that reads through it); a null array or box in a field reaches the kernel as null
 * (Java's exception at the element that dereferences it). Before, every such lambda ran in Java
 * ("captures a value of type Params that the runtime does not pass to OpenCL").
 */
class CapturedObjectFieldsTest {

    record Params(float scale, float[] weights, Integer offset) {
    }

    record Model(Params params, double bias, int[][] grid, long seed) {
    }

    /** A plain class with fields that change between applies. */
    static final class Settings {
        float gain = 1.5f;
        int[] table = {3, 1, 4, 1, 5};
        Settings next;
    }

    /** A class that is neither final nor a record, read through a getter; a subclass overrides it. */
    static class Config {
        private final float k;

        Config(float k) {
            this.k = k;
        }

        float k() {
            return k;
        }
    }

    static final class DoubledConfig extends Config {
        DoubledConfig(float k) {
            super(k);
        }

        @Override
        float k() {
            return 2 * super.k();
        }
    }

    /** Read through {@code this} by lambdas written in an instance method. */
    private final double instanceFactor = 0.75;
    private final short[] instanceTable = {-3, 7, Short.MIN_VALUE, Short.MAX_VALUE};

    private static PArray<Integer> randomInts(long seed) {
        return MapTest.cast(RandomData.of(ElementType.INT, 5_000, seed));
    }

    @Test
    void theFieldsOfARecord() {
        Params p = new Params(-2.5f, new float[] {0.5f, -0f, Float.NaN, 1e30f}, 7);
        Function<Integer, Float> f = x -> x * p.scale() + p.weights()[x & 3] + p.offset() + p.weights().length;
        try (PArray<Integer> in = randomInts(1)) {
            assertOnDeviceAsJava(f, AF.map(f, Float.class), in, "Params(scale, weights, offset)");
        }
    }

    @Test
    void fieldsTwoObjectsDeep() {
        Model model = new Model(new Params(3f, new float[] {1f, 2f, 3f}, -1), -0.125, new int[][] {{1, 2}, {3, 4}, {5, 6}}, 1L << 40);
        Function<Integer, Double> f = x -> {
            int i = (x & 0x7fffffff) % 3;
            return model.params().weights()[i] * model.params().scale() + model.grid()[i][x & 1] + model.bias() + (x ^ model.seed());
        };
        try (PArray<Integer> in = randomInts(2)) {
            assertOnDeviceAsJava(f, AF.map(f, Double.class), in, "Model(Params(...), bias, grid, seed)");
        }
    }

    /** Non-final fields, written between two applies (a value, an array replaced, an element of it): the second apply sees each. */
    @Test
    void writesToFieldsBetweenAppliesAreSeen() {
        Settings s = new Settings();
        s.next = new Settings();
        Function<Integer, Float> f = x -> x * s.gain + s.table[x % s.table.length] - s.next.gain * s.next.table[0];
        ArrayFunction<Integer, Float> map = AF.map(f, Float.class);
        try (PArray<Integer> in = PArray.range(1000)) {
            assertOnDeviceAsJava(f, map, in, "before the writes");
            s.gain = -4f;
            s.table = new int[] {9, 8, 7};
            s.next.table[0] = 100;
            s.next.gain = 0.5f;
            assertOnDeviceAsJava(f, map, in, "after the writes");
        }
    }

    /** Getters of a class that is not final: the captured object's own class decides which method runs, as in Java. */
    @Test
    void gettersOfAClassThatIsNotFinal() {
        Config plain = new Config(1.25f);
        Config doubled = new DoubledConfig(1.25f);
        Function<Integer, Float> f = x -> x * plain.k() - doubled.k();
        try (PArray<Integer> in = randomInts(5)) {
            assertOnDeviceAsJava(f, AF.map(f, Float.class), in, "Config.k() and DoubledConfig.k()");
        }
    }

    /** A method of the test class called through {@code this}. */
    private double scaled(int x) {
        return x * instanceFactor + instanceTable[x & 3];
    }

    @Test
    void aMethodAndFieldsOfThis() {
        Function<Integer, Double> f = x -> scaled(x) - instanceTable[0];
        try (PArray<Integer> in = randomInts(6)) {
            assertOnDeviceAsJava(f, AF.map(f, Double.class), in, "this.scaled(x)");
        }
    }

    /** An object on the path set to null between applies: that apply runs in Java and throws Java's exception; set back, the device runs again. */
    @Test
    void anObjectSetToNullBetweenApplies() {
        Settings s = new Settings();
        s.next = new Settings();
        Function<Integer, Float> f = x -> x < 500 ? x * s.gain : s.next.gain;
        ArrayFunction<Integer, Float> map = AF.map(f, Float.class);
        try (PArray<Integer> in = PArray.range(1000)) {
            assertOnDeviceAsJava(f, map, in, "with s.next");
            s.next = null;
            assertThrowsAsJava(NullPointerException.class, f, map, in, false, "s.next null, read from element 500");
            s.next = new Settings();
            s.next.gain = 9f;
            assertOnDeviceAsJava(f, map, in, "with a new s.next");
        }
    }

    @Test
    void fieldsOfThis() {
        Function<Integer, Double> f = x -> instanceTable[x & 3] * instanceFactor;
        try (PArray<Integer> in = randomInts(3)) {
            assertOnDeviceAsJava(f, AF.map(f, Double.class), in, "fields of the test object, through this");
        }
    }

    /** A null object on the way to a field: that apply runs in Java, which throws where an element reads through it. */
    @Test
    void aNullObjectOnThePathGivesJavasAnswer() {
        Model model = new Model(null, 1.0, new int[][] {{1}}, 0);
        Function<Integer, Float> never = x -> x < 1_000_000 ? x * 2f : model.params().scale();
        Function<Integer, Float> late = x -> x < 100 ? x * 2f : model.params().scale();
        try (PArray<Integer> in = PArray.range(3000)) {
            assertInJavaAsJava(never, AF.map(never, Float.class), in, "object is null", "a null Params never read");
            assertThrowsAsJava(NullPointerException.class, late, AF.map(late, Float.class), in, false, "a null Params read at element 100");
        }
    }

    /** A null array or box in a field reaches the kernel as null: the device runs, and exits where an element dereferences it. */
    @Test
    void aNullArrayOrBoxInAFieldThrowsJavasExceptionWhereRead() {
        Params p = new Params(1f, null, null);
        Function<Integer, Float> never = x -> x < 1_000_000 ? x * p.scale() : p.weights()[0] + p.offset();
        Function<Integer, Float> array = x -> x < 100 ? x * p.scale() : p.weights()[0];
        Function<Integer, Float> box = x -> x < 100 ? x * p.scale() : x + p.offset();
        try (PArray<Integer> in = PArray.range(3000)) {
            assertOnDeviceAsJava(never, AF.map(never, Float.class), in, "null fields never read");
            assertThrowsAsJava(NullPointerException.class, array, AF.map(array, Float.class), in, true, "a null float[] field read at element 100");
            assertThrowsAsJava(NullPointerException.class, box, AF.map(box, Float.class), in, true, "a null Integer field unboxed at element 100");
        }
    }

    @Test
    void anOutOfBoundsIndexIntoAFieldArrayThrowsJavasException() {
        Params p = new Params(1f, new float[] {1f, 2f}, 0);
        Function<Integer, Float> f = x -> p.weights()[x / 1000];
        try (PArray<Integer> in = PArray.range(3000)) {
            assertThrowsAsJava(ArrayIndexOutOfBoundsException.class, f, AF.map(f, Float.class), in, true, "index 2 of weights");
        }
    }
}
