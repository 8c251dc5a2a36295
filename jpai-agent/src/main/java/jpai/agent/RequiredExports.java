package jpai.agent;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * The packages of the JDK's JVMCI module and of Graal that JPAI's code uses, each of which must be
 * exported to JPAI's modules. The list is the root pom's {@code jpai.graal.exports}, the one javac and
 * {@code build/jpai.argfile} are made from, filtered into {@code exports.txt} by the build, so the
 * agent and the hand-written flags can never disagree.
 */
public final class RequiredExports {

    /** One package that must be exported: {@code --add-exports=module/packageName=...}. */
    public record PackageExport(String module, String packageName) {

        /** The command-line flag that exports this package to the class path. */
        public String flag() {
            return "--add-exports=" + module + "/" + packageName + "=ALL-UNNAMED";
        }
    }

    private static final String RESOURCE = "exports.txt";
    private static final String PREFIX = "--add-exports=";

    private static final List<PackageExport> ALL = read();

    private RequiredExports() {
    }

    /** Every package JPAI needs exported, in the pom's order. */
    public static List<PackageExport> all() {
        return ALL;
    }

    private static List<PackageExport> read() {
        try (InputStream in = RequiredExports.class.getResourceAsStream(RESOURCE)) {
            if (in == null) {
                throw new IllegalStateException("jpai-agent is built wrongly: its resource jpai/agent/" + RESOURCE + " is missing");
            }
            List<PackageExport> exports = new ArrayList<>();
            for (String line : new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n")) {
                String flag = line.strip();
                if (flag.isEmpty() || flag.startsWith("#")) {
                    continue;
                }
                exports.add(parse(flag));
            }
            return List.copyOf(exports);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read jpai/agent/" + RESOURCE, e);
        }
    }

    /** {@code --add-exports=jdk.graal.compiler/jdk.graal.compiler.nodes=ALL-UNNAMED}: the module and the package. */
    private static PackageExport parse(String flag) {
        int slash = flag.indexOf('/');
        int equals = flag.indexOf('=', PREFIX.length());
        if (!flag.startsWith(PREFIX) || slash < 0 || equals < slash) {
            throw new IllegalStateException("jpai-agent is built wrongly: '" + flag + "' in jpai/agent/" + RESOURCE + " is not --add-exports=<module>/<package>=<target>");
        }
        return new PackageExport(flag.substring(PREFIX.length(), slash), flag.substring(slash + 1, equals));
    }
}
