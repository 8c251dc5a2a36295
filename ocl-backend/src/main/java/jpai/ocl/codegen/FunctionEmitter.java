package jpai.ocl.codegen;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import jdk.graal.compiler.core.common.type.FloatStamp;
import jdk.graal.compiler.core.common.type.IntegerStamp;
import jdk.graal.compiler.graph.Node;
import jdk.graal.compiler.graph.NodeSourcePosition;
import jdk.graal.compiler.nodes.AbstractBeginNode;
import jdk.graal.compiler.nodes.AbstractEndNode;
import jdk.graal.compiler.nodes.AbstractMergeNode;
import jdk.graal.compiler.nodes.ConstantNode;
import jdk.graal.compiler.nodes.ControlSinkNode;
import jdk.graal.compiler.nodes.ControlSplitNode;
import jdk.graal.compiler.nodes.DeoptimizeNode;
import jdk.graal.compiler.nodes.EndNode;
import jdk.graal.compiler.nodes.FixedGuardNode;
import jdk.graal.compiler.nodes.FixedNode;
import jdk.graal.compiler.nodes.IfNode;
import jdk.graal.compiler.nodes.LogicConstantNode;
import jdk.graal.compiler.nodes.LogicNode;
import jdk.graal.compiler.nodes.LoopBeginNode;
import jdk.graal.compiler.nodes.LoopEndNode;
import jdk.graal.compiler.nodes.LoopExitNode;
import jdk.graal.compiler.nodes.NodeView;
import jdk.graal.compiler.nodes.ParameterNode;
import jdk.graal.compiler.nodes.PhiNode;
import jdk.graal.compiler.nodes.PiNode;
import jdk.graal.compiler.nodes.ReturnNode;
import jdk.graal.compiler.nodes.StructuredGraph;
import jdk.graal.compiler.nodes.StructuredGraph.ScheduleResult;
import jdk.graal.compiler.nodes.ValueNode;
import jdk.graal.compiler.nodes.ValueProxyNode;
import jdk.graal.compiler.nodes.calc.IntegerDivRemNode;
import jdk.graal.compiler.nodes.calc.SignedDivNode;
import jdk.graal.compiler.nodes.calc.SignedRemNode;
import jdk.graal.compiler.nodes.calc.UnsignedDivNode;
import jdk.graal.compiler.nodes.calc.UnsignedRemNode;
import jdk.graal.compiler.nodes.cfg.HIRBlock;
import jdk.graal.compiler.nodes.extended.IntegerSwitchNode;
import jdk.graal.compiler.replacements.nodes.arithmetic.BinaryIntegerExactArithmeticSplitNode;
import jdk.graal.compiler.replacements.nodes.arithmetic.IntegerExactArithmeticSplitNode;
import jdk.graal.compiler.replacements.nodes.arithmetic.IntegerNegExactSplitNode;
import jdk.graal.compiler.nodes.java.AccessIndexedNode;
import jdk.graal.compiler.nodes.java.LoadIndexedNode;
import jdk.graal.compiler.nodes.java.NewArrayNode;
import jdk.graal.compiler.nodes.java.StoreIndexedNode;
import jdk.graal.compiler.nodes.util.GraphUtil;
import jdk.graal.compiler.nodes.virtual.AllocatedObjectNode;
import jdk.graal.compiler.nodes.virtual.CommitAllocationNode;
import jdk.graal.compiler.nodes.virtual.VirtualArrayNode;
import jdk.graal.compiler.nodes.virtual.VirtualObjectNode;
import jdk.graal.compiler.phases.schedule.SchedulePhase;
import jdk.graal.compiler.phases.schedule.SchedulePhase.SchedulingStrategy;
import jdk.vm.ci.meta.ConstantReflectionProvider;
import jdk.vm.ci.meta.JavaConstant;
import jdk.vm.ci.meta.JavaKind;
import jdk.vm.ci.meta.ResolvedJavaType;
import jpai.compiler.CapturedValue;
import jpai.compiler.GraalAccess;
import jpai.compiler.ImmutableJdkTables;
import jpai.compiler.JavaConstructs;
import jpai.compiler.KernelBailoutException;
import jpai.compiler.KernelGraph;
import jpai.ocl.ExactFloatDivSqrt;
import jpai.compiler.SourceLocation;
import jpai.compiler.ValueShape;
import jpai.compiler.nodes.TupleValueNode;
import jpai.ocl.DeoptReason;
import jpai.ocl.c.CExpr;
import jpai.ocl.c.CFlow;
import jpai.ocl.c.CLabels;
import jpai.ocl.c.CPrinter;
import jpai.ocl.c.CStmt;
import jpai.ocl.c.CStmt.Assignment;
import jpai.ocl.c.CStmt.Block;
import jpai.ocl.c.CStmt.Break;
import jpai.ocl.c.CStmt.Continue;
import jpai.ocl.c.CStmt.Declaration;
import jpai.ocl.c.CStmt.For;
import jpai.ocl.c.CStmt.Goto;
import jpai.ocl.c.CStmt.If;
import jpai.ocl.c.CStmt.Label;
import jpai.ocl.c.CStmt.Return;
import jpai.ocl.OpenCLTypes;

/**
 * Emits a kernel graph as one OpenCL C <em>element function</em>, the user's lambda:
 *
 * <pre>
 * static int NAME(captures..., argument components..., __private T *r0, ...)
 * </pre>
 *
 * <ul>
 * <li>captures, in {@link jpai.compiler.KernelSignature#captures()} order: a scalar by value
 * ({@code const T cK}), an array as {@code __global const T *cK, const int cK_length};</li>
 * <li>the arguments' primitive components in order, by value ({@code xJ});</li>
 * <li>one {@code __private T *rN} per result component, written before a normal return;</li>
 * <li>the return value: 0 when the result was computed, else the {@link DeoptReason#code()} of the
 * Java exception the function would have thrown (then the results are unspecified).</li>
 * </ul>
 *
 * <p>A visitor over the scheduled graph. Control flow is recovered as structured C from the
 * dominator tree (after Ramsey, "Beyond Relooper", 2022): a block's code is followed by the code of
 * the merge blocks it dominates, outermost last; {@code if/else} for two-way branches; a Graal loop
 * becomes {@code for (;;)} whose exits are {@code break} to the code after the loop, and whose
 * back edges are {@code continue} or the fall-through at the end of the body. Where a jump goes
 * elsewhere (a short-circuit condition joining from two nesting levels, say), a forward
 * {@code goto} to the merge's label remains: always correct, rarely needed. Every value lives in a
 * variable declared at the top of the function ({@code v12}, after its node), phis are assigned
 * on the edges into their merge.
 */
public final class FunctionEmitter {

    /** What a parameter of the element function holds. */
    public enum ParameterKind {
        /** A captured primitive (or the value of a captured boxed primitive); slot: capture index. */
        CAPTURED_SCALAR,
        /** A captured array's elements, {@code __global const}; slot: capture index. */
        CAPTURED_ARRAY,
        /** A captured array's length, {@code int}; slot: capture index. */
        CAPTURED_ARRAY_LENGTH,
        /** The length of a captured 2-D array's rows, {@code int}; slot: capture index. */
        CAPTURED_ROW_LENGTH,
        /** An argument component, by value; slot: index among all arguments' components. */
        ARGUMENT,
        /** A result component, a {@code __private} pointer; slot: component index. */
        RESULT,
        /** A {@code __local} tile the kernel declares (docs/backend.md, "Tiling"); slot: tile number. */
        LOCAL_TILE,
        /** Whether the work-item has an element ({@code false} past the end: it only helps fill tiles); slot 0. */
        WORK_ITEM_ACTIVE
    }

    /**
     * One parameter of the element function.
     *
     * @param kind what it holds
     * @param slot which capture or component (see {@link ParameterKind})
     * @param javaKind the Java kind of the value or of an array's elements
     * @param cType its C type
     * @param name its C name
     */
    public record FunctionParameter(ParameterKind kind, int slot, JavaKind javaKind, String cType, String name) {
        public String declaration() {
            return cType.endsWith("*") ? cType + name : cType + " " + name;
        }
    }

    /**
     * The emitted function.
     *
     * @param name its C name
     * @param parameters its parameters, in order
     * @param text its definition
     * @param usesDoubles whether it needs {@code cl_khr_fp64}
     * @param helpers the {@link Helper}s it calls, which the program must define before it
     * @param tiledShape the work-group the function needs when one of its loops reads through
     *            {@code __local} tiles ({@link ParameterKind#LOCAL_TILE}), else null
     * @param localDeclarations the {@code __local} arrays the calling kernel declares for its
     *            {@link ParameterKind#LOCAL_TILE} parameters, by the same names
     * @param tilingNotes for each loop, whether it was tiled or why not (for {@code -Djpai.explain=true})
     */
    /**
     * @param mayExit whether the function can return a deoptimisation reason (an exception path, a
     *            failed guard): a kernel none of whose functions can exit never writes its status words
     */
    public record EmittedFunction(String name, List<FunctionParameter> parameters, String text, boolean usesDoubles, Set<Helper> helpers, TileShape tiledShape,
                    List<String> localDeclarations, List<String> tilingNotes, boolean mayExit) {
        public EmittedFunction {
            parameters = List.copyOf(parameters);
            helpers = Set.copyOf(helpers);
            localDeclarations = List.copyOf(localDeclarations);
            tilingNotes = List.copyOf(tilingNotes);
        }

        /** The parameters of one kind, in order. */
        public List<FunctionParameter> parameters(ParameterKind kind) {
            return parameters.stream().filter(p -> p.kind() == kind).toList();
        }
    }

    /** The loops around the code being emitted, innermost first. */
    private record Loops(HIRBlock header, HIRBlock follow, Loops outer) {
    }

    private final KernelGraph kernel;
    private final StructuredGraph graph;
    private final String name;
    private final Map<ValueNode, String> names = new HashMap<>();
    private final Map<ValueNode, String> variables = new LinkedHashMap<>();
    private final List<String> arrayDeclarations = new ArrayList<>();
    /** Program-scope {@code __constant} tables for the JDK's static final arrays, by their constant. */
    private final Map<JavaConstant, String> tables = new LinkedHashMap<>();
    private final List<String> tableDefinitions = new ArrayList<>();
    private final Set<Helper> helpers = EnumSet.noneOf(Helper.class);
    private final ExpressionEmitter expressions;
    private final List<FunctionParameter> parameters = new ArrayList<>();
    private final List<String> resultNames = new ArrayList<>();
    private ScheduleResult schedule;
    private boolean usesDoubles;
    /** Whether an exit with a deoptimisation reason was emitted. */
    private boolean mayExit;

    private final Map<HIRBlock, HIRBlock> loopFollows = new HashMap<>();
    private final Set<HIRBlock> follows = new HashSet<>();
    /** Exit blocks of a loop that only lead into the loop's follow merge: their break carries their code. */
    private final Map<HIRBlock, HIRBlock> exitsIntoFollow = new HashMap<>();
    private final Set<HIRBlock> continueTargets = new HashSet<>();
    /** The work-group tiles are made for, or null: no loop is tiled. */
    private final TileShape tileShape;
    /** How float division and sqrt are written (null: OpenCL's own), for the tiled loop's expressions too. */
    private final ExactFloatDivSqrt divSqrt;
    private LoopTiling.Plan tiling;
    private TiledLoopWriter tiledLoop;
    private List<String> tilingNotes = List.of();
    /** The block whose code is being emitted: an exit before the tiled loop still fills tiles. */
    private HIRBlock current;

    public FunctionEmitter(KernelGraph kernel, String name) {
        this(kernel, name, null, null);
    }

    /**
     * @param tileShape the work-group of the kernel that calls the function, when a loop may be
     *            tiled ({@link LoopTiling}); null for none
     * @param divSqrt the helpers that compute float {@code /} and {@code sqrt}, or null for OpenCL's
     *            own operators ({@link jpai.ocl.GeneratorOptions#helperFormulation()})
     */
    public FunctionEmitter(KernelGraph kernel, String name, TileShape tileShape, ExactFloatDivSqrt divSqrt) {
        this.kernel = kernel;
        this.graph = kernel.graph();
        this.name = name;
        this.tileShape = tileShape;
        this.divSqrt = divSqrt;
        this.expressions = new ExpressionEmitter(this::operand, helpers, divSqrt);
    }

    public EmittedFunction emit() {
        SchedulePhase.runWithoutContextOptimizations(graph, SchedulingStrategy.LATEST_OUT_OF_LOOPS, true);
        schedule = graph.getLastSchedule();
        declareParameters();
        checkNoOtherParameters();
        findLoopFollows();
        if (tileShape != null) {
            LoopTiling.Decision decision = LoopTiling.decide(kernel, schedule, tileShape);
            tilingNotes = decision.notes();
            tiling = decision.plan();
        }
        List<CStmt> body = new ArrayList<>();
        if (tiling != null) {
            tiledLoop = new TiledLoopWriter(tiling, this::operand, helpers, divSqrt, tiling.resumes().stream().map(FunctionEmitter::label).toList());
            for (int t = 0; t < tiling.tiles().size(); t++) {
                LoopTiling.Tile tile = tiling.tiles().get(t);
                parameters.add(new FunctionParameter(ParameterKind.LOCAL_TILE, t, tile.elementKind(), "__local " + OpenCLTypes.storageType(tile.elementKind()) + " *", tile.name()));
            }
            parameters.add(new FunctionParameter(ParameterKind.WORK_ITEM_ACTIVE, 0, JavaKind.Boolean, "const bool", TiledLoopWriter.ACTIVE));
            body.add(TiledLoopWriter.inactiveWorkItemsOnlyFill());
        }
        emitTree(schedule.getCFG().getStartBlock(), null, null, body);

        List<String> declarations = new ArrayList<>();
        for (FunctionParameter parameter : parameters) {
            declarations.add(parameter.declaration());
        }
        CodeWriter function = new CodeWriter();
        for (String table : tableDefinitions) {
            function.line(table);
        }
        function.open("static int " + name + "(" + String.join(", ", declarations) + ")");
        for (Map.Entry<ValueNode, String> variable : variables.entrySet()) {
            function.line(typeOf(variable.getKey()) + " " + variable.getValue() + ";");
        }
        for (String array : arrayDeclarations) {
            function.line(array);
        }
        if (tiling != null) {
            for (String declaration : TiledLoopWriter.declarations()) {
                function.line(declaration);
            }
        }
        function.appendText(CPrinter.statements(CLabels.withoutUnused(new Block(body)), 1));
        function.close();
        return new EmittedFunction(name, parameters, function.toString(), usesDoubles || helpers.stream().anyMatch(Helper::usesDoubles), helpers,
                        tiling == null ? null : tileShape, tiling == null ? List.of() : tiledLoop.localDeclarations(), tilingNotes, mayExit);
    }

    // ---------------------------------------------------------------- parameters

    private void declareParameters() {
        List<CapturedValue> captures = kernel.captures();
        for (int k = 0; k < captures.size(); k++) {
            if (!isPassed(kernel, k)) {
                continue;
            }
            String capture = "c" + k;
            ValueShape shape = captures.get(k).shape();
            switch (shape) {
                case ValueShape.Primitive primitive -> addScalarCapture(k, primitive.kind(), capture);
                case ValueShape.BoxedPrimitive boxed -> addScalarCapture(k, boxed.kind(), capture);
                case ValueShape.PrimitiveArray array -> addArrayCapture(k, array.elementKind(), capture);
                case ValueShape.RectangularArray matrix -> {
                    addArrayCapture(k, matrix.elementKind(), capture);
                    parameters.add(new FunctionParameter(ParameterKind.CAPTURED_ROW_LENGTH, k, JavaKind.Int, "const int", capture + "_rowLength"));
                    name(kernel.inputs().captureRowLength(k), capture + "_rowLength");
                }
                case ValueShape.ElementReader reader -> addArrayCapture(k, reader.elementKind(), capture);
                case ValueShape.Tuple tuple -> throw new IllegalArgumentException("a captured tuple: " + tuple);
            }
        }
        int component = 0;
        for (int argument = 0; argument < kernel.signature().arguments().size(); argument++) {
            List<JavaKind> kinds = kernel.signature().arguments().get(argument).components();
            for (int i = 0; i < kinds.size(); i++, component++) {
                String parameter = "x" + component;
                noteDoubles(kinds.get(i));
                parameters.add(new FunctionParameter(ParameterKind.ARGUMENT, component, kinds.get(i), OpenCLTypes.valueType(kinds.get(i)), parameter));
                name(kernel.inputs().argumentComponent(argument, i), parameter);
            }
        }
        List<JavaKind> results = kernel.signature().resultComponents();
        for (int i = 0; i < results.size(); i++) {
            String result = "r" + i;
            noteDoubles(results.get(i));
            parameters.add(new FunctionParameter(ParameterKind.RESULT, i, results.get(i), "__private " + OpenCLTypes.valueType(results.get(i)) + " *", result));
            resultNames.add(result);
        }
    }

    /**
     * Whether captured value {@code capture} is a parameter of the kernel: always for a captured
     * variable, only where the function reads it for a field of a captured object and a static
     * array ({@link CapturedValue#passedOnlyWhereRead()}). The kernel generator asks the same.
     */
    public static boolean isPassed(KernelGraph kernel, int capture) {
        return !kernel.captures().get(capture).passedOnlyWhereRead() || kernel.inputs().isRead(capture);
    }

    /**
     * Whether the function writes the elements of captured value {@code capture}: only an array
     * argument of an accelerated method may be written ({@link CapturedValue#isMethodParameter()}),
     * whose elements the runtime copies back after the kernel; a lambda's captures are read-only.
     */
    public static boolean isWritten(KernelGraph kernel, int capture) {
        return kernel.captures().get(capture).isMethodParameter() && kernel.inputs().isWritten(capture);
    }

    private boolean isWritableArray(ParameterNode parameter) {
        for (int k = 0; k < kernel.captures().size(); k++) {
            if (kernel.inputs().capture(k) == parameter) {
                return kernel.captures().get(k).isMethodParameter();
            }
        }
        return false;
    }

    private void addScalarCapture(int slot, JavaKind kind, String capture) {
        noteDoubles(kind);
        parameters.add(new FunctionParameter(ParameterKind.CAPTURED_SCALAR, slot, kind, "const " + OpenCLTypes.valueType(kind), capture));
        name(kernel.inputs().capture(slot), capture);
        if (kernel.inputs().captureLength(slot) != null) {
            // a captured box whose null checks remain: -1 when it is null
            parameters.add(new FunctionParameter(ParameterKind.CAPTURED_ARRAY_LENGTH, slot, JavaKind.Int, "const int", capture + "_length"));
            name(kernel.inputs().captureLength(slot), capture + "_length");
        }
    }

    private void addArrayCapture(int slot, JavaKind elementKind, String capture) {
        noteDoubles(elementKind);
        String qualifiers = isWritten(kernel, slot) ? "__global " : "__global const ";
        parameters.add(new FunctionParameter(ParameterKind.CAPTURED_ARRAY, slot, elementKind, qualifiers + OpenCLTypes.storageType(elementKind) + " *", capture));
        parameters.add(new FunctionParameter(ParameterKind.CAPTURED_ARRAY_LENGTH, slot, JavaKind.Int, "const int", capture + "_length"));
        name(kernel.inputs().capture(slot), capture);
        name(kernel.inputs().captureLength(slot), capture + "_length");
    }

    private void name(ParameterNode node, String parameterName) {
        if (node != null && node.isAlive()) {
            names.put(node, parameterName);
        }
    }

    private void checkNoOtherParameters() {
        for (ParameterNode parameter : graph.getNodes(ParameterNode.TYPE)) {
            if (parameter.hasUsages() && !names.containsKey(parameter)) {
                throw KernelBailoutException.at(parameter.usages().first(), "the function uses parameter " + parameter.index() + " as an object, which kernels do not have");
            }
        }
    }

    private void noteDoubles(JavaKind kind) {
        usesDoubles |= kind == JavaKind.Double;
    }

    // ---------------------------------------------------------------- structure

    /**
     * Chooses, for each loop, the code that follows it: the target of its exits when they all lead
     * to one merge, else one exit (preferring one that does not just return). Its exits become
     * {@code break}s; the other exits are emitted where they branch off.
     */
    private void findLoopFollows() {
        for (HIRBlock block : schedule.getCFG().getBlocks()) {
            if (!block.isLoopHeader()) {
                continue;
            }
            LoopBeginNode loopBegin = (LoopBeginNode) block.getBeginNode();
            List<HIRBlock> exits = new ArrayList<>();
            for (LoopExitNode exit : loopBegin.loopExits()) {
                exits.add(schedule.blockFor(exit));
            }
            if (exits.isEmpty()) {
                continue;
            }
            HIRBlock commonMerge = commonExitMerge(exits);
            HIRBlock follow;
            if (commonMerge != null) {
                follow = commonMerge;
                for (HIRBlock exit : exits) {
                    exitsIntoFollow.put(exit, commonMerge);
                }
            } else {
                follow = exits.stream().filter(exit -> !isLeaf(exit)).max(Comparator.comparingInt(HIRBlock::getId))
                                .orElse(exits.stream().max(Comparator.comparingInt(HIRBlock::getId)).get());
            }
            loopFollows.put(block, follow);
            follows.add(follow);
        }
    }

    /** The merge all {@code exits} end in, if each ends in it and nothing else does. */
    private HIRBlock commonExitMerge(List<HIRBlock> exits) {
        if (exits.size() < 2) {
            return null;
        }
        HIRBlock merge = null;
        for (HIRBlock exit : exits) {
            if (!(exit.getEndNode() instanceof EndNode) || exit.getSuccessorCount() != 1) {
                return null;
            }
            HIRBlock target = exit.getFirstSuccessor();
            if (merge != null && merge != target) {
                return null;
            }
            merge = target;
        }
        return merge.getPredecessorCount() == exits.size() ? merge : null;
    }

    private static boolean isLeaf(HIRBlock block) {
        return block.getSuccessorCount() == 0;
    }

    private void emitTree(HIRBlock block, Loops loops, HIRBlock fallsInto, List<CStmt> code) {
        List<HIRBlock> merges = new ArrayList<>();
        for (HIRBlock child = block.getFirstDominated(); child != null; child = child.getDominatedSibling()) {
            if (child.getBeginNode() instanceof AbstractMergeNode && !follows.contains(child)) {
                merges.add(child);
            }
        }
        merges.sort(Comparator.comparingInt(HIRBlock::getId).reversed());
        if (block.isLoopHeader()) {
            emitLoop(block, merges, loops, fallsInto, code);
        } else {
            emitWithin(block, merges, loops, fallsInto, code);
        }
    }

    /** {@code block}'s code, then the merge blocks it dominates (the first of {@code merges} last). */
    private void emitWithin(HIRBlock block, List<HIRBlock> merges, Loops loops, HIRBlock fallsInto, List<CStmt> code) {
        if (!merges.isEmpty()) {
            HIRBlock last = merges.get(0);
            emitWithin(block, merges.subList(1, merges.size()), loops, last, code);
            code.add(new Label(label(last)));
            emitTree(last, loops, fallsInto, code);
            return;
        }
        emitStatements(block, code);
        emitTerminator(block, loops, fallsInto, code);
    }

    /**
     * A loop: {@code for (;;)} around the header's code and the merges it dominates inside the loop;
     * then, after the loop, its follow and the merges the header dominates outside the loop (a
     * merge where a path leaving the loop from its body meets one leaving from the header), in
     * ascending order, each falling into the next. Emitting such a merge inside the loop body would
     * put it where a path from after the loop can only reach it by a jump into the loop.
     */
    private void emitLoop(HIRBlock header, List<HIRBlock> merges, Loops loops, HIRBlock fallsInto, List<CStmt> code) {
        HIRBlock follow = loopFollows.get(header);
        List<HIRBlock> inside = new ArrayList<>();
        List<HIRBlock> after = new ArrayList<>();
        for (HIRBlock merge : merges) {
            (isInLoop(merge, header) ? inside : after).add(merge);
        }
        List<CStmt> body = new ArrayList<>();
        emitWithin(header, inside, new Loops(header, follow, loops), header, body);
        if (continueTargets.contains(header)) {
            body.add(new Label(continueLabel(header)));
        }
        CStmt loop = new For(null, null, null, new Block(body));
        if (tiling != null && tiling.header() == header) {
            code.addAll(tiledLoop.loop(loop));
        } else {
            code.add(loop);
        }
        List<HIRBlock> sequence = new ArrayList<>();
        if (follow != null) {
            sequence.add(follow);
        }
        // merges are sorted by descending id; the code after the loop takes them ascending
        for (int i = after.size() - 1; i >= 0; i--) {
            sequence.add(after.get(i));
        }
        for (int i = 0; i < sequence.size(); i++) {
            HIRBlock block = sequence.get(i);
            code.add(new Label(label(block)));
            emitTree(block, loops, i + 1 < sequence.size() ? sequence.get(i + 1) : fallsInto, code);
        }
    }

    /** Whether {@code block} lies in the loop headed by {@code header} (or in a loop nested in it). */
    private static boolean isInLoop(HIRBlock block, HIRBlock header) {
        for (var loop = block.getLoop(); loop != null; loop = loop.getParent()) {
            if (loop.getHeader() == header) {
                return true;
            }
        }
        return false;
    }

    private void emitTerminator(HIRBlock block, Loops loops, HIRBlock fallsInto, List<CStmt> code) {
        current = block;
        FixedNode end = block.getEndNode();
        if (end instanceof IfNode ifNode) {
            // the tiled loop's header tests its counter against the end of the current tile
            String condition = tiling != null && ifNode == tiling.test() ? tiledLoop.innerTest() : operand(ifNode.condition());
            emitTwoWay(block, condition, ifNode.trueSuccessor(), ifNode.falseSuccessor(), loops, fallsInto, code);
        } else if (end instanceof IntegerExactArithmeticSplitNode split) {
            // Math.addExact & co. as a split: the wrapped result, then a branch to the overflow path
            // (an exception exit) when the exact result does not fit.
            String overflow;
            if (split instanceof BinaryIntegerExactArithmeticSplitNode binary) {
                overflow = expressions.exactOverflow(split, binary.getX(), operand(binary.getX()), operand(binary.getY()));
            } else {
                ValueNode value = ((IntegerNegExactSplitNode) split).getValue();
                overflow = expressions.exactOverflow(split, value, operand(value), null);
            }
            if (split.hasUsages()) {
                code.add(assign(operand(split), expressions.exactResult(split)));
            }
            emitTwoWay(block, overflow, split.getOverflowSuccessor(), split.getNext(), loops, fallsInto, code);
        } else if (end instanceof IntegerSwitchNode switchNode) {
            emitSwitch(block, switchNode, loops, fallsInto, code);
        } else if (end instanceof ReturnNode ret) {
            emitReturn(ret, code);
        } else if (end instanceof DeoptimizeNode deoptimize) {
            code.add(exit(exitCode(DeoptReason.of(deoptimize.getReason(), deoptimize.getSpeculation()), deoptimize)));
        } else if (end instanceof ControlSplitNode || end instanceof ControlSinkNode) {
            throw KernelBailoutException.at(end, describeUnsupported(end));
        } else if (block.getSuccessorCount() == 1) {
            branch(block, block.getFirstSuccessor(), loops, fallsInto, code);
        } else {
            throw KernelBailoutException.at(end, describeUnsupported(end));
        }
    }

    /** A two-way branch on a C {@code condition}: {@code if}/{@code else}, or a guard clause and the main path unnested. */
    private void emitTwoWay(HIRBlock block, String condition, AbstractBeginNode ifTrue, AbstractBeginNode ifFalse, Loops loops, HIRBlock fallsInto, List<CStmt> code) {
        List<CStmt> whenTrue = new ArrayList<>();
        List<CStmt> whenFalse = new ArrayList<>();
        branch(block, schedule.blockFor(ifTrue), loops, fallsInto, whenTrue);
        branch(block, schedule.blockFor(ifFalse), loops, fallsInto, whenFalse);
        CExpr test = text(condition);
        CExpr negated = text("!" + parenthesized(condition));
        Block trueBlock = new Block(whenTrue);
        Block falseBlock = new Block(whenFalse);
        if (whenFalse.isEmpty()) {
            code.add(new If(test, trueBlock));
        } else if (whenTrue.isEmpty()) {
            code.add(new If(negated, falseBlock));
        } else if (!CFlow.canCompleteNormally(falseBlock) && CFlow.canCompleteNormally(trueBlock)) {
            // A guard clause (an exit, break or early return) first, then the main path unnested.
            code.add(new If(negated, falseBlock));
            code.addAll(whenTrue);
        } else if (!CFlow.canCompleteNormally(trueBlock) && CFlow.canCompleteNormally(falseBlock)) {
            code.add(new If(test, trueBlock));
            code.addAll(whenFalse);
        } else {
            code.add(new If(test, trueBlock, falseBlock));
        }
    }

    /**
     * A Java {@code switch} on an {@code int} (also a {@code char}, {@code byte} or {@code short},
     * which Java widens) as an {@code if}/{@code else if} chain, one test per target with all its
     * keys, the default last. Not a C {@code switch}: a {@code break} in a branch's code means
     * leaving the enclosing loop, which inside a C {@code switch} would leave the switch instead.
     */
    private void emitSwitch(HIRBlock block, IntegerSwitchNode switchNode, Loops loops, HIRBlock fallsInto, List<CStmt> code) {
        String value = operand(switchNode.value());
        Map<AbstractBeginNode, List<String>> keysByTarget = new LinkedHashMap<>();
        for (int i = 0; i < switchNode.keyCount(); i++) {
            AbstractBeginNode target = switchNode.keySuccessor(i);
            if (target != switchNode.defaultSuccessor()) {
                keysByTarget.computeIfAbsent(target, t -> new ArrayList<>()).add(value + " == " + Literals.of(switchNode.keyAt(i)));
            }
        }
        List<CStmt> otherwise = new ArrayList<>();
        branch(block, schedule.blockFor(switchNode.defaultSuccessor()), loops, fallsInto, otherwise);
        if (keysByTarget.isEmpty()) {
            code.addAll(otherwise);
            return;
        }
        List<CExpr> conditions = new ArrayList<>();
        List<Block> arms = new ArrayList<>();
        for (Map.Entry<AbstractBeginNode, List<String>> target : keysByTarget.entrySet()) {
            List<CStmt> whenTaken = new ArrayList<>();
            branch(block, schedule.blockFor(target.getKey()), loops, fallsInto, whenTaken);
            conditions.add(text(String.join(" || ", target.getValue())));
            arms.add(new Block(whenTaken));
        }
        // the chain is built from its end: each test's else is the rest of the chain
        Block rest = new Block(otherwise);
        for (int i = arms.size() - 1; i >= 0; i--) {
            CStmt test = new If(conditions.get(i), arms.get(i), rest);
            rest = Block.of(test);
        }
        code.addAll(rest.statements());
    }

    /** The code for the edge {@code from → to}. */
    private void branch(HIRBlock from, HIRBlock to, Loops loops, HIRBlock fallsInto, List<CStmt> code) {
        if (skipsTiledLoop(from, to)) {
            // this path reaches the code after the tiled loop without it: fill the tiles, then go on there
            assignPhis((AbstractMergeNode) to.getBeginNode(), (AbstractEndNode) from.getEndNode(), code);
            code.addAll(TiledLoopWriter.leaveEarly(TiledLoopWriter.resumeState(tiling.resumes().indexOf(to))).statements());
            return;
        }
        if (to.getBeginNode() instanceof AbstractMergeNode merge) {
            AbstractEndNode end = (AbstractEndNode) from.getEndNode();
            assignPhis(merge, end, code);
            if (end instanceof LoopEndNode) {
                if (fallsInto == to) {
                    return;
                }
                if (loops != null && loops.header() == to) {
                    code.add(new Continue());
                } else {
                    continueTargets.add(to);
                    code.add(new Goto(continueLabel(to)));
                }
                return;
            }
            jumpForward(to, loops, fallsInto, code);
        } else if (follows.contains(to)) {
            jumpForward(to, loops, fallsInto, code);
        } else if (exitsIntoFollow.containsKey(to)) {
            HIRBlock follow = exitsIntoFollow.get(to);
            emitStatements(to, code);
            assignPhis((AbstractMergeNode) follow.getBeginNode(), (AbstractEndNode) to.getEndNode(), code);
            if (skipsTiledLoop(to, follow)) {
                code.addAll(TiledLoopWriter.leaveEarly(TiledLoopWriter.resumeState(tiling.resumes().indexOf(follow))).statements());
            } else {
                jumpForward(follow, loops, fallsInto, code);
            }
        } else {
            emitTree(to, loops, fallsInto, code);
        }
    }

    /** Whether {@code node} is computed only for the index of loads that now read tiles (then it is not written). */
    private boolean onlyIndexesTiles(Node node) {
        if (tiling == null || node instanceof FixedNode || node instanceof PhiNode || !node.hasUsages()) {
            return false;
        }
        for (Node usage : node.usages()) {
            boolean tiledIndex = usage instanceof LoadIndexedNode load && tiling.tileOf(load) != null && load.index() == node;
            if (!tiledIndex && !onlyIndexesTiles(usage)) {
                return false;
            }
        }
        return true;
    }

    /** Whether the edge {@code from → to} goes from before the tiled loop to after it without running it. */
    private boolean skipsTiledLoop(HIRBlock from, HIRBlock to) {
        return tiling != null && tiling.before().contains(from) && tiling.resumes().contains(to);
    }

    private void jumpForward(HIRBlock target, Loops loops, HIRBlock fallsInto, List<CStmt> code) {
        if (fallsInto == target) {
            return;
        }
        if (loops != null && loops.follow() == target) {
            code.add(new Break());
            return;
        }
        code.add(new Goto(label(target)));
    }

    private static String label(HIRBlock block) {
        return "L" + block.getBeginNode().getId();
    }

    private static String continueLabel(HIRBlock header) {
        return "next" + header.getBeginNode().getId();
    }

    // ---------------------------------------------------------------- statements

    private void emitStatements(HIRBlock block, List<CStmt> code) {
        current = block;
        FixedNode end = block.getEndNode();
        for (Node node : schedule.nodesFor(block)) {
            if (node == end && (node instanceof ControlSplitNode || node instanceof ControlSinkNode || node instanceof AbstractEndNode)) {
                continue;
            }
            if (node instanceof FixedNode fixed) {
                emitFixed(fixed, code);
            } else if (needsVariable(node) && !onlyIndexesTiles(node)) {
                ValueNode value = (ValueNode) node;
                code.add(assign(operand(value), expressions.emit(value)));
            }
        }
    }

    private void emitFixed(FixedNode node, List<CStmt> code) {
        if (node instanceof jdk.graal.compiler.nodes.extended.ValueAnchorNode) {
            return; // only pins floating nodes below it for Graal's scheduler; the C statements are already in order
        }
        if (node instanceof AbstractBeginNode) {
            return; // block entries: phis are assigned on the incoming edges
        }
        if (node instanceof FixedGuardNode guard) {
            String condition = operand(guard.condition());
            String fails = guard.isNegated() ? condition : "!" + parenthesized(condition);
            code.add(new If(text(fails), Block.of(exit(exitCode(DeoptReason.of(guard.getReason(), guard.getSpeculation()), guard)))));
        } else if (node instanceof IntegerDivRemNode division) {
            emitDivision(division, code);
        } else if (node instanceof LoadIndexedNode load) {
            if (load.hasUsages() && tiling != null && tiling.tileOf(load) != null) {
                code.add(assign(operand(load), tiledLoop.tileRead(load)));
            } else if (load.hasUsages()) {
                code.add(assign(operand(load), array(load) + "[" + operand(load.index()) + "]"));
            }
        } else if (node instanceof StoreIndexedNode store) {
            if (arrayOf(store) instanceof ConstantNode) {
                throw KernelBailoutException.at(store, "the function writes to a static final array, which kernels cannot change in Java's memory");
            }
            if (arrayOf(store) instanceof ParameterNode parameter && !isWritableArray(parameter)) {
                throw KernelBailoutException.at(store, "the function writes to a captured array; captured arrays are read-only on OpenCL (the write would not reach the Java array)");
            }
            code.add(assign(array(store) + "[" + operand(store.index()) + "]", storedValue(store)));
        } else if (node instanceof CommitAllocationNode commit) {
            emitCommit(commit, code);
        } else if (node instanceof NewArrayNode newArray) {
            emitNewArray(newArray, code);
        } else if (node instanceof ValueNode value && needsVariable(value)) {
            code.add(assign(operand(value), expressions.emit(value)));
        } else if (node instanceof ValueNode value && !value.hasUsages() && expressions.isPure(value)) {
            return; // an unused computation without effects
        } else {
            throw KernelBailoutException.at(node, describeUnsupported(node));
        }
    }

    /**
     * Java's integer division and remainder: an exit on a zero divisor, and
     * {@code MIN_VALUE / -1 == MIN_VALUE}, {@code MIN_VALUE % -1 == 0} (both undefined in C).
     */
    private void emitDivision(IntegerDivRemNode division, List<CStmt> code) {
        String x = operand(division.getX());
        String y = operand(division.getY());
        if (!isNonZero(division.getY()) && division.getZeroGuard() == null) {
            // The zero guard is the parser's explicit check (its non-zero branch), emitted as a branch of
            // its own; without one, keep Java's exception here.
            code.add(new If(text(y + " == 0"), Block.of(exit(exitCode(DeoptReason.DIVISION_BY_ZERO, division)))));
        }
        if (!division.hasUsages()) {
            return;
        }
        String type = OpenCLTypes.valueType(division.stamp(NodeView.DEFAULT));
        String unsigned = OpenCLTypes.unsigned(type);
        String value;
        if (division instanceof SignedDivNode) {
            value = cannotBeMinusOne(division.getY()) ? "(" + x + " / " + y + ")" : "(" + y + " == -1 ? " + expressions.wrapped(type, "0 - (" + unsigned + ")" + x) + " : " + x + " / " + y + ")";
        } else if (division instanceof SignedRemNode) {
            value = cannotBeMinusOne(division.getY()) ? "(" + x + " % " + y + ")" : "(" + y + " == -1 ? 0 : " + x + " % " + y + ")";
        } else if (division instanceof UnsignedDivNode) {
            value = expressions.wrapped(type, "(" + unsigned + ")" + x + " / (" + unsigned + ")" + y);
        } else if (division instanceof UnsignedRemNode) {
            value = expressions.wrapped(type, "(" + unsigned + ")" + x + " % (" + unsigned + ")" + y);
        } else {
            throw KernelBailoutException.at(division, describeUnsupported(division));
        }
        code.add(assign(operand(division), value));
    }

    /** True if the stamp excludes -1 (say an array length): C's {@code /} and {@code %} then agree with Java's. */
    static boolean cannotBeMinusOne(ValueNode value) {
        return value.stamp(NodeView.DEFAULT) instanceof IntegerStamp stamp && !stamp.contains(-1);
    }

    private static boolean isNonZero(ValueNode value) {
        return value.stamp(NodeView.DEFAULT) instanceof IntegerStamp stamp && !stamp.contains(0);
    }

    private String storedValue(StoreIndexedNode store) {
        String value = operand(store.value());
        return switch (store.elementKind()) {
            case Boolean -> "(uchar)(" + value + " & 1)"; // bastore on boolean[] keeps the lowest bit
            case Byte -> expressions.narrowed(8, value, store);
            case Short -> expressions.narrowed(16, value, store);
            case Char -> "(ushort)" + value;
            default -> value;
        };
    }

    private void emitCommit(CommitAllocationNode commit, List<CStmt> code) {
        int valueIndex = 0;
        for (VirtualObjectNode object : commit.getVirtualObjects()) {
            List<ValueNode> values = commit.getValues().subList(valueIndex, valueIndex + object.entryCount());
            valueIndex += object.entryCount();
            if (!(object instanceof VirtualArrayNode array) || !array.componentType().isPrimitive()) {
                throw KernelBailoutException.at(commit, "allocating " + object.type().toJavaName(false) + " objects is not supported on OpenCL (the allocation could not be removed)");
            }
            String arrayName = declareArray(object, array.componentType().getJavaKind(), array.entryCount());
            boolean allZero = values.stream().allMatch(v -> v instanceof ConstantNode c && c.asJavaConstant() != null && c.asJavaConstant().isDefaultForKind());
            if (allZero && array.entryCount() > 8) {
                code.add(zeroFill(arrayName, array.entryCount()));
            } else {
                for (int i = 0; i < values.size(); i++) {
                    ValueNode value = values.get(i);
                    if (value instanceof VirtualObjectNode) {
                        throw KernelBailoutException.at(commit, "arrays of arrays are not supported on OpenCL");
                    }
                    code.add(assign(arrayName + "[" + i + "]", operand(value)));
                }
            }
        }
    }

    private void emitNewArray(NewArrayNode newArray, List<CStmt> code) {
        ResolvedJavaType elementType = newArray.elementType();
        if (!elementType.isPrimitive()) {
            throw KernelBailoutException.at(newArray, "arrays of objects are not supported on OpenCL");
        }
        if (!(newArray.length() instanceof ConstantNode length)) {
            throw KernelBailoutException.at(newArray, "an array whose length is not a constant is not supported on OpenCL (kernels have no heap)");
        }
        int size = length.asJavaConstant().asInt();
        if (size < 0) {
            code.add(exit(exitCode(DeoptReason.NEGATIVE_ARRAY_SIZE, newArray)));
            return;
        }
        String arrayName = declareArray(newArray, elementType.getJavaKind(), size);
        code.add(zeroFill(arrayName, size));
    }

    /**
     * One of the JDK's immutable tables (FdLibm's, behind {@code StrictMath}: {@link ImmutableJdkTables})
     * as a program-scope {@code __constant} table. Any other constant array, a user's static final
     * one included, may be written after the kernel was compiled, which the kernel would not see.
     */
    private String table(AccessIndexedNode access, ConstantNode constant) {
        JavaConstant array = constant.asJavaConstant();
        String known = tables.get(array);
        if (known != null) {
            return known;
        }
        if (!ImmutableJdkTables.contains(array)) {
            // Decided by the array, not by the code reading it: a user's table read inside an
            // inlined Arrays.binarySearch was frozen once (issue 11). StaticArraysToParametersPhase
            // makes every other array read a kernel argument; one still constant here is a bug.
            throw KernelBailoutException.internalError("a static array reached the backend as a constant, whose elements Java may change after the kernel is compiled",
                            jpai.compiler.SourceLocation.of(access.getNodeSourcePosition()), null);
        }
        ConstantReflectionProvider reflection = GraalAccess.get().providers().getConstantReflection();
        Integer length = reflection.readArrayLength(array);
        JavaKind kind = access.elementKind();
        if (length == null || !kind.isPrimitive()) {
            throw KernelBailoutException.at(access, "the function reads a constant array of objects, which kernels do not have");
        }
        List<String> elements = new ArrayList<>();
        for (int i = 0; i < length; i++) {
            elements.add(Literals.of(reflection.readArrayElement(array, i)));
        }
        String tableName = name + "_table" + tables.size();
        noteDoubles(kind);
        tableDefinitions.add("__constant " + OpenCLTypes.storageType(kind) + " " + tableName + "[" + Math.max(length, 1) + "] = {" + String.join(", ", elements) + "};");
        tables.put(array, tableName);
        return tableName;
    }

    /**
     * The C array of a local array, declared once: partial escape analysis may materialise one
     * virtual array on several paths (a {@link CommitAllocationNode} on each), which then share it
     * (each path initialises every element). Declaring it per commit made PoCL reject the kernel
     * ("redefinition of 'a350'": fuzz seed 42 program 6945).
     */
    private String declareArray(ValueNode identity, JavaKind elementKind, int length) {
        String declared = names.get(identity);
        if (declared != null) {
            return declared;
        }
        String arrayName = "a" + identity.getId();
        noteDoubles(elementKind);
        arrayDeclarations.add(OpenCLTypes.storageType(elementKind) + " " + arrayName + "[" + Math.max(length, 1) + "];");
        names.put(identity, arrayName);
        return arrayName;
    }

    private ValueNode arrayOf(AccessIndexedNode access) {
        return unwrap(access.array());
    }

    private String array(AccessIndexedNode access) {
        ValueNode array = arrayOf(access);
        if (array instanceof ConstantNode constant && access instanceof LoadIndexedNode) {
            return table(access, constant);
        }
        String arrayName = names.get(array instanceof AllocatedObjectNode allocated ? allocated.getVirtualObject() : array);
        if (arrayName == null) {
            throw KernelBailoutException.at(access, "an array that is neither captured nor allocated in the function (" + JavaConstructs.describe(array) + ") is not supported on OpenCL");
        }
        return arrayName;
    }

    private void emitReturn(ReturnNode ret, List<CStmt> code) {
        ValueNode result = ret.result();
        List<ValueNode> components = result == null ? List.of() : result instanceof TupleValueNode tuple ? tuple.components() : List.of(result);
        if (components.size() != resultNames.size()) {
            throw KernelBailoutException.at(ret, "the function returns " + components.size() + " values where its signature has " + resultNames.size());
        }
        for (int i = 0; i < components.size(); i++) {
            ValueNode component = components.get(i);
            if (!component.getStackKind().isPrimitive()) {
                throw KernelBailoutException.at(ret, "the function returns " + JavaConstructs.describe(unwrap(component)) + " where its result has a number; a boxed value of another type?");
            }
            code.add(assign("*" + resultNames.get(i), operand(component)));
        }
        code.add(exit("0"));
    }

    /** The exit code with a comment naming the exception and the line, for readers of the kernel. */
    private String exitCode(DeoptReason reason, Node node) {
        mayExit = true;
        SourceLocation location = SourceLocation.of(node.getNodeSourcePosition());
        String where = location == SourceLocation.UNKNOWN ? "" : " at " + location.shortForm();
        return reason.code() + " /* " + reason.name() + where + " */";
    }

    private static String describeUnsupported(Node node) {
        if (node instanceof jdk.graal.compiler.nodes.extended.IntegerSwitchNode || node.getClass().getSimpleName().contains("Switch")) {
            return "a switch on anything but an int, char, byte or short is not supported on OpenCL";
        }
        if (node instanceof jdk.graal.compiler.nodes.Invoke) {
            return JavaConstructs.describe(node) + " that could not be inlined (recursion, a native method, or a call whose target is chosen at run time) is not supported on OpenCL";
        }
        return JavaConstructs.describe(node) + " is not supported on OpenCL";
    }

    /** Assigns the merge's phis their values on this edge, as one parallel copy. */
    private void assignPhis(AbstractMergeNode merge, AbstractEndNode end, List<CStmt> code) {
        List<PhiNode> phis = new ArrayList<>();
        for (PhiNode phi : merge.phis()) {
            if (phi.hasUsages() && !(phi.stamp(NodeView.DEFAULT).isPointerStamp()) && phi.getStackKind().isPrimitive()) {
                phis.add(phi);
            } else if (phi.hasUsages() && !phi.getStackKind().isPrimitive()) {
                throw KernelBailoutException.at(merge, "a variable that holds different arrays or objects on different paths is not supported on OpenCL");
            }
        }
        List<PhiNode> changing = new ArrayList<>();
        for (PhiNode phi : phis) {
            if (unwrap(phi.valueAt(end)) != phi) {
                changing.add(phi);
            }
        }
        boolean readsSibling = false;
        for (PhiNode phi : changing) {
            ValueNode input = unwrap(phi.valueAt(end));
            readsSibling |= input instanceof PhiNode other && other.merge() == merge && changing.contains(other);
        }
        if (!readsSibling) {
            for (PhiNode phi : changing) {
                code.add(assign(operand(phi), operand(phi.valueAt(end))));
            }
            return;
        }
        // A swap (a, b = b, a) in a loop: read every value before writing any.
        List<CStmt> copy = new ArrayList<>();
        for (int i = 0; i < changing.size(); i++) {
            copy.add(new Declaration(typeOf(changing.get(i)), "t" + i, text(operand(changing.get(i).valueAt(end)))));
        }
        for (int i = 0; i < changing.size(); i++) {
            copy.add(assign(operand(changing.get(i)), "t" + i));
        }
        code.add(new Block(copy));
    }

    /**
     * C text from the expression emitter as a tree leaf. It only ever stands where a whole expression
     * goes (a condition, a right-hand side, a return value), so its own precedence never matters.
     */
    private static CExpr text(String expression) {
        return new CExpr.Text(expression, CExpr.PRIMARY);
    }

    private static CStmt assign(String target, String value) {
        return new Assignment(text(target), text(value));
    }

    /**
     * Leaving the function with a Java exception's (or deoptimization's) exit code, or 0 after a
     * result. Before a tiled loop, the work-item first helps fill the group's tiles; inside it, it
     * stops computing and fills the rest of them.
     */
    private CStmt exit(String exitCode) {
        if (tiling != null && tiling.before().contains(current)) {
            return TiledLoopWriter.leaveEarly(text(exitCode));
        }
        if (tiling != null && tiling.inside(current)) {
            return TiledLoopWriter.leaveInside(text(exitCode));
        }
        return new Return(text(exitCode));
    }

    /** Java's zeroed new array: {@code for (int k = 0; k < length; k++) array[k] = 0;}. */
    private static CStmt zeroFill(String arrayName, int length) {
        CExpr k = CExpr.name("k");
        return new For(new Declaration("int", "k", CExpr.literal("0")), CExpr.binary(k, CExpr.BinaryOperator.LT, CExpr.literal(Integer.toString(length))),
                new CStmt.ExpressionStatement(text("k++")), Block.of(new Assignment(new CExpr.Index(text(arrayName), k), CExpr.literal("0"))));
    }

    // ---------------------------------------------------------------- values

    /**
     * A condition used only by one branch or guard is written into it rather than into a
     * {@code bool} variable. Safe: its inputs are not reassigned between where it is scheduled and
     * its use (phis change only on the edges into their merge, which the condition's block
     * dominates).
     */
    private static boolean isInlineCondition(Node node) {
        return node instanceof LogicNode logic && !(node instanceof LogicConstantNode) && logic.hasExactlyOneUsage()
                        && (logic.singleUsage() instanceof IfNode || logic.singleUsage() instanceof FixedGuardNode);
    }

    private static boolean needsVariable(Node node) {
        return !isInlineCondition(node) && node instanceof ValueNode value && !(node instanceof ConstantNode) && !(node instanceof LogicConstantNode) && !(node instanceof ParameterNode)
                        && !(node instanceof PhiNode) && !(node instanceof ValueProxyNode) && !(node instanceof AbstractBeginNode) && !(node instanceof PiNode)
                        && !(node instanceof TupleValueNode) && !(node instanceof VirtualObjectNode) && !(node instanceof AllocatedObjectNode)
                        && value.hasUsages() && !value.stamp(NodeView.DEFAULT).isPointerStamp() && !(value.stamp(NodeView.DEFAULT).getStackKind().isObject());
    }

    /** A value seen through proxies (loop exits) and Pi nodes (type refinements), which have no code. */
    private static ValueNode unwrap(ValueNode value) {
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

    /** The C text naming a value: a literal for constants, a parameter or array name, else its variable. */
    private String operand(ValueNode value) {
        ValueNode unwrapped = unwrap(value);
        if (unwrapped instanceof ConstantNode constant) {
            return Literals.of(constant.asJavaConstant());
        }
        if (unwrapped instanceof LogicConstantNode logic) {
            return logic.getValue() ? "true" : "false";
        }
        if (isInlineCondition(unwrapped)) {
            return expressions.emit(unwrapped);
        }
        if (unwrapped instanceof AllocatedObjectNode allocated) {
            String arrayName = names.get(allocated.getVirtualObject());
            if (arrayName != null) {
                return arrayName;
            }
        }
        String known = names.get(unwrapped);
        if (known != null) {
            return known;
        }
        if (unwrapped instanceof ParameterNode) {
            throw KernelBailoutException.at(unwrapped.usages().first(), "the function uses a value that is not one of its inputs (parameter " + ((ParameterNode) unwrapped).index() + ")");
        }
        if (!unwrapped.getStackKind().isPrimitive() && !(unwrapped instanceof LogicNode)) {
            throw KernelBailoutException.at(unwrapped, "the function uses " + JavaConstructs.describe(unwrapped) + ", which kernels do not have");
        }
        return variables.computeIfAbsent(unwrapped, v -> (v instanceof PhiNode ? "phi" : "v") + v.getId());
    }

    private static String parenthesized(String expression) {
        return expression.startsWith("(") && expression.endsWith(")") && balanced(expression) ? expression : "(" + expression + ")";
    }

    /** True if the outer parentheses of {@code expression} enclose all of it. */
    private static boolean balanced(String expression) {
        int depth = 0;
        for (int i = 0; i < expression.length(); i++) {
            char c = expression.charAt(i);
            if (c == '(') {
                depth++;
            } else if (c == ')') {
                depth--;
                if (depth == 0 && i < expression.length() - 1) {
                    return false;
                }
            }
        }
        return true;
    }

    private String typeOf(ValueNode value) {
        if (value instanceof LogicNode) {
            return "bool";
        }
        if (value.stamp(NodeView.DEFAULT) instanceof FloatStamp floating && floating.getBits() == 64) {
            usesDoubles = true;
        }
        return OpenCLTypes.valueType(value.stamp(NodeView.DEFAULT));
    }
}
