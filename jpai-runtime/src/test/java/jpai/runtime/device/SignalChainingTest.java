package jpai.runtime.device;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfEnvironmentVariable;

/**
 * A JVM started without HotSpot's signal-chaining library, in which loading the OpenCL driver breaks
 * integer division by zero (PoCL does), prints the loud warning with the {@code LD_PRELOAD} fix; one
 * started with it prints none. Each child ({@link SignalChainingProbe}) also reports whether a
 * division by zero really threw, so the warning is checked against the truth on any driver; on PoCL
 * the broken case must occur without libjsig.
 */
@EnabledIfEnvironmentVariable(named = "JPAI_EXPECT_OPENCL", matches = "1")
class SignalChainingTest {

    private static final String WARNING = "jpai: WARNING: the OpenCL driver installed its own SIGFPE handler";

    private record Child(String out, String err) {
        boolean divisionThrows() {
            return out.contains("divisionThrows=true");
        }
    }

    @Test
    void withoutLibjsigTheBrokenDivisionIsSaidLoudlyWithTheFix() throws Exception {
        Child child = run(false);
        assertEquals(!child.divisionThrows(), child.err().contains(WARNING), "the warning iff division by zero is broken: " + child);
        if (child.out().contains("pocl=true")) {
            assertFalse(child.divisionThrows(), "PoCL takes over SIGFPE; without libjsig division by zero must be broken: " + child);
            String libjsig = Path.of(System.getProperty("java.home"), "lib", "libjsig.so").toString();
            assertTrue(child.err().contains("Start the JVM with LD_PRELOAD=" + libjsig), child.toString());
            assertTrue(child.out().contains("state=DIVISION_BY_ZERO_BROKEN"), child.toString());
            assertEquals(1, child.err().lines().filter(line -> line.contains("SIGFPE")).count(), "said once: " + child);
        }
    }

    @Test
    void withLibjsigThereIsNoWarning() throws Exception {
        Child child = run(true);
        assertTrue(child.divisionThrows(), child.toString());
        assertFalse(child.err().contains("SIGFPE"), child.toString());
        assertTrue(child.out().contains("state=DIVISION_BY_ZERO_THROWS"), child.toString());
    }

    /** A JVM with this one's flags and class path running the probe, with or without libjsig preloaded. */
    private static Child run(boolean withLibjsig) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(ManagementFactory.getRuntimeMXBean().getInputArguments()); // the argfile's flags, expanded
        command.addAll(List.of("-cp", System.getProperty("java.class.path"), SignalChainingProbe.class.getName()));
        ProcessBuilder builder = new ProcessBuilder(command);
        Map<String, String> environment = builder.environment();
        environment.remove("LD_PRELOAD"); // Surefire preloads it for this JVM
        if (withLibjsig) {
            environment.put("LD_PRELOAD", Path.of(System.getProperty("java.home"), "lib", "libjsig.so").toString());
        }
        Process process = builder.start();
        process.getOutputStream().close();
        var out = process.getInputStream().readAllBytes();
        var err = process.getErrorStream().readAllBytes();
        assertTrue(process.waitFor(120, TimeUnit.SECONDS), "the child JVM did not end");
        Child child = new Child(new String(out, StandardCharsets.UTF_8), new String(err, StandardCharsets.UTF_8));
        assertEquals(0, process.exitValue(), child.toString());
        return child;
    }
}
