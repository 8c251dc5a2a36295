package jpai;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import javax.tools.DocumentationTool;
import javax.tools.ToolProvider;

import org.junit.jupiter.api.Test;

/**
 * The API's reference a user reads: the JDK's javadoc over the package {@code jpai} alone, with
 * doclint's checks (broken links and references, bad HTML, wrong tags; missing comments are not
 * errors), into {@code target/apidocs}. Fails on any error or warning, and if the pages document
 * anything but {@code jpai}. Run here because maven-javadoc-plugin is not in the offline repository
 * the build works from, so no {@code -javadoc} jar is attached (README, "Published artifacts").
 */
class ApiJavadocTest {

    @Test
    void theApiPackageDocumentsCleanlyAndAlone() throws IOException {
        Path output = Path.of("target", "apidocs");
        deleteTree(output);
        List<String> options = new ArrayList<>(graalModuleOptions());
        options.addAll(List.of(
                "-Xdoclint:all,-missing", "-Werror", "-quiet", "-notimestamp",
                "-d", output.toString(),
                "-sourcepath", Path.of("src", "main", "java").toString(),
                "-classpath", System.getProperty("java.class.path"),
                "jpai"));
        DocumentationTool javadoc = ToolProvider.getSystemDocumentationTool();
        StringWriter messages = new StringWriter();
        boolean documented = javadoc.getTask(messages, null, null, null, options, null).call();

        assertTrue(documented, "javadoc of the jpai package failed:\n" + messages);
        assertEquals("", messages.toString().strip(), "javadoc of the jpai package warned");
        assertEquals(List.of("jpai"), Files.readAllLines(output.resolve("element-list")), "the reference documents only the API package");
        for (String type : List.of("AF", "PArray", "ArrayFunction", "ApplyProfile", "FallbackException", "Accelerate")) {
            assertTrue(Files.exists(output.resolve("jpai").resolve(type + ".html")), type + " is documented");
        }
        try (Stream<Path> files = Files.walk(output)) {
            assertFalse(files.anyMatch(path -> path.toString().contains("runtime")), "no runtime package is documented");
        }
    }

    /**
     * The flags that let javadoc read the runtime's sources, which import JVMCI and Graal: the
     * build's javac argfile (Graal on the upgrade module path, the exports), one option per line.
     */
    private static List<String> graalModuleOptions() throws IOException {
        for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
            Path argfile = dir.resolve("build").resolve("javac.argfile");
            if (Files.isRegularFile(argfile)) {
                return Files.readAllLines(argfile).stream().map(String::strip).filter(line -> !line.isEmpty()).toList();
            }
        }
        throw new AssertionError("build/javac.argfile not found above " + Path.of("").toAbsolutePath() + ": the build writes it first");
    }

    private static void deleteTree(Path root) throws IOException {
        if (!Files.exists(root)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(root)) {
            for (Path path : paths.sorted(java.util.Comparator.reverseOrder()).toList()) {
                Files.delete(path);
            }
        }
    }
}
