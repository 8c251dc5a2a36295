package jpai.compiler.phases;

import java.util.Optional;

import jdk.graal.compiler.graph.Node;
import jdk.graal.compiler.nodes.GraphState;
import jdk.graal.compiler.nodes.ParameterNode;
import jdk.graal.compiler.nodes.PiNode;
import jdk.graal.compiler.nodes.StructuredGraph;
import jdk.graal.compiler.nodes.ValueNode;
import jdk.graal.compiler.nodes.java.ArrayLengthNode;
import jdk.graal.compiler.nodes.spi.CoreProviders;
import jdk.graal.compiler.phases.BasePhase;
import jdk.graal.compiler.phases.common.CanonicalizerPhase;
import jpai.compiler.CapturedValue;
import jpai.compiler.KernelInputs;
import jpai.compiler.KernelSignature;
import jpai.compiler.ValueShape;

/**
 * Makes an accelerated method's parameters the kernel's inputs: each is a captured value of the
 * signature ({@link CapturedValue#isMethodParameter()}), which the runtime passes at each call.
 *
 * <p>Expects: the graph of a static method whose parameter {@code k} is the signature's capture
 * {@code k}, a primitive or a primitive array; frame states dropped. Does: a primitive's
 * {@link ParameterNode} is recorded as the capture's parameter as it is; an array's is replaced by a
 * parameter of the exact array type that is never null (the runtime runs a call with a null array in
 * Java), so its null checks fold, and every {@link ArrayLengthNode} of it (also through Pi nodes) by
 * the capture's length parameter.
 */
public final class MethodParametersToKernelInputsPhase extends BasePhase<CoreProviders> {

    private final KernelSignature signature;
    private final KernelInputs inputs;
    private final CanonicalizerPhase canonicalizer;

    public MethodParametersToKernelInputsPhase(KernelSignature signature, KernelInputs inputs, CanonicalizerPhase canonicalizer) {
        this.signature = signature;
        this.inputs = inputs;
        this.canonicalizer = canonicalizer;
    }

    @Override
    public Optional<NotApplicable> notApplicableTo(GraphState graphState) {
        return ALWAYS_APPLICABLE;
    }

    @Override
    protected void run(StructuredGraph graph, CoreProviders context) {
        for (ParameterNode parameter : graph.getNodes(ParameterNode.TYPE).snapshot()) {
            int k = parameter.index();
            if (k >= signature.captures().size() || inputs.argumentComponent(0, 0) == parameter) {
                continue;
            }
            CapturedValue capture = signature.captures().get(k);
            if (capture.methodParameter() == null || capture.methodParameter().index() != k) {
                throw new IllegalArgumentException("capture " + k + " is not the method's parameter " + k + ": " + capture);
            }
            if (capture.shape() instanceof ValueShape.PrimitiveArray) {
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
