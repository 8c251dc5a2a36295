package jpai.runtime.loops;

import java.lang.invoke.MethodType;
import java.lang.reflect.Method;
import java.util.concurrent.ConcurrentHashMap;

import jpai.agent.MarkedLocal;
import jpai.compiler.LambdaDescription;
import jpai.FallbackException;

/**
 * What the agent's rewritten {@code @Accelerate} methods call (jpai-agent's
 * {@code AcceleratedMethodRewriter}): run the method's parallel loop on the device, or say that the
 * caller must run the original body ({@link #NOT_RUN}). Never throws, except a
 * {@link FallbackException} under {@code -Djpai.fallback=error}, and an
 * {@link IllegalStateException} when a {@code PArray} argument's contents from before the call could
 * not be restored on the device after an iteration exited (running the body in Java would then
 * compute from other data): any other failure of JPAI's own means the original body runs, which
 * gives Java's behaviour.
 */
public final class AcceleratedMethods {

    /** Returned when the caller must run the method's original body. */
    public static final Object NOT_RUN = new Object() {
        @Override
        public String toString() {
            return "NOT_RUN";
        }
    };

    private record Key(Class<?> owner, String name, String descriptor) {
    }

    private static final ConcurrentHashMap<Key, AcceleratedMethod> METHODS = new ConcurrentHashMap<>();

    private AcceleratedMethods() {
    }

    /**
     * Runs one call of {@code owner.name(descriptor)} on the device.
     *
     * @param markedLocals the method's {@code @Parallel} and {@code @Reduce} locals ({@link MarkedLocal#encode})
     * @param arguments the call's arguments, boxed
     * @return the method's result (boxed; null for void), or {@link #NOT_RUN}
     */
    public static Object invoke(Class<?> owner, String name, String descriptor, String markedLocals, Object[] arguments) {
        AcceleratedMethod method;
        try {
            method = METHODS.computeIfAbsent(new Key(owner, name, descriptor), key -> AcceleratedMethod.of(originalBody(owner, name, descriptor), MarkedLocal.decode(markedLocals)));
        } catch (RuntimeException | LinkageError e) {
            jpai.runtime.Explain.notice("WARNING: cannot accelerate " + owner.getName() + "." + name + " (" + e + "); it runs as written in Java");
            return NOT_RUN;
        }
        return method.call(arguments);
    }

    /** The original body the agent kept: {@code jpai$original$name}, private and static, of the same descriptor. */
    private static Method originalBody(Class<?> owner, String name, String descriptor) {
        MethodType type = MethodType.fromMethodDescriptorString(descriptor, owner.getClassLoader());
        try {
            return owner.getDeclaredMethod(LambdaDescription.ORIGINAL_BODY_PREFIX + name, type.parameterArray());
        } catch (NoSuchMethodException e) {
            throw new IllegalStateException(owner.getName() + " has no " + LambdaDescription.ORIGINAL_BODY_PREFIX + name + descriptor + ": was it rewritten by JPAI's agent?", e);
        }
    }
}
