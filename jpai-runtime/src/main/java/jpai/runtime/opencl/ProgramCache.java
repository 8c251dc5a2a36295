package jpai.runtime.opencl;

import static org.jocl.CL.CL_PROGRAM_BINARIES;
import static org.jocl.CL.CL_PROGRAM_BINARY_SIZES;
import static org.jocl.CL.CL_PROGRAM_BUILD_LOG;
import static org.jocl.CL.clBuildProgram;
import static org.jocl.CL.clCreateProgramWithBinary;
import static org.jocl.CL.clCreateProgramWithSource;
import static org.jocl.CL.clGetProgramBuildInfo;
import static org.jocl.CL.clGetProgramInfo;
import static org.jocl.CL.clReleaseProgram;

import java.nio.charset.StandardCharsets;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntSupplier;

import org.jocl.CLException;
import org.jocl.Pointer;
import org.jocl.Sizeof;
import org.jocl.cl_device_id;
import org.jocl.cl_program;

import jpai.ocl.KernelSource;
import jpai.runtime.JpaiOptions;
import jpai.runtime.device.SignalChaining;
import jpai.runtime.opencl.FaultInjection.Fault;
import jpai.runtime.profile.Profiler;

/**
 * The programs of one {@link DeviceContext}: built once per source and options in this JVM (kept in
 * memory), and across JVMs through the {@link ProgramBinaryCache} on disk when it is on. A cached
 * binary the driver refuses is rebuilt from source and overwritten. A failed build is not
 * remembered: the next launch of that source tries again.
 *
 * <p>Bounded: at most {@link JpaiOptions#programCacheEntries()} programs stay in memory
 * ({@code -Djpai.cache.programs=N}); past it the least recently used one is evicted, and built again
 * (or loaded from the disk cache) when its source is launched again. A program evicted while
 * launches of other threads still use it is released after the last of them
 * ({@link BuiltProgram#lease()}).
 *
 * <p>Thread-safe: lookups and evictions hold the cache's monitor briefly; each program is built
 * once at a time (other threads wanting the same source wait for that build), builds of different
 * programs run one at a time, counters are atomic.
 */
final class ProgramCache {

    private final DeviceContext owner;
    private final ProgramBinaryCache disk;
    /** The most programs kept: read at each insertion, so that a changed property takes effect. */
    private final IntSupplier bound;
    /** Guarded by its own monitor; in access order, least recently used first. */
    private final LinkedHashMap<KernelSource, BuiltProgram> programs = new LinkedHashMap<>(64, 0.75f, true);
    /** Builds in progress, so that a source is built once however many threads launch it at once. */
    private final ConcurrentHashMap<KernelSource, CompletableFuture<Void>> building = new ConcurrentHashMap<>();
    private final AtomicInteger sourceBuilds = new AtomicInteger();
    private final AtomicInteger binaryLoads = new AtomicInteger();
    private final AtomicInteger evictions = new AtomicInteger();
    /**
     * Builds of different programs run one at a time: drivers' compilers are not all safe to run
     * concurrently (PoCL 3.1 fails with a temporary-file race in its own cache), and builds are rare.
     */
    private final Object buildLock = new Object();

    /**
     * @param disk the binary cache, or null to build everything from source
     */
    ProgramCache(DeviceContext owner, ProgramBinaryCache disk) {
        this(owner, disk, JpaiOptions::programCacheEntries);
    }

    ProgramCache(DeviceContext owner, ProgramBinaryCache disk, IntSupplier bound) {
        this.owner = owner;
        this.disk = disk;
        this.bound = bound;
    }

    /**
     * The program of {@code source}, built (or loaded) on first use, leased to the caller: it must
     * call {@link BuiltProgram#release()} when its launch is done.
     */
    BuiltProgram program(KernelSource source) {
        while (true) {
            synchronized (programs) {
                BuiltProgram program = programs.get(source);
                if (program != null && program.lease()) {
                    return program;
                }
            }
            CompletableFuture<Void> mine = new CompletableFuture<>();
            CompletableFuture<Void> other = building.putIfAbsent(source, mine);
            if (other != null) {
                other.handle((done, failure) -> null).join(); // then look again (or build, if that build failed)
                continue;
            }
            try {
                BuiltProgram built = obtain(source);
                synchronized (programs) {
                    built.lease(); // before any eviction can see it
                    BuiltProgram replaced = programs.put(source, built);
                    if (replaced != null) {
                        replaced.evict();
                    }
                    evictBeyondBound();
                }
                return built;
            } finally {
                building.remove(source, mine);
                mine.complete(null);
            }
        }
    }

    private void evictBeyondBound() {
        int most = Math.max(1, bound.getAsInt());
        Iterator<BuiltProgram> oldestFirst = programs.values().iterator();
        while (programs.size() > most && oldestFirst.hasNext()) {
            BuiltProgram oldest = oldestFirst.next();
            oldestFirst.remove();
            oldest.evict();
            evictions.incrementAndGet();
        }
    }

    /** Programs built from source so far (for tests). */
    int sourceBuilds() {
        return sourceBuilds.get();
    }

    /** Programs loaded from the disk cache so far (for tests). */
    int binaryLoads() {
        return binaryLoads.get();
    }

    /** Programs evicted so far (for tests). */
    int evictions() {
        return evictions.get();
    }

    /** Programs kept in memory now. */
    int size() {
        synchronized (programs) {
            return programs.size();
        }
    }

    ProgramBinaryCache disk() {
        return disk;
    }

    /** Lets go of every program: each is released once no launch uses it. */
    void close() {
        synchronized (programs) {
            programs.values().forEach(BuiltProgram::evict);
            programs.clear();
        }
    }

    private BuiltProgram obtain(KernelSource source) {
        String missing = jpai.runtime.device.FloatingPointSupport.missingFor(owner.device(), source.text(), source.buildOptions());
        if (missing != null) {
            throw new OpenCLRuntimeException(missing);
        }
        FaultInjection.check(Fault.BUILD); // stands for a build (or a cached binary) the driver refuses
        synchronized (buildLock) {
            return obtainAlone(source);
        }
    }

    private BuiltProgram obtainAlone(KernelSource source) {
        long start = System.nanoTime();
        ProcessMappings.checkBeforeBuild(); // a loaded binary is mapped as a built one is
        if (disk != null) {
            byte[] binary = disk.load(source, owner.device());
            if (binary != null) {
                BuiltProgram loaded = loadBinary(source, binary);
                if (loaded != null) {
                    binaryLoads.incrementAndGet();
                    Profiler.driverBuild(System.nanoTime() - start, true);
                    return loaded;
                }
            }
        }
        DriverCacheSpace.checkBeforeBuild(owner.device());
        cl_program program = buildFromSource(source);
        SignalChaining.checkAfterDriverLoad(); // a driver may set up its compiler's signal handlers at the first build
        sourceBuilds.incrementAndGet();
        BuiltProgram built;
        try {
            built = new BuiltProgram(program, source.kernelName(), owner.device().deviceId());
        } catch (CLException e) {
            clReleaseProgram(program);
            throw e;
        }
        if (disk != null) {
            byte[] binary = binaryOf(program);
            if (binary != null) {
                disk.store(source, owner.device(), binary);
            }
        }
        Profiler.driverBuild(System.nanoTime() - start, false);
        return built;
    }

    private cl_program buildFromSource(KernelSource source) {
        cl_program program = clCreateProgramWithSource(owner.context(), 1, new String[] {source.text()}, null, null);
        try {
            clBuildProgram(program, 1, new cl_device_id[] {owner.device().deviceId()}, source.buildOptions(), null, null);
            return program;
        } catch (CLException e) {
            String log = buildLog(program);
            clReleaseProgram(program);
            throw new CLException("the OpenCL compiler rejected kernel " + source.kernelName() + " (" + e.getMessage() + ")"
                    + (log.isBlank() ? "" : ": " + log.strip()), e, e.getStatus());
        }
    }

    /** The program of a cached binary, or null if the driver refuses it (then the caller rebuilds). */
    private BuiltProgram loadBinary(KernelSource source, byte[] binary) {
        cl_program program = null;
        try {
            int[] binaryStatus = new int[1];
            program = clCreateProgramWithBinary(owner.context(), 1, new cl_device_id[] {owner.device().deviceId()},
                    new long[] {binary.length}, new byte[][] {binary}, binaryStatus, null);
            clBuildProgram(program, 1, new cl_device_id[] {owner.device().deviceId()}, source.buildOptions(), null, null);
            return new BuiltProgram(program, source.kernelName(), owner.device().deviceId());
        } catch (CLException e) {
            if (program != null) {
                clReleaseProgram(program);
            }
            return null;
        }
    }

    /** The device binary of a built program, or null if the driver gives none. */
    private static byte[] binaryOf(cl_program program) {
        try {
            long[] size = new long[1];
            clGetProgramInfo(program, CL_PROGRAM_BINARY_SIZES, Sizeof.size_t, Pointer.to(size), null);
            if (size[0] <= 0 || size[0] > Integer.MAX_VALUE) {
                return null;
            }
            byte[] binary = new byte[(int) size[0]];
            clGetProgramInfo(program, CL_PROGRAM_BINARIES, Sizeof.POINTER, Pointer.to(new Pointer[] {Pointer.to(binary)}), null);
            return binary;
        } catch (CLException e) {
            return null;
        }
    }

    private String buildLog(cl_program program) {
        try {
            long[] size = new long[1];
            clGetProgramBuildInfo(program, owner.device().deviceId(), CL_PROGRAM_BUILD_LOG, 0, null, size);
            byte[] log = new byte[(int) size[0]];
            clGetProgramBuildInfo(program, owner.device().deviceId(), CL_PROGRAM_BUILD_LOG, log.length, Pointer.to(log), null);
            return new String(log, 0, Math.max(0, log.length - 1), StandardCharsets.UTF_8);
        } catch (CLException e) {
            return "(no build log: " + e.getMessage() + ")";
        }
    }
}
