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
 * captured value (and, for a captured array, one more for its length; for a 2-D array one more for
 * the length of its rows) and one per primitive
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

    private final List<CapturedValue> capturedValues;
    private final List<ParameterNode> captures;
    private final List<ParameterNode> captureLengths;
    private final List<ParameterNode> captureRowLengths;
    private final List<List<ParameterNode>> argumentComponents;

    public KernelInputs(KernelSignature signature) {
        capturedValues = new ArrayList<>(signature.captures());
        captures = new ArrayList<>(Collections.nCopies(capturedValues.size(), null));
        captureLengths = new ArrayList<>(Collections.nCopies(capturedValues.size(), null));
        captureRowLengths = new ArrayList<>(Collections.nCopies(capturedValues.size(), null));
        argumentComponents = new ArrayList<>();
        for (ValueShape argument : signature.arguments()) {
            argumentComponents.add(new ArrayList<>(Collections.nCopies(argument.components().size(), null)));
        }
    }

    /**
     * The values the kernel reads besides its arguments, in slot order: the signature's captures,
     * then the static arrays the compiler found ({@link #addStaticArray}).
     */
    public List<CapturedValue> captures() {
        return List.copyOf(capturedValues);
    }

    /**
     * A static array the function reads, as a new captured value (the runtime sends its elements at
     * each apply); returns its slot. One slot per array object.
     */
    public int addStaticArray(Object array, ValueShape.PrimitiveArray shape) {
        for (int k = 0; k < capturedValues.size(); k++) {
            if (capturedValues.get(k).staticArray() == array) {
                return k;
            }
        }
        capturedValues.add(CapturedValue.ofStaticArray(array, shape));
        captures.add(null);
        captureLengths.add(null);
        captureRowLengths.add(null);
        return capturedValues.size() - 1;
    }

    /** The parameter holding captured value {@code capture} (an array for array shapes), or null if unread. */
    public ParameterNode capture(int capture) {
        return captures.get(capture);
    }

    /** The {@code int} parameter holding the length of captured array {@code capture} (its rows for a 2-D one), or null if unread. */
    public ParameterNode captureLength(int capture) {
        return captureLengths.get(capture);
    }

    /** The {@code int} parameter holding the length of the rows of captured 2-D array {@code capture}, or null if unread. */
    public ParameterNode captureRowLength(int capture) {
        return captureRowLengths.get(capture);
    }

    /** Whether the function reads captured value {@code capture}: one of its parameters is still used. */
    public boolean isRead(int capture) {
        return used(captures.get(capture)) || used(captureLengths.get(capture)) || used(captureRowLengths.get(capture));
    }

    /**
     * Whether the function stores into the elements of captured array {@code capture} (through its
     * parameter or a Pi of it). Only an accelerated method's array arguments may be written.
     */
    public boolean isWritten(int capture) {
        ParameterNode array = captures.get(capture);
        return array != null && array.isAlive() && storesInto(array);
    }

    private static boolean storesInto(ValueNode array) {
        for (jdk.graal.compiler.graph.Node usage : array.usages()) {
            if (usage instanceof jdk.graal.compiler.nodes.java.StoreIndexedNode store && store.array() == array) {
                return true;
            }
            if (usage instanceof PiNode pi && storesInto(pi)) {
                return true;
            }
        }
        return false;
    }

    private static boolean used(ParameterNode parameter) {
        return parameter != null && parameter.isAlive() && parameter.hasUsages();
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
        if (captures.get(capture) == null) {
            captures.set(capture, graph.addWithoutUnique(new ParameterNode(captureIndex(capture, 0),
                            StampPair.createSingle(StampFactory.objectNonNull(TypeReference.createExactTrusted(arrayType))))));
        }
        return captures.get(capture);
    }

    /** The {@code int} parameter holding the length of captured array {@code capture}, created and recorded on first use. */
    public ParameterNode arrayCaptureLength(StructuredGraph graph, int capture) {
        if (captureLengths.get(capture) == null) {
            // -1 stands for a null array (the runtime passes it; the array's null checks test it), so
            // the stamp starts there: a length the kernel reads after a null check is never negative.
            captureLengths.set(capture, graph.addWithoutUnique(new ParameterNode(captureIndex(capture, 1), StampPair.createSingle(IntegerStamp.create(32, -1, Integer.MAX_VALUE)))));
        }
        return captureLengths.get(capture);
    }

    /**
     * The {@code int} parameter holding the length of every row of captured 2-D array
     * {@code capture}, created and recorded on first use. The runtime sends such an array only when
     * it is rectangular, and only when its rows times this length fit an {@code int} index.
     */
    public ParameterNode arrayCaptureRowLength(StructuredGraph graph, int capture) {
        if (captureRowLengths.get(capture) == null) {
            captureRowLengths.set(capture, graph.addWithoutUnique(new ParameterNode(captureIndex(capture, 2), StampPair.createSingle(IntegerStamp.create(32, 0, Integer.MAX_VALUE)))));
        }
        return captureRowLengths.get(capture);
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
        captures.set(capture, node);
    }

    public void setCaptureLength(int capture, ParameterNode node) {
        captureLengths.set(capture, node);
    }

    public void setArgumentComponent(int argument, int component, ParameterNode node) {
        argumentComponents.get(argument).set(component, node);
    }

    /**
     * A parameter index for the graph dump: captures from 1000 (three each: the value, its length,
     * its rows' length), argument components from 2000.
     */
    public static int captureIndex(int capture, int part) {
        return CAPTURE_INDEX_BASE + 3 * capture + part;
    }

    /** A parameter index for the graph dump of component {@code component} of argument {@code argument}. */
    public static int componentIndex(int argument, int component) {
        return COMPONENT_INDEX_BASE + 100 * argument + component;
    }
}
