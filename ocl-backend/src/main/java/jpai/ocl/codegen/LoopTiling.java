package jpai.ocl.codegen;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import jdk.graal.compiler.graph.Node;
import jdk.graal.compiler.nodes.AbstractMergeNode;
import jdk.graal.compiler.nodes.ConstantNode;
import jdk.graal.compiler.nodes.ControlSinkNode;
import jdk.graal.compiler.nodes.DeoptimizeNode;
import jdk.graal.compiler.nodes.FixedGuardNode;
import jdk.graal.compiler.nodes.FixedNode;
import jdk.graal.compiler.nodes.IfNode;
import jdk.graal.compiler.nodes.LogicConstantNode;
import jdk.graal.compiler.nodes.LogicNode;
import jdk.graal.compiler.nodes.LoopBeginNode;
import jdk.graal.compiler.nodes.LoopEndNode;
import jdk.graal.compiler.nodes.LoopExitNode;
import jdk.graal.compiler.nodes.ParameterNode;
import jdk.graal.compiler.nodes.PhiNode;
import jdk.graal.compiler.nodes.PiNode;
import jdk.graal.compiler.nodes.StructuredGraph.ScheduleResult;
import jdk.graal.compiler.nodes.ValueNode;
import jdk.graal.compiler.nodes.ValuePhiNode;
import jdk.graal.compiler.nodes.calc.AddNode;
import jdk.graal.compiler.nodes.calc.IntegerDivRemNode;
import jdk.graal.compiler.nodes.calc.IntegerLessThanNode;
import jdk.graal.compiler.nodes.calc.MulNode;
import jdk.graal.compiler.nodes.cfg.HIRBlock;
import jdk.graal.compiler.nodes.java.LoadIndexedNode;
import jdk.graal.compiler.nodes.java.StoreIndexedNode;
import jdk.graal.compiler.nodes.util.GraphUtil;
import jdk.graal.compiler.replacements.nodes.arithmetic.IntegerExactArithmeticSplitNode;
import jdk.vm.ci.meta.JavaKind;
import jpai.compiler.CapturedValue;
import jpai.compiler.KernelGraph;
import jpai.compiler.KernelInputs;
import jpai.compiler.SourceLocation;

/**
 * Decides which loop of an element function reads its captured arrays through {@code __local}
 * tiles, and which reads: the analysis half of automatic tiling (docs/backend.md, "Tiling"); the
 * {@link FunctionEmitter} writes the tiled loop from its {@link Plan}.
 *
 * <p>A backend pass, not a Graal phase: the graph does not change, only how a loop is written in C
 * (local memory, barriers, the kernel's work-group), and the decision needs the schedule the
 * emitter walks (which block a load is in, what lies before the loop).
 *
 * <p>A loop is tiled when all of these hold, else the explanation says which did not:
 * <ul>
 * <li>it is not nested in another loop, and has one back edge and one exit, the test at its header
 * {@code j < limit} of an {@code int} counter {@code j} that starts at {@code first} and steps by 1,
 * with nothing else in the header;</li>
 * <li>{@code first} and {@code limit} are <em>uniform</em>: computed without effects from constants,
 * captured scalars and captured arrays' lengths only (so every work-item of a group runs the same
 * number of tiles, and one that skipped the code before the loop can compute them again);</li>
 * <li>nothing in the loop can leave the function or the loop otherwise (no bounds check, division
 * by a value that may be zero, exact arithmetic, return, exception), and it writes no array;</li>
 * <li>it reads at least one captured, read-only array at {@code j * stride + offset}, the stride
 * uniform (1 when absent) and the offset uniform or computed from one index of the work-item
 * (of an index space) and uniform values: such a load becomes a read of a tile that the group
 * fills together, one row per distinct index along that dimension. A captured {@code PArray}
 * counts: its {@code get((long) j)} is a load at the {@code int} index once Graal folds
 * {@code (int) (long) index}, its check hoisted before the loop like an array's.</li>
 * </ul>
 * Exits before the loop are allowed, and so are paths that reach the code after the loop without
 * running it (an early {@code return} merged with the loop's): the emitter turns them into "left
 * early" states in which the work-item still helps fill the tiles, then leaves or resumes where
 * its path went (every barrier is met by every work-item of the group).
 */
final class LoopTiling {

    /** Local memory the tiles of one loop may take; the rest of the reads stay global. */
    static final long LOCAL_BYTES = 16 * 1024;

    /**
     * One tile: the captured array {@code array} at {@code counter * stride + offset}, for
     * {@code rows} distinct offsets (1 when uniform, else the group's extent along
     * {@code rowDimension}, the NDRange dimension whose id {@code rowArgument} is).
     */
    record Tile(String name, ParameterNode array, JavaKind elementKind, ValueNode stride, ValueNode offset, ParameterNode rowArgument, int rowDimension, int rows,
                    List<LoadIndexedNode> loads) {
    }

    /**
     * A loop to tile: the header block, the counter phi, the uniform bounds, the header's test,
     * the blocks not reachable from the loop (an exit there must not skip the tiles), the merges
     * after the loop that a path from them reaches without the loop (where such work-items resume
     * after filling the tiles), the tiles.
     */
    record Plan(HIRBlock header, PhiNode counter, ValueNode first, ValueNode limit, IfNode test, Set<HIRBlock> before, List<HIRBlock> resumes, List<Tile> tiles,
                    TileShape shape, boolean exitsInside) {

        /** Whether {@code block} is in the tiled loop (where the kernel's exits are deferred). */
        boolean inside(HIRBlock block) {
            return header.getLoop().getBlocks().contains(block);
        }

        Tile tileOf(LoadIndexedNode load) {
            for (Tile tile : tiles) {
                if (tile.loads().contains(load)) {
                    return tile;
                }
            }
            return null;
        }
    }

    /** The decision: a plan or none, and one sentence per loop for {@code -Djpai.explain=true}. */
    record Decision(Plan plan, List<String> notes) {
    }

    private final KernelGraph kernel;
    private final ScheduleResult schedule;
    private final TileShape shape;
    /** Captured scalars and array lengths: the inputs of uniform values. */
    private final Set<ParameterNode> uniformParameters = new HashSet<>();
    /** Index arguments (of an index space) and the NDRange dimension of each. */
    private final Map<ParameterNode, Integer> indexArguments = new HashMap<>();
    /** Captured arrays the function only reads, and their capture slot. */
    private final Map<ParameterNode, Integer> readOnlyArrays = new HashMap<>();

    private LoopTiling(KernelGraph kernel, ScheduleResult schedule, TileShape shape) {
        this.kernel = kernel;
        this.schedule = schedule;
        this.shape = shape;
        KernelInputs inputs = kernel.inputs();
        for (int k = 0; k < kernel.captures().size(); k++) {
            if (!FunctionEmitter.isPassed(kernel, k)) {
                continue;
            }
            addIfAlive(uniformParameters, inputs.captureLength(k));
            addIfAlive(uniformParameters, inputs.captureRowLength(k));
            ParameterNode capture = inputs.capture(k);
            if (capture == null || !capture.isAlive()) {
                continue;
            }
            if (capture.getStackKind().isPrimitive()) {
                uniformParameters.add(capture);
            } else if (!FunctionEmitter.isWritten(kernel, k) && inputs.captureRowLength(k) == null) {
                readOnlyArrays.put(capture, k);
            }
        }
        int component = 0;
        for (int argument = 0; argument < kernel.signature().arguments().size(); argument++) {
            int components = kernel.signature().arguments().get(argument).components().size();
            for (int c = 0; c < components; c++, component++) {
                ParameterNode parameter = inputs.argumentComponent(argument, c);
                if (parameter != null && component < shape.dimensionOfArgument().length && shape.dimensionOfArgument()[component] >= 0) {
                    indexArguments.put(parameter, shape.dimensionOfArgument()[component]);
                }
            }
        }
    }

    private static void addIfAlive(Set<ParameterNode> set, ParameterNode node) {
        if (node != null && node.isAlive()) {
            set.add(node);
        }
    }

    /** The loop of {@code kernel}'s function to tile for work-groups of {@code shape}, if any. */
    static Decision decide(KernelGraph kernel, ScheduleResult schedule, TileShape shape) {
        return new LoopTiling(kernel, schedule, shape).decide();
    }

    private Decision decide() {
        List<String> notes = new ArrayList<>();
        Plan chosen = null;
        for (HIRBlock block : schedule.getCFG().getBlocks()) {
            if (!block.isLoopHeader()) {
                continue;
            }
            String where = "the loop at " + SourceLocation.of(block.getBeginNode().getNodeSourcePosition()).shortForm();
            if (chosen != null) {
                notes.add(where + " is not tiled: one loop per function is");
                continue;
            }
            Object result = plan(block);
            if (result instanceof Plan plan) {
                chosen = plan;
                StringBuilder reads = new StringBuilder();
                for (Tile tile : plan.tiles()) {
                    reads.append(reads.isEmpty() ? "" : ", ").append(describe(tile));
                }
                notes.add(where + " reads " + reads + " through __local tiles of " + shape.tileWidth() + " iterations, work-groups of "
                                + String.join(" x ", java.util.Arrays.stream(shape.localSize()).mapToObj(Long::toString).toList()));
            } else {
                notes.add(where + " is not tiled: " + result);
            }
        }
        return new Decision(chosen, notes);
    }

    private String describe(Tile tile) {
        CapturedValue captured = kernel.captures().get(readOnlyArrays.get(tile.array()));
        String name = captured.description();
        if (captured.field() != null && captured.path().isEmpty() && CapturedValue.isLambdaField(captured.field())) {
            name += " " + captured.name(); // javac's field name tells the captured arrays of one type apart
        }
        return name + (tile.rows() > 1 ? " (a row per work-item along NDRange dimension " + tile.rowDimension() + ")" : "");
    }

    /** A plan for the loop headed by {@code header}, or the reason (a String) it is not tiled. */
    private Object plan(HIRBlock header) {
        var loop = header.getLoop();
        if (loop.getParent() != null) {
            return "it is nested in another loop";
        }
        LoopBeginNode begin = (LoopBeginNode) header.getBeginNode();
        if (begin.loopExits().count() != 1 || begin.loopEnds().count() != 1 || begin.forwardEndCount() != 1) {
            return "it has more than one exit or back edge (a break, a continue or a return in its body)";
        }
        if (!(header.getEndNode() instanceof IfNode test) || !(test.condition() instanceof IntegerLessThanNode less)) {
            return "its header does not test counter < limit";
        }
        if (!(test.falseSuccessor() instanceof LoopExitNode exit) || exit.loopBegin() != begin) {
            return "its header does not leave the loop when counter < limit fails";
        }
        for (Node node : schedule.nodesFor(header)) {
            if (node instanceof FixedNode && node != begin && node != test) {
                return "its header computes more than the test";
            }
        }
        if (!(unwrap(less.getX()) instanceof ValuePhiNode counter) || counter.merge() != begin || counter.getStackKind() != JavaKind.Int) {
            return "its test is not on an int counter of the loop";
        }
        LoopEndNode end = begin.loopEnds().first();
        if (!isIncrement(unwrap(counter.valueAt(end)), counter)) {
            return "its counter does not step by 1";
        }
        ValueNode first = counter.valueAt(begin.forwardEnd());
        ValueNode limit = less.getY();
        if (!isUniform(first) || !isUniform(limit)) {
            return "its bounds are not computed from captured values, array lengths and constants only";
        }
        boolean exitsInside = false;
        for (HIRBlock block : loop.getBlocks()) {
            for (Node node : schedule.nodesFor(block)) {
                String exitReason = exitIn(node);
                if (exitReason != null) {
                    return exitReason + " at " + SourceLocation.of(node.getNodeSourcePosition()).shortForm() + " could leave the loop in some work-items only";
                }
                exitsInside |= isDeferredExit(node);
            }
        }
        Map<String, Tile> tiles = new LinkedHashMap<>();
        long bytes = 0;
        for (HIRBlock block : loop.getBlocks()) {
            for (Node node : schedule.nodesFor(block)) {
                if (!(node instanceof LoadIndexedNode load) || !(unwrap(load.array()) instanceof ParameterNode array) || !readOnlyArrays.containsKey(array)) {
                    continue;
                }
                Tile tile = tileFor(load, array, counter, tiles.size());
                if (tile == null) {
                    continue;
                }
                String key = array.toString() + "|" + tile.stride() + "|" + tile.offset();
                Tile existing = tiles.get(key);
                if (existing != null) {
                    existing.loads().add(load);
                    continue;
                }
                long size = (long) tile.rows() * shape.tileWidth() * tile.elementKind().getByteCount();
                if (bytes + size > LOCAL_BYTES) {
                    continue; // stays a global read
                }
                bytes += size;
                tiles.put(key, tile);
            }
        }
        if (tiles.isEmpty()) {
            return "it reads no captured array at counter * stride + offset with a stride and an offset that are uniform or follow one index of the work-item";
        }
        Set<HIRBlock> before = blocksBefore(header);
        Set<HIRBlock> resumes = new LinkedHashSet<>();
        for (HIRBlock block : before) {
            for (int i = 0; i < block.getSuccessorCount(); i++) {
                HIRBlock successor = block.getSuccessorAt(i);
                if (!before.contains(successor) && successor != header) {
                    // A path that goes on after the loop without running it (an early return merged
                    // with the loop's): its work-items fill the tiles first, then resume there.
                    if (!(successor.getBeginNode() instanceof AbstractMergeNode) || successor.isLoopHeader()) {
                        return "some work-items would skip it and go on into another loop";
                    }
                    resumes.add(successor);
                }
            }
        }
        return new Plan(header, counter, first, limit, test, before, List.copyOf(resumes), List.copyOf(tiles.values()), shape, exitsInside);
    }

    /**
     * Why {@code node} could make a work-item leave the loop or the function early in a way the tiled
     * loop cannot defer, or null. The kernel's exits (a failed check, a division by zero, an
     * overflow of exact arithmetic, a deoptimization) are deferred: the work-item records its exit
     * code, stops computing and still fills every tile ({@link TiledLoopWriter#leaveInside}).
     */
    private static String exitIn(Node node) {
        if (node instanceof ControlSinkNode && !(node instanceof DeoptimizeNode)) {
            return "a return";
        }
        if (node instanceof StoreIndexedNode) {
            return "a write to an array";
        }
        return null;
    }

    /** Whether {@code node} is one of the kernel's exits inside the loop ({@link #exitIn}: deferred). */
    private static boolean isDeferredExit(Node node) {
        return node instanceof FixedGuardNode || node instanceof DeoptimizeNode || node instanceof IntegerDivRemNode || node instanceof IntegerExactArithmeticSplitNode;
    }

    private static boolean isIncrement(ValueNode next, PhiNode counter) {
        if (!(next instanceof AddNode add)) {
            return false;
        }
        ValueNode x = unwrap(add.getX());
        ValueNode y = unwrap(add.getY());
        return (x == counter && isOne(y)) || (y == counter && isOne(x));
    }

    private static boolean isOne(ValueNode value) {
        return value instanceof ConstantNode constant && constant.asJavaConstant() != null && constant.asJavaConstant().getJavaKind() == JavaKind.Int
                        && constant.asJavaConstant().asInt() == 1;
    }

    /**
     * The tile for {@code load}, reading {@code array} at {@code counter * stride + offset}, or null
     * when its index has no such form.
     */
    private Tile tileFor(LoadIndexedNode load, ParameterNode array, PhiNode counter, int number) {
        ValueNode index = unwrap(load.index());
        ValueNode stride = null;
        ValueNode offset = null;
        if (index == counter) {
            // a[j]
        } else if (index instanceof AddNode add) {
            ValueNode x = unwrap(add.getX());
            ValueNode y = unwrap(add.getY());
            ValueNode scaled;
            if (dependsOn(y, counter)) {
                scaled = y;
                offset = x;
            } else {
                scaled = x;
                offset = y;
            }
            if (scaled == counter) {
                // a[j + c]
            } else if (scaled instanceof MulNode mul) {
                ValueNode mx = unwrap(mul.getX());
                ValueNode my = unwrap(mul.getY());
                if (mx == counter) {
                    stride = my;
                } else if (my == counter) {
                    stride = mx;
                } else {
                    return null;
                }
            } else {
                return null;
            }
        } else {
            return null;
        }
        if (stride != null && !isUniform(stride)) {
            return null;
        }
        ParameterNode rowArgument = null;
        if (offset != null) {
            Set<ParameterNode> arguments = new HashSet<>();
            if (!isUniformBut(offset, arguments) || arguments.size() > 1) {
                return null;
            }
            rowArgument = arguments.isEmpty() ? null : arguments.iterator().next();
        }
        int rowDimension = rowArgument == null ? -1 : indexArguments.get(rowArgument);
        int rows = rowArgument == null ? 1 : (int) shape.localSize(rowDimension);
        List<LoadIndexedNode> loads = new ArrayList<>();
        loads.add(load);
        return new Tile("jpai_tile" + number, array, load.elementKind(), stride, offset, rowArgument, rowDimension, rows, loads);
    }

    private static boolean dependsOn(ValueNode value, PhiNode counter) {
        Deque<Node> work = new ArrayDeque<>();
        Set<Node> seen = new HashSet<>();
        work.add(value);
        while (!work.isEmpty()) {
            Node node = work.pop();
            if (node == counter) {
                return true;
            }
            if (node instanceof PhiNode || node instanceof FixedNode || !seen.add(node)) {
                continue;
            }
            for (Node input : node.inputs()) {
                work.add(input);
            }
        }
        return false;
    }

    /** Computed without effects from constants, captured scalars and array lengths only. */
    boolean isUniform(ValueNode value) {
        return isUniformBut(value, null);
    }

    /**
     * Computed without effects from constants, captured scalars, array lengths and, where
     * {@code arguments} is not null, index arguments (collected there).
     */
    private boolean isUniformBut(ValueNode value, Set<ParameterNode> arguments) {
        ValueNode node = unwrap(value);
        if (node instanceof ConstantNode || node instanceof LogicConstantNode) {
            return true;
        }
        if (node instanceof ParameterNode parameter) {
            if (uniformParameters.contains(parameter)) {
                return true;
            }
            if (arguments != null && indexArguments.containsKey(parameter)) {
                arguments.add(parameter);
                return true;
            }
            return false;
        }
        if (node instanceof FixedNode || node instanceof PhiNode || (!(node instanceof LogicNode) && !node.getStackKind().isPrimitive())) {
            return false;
        }
        for (Node input : node.inputs()) {
            if (!(input instanceof ValueNode inputValue) || !isUniformBut(inputValue, arguments)) {
                return false;
            }
        }
        return true;
    }

    /** The blocks from which {@code header} is reachable without passing it: the code before the loop. */
    private Set<HIRBlock> blocksBefore(HIRBlock header) {
        Set<HIRBlock> after = new HashSet<>();
        Deque<HIRBlock> work = new ArrayDeque<>();
        work.add(header);
        while (!work.isEmpty()) {
            HIRBlock block = work.pop();
            if (!after.add(block)) {
                continue;
            }
            for (int i = 0; i < block.getSuccessorCount(); i++) {
                work.add(block.getSuccessorAt(i));
            }
        }
        Set<HIRBlock> before = new HashSet<>();
        for (HIRBlock block : schedule.getCFG().getBlocks()) {
            if (!after.contains(block)) {
                before.add(block);
            }
        }
        return before;
    }

    static ValueNode unwrap(ValueNode value) {
        ValueNode current = value;
        while (true) {
            ValueNode next = GraphUtil.unproxify(current);
            if (next instanceof PiNode pi) {
                next = pi.getOriginalNode();
            }
            if (next == current) {
                return current;
            }
            current = next;
        }
    }
}
