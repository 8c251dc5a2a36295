package jpai.bench;

import java.util.Random;

import jpai.AF;
import jpai.runtime.JpaiOptions;

/**
 * Issue 21's time to first result: the wall time of a program's first JPAI call in a fresh JVM (its
 * kernel not compiled yet), in one of three modes: {@code device} (the call waits for Graal, the
 * code generator and the driver's build, then runs on the device), {@code tiered}
 * ({@code -Djpai.tiering=true}: the call runs on Java threads while the kernel compiles in the
 * background) and {@code threads} (JPAI on Java threads, {@code jpai.device=java}); {@code tiered-plain-inputs} is
 * tiered with the inputs in plain memory, as the threads mode has them. The goal: the
 * tiered first call never slower than the Java threads'. One JVM per program and mode, since kernels
 * are cached per lambda for the JVM's life; the output is validated against the sequential version.
 * Prints {@code program,size,mode,first_call_ms,ran_on,last_apply_ms} (the last: the wall time of the
 * program's last apply alone, as its profile says, without what the program does with the result).
 *
 * <p>Usage: {@code bin/jpai run jpai.bench.FirstApply PROGRAM device|tiered|threads [small|large|largeK]}
 * ({@code largeK}: K times the large size's elements, checked against the parallel streams' result);
 * on the GPU machine {@code bin/gpu-check firstapply} runs every program in every mode.
 */
public final class FirstApply {

    private FirstApply() {
    }

    public static void main(String[] args) {
        if (args.length < 2) {
            System.err.println("usage: FirstApply PROGRAM device|tiered|threads [small|large]; programs: " + Programs.names());
            System.exit(2);
        }
        Program<?> program = Programs.all().stream().filter(p -> p.name().equals(args[0])).findFirst().orElse(null);
        if (program == null) {
            System.err.println("FirstApply: no program " + args[0] + "; programs: " + Programs.names());
            System.exit(2);
            return;
        }
        String mode = args[1];
        String sizeArg = args.length > 2 ? args[2] : "large";
        SizeClass size = sizeArg.equals("small") ? SizeClass.SMALL : SizeClass.LARGE;
        int times = sizeArg.matches("large\\d+") ? Integer.parseInt(sizeArg.substring("large".length())) : 1;
        System.exit(run(program, mode, size, times) ? 0 : 1);
    }

    private static <D> boolean run(Program<D> program, String mode, SizeClass size, int times) {
        int n = program.size(size);
        if (times > 1) {
            // K times the elements: a 2-D program's size is its side ("4096^2 pixels"), a 1-D program's its length
            n = program.sizeLabel(n).contains("^2") ? (int) (Math.round(n * Math.sqrt(times) / 16) * 16) : times * n;
        }
        D data = program.createData(n, new Random(42));
        // past the large size, sequential Java would take minutes: the parallel streams' result, which
        // the suite checks against sequential Java at the large size, is the reference
        Output reference = times > 1 ? streamsOutput(program, data) : program.reference(data);
        JpaiExecution.Executor executor = switch (mode) {
            case "device", "tiered" -> JpaiExecution.Executor.OPENCL;
            case "threads", "tiered-plain-inputs" -> JpaiExecution.Executor.THREADS;
            default -> throw new IllegalArgumentException("mode " + mode + ": device, tiered, tiered-plain-inputs or threads");
        };
        if (mode.startsWith("tiered")) {
            System.setProperty(JpaiOptions.TIERING, "true");
        }
        try (JpaiExecution ignored = JpaiExecution.enter(executor, false); Run jpai = program.jpai(data)) {
            if (mode.equals("tiered-plain-inputs")) {
                // inputs made in plain memory (as the threads mode's), then the device chosen and its
                // context made before the timed call: tells the inputs' memory from the driver's presence
                System.clearProperty("jpai.device");
                JpaiExecution.where(); // makes the choice
            }
            long start = System.nanoTime();
            jpai.run();
            double ms = (System.nanoTime() - start) / 1e6;
            String problem = program.validate(data, n, reference, jpai.output());
            if (problem != null) {
                System.out.println(program.name() + ": RESULT DIFFERS (" + mode + "): " + problem);
                return false;
            }
            System.out.printf("%s,%s,%s,%.1f,%s,%.1f%n", program.name(), program.sizeLabel(n), mode, ms, AF.lastProfile().device(), AF.lastProfile().wallNanos() / 1e6);
            return true;
        }
    }

    private static <D> Output streamsOutput(Program<D> program, D data) {
        try (Run streams = program.streams(data)) {
            streams.run();
            return streams.output();
        } catch (Exception e) {
            throw new IllegalStateException(program.name() + ": its parallel streams' version failed", e);
        }
    }
}
