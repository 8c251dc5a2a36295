package jpai.compiler.phases;

import java.util.ArrayList;
import java.util.List;

import jdk.graal.compiler.nodes.NodeView;
import jdk.graal.compiler.nodes.ConstantNode;
import jdk.graal.compiler.nodes.LogicNode;
import jdk.graal.compiler.nodes.calc.IntegerLessThanNode;
import jdk.graal.compiler.nodes.calc.IsNullNode;
import jdk.graal.compiler.core.common.type.StampFactory;
import jdk.graal.compiler.core.common.type.StampPair;
import jdk.graal.compiler.graph.Node;
import jdk.graal.compiler.nodes.FrameState;
import jdk.graal.compiler.nodes.ParameterNode;
import jdk.graal.compiler.nodes.PiNode;
import jdk.graal.compiler.nodes.StructuredGraph;
import jdk.graal.compiler.nodes.ValueNode;
import jdk.graal.compiler.nodes.extended.BoxNode;
import jdk.graal.compiler.nodes.java.ArrayLengthNode;
import jdk.graal.compiler.nodes.java.LoadFieldNode;
import jdk.graal.compiler.nodes.spi.CoreProviders;
import jdk.graal.compiler.phases.common.CanonicalizerPhase;
import jdk.vm.ci.meta.JavaKind;
import jdk.vm.ci.meta.ResolvedJavaField;
import jdk.vm.ci.meta.ResolvedJavaMethod;
import jdk.vm.ci.meta.ResolvedJavaType;
import jpai.compiler.CapturedValue;
import jpai.compiler.KernelBailoutException;
import jpai.compiler.KernelInputs;
import jpai.compiler.KernelSignature;
import jpai.compiler.LambdaDescription;
import jpai.compiler.ValueShape;

/**
 * Turns the values a lambda captured into kernel parameters. A lambda's captured variables are
 * final instance fields of its hidden class; the function reads them from its receiver. The runtime
 * lists them ({@link KernelSignature#captures()}) and passes their values to the kernel.
 *
 * <p>Expects: the receiver (parameter 0) used only by reads of its fields ({@link LoadFieldNode}),
 * possibly through Pi nodes, frame states dropped. Does: for each read of a listed field, creates
 * (once per field) a parameter recorded in {@link KernelInputs} and replaces the read:
 * <ul>
 * <li>{@link ValueShape.Primitive}: by the primitive parameter;</li>
 * <li>{@link ValueShape.BoxedPrimitive}: by a {@link BoxNode} of the primitive parameter, which the
 * canonicalizer run afterwards folds into the unboxing that uses it; its null checks test the
 * capture's length parameter, -1 for a null box (1 otherwise);</li>
 * <li>{@link ValueShape.PrimitiveArray}: by a parameter of the exact array type, plus an
 * {@code int} parameter for its length that replaces every {@link ArrayLengthNode} on it and is -1
 * for a null array, which the array's null checks then test;</li>
 * <li>{@link ValueShape.ElementReader}: nothing to replace, {@link ElementReaderCallsToAccessesPhase}
 * already turned its uses into accesses of its parameters; the read is deleted, or, if something
 * else still uses it, the phase bails out.</li>
 * </ul>
 * A read of a field the runtime did not list, or any other use of the receiver, bails out naming the
 * field; a captured {@code this} (a lambda in an instance method that uses a field or method of its
 * class) bails out with advice.
 */
public final class CapturedValuesToParametersPhase extends KernelBoundaryPhase {

    private final KernelInputs inputs;
    private final LambdaDescription lambda;

    public CapturedValuesToParametersPhase(CanonicalizerPhase canonicalizer, KernelSignature signature, KernelInputs inputs, LambdaDescription lambda) {
        super(canonicalizer, signature);
        this.inputs = inputs;
        this.lambda = lambda;
    }

    @Override
    protected void run(StructuredGraph graph, CoreProviders context) {
        ParameterNode receiver = graph.getParameter(0);
        if (receiver == null || graph.method().isStatic()) {
            return;
        }
        List<ResolvedJavaField> captured = new ArrayList<>();
        for (CapturedValue capture : signature.captures()) {
            captured.add(context.getMetaAccess().lookupJavaField(capture.field()));
        }
        List<LoadFieldNode> reads = new ArrayList<>();
        collectReads(receiver, captured, reads);
        for (LoadFieldNode read : reads) {
            int capture = captured.indexOf(read.field());
            replace(graph, context, read, capture, signature.captures().get(capture));
        }
    }

    private void replace(StructuredGraph graph, CoreProviders context, LoadFieldNode read, int capture, CapturedValue value) {
        ValueShape shape = value.shape();
        Class<?> fieldType = value.field().getType();
        switch (shape) {
            case ValueShape.Primitive primitive -> {
                requireFieldType(read, value, primitive.kind().toJavaClass());
                graph.replaceFixedWithFloating(read, parameter(graph, capture, primitive.kind()));
            }
            case ValueShape.BoxedPrimitive boxed -> {
                if (!fieldType.isAssignableFrom(boxed.boxClass())) {
                    throw mismatch(read, value);
                }
                ResolvedJavaType boxType = context.getMetaAccess().lookupJavaType(boxed.boxClass());
                // a null box: its null checks test the capture's length argument, -1 for null (as for arrays)
                replaceNullChecks(graph, read, capture);
                BoxNode box = graph.add(BoxNode.create(parameter(graph, capture, boxed.kind()), boxType, boxed.kind()));
                graph.replaceFixedWithFixed(read, box);
            }
            case ValueShape.PrimitiveArray array -> {
                requireFieldType(read, value, array.arrayClass());
                ParameterNode arrayParameter = inputs.arrayCapture(graph, capture, context.getMetaAccess().lookupJavaType(array.arrayClass()));
                graph.replaceFixedWithFloating(read, arrayParameter);
                replaceNullChecks(graph, arrayParameter, capture);
                replaceLengths(graph, arrayParameter, capture);
            }
            case ValueShape.ElementReader reader -> {
                // ElementReaderCallsToAccessesPhase replaced its get and length calls; nothing else may use it.
                if (read.hasUsages()) {
                    throw KernelBailoutException.at(read.usages().first(), ElementReaderCallsToAccessesPhase.otherUse(reader, value, read.usages().first()));
                }
                graph.removeFixed(read);
            }
            case ValueShape.Tuple tuple -> throw mismatch(read, value);
        }
    }

    private ParameterNode parameter(StructuredGraph graph, int capture, JavaKind kind) {
        ParameterNode parameter = inputs.capture(capture);
        if (parameter == null) {
            parameter = graph.addWithoutUnique(new ParameterNode(KernelInputs.captureIndex(capture, false), StampPair.createSingle(StampFactory.forKind(kind))));
            inputs.setCapture(capture, parameter);
        }
        return parameter;
    }

    /**
     * Every null check of the captured array tests its length parameter, which the runtime sets to
     * -1 for a null array: so a null capture reaches the kernel, and the element that dereferences
     * it leaves through the null check's exit (Java then throws its own exception there), while
     * elements that never touch it get their results.
     */
    private void replaceNullChecks(StructuredGraph graph, ValueNode array, int capture) {
        for (Node usage : array.usages().snapshot()) {
            if (usage instanceof IsNullNode isNull) {
                LogicNode negativeLength = graph.addOrUniqueWithInputs(IntegerLessThanNode.create(inputs.arrayCaptureLength(graph, capture), ConstantNode.forInt(0, graph), NodeView.DEFAULT));
                isNull.replaceAtUsagesAndDelete(negativeLength);
            } else if (usage instanceof PiNode pi) {
                replaceNullChecks(graph, pi, capture);
            }
        }
    }

    /** Every {@code array.length} on the captured array reads the length parameter. */
    private void replaceLengths(StructuredGraph graph, ValueNode array, int capture) {
        for (Node usage : array.usages().snapshot()) {
            if (usage instanceof ArrayLengthNode length) {
                graph.replaceFixedWithFloating(length, inputs.arrayCaptureLengthOfPresentArray(graph, capture));
            } else if (usage instanceof PiNode pi) {
                replaceLengths(graph, pi, capture);
            }
        }
    }

    private void collectReads(ValueNode value, List<ResolvedJavaField> captured, List<LoadFieldNode> reads) {
        for (Node usage : value.usages().snapshot()) {
            if (usage instanceof LoadFieldNode read && read.object() == value) {
                if (!captured.contains(read.field())) {
                    throw unlisted(read);
                }
                reads.add(read);
            } else if (usage instanceof PiNode pi) {
                collectReads(pi, captured, reads);
            } else if (!(usage instanceof FrameState)) {
                throw new KernelBailoutException("the lambda uses its own functional object (" + jpai.compiler.JavaConstructs.describe(usage) + "), not only its captured values", lambda.location());
            }
        }
    }

    private KernelBailoutException unlisted(LoadFieldNode read) {
        ResolvedJavaMethod body = lambda.bodyMethod();
        ResolvedJavaType fieldType = read.field().getType() instanceof ResolvedJavaType resolved ? resolved : null;
        if (!body.isStatic() && fieldType != null && fieldType.equals(body.getDeclaringClass())) {
            String owner = body.getDeclaringClass().toJavaName(false);
            return new KernelBailoutException("the lambda captures `this` (uses a field or method of " + owner + "); copy the field into a local variable first", lambda.location());
        }
        return new KernelBailoutException("the lambda captures a value of type " + read.field().getType().toJavaName(false)
                        + " (field " + read.field().getName() + ") that the runtime does not pass to OpenCL", lambda.location());
    }

    private static void requireFieldType(LoadFieldNode read, CapturedValue value, Class<?> expected) {
        if (value.field().getType() != expected) {
            throw mismatch(read, value);
        }
    }

    private static KernelBailoutException mismatch(LoadFieldNode read, CapturedValue value) {
        return KernelBailoutException.at(read, "the captured field " + value.field().getName() + " of type " + value.field().getType().getSimpleName()
                        + " does not hold a " + value.shape());
    }
}
