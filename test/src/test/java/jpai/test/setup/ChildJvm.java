package jpai.test.setup;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * Starts a program the way a user would, in a JVM (or any command) of its own with exactly the
 * arguments given: none of this JVM's flags are passed on. HotSpot's signal-chaining library is
 * preloaded as the README says, so the only {@code jpai:} lines are about what the arguments lack.
 */
final class ChildJvm {

    /** What the command printed and how it ended. */
    record Run(int exitCode, String out, String err) {

        /** Standard error's lines from JPAI ({@code jpai: ...}). */
        List<String> jpaiLines() {
            return err.lines().filter(line -> line.startsWith("jpai:")).toList();
        }

        @Override
        public String toString() {
            return "exit " + exitCode + "\n--- stdout\n" + out + "\n--- stderr\n" + err;
        }
    }

    private ChildJvm() {
    }

    static String java() {
        return Path.of(System.getProperty("java.home"), "bin", "java").toString();
    }

    static String libjsig() {
        return Path.of(System.getProperty("java.home"), "lib", "libjsig.so").toString();
    }

    /** Runs {@code java arguments...}. */
    static Run java(List<String> arguments) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>();
        command.add(java());
        command.addAll(arguments);
        return run(command, null, 300);
    }

    /** Runs {@code command} in {@code directory} (null: this one), with JAVA_HOME this JVM's and libjsig preloaded; fails after {@code seconds}. */
    static Run run(List<String> command, File directory, int seconds) throws IOException, InterruptedException {
        ProcessBuilder builder = new ProcessBuilder(command).directory(directory);
        builder.environment().put("LD_PRELOAD", libjsig());
        builder.environment().put("JAVA_HOME", System.getProperty("java.home"));
        Process process = builder.start();
        process.getOutputStream().close();
        // Both streams read at once: a child that fills one pipe while we wait on the other would hang.
        CompletableFuture<String> out = read(process.getInputStream());
        CompletableFuture<String> err = read(process.getErrorStream());
        boolean ended = process.waitFor(seconds, TimeUnit.SECONDS);
        if (!ended) {
            process.destroyForcibly();
        }
        assertTrue(ended, "did not end within " + seconds + " s: " + command);
        return new Run(process.exitValue(), out.join(), err.join());
    }

    private static CompletableFuture<String> read(java.io.InputStream stream) {
        return CompletableFuture.supplyAsync(() -> {
            try {
                return new String(stream.readAllBytes(), StandardCharsets.UTF_8);
            } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        });
    }
}
