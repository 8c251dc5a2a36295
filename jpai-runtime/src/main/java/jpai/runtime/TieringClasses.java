package jpai.runtime;

/**
 * Loads the classes a tiered first apply runs through, off the calling thread, when the first
 * function is defined with tiering on ({@link JpaiOptions#tiering()}), and links the C library's
 * {@code malloc} that its results' plain memory comes from: the apply then pays none of it (about
 * twenty classes that only tiering uses, and 1 ms for the first call through the allocator's
 * handle, measured in Spectral norm's first call, whose inputs are pinned: the Java-threads
 * baseline had used plain memory before its timed call). Loading is all it does; a class it names
 * that is gone is simply not loaded.
 */
final class TieringClasses {

    private static final String[] NAMES = {"jpai.runtime.TieredMap", "jpai.runtime.TieredReduce", "jpai.runtime.TieringPace", "jpai.runtime.MapChainInJava",
                    "jpai.runtime.Explain", "jpai.runtime.DeviceMap", "jpai.runtime.AfterApply", "jpai.runtime.AfterApply$RunAll", "jpai.runtime.exec.ClaimedChunks",
                    "jpai.runtime.exec.ClaimedChunks$Outcome", "jpai.runtime.exec.JavaReduce$TieredNodes", "jpai.runtime.exec.CombiningTree", "jpai.runtime.exec.StoredValues",
                    "jpai.runtime.memory.PlainHostMemory", "java.util.concurrent.CompletableFuture", "java.util.concurrent.CompletableFuture$DelayedExecutor"};

    private TieringClasses() {
    }

    /** Loads and initialises them (on the thread calling it). */
    static void load() {
        ClassLoader loader = TieringClasses.class.getClassLoader();
        for (String name : NAMES) {
            try {
                Class.forName(name, true, loader);
            } catch (ClassNotFoundException | LinkageError e) {
                // not loaded now: the apply loads it, as it would have
            }
        }
        jpai.runtime.memory.PlainHostMemory.INSTANCE.allocateUninitialized(16, 16).release();
    }
}
