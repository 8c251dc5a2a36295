package jpai.compiler;

import jdk.vm.ci.meta.ResolvedJavaMethod;

/**
 * Who a kernel comes from, for messages and dumps: the functional object's method that is compiled
 * ({@code apply} of the lambda's hidden class) and the method it forwards to (the body the user wrote,
 * {@code lambda$main$0} or the target of a method reference).
 *
 * @param entryMethod the single abstract method implemented by the functional object
 * @param bodyMethod the user's method the lambda forwards to, or {@code entryMethod} itself for a
 *            class that implements the interface directly
 * @param location where the body starts in the user's source
 */
public record LambdaDescription(ResolvedJavaMethod entryMethod, ResolvedJavaMethod bodyMethod, SourceLocation location) {

    /**
     * The prefix the agent gives the original body of an {@code @Accelerate} method when it rewrites
     * the method (jpai-agent's {@code AcceleratedMethodRewriter}); messages name the method the user
     * wrote, without it.
     */
    public static final String ORIGINAL_BODY_PREFIX = "jpai$original$";

    /** A short name for users: "lambda at Saxpy.java:42" or "Foo::bar at Foo.java:12". */
    public String displayName() {
        String name = methodName();
        if (name.startsWith("lambda$")) {
            return "lambda at " + location.shortForm();
        }
        return bodyMethod.getDeclaringClass().toJavaName(false) + "::" + name + " at " + location.shortForm();
    }

    /** A name usable as an OpenCL identifier and a file name. */
    public String identifier() {
        String base = bodyMethod.getDeclaringClass().toJavaName(false) + "_" + methodName() + "_" + Math.max(location.line(), 0);
        return base.replaceAll("[^A-Za-z0-9_]", "_");
    }

    /** The body method's name as the user wrote it. */
    public String methodName() {
        String name = bodyMethod.getName();
        return name.startsWith(ORIGINAL_BODY_PREFIX) ? name.substring(ORIGINAL_BODY_PREFIX.length()) : name;
    }

    @Override
    public String toString() {
        return displayName();
    }
}
