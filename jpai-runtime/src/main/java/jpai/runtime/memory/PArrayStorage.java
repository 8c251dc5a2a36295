package jpai.runtime.memory;

import java.util.Objects;

import jpai.DataType;
import jpai.PArray;

/**
 * The runtime's way to the storage of a {@link PArray}: its component buffers, which the runtime
 * binds to kernels, leases and copies, and whether it is still an index space made by {@code range}.
 *
 * <p>Why a bridge and not a public method of {@code PArray}: the {@code jpai} package is the user's
 * API and its public signatures name only API and JDK types (see docs/api-surface.md), so the
 * buffers, a runtime type, cannot be reached from it. {@code PArray} hands this class its accessor
 * once, from its static initialiser (the JDK's {@code SharedSecrets} pattern); since a caller holds
 * an array, {@code PArray} is initialised before the first call here.
 */
public final class PArrayStorage {

    /** Reads what the runtime needs of an array; implemented inside {@code PArray}, which owns it. */
    public interface Access {
        ComponentBuffer buffer(PArray<?> array, int component);

        int[] rangeExtents(PArray<?> array);

        PArray<?> allocateUninitialized(DataType type, long length, HostMemory memory);
    }

    private static volatile Access access;

    private PArrayStorage() {
    }

    /**
     * Installs {@code PArray}'s accessor; only the first call counts, so no later caller can
     * replace it.
     *
     * @throws IllegalStateException if an accessor is installed already
     */
    public static synchronized void install(Access accessor) {
        if (access != null) {
            throw new IllegalStateException("PArray's storage accessor is installed already");
        }
        access = Objects.requireNonNull(accessor, "accessor");
    }

    /**
     * The storage of component {@code component} of {@code array} (0 for a scalar array).
     *
     * @throws IllegalStateException if the array is closed
     */
    public static ComponentBuffer buffer(PArray<?> array, int component) {
        return access.buffer(array, component);
    }

    /**
     * The extents of the index space {@code array} still holds as {@code PArray.range} made it,
     * outermost first ({@code {n}}, {@code {rows, columns}} or {@code {d0, d1, d2}}), or null when it
     * was not made so, an element was written since, or it is closed. A map over such an array reads
     * no memory for its elements: its work-items' ids are the elements.
     */
    public static int[] rangeExtents(PArray<?> array) {
        return access.rangeExtents(array);
    }

    /**
     * An array of {@code length} elements of {@code type}, its contents undefined, in plain off-heap
     * memory whatever the runtime has installed: for a result that Java threads write in a first call,
     * such as a tiered apply's. Pinning is paid when a block is created, not when a pooled one is
     * reused, and a first call finds the pool empty: on the H100's host, pinning the 64 and 256 MiB
     * results of saxpy and Hilbert made a tiered first call 1.65 and 1.75 times the Java threads' time
     * (benchmarks/results/nvidia-h100-2026-11-27/).
     */
    public static PArray<?> allocateUninitializedPlain(DataType type, long length) {
        return access.allocateUninitialized(type, length, PlainHostMemory.INSTANCE);
    }
}
