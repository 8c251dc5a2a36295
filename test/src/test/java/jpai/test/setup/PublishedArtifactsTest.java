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
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;

import org.junit.jupiter.api.Test;

/**
 * What a public repository receives for each published artifact, as this build made it: beside its
 * jar, a {@code -sources} jar with its Java sources and a {@code -javadoc} jar (made by
 * maven-javadoc-plugin with doclint's checks, which fail the build on a broken reference). The
 * runtime's reference documents the module {@code jpai} and its one exported package, the API
 * {@code jpai}, and nothing of {@code jpai.runtime} (docs/api-surface.md). Needs no device.
 */
class PublishedArtifactsTest {

    /** A published jar, one of its classes, and that class's page in its javadoc jar. */
    private record Published(Path jar, String type, String page) {
    }

    /** Each published jar; the runtime's reference is the named module jpai's (pages under jpai/, the module's directory). */
    private static final List<Published> PUBLISHED = List.of(
                    new Published(JpaiJars.runtime(), "jpai/PArray", "jpai/jpai/PArray.html"),
                    new Published(JpaiJars.backend(), "jpai/ocl/KernelSource", "jpai/ocl/KernelSource.html"),
                    new Published(JpaiJars.compiler(), "jpai/compiler/KernelGraph", "jpai/compiler/KernelGraph.html"),
                    new Published(JpaiJars.agent(), "jpai/agent/JpaiAgent", "jpai/agent/JpaiAgent.html"));

    @Test
    void everyPublishedJarHasItsSourcesAndJavadocJarsBesideIt() throws IOException {
        for (Published artifact : PUBLISHED) {
            try (ZipFile sources = new ZipFile(attached(artifact.jar(), "sources").toFile())) {
                assertTrue(sources.getEntry(artifact.type() + ".java") != null, artifact.type() + ".java in " + sources.getName());
            }
            try (ZipFile javadoc = new ZipFile(attached(artifact.jar(), "javadoc").toFile())) {
                assertTrue(javadoc.getEntry("index.html") != null, "index.html in " + javadoc.getName());
                assertTrue(javadoc.getEntry(artifact.page()) != null, artifact.page() + " in " + javadoc.getName());
            }
        }
    }

    @Test
    void theRuntimesJavadocDocumentsTheApiPackageAlone() throws IOException {
        try (ZipFile javadoc = new ZipFile(attached(JpaiJars.runtime(), "javadoc").toFile())) {
            assertEquals(List.of("module:jpai", "jpai"), lines(javadoc, "element-list"), "the module and packages documented in " + javadoc.getName());
            assertTrue(javadoc.getEntry("jpai/module-summary.html") != null, "the module's page in " + javadoc.getName());
            for (String type : List.of("AF", "PArray", "ArrayFunction", "ApplyProfile", "FallbackException", "Accelerate", "Parallel", "Reduce")) {
                assertTrue(javadoc.getEntry("jpai/jpai/" + type + ".html") != null, type + " is documented in " + javadoc.getName());
            }
            List<String> runtimePages = javadoc.stream().map(ZipEntry::getName).filter(name -> name.contains("runtime")).toList();
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
