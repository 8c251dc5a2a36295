package jpai.compiler.phases;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import jdk.graal.compiler.graph.Node;
import jdk.graal.compiler.graph.NodeBitMap;
import jdk.graal.compiler.nodes.AbstractBeginNode;
import jdk.graal.compiler.nodes.AbstractDeoptimizeNode;
import jdk.graal.compiler.nodes.AbstractEndNode;
import jdk.graal.compiler.nodes.AbstractMergeNode;
import jdk.graal.compiler.nodes.DeoptimizeNode;
import jdk.graal.compiler.nodes.FixedNode;
import jdk.graal.compiler.nodes.FixedWithNextNode;
import jdk.graal.compiler.nodes.GraphState;
import jdk.graal.compiler.nodes.Invoke;
import jdk.graal.compiler.nodes.LoopBeginNode;
import jdk.graal.compiler.nodes.LoopEndNode;
import jdk.graal.compiler.nodes.ReturnNode;
import jdk.graal.compiler.nodes.StartNode;
import jdk.graal.compiler.nodes.StructuredGraph;
import jdk.graal.compiler.nodes.UnwindNode;
import jdk.graal.compiler.nodes.extended.BytecodeExceptionNode;
import jdk.graal.compiler.nodes.java.AbstractNewObjectNode;
import jdk.graal.compiler.nodes.java.ExceptionObjectNode;
import jdk.graal.compiler.nodes.util.GraphUtil;
import jdk.graal.compiler.phases.Phase;
import jdk.vm.ci.meta.DeoptimizationAction;
import jdk.vm.ci.meta.DeoptimizationReason;
import jdk.vm.ci.meta.ResolvedJavaType;

/**
 * Turns every path on which Java would throw an exception into a deoptimisation exit. A kernel
 * cannot throw: where the JVM would raise {@code ArrayIndexOutOfBoundsException},
 * {@code ArithmeticException}, {@code NullPointerException}, {@code ClassCastException},
 * {@code NegativeArraySizeException} or a user's {@code throw}, the kernel function returns a
 * reason code instead, and the runtime re-runs the whole operation in Java, which then throws (or
 * catches) exactly as Java does. Nothing is silently deleted.
 *
 * <p>Expects: a graph parsed with explicit exception checks ({@code BytecodeExceptionMode.CheckAll},
 * so that each check is an {@code If} whose failing branch holds a {@link BytecodeExceptionNode}),
 * after inlining. Does: finds the control-flow region from which the function can only end in an
 * exception (from which no {@link ReturnNode} is reachable without passing an {@link UnwindNode}, a
 * {@link BytecodeExceptionNode}, an {@link ExceptionObjectNode} or an existing deoptimisation),
 * and replaces each such
 * region, from where it branches off the normal path, with one {@link DeoptimizeNode} whose
 * {@link DeoptimizationReason} names the exception:
 * {@code BoundsCheckException} (array index), {@code NullCheckException},
 * {@code ArithmeticException} (integer division by zero), {@code ClassCastException},
 * {@code RuntimeConstraint} (negative array size) and {@code NotCompiledExceptionHandler} (any other
 * exception, in particular an explicit {@code throw}). A {@code catch} in the lambda is no
 * exception to this: the kernel leaves at the throw, and Java then runs the handler. A call of a
 * method kernels leave to Java ({@link MethodsLeftToJava}) counts as a throw, with the reason
 * {@code TransferToInterpreter}.
 */
public final class ExceptionPathsToDeoptimizationPhase extends Phase {

    @Override
    public Optional<NotApplicable> notApplicableTo(GraphState graphState) {
        return ALWAYS_APPLICABLE;
    }

    @Override
    protected void run(StructuredGraph graph) {
        if (Boolean.getBoolean("jpai.debugDump")) {
            for (Node n : graph.getNodes()) {
                StringBuilder b = new StringBuilder(n.toString());
                b.append("  in:");
                for (Node i : n.inputs()) b.append(' ').append(i.toString());
                b.append("  succ:");
                for (Node i : n.successors()) b.append(' ').append(i.toString());
                if (n instanceof jdk.graal.compiler.nodes.extended.BytecodeExceptionNode be) b.append(" kind=" + be.getExceptionKind());
                if (n instanceof jdk.graal.compiler.nodes.java.InstanceOfNode io) b.append(" type=" + io.type());
                System.err.println(b);
            }
        }
        NodeBitMap doomed = doomedRegion(graph);
        Map<AbstractBeginNode, DeoptimizationReason> entries = new LinkedHashMap<>();
        for (AbstractBeginNode begin : graph.getNodes().filter(AbstractBeginNode.class)) {
            if (doomed.isMarked(begin) && !(begin instanceof AbstractMergeNode) && (begin instanceof StartNode || !doomed.isMarked(begin.predecessor()))) {
                if (begin.next() instanceof AbstractDeoptimizeNode) {
                    continue; // already a plain exit
                }
                entries.put(begin, reasonOfRegion(begin, doomed));
            }
        }
        for (Map.Entry<AbstractBeginNode, DeoptimizationReason> entry : entries.entrySet()) {
            AbstractBeginNode begin = entry.getKey();
            if (!begin.isAlive()) {
                continue;
            }
            FixedNode oldPath = begin.next();
            DeoptimizeNode exit = graph.add(new DeoptimizeNode(DeoptimizationAction.None, entry.getValue()));
            exit.setNodeSourcePosition(sourcePositionOf(oldPath, begin));
            begin.setNext(exit);
            GraphUtil.killCFG(oldPath);
        }
    }

    /**
     * The fixed nodes from which control can only reach an exception: those from which no
     * {@link ReturnNode} can be reached without raising an exception first (found backwards from the returns, so that loops on an
     * exception path, such as a string concatenation in a {@code throw}, belong to it too). A path
     * that loops forever without returning is in it as well: Java re-running the operation loops
     * forever just the same.
     */
    private static NodeBitMap doomedRegion(StructuredGraph graph) {
        NodeBitMap returns = graph.createNodeBitMap();
        Deque<FixedNode> work = new ArrayDeque<>();
        for (ReturnNode ret : graph.getNodes(ReturnNode.TYPE)) {
            returns.mark(ret);
            work.add(ret);
        }
        while (!work.isEmpty()) {
            FixedNode node = work.poll();
            List<FixedNode> predecessors = new ArrayList<>();
            if (node instanceof AbstractMergeNode merge) {
                predecessors.addAll(merge.forwardEnds().snapshot());
                if (merge instanceof LoopBeginNode loop) {
                    predecessors.addAll(loop.loopEnds().snapshot());
                }
            } else if (node.predecessor() instanceof FixedNode predecessor) {
                predecessors.add(predecessor);
            }
            for (FixedNode predecessor : predecessors) {
                // Through an exception (a handler that returns) is no normal path: the exception is raised first.
                if (!returns.isMarked(predecessor) && !isExceptionSeed(predecessor)) {
                    returns.mark(predecessor);
                    work.add(predecessor);
                }
            }
        }
        NodeBitMap doomed = graph.createNodeBitMap();
        for (Node node : graph.getNodes()) {
            if (node instanceof FixedNode && !returns.isMarked(node)) {
                doomed.mark(node);
            }
        }
        return doomed;
    }

    private static boolean isExceptionSeed(FixedNode node) {
        return isCallLeftToJava(node) || node instanceof UnwindNode || node instanceof BytecodeExceptionNode || node instanceof ExceptionObjectNode || node instanceof AbstractDeoptimizeNode;
    }

    /**
     * The exception the region starting at {@code begin} raises: a call left to Java if the region
     * holds one, else the first telling node on its paths (breadth first).
     */
    private static DeoptimizationReason reasonOfRegion(AbstractBeginNode begin, NodeBitMap doomed) {
        Deque<Node> work = new ArrayDeque<>();
        NodeBitMap seen = begin.graph().createNodeBitMap();
        work.add(begin);
        seen.mark(begin);
        DeoptimizationReason first = null;
        while (!work.isEmpty()) {
            Node node = work.poll();
            DeoptimizationReason reason = reasonOf(node);
            if (reason == DeoptimizationReason.TransferToInterpreter) {
                // A call left to Java is where such a region really leads; the checks on its way
                // (the huge-angle reduction's array indices) are there only because it was parsed.
                return reason;
            }
            if (reason != null) {
                if (first == null) {
                    first = reason;
                }
                continue;
            }
            for (Node successor : forwardSuccessors(node)) {
                if (successor != null && doomed.isMarked(successor) && !seen.isMarked(successor)) {
                    seen.mark(successor);
                    work.add(successor);
                }
            }
        }
        return first != null ? first : DeoptimizationReason.NotCompiledExceptionHandler;
    }

    /**
     * Where control goes after {@code node}, going forward only: a forward end's merge, else the
     * node's successors (a loop end's back edge is not followed).
     */
    static List<Node> forwardSuccessors(Node node) {
        List<Node> next = new ArrayList<>();
        if (node instanceof AbstractEndNode end && !(node instanceof LoopEndNode) && end.merge() != null) {
            next.add(end.merge());
        } else {
            for (Node successor : node.successors()) {
                next.add(successor);
            }
        }
        return next;
    }

    /** A call of a method kernels leave to Java ({@link MethodsLeftToJava}): its path exits like a throw. */
    private static boolean isCallLeftToJava(Node node) {
        return node instanceof Invoke invoke && MethodsLeftToJava.contains(invoke.getTargetMethod());
    }

    private static DeoptimizationReason reasonOf(Node node) {
        if (isCallLeftToJava(node)) {
            return DeoptimizationReason.TransferToInterpreter;
        }
        if (node instanceof BytecodeExceptionNode exception) {
            return switch (exception.getExceptionKind()) {
                case NULL_POINTER -> DeoptimizationReason.NullCheckException;
                case OUT_OF_BOUNDS, INTRINSIC_OUT_OF_BOUNDS -> DeoptimizationReason.BoundsCheckException;
                case CLASS_CAST -> DeoptimizationReason.ClassCastException;
                case DIVISION_BY_ZERO -> DeoptimizationReason.ArithmeticException;
                case NEGATIVE_ARRAY_SIZE -> DeoptimizationReason.RuntimeConstraint;
                default -> DeoptimizationReason.NotCompiledExceptionHandler;
            };
        }
        if (node instanceof AbstractDeoptimizeNode deoptimize && deoptimize instanceof DeoptimizeNode plain) {
            return plain.getReason();
        }
        if (node instanceof AbstractNewObjectNode allocation && allocatesThrowable(allocation)) {
            return DeoptimizationReason.NotCompiledExceptionHandler;
        }
        if (node instanceof UnwindNode || node instanceof ExceptionObjectNode) {
            return DeoptimizationReason.NotCompiledExceptionHandler;
        }
        return null;
    }

    private static boolean allocatesThrowable(AbstractNewObjectNode allocation) {
        ResolvedJavaType type = allocation.stamp(jdk.graal.compiler.nodes.NodeView.DEFAULT) instanceof jdk.graal.compiler.core.common.type.ObjectStamp stamp ? stamp.type() : null;
        for (ResolvedJavaType t = type; t != null; t = t.getSuperclass()) {
            if (t.toJavaName().equals("java.lang.Throwable")) {
                return true;
            }
        }
        return false;
    }

    /** Where the exit points in the source: the throwing node's line, else the branch's. */
    private static jdk.graal.compiler.graph.NodeSourcePosition sourcePositionOf(FixedNode path, AbstractBeginNode begin) {
        for (FixedNode node = path; node != null; node = node instanceof FixedWithNextNode withNext ? withNext.next() : null) {
            if (node.getNodeSourcePosition() != null) {
                return node.getNodeSourcePosition();
            }
        }
        return begin.getNodeSourcePosition();
    }
}
