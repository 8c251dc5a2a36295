package jpai.runtime;

import java.lang.invoke.MethodHandles;
import java.util.List;

import jpai.runtime.exec.ClaimedChunks;
import jpai.runtime.exec.CombiningTree;
import jpai.runtime.exec.JavaReduce;
import jpai.runtime.exec.StoredValues;
import jpai.runtime.memory.PlainHostMemory;

/**
 * Loads the classes a tiered first apply runs through, off the calling thread, when the first
 * function is defined with tiering on ({@link JpaiOptions#tiering()}), and links the C library's
 * {@code malloc} that its results' plain memory comes from: the apply then pays none of it (about
 * twenty classes that only tiering uses, and 1 ms for the first call through the allocator's
 * handle, measured in Spectral norm's first call, whose inputs are pinned: the Java-threads
 * baseline had used plain memory before its timed call). Loading is all it does.
 */
final class TieringClasses {

    /** Named by literal, so that a rename keeps them here. */
    private static final List<Class<?>> CLASSES = List.of(TieredMap.class, TieredReduce.class, TieredTakeover.class, TieringPace.class, MapChainInJava.class,
                    Explain.class, DeviceMap.class, AfterApply.class, ClaimedChunks.class, ClaimedChunks.Outcome.class, JavaReduce.TieredNodes.class,
                    CombiningTree.class, StoredValues.class, PlainHostMemory.class);
    /** Not visible here by literal: the deferred work's runner and the JDK's delayed executor. */
    private static final List<String> NAMES = List.of("jpai.runtime.AfterApply$RunAll", "java.util.concurrent.CompletableFuture$DelayedExecutor");

    private TieringClasses() {
    }

    /** Loads and initialises them (on the thread calling it). */
    static void load() {
        MethodHandles.Lookup lookup = MethodHandles.lookup();
        for (Class<?> type : CLASSES) {
            try {
                lookup.ensureInitialized(type);
            } catch (IllegalAccessException | LinkageError e) {
                // not initialised now: the apply does it, as it would have
            }
        }
        for (String name : NAMES) {
            try {
                Class.forName(name, true, TieringClasses.class.getClassLoader());
            } catch (ClassNotFoundException | LinkageError e) {
                // not loaded now: the apply loads it, as it would have
            }
        }
        PlainHostMemory.INSTANCE.allocateUninitialized(16, 16).release();
    }
}
