package jpai.compiler.phases;

import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import jdk.graal.compiler.core.common.type.ObjectStamp;
import jdk.graal.compiler.core.common.type.Stamp;
import jdk.graal.compiler.nodes.GraphState;
import jdk.graal.compiler.nodes.NodeView;
import jdk.graal.compiler.nodes.StructuredGraph;
import jdk.graal.compiler.nodes.ValueNode;
import jdk.graal.compiler.nodes.ValuePhiNode;
import jdk.graal.compiler.nodes.extended.BoxNode;
import jdk.graal.compiler.nodes.extended.UnboxNode;
import jdk.graal.compiler.nodes.spi.CoreProviders;
import jdk.graal.compiler.phases.common.CanonicalizerPhase;
import jdk.graal.compiler.phases.common.PostRunCanonicalizationPhase;
import jdk.vm.ci.meta.JavaKind;
import jdk.vm.ci.meta.MetaAccessProvider;
import jdk.vm.ci.meta.ResolvedJavaType;

/**
 * Unboxes a phi of boxes as the phi of their values. Where partial escape analysis meets boxes
 * from different paths at a merge (a tuple returned from inside a loop and another after it, the
 * tuples' components boxed on each path), it materialises them there: the result is
 * {@code unbox(phi(box(a), box(b)))}, and the boxes are allocations a kernel cannot make.
 *
 * <p>Expects: the kernel's unboxes in place (after {@link TupleResultComponentsPhase}, partial escape
 * analysis and {@link UnboxKernelResultPhase}), argument parameters marked non-null with their exact
 * wrapper type ({@link RemoveKernelArgumentNullChecksPhase}, {@link KernelArgumentTypesPhase}), before
 * {@link UnboxKernelArgumentsPhase}. Does: for every {@link UnboxNode} of an object
 * {@link ValuePhiNode} whose inputs are all boxes of the unbox's kind, non-null values of exactly that
 * wrapper type (an argument), or such phis themselves (loop phis included), replaces the unbox by a
 * primitive phi of the boxed values; a non-box input gets its own unbox at the end of its
 * predecessor, where it cannot fail (the value is non-null) and which {@link UnboxKernelArgumentsPhase}
 * removes for arguments. The canonicalizer that runs after it deletes the object phis and boxes left
 * unused. Phis with another input (a value that may be null, of another type) are left alone; the
 * backend then refuses the box, naming it.
 */
public final class UnboxPhisOfBoxesPhase extends PostRunCanonicalizationPhase<CoreProviders> {

    public UnboxPhisOfBoxesPhase(CanonicalizerPhase canonicalizer) {
        super(canonicalizer);
    }

    @Override
    public Optional<NotApplicable> notApplicableTo(GraphState graphState) {
        return ALWAYS_APPLICABLE;
    }

    @Override
    protected void run(StructuredGraph graph, CoreProviders context) {
        MetaAccessProvider metaAccess = context.getMetaAccess();
        for (UnboxNode unbox : graph.getNodes().filter(UnboxNode.class).snapshot()) {
            if (!unbox.isAlive() || !(unbox.getValue() instanceof ValuePhiNode phi) || phi.getStackKind() != JavaKind.Object) {
                continue;
            }
            JavaKind kind = unbox.getBoxingKind();
            ResolvedJavaType boxType = metaAccess.lookupJavaType(kind.toBoxedJavaClass());
            if (!unboxable(phi, kind, boxType, new HashSet<>())) {
                continue;
            }
            ValuePhiNode primitive = unboxed(graph, phi, kind, unbox.stamp(NodeView.DEFAULT).unrestricted(), metaAccess, new HashMap<>());
            unbox.replaceAtUsages(primitive);
            graph.removeFixed(unbox);
        }
    }

    /** Whether every input of {@code phi}, through nested phis, is a box of {@code kind} or a non-null {@code boxType}. */
    private static boolean unboxable(ValuePhiNode phi, JavaKind kind, ResolvedJavaType boxType, Set<ValuePhiNode> visited) {
        if (!visited.add(phi)) {
            return true;
        }
        for (ValueNode input : phi.values()) {
            if (input instanceof BoxNode box) {
                if (box.getBoxingKind() != kind) {
                    return false;
                }
            } else if (input instanceof ValuePhiNode nested && nested.getStackKind() == JavaKind.Object) {
                if (!unboxable(nested, kind, boxType, visited)) {
                    return false;
                }
            } else if (!(input.stamp(NodeView.DEFAULT) instanceof ObjectStamp stamp) || !stamp.nonNull() || !boxType.equals(stamp.type())) {
                return false;
            }
        }
        return true;
    }

    /** The primitive phi of {@code phi}'s boxed values (made once per phi, so loop phis close their cycle). */
    private static ValuePhiNode unboxed(StructuredGraph graph, ValuePhiNode phi, JavaKind kind, Stamp stamp, MetaAccessProvider metaAccess, Map<ValuePhiNode, ValuePhiNode> done) {
        ValuePhiNode existing = done.get(phi);
        if (existing != null) {
            return existing;
        }
        ValuePhiNode primitive = graph.addWithoutUnique(new ValuePhiNode(stamp, phi.merge()));
        done.put(phi, primitive);
        for (int i = 0; i < phi.valueCount(); i++) {
            ValueNode input = phi.valueAt(i);
            ValueNode value;
            if (input instanceof BoxNode box) {
                value = box.getValue();
            } else if (input instanceof ValuePhiNode nested && nested.getStackKind() == JavaKind.Object) {
                value = unboxed(graph, nested, kind, stamp, metaAccess, done);
            } else {
                UnboxNode unbox = graph.add(new UnboxNode(input, kind, metaAccess));
                graph.addBeforeFixed(phi.merge().phiPredecessorAt(i), unbox);
                value = unbox;
            }
            primitive.addInput(value);
        }
        primitive.inferStamp();
        return primitive;
    }
}
