package jpai.agent;

import java.lang.classfile.ClassFile;
import java.lang.classfile.ClassModel;
import java.lang.instrument.ClassFileTransformer;
import java.security.ProtectionDomain;
import java.util.List;

import jpai.agent.AcceleratedMethodFinder.AcceleratedMethod;

/**
 * The agent's class transformer: a class with {@code @Accelerate} methods is rewritten as it loads
 * ({@link AcceleratedMethodRewriter}); every other class is left exactly as it is (the transformer
 * returns null, which the JVM reads as "unchanged"). A class without the annotation's name in its
 * constant pool is not even parsed.
 *
 * <p>Never throws: the JVM would swallow the exception and load the class unchanged anyway, with no
 * word to anyone. Any failure here is printed once, naming the class, and the class loads unchanged,
 * so its methods run as written.
 */
final class AcceleratedMethodsTransformer implements ClassFileTransformer {

    /** Null in unit tests that only rewrite bytes: no JVM's modules to change. */
    private final RuntimeEntryAccess runtimeAccess;

    AcceleratedMethodsTransformer() {
        this(null);
    }

    AcceleratedMethodsTransformer(RuntimeEntryAccess runtimeAccess) {
        this.runtimeAccess = runtimeAccess;
    }

    /**
     * The JVM's entry: rewrites as below and, for a class that is rewritten, lets its module reach the
     * runtime's entry point ({@link RuntimeEntryAccess}). If that fails, the class loads unchanged,
     * since its rewritten methods could not call the runtime.
     */
    @Override
    public byte[] transform(Module module, ClassLoader loader, String className, Class<?> classBeingRedefined, ProtectionDomain protectionDomain, byte[] classFile) {
        byte[] rewritten = transform(loader, className, classBeingRedefined, protectionDomain, classFile);
        if (rewritten == null || runtimeAccess == null) {
            return rewritten;
        }
        try {
            runtimeAccess.grantTo(module);
            return rewritten;
        } catch (Throwable e) {
            warn("jpai: WARNING: the agent could not let " + module + " call JPAI's runtime for the @Accelerate methods of " + javaName(className) + " (" + e
                            + "); the class loads unchanged and its methods run as written in Java");
            return null;
        }
    }

    @Override
    public byte[] transform(ClassLoader loader, String className, Class<?> classBeingRedefined, ProtectionDomain protectionDomain, byte[] classFile) {
        if (classBeingRedefined != null || classFile == null || !AcceleratedMethodFinder.mayMention(classFile)) {
            return null;
        }
        try {
            ClassModel model = ClassFile.of().parse(classFile);
            List<AcceleratedMethod> methods = AcceleratedMethodFinder.find(model);
            boolean interfaceClass = model.flags().has(java.lang.reflect.AccessFlag.INTERFACE);
            List<AcceleratedMethod> rewritten = new java.util.ArrayList<>();
            for (AcceleratedMethod method : methods) {
                if (!AcceleratedMethodRewriter.hasCode(method.method())) {
                    warn("jpai: " + javaName(className) + "." + method.name() + " is marked @Accelerate but has no body; it is left as it is");
                } else if (!method.isStatic() && interfaceClass) {
                    warn("jpai: " + javaName(className) + "." + method.name() + " is marked @Accelerate but is a default method of an interface; only static methods and"
                                    + " instance methods of classes are accelerated, so it runs as written");
                } else {
                    rewritten.add(method);
                }
            }
            if (rewritten.isEmpty()) {
                return null;
            }
            return AcceleratedMethodRewriter.rewrite(model, rewritten);
        } catch (Throwable e) {
            warn("jpai: WARNING: the agent could not rewrite the @Accelerate methods of " + javaName(className) + " (" + e
                            + "); the class loads unchanged and its methods run as written in Java");
            return null;
        }
    }

    private static void warn(String message) {
        System.err.println(message);
    }

    private static String javaName(String className) {
        return className == null ? "a class without a name" : className.replace('/', '.');
    }
}
