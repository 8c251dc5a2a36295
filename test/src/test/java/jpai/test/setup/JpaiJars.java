package jpai.test.setup;

import java.io.File;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * The jars of this build that a user's JVM is started with: JPAI's, JOCL's and Graal's, found from
 * the test JVM (its class path and its upgrade module path). The child JVMs must get packaged jars,
 * as users do: {@code mvn verify} has made them before the tests of this module run.
 */
final class JpaiJars {

    private JpaiJars() {
    }

    static Path agent() {
        return jarOf(jpai.agent.JpaiAgent.class);
    }

    static Path runtime() {
        return jarOf(jpai.PArray.class);
    }

    static Path backend() {
        return jarOf(jpai.ocl.KernelSource.class);
    }

    static Path compiler() {
        return jarOf(jpai.compiler.KernelGraph.class);
    }

    static Path jocl() {
        return jarOf(org.jocl.CL.class);
    }

    /** JPAI's jars and JOCL's: what a user puts on the class path or the module path. */
    static List<Path> all() {
        return List.of(runtime(), backend(), compiler(), agent(), jocl());
    }

    /** The Graal jars this JVM runs with, as one --upgrade-module-path value. */
    static String graalModulePath() {
        String path = System.getProperty("jdk.module.upgrade.path");
        if (path == null || path.isEmpty()) {
            throw new IllegalStateException("the tests run without Graal on --upgrade-module-path (build/jpai.argfile): cannot give it to a child JVM");
        }
        return path;
    }

    /** The only flags a user of the agent writes, in the README's order. */
    static List<String> agentFlags() {
        return List.of("-javaagent:" + agent(), "-XX:+UnlockExperimentalVMOptions", "-XX:+EnableJVMCI", "--upgrade-module-path=" + graalModulePath());
    }

    static String classPath(List<Path> jars) {
        return String.join(File.pathSeparator, jars.stream().map(Path::toString).toList());
    }

    private static Path jarOf(Class<?> type) {
        try {
            Path path = Path.of(type.getProtectionDomain().getCodeSource().getLocation().toURI());
            if (!Files.isRegularFile(path) || !path.toString().endsWith(".jar")) {
                throw new IllegalStateException(type.getName() + " comes from " + path + ", not a jar: run the tests with mvn verify, which packages the modules first");
            }
            return path;
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }
}
