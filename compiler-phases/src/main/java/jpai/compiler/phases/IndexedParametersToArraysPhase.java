package jpai.compiler.phases;

import java.util.HashSet;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import jdk.graal.compiler.core.common.type.StampFactory;
import jdk.graal.compiler.core.common.type.StampPair;
import jdk.graal.compiler.core.common.type.TypeReference;
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
import jdk.graal.compiler.nodes.java.ArrayLengthNode;
import jdk.graal.compiler.nodes.java.LoadIndexedNode;
import jdk.graal.compiler.nodes.java.StoreIndexedNode;
import jdk.graal.compiler.nodes.spi.CoreProviders;
import jdk.graal.compiler.nodes.util.GraphUtil;
import jdk.graal.compiler.phases.BasePhase;
import jdk.vm.ci.meta.DeoptimizationAction;
import jdk.vm.ci.meta.DeoptimizationReason;
import jdk.vm.ci.meta.JavaKind;
import jdk.vm.ci.meta.MetaAccessProvider;
import jdk.vm.ci.meta.ResolvedJavaMethod;
import jdk.vm.ci.meta.ResolvedJavaType;
import jpai.compiler.KernelBailoutException;
import jpai.compiler.loops.IndexedElements;

/**
 * Makes each {@link IndexedElements} parameter of an accelerated method (a {@code PArray}) an array
 * parameter of its element kind, so that the rest of the pipeline sees a method with a primitive
 * array there: the Java implementation of {@code get}, {@code put} and {@code length} reaches
 * off-heap memory through the runtime's classes, which a kernel cannot; on the device the elements
 * are a buffer.
 *
 * <p>Expects: inlining done with {@link #keptCalls} left alone (so these calls are still
 * {@link Invoke}s), exception paths already turned into exits. Does, for the parameter {@code p} of
 * index {@code k}: a new {@link ParameterNode} of index {@code k}, of the exact primitive array type,
 * never null (the runtime runs a call with a null argument in Java), replaces {@code p}, and
 * <ul>
 * <li>{@code p.length()} becomes the array's length, sign-extended to {@code long};</li>
 * <li>{@code p.get(i)} becomes a guard {@code 0 <= i < length} (one unsigned comparison) that exits
 * with {@link DeoptimizationReason#BoundsCheckException} (Java throws
 * {@code IndexOutOfBoundsException}; the re-run in Java does), the element load at {@code (int) i}
 * and a box of it, which the unboxing that follows cancels;</li>
 * <li>{@code p.put(i, v)} becomes the same guard and the store of {@code v}'s primitive value, where
 * {@code v} is a box of a primitive of the element kind made in the method (a value of another
 * origin, which may be null or another type, is refused);</li>
 * <li>a null check on {@code p} is false.</li>
 * </ul>
 * Any other use of {@code p} (passing it to another method, comparing it) is refused, naming the use
 * and the source line.
 */
public final class IndexedParametersToArraysPhase extends BasePhase<CoreProviders> {

    private final Map<Integer, IndexedElements> parameters;
    private final Map<Integer, String> names;

    /**
     * @param parameters the indexed parameters, by parameter index
     * @param names their names for messages, by parameter index
     */
    public IndexedParametersToArraysPhase(Map<Integer, IndexedElements> parameters, Map<Integer, String> names) {
        this.parameters = Map.copyOf(parameters);
        this.names = Map.copyOf(names);
    }

    /** The methods the inliner must leave as calls: {@code get}, {@code put} and {@code length} of every indexed parameter. */
    public static Set<ResolvedJavaMethod> keptCalls(Map<Integer, IndexedElements> parameters, MetaAccessProvider metaAccess) {
        Set<ResolvedJavaMethod> kept = new HashSet<>();
        for (IndexedElements elements : parameters.values()) {
            kept.add(metaAccess.lookupJavaMethod(elements.get()));
            kept.add(metaAccess.lookupJavaMethod(elements.put()));
            kept.add(metaAccess.lookupJavaMethod(elements.length()));
        }
        return kept;
    }

    @Override
    public Optional<NotApplicable> notApplicableTo(GraphState graphState) {
        return ALWAYS_APPLICABLE;
    }

    private record Accessors(IndexedElements elements, String name, ResolvedJavaMethod get, ResolvedJavaMethod put, ResolvedJavaMethod length, ResolvedJavaType boxType) {
    }

    @Override
    protected void run(StructuredGraph graph, CoreProviders context) {
        MetaAccessProvider metaAccess = context.getMetaAccess();
        for (Map.Entry<Integer, IndexedElements> entry : parameters.entrySet()) {
            int index = entry.getKey();
            IndexedElements elements = entry.getValue();
            ParameterNode original = graph.getParameter(index);
            if (original == null) {
                continue; // never read
            }
            ResolvedJavaType arrayType = metaAccess.lookupJavaType(elements.elementKind().toJavaClass().arrayType());
            ParameterNode array = graph.addWithoutUnique(new ParameterNode(index, StampPair.createSingle(StampFactory.objectNonNull(TypeReference.createExactTrusted(arrayType)))));
            Accessors accessors = new Accessors(elements, names.getOrDefault(index, "argument " + index), metaAccess.lookupJavaMethod(elements.get()),
                            metaAccess.lookupJavaMethod(elements.put()), metaAccess.lookupJavaMethod(elements.length()),
                            metaAccess.lookupJavaType(elements.elementKind().toBoxedJavaClass()));
            replaceUses(graph, original, array, accessors);
            if (original.isAlive()) {
                original.replaceAtUsages(array); // frame states only: dropped later, the re-run in Java never resumes from them
                original.safeDelete();
            }
        }
        // (long) i < p.length(), now an int array length widened: the loop finder wants i < limit, and the
        // bounds checks of p.get(i) then compare ints that the loop's test already proves
        WidenedInts.narrowComparisons(graph);
    }

    private static void replaceUses(StructuredGraph graph, ValueNode value, ParameterNode array, Accessors accessors) {
        for (Node usage : value.usages().snapshot()) {
            if (!usage.isAlive()) {
                continue;
            }
            if (usage instanceof PiNode pi && pi.object() == value) {
                replaceUses(graph, pi, array, accessors);
                if (pi.isAlive()) { // killing an unused call target kills its unused inputs, a Pi among them
                    pi.replaceAtUsages(array);
                    pi.safeDelete();
                }
            } else if (usage instanceof IsNullNode isNull) {
                isNull.replaceAtUsagesAndDelete(LogicConstantNode.contradiction(graph));
            } else if (usage instanceof FrameState) {
                continue;
            } else if (usage instanceof CallTargetNode target && target.invoke() != null && isReceiver(target.invoke(), value)) {
                ResolvedJavaMethod method = target.invoke().getTargetMethod();
                InvokeNode call = method.equals(accessors.length()) || method.equals(accessors.get()) || method.equals(accessors.put()) ? withoutExceptionEdge(target.invoke()) : null;
                if (call == null) {
                    throw KernelBailoutException.at(target.invoke().asNode(), otherUse(accessors, "a call to " + method.format("%h.%n")));
                }
                if (method.equals(accessors.length())) {
                    replaceLength(graph, call, array);
                } else if (method.equals(accessors.get())) {
                    replaceGet(graph, call, array, accessors);
                } else {
                    replacePut(graph, call, array, accessors);
                }
            } else {
                Node located = usage instanceof CallTargetNode target && target.invoke() != null ? target.invoke().asNode() : usage;
                throw KernelBailoutException.at(located, otherUse(accessors, usage instanceof CallTargetNode target && target.invoke() != null && target.invoke().getTargetMethod() != null
                                ? "a call to " + target.invoke().getTargetMethod().format("%h.%n")
                                : jpai.compiler.JavaConstructs.describe(usage)));
            }
        }
    }

    private static String otherUse(Accessors accessors, String use) {
        IndexedElements elements = accessors.elements();
        return "the parameter " + accessors.name() + " (a " + elements.typeName() + ") is used by " + use + "; in an accelerated method only its " + elements.get().getName() + "(long), "
                        + elements.put().getName() + "(long, value) and " + elements.length().getName() + "() are supported";
    }

    private static boolean isReceiver(Invoke invoke, ValueNode value) {
        return invoke.getTargetMethod() != null && !invoke.callTarget().arguments().isEmpty() && invoke.callTarget().arguments().get(0) == value
                        && invoke.callTarget().arguments().indexOf(value) == invoke.callTarget().arguments().lastIndexOf(value);
    }

    private static InvokeNode withoutExceptionEdge(Invoke invoke) {
        return invoke instanceof InvokeWithExceptionNode withException ? withException.replaceWithInvoke() : (InvokeNode) invoke;
    }

    private static void replaceLength(StructuredGraph graph, InvokeNode call, ParameterNode array) {
        ArrayLengthNode length = graph.add(new ArrayLengthNode(array));
        length.setNodeSourcePosition(call.getNodeSourcePosition());
        graph.addBeforeFixed(call, length);
        ValueNode wide = graph.addOrUniqueWithInputs(SignExtendNode.create(length, 64, NodeView.DEFAULT));
        Node callTarget = call.callTarget();
        call.replaceAtUsages(wide);
        graph.removeFixed(call);
        GraphUtil.tryKillUnused(callTarget);
    }

    /** The guard {@code index |<| length} before {@code call}, and the {@code int} index it proves exact. */
    private static FixedGuardNode boundsCheck(StructuredGraph graph, InvokeNode call, ParameterNode array, ValueNode index) {
        NodeSourcePosition position = call.getNodeSourcePosition();
        ArrayLengthNode length = graph.add(new ArrayLengthNode(array));
        length.setNodeSourcePosition(position);
        graph.addBeforeFixed(call, length);
        ValueNode wide = graph.addOrUniqueWithInputs(SignExtendNode.create(length, 64, NodeView.DEFAULT));
        // Unsigned: a negative index is a huge one, so one comparison checks both ends.
        LogicNode inBounds = graph.addOrUniqueWithInputs(IntegerBelowNode.create(index, wide, NodeView.DEFAULT));
        FixedGuardNode guard = graph.add(new FixedGuardNode(inBounds, DeoptimizationReason.BoundsCheckException, DeoptimizationAction.None));
        guard.setNodeSourcePosition(position);
        graph.addBeforeFixed(call, guard);
        return guard;
    }

    /** {@code get(index)}: guard, load element {@code (int) index}, box it. */
    private static void replaceGet(StructuredGraph graph, InvokeNode call, ParameterNode array, Accessors accessors) {
        ValueNode index = call.callTarget().arguments().get(1);
        JavaKind kind = accessors.elements().elementKind();
        FixedGuardNode guard = boundsCheck(graph, call, array, index);
        // The guard proves 0 <= index < length <= Integer.MAX_VALUE: the narrowing loses nothing.
        ValueNode intIndex = graph.addOrUniqueWithInputs(NarrowNode.create(index, 32, NodeView.DEFAULT));
        LoadIndexedNode load = graph.add(new LoadIndexedNode(null, array, intIndex, guard, kind));
        load.setNodeSourcePosition(call.getNodeSourcePosition());
        graph.addBeforeFixed(call, load);
        BoxNode box = graph.add(BoxNode.create(load, accessors.boxType(), kind));
        box.setNodeSourcePosition(call.getNodeSourcePosition());
        if (box instanceof StateSplit split) {
            split.setStateAfter(call.stateAfter());
        }
        Node callTarget = call.callTarget();
        graph.replaceFixedWithFixed(call, box);
        GraphUtil.tryKillUnused(callTarget);
    }

    /** {@code put(index, box of v)}: guard, store {@code v} at {@code (int) index}. */
    private static void replacePut(StructuredGraph graph, InvokeNode call, ParameterNode array, Accessors accessors) {
        ValueNode index = call.callTarget().arguments().get(1);
        ValueNode value = call.callTarget().arguments().get(2);
        while (value instanceof PiNode pi) {
            value = pi.getOriginalNode();
        }
        JavaKind kind = accessors.elements().elementKind();
        if (!(value instanceof BoxNode box) || box.getBoxingKind() != kind) {
            throw KernelBailoutException.at(call, "the value put into the parameter " + accessors.name() + " (a " + accessors.elements().typeName() + ") is not a "
                            + kind.getJavaName() + " computed in the method (" + jpai.compiler.JavaConstructs.describe(value)
                            + "); a kernel stores primitives, and a value that may be null or of another type is Java's to check");
        }
        FixedGuardNode guard = boundsCheck(graph, call, array, index);
        ValueNode intIndex = graph.addOrUniqueWithInputs(NarrowNode.create(index, 32, NodeView.DEFAULT));
        StoreIndexedNode store = graph.add(new StoreIndexedNode(array, intIndex, guard, null, kind, box.getValue()));
        store.setNodeSourcePosition(call.getNodeSourcePosition());
        store.setStateAfter(call.stateAfter());
        Node callTarget = call.callTarget();
        graph.replaceFixedWithFixed(call, store);
        GraphUtil.tryKillUnused(callTarget);
    }
}
