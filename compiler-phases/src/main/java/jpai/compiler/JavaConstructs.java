package jpai.compiler;

import jdk.graal.compiler.core.common.type.ObjectStamp;
import jdk.graal.compiler.graph.Node;
import jdk.graal.compiler.nodes.Invoke;
import jdk.graal.compiler.nodes.NodeView;
import jdk.graal.compiler.nodes.PhiNode;
import jdk.graal.compiler.nodes.ValueNode;
import jdk.graal.compiler.nodes.calc.ObjectEqualsNode;
import jdk.graal.compiler.nodes.extended.BoxNode;
import jdk.graal.compiler.nodes.extended.UnboxNode;
import jdk.graal.compiler.nodes.java.AbstractNewArrayNode;
import jdk.graal.compiler.nodes.java.AbstractNewObjectNode;
import jdk.graal.compiler.nodes.java.AccessFieldNode;
import jdk.graal.compiler.nodes.java.AccessIndexedNode;
import jdk.graal.compiler.nodes.java.InstanceOfNode;
import jdk.graal.compiler.nodes.java.LoadFieldNode;
import jdk.graal.compiler.nodes.java.MonitorEnterNode;
import jdk.graal.compiler.nodes.java.MonitorExitNode;
import jdk.graal.compiler.nodes.virtual.CommitAllocationNode;
import jdk.vm.ci.meta.ResolvedJavaMethod;
import jdk.vm.ci.meta.ResolvedJavaType;

/**
 * Names, in Java's terms, the construct a graph node stands for, so that a fallback's reason says
 * "a synchronized block" or "the allocation of a java.util.ArrayList", never a Graal node class
 * (users write Java, not graphs). Every message of the compiler and the backend about code kernels
 * cannot run goes through here; the source line comes with the exception
 * ({@link KernelBailoutException#at}).
 */
public final class JavaConstructs {

    private JavaConstructs() {
    }

    /** A noun phrase for what {@code node} does in the Java source: "a call of Foo.bar", "reading the field x of a Point". */
    public static String describe(Node node) {
        if (node instanceof Invoke invoke) {
            ResolvedJavaMethod target = invoke.getTargetMethod();
            return target == null ? "a call" : "a call of " + target.format("%h.%n(%p)");
        }
        if (node instanceof MonitorEnterNode || node instanceof MonitorExitNode || node instanceof jdk.graal.compiler.nodes.java.MonitorIdNode) {
            return "a synchronized block or method";
        }
        if (node instanceof jdk.graal.compiler.nodes.java.NewArrayNode array) {
            return "the allocation of an array (new " + javaName(array.elementType()) + "[...]) whose length is not a small constant";
        }
        if (node instanceof AbstractNewArrayNode) {
            return "the allocation of an array whose length is not a small constant";
        }
        if (node instanceof AbstractNewObjectNode || node instanceof CommitAllocationNode) {
            ResolvedJavaType type = typeOf(node);
            return "the allocation of " + (type == null ? "an object" : "a " + javaName(type));
        }
        if (node instanceof AccessFieldNode field) {
            String holder = javaName(field.field().getDeclaringClass());
            return (node instanceof LoadFieldNode ? "reading" : "writing") + " the field " + field.field().getName() + " of a " + holder;
        }
        if (node instanceof AccessIndexedNode indexed) {
            return "an element of an array of " + indexed.elementKind().getJavaName() + (indexed.elementKind().isObject() ? " objects" : " values") + " that is neither captured nor made in the function";
        }
        if (node instanceof InstanceOfNode test) {
            return "an instanceof test (" + javaName(test.type().getType()) + ")";
        }
        if (node instanceof ObjectEqualsNode) {
            return "comparing objects with ==";
        }
        if (node instanceof BoxNode box) {
            return "a boxed " + box.getBoxingKind().getJavaName() + " used as an object";
        }
        if (node instanceof UnboxNode unbox) {
            return "unboxing a " + unbox.getBoxingKind().toBoxedJavaClass().getSimpleName() + " that may be another object";
        }
        if (node instanceof PhiNode phi && !phi.getStackKind().isPrimitive()) {
            return "a variable that holds different objects on different paths";
        }
        if (node instanceof ValueNode value && !value.getStackKind().isPrimitive()) {
            ResolvedJavaType type = typeOf(node);
            return "an object" + (type == null ? "" : " of type " + javaName(type)) + " where kernels only have numbers and arrays";
        }
        return "an operation kernels cannot express yet";
    }

    private static ResolvedJavaType typeOf(Node node) {
        return node instanceof ValueNode value && value.stamp(NodeView.DEFAULT) instanceof ObjectStamp stamp ? stamp.type() : null;
    }

    private static String javaName(ResolvedJavaType type) {
        return type == null ? "object" : type.toJavaName();
    }
}
