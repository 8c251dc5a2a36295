package jpai.compiler.phases;

import java.util.ArrayList;
import java.util.List;

import jdk.graal.compiler.core.common.type.StampFactory;
import jdk.graal.compiler.core.common.type.StampPair;
import jdk.graal.compiler.graph.Node;
import jdk.graal.compiler.nodes.FrameState;
import jdk.graal.compiler.nodes.ParameterNode;
import jdk.graal.compiler.nodes.PiNode;
import jdk.graal.compiler.nodes.StructuredGraph;
import jdk.graal.compiler.nodes.ValueNode;
import jdk.graal.compiler.nodes.extended.BoxNode;
import jdk.graal.compiler.nodes.java.LoadFieldNode;
import jdk.graal.compiler.nodes.spi.CoreProviders;
import jdk.graal.compiler.phases.common.CanonicalizerPhase;
import jdk.vm.ci.meta.ResolvedJavaField;
import jdk.vm.ci.meta.ResolvedJavaType;
import jpai.compiler.KernelBailoutException;
import jpai.compiler.KernelInputs;
import jpai.compiler.KernelSignature;
import jpai.compiler.ValueShape;

/**
 * Turns each tuple argument into one primitive parameter per component: a
 * {@code Function<Tuple2<Float, Integer>, Float>} becomes a kernel function taking a {@code float}
 * and an {@code int}.
 *
 * <p>Expects: tuple argument parameters already non-null and of exact tuple type
 * ({@link RemoveKernelArgumentNullChecksPhase}, {@link KernelArgumentTypesPhase}), frame states
 * dropped, so that every remaining use is a {@link LoadFieldNode} of one of the tuple's fields,
 * possibly through Pi nodes. Does: creates a primitive parameter per component (recorded in
 * {@link KernelInputs}) and replaces each field read by a {@link BoxNode} of that parameter; the
 * canonicalizer that runs after it folds the casts on the box ({@code (Float) t._1()}) and the
 * unboxing of the box, leaving the bare parameter. Any other use of the tuple object (identity,
 * a method that was not inlined, a field that is not a component) has no meaning on the device:
 * the phase bails out and names the line.
 */
public final class TupleKernelArgumentsPhase extends KernelBoundaryPhase {

    private final KernelInputs inputs;

    public TupleKernelArgumentsPhase(CanonicalizerPhase canonicalizer, KernelSignature signature, KernelInputs inputs) {
        super(canonicalizer, signature);
        this.inputs = inputs;
    }

    @Override
    protected void run(StructuredGraph graph, CoreProviders context) {
        for (ParameterNode parameter : KernelArguments.of(graph, signature)) {
            if (signature.argumentAt(parameter.index()) instanceof ValueShape.Tuple tuple) {
                split(graph, context, parameter, tuple);
            }
        }
    }

    private void split(StructuredGraph graph, CoreProviders context, ParameterNode tupleParameter, ValueShape.Tuple tuple) {
        int argument = tupleParameter.index() - 1;
        List<ResolvedJavaField> fields = new ArrayList<>();
        for (var field : tuple.fields()) {
            fields.add(context.getMetaAccess().lookupJavaField(field));
        }
        List<LoadFieldNode> reads = new ArrayList<>();
        collectReads(tupleParameter, tuple, fields, reads);
        ParameterNode[] components = new ParameterNode[fields.size()];
        for (LoadFieldNode read : reads) {
            int i = fields.indexOf(read.field());
            if (components[i] == null) {
                components[i] = graph.addWithoutUnique(new ParameterNode(KernelInputs.componentIndex(argument, i), StampPair.createSingle(StampFactory.forKind(tuple.kindAt(i)))));
                inputs.setArgumentComponent(argument, i, components[i]);
            }
            ResolvedJavaType boxType = context.getMetaAccess().lookupJavaType(tuple.kindAt(i).toBoxedJavaClass());
            BoxNode box = graph.add(BoxNode.create(components[i], boxType, tuple.kindAt(i)));
            graph.replaceFixedWithFixed(read, box);
        }
        // The object parameter and its Pi nodes are now unused: the canonicalizer deletes them.
    }

    /** The component reads of {@code value} (seen through Pi nodes); bails out on any other use. */
    private static void collectReads(ValueNode value, ValueShape.Tuple tuple, List<ResolvedJavaField> fields, List<LoadFieldNode> reads) {
        for (Node usage : value.usages().snapshot()) {
            if (usage instanceof LoadFieldNode read && read.object() == value && fields.contains(read.field())) {
                reads.add(read);
            } else if (usage instanceof PiNode pi) {
                collectReads(pi, tuple, fields, reads);
            } else if (!(usage instanceof FrameState)) {
                String what = usage instanceof LoadFieldNode read ? "reads field " + read.field().getName() + ", which is not a component" : "is used as an object (" + jpai.compiler.JavaConstructs.describe(usage) + ")";
                throw KernelBailoutException.at(usage, "the tuple argument (" + tuple + ") " + what + "; kernels only see its components");
            }
        }
    }
}
