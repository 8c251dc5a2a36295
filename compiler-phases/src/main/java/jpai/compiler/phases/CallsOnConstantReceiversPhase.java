package jpai.compiler.phases;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import jdk.graal.compiler.core.common.type.StampFactory;
import jdk.graal.compiler.graph.Node;
import jdk.graal.compiler.nodeinfo.InputType;
import jdk.graal.compiler.nodes.AbstractBeginNode;
import jdk.graal.compiler.nodes.AbstractMergeNode;
import jdk.graal.compiler.nodes.BeginNode;
import jdk.graal.compiler.nodes.CallTargetNode.InvokeKind;
import jdk.graal.compiler.nodes.ConstantNode;
import jdk.graal.compiler.nodes.EndNode;
import jdk.graal.compiler.nodes.FixedNode;
import jdk.graal.compiler.nodes.FixedWithNextNode;
import jdk.graal.compiler.nodes.FrameState;
import jdk.graal.compiler.nodes.GraphState;
import jdk.graal.compiler.nodes.IfNode;
import jdk.graal.compiler.nodes.Invoke;
import jdk.graal.compiler.nodes.InvokeWithExceptionNode;
import jdk.graal.compiler.nodes.LogicNode;
import jdk.graal.compiler.nodes.MergeNode;
import jdk.graal.compiler.nodes.NodeView;
import jdk.graal.compiler.nodes.PhiNode;
import jdk.graal.compiler.nodes.ProfileData.BranchProbabilityData;
import jdk.graal.compiler.nodes.StructuredGraph;
import jdk.graal.compiler.nodes.ValueNode;
import jdk.graal.compiler.nodes.ValuePhiNode;
import jdk.graal.compiler.nodes.calc.IntegerEqualsNode;
import jdk.graal.compiler.nodes.java.ExceptionObjectNode;
import jdk.graal.compiler.nodes.java.MethodCallTargetNode;
import jdk.graal.compiler.nodes.spi.CoreProviders;
import jdk.graal.compiler.nodes.util.GraphUtil;
import jdk.graal.compiler.phases.BasePhase;
import jdk.vm.ci.meta.JavaConstant;
import jdk.vm.ci.meta.JavaKind;
import jdk.vm.ci.meta.ResolvedJavaMethod;
import jdk.vm.ci.meta.ResolvedJavaType;

/**
 * Turns a virtual call whose receiver is one of a few known objects into a switch over those
 * objects, with a direct call on each, which the inliner can then inline. The JDK picks helper
 * objects this way: {@code Character.isDigit(cp)} is {@code CharacterData.of(cp).isDigit(cp)}, where
 * {@code of} returns one of eight table objects by the code point's plane; once {@code of} is
 * inlined the receiver is a phi of eight constants, of as many classes, and no type profile says
 * which, so the call would stay a call and the kernel could not be built (issue 19, item 9).
 *
 * <p>Expects: the graph after inlining, with frame states. Does: for each {@link Invoke} whose call
 * target is virtual or interface and whose receiver is a {@link ValuePhiNode} of non-null object
 * constants, each with a concrete implementation of the target method: adds at the phi's merge an
 * {@code int} phi numbering the phi's distinct constants, replaces the invoke by an {@code if} chain
 * on that number whose branches each hold a copy of the invoke, a direct call on one constant
 * receiver, and merges their results (and their exception edges) as the original invoke's were. The
 * object phi itself is no longer the receiver of anything this phase made; the kernel never holds the
 * objects, only their number. Run the inliner again afterwards.
 */
public final class CallsOnConstantReceiversPhase extends BasePhase<CoreProviders> {

    @Override
    public Optional<NotApplicable> notApplicableTo(GraphState graphState) {
        return ALWAYS_APPLICABLE;
    }

    /** Whether {@code graph} has a call this phase would replace. */
    public static boolean appliesTo(StructuredGraph graph, CoreProviders providers) {
        for (Invoke invoke : graph.getInvokes()) {
            if (targets(invoke, providers) != null) {
                return true;
            }
        }
        return false;
    }

    @Override
    protected void run(StructuredGraph graph, CoreProviders context) {
        List<Invoke> invokes = new ArrayList<>();
        for (Invoke invoke : graph.getInvokes()) {
            invokes.add(invoke);
        }
        for (Invoke invoke : invokes) {
            Targets targets = targets(invoke, context);
            if (targets != null) {
                dispatch(graph, invoke, targets, context);
            }
        }
    }

    /**
     * The receiver phi's distinct constants ({@code receivers}), which one each phi input is
     * ({@code numberOfInput}), and the method each one's call reaches.
     */
    private record Targets(ValuePhiNode phi, List<JavaConstant> receivers, int[] numberOfInput, List<ResolvedJavaMethod> methods) {
    }

    /** The dispatch {@code invoke} needs, or null if it is not a virtual call on a phi of constants. */
    private static Targets targets(Invoke invoke, CoreProviders providers) {
        if (!(invoke.callTarget() instanceof MethodCallTargetNode target) || !invoke.asNode().isAlive()) {
            return null;
        }
        if (target.invokeKind() != InvokeKind.Virtual && target.invokeKind() != InvokeKind.Interface) {
            return null;
        }
        if (!(target.receiver() instanceof ValuePhiNode phi) || phi.getStackKind() != JavaKind.Object) {
            return null;
        }
        List<JavaConstant> receivers = new ArrayList<>();
        List<ResolvedJavaMethod> methods = new ArrayList<>();
        int[] numberOfInput = new int[phi.valueCount()];
        for (int i = 0; i < phi.valueCount(); i++) {
            ValueNode value = phi.valueAt(i);
            if (!value.isJavaConstant() || value.asJavaConstant().isNull() || value.asJavaConstant().getJavaKind() != JavaKind.Object) {
                return null;
            }
            JavaConstant constant = value.asJavaConstant();
            int number = receivers.indexOf(constant);
            if (number < 0) {
                ResolvedJavaType type = providers.getMetaAccess().lookupJavaType(constant);
                ResolvedJavaMethod method = type == null ? null : type.resolveConcreteMethod(target.targetMethod(), invoke.getContextType());
                if (method == null || method.isAbstract()) {
                    return null;
                }
                number = receivers.size();
                receivers.add(constant);
                methods.add(method);
            }
            numberOfInput[i] = number;
        }
        return new Targets(phi, receivers, numberOfInput, methods);
    }

    private static void dispatch(StructuredGraph graph, Invoke invoke, Targets targets, CoreProviders providers) {
        int count = targets.receivers().size();
        AbstractMergeNode receiverMerge = targets.phi().merge();
        ValuePhiNode number = graph.addWithoutUnique(new ValuePhiNode(StampFactory.forInteger(JavaKind.Int, 0, count - 1), receiverMerge));
        for (int input : targets.numberOfInput()) {
            number.addInput(ConstantNode.forInt(input, graph));
        }

        FixedNode continuation = invoke.next();
        MergeNode returnMerge = graph.add(new MergeNode());
        returnMerge.setStateAfter(invoke.stateAfter());
        PhiNode result = null;
        if (invoke.asNode().getStackKind() != JavaKind.Void) {
            result = graph.addWithoutUnique(new ValuePhiNode(invoke.asNode().stamp(NodeView.DEFAULT).unrestricted(), returnMerge));
        }
        MergeNode exceptionMerge = null;
        PhiNode exceptionObject = null;
        ExceptionObjectNode exceptionEdge = null;
        if (invoke instanceof InvokeWithExceptionNode withException) {
            if (!(withException.exceptionEdge() instanceof ExceptionObjectNode edge)) {
                return; // an exception edge of another shape: leave the call as it is
            }
            exceptionEdge = edge;
            exceptionMerge = graph.add(new MergeNode());
            graph.addBeforeFixed(edge.next(), exceptionMerge);
            exceptionObject = graph.addWithoutUnique(new ValuePhiNode(StampFactory.forKind(JavaKind.Object), exceptionMerge));
            exceptionMerge.setStateAfter(edge.stateAfter().duplicateModified(JavaKind.Object, JavaKind.Object, exceptionObject, null));
        }

        AbstractBeginNode[] branches = new AbstractBeginNode[count];
        for (int k = 0; k < count; k++) {
            Invoke call = directCall(graph, invoke, targets.methods().get(k), ConstantNode.forConstant(targets.receivers().get(k), providers.getMetaAccess(), graph), exceptionMerge,
                            exceptionObject);
            AbstractBeginNode entry = graph.add(new BeginNode());
            entry.setNext(call.asFixedNode());
            EndNode end = graph.add(new EndNode());
            call.setNext(end);
            returnMerge.addForwardEnd(end);
            if (result != null) {
                result.addInput(call.asNode());
            }
            branches[k] = entry;
        }

        if (exceptionEdge != null) {
            exceptionEdge.replaceAtUsages(exceptionMerge, InputType.Guard, InputType.Anchor);
            exceptionEdge.replaceAtUsages(exceptionObject);
            exceptionEdge.setNext(null);
            GraphUtil.killCFG(exceptionEdge);
        }

        // if (number == 0) call 0 else if (number == 1) call 1 ... else call count - 1
        FixedNode chain = branches[count - 1];
        for (int k = count - 2; k >= 0; k--) {
            LogicNode isK = graph.addOrUniqueWithInputs(IntegerEqualsNode.create(number, ConstantNode.forInt(k, graph), NodeView.DEFAULT));
            IfNode test = graph.add(new IfNode(isK, branches[k], chain instanceof AbstractBeginNode begin ? begin : BeginNode.begin(chain), BranchProbabilityData.unknown()));
            chain = test;
        }
        FixedWithNextNode before = (FixedWithNextNode) invoke.asNode().predecessor();
        before.setNext(null);
        invoke.setNext(null);
        before.setNext(chain);
        returnMerge.setNext(continuation);
        if (result != null) {
            invoke.asNode().replaceAtUsages(result);
        }
        Node callTarget = invoke.callTarget();
        invoke.asNode().safeDelete();
        if (callTarget.isAlive() && callTarget.hasNoUsages()) {
            GraphUtil.killWithUnusedFloatingInputs(callTarget);
        }
    }

    /** A copy of {@code invoke} that calls {@code method} on {@code receiver} directly, with its own frame state and exception edge. */
    private static Invoke directCall(StructuredGraph graph, Invoke invoke, ResolvedJavaMethod method, ValueNode receiver, MergeNode exceptionMerge, PhiNode exceptionObject) {
        Invoke copy = (Invoke) invoke.asNode().copyWithInputs();
        MethodCallTargetNode target = (MethodCallTargetNode) invoke.callTarget().copyWithInputs();
        copy.asNode().replaceFirstInput(invoke.callTarget(), target);
        target.setInvokeKind(InvokeKind.Special);
        target.setTargetMethod(method);
        target.replaceFirstInput(target.receiver(), receiver);
        copy.setUseForInlining(true);
        if (invoke.asNode().getStackKind() != JavaKind.Void) {
            FrameState state = invoke.stateAfter().duplicate();
            state.replaceFirstInput(invoke.asNode(), copy.asNode());
            copy.setStateAfter(state);
        }
        if (invoke instanceof InvokeWithExceptionNode withException) {
            ExceptionObjectNode edge = (ExceptionObjectNode) withException.exceptionEdge();
            ExceptionObjectNode newEdge = (ExceptionObjectNode) edge.copyWithInputs();
            newEdge.setStateAfter(edge.stateAfter().duplicateModified(JavaKind.Object, JavaKind.Object, newEdge, null));
            EndNode end = graph.add(new EndNode());
            newEdge.setNext(end);
            exceptionMerge.addForwardEnd(end);
            exceptionObject.addInput(newEdge);
            ((InvokeWithExceptionNode) copy).setExceptionEdge(newEdge);
        }
        return copy;
    }
}
