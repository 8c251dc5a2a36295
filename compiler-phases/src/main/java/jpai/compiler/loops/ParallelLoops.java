package jpai.compiler.loops;

import java.util.ArrayList;
import java.util.List;

import jdk.graal.compiler.graph.Node;
import jdk.graal.compiler.nodes.AbstractBeginNode;
import jdk.graal.compiler.nodes.AbstractEndNode;
import jdk.graal.compiler.nodes.AbstractMergeNode;
import jdk.graal.compiler.nodes.ConstantNode;
import jdk.graal.compiler.nodes.ControlSinkNode;
import jdk.graal.compiler.nodes.DeoptimizeNode;
import jdk.graal.compiler.nodes.FixedGuardNode;
import jdk.graal.compiler.nodes.FixedNode;
import jdk.graal.compiler.nodes.FixedWithNextNode;
import jdk.graal.compiler.nodes.FrameState;
import jdk.graal.compiler.nodes.IfNode;
import jdk.graal.compiler.nodes.LoopBeginNode;
import jdk.graal.compiler.nodes.LoopEndNode;
import jdk.graal.compiler.nodes.LoopExitNode;
import jdk.graal.compiler.nodes.ParameterNode;
import jdk.graal.compiler.nodes.PhiNode;
import jdk.graal.compiler.nodes.PiNode;
import jdk.graal.compiler.nodes.ProxyNode;
import jdk.graal.compiler.nodes.ReturnNode;
import jdk.graal.compiler.nodes.StartNode;
import jdk.graal.compiler.nodes.StructuredGraph;
import jdk.graal.compiler.nodes.UnwindNode;
import jdk.graal.compiler.nodes.ValueNode;
import jdk.graal.compiler.nodes.ValuePhiNode;
import jdk.graal.compiler.nodes.calc.AddNode;
import jdk.graal.compiler.nodes.calc.BinaryNode;
import jdk.graal.compiler.nodes.calc.ConditionalNode;
import jdk.graal.compiler.nodes.calc.IntegerLessThanNode;
import jdk.graal.compiler.nodes.java.ArrayLengthNode;
import jdk.graal.compiler.nodes.memory.MemoryKill;
import jdk.graal.compiler.nodes.extended.ValueAnchorNode;
import jdk.vm.ci.meta.JavaKind;
import jdk.vm.ci.meta.Local;
import jdk.vm.ci.meta.LocalVariableTable;
import jdk.vm.ci.meta.ResolvedJavaMethod;
import jpai.compiler.KernelBailoutException;
import jpai.compiler.SourceLocation;

/**
 * Finds the parallel loop of an accelerated method's graph and checks that it can become a kernel:
 * the loop whose header phi is the {@code @Parallel} variable (the local in the loop header's frame
 * state at the variable's slot), a counted loop {@code for (i = a; i < b; i++)} whose bounds the
 * runtime can compute from the arguments ({@link LoopBound}), with no effect before it and nothing
 * but a {@code return} after it, and no value carried from one iteration to the next except a
 * {@code @Reduce} variable accumulated with an associative operator. Every refusal is a
 * {@link KernelBailoutException} whose sentence names the construct and its line.
 *
 * <p>Expects a graph straight from the parser or after inlining and canonicalisation, with frame
 * states (it reads the loop header's) and Java's exception paths already turned into deoptimizations
 * (so that checks before and inside the loop are guards, not control flow).
 */
public final class ParallelLoops {

    private ParallelLoops() {
    }

    /**
     * The loop of {@code parallel} (the outermost, when several {@code @Parallel} loops nest), with the
     * {@code @Parallel} loops perfectly nested in it ({@link PerfectNests}: the other inner ones run
     * sequentially inside each work-item; none with a reduction), with the accumulation of {@code reduce}
     * (null when none is marked). A {@code float} or {@code double} sum or product is refused unless
     * {@code reassociate} (the user's {@code @Reduce(reassociate = true)}) allows another association.
     */
    public static ParallelLoop find(StructuredGraph graph, List<MarkedVariable> parallel, MarkedVariable reduce, boolean reassociate) {
        ResolvedJavaMethod method = graph.method();
        LoopBeginNode loop = null;
        ValuePhiNode index = null;
        for (LoopBeginNode candidate : graph.getNodes(LoopBeginNode.TYPE)) {
            FrameState state = candidate.stateAfter();
            if (state == null || !method.equals(state.getMethod())) {
                continue; // a loop of an inlined callee
            }
            for (MarkedVariable variable : parallel) {
                if (variable.coversBci(state.bci) && variable.slot() < state.localsSize() && state.localAt(variable.slot()) instanceof ValuePhiNode phi && phi.merge() == candidate) {
                    if (loop == null || state.bci < loop.stateAfter().bci) {
                        loop = candidate;
                        index = phi;
                    }
                }
            }
        }
        if (loop == null) {
            throw new KernelBailoutException("no loop counts the @Parallel variable; mark the variable of a loop for (@Parallel int i = a; i < b; i++)", SourceLocation.of(method, 0));
        }
        if (index.getStackKind() != JavaKind.Int) {
            throw KernelBailoutException.at(loop, "the @Parallel variable is not an int");
        }
        for (LoopEndNode end : loop.loopEnds()) {
            ValueNode next = index.valueAt(end);
            if (!(next instanceof AddNode add && add.getX() == index && add.getY() instanceof ConstantNode step && step.asJavaConstant().asLong() == 1)) {
                throw KernelBailoutException.at(end, "the @Parallel loop does not count up by one (i++) on every path; only such loops become kernels");
            }
        }
        IfNode header = header(loop);
        IntegerLessThanNode test = (IntegerLessThanNode) header.condition();
        ValueNode start = index.valueAt(loop.forwardEnd());
        LoopBound first = bound(start, "first value", header);
        LoopBound limit = bound(test.getY(), "limit", header);
        ParallelLoop.Reduction reduction = null;
        for (PhiNode phi : loop.phis()) {
            if (phi == index) {
                continue;
            }
            if (reduce != null && phi instanceof ValuePhiNode value && loop.stateAfter().localsSize() > reduce.slot() && loop.stateAfter().localAt(reduce.slot()) == phi
                            && reduce.coversBci(loop.stateAfter().bci)) {
                reduction = reduction(loop, value, header, reassociate);
            } else {
                throw KernelBailoutException.at(loop, "the @Parallel loop carries " + nameOf(method, loop, phi)
                                + " from one iteration to the next, so its iterations are not independent (mark an accumulator @Reduce)");
            }
        }
        if (reduce != null && reduction == null) {
            throw KernelBailoutException.at(loop, "the @Reduce variable is not accumulated by the @Parallel loop");
        }
        checkNothingBefore(loop);
        checkOnlyReturnAfter(loop, header, reduction);
        ParallelLoop outer = new ParallelLoop(loop, index, header, start, first, limit, reduction, List.of(), null);
        if (reduction != null) {
            return outer; // a reduction's contributions are combined in the outer loop's order: one dimension
        }
        return PerfectNests.withInnerLoops(outer, parallel);
    }

    /** The phi of a {@code @Parallel} variable at {@code loop}'s header, or null when none of {@code parallel} is counted by it. */
    static ValuePhiNode parallelIndex(LoopBeginNode loop, List<MarkedVariable> parallel) {
        FrameState state = loop.stateAfter();
        if (state == null || !loop.graph().method().equals(state.getMethod())) {
            return null;
        }
        for (MarkedVariable variable : parallel) {
            if (variable.coversBci(state.bci) && variable.slot() < state.localsSize() && state.localAt(variable.slot()) instanceof ValuePhiNode phi && phi.merge() == loop) {
                return phi;
            }
        }
        return null;
    }

    /** The loop's test {@code index < limit}: the first control split after the header, past guards and array lengths. */
    static IfNode header(LoopBeginNode loop) {
        FixedNode node = loop.next();
        while (true) {
            if (node instanceof FixedGuardNode || node instanceof ArrayLengthNode || node instanceof ValueAnchorNode || node instanceof AbstractBeginNode || constantRow(node) != null
                            || node instanceof jdk.graal.compiler.nodes.calc.IntegerDivRemNode) { // the limit's n / k, evaluated at each test as Java does
                node = ((FixedWithNextNode) node).next();
            } else if (node instanceof IfNode check && !(check.condition() instanceof IntegerLessThanNode) && endsInException(check.trueSuccessor())) {
                node = check.falseSuccessor(); // a Java exception's check, say the null check of the array whose length is the limit
            } else if (node instanceof IfNode check && !(check.condition() instanceof IntegerLessThanNode) && endsInException(check.falseSuccessor())) {
                node = check.trueSuccessor();
            } else {
                break;
            }
        }
        if (node instanceof IfNode test && test.condition() instanceof IntegerLessThanNode less && less.getX() == phiOf(loop, less)
                        && test.falseSuccessor() instanceof LoopExitNode exit && exit.loopBegin() == loop && !(test.trueSuccessor() instanceof LoopExitNode)) {
            return test;
        }
        if (node instanceof FixedWithNextNode computed && !(node instanceof AbstractBeginNode)) {
            // javac evaluates the condition at each test: a load or a call there may give another limit each time
            throw KernelBailoutException.at(node, "the @Parallel loop's test computes its limit with " + jpai.compiler.JavaConstructs.describe(computed)
                            + " at each iteration; only limits computed from constants, int parameters and array parameters' lengths, which no iteration changes, become kernels");
        }
        throw KernelBailoutException.at(node, "the @Parallel loop's test is not i < limit at its head; only loops for (i = a; i < b; i++) become kernels");
    }

    private static ValueNode phiOf(LoopBeginNode loop, IntegerLessThanNode less) {
        return less.getX() instanceof ValuePhiNode phi && phi.merge() == loop ? phi : null;
    }

    /** How many operations a bound may chain: enough for {@code (a.length - 2) / 2 + 1}, few enough to say "computed" of anything else. */
    private static final int MAX_BOUND_OPERATIONS = 8;

    /**
     * A bound the runtime computes: constants, integral parameters and array parameters' lengths,
     * combined by Java's integer operators ({@link LoopBound.Computed}).
     */
    static LoopBound bound(ValueNode value, String what, Node where) {
        LoopBound bound = boundOf(value, new int[] {MAX_BOUND_OPERATIONS});
        if (bound == null) {
            throw KernelBailoutException.at(where, "the @Parallel loop's " + what + " is computed from something else than constants, int parameters and array parameters' lengths"
                            + " (with + - * / % << >> >>> & | ^); only such bounds, which no iteration changes, are computed before a launch");
        }
        return bound;
    }

    /** {@code value} as a bound, or null; {@code budget[0]} counts the operations left. */
    private static LoopBound boundOf(ValueNode value, int[] budget) {
        ValueNode bare = skipPi(value);
        if (bare instanceof ConstantNode constant && constant.asJavaConstant() != null && constant.getStackKind().isNumericInteger()) {
            return new LoopBound.Constant(constant.asJavaConstant().asLong());
        }
        if (bare instanceof ParameterNode parameter && parameter.getStackKind().isNumericInteger()) {
            return new LoopBound.Parameter(parameter.index());
        }
        if (bare instanceof ArrayLengthNode length && skipPi(length.array()) instanceof ParameterNode array) {
            return new LoopBound.ArrayLength(array.index());
        }
        if (bare instanceof ArrayLengthNode length && constantRow(skipPi(length.array())) instanceof LoopBound.RowLength row) {
            return row;
        }
        LoopBound.Operator operator = operatorOf(bare);
        if (operator == null || budget[0]-- <= 0 || !(bare.stamp(jdk.graal.compiler.nodes.NodeView.DEFAULT) instanceof jdk.graal.compiler.core.common.type.IntegerStamp stamp)) {
            return null;
        }
        ValueNode x = bare instanceof BinaryNode binary ? binary.getX() : ((jdk.graal.compiler.nodes.calc.FixedBinaryNode) bare).getX();
        ValueNode y = bare instanceof BinaryNode binary ? binary.getY() : ((jdk.graal.compiler.nodes.calc.FixedBinaryNode) bare).getY();
        LoopBound left = boundOf(x, budget);
        LoopBound right = left == null ? null : boundOf(y, budget);
        return right == null ? null : new LoopBound.Computed(operator, left, right, stamp.getBits() == 64 ? 64 : 32);
    }

    /**
     * {@code node} as the length of row {@code r} (a constant) of a 2-D array parameter
     * ({@code b[0].length} without its {@code .length}: the load of the row), or null. The load reads
     * a row reference, which no kernel writes, so it is the same at every test of the loop.
     */
    private static LoopBound.RowLength constantRow(Node node) {
        if (node instanceof jdk.graal.compiler.nodes.java.LoadIndexedNode row && row.elementKind() == JavaKind.Object && skipPi(row.array()) instanceof ParameterNode matrix
                        && row.index() instanceof ConstantNode index && index.asJavaConstant() != null) {
            return new LoopBound.RowLength(matrix.index(), index.asJavaConstant().asInt());
        }
        return null;
    }

    private static LoopBound.Operator operatorOf(ValueNode node) {
        return switch (node) {
            case AddNode n -> LoopBound.Operator.ADD;
            case jdk.graal.compiler.nodes.calc.SubNode n -> LoopBound.Operator.SUB;
            case jdk.graal.compiler.nodes.calc.MulNode n -> LoopBound.Operator.MUL;
            case jdk.graal.compiler.nodes.calc.SignedDivNode n -> LoopBound.Operator.DIV;
            case jdk.graal.compiler.nodes.calc.SignedRemNode n -> LoopBound.Operator.REM;
            case jdk.graal.compiler.nodes.calc.LeftShiftNode n -> LoopBound.Operator.SHL;
            case jdk.graal.compiler.nodes.calc.RightShiftNode n -> LoopBound.Operator.SHR;
            case jdk.graal.compiler.nodes.calc.UnsignedRightShiftNode n -> LoopBound.Operator.USHR;
            case jdk.graal.compiler.nodes.calc.AndNode n -> LoopBound.Operator.AND;
            case jdk.graal.compiler.nodes.calc.OrNode n -> LoopBound.Operator.OR;
            case jdk.graal.compiler.nodes.calc.XorNode n -> LoopBound.Operator.XOR;
            default -> null;
        };
    }

    private static ValueNode skipPi(ValueNode value) {
        ValueNode node = value;
        while (node instanceof PiNode pi) {
            node = pi.getOriginalNode();
        }
        return node;
    }

    private static ParallelLoop.Reduction reduction(LoopBeginNode loop, ValuePhiNode phi, IfNode header, boolean reassociate) {
        if (loop.getLoopEndCount() != 1) {
            throw KernelBailoutException.at(loop, "the @Reduce variable's loop has a continue; accumulate once at the end of the body");
        }
        ValueNode next = phi.valueAt(loop.getSingleLoopEnd());
        ReductionOperator operator = ReductionOperator.of(next);
        ValueNode contribution;
        if (operator != null && next instanceof BinaryNode binary) {
            contribution = binary.getX() == phi ? binary.getY() : binary.getY() == phi ? binary.getX() : null;
        } else if (next instanceof ConditionalNode choice && choice.condition() instanceof IntegerLessThanNode less) {
            // Math.min/max inlined as a choice: x < y ? y : x is max(x, y), x < y ? x : y is min(x, y)
            contribution = less.getX() == phi ? less.getY() : less.getY() == phi ? less.getX() : null;
            boolean sameOperands = contribution != null && (choice.trueValue() == phi && choice.falseValue() == contribution || choice.trueValue() == contribution && choice.falseValue() == phi);
            if (!sameOperands) {
                contribution = null;
            } else {
                operator = choice.trueValue() == less.getY() ? ReductionOperator.MAX : ReductionOperator.MIN;
            }
        } else {
            contribution = null;
        }
        if (operator == null || contribution == null && !(next instanceof BinaryNode)) {
            throw KernelBailoutException.at(loop.getSingleLoopEnd(), "the @Reduce variable is not accumulated with +, *, &, |, ^, Math.min or Math.max");
        }
        if (contribution == null || dependsOn(contribution, phi)) {
            throw KernelBailoutException.at(next, "the @Reduce variable is accumulated with a value computed from itself");
        }
        JavaKind kind = phi.getStackKind();
        boolean orderDependent = (kind == JavaKind.Float || kind == JavaKind.Double) && (operator == ReductionOperator.SUM || operator == ReductionOperator.PRODUCT);
        if (!operator.isExactInAnyOrder(kind) && !(orderDependent && reassociate)) {
            throw KernelBailoutException.at(next, orderDependent
                            ? "the @Reduce variable is a " + kind.getJavaName() + " " + operator.description()
                                            + ", whose bits depend on the order of the operations: a kernel combines in another order than the loop, so the loop runs in Java as written"
                                            + " (@Reduce(reassociate = true) allows JPAI's combining tree)"
                            : "a @Reduce variable of kind " + kind.getJavaName() + " (" + operator.description() + ") is not supported on the device yet; only int and long ones are");
        }
        for (Node usage : phi.usages()) {
            boolean choiceTest = next instanceof ConditionalNode choice && usage == choice.condition();
            if (usage != next && !choiceTest && !(usage instanceof FrameState) && !(usage instanceof ProxyNode)) {
                throw KernelBailoutException.at(usage, "the loop reads the @Reduce variable other than to accumulate into it, which needs the iterations in order");
            }
        }
        ValueNode initial = phi.valueAt(loop.forwardEnd());
        LoopBound initialBound = orderDependent ? floatingInitial(initial, header) : bound(initial, "reduction's initial value", header);
        return new ParallelLoop.Reduction(phi, operator, contribution, initialBound);
    }

    /**
     * A floating-point {@code @Reduce} variable's initial value: a constant, as the raw bits of its
     * kind ({@link Float#floatToRawIntBits}, {@link Double#doubleToRawLongBits}), or a parameter.
     */
    private static LoopBound floatingInitial(ValueNode value, Node where) {
        ValueNode bare = skipPi(value);
        if (bare instanceof ConstantNode constant && constant.asJavaConstant() != null) {
            jdk.vm.ci.meta.JavaConstant c = constant.asJavaConstant();
            return new LoopBound.Constant(c.getJavaKind() == JavaKind.Float ? Float.floatToRawIntBits(c.asFloat()) : Double.doubleToRawLongBits(c.asDouble()));
        }
        if (bare instanceof ParameterNode parameter) {
            return new LoopBound.Parameter(parameter.index());
        }
        throw KernelBailoutException.at(where, "the @Reduce variable's initial value is computed; a floating-point one must be a constant or a parameter");
    }

    static boolean dependsOn(ValueNode value, ValueNode target) {
        List<Node> work = new ArrayList<>(List.of(value));
        java.util.Set<Node> seen = new java.util.HashSet<>();
        while (!work.isEmpty()) {
            Node node = work.remove(work.size() - 1);
            if (node == target) {
                return true;
            }
            if (!seen.add(node) || node instanceof FixedNode && !(node instanceof FixedWithNextNode)) {
                continue;
            }
            for (Node input : node.inputs()) {
                if (!(input instanceof FrameState)) {
                    work.add(input);
                }
            }
        }
        return false;
    }

    /**
     * The code before the loop only computes: walking back from the loop's entry to the start, no
     * merge (control flow that joins), no effect (a store, a call, a lock), and every branch that
     * leaves the path ends in a deoptimization (a Java exception).
     */
    private static void checkNothingBefore(LoopBeginNode loop) {
        Node node = loop.forwardEnd().predecessor();
        Node after = loop.forwardEnd();
        while (!(node instanceof StartNode)) {
            if (node == null || node instanceof AbstractMergeNode) {
                throw KernelBailoutException.at(loop, "the code before the @Parallel loop branches and joins; only straight code that computes may precede the loop");
            }
            if (node instanceof IfNode split) {
                FixedNode other = split.trueSuccessor() == after ? split.falseSuccessor() : split.trueSuccessor();
                if (!endsInException(other)) {
                    throw KernelBailoutException.at(split, "the code before the @Parallel loop branches; only straight code that computes may precede the loop");
                }
            } else if (MemoryKill.isMemoryKill(node) && !(node instanceof AbstractBeginNode)) {
                throw KernelBailoutException.at(node, "the code before the @Parallel loop has an effect (" + jpai.compiler.JavaConstructs.describe(node) + "), which a kernel would repeat in every work-item");
            }
            after = node;
            node = node.predecessor();
        }
    }

    /**
     * After the loop, only a return (of the {@code @Reduce} variable for a reduction): every exit of
     * the loop either leads to it, with no effect on the way (the header's test), or ends in a Java
     * exception.
     */
    private static void checkOnlyReturnAfter(LoopBeginNode loop, IfNode header, ParallelLoop.Reduction reduction) {
        for (LoopExitNode exit : loop.loopExits()) {
            if (endsInException(exit)) {
                continue;
            }
            if (exit != header.falseSuccessor()) {
                throw KernelBailoutException.at(exit, "the @Parallel loop is left by a break or a return inside it; its iterations must all run");
            }
            ReturnNode ret = returnAfter(exit);
            if (ret == null) {
                throw KernelBailoutException.at(exit, "code follows the @Parallel loop; only a return may follow it");
            }
            ValueNode result = ret.result() == null ? null : unproxy(ret.result());
            if (reduction == null ? result != null : result != reduction.phi()) {
                throw KernelBailoutException.at(ret, reduction == null ? "the method returns a value that is not a @Reduce variable" : "the method does not return its @Reduce variable");
            }
        }
    }

    private static ValueNode unproxy(ValueNode value) {
        ValueNode node = value;
        while (node instanceof ProxyNode proxy) {
            node = proxy.value();
        }
        return node;
    }

    /** The return reached from {@code begin} through begins, ends and merges only, or null. */
    private static ReturnNode returnAfter(FixedNode begin) {
        FixedNode node = begin;
        for (int steps = 0; steps < 1000; steps++) {
            if (node instanceof ReturnNode ret) {
                return ret;
            }
            if (node instanceof AbstractEndNode end) {
                node = end.merge();
            } else if (node instanceof AbstractBeginNode || node instanceof AbstractMergeNode) {
                node = ((FixedWithNextNode) node).next();
            } else {
                return null;
            }
        }
        return null;
    }

    /** Whether every path from {@code begin} ends in a deoptimization or an exception leaving the method. */
    static boolean endsInException(FixedNode begin) {
        FixedNode node = begin;
        for (int steps = 0; steps < 10000; steps++) {
            if (node instanceof DeoptimizeNode || node instanceof UnwindNode) {
                return true;
            }
            if (node instanceof ControlSinkNode || node instanceof AbstractEndNode) {
                return false;
            }
            if (node instanceof FixedWithNextNode with) {
                node = with.next();
            } else {
                return false; // a split: not the simple exception path the parser makes
            }
        }
        return false;
    }

    /** How sentences name the local a phi stands for: its name from the local variable table, else its slot. */
    private static String nameOf(ResolvedJavaMethod method, LoopBeginNode loop, PhiNode phi) {
        FrameState state = loop.stateAfter();
        for (int slot = 0; slot < state.localsSize(); slot++) {
            if (state.localAt(slot) == phi) {
                LocalVariableTable table = method.getLocalVariableTable();
                Local local = table == null ? null : table.getLocal(slot, state.bci);
                return local != null ? "the variable " + local.getName() : "the local variable in slot " + slot;
            }
        }
        return "a value";
    }

}
