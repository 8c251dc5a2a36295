package jpai.test.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import jpai.AF;
import jpai.ArrayFunction;
import jpai.Executor;
import jpai.PArray;
import jpai.Tuple2;

/**
 * Random sequences of public API calls (allocate, of, put, get, copyFrom, copyTo, segment, write
 * scopes, component and zip views, apply, copyToDevice, close), checked against a plain Java model
 * of what every array must hold: no call may crash the JVM or give a wrong value, a call on a closed
 * array or through a segment of one must throw {@link IllegalStateException}, and every write must be
 * seen by the next apply. Every few steps, an array is closed by one thread while others apply a
 * function to it, read it and read through its segment: each of them must get the right values or
 * an {@link IllegalStateException}, never anything else.
 *
 * <p>With OpenCL ({@code JPAI_EXPECT_OPENCL=1}) the functions must run on the device
 * ({@code jpai.fallback=error}), so pinned memory, residency and launches in flight are exercised.
 *
 * <p>Bounded: {@value #DEFAULT_STEPS} steps from a fixed seed, stopping early after
 * {@value #TIME_LIMIT_SECONDS} s. Replay or explore with {@code -Djpai.test.apiSequence.seed=N}
 * and {@code -Djpai.test.apiSequence.steps=N} (through Maven:
 * {@code -Djpai.test.jvm=-Djpai.test.apiSequence.seed=N}); a failure names the seed and the step.
 */
class ApiSequenceTest {

    private static final long DEFAULT_SEED = 19_2026_11_25L;
    private static final int DEFAULT_STEPS = 1500;
    private static final int TIME_LIMIT_SECONDS = 8;
    private static final int[] LENGTHS = {0, 1, 3, 256, 1000, 4099, 70_000};
    private static final int MAX_OPEN = 10;

    private static final ArrayFunction<Float, Float> F = AF.map((Float x) -> x * 2f + 1f, Float.class);
    private static final ArrayFunction<Tuple2<Float, Float>, Float> G = AF.<Float, Float>zip2().andThen(AF.map((Tuple2<Float, Float> t) -> t._1() * 3f - t._2(), Float.class));
    private static final Executor EXECUTOR = ExecutorCase.openCLExpected() ? Executor.ACCELERATOR : Executor.AUTO;

    private static String previousFallback;

    @BeforeAll
    static void demandTheDevice() {
        previousFallback = System.getProperty("jpai.fallback");
        if (ExecutorCase.openCLExpected()) {
            System.setProperty("jpai.fallback", "error"); // for every thread of the test
        }
    }

    @AfterAll
    static void restore() {
        if (previousFallback == null) {
            System.clearProperty("jpai.fallback");
        } else {
            System.setProperty("jpai.fallback", previousFallback);
        }
    }

    private static float f(float x) {
        return x * 2f + 1f;
    }

    private static float g(float a, float b) {
        return a * 3f - b;
    }

    /** An array the sequence made, and what it must hold. */
    private static final class Tracked {
        final PArray<Float> array;
        final float[] expected;
        boolean closed;

        Tracked(PArray<Float> array, float[] expected) {
            this.array = array;
            this.expected = expected;
        }
    }

    /** A segment given out, kept to be used later; one of a write scope is dead once the scope closed. */
    private record Kept(Tracked owner, MemorySegment segment, boolean scopeEnded) {
    }

    /** What the races with close came to: how many uses completed, how many met the close. */
    private final java.util.concurrent.atomic.AtomicInteger racesCompleted = new java.util.concurrent.atomic.AtomicInteger();
    private final java.util.concurrent.atomic.AtomicInteger racesRefused = new java.util.concurrent.atomic.AtomicInteger();

    private final List<Tracked> arrays = new ArrayList<>();
    private final List<Kept> kept = new ArrayList<>();
    private Random random;
    private String where = "";

    @Test
    void randomSequencesOfApiCallsNeverCrashNorGiveWrongValues() throws Exception {
        long seed = Long.getLong("jpai.test.apiSequence.seed", DEFAULT_SEED);
        int steps = Integer.getInteger("jpai.test.apiSequence.steps", DEFAULT_STEPS);
        random = new Random(seed);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(TIME_LIMIT_SECONDS);
        int step = 0;
        try {
            for (; step < steps && System.nanoTime() < deadline; step++) {
                where = "seed " + seed + ", step " + step + ": ";
                step();
            }
        } finally {
            for (Tracked t : arrays) {
                t.array.close();
            }
        }
        System.out.println("ApiSequenceTest: seed " + seed + ", " + step + " steps on " + EXECUTOR + "; uses racing with close: "
                + racesCompleted + " completed, " + racesRefused + " refused with IllegalStateException");
        assertTrue(step >= 100, "only " + step + " steps ran in " + TIME_LIMIT_SECONDS + " s");
    }

    private void step() throws Exception {
        if (openCount() == 0 || (openCount() < MAX_OPEN && random.nextInt(8) == 0)) {
            make();
            return;
        }
        Tracked t = pickOpen();
        switch (random.nextInt(20)) {
            case 0, 1 -> put(t);
            case 2, 3 -> get(t);
            case 4 -> copyFrom(t);
            case 5 -> copyTo(t);
            case 6 -> keepSegment(t);
            case 7 -> useKeptSegment();
            case 8 -> writeScope(t);
            case 9 -> writeThroughComponentView(t);
            case 10, 11 -> apply(t);
            case 12 -> applyToZip(t);
            case 13 -> copyToDevice(t);
            case 14, 15 -> close(t);
            case 16 -> callsOnAClosedArray();
            case 17, 18 -> closeWhileOthersUseIt(t);
            default -> {
                if (openCount() > MAX_OPEN / 2) {
                    close(t);
                } else {
                    make();
                }
            }
        }
    }

    // ---------------------------------------------------------------------------------------------
    // Steps

    private void make() {
        int length = LENGTHS[random.nextInt(LENGTHS.length)];
        float[] values = new float[length];
        for (int i = 0; i < length; i++) {
            values[i] = value();
        }
        PArray<Float> array;
        if (random.nextBoolean()) {
            array = PArray.of(values);
        } else {
            array = PArray.allocate(Float.class, length);
            array.copyFrom(values, 0);
        }
        MemorySafetyTest.expectPinnedMemoryWithOpenCL(array);
        arrays.add(new Tracked(array, values));
    }

    private void put(Tracked t) {
        if (t.expected.length == 0) {
            return;
        }
        for (int n = random.nextInt(4) + 1; n > 0; n--) {
            int i = random.nextInt(t.expected.length);
            float v = value();
            t.array.put(i, v);
            t.expected[i] = v;
        }
    }

    private void get(Tracked t) {
        if (t.expected.length == 0) {
            return;
        }
        for (int n = random.nextInt(8) + 1; n > 0; n--) {
            int i = random.nextInt(t.expected.length);
            same(t.expected[i], t.array.get(i), "get(" + i + ")");
        }
    }

    private void copyFrom(Tracked t) {
        int from = random.nextInt(t.expected.length + 1);
        int count = random.nextInt(t.expected.length - from + 1);
        float[] values = new float[count];
        for (int i = 0; i < count; i++) {
            values[i] = value();
        }
        if (random.nextBoolean()) {
            t.array.copyFrom(values, from);
        } else {
            t.array.copyFrom(MemorySegment.ofArray(values), from);
        }
        System.arraycopy(values, 0, t.expected, from, count);
    }

    private void copyTo(Tracked t) {
        if (random.nextBoolean()) {
            sameAll(t.expected, t.array.toFloatArray(), "toFloatArray");
            return;
        }
        int from = random.nextInt(t.expected.length + 1);
        float[] part = new float[random.nextInt(t.expected.length - from + 1)];
        t.array.copyTo(from, part);
        for (int i = 0; i < part.length; i++) {
            same(t.expected[from + i], part[i], "copyTo element " + (from + i));
        }
    }

    private void keepSegment(Tracked t) {
        MemorySegment segment = t.array.segment();
        assertEquals(t.expected.length * 4L, segment.byteSize());
        checkSegment(t, segment);
        kept.add(new Kept(t, segment, false));
        if (kept.size() > 20) {
            kept.remove(0);
        }
    }

    private void useKeptSegment() {
        if (kept.isEmpty()) {
            return;
        }
        Kept k = kept.get(random.nextInt(kept.size()));
        if (k.owner().closed || k.scopeEnded()) {
            assertTrue(!k.segment().scope().isAlive(), where + "a kept segment of a closed array or an ended write scope is dead");
            if (k.segment().byteSize() > 0) { // an empty segment checks bounds first
                expectClosed(() -> k.segment().get(ValueLayout.JAVA_BYTE, 0), "a kept segment of a closed array or an ended write scope");
                expectRefused(() -> k.segment().set(ValueLayout.JAVA_BYTE, 0, (byte) 1), "a write through a kept segment");
            }
        } else if (k.segment().byteSize() > 0) {
            checkSegment(k.owner(), k.segment());
            expectRefused(() -> k.segment().set(ValueLayout.JAVA_BYTE, 0, (byte) 1), "a write through a read-only segment");
        }
    }

    private void writeScope(Tracked t) {
        if (t.expected.length == 0) {
            return;
        }
        try (PArray.WriteScope scope = t.array.writeScope()) {
            MemorySegment memory = scope.segment();
            for (int n = random.nextInt(6) + 1; n > 0; n--) {
                int i = random.nextInt(t.expected.length);
                float v = value();
                memory.setAtIndex(ValueLayout.JAVA_FLOAT, i, v);
                t.expected[i] = v;
            }
            if (random.nextInt(4) == 0) {
                kept.add(new Kept(t, memory, true));
            }
        }
    }

    @SuppressWarnings("unchecked")
    private void writeThroughComponentView(Tracked t) {
        if (t.expected.length == 0) {
            return;
        }
        PArray<Float> view = (PArray<Float>) t.array.component(0);
        int i = random.nextInt(t.expected.length);
        float v = value();
        view.put(i, v);
        t.expected[i] = v;
        same(v, t.array.get(i), "the owner sees a write through its view");
        view.close();
        same(v, t.array.get(i), "closing a view releases nothing");
    }

    private void apply(Tracked t) {
        PArray<Float> out = F.on(EXECUTOR).apply(t.array);
        float[] expected = new float[t.expected.length];
        for (int i = 0; i < expected.length; i++) {
            expected[i] = f(t.expected[i]);
        }
        Tracked result = new Tracked(out, expected);
        arrays.add(result); // a device-resident output, used later as input, written, closed
        if (random.nextBoolean()) {
            copyTo(result);
        }
    }

    private void applyToZip(Tracked a) {
        Tracked b = null;
        for (Tracked t : arrays) {
            if (!t.closed && t != a && t.expected.length == a.expected.length) {
                b = t;
                break;
            }
        }
        if (b == null) {
            float[] values = new float[a.expected.length];
            for (int i = 0; i < values.length; i++) {
                values[i] = value();
            }
            b = new Tracked(PArray.of(values), values);
            arrays.add(b);
        }
        try (PArray<Tuple2<Float, Float>> zipped = PArray.zip(a.array, b.array); PArray<Float> out = G.on(EXECUTOR).apply(zipped)) {
            float[] actual = out.toFloatArray();
            for (int i = 0; i < actual.length; i++) {
                same(g(a.expected[i], b.expected[i]), actual[i], "zip map element " + i);
            }
        }
    }

    private void copyToDevice(Tracked t) {
        try (PArray<Float> onDevice = AF.<Float>copyToDevice().apply(t.array)) {
            if (t.expected.length > 0) {
                same(t.expected[0], onDevice.get(0), "copyToDevice's view");
            }
        }
    }

    private void close(Tracked t) {
        t.array.close();
        t.closed = true;
        arrays.remove(t);
        arrays.add(t); // closed ones stay, for calls on closed arrays
        if (arrays.size() > 40) {
            for (int i = 0; i < arrays.size(); i++) {
                if (arrays.get(i).closed) {
                    arrays.remove(i);
                    break;
                }
            }
        }
    }

    private void callsOnAClosedArray() {
        Tracked closed = null;
        for (Tracked t : arrays) {
            if (t.closed) {
                closed = t;
            }
        }
        if (closed == null) {
            return;
        }
        PArray<Float> a = closed.array;
        switch (random.nextInt(10)) {
            case 0 -> expectClosed(() -> a.get(0), "get");
            case 1 -> expectClosed(() -> a.put(0, 1f), "put");
            case 2 -> expectClosed(() -> F.on(EXECUTOR).apply(a), "apply");
            case 3 -> expectClosed(a::segment, "segment");
            case 4 -> expectClosed(a::writeScope, "writeScope");
            case 5 -> expectClosed(() -> a.component(0), "component");
            case 6 -> expectClosed(a::toFloatArray, "toFloatArray");
            case 7 -> expectClosed(() -> a.copyFrom(new float[0], 0), "copyFrom");
            case 8 -> expectClosed(() -> AF.<Float>copyToDevice().apply(a), "copyToDevice");
            default -> expectClosed(() -> PArray.zip(a, a), "zip");
        }
    }

    /**
     * One thread closes {@code t} after a random pause while others apply {@code F} to it, read its
     * elements and read through its segment: each gets Java's values or an
     * {@link IllegalStateException} after the close began.
     */
    private void closeWhileOthersUseIt(Tracked t) throws InterruptedException {
        if (t.expected.length == 0) {
            return;
        }
        float[] expected = t.expected.clone();
        float[] mapped = new float[expected.length];
        for (int i = 0; i < expected.length; i++) {
            mapped[i] = f(expected[i]);
        }
        MemorySegment segment = t.array.segment();
        long pauseNanos = random.nextInt(3_000_000);
        long readerSeed = random.nextLong();
        ConcurrentLinkedQueue<Throwable> failures = new ConcurrentLinkedQueue<>();
        CountDownLatch start = new CountDownLatch(1);
        boolean[] closeStarted = {false};
        Object closeLock = new Object();
        Supplier<Boolean> closing = () -> {
            synchronized (closeLock) {
                return closeStarted[0];
            }
        };
        List<Thread> threads = new ArrayList<>();
        threads.add(user(start, failures, closing, () -> {
            for (int round = 0; round < 3; round++) {
                try (PArray<Float> out = F.on(EXECUTOR).apply(t.array)) {
                    sameAll(mapped, out.toFloatArray(), "an apply racing with close");
                }
            }
        }));
        threads.add(user(start, failures, closing, () -> {
            Random r = new Random(readerSeed);
            float[] part = new float[Math.min(expected.length, 512)];
            for (int round = 0; round < 2000; round++) {
                int i = r.nextInt(expected.length);
                same(expected[i], t.array.get(i), "a get racing with close");
                if (round % 100 == 0) {
                    int from = r.nextInt(expected.length - part.length + 1);
                    t.array.copyTo(from, part);
                    for (int k = 0; k < part.length; k++) {
                        same(expected[from + k], part[k], "a copyTo racing with close");
                    }
                }
            }
        }));
        threads.add(user(start, failures, closing, () -> {
            for (int round = 0; round < 50; round++) {
                for (int i = 0; i < expected.length; i += 97) {
                    same(expected[i], segment.getAtIndex(ValueLayout.JAVA_FLOAT, i), "a segment read racing with close");
                }
            }
        }));
        threads.forEach(Thread::start);
        start.countDown();
        long until = System.nanoTime() + pauseNanos;
        while (System.nanoTime() < until) {
            Thread.onSpinWait();
        }
        synchronized (closeLock) {
            closeStarted[0] = true;
        }
        t.array.close();
        // A new array of the same size right away takes the block the close freed, if the close freed
        // it under the others' feet (the pinned pool gives the block just freed first), and overwrites it.
        float[] scribble = new float[expected.length];
        Arrays.fill(scribble, -7.5f);
        try (PArray<Float> scribbler = PArray.of(scribble)) {
            for (Thread thread : threads) {
                thread.join(TimeUnit.SECONDS.toMillis(60));
                assertTrue(!thread.isAlive(), where + "a thread using an array being closed did not finish");
            }
            same(-7.5f, scribbler.get(expected.length - 1), "the new array");
        }
        t.closed = true;
        if (!failures.isEmpty()) {
            AssertionError error = new AssertionError(where + failures.size() + " failure(s) racing with close; the first: " + failures.peek(), failures.peek());
            failures.forEach(error::addSuppressed);
            throw error;
        }
        expectClosed(() -> segment.get(ValueLayout.JAVA_BYTE, 0), "the segment after the close");
    }

    private interface Work {
        void run() throws Exception;
    }

    /** A thread that runs {@code work}; an {@link IllegalStateException} is right only once the close began. */
    private Thread user(CountDownLatch start, ConcurrentLinkedQueue<Throwable> failures, Supplier<Boolean> closing, Work work) {
        return new Thread(() -> {
            try {
                start.await();
                work.run();
                racesCompleted.incrementAndGet();
            } catch (IllegalStateException e) {
                racesRefused.incrementAndGet();
                if (!closing.get()) {
                    failures.add(new AssertionError("IllegalStateException before the close began", e));
                }
            } catch (Throwable e) {
                failures.add(e);
            }
        });
    }

    // ---------------------------------------------------------------------------------------------
    // Checks and data

    private void checkSegment(Tracked t, MemorySegment segment) {
        for (int n = Math.min(t.expected.length, 8); n > 0; n--) {
            int i = random.nextInt(t.expected.length);
            same(t.expected[i], segment.getAtIndex(ValueLayout.JAVA_FLOAT, i), "segment element " + i);
        }
    }

    private void same(float expected, float actual, String what) {
        if (Float.floatToIntBits(expected) != Float.floatToIntBits(actual)) {
            throw new AssertionError(where + what + " is " + actual + ", expected " + expected);
        }
    }

    private void sameAll(float[] expected, float[] actual, String what) {
        assertEquals(expected.length, actual.length, where + what + ": length");
        for (int i = 0; i < expected.length; i++) {
            same(expected[i], actual[i], what + " element " + i);
        }
    }

    private void expectClosed(Work call, String what) {
        try {
            call.run();
        } catch (IllegalStateException e) {
            return;
        } catch (Throwable e) {
            throw new AssertionError(where + what + " on a closed array threw " + e + ", not an IllegalStateException", e);
        }
        throw new AssertionError(where + what + " on a closed array did not throw");
    }

    /** A write that must be refused: through a read-only segment, or one that died. */
    private void expectRefused(Work call, String what) {
        try {
            call.run();
        } catch (IllegalStateException | IllegalArgumentException | UnsupportedOperationException e) {
            return;
        } catch (Throwable e) {
            throw new AssertionError(where + what + " threw " + e, e);
        }
        throw new AssertionError(where + what + " was not refused");
    }

    private float value() {
        return switch (random.nextInt(40)) {
            case 0 -> Float.NaN;
            case 1 -> -0f;
            case 2 -> Float.POSITIVE_INFINITY;
            case 3 -> Float.MAX_VALUE;
            case 4 -> Float.MIN_VALUE;
            default -> (random.nextFloat() - 0.5f) * 2000f;
        };
    }

    private int openCount() {
        int open = 0;
        for (Tracked t : arrays) {
            open += t.closed ? 0 : 1;
        }
        return open;
    }

    private Tracked pickOpen() {
        List<Tracked> open = new ArrayList<>();
        for (Tracked t : arrays) {
            if (!t.closed) {
                open.add(t);
            }
        }
        return open.get(random.nextInt(open.size()));
    }
}
