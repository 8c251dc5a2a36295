package jpai.examples;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.function.Function;

import jpai.AF;
import jpai.ArrayFunction;
import jpai.ElementType;
import jpai.PArray;
import jpai.runtime.device.DeviceChoice;
import jpai.runtime.device.DeviceSelectionException;
import jpai.runtime.device.DeviceSelector;
import jpai.runtime.device.OpenCLPlatforms;
import jpai.runtime.opencl.OpenCLRuntime;

/**
 * The main job ({@code bin/jpai demo}): runs example maps on the default device (or the one
 * {@code -Djpai.device} names), checks each result element for element against plain Java, and
 * times it against a plain Java loop. Exit code 0 when every check passes, 1 when one fails, 2 for
 * a {@code jpai.device} that matches nothing.
 */
public final class Demo {

    private static final int DEFAULT_SIZE = 1 << 20;
    private static final int TIMED_RUNS = 7;

    /** One example: a name, the function, and how to make its random input. */
    private record Example<T, R>(String name, Function<T, R> function, ElementType inputType, long seed) {
    }

    public static void main(String[] args) {
        int size = args.length > 0 ? Integer.parseInt(args[0]) : DEFAULT_SIZE;
        String spec = System.getProperty(DeviceSelector.PROPERTY);
        if (spec != null) {
            try {
                DeviceSelector.select(spec, OpenCLPlatforms.discover());
            } catch (DeviceSelectionException e) {
                System.err.println("jpai: " + e.getMessage());
                System.exit(2);
            }
        }
        DeviceChoice choice = OpenCLRuntime.choice();
        System.out.println("JPAI demo: " + size + " elements per example");
        System.out.println("device: " + choice.describe());
        System.out.println();

        List<Example<?, ?>> examples = new ArrayList<>();
        examples.add(new Example<>("x * 2 + 1 (float)", (Float x) -> x * 2.0f + 1.0f, ElementType.FLOAT, 1));
        examples.add(new Example<>("sqrt(x) / (1 + x) (double)", (Double x) -> Math.sqrt(Math.abs(x)) / (1.0 + x * x), ElementType.DOUBLE, 2));
        examples.add(new Example<>("integer hash, 16 rounds (int)", (Integer x) -> {
            int h = x;
            for (int round = 0; round < 16; round++) {
                h ^= h >>> 16;
                h *= 0x45d9f3b;
                h += round;
            }
            return h;
        }, ElementType.INT, 3));

        System.out.printf("%-32s %-8s %12s %12s %9s%n", "example", "check", "JPAI ms", "Java ms", "speedup");
        boolean allPassed = true;
        for (Example<?, ?> example : examples) {
            allPassed &= run(example, size);
        }
        System.out.println();
        System.out.println(allPassed ? "all results equal Java's, element for element" : "RESULT CHECK FAILED");
        System.exit(allPassed ? 0 : 1);
    }

    @SuppressWarnings("unchecked")
    private static <T, R> boolean run(Example<T, R> example, int size) {
        try (PArray<T> input = (PArray<T>) randomInput(example.inputType(), size, example.seed())) {
            ArrayFunction<T, R> map = AF.map(example.function());
            Object[] expected = javaLoop(example.function(), input);
            boolean passed;
            try (PArray<R> first = map.apply(input)) {
                passed = sameAsJava(first, expected);
            }
            long[] jpai = new long[TIMED_RUNS];
            long[] java = new long[TIMED_RUNS];
            for (int run = 0; run < TIMED_RUNS; run++) {
                long start = System.nanoTime();
                try (PArray<R> result = map.apply(input)) {
                    jpai[run] = System.nanoTime() - start;
                    passed &= run > 0 || sameAsJava(result, expected);
                }
                start = System.nanoTime();
                javaLoop(example.function(), input);
                java[run] = System.nanoTime() - start;
            }
            double jpaiMs = median(jpai) / 1e6;
            double javaMs = median(java) / 1e6;
            System.out.printf("%-32s %-8s %12.3f %12.3f %8.2fx%n", example.name(), passed ? "PASS" : "FAIL", jpaiMs, javaMs, javaMs / jpaiMs);
            return passed;
        }
    }

    /** Plain Java: the same function in a sequential loop. The reference, and the time to beat. */
    private static <T, R> Object[] javaLoop(Function<T, R> function, PArray<T> input) {
        Object[] out = new Object[(int) input.length()];
        for (int i = 0; i < out.length; i++) {
            out[i] = function.apply(input.get(i));
        }
        return out;
    }

    /** Bit-exact equality: {@code equals} on wrappers compares floating-point values by their bits. */
    private static boolean sameAsJava(PArray<?> result, Object[] expected) {
        for (int i = 0; i < expected.length; i++) {
            if (!expected[i].equals(result.get(i))) {
                System.out.println("  mismatch at " + i + ": Java " + expected[i] + ", JPAI " + result.get(i));
                return false;
            }
        }
        return true;
    }

    private static PArray<?> randomInput(ElementType type, int size, long seed) {
        Random random = new Random(seed);
        return switch (type) {
            case FLOAT -> {
                float[] values = new float[size];
                for (int i = 0; i < size; i++) {
                    values[i] = (random.nextFloat() - 0.5f) * 1000f;
                }
                yield PArray.of(values);
            }
            case DOUBLE -> PArray.of(random.doubles(size, -1e3, 1e3).toArray());
            case INT -> PArray.of(random.ints(size).toArray());
            default -> throw new IllegalArgumentException("no random input for " + type);
        };
    }

    private static long median(long[] values) {
        long[] sorted = values.clone();
        Arrays.sort(sorted);
        return sorted[sorted.length / 2];
    }
}
