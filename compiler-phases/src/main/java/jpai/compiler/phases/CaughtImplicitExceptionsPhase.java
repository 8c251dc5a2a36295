package jpai.compiler.phases;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Optional;

import jdk.graal.compiler.core.common.type.StampFactory;
import jdk.graal.compiler.graph.Node;
import jdk.graal.compiler.graph.NodeBitMap;
import jdk.graal.compiler.nodes.AbstractMergeNode;
import jdk.graal.compiler.nodes.ConstantNode;
import jdk.graal.compiler.nodes.FixedNode;
import jdk.graal.compiler.nodes.FrameState;
import jdk.graal.compiler.nodes.GraphState;
import jdk.graal.compiler.nodes.LogicNode;
import jdk.graal.compiler.nodes.NodeView;
import jdk.graal.compiler.nodes.PiNode;
import jdk.graal.compiler.nodes.ReturnNode;
import jdk.graal.compiler.nodes.StructuredGraph;
import jdk.graal.compiler.nodes.UnwindNode;
import jdk.graal.compiler.nodes.ValueNode;
import jdk.graal.compiler.nodes.ValuePhiNode;
import jdk.graal.compiler.nodes.calc.IntegerEqualsNode;
import jdk.graal.compiler.nodes.extended.BytecodeExceptionNode;
import jdk.graal.compiler.nodes.java.InstanceOfNode;
import jdk.graal.compiler.nodes.spi.CoreProviders;
import jdk.graal.compiler.nodes.util.GraphUtil;
import jdk.graal.compiler.phases.BasePhase;
import jdk.vm.ci.meta.JavaKind;
import jdk.vm.ci.meta.MetaAccessProvider;
import jdk.vm.ci.meta.ResolvedJavaType;

/**
 * Runs a lambda's own {@code catch} of an exception the JVM raises implicitly (an array index out of
 * bounds, a null dereference, an integer division by zero, a failed cast, a negative array size) on
 * the device, as a branch: {@code try { return a[i]; } catch (ArrayIndexOutOfBoundsException e) {
 * return -1; }} needs no exception object, only to know which exception it was (issue 19, item 9).
 * Without this phase the check's failing path raises an exception, which makes it a kernel exit, and
 * the whole operation runs again in Java.
 *
 * <p>Expects: the graph after inlining, before {@link ExceptionPathsToDeoptimizationPhase}, parsed
 * with explicit exception checks, so that each implicit exception is a {@link BytecodeExceptionNode}
 * whose path ends at the merge of the handler's exception dispatch, where a phi of exception objects
 * is tested by {@link InstanceOfNode}s (or, where the parser decided the test, flows to the
 * handler, a return, directly). Does: for each such phi (tested, or from whose merge a return can be
 * reached) all of whose inputs are
 * {@link BytecodeExceptionNode}s of a kind whose exception class is known exactly, and whose exception
 * object nothing reads (only the dispatch's tests, frame states, an {@link UnwindNode}, the handler's
 * typed view of it or further such phis use it): replaces each test {@code e instanceof T} by a phi of constants at the merge (1 on
 * the paths whose exception is a {@code T}, 0 on the others) compared with 1, and removes the
 * exception nodes (their object becomes null in what is left: frame states, and paths that leave
 * anyway). A handler that reads the exception ({@code e.getMessage()}) keeps today's behaviour:
 * an exit, and Java runs the handler.
 */
public final class CaughtImplicitExceptionsPhase extends BasePhase<CoreProviders> {

    @Override
    public Optional<NotApplicable> notApplicableTo(GraphState graphState) {
        return ALWAYS_APPLICABLE;
    }

    @Override
    protected void run(StructuredGraph graph, CoreProviders context) {
        for (ValuePhiNode phi : graph.getNodes().filter(ValuePhiNode.class).snapshot()) {
            if (phi.isAlive() && phi.getStackKind() == JavaKind.Object && (hasDispatchTest(phi) || reachesAReturn(phi.merge()))) {
                List<ResolvedJavaType> classes = exceptionClasses(phi, context.getMetaAccess());
                if (classes != null && onlyTestedOrCarried(phi, true)) {
                    replaceTests(graph, phi, classes);
                }
            }
        }
        // one implicit exception with a handler of its own, no dispatch merge (the parser already
        // decided its test, e.g. for catch (RuntimeException e))
        for (BytecodeExceptionNode exception : graph.getNodes().filter(BytecodeExceptionNode.class).snapshot()) {
            if (exception.isAlive() && exceptionClass(exception, context.getMetaAccess()) != null && exception.usages().filter(ValuePhiNode.class).isEmpty()
                            && onlyTestedOrCarried(exception, false) && reachesAReturn(exception)) {
                remove(graph, exception);
            }
        }
    }

    private static boolean hasDispatchTest(ValuePhiNode phi) {
        return phi.usages().filter(InstanceOfNode.class).isNotEmpty();
    }

    /**
     * Whether control from {@code start} can reach a {@link ReturnNode} without an
     * {@link UnwindNode} or an exit: then a handler catches what arrives there (where an implicit
     * exception only unwinds, it stays as it is, and {@link ExceptionPathsToDeoptimizationPhase}
     * names it in the exit's reason).
     */
    private static boolean reachesAReturn(FixedNode start) {
        NodeBitMap seen = start.graph().createNodeBitMap();
        Deque<Node> work = new ArrayDeque<>();
        work.add(start);
        seen.mark(start);
        while (!work.isEmpty()) {
            Node node = work.poll();
            if (node instanceof ReturnNode) {
                return true;
            }
            for (Node successor : ExceptionPathsToDeoptimizationPhase.forwardSuccessors(node)) {
                if (successor != null && !seen.isMarked(successor)) {
                    seen.mark(successor);
                    work.add(successor);
                }
            }
        }
        return false;
    }

    /** The exact exception class of each input of {@code phi}, or null if one input is not an implicit exception of a known class. */
    private static List<ResolvedJavaType> exceptionClasses(ValuePhiNode phi, MetaAccessProvider metaAccess) {
        List<ResolvedJavaType> classes = new ArrayList<>();
        for (int i = 0; i < phi.valueCount(); i++) {
            if (!(phi.valueAt(i) instanceof BytecodeExceptionNode exception)) {
                return null;
            }
            ResolvedJavaType thrown = exceptionClass(exception, metaAccess);
            if (thrown == null) {
                return null;
            }
            classes.add(thrown);
        }
        return classes;
    }

    /** The exact class of the exception {@code exception} raises, or null where it is not known. */
    private static ResolvedJavaType exceptionClass(BytecodeExceptionNode exception, MetaAccessProvider metaAccess) {
        Class<? extends Throwable> thrown = switch (exception.getExceptionKind()) {
            case NULL_POINTER -> NullPointerException.class;
            case OUT_OF_BOUNDS -> ArrayIndexOutOfBoundsException.class;
            case DIVISION_BY_ZERO -> ArithmeticException.class;
            case CLASS_CAST -> ClassCastException.class;
            case NEGATIVE_ARRAY_SIZE -> NegativeArraySizeException.class;
            case ARRAY_STORE -> ArrayStoreException.class;
            default -> null;
        };
        return thrown == null || exception.predecessor() == null ? null : metaAccess.lookupJavaType(thrown);
    }

    /**
     * Whether nothing reads the exception objects {@code value} carries: its usages are dispatch
     * tests (of the phi itself only, {@code tests}), frame states, unwinds, the handler's typed view
     * of the exception ({@link PiNode}) and phis that are themselves only carried on (an outer
     * dispatch must not test them: after this phase they hold null).
     */
    private static boolean onlyTestedOrCarried(ValueNode value, boolean tests) {
        for (Node usage : value.usages()) {
            boolean carried = usage instanceof FrameState || usage instanceof UnwindNode
                            || (usage instanceof PiNode pi && onlyTestedOrCarried(pi, false))
                            || (usage instanceof ValuePhiNode outer && outer != value && onlyTestedOrCarried(outer, false));
            if (!carried && !(tests && usage instanceof InstanceOfNode)) {
                return false;
            }
        }
        return true;
    }

    private static void replaceTests(StructuredGraph graph, ValuePhiNode phi, List<ResolvedJavaType> classes) {
        AbstractMergeNode merge = phi.merge();
        for (InstanceOfNode test : phi.usages().filter(InstanceOfNode.class).snapshot()) {
            ResolvedJavaType tested = test.type().getType();
            ValuePhiNode caught = graph.addWithoutUnique(new ValuePhiNode(StampFactory.forInteger(JavaKind.Int, 0, 1), merge));
            for (ResolvedJavaType thrown : classes) {
                caught.addInput(ConstantNode.forInt(tested.isAssignableFrom(thrown) ? 1 : 0, graph));
            }
            LogicNode isCaught = graph.addOrUniqueWithInputs(IntegerEqualsNode.create(caught, ConstantNode.forInt(1, graph), NodeView.DEFAULT));
            test.replaceAtUsagesAndDelete(isCaught);
        }
        List<BytecodeExceptionNode> exceptions = new ArrayList<>();
        for (int i = 0; i < phi.valueCount(); i++) {
            BytecodeExceptionNode exception = (BytecodeExceptionNode) phi.valueAt(i);
            if (!exceptions.contains(exception)) {
                exceptions.add(exception);
            }
        }
        for (BytecodeExceptionNode exception : exceptions) {
            remove(graph, exception);
        }
    }

    /** Removes {@code exception} from its path; what carried its object (frame states, paths that leave anyway) gets null. */
    private static void remove(StructuredGraph graph, BytecodeExceptionNode exception) {
        FrameState state = exception.stateAfter();
        exception.setStateAfter(null);
        exception.replaceAtUsages(ConstantNode.defaultForKind(JavaKind.Object, graph));
        graph.removeFixed(exception);
        if (state != null && state.isAlive() && state.hasNoUsages()) {
            GraphUtil.killWithUnusedFloatingInputs(state);
        }
    }
}
