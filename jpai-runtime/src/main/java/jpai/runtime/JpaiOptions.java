package jpai.runtime;

import java.nio.file.Path;
import java.util.Objects;

import jpai.compiler.MathFunctions;
import jpai.ocl.ExactFloatDivSqrt;
import jpai.ocl.GeneratorOptions;
import jpai.ocl.Tiling;
import jpai.runtime.device.DeviceChoice;
import jpai.runtime.device.DeviceKind;
import jpai.runtime.opencl.OpenCLRuntime;

/**
 * The system properties users set to steer the runtime, read at each use so tests may change them.
 * Documented in the README.
 */
public final class JpaiOptions {

    /** {@code -Djpai.explain=true}: say why an operation did not run on OpenCL. */
    public static final String EXPLAIN = "jpai.explain";
    /** {@code -Djpai.dump.opencl=DIR}: write every generated kernel to DIR. */
    public static final String DUMP_OPENCL = "jpai.dump.opencl";
    /** {@code -Djpai.fallback=error}: make a fallback to Java an exception (for tests and benchmarks). */
    public static final String FALLBACK = "jpai.fallback";

    /**
     * {@code -Djpai.deviceTimes=always|sampled}: whether every kernel launch measures its commands'
     * device times (OpenCL event profiling: {@code always}, the default), or only a kernel's first
     * launches, those of its work-group tuning and one launch in sixteen after them
     * ({@code sampled}): the others run on queues without profiling, which on the H100 saves a small
     * call 15-20 µs, and their profile's device times are 0 ({@code ApplyProfile.deviceTimed()} false).
     * {@code -Djpai.profile=true} and the cost model measure every launch.
     */
    public static final String DEVICE_TIMES = "jpai.deviceTimes";

    /** {@code -Djpai.profile=true}: print one profile row per apply to standard error. */
    public static final String PROFILE = "jpai.profile";
    /** {@code -Djpai.cache=false}: build every kernel from source, with no disk cache. */
    public static final String CACHE = "jpai.cache";
    /**
     * {@code -Djpai.cache.maxBytes=N}: the most bytes of program binaries kept on disk (default 256 MiB);
     * past it the least recently used entries are removed.
     */
    public static final String CACHE_MAX_BYTES = "jpai.cache.maxBytes";
    public static final long DEFAULT_CACHE_MAX_BYTES = 256L << 20;
    /**
     * {@code -Djpai.cache.minFreeBytes=N}: PoCL builds are refused (fallback with a reason) when fewer
     * bytes are free for its kernel cache (default 64 MiB): PoCL ends the JVM when that disk fills.
     */
    public static final String CACHE_MIN_FREE_BYTES = "jpai.cache.minFreeBytes";
    public static final long DEFAULT_CACHE_MIN_FREE_BYTES = 64L << 20;
    /** {@code -Djpai.cache.dir=DIR}: where built program binaries are kept (default {@code ~/.cache/jpai}). */
    public static final String CACHE_DIR = "jpai.cache.dir";

    /**
     * {@code -Djpai.cache.programs=N}: the most built programs kept in memory per device (default
     * {@value #DEFAULT_CACHE_PROGRAMS}); past it the least recently used are released (once no launch
     * uses them), and built again, or loaded from the disk cache, when needed again.
     */
    public static final String CACHE_PROGRAMS = "jpai.cache.programs";
    public static final int DEFAULT_CACHE_PROGRAMS = 256;
    /**
     * {@code -Djpai.queues=N}: the most OpenCL command queues per device, that is launches in flight at
     * once (default {@value #DEFAULT_QUEUES}); a launch that finds them all in use waits for one.
     */
    public static final String QUEUES = "jpai.queues";
    public static final int DEFAULT_QUEUES = 32;

    /**
     * {@code -Djpai.fastmath=true}: let kernels trade Java's exact results for speed (OpenCL's
     * relaxed math, contraction into fused multiply-add). Off by default; read when a kernel is
     * first compiled.
     */
    public static final String FAST_MATH = "jpai.fastmath";

    /**
     * {@code -Djpai.tiling}: which loops are written through {@code __local} tiles (docs/backend.md,
     * "Tiling"); part of each kernel's cache key. Unset or {@code true}: the device kind's default,
     * every loop the pattern fits on a CPU device (matmul's 2-D tiles: 1.7x on PoCL), loops of maps
     * over one index only on a GPU (the same 2-D tiles cost NVIDIA 5-10 %, N-Body's 1-D ones gain
     * 1.28x); {@code 1d}, {@code all}: so on any device; {@code false}: none (to measure the gain).
     */
    public static final String TILING = "jpai.tiling";
    /**
     * {@code -Djpai.tiering=true}: under {@code Executor.AUTO}, a map whose kernel is not compiled yet
     * does not wait for it: its compilation (and the program's build) starts on a background thread,
     * and the apply runs on Java threads, as every apply does until the kernel is ready (a map's is
     * taken over by the device then, where the bits cannot differ); later applies run on the device.
     * Off by default for now. {@code ACCELERATOR} never tiers.
     */
    public static final String TIERING = "jpai.tiering";
    /**
     * {@code -Djpai.costModel=true}: under {@code Executor.AUTO}, each apply of a map runs where the
     * function's measured times predict it finishes first, the device or Java threads ({@code
     * CostModel}); implies {@link #TIERING}, whose first applies measure Java's pace. Off by default.
     * {@code ACCELERATOR} never routes by cost.
     */
    public static final String COST_MODEL = "jpai.costModel";

    /** {@code false}: consecutive maps of a composed function run as separate kernels (to measure what fusion gains). */
    public static final String FUSION = "jpai.fusion";

    /**
     * {@code -Djpai.speculation.maxRecompiles=N}: how many times one function's kernels are recompiled
     * because a speculation failed (default {@value #DEFAULT_MAX_RECOMPILES}). Each recompile leaves
     * out the speculation that failed; the one that reaches the bound leaves out every speculation, so
     * the function's kernels stop speculating. 0: never recompiled (each failure re-runs elements in
     * Java). Read at each failure.
     */
    public static final String MAX_RECOMPILES = "jpai.speculation.maxRecompiles";
    public static final int DEFAULT_MAX_RECOMPILES = 4;

    /**
     * {@code -Djpai.speculation.profile=bailouts|always|never}: when a map's kernel is compiled from
     * HotSpot's profile of the function's body, with the branches it never took in Java as exits
     * ({@code Speculation.UNTAKEN_BRANCHES}). {@code bailouts} (default): only a function whose kernel
     * did not compile, once it has run in Java (the apply's fallback, or the Java-threads executor);
     * {@code always}: also a function compiled for the first time after it ran in Java; {@code never}.
     */
    public static final String PROFILE_SPECULATION = "jpai.speculation.profile";

    /** The values of {@link #PROFILE_SPECULATION}. */
    public enum ProfileSpeculation {
        BAILOUTS, ALWAYS, NEVER
    }

    /**
     * {@code -Djpai.exactDivSqrt=builtin|double|fma}: how kernels compute Java's correctly rounded
     * float division and square root ({@link ExactFloatDivSqrt}); every choice gives Java's bits, they
     * differ in speed by device. Default {@code builtin}. Read when a kernel is first compiled; kernels
     * are kept per choice.
     */
    public static final String EXACT_DIV_SQRT = "jpai.exactDivSqrt";

    private JpaiOptions() {
    }

    /** When kernels are compiled from HotSpot's profile ({@link #PROFILE_SPECULATION}). */
    public static ProfileSpeculation profileSpeculation() {
        String value = System.getProperty(PROFILE_SPECULATION);
        if (value == null || value.isBlank()) {
            return ProfileSpeculation.BAILOUTS;
        }
        try {
            return ProfileSpeculation.valueOf(value.strip().toUpperCase(java.util.Locale.ROOT));
        } catch (IllegalArgumentException e) {
            Explain.notice("-D" + PROFILE_SPECULATION + "=" + value + " is not bailouts, always or never; bailouts is used");
            return ProfileSpeculation.BAILOUTS;
        }
    }

    /** The bound on recompiles per function after failed speculations ({@link #MAX_RECOMPILES}), at least 0. */
    public static int maxRecompiles() {
        String value = System.getProperty(MAX_RECOMPILES);
        if (value == null || value.isBlank()) {
            return DEFAULT_MAX_RECOMPILES;
        }
        try {
            return Math.max(0, Integer.parseInt(value.strip()));
        } catch (NumberFormatException e) {
            Explain.notice("-D" + MAX_RECOMPILES + "=" + value + " is not a whole number; " + DEFAULT_MAX_RECOMPILES + " recompiles are allowed per function");
            return DEFAULT_MAX_RECOMPILES;
        }
    }

    public static boolean explain() {
        return Boolean.getBoolean(EXPLAIN);
    }

    /** The kernel dump directory, or null. */
    public static Path dumpOpenCL() {
        String dir = System.getProperty(DUMP_OPENCL);
        return dir == null || dir.isBlank() ? null : Path.of(dir);
    }

    public static boolean fallbackIsError() {
        return "error".equalsIgnoreCase(System.getProperty(FALLBACK));
    }

    public static boolean fastMath() {
        return Boolean.getBoolean(FAST_MATH);
    }

    /**
     * How kernels compute {@code Math}'s transcendental functions: as {@code -Djpai.math} says where
     * it is set; else OpenCL's built-ins under {@link #FAST_MATH} (the relaxed precision class
     * Aparapi and TornadoVM use by default includes them: {@code (float) Math.cos(x)} of a float
     * becomes the float {@code cos}) and Java's otherwise: {@code StrictMath}'s bits, floats'
     * {@code sin}, {@code cos}, {@code exp} and {@code log} computed from the float on a GPU
     * ({@link MathFunctions#JAVA_FLOAT_ARGUMENTS}: 3.4x faster for DFT's kernel on the H100; on
     * NVIDIA's with {@code exp} and {@code log} from its {@code double} built-ins,
     * {@link MathFunctions#JAVA_FLOAT_DEVICE_EXP_LOG}: Black-Scholes' kernel 5 % faster) and
     * FdLibm alone on a CPU device (where that path measured slower). An IllegalArgumentException
     * naming the property for a value it does not know.
     */
    public static MathFunctions mathFunctions() {
        String chosen = System.getProperty(MathFunctions.PROPERTY);
        if (chosen == null || chosen.isBlank()) {
            if (fastMath()) {
                return MathFunctions.OPENCL_BUILTINS;
            }
            if (OpenCLRuntime.choice() instanceof DeviceChoice.OpenCL chosenDevice && chosenDevice.device().kind() != DeviceKind.CPU) {
                return deviceExpLogChecked(chosenDevice.device()) ? MathFunctions.JAVA_FLOAT_DEVICE_EXP_LOG : MathFunctions.JAVA_FLOAT_ARGUMENTS;
            }
            return MathFunctions.JAVA;
        }
        return MathFunctions.fromSystemProperty();
    }

    /**
     * Whether floats' {@code exp} and {@code log} may read {@code device}'s {@code double} built-ins
     * by default ({@link MathFunctions#JAVA_FLOAT_DEVICE_EXP_LOG}): on NVIDIA's OpenCL, whose
     * built-ins were checked on the H100 for every float of both fast ranges against {@code StrictMath}
     * (session 20; NVIDIA documents 1 ulp, OpenCL allows 3, the test's margin is 16 times that). Other
     * GPUs keep JPAI's own polynomials, which need nothing but correctly rounded arithmetic.
     */
    static boolean deviceExpLogChecked(jpai.runtime.device.OpenCLDeviceInfo device) {
        return device.fp64() && device.platformName().contains("NVIDIA");
    }

    /** Whether a first apply under {@code AUTO} runs on Java threads while its kernel compiles ({@link #TIERING}; default false). */
    public static boolean tiering() {
        return Boolean.getBoolean(TIERING) || costModel();
    }

    /** Whether {@code AUTO} chooses between the device and Java threads by measured cost ({@link #COST_MODEL}; default false). */
    public static boolean costModel() {
        return Boolean.getBoolean(COST_MODEL);
    }

    /** Whether consecutive maps of a composed function are fused into one kernel ({@link #FUSION}; default true). */
    public static boolean fusion() {
        return !"false".equalsIgnoreCase(System.getProperty(FUSION));
    }

    /** What {@link #TILING} asks for on the chosen device; an IllegalArgumentException naming the property for a value it does not know. */
    public static Tiling tiling() {
        String value = System.getProperty(TILING);
        if (value == null || value.isBlank() || value.equalsIgnoreCase("true")) {
            return OpenCLRuntime.choice() instanceof DeviceChoice.OpenCL chosen && chosen.device().kind() == DeviceKind.CPU ? Tiling.ALL : Tiling.ONE_DIMENSIONAL;
        }
        return switch (value.toLowerCase(java.util.Locale.ROOT)) {
            case "false" -> Tiling.NONE;
            case "1d" -> Tiling.ONE_DIMENSIONAL;
            case "all" -> Tiling.ALL;
            default -> throw new IllegalArgumentException("-D" + TILING + "=" + value + ": expected true (the device's default), 1d, all or false");
        };
    }

    /**
     * What the code generator is asked for now ({@link #FAST_MATH}, {@link #EXACT_DIV_SQRT}, {@link #TILING}); an
     * IllegalArgumentException naming the property for a value it does not know.
     */
    public static GeneratorOptions generatorOptions() {
        String fastMath = System.getProperty(FAST_MATH);
        String value = System.getProperty(EXACT_DIV_SQRT);
        Tiling tiling = tiling();
        ReadGeneratorOptions last = lastGeneratorOptions;
        if (last != null && Objects.equals(last.fastMath(), fastMath) && Objects.equals(last.divSqrt(), value) && last.options().tiling() == tiling) {
            return last.options(); // every apply asks: no parsing and no allocation while the properties stay
        }
        ExactFloatDivSqrt divSqrt;
        try {
            divSqrt = value == null || value.isBlank() ? ExactFloatDivSqrt.BUILTIN : ExactFloatDivSqrt.fromOptionValue(value);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("-D" + EXACT_DIV_SQRT + "=" + value + ": " + e.getMessage(), e);
        }
        GeneratorOptions options = new GeneratorOptions(Boolean.parseBoolean(fastMath), divSqrt, tiling);
        lastGeneratorOptions = new ReadGeneratorOptions(fastMath, value, options);
        return options;
    }

    /** The property values {@link #generatorOptions()} last read, and what they gave. */
    private record ReadGeneratorOptions(String fastMath, String divSqrt, GeneratorOptions options) {
    }

    private static volatile ReadGeneratorOptions lastGeneratorOptions;

    public static boolean profile() {
        return Boolean.getBoolean(PROFILE);
    }

    /** Whether launches measure only a sample of their device times ({@link #DEVICE_TIMES} {@code sampled}, and neither the profile rows nor the cost model on). */
    public static boolean deviceTimesSampled() {
        return "sampled".equalsIgnoreCase(System.getProperty(DEVICE_TIMES)) && !profile() && !costModel();
    }

    /** The directory of the program binary cache, or null when {@code -Djpai.cache=false}. */
    public static Path programCacheDir() {
        if ("false".equalsIgnoreCase(System.getProperty(CACHE, "true").strip())) {
            return null;
        }
        String dir = System.getProperty(CACHE_DIR);
        if (dir != null && !dir.isBlank()) {
            return Path.of(dir);
        }
        return Path.of(System.getProperty("user.home"), ".cache", "jpai");
    }

    /** The bound on the disk program cache's size in bytes ({@link #CACHE_MAX_BYTES}). */
    public static long programCacheMaxBytes() {
        String value = System.getProperty(CACHE_MAX_BYTES);
        if (value == null || value.isBlank()) {
            return DEFAULT_CACHE_MAX_BYTES;
        }
        try {
            return Math.max(0, Long.parseLong(value.strip()));
        } catch (NumberFormatException e) {
            Explain.notice("-D" + CACHE_MAX_BYTES + "=" + value + " is not a number of bytes; the kernel cache keeps at most "
                    + DEFAULT_CACHE_MAX_BYTES + " bytes");
            return DEFAULT_CACHE_MAX_BYTES;
        }
    }

    /** The bound on the programs kept in memory per device ({@link #CACHE_PROGRAMS}), at least 1. */
    public static int programCacheEntries() {
        return positiveInt(CACHE_PROGRAMS, DEFAULT_CACHE_PROGRAMS, "programs kept in memory");
    }

    /** The most command queues per device ({@link #QUEUES}), at least 1. */
    public static int queueLimit() {
        return positiveInt(QUEUES, DEFAULT_QUEUES, "command queues per device");
    }

    private static int positiveInt(String property, int fallback, String what) {
        String value = System.getProperty(property);
        if (value == null || value.isBlank()) {
            return fallback;
        }
        try {
            int parsed = Integer.parseInt(value.strip());
            if (parsed >= 1) {
                return parsed;
            }
        } catch (NumberFormatException e) {
            // said below
        }
        Explain.notice("-D" + property + "=" + value + " is not a whole number of at least 1; " + fallback + " " + what + " are used");
        return fallback;
    }

    /** The least free space for a driver's kernel cache before a build ({@link #CACHE_MIN_FREE_BYTES}). */
    public static long programCacheMinFreeBytes() {
        String value = System.getProperty(CACHE_MIN_FREE_BYTES);
        if (value == null || value.isBlank()) {
            return DEFAULT_CACHE_MIN_FREE_BYTES;
        }
        try {
            return Math.max(0, Long.parseLong(value.strip()));
        } catch (NumberFormatException e) {
            Explain.notice("-D" + CACHE_MIN_FREE_BYTES + "=" + value + " is not a number of bytes; " + DEFAULT_CACHE_MIN_FREE_BYTES + " is used");
            return DEFAULT_CACHE_MIN_FREE_BYTES;
        }
    }
}
