package jpai.compiler.loops;

import jdk.graal.compiler.graph.Node;
import jdk.graal.compiler.nodes.ParameterNode;
import jdk.graal.compiler.nodes.PiNode;
import jdk.graal.compiler.nodes.StructuredGraph;
import jdk.graal.compiler.nodes.ValueNode;
import jdk.graal.compiler.nodes.java.AbstractNewObjectNode;
import jdk.graal.compiler.nodes.java.LoadFieldNode;
import jdk.graal.compiler.nodes.java.LoadIndexedNode;
import jdk.graal.compiler.nodes.java.StoreFieldNode;
import jdk.graal.compiler.nodes.java.StoreIndexedNode;
import jpai.compiler.KernelBailoutException;

/**
 * The writes an accelerated instance method's kernel cannot make: to a field of an object (its
 * receiver's, or one reached through it), and into an array read from a field. A kernel has the
 * values of the receiver's fields, read at each call, not the objects: a field written by one
 * iteration and read by another, or an array element written through a field, would not reach
 * Java's objects. The method then runs as written, with the field named.
 */
public final class ReceiverWrites {

    private ReceiverWrites() {
    }

    /** Refuses {@code graph} (an instance method's, before the loop is found) if it writes a field or an array read from a field. */
    public static void refuse(StructuredGraph graph) {
        for (Node node : graph.getNodes()) {
            if (node instanceof StoreFieldNode store && !store.field().isStatic() && !(skipPi(store.object()) instanceof AbstractNewObjectNode)) {
                // (an object the method allocates itself is its own: escape analysis removes it)
                throw KernelBailoutException.at(store, "the method writes the field " + store.field().getName() + " of " + (isReceiver(store.object()) ? "this" : "an object")
                                + "; a kernel has the values of this's fields, read at each call, so a field written in the parallel loop would not reach the object");
            }
            if (node instanceof StoreIndexedNode store && fieldHolding(store.array()) instanceof LoadFieldNode read) {
                throw KernelBailoutException.at(store, "the method writes into the array in the field " + read.field().getName()
                                + "; a kernel has a copy of the arrays in this's fields, read at each call; pass the array as a parameter, whose writes come back");
            }
        }
    }

    private static boolean isReceiver(ValueNode value) {
        return skipPi(value) instanceof ParameterNode parameter && parameter.index() == 0;
    }

    /** The field read that {@code array} (or the 2-D array whose row it is) comes from, or null. */
    private static LoadFieldNode fieldHolding(ValueNode array) {
        ValueNode bare = skipPi(array);
        if (bare instanceof LoadIndexedNode row) {
            bare = skipPi(row.array());
        }
        return bare instanceof LoadFieldNode read ? read : null;
    }

    private static ValueNode skipPi(ValueNode value) {
        ValueNode node = value;
        while (node instanceof PiNode pi) {
            node = pi.getOriginalNode();
        }
        return node;
    }
}
