package jpai.test.loops;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;

/** Runs the original body the agent kept of a {@link LoopKernels} method: Java's behaviour, to compare with. */
final class OriginalBodies {

    /** What a call did: its result, or the exception it threw. */
    record Outcome(Object result, Throwable thrown) {
    }

    private OriginalBodies() {
    }

    static Outcome run(String name, Object... arguments) {
        return runOf(LoopKernels.class, name, arguments);
    }

    /** The original body of {@code owner}'s accelerated method {@code name}. */
    static Outcome runOf(Class<?> owner, String name, Object... arguments) {
        for (Method method : owner.getDeclaredMethods()) {
            if (method.getName().equals("jpai$original$" + name)) {
                method.setAccessible(true);
                try {
                    return new Outcome(method.invoke(null, arguments), null);
                } catch (InvocationTargetException e) {
                    return new Outcome(null, e.getCause());
                } catch (IllegalAccessException e) {
                    throw new AssertionError(e);
                }
            }
        }
        throw new AssertionError(owner.getSimpleName() + " has no original body of " + name + ": did the agent rewrite it?");
    }
}
