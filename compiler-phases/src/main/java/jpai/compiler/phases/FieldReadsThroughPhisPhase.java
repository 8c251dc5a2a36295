package jpai.compiler.phases;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import jdk.graal.compiler.graph.Node;
import jdk.graal.compiler.nodes.AbstractMergeNode;
import jdk.graal.compiler.nodes.FrameState;
import jdk.graal.compiler.nodes.GraphState;
import jdk.graal.compiler.nodes.MergeNode;
import jdk.graal.compiler.nodes.StructuredGraph;
import jdk.graal.compiler.nodes.ValuePhiNode;
import jdk.graal.compiler.nodes.ValueNode;
import jdk.graal.compiler.nodes.java.LoadFieldNode;
import jdk.graal.compiler.nodes.spi.CoreProviders;
import jdk.graal.compiler.phases.common.CanonicalizerPhase;
import jdk.graal.compiler.phases.common.PostRunCanonicalizationPhase;

/**
 * Reads the fields of an object chosen at a merge before the merge: {@code phi(a, b).f} becomes
 * {@code phi(a.f, b.f)}, with each read at the end of its predecessor. A function that returns one of
 * its tuple arguments ({@code (a, b) -> a._1() >= b._1() ? a : b}, an argmax) then reads only the
 * arguments' components, which {@link TupleKernelArgumentsPhase} turns into parameters; the object
 * phi, left without uses, is deleted. Kernels have no objects, so without this the function could not
 * run on the device.
 *
 * <p>Expects: frame states dropped, the result's components read by {@link TupleResultComponentsPhase}.
 * Does: for each object {@link ValuePhiNode} of a forward merge (not a loop header) whose every use is
 * a field read (or a frame state), replaces each read by a phi of reads of the phi's inputs; repeats
 * until no such phi is left, so phis of phis unfold too. Phis with other uses are left as they are
 * (the phase after it names them).
 */
public final class FieldReadsThroughPhisPhase extends PostRunCanonicalizationPhase<CoreProviders> {

    public FieldReadsThroughPhisPhase(CanonicalizerPhase canonicalizer) {
        super(canonicalizer);
    }

    @Override
    public Optional<NotApplicable> notApplicableTo(GraphState graphState) {
        return ALWAYS_APPLICABLE;
    }

    @Override
    protected void run(StructuredGraph graph, CoreProviders context) {
        boolean changed = true;
        while (changed) {
            changed = false;
            for (ValuePhiNode phi : graph.getNodes().filter(ValuePhiNode.class).snapshot()) {
                if (phi.isAlive() && isObjectPhiReadOnlyByFields(phi)) {
                    pushReadsIntoPredecessors(graph, phi);
                    changed = true;
                }
            }
        }
    }

    private static boolean isObjectPhiReadOnlyByFields(ValuePhiNode phi) {
        if (!phi.getStackKind().isObject() || !(phi.merge() instanceof MergeNode) || phi.merge() instanceof jdk.graal.compiler.nodes.LoopBeginNode) {
            return false;
        }
        boolean anyRead = false;
        for (Node usage : phi.usages()) {
            if (usage instanceof LoadFieldNode read && read.object() == phi) {
                anyRead = true;
            } else if (!(usage instanceof FrameState)) {
                return false;
            }
        }
        return anyRead;
    }

    private static void pushReadsIntoPredecessors(StructuredGraph graph, ValuePhiNode phi) {
        AbstractMergeNode merge = phi.merge();
        List<LoadFieldNode> reads = new ArrayList<>();
        for (Node usage : phi.usages().snapshot()) {
            if (usage instanceof LoadFieldNode read) {
                reads.add(read);
            }
        }
        for (LoadFieldNode read : reads) {
            ValueNode[] values = new ValueNode[merge.forwardEndCount()];
            for (int i = 0; i < values.length; i++) {
                LoadFieldNode early = graph.add(LoadFieldNode.create(graph.getAssumptions(), phi.valueAt(i), read.field()));
                graph.addBeforeFixed(merge.forwardEndAt(i), early);
                values[i] = early;
            }
            ValuePhiNode fieldPhi = graph.addWithoutUnique(new ValuePhiNode(read.stamp(jdk.graal.compiler.nodes.NodeView.DEFAULT), merge, values));
            read.replaceAtUsages(fieldPhi);
            graph.removeFixed(read);
        }
        if (phi.hasNoUsages() || phi.usages().filter(u -> !(u instanceof FrameState)).isEmpty()) {
            phi.replaceAtUsages(null);
            phi.safeDelete();
        }
    }
}
