package jpai.compiler;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

import jdk.graal.compiler.nodes.ValueNode;
import jdk.graal.compiler.nodes.PiNode;
import jdk.graal.compiler.core.common.type.IntegerStamp;
import jdk.graal.compiler.core.common.type.StampFactory;
import jdk.graal.compiler.core.common.type.StampPair;
import jdk.graal.compiler.core.common.type.TypeReference;
import jdk.graal.compiler.nodes.ParameterNode;
import jdk.graal.compiler.nodes.StructuredGraph;
import jdk.vm.ci.meta.ResolvedJavaType;

/**
 * Which parameter node of a kernel graph stands for which input of the kernel function: one per
 * captured value (and, for a captured array, one more for its length) and one per primitive
 * component of each argument. The phases that create these parameters record them here; a
 * backend names them by their place, not by their {@link ParameterNode#index()}.
 *
 * <p>A value the function never reads has no node (or a dead one, after dead code elimination):
 * its kernel parameter still exists, so that the kernel's signature depends only on the
 * {@link KernelSignature}, but nothing reads it.
 */
public final class KernelInputs {

    /** First {@link ParameterNode#index()} of the parameters made for captured values; only for readable dumps. */
    static final int CAPTURE_INDEX_BASE = 1000;
    /** First {@link ParameterNode#index()} of the parameters made for argument components. */
    static final int COMPONENT_INDEX_BASE = 2000;

    private final ParameterNode[] captures;
    private final ParameterNode[] captureLengths;
    private final List<List<ParameterNode>> argumentComponents;

    public KernelInputs(KernelSignature signature) {
        captures = new ParameterNode[signature.captures().size()];
        captureLengths = new ParameterNode[signature.captures().size()];
        argumentComponents = new ArrayList<>();
        for (ValueShape argument : signature.arguments()) {
            argumentComponents.add(new ArrayList<>(Collections.nCopies(argument.components().size(), null)));
        }
    }

    /** The parameter holding captured value {@code capture} (an array for array shapes), or null if unread. */
    public ParameterNode capture(int capture) {
        return captures[capture];
    }

    /** The {@code int} parameter holding the length of captured array {@code capture}, or null if unread. */
    public ParameterNode captureLength(int capture) {
        return captureLengths[capture];
    }

    /** The parameter holding component {@code component} of argument {@code argument} (0-based), or null if unread. */
    public ParameterNode argumentComponent(int argument, int component) {
        return argumentComponents.get(argument).get(component);
    }

    /**
     * The parameter holding captured array {@code capture} (a non-null array of exactly
     * {@code arrayType}), created and recorded on first use. Captured primitive arrays and element
     * readers both become such a parameter.
     */
    public ParameterNode arrayCapture(StructuredGraph graph, int capture, ResolvedJavaType arrayType) {
        if (captures[capture] == null) {
            captures[capture] = graph.addWithoutUnique(new ParameterNode(captureIndex(capture, false),
                            StampPair.createSingle(StampFactory.objectNonNull(TypeReference.createExactTrusted(arrayType)))));
        }
        return captures[capture];
    }

    /** The {@code int} parameter holding the length of captured array {@code capture}, created and recorded on first use. */
    public ParameterNode arrayCaptureLength(StructuredGraph graph, int capture) {
        if (captureLengths[capture] == null) {
            // -1 stands for a null array (the runtime passes it; the array's null checks test it), so
            // the stamp starts there: a length the kernel reads after a null check is never negative.
            captureLengths[capture] = graph.addWithoutUnique(new ParameterNode(captureIndex(capture, true), StampPair.createSingle(IntegerStamp.create(32, -1, Integer.MAX_VALUE))));
        }
        return captureLengths[capture];
    }

    /**
     * The length of captured array {@code capture} where the array is known to exist: its length
     * parameter seen as never negative (a stamp the bounds-check hoisting and the canonicaliser rely
     * on). Every such use comes after the array's null check, which tests the parameter for -1.
     */
    public ValueNode arrayCaptureLengthOfPresentArray(StructuredGraph graph, int capture) {
        return graph.addOrUniqueWithInputs(PiNode.create(arrayCaptureLength(graph, capture), IntegerStamp.create(32, 0, Integer.MAX_VALUE)));
    }

    public void setCapture(int capture, ParameterNode node) {
        captures[capture] = node;
    }

    public void setCaptureLength(int capture, ParameterNode node) {
        captureLengths[capture] = node;
    }

    public void setArgumentComponent(int argument, int component, ParameterNode node) {
        argumentComponents.get(argument).set(component, node);
    }

    /** A parameter index for the graph dump: captures from 1000, argument components from 2000. */
    public static int captureIndex(int capture, boolean length) {
        return CAPTURE_INDEX_BASE + 2 * capture + (length ? 1 : 0);
    }

    /** A parameter index for the graph dump of component {@code component} of argument {@code argument}. */
    public static int componentIndex(int argument, int component) {
        return COMPONENT_INDEX_BASE + 100 * argument + component;
    }
}
