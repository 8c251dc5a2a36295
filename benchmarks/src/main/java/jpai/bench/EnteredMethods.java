package jpai.bench;

import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Random;

import javax.management.ObjectName;

import jpai.runtime.device.DeviceChoice;
import jpai.runtime.opencl.OpenCLRuntime;

/**
 * The process half of {@code bin/entered-methods}: which compiled methods one call of a suite
 * program enters right after {@code System.gc()}, and how much code they hold. Since JDK 20 every
 * collector arms an entry barrier in each compiled method at a full collection; the first call of
 * each afterwards runs the barrier's slow path, whose cost grows with the method's code (its
 * relocations are walked), so the code an apply enters after a collection is part of its cost
 * (docs/runtime.md, "What the cold apply pays for").
 *
 * <p>Warms the version up back to back (as the suite does), prints {@code READY <pid>}, waits
 * until {@code goFile} exists (the script has attached gdb, which breaks on the barrier's slow path
 * and on {@code JVM_GC} and {@code JVM_SleepNanos} as markers), then makes one collection, one call,
 * and a sleep, and writes the JVM's code list ({@code Compiler.codelist}) to {@code codeList} so that
 * the script can name the methods entered between the collection and the sleep.
 *
 * <p>Arguments: {@code size program version goFile codeList}; version is {@code jpai} or
 * {@code opencl} (the hand-written one).
 */
public final class EnteredMethods {

    private EnteredMethods() {
    }

    public static void main(String[] args) throws Exception {
        if (args.length != 5) {
            System.err.println("usage: EnteredMethods <tiny|quick|small|large> <program> <jpai|opencl> <go file> <code list file>");
            System.exit(2);
        }
        SizeClass size = SizeClass.valueOf(args[0].toUpperCase(Locale.ROOT));
        Program<?> program = Programs.all().stream().filter(p -> p.name().equals(args[1])).findFirst()
                        .orElseThrow(() -> new IllegalArgumentException("no program " + args[1] + "; the programs: " + Programs.names()));
        run(program, size, args[2], Path.of(args[3]), Path.of(args[4]));
        System.exit(0);
    }

    private static <D> void run(Program<D> program, SizeClass size, String version, Path goFile, Path codeList) throws Exception {
        D data = program.createData(program.size(size), new Random(42));
        Jocl jocl = null;
        if (version.equals("opencl")) {
            if (!(OpenCLRuntime.choice() instanceof DeviceChoice.OpenCL device)) {
                throw new IllegalStateException("no OpenCL device for the hand-written version: " + OpenCLRuntime.choice().why());
            }
            jocl = Jocl.open(device.device());
        } else if (!version.equals("jpai")) {
            throw new IllegalArgumentException("version: jpai or opencl, not " + version);
        }
        try (Run run = jocl == null ? program.jpai(data) : program.openCL(data, jocl)) {
            long warmEnd = System.nanoTime() + Long.getLong("warmMillis", 6000) * 1_000_000L;
            while (System.nanoTime() < warmEnd) {
                run.run();
                run.discard();
            }
            System.out.println("READY " + ProcessHandle.current().pid());
            while (!Files.exists(goFile)) {
                Thread.sleep(100);
            }
            Thread.sleep(1000); // gdb is attached and running
            System.gc();
            run.run();
            Thread.sleep(1000); // the end of the call, for the script
            run.discard();
            Object list = ManagementFactory.getPlatformMBeanServer().invoke(new ObjectName("com.sun.management:type=DiagnosticCommand"), "compilerCodelist",
                            new Object[] {null}, new String[] {String[].class.getName()});
            Files.writeString(codeList, list.toString());
        }
    }
}
