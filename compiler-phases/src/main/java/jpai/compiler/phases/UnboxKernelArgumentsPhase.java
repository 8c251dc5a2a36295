package jpai.compiler.phases;

import java.util.ArrayList;
import java.util.List;

import jdk.graal.compiler.core.common.type.StampFactory;
import jdk.graal.compiler.core.common.type.StampPair;
import jdk.graal.compiler.graph.Node;
import jdk.graal.compiler.nodes.ParameterNode;
import jdk.graal.compiler.nodes.PiNode;
import jdk.graal.compiler.nodes.StructuredGraph;
import jdk.graal.compiler.nodes.extended.UnboxNode;
import jdk.graal.compiler.nodes.spi.CoreProviders;
import jdk.graal.compiler.nodes.util.GraphUtil;
import jdk.graal.compiler.phases.common.CanonicalizerPhase;
import jpai.compiler.KernelBailoutException;
import jpai.compiler.KernelInputs;
import jpai.compiler.KernelSignature;
import jpai.compiler.ValueShape;

/**
 * Turns wrapper-typed kernel arguments into bare primitives: a {@code Function<Float, Float>} becomes
 * a kernel function taking a {@code float}.
 *
 * <p>Expects: argument parameters already non-null and of exact wrapper type
 * ({@link RemoveKernelArgumentNullChecksPhase}, {@link KernelArgumentTypesPhase}), so that every
 * remaining use is an {@link UnboxNode}, possibly through Pi nodes. Does: replaces each such
 * parameter with a new primitive parameter, recorded in {@link KernelInputs} as the argument's only
 * component, and each unbox with that parameter.
 * An argument still used as an object (compared by identity, passed to a method that was not
 * inlined, synchronised on) has no primitive meaning: the phase bails out and names the line.
 */
public final class UnboxKernelArgumentsPhase extends KernelBoundaryPhase {

    private final KernelInputs inputs;

    public UnboxKernelArgumentsPhase(CanonicalizerPhase canonicalizer, KernelSignature signature, KernelInputs inputs) {
        super(canonicalizer, signature);
        this.inputs = inputs;
    }

    @Override
    protected void run(StructuredGraph graph, CoreProviders context) {
        for (ParameterNode parameter : KernelArguments.of(graph, signature)) {
            if (signature.argumentAt(parameter.index()) instanceof ValueShape.BoxedPrimitive boxed && !parameter.getStackKind().isPrimitive()) {
                inputs.setArgumentComponent(parameter.index() - 1, 0, unbox(graph, parameter, boxed));
            }
        }
    }

    private static ParameterNode unbox(StructuredGraph graph, ParameterNode boxedParameter, ValueShape.BoxedPrimitive boxed) {
        int index = KernelInputs.componentIndex(boxedParameter.index() - 1, 0);
        ParameterNode primitive = graph.addWithoutUnique(new ParameterNode(index, StampPair.createSingle(StampFactory.forKind(boxed.kind()))));
        List<Node> objectUses = new ArrayList<>();
        replaceUnboxes(graph, boxedParameter, primitive, objectUses);
        if (!objectUses.isEmpty()) {
            throw KernelBailoutException.at(objectUses.get(0), "argument " + boxedParameter.index() + " (" + boxed
                    + ") is used as an object, not as a number: " + jpai.compiler.JavaConstructs.describe(objectUses.get(0))
                    + "; kernels only see its value");
        }
        GraphUtil.killWithUnusedFloatingInputs(boxedParameter);
        return primitive;
    }

    /** Replaces unboxes of {@code value} (and of Pi nodes on it) with {@code primitive}; collects other uses. */
    private static void replaceUnboxes(StructuredGraph graph, jdk.graal.compiler.nodes.ValueNode value, ParameterNode primitive, List<Node> objectUses) {
        for (Node usage : value.usages().snapshot()) {
            if (usage instanceof UnboxNode unbox) {
                unbox.replaceAtUsages(primitive);
                graph.removeFixed(unbox);
            } else if (usage instanceof PiNode pi) {
                replaceUnboxes(graph, pi, primitive, objectUses);
                if (pi.hasNoUsages()) {
                    pi.safeDelete();
                }
            } else if (!(usage instanceof jdk.graal.compiler.nodes.FrameState)) {
                objectUses.add(usage);
            }
        }
    }
}
