package jpai.compiler.loops;

import java.util.ArrayList;
import java.util.List;

import jdk.graal.compiler.graph.Node;
import jdk.graal.compiler.nodes.AbstractBeginNode;
import jdk.graal.compiler.nodes.ControlSinkNode;
import jdk.graal.compiler.nodes.DeoptimizeNode;
import jdk.graal.compiler.nodes.FixedGuardNode;
import jdk.graal.compiler.nodes.IfNode;
import jdk.graal.compiler.nodes.LogicNode;
import jdk.graal.compiler.nodes.ParameterNode;
import jdk.graal.compiler.nodes.PiNode;
import jdk.graal.compiler.nodes.ReturnNode;
import jdk.graal.compiler.nodes.StructuredGraph;
import jdk.graal.compiler.nodes.ValueNode;
import jdk.graal.compiler.nodes.calc.IntegerBelowNode;
import jdk.graal.compiler.phases.common.CanonicalizerPhase;
import jdk.graal.compiler.phases.common.DeadCodeEliminationPhase;
import jdk.graal.compiler.phases.tiers.HighTierContext;
import jpai.compiler.KernelInputs;
import jpai.compiler.phases.RemoveExitChecksPhase;

/**
 * When an accelerated method's kernel can leave the device path, in the one case the runtime can
 * tell before the launch: a one-dimensional kernel whose loop starts at 0 and whose only exits are
 * the checks {@code i < length} of its index {@code i} against lengths of array arguments (as in
 * {@code y.put(i, a * x.get(i) + y.get(i))} for {@code i < y.length()}: {@code x} may be shorter).
 * Such a kernel exits exactly when the loop's extent passes one of those lengths. The runtime then
 * knows, per call, whether a kernel that writes a {@code PArray} in place may exit, and needs no
 * copy of it to undo the writes when it cannot.
 */
public final class IndexExits {

    private IndexExits() {
    }

    /**
     * The captures (by slot) whose lengths the kernel's index is checked against, the only way it
     * exits (empty: it cannot exit); or null when it may exit otherwise, or the kernel is not a 1-D
     * loop from 0.
     */
    public static List<Integer> of(StructuredGraph graph, KernelInputs inputs, List<LoopBound> firsts) {
        if (firsts.size() != 1 || !(firsts.get(0) instanceof LoopBound.Constant first) || first.value() != 0) {
            return null;
        }
        ParameterNode index = inputs.argumentComponent(0, 0);
        List<Integer> lengths = new ArrayList<>();
        for (Node node : graph.getNodes()) {
            Integer checked;
            if (node instanceof FixedGuardNode guard) {
                checked = guard.isNegated() ? null : checkedLength(guard.condition(), index, inputs);
            } else if (node instanceof DeoptimizeNode deopt) {
                checked = exitOfCheck(deopt, index, inputs);
            } else if (node instanceof ControlSinkNode && !(node instanceof ReturnNode)) {
                checked = null; // an unwind or anything else that leaves the kernel
            } else if (node instanceof jdk.graal.compiler.nodes.GuardNode) {
                checked = null; // a floating guard: not expected in a kernel graph, and not one this class reads
            } else {
                continue;
            }
            if (checked == null) {
                return null;
            }
            if (!lengths.contains(checked)) {
                lengths.add(checked);
            }
        }
        return List.copyOf(lengths);
    }

    /**
     * Removes the exits {@link #of} found, for a launch that has checked them itself: every check
     * {@code index |<| length(c)} of a guard or of the branch to an exit becomes true, and
     * {@code canonicalizer} then drops the guards and the exits' branches. Only for a launch whose
     * extent is at most every one of those lengths (with the loop from 0, the index stays below
     * them all): such a kernel gives the checked kernel's results without its checks, and has no
     * exit left. Returns how many checks it removed.
     */
    public static int removeChecks(StructuredGraph graph, KernelInputs inputs, CanonicalizerPhase canonicalizer, HighTierContext context) {
        ParameterNode index = inputs.argumentComponent(0, 0);
        int removed = 0;
        for (FixedGuardNode guard : graph.getNodes(FixedGuardNode.TYPE).snapshot()) {
            if (!guard.isNegated() && checkedLength(guard.condition(), index, inputs) != null) {
                RemoveExitChecksPhase.makePass(guard);
                removed++;
            }
        }
        for (DeoptimizeNode deopt : graph.getNodes(DeoptimizeNode.TYPE).snapshot()) {
            if (exitOfCheck(deopt, index, inputs) != null && RemoveExitChecksPhase.neverTake(deopt)) {
                removed++;
            }
        }
        if (removed > 0) {
            canonicalizer.apply(graph, context);
            new DeadCodeEliminationPhase().apply(graph);
        }
        return removed;
    }

    /** The capture whose length the deoptimization's branch checks the index against ({@code if (!(i |<| length)) exit}), or null. */
    private static Integer exitOfCheck(DeoptimizeNode deopt, ParameterNode index, KernelInputs inputs) {
        if (!(deopt.predecessor() instanceof AbstractBeginNode begin) || !(begin.predecessor() instanceof IfNode check) || check.falseSuccessor() != begin) {
            return null;
        }
        return checkedLength(check.condition(), index, inputs);
    }

    /** The capture {@code c} when {@code condition} is {@code index |<| length(c)}, else null. */
    private static Integer checkedLength(LogicNode condition, ParameterNode index, KernelInputs inputs) {
        if (!(condition instanceof IntegerBelowNode below) || skipPi(below.getX()) != index) {
            return null;
        }
        ValueNode length = skipPi(below.getY());
        for (int c = 0; c < inputs.captures().size(); c++) {
            if (inputs.captureLength(c) == length && inputs.captures().get(c).isMethodParameter()) {
                return c;
            }
        }
        return null;
    }

    private static ValueNode skipPi(ValueNode value) {
        ValueNode node = value;
        while (node instanceof PiNode pi) {
            node = pi.getOriginalNode();
        }
        return node;
    }
}
