package jpai.compiler.phases;


import jdk.graal.compiler.core.common.type.ObjectStamp;
import jdk.graal.compiler.core.common.type.StampFactory;
import jdk.graal.compiler.core.common.type.TypeReference;
import jdk.graal.compiler.nodes.NodeView;
import jdk.graal.compiler.nodes.ParameterNode;
import jdk.graal.compiler.nodes.StructuredGraph;
import jdk.graal.compiler.nodes.spi.CoreProviders;
import jdk.graal.compiler.phases.common.CanonicalizerPhase;
import jdk.vm.ci.meta.ResolvedJavaType;
import jpai.compiler.KernelSignature;
import jpai.compiler.ValueShape;

/**
 * Gives each kernel argument the exact type the runtime guarantees. A lambda's {@code apply} takes
 * {@code Object} (erasure) and casts it to the type the user wrote; once the parameter is known to be
 * exactly, say, {@code java.lang.Float} (a {@link ValueShape.BoxedPrimitive}) or the tuple class (a
 * {@link ValueShape.Tuple}), the canonicalizer that runs after this phase folds the
 * {@code checkcast} (InstanceOf, FixedGuard and Pi nodes) away.
 *
 * <p>Expects: argument parameters that are still objects. Does: replaces their stamps with exact
 * non-null stamps of the promised type. A cast the promise contradicts (the lambda casts to
 * {@code Integer} but the data is {@code Float}) folds to an always-failing guard, which later
 * phases turn into a deoptimisation exit, just as the JVM would throw ClassCastException.
 */
public final class KernelArgumentTypesPhase extends KernelBoundaryPhase {


    public KernelArgumentTypesPhase(CanonicalizerPhase canonicalizer, KernelSignature signature) {
        super(canonicalizer, signature);
    }

    @Override
    protected void run(StructuredGraph graph, CoreProviders context) {
        for (ParameterNode parameter : KernelArguments.of(graph, signature)) {
            if (!(parameter.stamp(NodeView.DEFAULT) instanceof ObjectStamp)) {
                continue;
            }
            ValueShape shape = signature.argumentAt(parameter.index());
            Class<?> exactClass = shape instanceof ValueShape.BoxedPrimitive boxed ? boxed.boxClass() : shape instanceof ValueShape.Tuple tuple ? tuple.type() : null;
            if (exactClass != null) {
                ResolvedJavaType type = context.getMetaAccess().lookupJavaType(exactClass);
                parameter.setStamp(StampFactory.objectNonNull(TypeReference.createExactTrusted(type)));
                // A stamp change is no graph event, so the post-run canonicalizer would not revisit the
                // casts on this parameter by itself.
                canonicalizer.applyIncremental(graph, context, parameter.usages().snapshot());
            }
        }
    }
}
