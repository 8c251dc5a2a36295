package jpai.runtime.opencl;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;

import org.jocl.CL;
import org.jocl.CLException;

/**
 * Refuses a program that could end the JVM by exhausting the process's memory mappings. Linux lets a
 * process hold at most {@code vm.max_map_count} mappings (65,530 by default); past it every
 * {@code mmap} fails. PoCL 3.1 maps each kernel library it loads ({@code dlopen} of the program's
 * {@code .so}) and keeps it mapped after {@code clReleaseProgram}: 4 mappings per program built and
 * run, measured. After some ten thousand distinct programs in one process its next {@code dlopen}
 * fails ("failed to map segment from shared object") and PoCL calls {@code abort()}: the JVM dies,
 * with no error to catch (found by {@code ManyFunctionsMemoryTest} with 10,000 functions). The JVM
 * itself needs mappings to go on (thread stacks, heap and code growth), so a program is refused
 * while fewer than {@link #headroom} mappings are left: the operation then runs on Java threads, with
 * the reason. Checked before each program is built or loaded, which costs far more than reading
 * {@code /proc/self/maps}; on a system without {@code /proc} nothing is checked.
 */
final class ProcessMappings {

    private static final Path MAX_MAP_COUNT = Path.of("/proc/sys/vm/max_map_count");
    private static final Path OWN_MAPS = Path.of("/proc/self/maps");
    /** The limit, read once (-1: unknown, nothing is checked). */
    private static final long LIMIT = readLimit();

    private ProcessMappings() {
    }

    /** @throws CLException (a build failure) if a new program could take the process past its mapping limit */
    static void checkBeforeBuild() {
        if (LIMIT <= 0) {
            return;
        }
        long mappings = currentMappings();
        String refusal = refusal(mappings, LIMIT);
        if (refusal != null) {
            throw new CLException(refusal, CL.CL_BUILD_PROGRAM_FAILURE);
        }
    }

    /** Why a program is refused with {@code mappings} of {@code limit} in use, or null if it is not. */
    static String refusal(long mappings, long limit) {
        if (mappings < 0 || mappings + headroom(limit) < limit) {
            return null;
        }
        return "this process holds " + mappings + " memory mappings of the " + limit + " Linux allows it (vm.max_map_count), and the OpenCL driver"
                        + " may keep a kernel library mapped for every program it built (PoCL does); a driver that cannot map the next one ends the JVM,"
                        + " so no new kernel is built in this process (raise vm.max_map_count, or apply fewer distinct functions per JVM)";
    }

    /** The limit read from {@code /proc/sys/vm/max_map_count}, or -1 if unknown. */
    static long limit() {
        return LIMIT;
    }

    /** The mappings kept free for the JVM: an eighth of the limit, at least 4,096. */
    static long headroom(long limit) {
        return Math.max(4096, limit / 8);
    }

    private static long currentMappings() {
        try (Stream<String> lines = Files.lines(OWN_MAPS)) {
            return lines.count();
        } catch (IOException | RuntimeException e) {
            return -1;
        }
    }

    private static long readLimit() {
        // line by line: /proc reports a size of 0, and Files.readString read "6" of "65530" here
        try (Stream<String> lines = Files.lines(MAX_MAP_COUNT)) {
            return lines.findFirst().map(String::trim).map(Long::parseLong).orElse(-1L);
        } catch (IOException | RuntimeException e) {
            return -1;
        }
    }
}
