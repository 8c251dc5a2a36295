package jpai;

/**
 * Where an {@link ArrayFunction} runs. The thesis's per-executor variants of each skeleton
 * ({@code mapSeq}, {@code mapJavaThreads}, {@code mapAccelerator}) are one function with an
 * executor: {@code AF.map(f).on(Executor.THREADS)}.
 */
public enum Executor {
    /**
     * The best available: the chosen OpenCL device ({@code -Djpai.device}) when the compiler can turn
     * the function into a kernel that computes what Java computes, else Java threads.
     */
    AUTO,
    /** One plain loop on the calling thread: the reference semantics. */
    SEQUENTIAL,
    /**
     * The JVM's fork/join pool, the input cut into contiguous chunks, a few per core. Results are
     * {@link #SEQUENTIAL}'s; so are failures: the exception thrown is the first failing element's,
     * as the lambda threw it (later elements may have run meanwhile). A reduction folds each chunk
     * from the identity and combines the chunks in order.
     */
    THREADS,
    /**
     * The OpenCL device. Where it cannot give Java's answer (code the compiler does not support, an
     * OpenCL error, a Java exception inside the lambda) the operation still runs, on Java threads,
     * and {@code -Djpai.explain=true} says why; {@code -Djpai.fallback=error} makes that an error.
     */
    ACCELERATOR
}
