package jpai.test.fuzz;

import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.IOException;
import java.io.OutputStream;
import java.io.StringWriter;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BinaryOperator;
import java.util.function.Function;

import javax.tools.Diagnostic;
import javax.tools.DiagnosticCollector;
import javax.tools.FileObject;
import javax.tools.ForwardingJavaFileManager;
import javax.tools.JavaCompiler;
import javax.tools.JavaFileManager;
import javax.tools.JavaFileObject;
import javax.tools.SimpleJavaFileObject;
import javax.tools.StandardJavaFileManager;
import javax.tools.ToolProvider;

import jpai.Tuple2;

/**
 * Compiles generated programs with javac in this process, into memory ({@code -g}, so the lambdas
 * have source lines), and loads each batch with a fresh class loader whose parent sees the JPAI
 * API. Compiling a batch in one javac task amortises javac's start.
 */
final class InMemoryCompiler {

    /** The outcome of one batch: each program's lambda, or why it did not compile. */
    /** A reduction program's combiner and identity, from its class's {@code combiner()} and {@code identity()}. */
    record ReduceParts(BinaryOperator<Object> combiner, Object identity) {
    }

    record Batch(Map<String, Function<Object, Object>> lambdas, Map<String, ReduceParts> reductions, Map<String, String> errors) {
    }

    private final JavaCompiler javac;
    private final StandardJavaFileManager standard;
    private final List<String> options;

    InMemoryCompiler() {
        javac = ToolProvider.getSystemJavaCompiler();
        if (javac == null) {
            throw new IllegalStateException("no system Java compiler: run the fuzzer on a JDK, not a JRE");
        }
        standard = javac.getStandardFileManager(null, null, StandardCharsets.UTF_8);
        options = List.of("-g", "-proc:none", "-nowarn", "-Xlint:none", "-classpath", apiClassPath());
    }

    /** Where the jpai API classes are: a jar or a classes directory (the class path of a surefire fork may be a manifest jar). */
    private static String apiClassPath() {
        try {
            return Path.of(Tuple2.class.getProtectionDomain().getCodeSource().getLocation().toURI()).toString();
        } catch (URISyntaxException | RuntimeException e) {
            return System.getProperty("java.class.path", "");
        }
    }

    /** Compiles {@code programs} in one javac task; when that fails, one by one, so one bad program spoils nothing else. */
    Batch compile(List<Program> programs) {
        Map<String, String> errors = new LinkedHashMap<>();
        Map<String, byte[]> classes = new HashMap<>();
        String batchError = compileInto(programs, classes);
        if (batchError != null) {
            classes.clear();
            for (Program p : programs) {
                String error = compileInto(List.of(p), classes);
                if (error != null) {
                    errors.put(p.className(), error);
                }
            }
        }
        MemoryClassLoader loader = new MemoryClassLoader(classes, InMemoryCompiler.class.getClassLoader());
        Map<String, Function<Object, Object>> lambdas = new LinkedHashMap<>();
        Map<String, ReduceParts> reductions = new LinkedHashMap<>();
        for (Program p : programs) {
            if (errors.containsKey(p.className())) {
                continue;
            }
            try {
                Class<?> type = loader.loadClass(p.qualifiedName());
                @SuppressWarnings("unchecked")
                Function<Object, Object> f = (Function<Object, Object>) type.getMethod("make").invoke(null);
                lambdas.put(p.className(), f);
                if (p.reduction() != null) {
                    @SuppressWarnings("unchecked")
                    BinaryOperator<Object> combiner = (BinaryOperator<Object>) type.getMethod("combiner").invoke(null);
                    reductions.put(p.className(), new ReduceParts(combiner, type.getMethod("identity").invoke(null)));
                }
            } catch (ReflectiveOperationException | LinkageError e) {
                errors.put(p.className(), "could not load or make it: " + e);
            }
        }
        return new Batch(lambdas, reductions, errors);
    }

    private String compileInto(List<Program> programs, Map<String, byte[]> classes) {
        List<JavaFileObject> sources = new ArrayList<>();
        for (Program p : programs) {
            sources.add(new Source(p.qualifiedName(), p.source()));
        }
        DiagnosticCollector<JavaFileObject> diagnostics = new DiagnosticCollector<>();
        Map<String, byte[]> out = new HashMap<>();
        StringWriter log = new StringWriter();
        boolean ok = javac.getTask(log, new MemoryFileManager(standard, out), diagnostics, options, null, sources).call();
        if (!ok) {
            StringBuilder message = new StringBuilder();
            for (Diagnostic<? extends JavaFileObject> d : diagnostics.getDiagnostics()) {
                if (d.getKind() == Diagnostic.Kind.ERROR) {
                    message.append(d.getSource() == null ? "" : d.getSource().getName()).append(":").append(d.getLineNumber()).append(": ").append(d.getMessage(null)).append("\n");
                }
            }
            return message.append(log).toString().strip();
        }
        classes.putAll(out);
        return null;
    }

    private static final class Source extends SimpleJavaFileObject {
        private final String text;

        Source(String qualifiedName, String text) {
            super(URI.create("string:///" + qualifiedName.replace('.', '/') + Kind.SOURCE.extension), Kind.SOURCE);
            this.text = text;
        }

        @Override
        public CharSequence getCharContent(boolean ignoreEncodingErrors) {
            return text;
        }
    }

    private static final class MemoryFileManager extends ForwardingJavaFileManager<JavaFileManager> {
        private final Map<String, byte[]> out;

        MemoryFileManager(JavaFileManager standard, Map<String, byte[]> out) {
            super(standard);
            this.out = out;
        }

        @Override
        public JavaFileObject getJavaFileForOutput(Location location, String className, JavaFileObject.Kind kind, FileObject sibling) {
            return new SimpleJavaFileObject(URI.create("mem:///" + className.replace('.', '/') + kind.extension), kind) {
                @Override
                public OutputStream openOutputStream() {
                    return new ByteArrayOutputStream() {
                        @Override
                        public void close() throws IOException {
                            super.close();
                            out.put(className, toByteArray());
                        }
                    };
                }
            };
        }
    }

    private static final class MemoryClassLoader extends ClassLoader {
        private final Map<String, byte[]> classes;

        MemoryClassLoader(Map<String, byte[]> classes, ClassLoader parent) {
            super("jpai-fuzz", parent);
            this.classes = classes;
        }

        @Override
        protected Class<?> findClass(String name) throws ClassNotFoundException {
            byte[] bytes = classes.get(name);
            if (bytes == null) {
                throw new ClassNotFoundException(name);
            }
            return defineClass(name, bytes, 0, bytes.length);
        }
    }

    static String classPathSeparator() {
        return File.pathSeparator;
    }
}
