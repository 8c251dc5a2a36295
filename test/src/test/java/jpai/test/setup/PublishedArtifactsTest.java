package jpai.test.setup;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;

import org.junit.jupiter.api.Test;

/**
 * What a public repository receives for each published artifact, as this build made it: beside its
 * jar, a {@code -sources} jar with its Java sources and a {@code -javadoc} jar (made by
 * maven-javadoc-plugin with doclint's checks, which fail the build on a broken reference). The
 * runtime's reference documents the API, the package {@code jpai}, and nothing of
 * {@code jpai.runtime} (docs/api-surface.md). Needs no device.
 */
class PublishedArtifactsTest {

    /** Each published jar, with one class whose source and page its attached jars must hold. */
    private static final Map<String, Path> PUBLISHED = Map.of(
                    "jpai/PArray", JpaiJars.runtime(),
                    "jpai/ocl/KernelSource", JpaiJars.backend(),
                    "jpai/compiler/KernelGraph", JpaiJars.compiler(),
                    "jpai/agent/JpaiAgent", JpaiJars.agent());

    @Test
    void everyPublishedJarHasItsSourcesAndJavadocJarsBesideIt() throws IOException {
        for (Map.Entry<String, Path> artifact : PUBLISHED.entrySet()) {
            String type = artifact.getKey();
            try (ZipFile sources = new ZipFile(attached(artifact.getValue(), "sources").toFile())) {
                assertTrue(sources.getEntry(type + ".java") != null, type + ".java in " + sources.getName());
            }
            try (ZipFile javadoc = new ZipFile(attached(artifact.getValue(), "javadoc").toFile())) {
                assertTrue(javadoc.getEntry("index.html") != null, "index.html in " + javadoc.getName());
                assertTrue(javadoc.getEntry(type + ".html") != null, type + ".html in " + javadoc.getName());
            }
        }
    }

    @Test
    void theRuntimesJavadocDocumentsTheApiPackageAlone() throws IOException {
        try (ZipFile javadoc = new ZipFile(attached(JpaiJars.runtime(), "javadoc").toFile())) {
            assertEquals(List.of("jpai"), lines(javadoc, "element-list"), "the packages documented in " + javadoc.getName());
            for (String type : List.of("AF", "PArray", "ArrayFunction", "ApplyProfile", "FallbackException", "Accelerate", "Parallel", "Reduce")) {
                assertTrue(javadoc.getEntry("jpai/" + type + ".html") != null, type + " is documented in " + javadoc.getName());
            }
            List<String> runtimePages = javadoc.stream().map(ZipEntry::getName).filter(name -> name.startsWith("jpai/runtime")).toList();
            assertEquals(List.of(), runtimePages, "no page of the runtime's packages in " + javadoc.getName());
        }
    }

    /**
     * The attached jar of {@code jar} with {@code classifier}: its name with {@code -classifier}
     * before {@code .jar}, in the reactor's target/ and in the local repository alike.
     */
    private static Path attached(Path jar, String classifier) {
        String name = jar.getFileName().toString();
        assertTrue(name.endsWith(".jar"), name);
        Path attached = jar.resolveSibling(name.substring(0, name.length() - ".jar".length()) + "-" + classifier + ".jar");
        assertTrue(Files.isRegularFile(attached), "the build attached " + attached);
        assertFalse(attached.equals(jar), attached.toString());
        return attached;
    }

    private static List<String> lines(ZipFile zip, String entry) throws IOException {
        ZipEntry found = zip.getEntry(entry);
        assertTrue(found != null, entry + " in " + zip.getName());
        try (InputStream in = zip.getInputStream(found)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8).lines().map(String::strip).filter(line -> !line.isEmpty()).toList();
        }
    }
}
