package jpai.test.setup;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.io.IOException;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfEnvironmentVariable;
import org.junit.jupiter.api.io.TempDir;

/**
 * JPAI on the module path, used by a user's own module ({@code requires jpai;}), compiled here: with
 * {@code opens demo.app to jpai;} its lambda runs on the device; without, it runs in Java, with a
 * reason that names the line to add, and never an {@code InaccessibleObjectException}.
 */
@EnabledIfEnvironmentVariable(named = "JPAI_EXPECT_OPENCL", matches = "1")
class ModulePathTest {

    private static final String MAIN = """
                    package demo.app;

                    import jpai.AF;
                    import jpai.PArray;

                    public class Main {
                        public static void main(String[] args) {
                            float scale = 3.0f; // captured: JPAI reads it from the lambda's field
                            float[] values = new float[1000];
                            for (int i = 0; i < values.length; i++) {
                                values[i] = i * 0.5f;
                            }
                            float[] result;
                            try (PArray<Float> in = PArray.of(values); PArray<Float> out = AF.map((Float x) -> x * scale + 1.0f).apply(in)) {
                                result = out.toFloatArray();
                            }
                            boolean matches = true;
                            for (int i = 0; i < values.length; i++) {
                                matches &= result[i] == values[i] * scale + 1.0f;
                            }
                            System.out.println("matches=" + matches);
                            System.out.println("kernels=" + AF.lastProfile().kernelCount());
                            System.out.println("fellBack=" + AF.lastProfile().fellBack());
                        }
                    }
                    """;

    @Test
    void aModuleThatOpensItsPackageToJpaiRunsOnTheDevice(@TempDir Path dir) throws Exception {
        ChildJvm.Run run = runModule(dir, "module demo.app { requires jpai; opens demo.app to jpai; }", true);
        assertEquals(0, run.exitCode(), run.toString());
        assertTrue(run.out().contains("matches=true") && run.out().contains("fellBack=false"), run.toString());
        assertFalse(run.out().contains("kernels=0"), "a kernel was launched: " + run);
        assertEquals(List.of(), run.jpaiLines(), run.toString());
    }

    @Test
    void aModuleThatDoesNotOpenItsPackageRunsInJavaAndIsToldTheOpensLine(@TempDir Path dir) throws Exception {
        ChildJvm.Run run = runModule(dir, "module demo.app { requires jpai; }", false);
        assertEquals(0, run.exitCode(), run.toString());
        assertTrue(run.out().contains("matches=true") && run.out().contains("fellBack=true"), run.toString());
        assertEquals(1, run.jpaiLines().size(), "one line: " + run);
        assertTrue(run.jpaiLines().get(0).contains("module demo.app does not open package demo.app to JPAI; add 'opens demo.app to jpai;' to its module-info.java"),
                        run.toString());
        assertFalse(run.err().contains("InaccessibleObjectException") || run.err().contains("\tat "), "no exception: " + run);
    }

    /** Compiles the module with {@code moduleInfo} and runs it with the agent's flags on the module path. */
    private static ChildJvm.Run runModule(Path dir, String moduleInfo, boolean fallbackIsError) throws IOException, InterruptedException {
        Path sources = dir.resolve("src");
        Files.createDirectories(sources.resolve("demo/app"));
        Files.writeString(sources.resolve("module-info.java"), moduleInfo);
        Files.writeString(sources.resolve("demo/app/Main.java"), MAIN);
        Path classes = dir.resolve("classes");
        String modulePath = JpaiJars.classPath(JpaiJars.all());
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        StringWriter errors = new StringWriter();
        int compiled = javac.getTask(errors, null, null, List.of("-p", modulePath, "-d", classes.toString()), null,
                        javac.getStandardFileManager(null, null, null).getJavaFileObjects(sources.resolve("module-info.java"), sources.resolve("demo/app/Main.java"))).call()
                                        ? 0 : 1;
        assertEquals(0, compiled, "the user module compiles against JPAI's automatic modules: " + errors);
        List<String> arguments = new ArrayList<>(JpaiJars.agentFlags());
        arguments.add("--enable-native-access=jocl");
        if (fallbackIsError) {
            arguments.add("-Djpai.fallback=error");
        }
        arguments.addAll(List.of("-p", modulePath + File.pathSeparator + classes, "-m", "demo.app/demo.app.Main"));
        return ChildJvm.java(arguments);
    }
}
