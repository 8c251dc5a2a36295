package jpai.runtime.cli;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import jpai.runtime.device.DeviceChoice;
import jpai.runtime.device.DeviceSelectionException;
import jpai.runtime.device.DeviceSelector;
import jpai.runtime.device.Discovery;
import jpai.runtime.device.OpenCLDeviceInfo;
import jpai.runtime.device.OpenCLPlatforms;
import jpai.runtime.device.FloatingPointSupport;
import jpai.runtime.device.SignalChaining;

/**
 * {@code jpai-devices}: lists the OpenCL platforms and devices JPAI can see, marks the one it would
 * use by default with {@code *} and names the rule that chose it, and shows what {@code -Djpai.device}
 * picks when it is set. It is the first thing to run when JPAI does not use the device one expects.
 *
 * <p>Exit status: 0, or 2 when {@code -Djpai.device} is set and matches nothing (the one-line reason
 * goes to standard error).
 */
public final class DevicesCommand {

    static final int EXIT_OK = 0;
    static final int EXIT_USAGE = 2;

    private static final String SPEC_FORMS = "default, gpu, accelerator, cpu, java, N, P:D, or part of a device or platform name";

    private DevicesCommand() {
    }

    public static void main(String[] args) {
        if (args.length > 0) {
            System.err.println("usage: jpai-devices [-D" + DeviceSelector.PROPERTY + "=SPEC]  (SPEC: " + SPEC_FORMS + ")");
            System.exit(EXIT_USAGE);
        }
        int status = run(OpenCLPlatforms.discover(), System.getProperty(DeviceSelector.PROPERTY), System.out, System.err);
        System.out.println("JVM: " + SignalChaining.describe());
        if (status != EXIT_OK) {
            System.exit(status);
        }
    }

    /**
     * Prints the report for {@code discovery} and the spec {@code spec} ({@code null} when
     * {@code -Djpai.device} is not set) and returns the exit status.
     */
    static int run(Discovery discovery, String spec, PrintStream out, PrintStream err) {
        DeviceChoice byDefault = DeviceSelector.defaultChoice(discovery);
        if (printPlatforms(discovery, byDefault, out)) {
            out.println();
        }
        if (discovery.isEmpty()) {
            out.println("No OpenCL device found: " + discovery.reason());
            out.println("JPAI will run on Java threads.");
        } else {
            out.println("Default (*): " + byDefault.describe() + " -- " + byDefault.why());
        }
        return printSpecChoice(discovery, spec, out, err);
    }

    /**
     * Each platform with its devices, or with the reason it was skipped, in platform order. Returns
     * whether it printed anything.
     */
    private static boolean printPlatforms(Discovery discovery, DeviceChoice byDefault, PrintStream out) {
        Map<Integer, List<String>> linesByPlatform = new TreeMap<>();
        Map<Integer, String> headers = new TreeMap<>();
        for (OpenCLDeviceInfo device : discovery.devices()) {
            headers.putIfAbsent(device.platformIndex(), "Platform " + device.platformIndex() + ": " + device.platformName()
                    + " (" + device.platformVendor() + ", " + device.platformVersion() + ")");
            String mark = isChosen(byDefault, device) ? "* " : "  ";
            lines(linesByPlatform, device.platformIndex()).add("  " + mark + device.describe());
            String missing = FloatingPointSupport.missingForJavaArithmetic(device);
            if (missing != null) {
                lines(linesByPlatform, device.platformIndex()).add("      " + missing + ": operations using those types run in Java there");
            }
        }
        for (Discovery.Skipped skipped : discovery.skipped()) {
            headers.putIfAbsent(skipped.platformIndex(), "Platform " + skipped.platformIndex() + ": " + skipped.platformName());
            String what = skipped.isWholePlatform() ? "skipped: " : "device " + skipped.deviceIndex() + " skipped: ";
            lines(linesByPlatform, skipped.platformIndex()).add("    " + what + skipped.reason());
        }
        headers.forEach((platform, header) -> {
            out.println(header);
            linesByPlatform.get(platform).forEach(out::println);
        });
        return !headers.isEmpty();
    }

    private static List<String> lines(Map<Integer, List<String>> linesByPlatform, int platform) {
        return linesByPlatform.computeIfAbsent(platform, p -> new ArrayList<>());
    }

    private static boolean isChosen(DeviceChoice choice, OpenCLDeviceInfo device) {
        return choice instanceof DeviceChoice.OpenCL openCL && openCL.device().globalIndex() == device.globalIndex();
    }

    private static int printSpecChoice(Discovery discovery, String spec, PrintStream out, PrintStream err) {
        if (spec == null) {
            out.println("-D" + DeviceSelector.PROPERTY + " is not set; it takes: " + SPEC_FORMS + ".");
            return EXIT_OK;
        }
        try {
            DeviceChoice choice = DeviceSelector.select(spec, discovery);
            out.println("-D" + DeviceSelector.PROPERTY + "=" + spec + " picks: " + choice.describe() + " -- " + choice.why());
            return EXIT_OK;
        } catch (DeviceSelectionException e) {
            err.println(e.getMessage());
            return EXIT_USAGE;
        }
    }
}
