package jpai.test.plugins;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.function.Function;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import jpai.AF;
import jpai.Executor;
import jpai.PArray;
import jpai.FallbackException;
import jpai.ApplyProfile;

/**
 * A plugin that throws, or a plugin class that cannot be loaded, never stops an operation: it runs
 * in Java, gives Java's result, and the reason (in {@code AF.lastProfile()}, with
 * {@code -Djpai.explain=true}, in {@code FallbackException} under {@code -Djpai.fallback=error})
 * names the plugin; standard error says it once even without {@code -Djpai.explain}.
 */
class PhasePluginFailureTest {

    @AfterEach
    void clear() {
        System.clearProperty("jpai.phases");
        System.clearProperty("jpai.explain");
        System.clearProperty("jpai.fallback");
    }

    /** What {@code run} printed on standard error. */
    static String standardError(Runnable run) {
        PrintStream err = System.err;
        ByteArrayOutputStream captured = new ByteArrayOutputStream();
        System.setErr(new PrintStream(captured, true, StandardCharsets.UTF_8));
        try {
            run.run();
        } finally {
            System.setErr(err);
        }
        return captured.toString(StandardCharsets.UTF_8);
    }

    static List<String> jpaiLines(String err) {
        return err.lines().filter(line -> line.startsWith("jpai:")).toList();
    }

    @Test
    void aThrowingPluginFallsBackToJavaWithThePluginNamed() {
        assumeTrue(PhasePluginExampleTest.openCLExpected(), "the plugin runs when a kernel is compiled, which needs a device");
        String plugin = ThrowingPhase.class.getName();
        System.setProperty("jpai.phases", "after-high-tier:" + plugin);
        Function<Integer, Integer> f = x -> x * 3 + 1;
        String said = standardError(() -> {
            try (PArray<Integer> in = PArray.of(1, 2, -3); PArray<Integer> out = AF.map(f, Integer.class).on(Executor.ACCELERATOR).apply(in)) {
                assertArrayEquals(new int[] {4, 7, -8}, out.toIntArray());
                ApplyProfile profile = AF.lastProfile();
                assertTrue(profile.fellBack(), profile.toString());
                assertTrue(profile.fallbackReason().startsWith("the phase plugin " + plugin + " (after Graal high tier) failed: java.lang.IllegalStateException: a bug in a research phase at "),
                                profile.fallbackReason());
            }
        });
        List<String> lines = jpaiLines(said);
        assertEquals(1, lines.size(), "said once, without -Djpai.explain: " + said);
        assertTrue(lines.get(0).contains("the phase plugin " + plugin + " (after Graal high tier) failed") && lines.get(0).contains("PhasePluginFailureTest.java")
                        && lines.get(0).endsWith("the operation runs in Java"), lines.get(0));

        System.setProperty("jpai.explain", "true");
        Function<Integer, Integer> g = x -> x - 1;
        String explained = standardError(() -> {
            try (PArray<Integer> in = PArray.of(5); PArray<Integer> out = AF.map(g, Integer.class).on(Executor.ACCELERATOR).apply(in)) {
                assertEquals(4, out.get(0));
            }
        });
        assertTrue(explained.contains("runs on Java threads: the phase plugin " + plugin + " (after Graal high tier) failed"), explained);

        System.setProperty("jpai.fallback", "error");
        Function<Integer, Integer> h = x -> x ^ 5;
        try (PArray<Integer> in = PArray.of(5)) {
            FallbackException e = assertThrows(FallbackException.class, () -> AF.map(h, Integer.class).on(Executor.ACCELERATOR).apply(in).close());
            assertTrue(e.getMessage().contains("the phase plugin " + plugin), e.getMessage());
        }
    }

    @Test
    void aPluginClassThatCannotBeLoadedIsOneLineNamingItAndTheProperty() {
        assumeTrue(PhasePluginExampleTest.openCLExpected(), "plugins are loaded when a kernel is compiled, which needs a device");
        System.setProperty("jpai.phases", "after-high-tier:com.example.NoSuchPhase");
        Function<Integer, Integer> f = x -> x + 2;
        String said = standardError(() -> {
            for (int round = 0; round < 2; round++) {
                try (PArray<Integer> in = PArray.of(1, 2); PArray<Integer> out = AF.map(f, Integer.class).on(Executor.ACCELERATOR).apply(in)) {
                    assertArrayEquals(new int[] {3, 4}, out.toIntArray());
                    assertTrue(AF.lastProfile().fellBack());
                    assertTrue(AF.lastProfile().fallbackReason().contains("com.example.NoSuchPhase named in -Djpai.phases"), AF.lastProfile().fallbackReason());
                }
            }
        });
        assertEquals(List.of("jpai: the phase plugin class com.example.NoSuchPhase named in -Djpai.phases (entry 'after-high-tier:com.example.NoSuchPhase') cannot be loaded: "
                        + "it is not on the class path; no kernel is compiled until it is fixed"), jpaiLines(said), "one line, once: " + said);
        assertFalse(said.contains("\tat "), "no stack trace: " + said);
    }
}
