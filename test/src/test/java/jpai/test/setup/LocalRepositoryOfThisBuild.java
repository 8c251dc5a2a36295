package jpai.test.setup;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Map;

/**
 * A Maven local repository in which {@code dev.jpai:*:}<i>version</i> are this build's artifacts
 * (its jars and the checkout's poms), as {@code mvn install} would put them, and everything else
 * (JOCL, Graal, JUnit, Maven's plugins) is the real local repository's, linked, so that a build
 * against it works offline. Nothing of JPAI's is read from the real repository, whatever an older
 * install left there.
 */
final class LocalRepositoryOfThisBuild {

    private static final String GROUP_DIRECTORY = "dev";
    /** This build's version (the test module's POM passes it), which the examples project must name. */
    static final String VERSION = System.getProperty("jpai.version");

    private LocalRepositoryOfThisBuild() {
    }

    /** Makes the repository under {@code root}; {@code checkout} is JPAI's, {@code realRepository} the build's own. */
    static Path create(Path root, Path checkout, Path realRepository) throws IOException {
        Files.createDirectories(root);
        try (DirectoryStream<Path> entries = Files.newDirectoryStream(realRepository)) {
            for (Path entry : entries) {
                if (!entry.getFileName().toString().equals(GROUP_DIRECTORY)) {
                    Files.createSymbolicLink(root.resolve(entry.getFileName().toString()), entry.toAbsolutePath());
                }
            }
        }
        install(root, "jpai-parent", checkout.resolve("pom.xml"), null);
        Map<String, Path> jars = Map.of("compiler-phases", JpaiJars.compiler(), "ocl-backend", JpaiJars.backend(), "jpai-runtime", JpaiJars.runtime(), "jpai-agent",
                        JpaiJars.agent());
        for (Map.Entry<String, Path> artifact : jars.entrySet()) {
            install(root, artifact.getKey(), checkout.resolve(artifact.getKey()).resolve("pom.xml"), artifact.getValue());
        }
        return root;
    }

    private static void install(Path root, String artifactId, Path pom, Path jar) throws IOException {
        Path directory = root.resolve(GROUP_DIRECTORY).resolve("jpai").resolve(artifactId).resolve(VERSION);
        Files.createDirectories(directory);
        Files.copy(pom, directory.resolve(artifactId + "-" + VERSION + ".pom"), StandardCopyOption.REPLACE_EXISTING);
        if (jar != null) {
            Files.copy(jar, directory.resolve(artifactId + "-" + VERSION + ".jar"), StandardCopyOption.REPLACE_EXISTING);
        }
    }
}
