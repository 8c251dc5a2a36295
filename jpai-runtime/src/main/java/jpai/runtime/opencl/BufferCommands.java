package jpai.runtime.opencl;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;

import org.jocl.CL;
import org.jocl.CLException;
import org.jocl.Pointer;
import org.jocl.cl_command_queue;
import org.jocl.cl_event;
import org.jocl.cl_mem;

/**
 * Enqueues reads and writes between device buffers and host memory that JPAI keeps alive itself
 * until the commands are awaited: pinned blocks, the memory of a {@code PArray} under a lease, a
 * thread's status words, a launch's read-back buffers. (An abandoned launch keeps them until its
 * commands finish: {@link AbandonedLaunches}.)
 *
 * <p>Why not JOCL's {@code clEnqueueReadBuffer}: a non-blocking read or write through it hands every
 * command to a thread pool, which retains the command's event, waits for it and only then drops its
 * reference to the {@code Pointer}, so that a Java buffer cannot be collected while the driver still
 * uses it. That is a hand-off to another thread (an unpark), a {@code clRetainEvent}, and the other
 * thread's {@code clWaitForEvents} and {@code clReleaseEvent} competing for the driver, at every
 * apply (its result and its status words): after a collection, about 15 us of an apply's host time
 * on the H100's host (session 17's profile). JPAI's memory never depends on that reference: it is
 * native memory freed only by JPAI, after the commands' wait. So this class calls JOCL's native entry
 * points directly, found once by a private lookup (JOCL is an automatic module, open to reflection);
 * where they cannot be found (another JOCL), it uses JOCL's public calls, and
 * {@link #direct()} says so (a test pins it).
 */
final class BufferCommands {

    private static final MethodHandle READ = nativeEntry("clEnqueueReadBufferNative");
    private static final MethodHandle WRITE = nativeEntry("clEnqueueWriteBufferNative");

    private BufferCommands() {
    }

    /** JOCL's private native method {@code name}, or null. */
    private static MethodHandle nativeEntry(String name) {
        try {
            MethodType type = MethodType.methodType(int.class, cl_command_queue.class, cl_mem.class, boolean.class, long.class, long.class, Pointer.class, int.class,
                    cl_event[].class, cl_event.class);
            return MethodHandles.privateLookupIn(CL.class, MethodHandles.lookup()).findStatic(CL.class, name, type);
        } catch (ReflectiveOperationException | RuntimeException e) {
            return null;
        }
    }

    /** Whether commands go to JOCL's native entry points directly (false: through its public calls). */
    static boolean direct() {
        return READ != null && WRITE != null;
    }

    /**
     * {@code clEnqueueReadBuffer}: copies {@code bytes} from {@code offset} of {@code source} to
     * {@code target}, which must stay allocated until {@code event} (or the queue) is awaited.
     */
    static void read(cl_command_queue queue, cl_mem source, boolean blocking, long offset, long bytes, Pointer target, int waitCount, cl_event[] waitList,
            cl_event event) {
        if (READ == null) {
            CL.clEnqueueReadBuffer(queue, source, blocking, offset, bytes, target, waitCount, waitList, event);
        } else {
            enqueue(READ, queue, source, blocking, offset, bytes, target, waitCount, waitList, event);
        }
    }

    /**
     * {@code clEnqueueWriteBuffer}: copies {@code bytes} from {@code source} to {@code offset} of
     * {@code target}; {@code source} must stay allocated and unchanged until {@code event} is awaited.
     */
    static void write(cl_command_queue queue, cl_mem target, boolean blocking, long offset, long bytes, Pointer source, int waitCount, cl_event[] waitList,
            cl_event event) {
        if (WRITE == null) {
            CL.clEnqueueWriteBuffer(queue, target, blocking, offset, bytes, source, waitCount, waitList, event);
        } else {
            enqueue(WRITE, queue, target, blocking, offset, bytes, source, waitCount, waitList, event);
        }
    }

    /** Calls the native entry point {@code entry} (one of the two, same signature) and checks its result. */
    private static void enqueue(MethodHandle entry, cl_command_queue queue, cl_mem buffer, boolean blocking, long offset, long bytes, Pointer host, int waitCount,
            cl_event[] waitList, cl_event event) {
        int result;
        try {
            result = (int) entry.invokeExact(queue, buffer, blocking, offset, bytes, host, waitCount, waitList, event);
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable e) {
            throw new IllegalStateException(e); // the native methods declare nothing
        }
        check(result);
    }

    /** Throws what JOCL's own call would for a failed enqueue (JPAI runs with JOCL's exceptions on). */
    private static void check(int result) {
        if (result != CL.CL_SUCCESS) {
            throw new CLException(CL.stringFor_errorCode(result), result);
        }
    }
}
