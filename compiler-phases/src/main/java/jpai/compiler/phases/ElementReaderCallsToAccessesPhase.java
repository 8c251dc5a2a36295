package jpai.compiler.phases;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

import jdk.graal.compiler.graph.Node;
import jdk.graal.compiler.graph.NodeSourcePosition;
import jdk.graal.compiler.nodes.CallTargetNode;
import jdk.graal.compiler.nodes.FixedGuardNode;
import jdk.graal.compiler.nodes.FrameState;
import jdk.graal.compiler.nodes.GraphState;
import jdk.graal.compiler.nodes.Invoke;
import jdk.graal.compiler.nodes.InvokeNode;
import jdk.graal.compiler.nodes.InvokeWithExceptionNode;
import jdk.graal.compiler.nodes.LogicConstantNode;
import jdk.graal.compiler.nodes.LogicNode;
import jdk.graal.compiler.nodes.NodeView;
import jdk.graal.compiler.nodes.ParameterNode;
import jdk.graal.compiler.nodes.PiNode;
import jdk.graal.compiler.nodes.StateSplit;
import jdk.graal.compiler.nodes.StructuredGraph;
import jdk.graal.compiler.nodes.ValueNode;
import jdk.graal.compiler.nodes.calc.IntegerBelowNode;
import jdk.graal.compiler.nodes.calc.IsNullNode;
import jdk.graal.compiler.nodes.calc.NarrowNode;
import jdk.graal.compiler.nodes.calc.SignExtendNode;
import jdk.graal.compiler.nodes.extended.BoxNode;
import jdk.graal.compiler.nodes.java.LoadFieldNode;
import jdk.graal.compiler.nodes.java.LoadIndexedNode;
import jdk.graal.compiler.nodes.spi.CoreProviders;
import jdk.graal.compiler.nodes.util.GraphUtil;
import jdk.graal.compiler.phases.BasePhase;
import jdk.vm.ci.meta.DeoptimizationAction;
import jdk.vm.ci.meta.DeoptimizationReason;
import jdk.vm.ci.meta.JavaKind;
import jdk.vm.ci.meta.MetaAccessProvider;
import jdk.vm.ci.meta.ResolvedJavaField;
import jdk.vm.ci.meta.ResolvedJavaMethod;
import jdk.vm.ci.meta.ResolvedJavaType;
import jpai.compiler.CapturedValue;
import jpai.compiler.KernelBailoutException;
import jpai.compiler.KernelInputs;
import jpai.compiler.KernelSignature;
import jpai.compiler.ValueShape;

/**
 * Turns the calls of {@code get(long)} and {@code length()} on a captured
 * {@link ValueShape.ElementReader} (the runtime's {@code PArray}) into accesses of the read-only
 * array parameter that stands for it on the device. The Java implementation of those methods reads
 * off-heap memory through the runtime's classes, which a kernel cannot do; the device has the
 * elements in a buffer instead.
 *
 * <p>Expects: inlining done with {@link #keptCalls} left alone (so these calls are still
 * {@link Invoke}s), exception paths already turned into exits, frame states still present (they are
 * ignored). Does, for every read of a captured element reader's field from the functional object:
 * <ul>
 * <li>{@code reader.length()} becomes the {@code int} length parameter, sign-extended to
 * {@code long};</li>
 * <li>{@code reader.get(i)} becomes a guard {@code 0 <= i < length} (an unsigned comparison) that
 * exits with {@link DeoptimizationReason#BoundsCheckException} (Java throws
 * {@code IndexOutOfBoundsException}, which the runtime's re-run in Java then does), an element load
 * {@link LoadIndexedNode} of the array parameter at {@code (int) i}, and a {@link BoxNode} of the
 * element, which the unboxing in the lambda cancels;</li>
 * <li>a null check on the reader is false (captured values are never null).</li>
 * </ul>
 * Any other use of the reader (passing it to a method, comparing it, choosing between two readers)
 * bails out, naming the use and the source line. The parameters are recorded in
 * {@link KernelInputs} like those of a captured primitive array.
 */
public final class ElementReaderCallsToAccessesPhase extends BasePhase<CoreProviders> {

    private final KernelSignature signature;
    private final KernelInputs inputs;

    public ElementReaderCallsToAccessesPhase(KernelSignature signature, KernelInputs inputs) {
        this.signature = signature;
        this.inputs = inputs;
    }

    /** The methods the inliner must leave as calls: {@code get} and {@code length} of every captured element reader. */
    public static Set<ResolvedJavaMethod> keptCalls(KernelSignature signature, MetaAccessProvider metaAccess) {
        Set<ResolvedJavaMethod> kept = new HashSet<>();
        for (CapturedValue capture : signature.captures()) {
            if (capture.shape() instanceof ValueShape.ElementReader reader) {
                kept.add(metaAccess.lookupJavaMethod(reader.get()));
                kept.add(metaAccess.lookupJavaMethod(reader.length()));
            }
        }
        return kept;
    }

    /** The bailout message for a use of a captured element reader other than its two methods. */
    static String otherUse(ValueShape.ElementReader reader, CapturedValue value, Node use) {
        String what = use instanceof CallTargetNode target && target.invoke() != null && target.invoke().getTargetMethod() != null
                        ? "a call to " + target.invoke().getTargetMethod().format("%h.%n")
                        : jpai.compiler.JavaConstructs.describe(use);
        return "the captured " + reader + " (field " + value.field().getName() + ") is used by " + what + "; on OpenCL only its "
                        + reader.get().getName() + "(long) and " + reader.length().getName() + "() are supported";
    }

    @Override
    public Optional<NotApplicable> notApplicableTo(GraphState graphState) {
        return ALWAYS_APPLICABLE;
    }

    @Override
    protected void run(StructuredGraph graph, CoreProviders context) {
        ParameterNode receiver = graph.getParameter(0);
        if (receiver == null || graph.method().isStatic()) {
            return;
        }
        MetaAccessProvider metaAccess = context.getMetaAccess();
        List<CapturedValue> captures = signature.captures();
        for (int capture = 0; capture < captures.size(); capture++) {
            if (!(captures.get(capture).shape() instanceof ValueShape.ElementReader reader)) {
                continue;
            }
            ResolvedJavaField field = metaAccess.lookupJavaField(captures.get(capture).field());
            Accessors accessors = new Accessors(metaAccess.lookupJavaMethod(reader.get()), metaAccess.lookupJavaMethod(reader.length()),
                            metaAccess.lookupJavaType(reader.elementKind().toBoxedJavaClass()));
            for (LoadFieldNode read : readsOf(receiver, field)) {
                replaceUses(graph, read, capture, reader, captures.get(capture), accessors, metaAccess);
            }
        }
    }

    private record Accessors(ResolvedJavaMethod get, ResolvedJavaMethod length, ResolvedJavaType boxType) {
    }

    /** The reads of {@code field} from the functional object (seen through Pi nodes). */
    private static List<LoadFieldNode> readsOf(ValueNode receiver, ResolvedJavaField field) {
        List<LoadFieldNode> reads = new ArrayList<>();
        for (Node usage : receiver.usages()) {
            if (usage instanceof LoadFieldNode read && read.object() == receiver && read.field().equals(field)) {
                reads.add(read);
            } else if (usage instanceof PiNode pi) {
                reads.addAll(readsOf(pi, field));
            }
        }
        return reads;
    }

    private void replaceUses(StructuredGraph graph, ValueNode readerValue, int capture, ValueShape.ElementReader reader, CapturedValue value, Accessors accessors,
                    MetaAccessProvider metaAccess) {
        for (Node usage : readerValue.usages().snapshot()) {
            if (!usage.isAlive()) {
                continue;
            }
            if (usage instanceof PiNode pi) {
                replaceUses(graph, pi, capture, reader, value, accessors, metaAccess);
            } else if (usage instanceof IsNullNode isNull) {
                isNull.replaceAtUsagesAndDelete(LogicConstantNode.contradiction(graph));
            } else if (usage instanceof FrameState) {
                continue; // dropped later; the re-run in Java never resumes from a kernel's state
            } else if (usage instanceof CallTargetNode target && target.invoke() != null && isReceiver(target.invoke(), readerValue)
                            && target.invoke().getTargetMethod().equals(accessors.length())) {
                InvokeNode call = withoutExceptionEdge(target.invoke());
                ValueNode length = graph.addOrUniqueWithInputs(SignExtendNode.create(inputs.arrayCaptureLengthOfPresentArray(graph, capture), 64, NodeView.DEFAULT));
                graph.replaceFixedWithFloating(call, length);
                GraphUtil.tryKillUnused(target);
            } else if (usage instanceof CallTargetNode target && target.invoke() != null && isReceiver(target.invoke(), readerValue)
                            && target.invoke().getTargetMethod().equals(accessors.get())) {
                replaceGet(graph, withoutExceptionEdge(target.invoke()), capture, reader, accessors, metaAccess);
            } else {
                Node located = usage instanceof CallTargetNode target && target.invoke() != null ? target.invoke().asNode() : usage;
                throw KernelBailoutException.at(located, otherUse(reader, value, usage));
            }
        }
    }

    private static boolean isReceiver(Invoke invoke, ValueNode value) {
        return invoke.getTargetMethod() != null && !invoke.callTarget().arguments().isEmpty() && invoke.callTarget().arguments().get(0) == value
                        && invoke.callTarget().arguments().indexOf(value) == invoke.callTarget().arguments().lastIndexOf(value);
    }

    private static InvokeNode withoutExceptionEdge(Invoke invoke) {
        return invoke instanceof InvokeWithExceptionNode withException ? withException.replaceWithInvoke() : (InvokeNode) invoke;
    }

    /** {@code get(index)}: guard {@code index |<| length}, load element {@code (int) index}, box it. */
    private void replaceGet(StructuredGraph graph, InvokeNode call, int capture, ValueShape.ElementReader reader, Accessors accessors, MetaAccessProvider metaAccess) {
        NodeSourcePosition position = call.getNodeSourcePosition();
        ValueNode index = call.callTarget().arguments().get(1);
        JavaKind kind = reader.elementKind();
        ParameterNode array = inputs.arrayCapture(graph, capture, metaAccess.lookupJavaType(kind.toJavaClass().arrayType()));
        ValueNode length = graph.addOrUniqueWithInputs(SignExtendNode.create(inputs.arrayCaptureLengthOfPresentArray(graph, capture), 64, NodeView.DEFAULT));
        // Unsigned: a negative index is a huge one, so one comparison checks both ends.
        LogicNode inBounds = graph.addOrUniqueWithInputs(IntegerBelowNode.create(index, length, NodeView.DEFAULT));
        FixedGuardNode guard = graph.add(new FixedGuardNode(inBounds, DeoptimizationReason.BoundsCheckException, DeoptimizationAction.None));
        guard.setNodeSourcePosition(position);
        // The guard proves 0 <= index < length <= Integer.MAX_VALUE: the narrowing loses nothing.
        ValueNode intIndex = graph.addOrUniqueWithInputs(NarrowNode.create(index, 32, NodeView.DEFAULT));
        LoadIndexedNode load = graph.add(new LoadIndexedNode(null, array, intIndex, guard, kind));
        load.setNodeSourcePosition(position);
        BoxNode box = graph.add(BoxNode.create(load, accessors.boxType(), kind));
        box.setNodeSourcePosition(position);
        if (box instanceof StateSplit split) {
            split.setStateAfter(call.stateAfter());
        }
        graph.addBeforeFixed(call, guard);
        graph.addBeforeFixed(call, load);
        Node callTarget = call.callTarget();
        graph.replaceFixedWithFixed(call, box);
        GraphUtil.tryKillUnused(callTarget);
    }
}
