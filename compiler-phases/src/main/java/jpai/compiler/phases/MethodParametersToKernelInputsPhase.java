package jpai.compiler.phases;

import java.util.Optional;

import jdk.graal.compiler.graph.Node;
import jdk.graal.compiler.nodes.GraphState;
import jdk.graal.compiler.nodes.ParameterNode;
import jdk.graal.compiler.nodes.PiNode;
import jdk.graal.compiler.nodes.StructuredGraph;
import jdk.graal.compiler.nodes.ValueNode;
import jdk.graal.compiler.nodes.FrameState;
import jdk.graal.compiler.nodes.LogicConstantNode;
import jdk.graal.compiler.nodes.NodeView;
import jdk.graal.compiler.nodes.calc.AddNode;
import jdk.graal.compiler.nodes.calc.IsNullNode;
import jdk.graal.compiler.nodes.calc.MulNode;
import jdk.graal.compiler.nodes.java.ArrayLengthNode;
import jdk.graal.compiler.nodes.java.LoadIndexedNode;
import jdk.graal.compiler.nodes.java.StoreIndexedNode;
import jdk.graal.compiler.nodes.spi.CoreProviders;
import jdk.graal.compiler.phases.BasePhase;
import jdk.graal.compiler.phases.common.CanonicalizerPhase;
import jpai.compiler.CapturedValue;
import jpai.compiler.KernelBailoutException;
import jpai.compiler.KernelInputs;
import jpai.compiler.KernelSignature;
import jpai.compiler.ValueShape;

/**
 * Makes an accelerated method's parameters the kernel's inputs: each is a captured value of the
 * signature ({@link CapturedValue#isMethodParameter()}), which the runtime passes at each call.
 *
 * <p>Expects: the graph of a method whose parameter {@code k + firstParameter} (after an instance
 * method's receiver) is the signature's capture {@code k}, a primitive or a primitive array; frame states dropped. Does: a primitive's
 * {@link ParameterNode} is recorded as the capture's parameter as it is; an array's is replaced by a
 * parameter of the exact array type that is never null (the runtime runs a call with a null array in
 * Java), so its null checks fold, and every {@link ArrayLengthNode} of it (also through Pi nodes) by
 * the capture's length parameter. A rectangular 2-D array's ({@link ValueShape.RectangularArray}) is
 * replaced by one parameter of its row type holding all rows one after the other, its rows'
 * number and length by parameters, and {@code m[i][j]}, read or written, by element
 * {@code i * rowLength + j} of it.
 */
public final class MethodParametersToKernelInputsPhase extends BasePhase<CoreProviders> {

    private final KernelSignature signature;
    private final KernelInputs inputs;
    private final CanonicalizerPhase canonicalizer;

    /** The graph's parameter index of the method's first declared parameter: 1 for an instance method, whose receiver is parameter 0. */
    private final int firstParameter;

    public MethodParametersToKernelInputsPhase(KernelSignature signature, KernelInputs inputs, CanonicalizerPhase canonicalizer) {
        this(signature, inputs, canonicalizer, 0);
    }

    /** For an instance method ({@code firstParameter} 1): its receiver is left to {@link CapturedValuesToParametersPhase}. */
    public MethodParametersToKernelInputsPhase(KernelSignature signature, KernelInputs inputs, CanonicalizerPhase canonicalizer, int firstParameter) {
        this.signature = signature;
        this.inputs = inputs;
        this.canonicalizer = canonicalizer;
        this.firstParameter = firstParameter;
    }

    @Override
    public Optional<NotApplicable> notApplicableTo(GraphState graphState) {
        return ALWAYS_APPLICABLE;
    }

    @Override
    protected void run(StructuredGraph graph, CoreProviders context) {
        for (ParameterNode parameter : graph.getNodes(ParameterNode.TYPE).snapshot()) {
            int k = parameter.index() - firstParameter;
            if (k < 0 || k >= signature.captures().size() || inputs.argumentComponent(0, 0) == parameter || !parameter.isAlive()) {
                continue;
            }
            CapturedValue capture = signature.captures().get(k);
            if (capture.methodParameter() == null || capture.methodParameter().index() != k) {
                throw new IllegalArgumentException("capture " + k + " is not the method's parameter " + k + ": " + capture);
            }
            if (capture.shape() instanceof ValueShape.RectangularArray matrix) {
                ParameterNode rows = inputs.arrayCapture(graph, k, context.getMetaAccess().lookupJavaType(matrix.rowClass()));
                replaceMatrixUses(graph, parameter, k, matrix, rows, capture);
                if (parameter.isAlive()) {
                    parameter.replaceAtUsages(rows); // frame states only, dropped before
                    parameter.safeDelete();
                }
            } else if (capture.shape() instanceof ValueShape.PrimitiveArray) {
                ParameterNode array = inputs.arrayCapture(graph, k, context.getMetaAccess().lookupJavaType(capture.declaredType()));
                parameter.replaceAtUsages(array);
                parameter.safeDelete();
                replaceLengths(graph, array, k);
            } else {
                inputs.setCapture(k, parameter);
            }
        }
        canonicalizer.apply(graph, context);
    }

    /**
     * The uses of a 2-D array parameter ({@code matrix}, or a Pi of it): never null (the runtime
     * runs a call with a null one in Java), {@code m.length} is the row count parameter, and each
     * row {@code m[i]} (after Java's check of {@code i}) is its place in the flat parameter
     * {@code rows}, from {@code i * rowLength}.
     */
    private void replaceMatrixUses(StructuredGraph graph, ValueNode matrix, int capture, ValueShape.RectangularArray shape, ParameterNode rows, CapturedValue value) {
        for (Node usage : matrix.usages().snapshot()) {
            if (!usage.isAlive()) {
                continue;
            }
            if (usage instanceof IsNullNode isNull) {
                isNull.replaceAtUsagesAndDelete(LogicConstantNode.contradiction(graph));
            } else if (usage instanceof ArrayLengthNode length && length.array() == matrix) {
                graph.replaceFixedWithFloating(length, inputs.arrayCaptureLengthOfPresentArray(graph, capture));
            } else if (usage instanceof LoadIndexedNode row && row.array() == matrix) {
                ValueNode start = graph.addOrUniqueWithInputs(MulNode.create(row.index(), inputs.arrayCaptureRowLength(graph, capture), NodeView.DEFAULT));
                replaceRowUses(graph, row, start, capture, shape, rows, value);
                if (row.isAlive()) {
                    if (row.hasUsages()) {
                        throw otherMatrixUse(row.usages().first(), value);
                    }
                    graph.removeFixed(row);
                }
            } else if (usage instanceof PiNode pi) {
                replaceMatrixUses(graph, pi, capture, shape, rows, value);
                if (pi.isAlive() && pi.hasNoUsages()) {
                    pi.safeDelete();
                }
            } else if (!(usage instanceof FrameState)) {
                throw otherMatrixUse(usage, value);
            }
        }
    }

    /**
     * The uses of one row {@code m[i]} ({@code row}, or a Pi of it), whose elements start at
     * {@code start} in the flat parameter: never null (the runtime sends only arrays whose rows are
     * all there, of one length), {@code m[i].length} the row length parameter, {@code m[i][j]} the
     * load or store of element {@code start + j} after Java's check of {@code j}, which stays.
     */
    private void replaceRowUses(StructuredGraph graph, ValueNode row, ValueNode start, int capture, ValueShape.RectangularArray shape, ParameterNode rows, CapturedValue value) {
        for (Node usage : row.usages().snapshot()) {
            if (!usage.isAlive()) {
                continue;
            }
            if (usage instanceof IsNullNode isNull) {
                isNull.replaceAtUsagesAndDelete(LogicConstantNode.contradiction(graph));
            } else if (usage instanceof ArrayLengthNode length && length.array() == row) {
                graph.replaceFixedWithFloating(length, inputs.arrayCaptureRowLength(graph, capture));
            } else if (usage instanceof LoadIndexedNode element && element.array() == row) {
                ValueNode index = graph.addOrUniqueWithInputs(AddNode.create(start, element.index(), NodeView.DEFAULT));
                LoadIndexedNode flat = graph.add(new LoadIndexedNode(graph.getAssumptions(), rows, index, null, shape.elementKind()));
                flat.setNodeSourcePosition(element.getNodeSourcePosition());
                graph.replaceFixedWithFixed(element, flat);
            } else if (usage instanceof StoreIndexedNode store && store.array() == row) {
                ValueNode index = graph.addOrUniqueWithInputs(AddNode.create(start, store.index(), NodeView.DEFAULT));
                StoreIndexedNode flat = graph.add(new StoreIndexedNode(rows, index, null, null, shape.elementKind(), store.value()));
                flat.setNodeSourcePosition(store.getNodeSourcePosition());
                flat.setStateAfter(store.stateAfter());
                graph.replaceFixedWithFixed(store, flat);
            } else if (usage instanceof PiNode pi) {
                replaceRowUses(graph, pi, start, capture, shape, rows, value);
                if (pi.isAlive() && pi.hasNoUsages()) {
                    pi.safeDelete();
                }
            } else if (!(usage instanceof FrameState)) {
                throw otherMatrixUse(usage, value);
            }
        }
    }

    private static KernelBailoutException otherMatrixUse(Node usage, CapturedValue value) {
        return KernelBailoutException.at(usage, "the method uses " + value.description() + " (a 2-D array) other than by m[i][j], m.length and m[i].length ("
                        + jpai.compiler.JavaConstructs.describe(usage) + "); kernels have its elements in one buffer, not its row objects");
    }

    private void replaceLengths(StructuredGraph graph, ValueNode array, int capture) {
        for (Node usage : array.usages().snapshot()) {
            if (usage instanceof ArrayLengthNode length && length.array() == array) {
                graph.replaceFixedWithFloating(length, inputs.arrayCaptureLengthOfPresentArray(graph, capture));
            } else if (usage instanceof PiNode pi) {
                replaceLengths(graph, pi, capture);
            }
        }
    }
}
