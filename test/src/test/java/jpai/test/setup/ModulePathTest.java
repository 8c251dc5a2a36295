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
 * JPAI on the module path, used by a user's own module ({@code requires jpai;}), compiled here
 * against the named module {@code jpai}, which exports only the API: with
 * {@code opens demo.app to jpai;} its lambda runs on the device; without, it runs in Java, with a
 * reason that names the line to add, and never an {@code InaccessibleObjectException}. An
 * {@code @Accelerate} method of a module that only requires {@code jpai} runs on the device: the
 * agent exports the runtime's entry package to that module as it rewrites the class.
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

    private static final String ACCELERATED = """
                    package demo.app;

                    import java.util.Arrays;

                    import jpai.Accelerate;
                    import jpai.Parallel;

                    public class Main {
                        @Accelerate
                        static void saxpy(float a, float[] x, float[] y) {
                            for (@Parallel int i = 0; i < y.length; i++) {
                                y[i] = a * x[i] + y[i];
                            }
                        }

                        public static void main(String[] args) {
                            int n = 4096;
                            float[] x = new float[n];
                            float[] y = new float[n];
                            float[] expected = new float[n];
                            for (int i = 0; i < n; i++) {
                                x[i] = i * 0.25f;
                                y[i] = n - i;
                                expected[i] = 2.5f * x[i] + y[i];
                            }
                            saxpy(2.5f, x, y); // under -Djpai.fallback=error, a run in Java would throw
                            System.out.println("matches=" + Arrays.equals(y, expected));
                            System.out.println("rewritten=" + Arrays.stream(Main.class.getDeclaredMethods()).anyMatch(m -> m.getName().startsWith("jpai$original$")));
                        }
                    }
                    """;

    @Test
    void anAcceleratedMethodOfAModuleThatOnlyRequiresJpaiRunsOnTheDevice(@TempDir Path dir) throws Exception {
        ChildJvm.Run run = runModule(dir, "module demo.app { requires jpai; }", ACCELERATED, true);
        assertEquals(0, run.exitCode(), run.toString());
        assertTrue(run.out().contains("matches=true") && run.out().contains("rewritten=true"), run.toString());
        assertEquals(List.of(), run.jpaiLines(), run.toString());
    }

    @Test
    void aModuleInAJvmWithoutJvmciRunsInJavaAndIsToldTheFlags(@TempDir Path dir) throws Exception {
        // JVMCI and Graal are requires static in jpai's module-info: the module graph resolves without them.
        ChildJvm.Run run = runModule(dir, "module demo.app { requires jpai; opens demo.app to jpai; }", MAIN, false,
                        List.of("-javaagent:" + JpaiJars.agent(), "--enable-native-access=jocl"));
        assertEquals(0, run.exitCode(), run.toString());
        assertTrue(run.out().contains("matches=true") && run.out().contains("fellBack=true"), run.toString());
        assertEquals(1, run.jpaiLines().size(), "one line: " + run);
        assertTrue(run.jpaiLines().get(0).contains("add -XX:+UnlockExperimentalVMOptions -XX:+EnableJVMCI --upgrade-module-path="), run.toString());
        assertFalse(run.err().contains("\tat ") || run.err().contains("Exception"), "no stack trace: " + run);
    }

    @Test
    void theRuntimesPackagesAreNotExportedToAUserModule(@TempDir Path dir) throws Exception {
        Path sources = dir.resolve("src");
        Files.createDirectories(sources.resolve("demo/app"));
        Files.writeString(sources.resolve("module-info.java"), "module demo.app { requires jpai; }");
        Files.writeString(sources.resolve("demo/app/Main.java"), "package demo.app; class Main { jpai.runtime.loops.AcceleratedMethods internal; }");
        StringWriter errors = new StringWriter();
        boolean compiled = compile(sources, dir.resolve("classes"), errors);
        assertFalse(compiled, "a user module cannot use the runtime's packages");
        assertTrue(errors.toString().contains("package jpai.runtime.loops is declared in module jpai, which does not export it"), errors.toString());
    }

    @Test
    void aModuleThatOpensItsPackageToJpaiRunsOnTheDevice(@TempDir Path dir) throws Exception {
        ChildJvm.Run run = runModule(dir, "module demo.app { requires jpai; opens demo.app to jpai; }", MAIN, true);
        assertEquals(0, run.exitCode(), run.toString());
        assertTrue(run.out().contains("matches=true") && run.out().contains("fellBack=false"), run.toString());
        assertFalse(run.out().contains("kernels=0"), "a kernel was launched: " + run);
        assertEquals(List.of(), run.jpaiLines(), run.toString());
    }

    @Test
    void aModuleThatDoesNotOpenItsPackageRunsInJavaAndIsToldTheOpensLine(@TempDir Path dir) throws Exception {
        ChildJvm.Run run = runModule(dir, "module demo.app { requires jpai; }", MAIN, false);
        assertEquals(0, run.exitCode(), run.toString());
        assertTrue(run.out().contains("matches=true") && run.out().contains("fellBack=true"), run.toString());
        assertEquals(1, run.jpaiLines().size(), "one line: " + run);
        assertTrue(run.jpaiLines().get(0).contains("module demo.app does not open package demo.app to JPAI; add 'opens demo.app to jpai;' to its module-info.java"),
                        run.toString());
        assertFalse(run.err().contains("InaccessibleObjectException") || run.err().contains("\tat "), "no exception: " + run);
    }

    /** Compiles the module with {@code moduleInfo} and {@code main}, and runs it with the agent's flags on the module path. */
    private static ChildJvm.Run runModule(Path dir, String moduleInfo, String main, boolean fallbackIsError) throws IOException, InterruptedException {
        List<String> flags = new ArrayList<>(JpaiJars.agentFlags());
        flags.add("--enable-native-access=jocl");
        return runModule(dir, moduleInfo, main, fallbackIsError, flags);
    }

    /** The same with the JVM flags {@code flags} instead of the README's. */
    private static ChildJvm.Run runModule(Path dir, String moduleInfo, String main, boolean fallbackIsError, List<String> flags) throws IOException, InterruptedException {
        Path sources = dir.resolve("src");
        Files.createDirectories(sources.resolve("demo/app"));
        Files.writeString(sources.resolve("module-info.java"), moduleInfo);
        Files.writeString(sources.resolve("demo/app/Main.java"), main);
        Path classes = dir.resolve("classes");
        String modulePath = JpaiJars.classPath(JpaiJars.all());
        StringWriter errors = new StringWriter();
        assertTrue(compile(sources, classes, errors), "the user module compiles against JPAI's modules: " + errors);
        List<String> arguments = new ArrayList<>(flags);
        if (fallbackIsError) {
            arguments.add("-Djpai.fallback=error");
        }
        arguments.addAll(List.of("-p", modulePath + File.pathSeparator + classes, "-m", "demo.app/demo.app.Main"));
        return ChildJvm.java(arguments);
    }

    /**
     * javac of the user module under {@code sources} against JPAI's jars on the module path, and
     * nothing on the class path (by default it would be this JVM's, where JPAI's jars are too).
     */
    private static boolean compile(Path sources, Path classes, StringWriter errors) {
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        return javac.getTask(errors, null, null, List.of("-p", JpaiJars.classPath(JpaiJars.all()), "-cp", classes.toString(), "-d", classes.toString()), null,
                        javac.getStandardFileManager(null, null, null).getJavaFileObjects(sources.resolve("module-info.java"), sources.resolve("demo/app/Main.java"))).call();
    }
}
