package jpai.compiler;

import jdk.graal.compiler.graph.NodeSourcePosition;
import jdk.vm.ci.meta.ResolvedJavaMethod;

/**
 * A place in the user's Java source: class, method, file and line, as a user reads it in a
 * message ("Saxpy.java:42").
 */
public record SourceLocation(String className, String methodName, String fileName, int line) {

    public static final SourceLocation UNKNOWN = new SourceLocation("?", "?", null, -1);

    /** The location of {@code bci} in {@code method}, from its line number table. */
    public static SourceLocation of(ResolvedJavaMethod method, int bci) {
        StackTraceElement element = method.asStackTraceElement(Math.max(bci, 0));
        return new SourceLocation(element.getClassName(), element.getMethodName(), element.getFileName(), element.getLineNumber());
    }

    /**
     * The outermost frame of an inlined position that lies in user code: a node inlined from
     * {@code Math.sqrt} called at {@code Foo.java:12} reports {@code Foo.java:12}, which is what the
     * user wrote. Falls back to the innermost frame.
     */
    public static SourceLocation of(NodeSourcePosition position) {
        if (position == null) {
            return UNKNOWN;
        }
        NodeSourcePosition innermostUser = null;
        for (NodeSourcePosition frame = position; frame != null; frame = frame.getCaller()) {
            if (!isJdkOrSynthetic(frame.getMethod()) && innermostUser == null) {
                innermostUser = frame;
            }
        }
        NodeSourcePosition chosen = innermostUser != null ? innermostUser : position;
        return of(chosen.getMethod(), chosen.getBCI());
    }

    private static boolean isJdkOrSynthetic(ResolvedJavaMethod method) {
        String holder = method.getDeclaringClass().toJavaName();
        return holder.startsWith("java.") || holder.startsWith("jdk.") || holder.startsWith("sun.") || holder.contains("$$Lambda");
    }

    /** "Saxpy.java:42", or the class name when the class has no debug information. */
    public String shortForm() {
        if (fileName == null) {
            return simpleClassName() + "." + methodName;
        }
        return line >= 0 ? fileName + ":" + line : fileName;
    }

    private String simpleClassName() {
        int dot = className.lastIndexOf('.');
        return dot < 0 ? className : className.substring(dot + 1);
    }

    @Override
    public String toString() {
        return shortForm();
    }
}
