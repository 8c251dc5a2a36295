package jpai.ocl.codegen;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

import jdk.graal.compiler.nodes.ConstantNode;
import jdk.graal.compiler.nodes.LogicConstantNode;
import jdk.graal.compiler.nodes.ParameterNode;
import jdk.graal.compiler.nodes.ValueNode;
import jdk.graal.compiler.nodes.java.LoadIndexedNode;
import jpai.ocl.ExactFloatDivSqrt;
import jpai.ocl.OpenCLTypes;
import jpai.ocl.c.CExpr;
import jpai.ocl.c.CStmt;
import jpai.ocl.c.CStmt.Assignment;
import jpai.ocl.c.CStmt.Block;
import jpai.ocl.c.CStmt.For;
import jpai.ocl.c.CStmt.If;
import jpai.ocl.c.CStmt.Label;
import jpai.ocl.c.CStmt.Return;
import jpai.ocl.codegen.LoopTiling.Plan;
import jpai.ocl.codegen.LoopTiling.Tile;

/**
 * Writes the C of a loop that {@link LoopTiling} planned to tile (docs/backend.md, "Tiling"): the
 * original loop {@code for (j = first; j < limit; j++) body} becomes
 *
 * <pre>
 * jpai_tiles:;
 * jpai_first = first; jpai_limit = limit;              // uniform: recomputed from the parameters
 * for (jpai_tile = jpai_first; jpai_tile &lt; jpai_limit; jpai_tile += K) {
 *     barrier(CLK_LOCAL_MEM_FENCE);                     // the last tile's readers are done
 *     ... the group fills each tile with the elements of counters jpai_tile .. jpai_tile + K - 1
 *     barrier(CLK_LOCAL_MEM_FENCE);
 *     if (jpai_left == -1) {                             // still computing
 *         j = (int) jpai_tile;                           // where it is already
 *         if (jpai_tile + K &lt;= jpai_limit) {           // a whole tile: a constant trip count
 *             for (int jpai_k = 0; jpai_k &lt; K; jpai_k++) { body, its tiled loads reading the tiles at jpai_k; j++ }
 *         } else {                                       // the last tile
 *             jpai_end = (int) jpai_limit;
 *             for (int jpai_k = 0;; jpai_k++) { if (!(j &lt; jpai_end)) break; body; j++ }
 *         }
 *     }
 *     jpai_computed:;                                    // where an exit inside the loop goes ({@link #leaveInside})
 * }
 * if (jpai_left &gt;= 0) return jpai_left;
 * if (jpai_left == -2) goto L12;                          // a path that skipped the loop goes on
 * </pre>
 *
 * A work-item that left before the loop (an exception, a result, or no element at all) jumps to
 * {@code jpai_tiles} with its exit code in {@code jpai_left} and still takes part in every fill
 * and barrier; the bounds are uniform, so every work-item of the group runs the same tiles. The
 * body does the same operations in the same order, only some loads come from the tiles.
 */
final class TiledLoopWriter {

    static final String LABEL = "jpai_tiles";
    /** The exit code of a work-item that left before the loop, or -1 while it computes. */
    static final String LEFT = "jpai_left";
    /** The element function's parameter: false for a work-item past the end of the index space. */
    static final String ACTIVE = "jpai_active";
    private static final String FIRST = "jpai_first";
    private static final String LIMIT = "jpai_limit";
    private static final String TILE = "jpai_tile";
    private static final String END = "jpai_end";
    /** The iteration within the current tile: the tiles' column. */
    private static final String COLUMN = "jpai_k";

    private final Plan plan;
    private final Function<ValueNode, String> operand;
    private final ExpressionEmitter fresh;
    private final Map<ParameterNode, String> substitutions = new HashMap<>();
    private final List<String> resumeLabels;

    /**
     * @param operand names a value where the loop's own code uses it (the function's variables)
     * @param divSqrt how the function writes float division and sqrt (null: OpenCL's own), for the
     *            loop's own expressions to be written the same way
     * @param resumeLabels the labels of {@link Plan#resumes()}, in order
     */
    TiledLoopWriter(Plan plan, Function<ValueNode, String> operand, Set<Helper> helpers, ExactFloatDivSqrt divSqrt, List<String> resumeLabels) {
        this.plan = plan;
        this.operand = operand;
        this.resumeLabels = List.copyOf(resumeLabels);
        this.fresh = new ExpressionEmitter(this::freshOperand, helpers, divSqrt);
    }

    /**
     * The state of a work-item that skipped the loop on a path to resume {@code r} (of
     * {@link Plan#resumes()}): below -1, so that it neither computes nor leaves.
     */
    static CExpr resumeState(int r) {
        return CExpr.literal(Integer.toString(-2 - r));
    }

    /** The variables the tiled loop declares at the top of the function. */
    static List<String> declarations() {
        return List.of("int " + LEFT + " = -1;", "long " + FIRST + ";", "long " + LIMIT + ";", "long " + TILE + ";", "int " + END + ";");
    }

    /** The kernel's {@code __local} arrays for the tiles, named as the function's parameters. */
    List<String> localDeclarations() {
        List<String> declarations = new ArrayList<>();
        for (Tile tile : plan.tiles()) {
            declarations.add("__local " + OpenCLTypes.storageType(tile.elementKind()) + " " + tile.name() + "[" + tile.rows() * plan.shape().tileWidth() + "];");
        }
        return declarations;
    }

    /** Where a work-item that left inside the loop goes: after its computing part of the tile. */
    private static final String COMPUTED = "jpai_computed";

    /**
     * The statement for leaving inside the loop with {@code exitCode} (a kernel exit: a failed check,
     * a division by zero): the work-item stops computing but still fills the later tiles and meets
     * every barrier; after the loop it leaves with the code, as one that left before it does.
     */
    static Block leaveInside(CExpr exitCode) {
        return Block.of(new Assignment(CExpr.name(LEFT), "=", exitCode), new CStmt.Goto(COMPUTED));
    }

    /** The statement for leaving before the loop with {@code exitCode}: help fill the tiles first. */
    static Block leaveEarly(CExpr exitCode) {
        return Block.of(new Assignment(CExpr.name(LEFT), "=", exitCode), new CStmt.Goto(LABEL));
    }

    /** The first statement of the function: a work-item with no element only fills tiles. */
    static CStmt inactiveWorkItemsOnlyFill() {
        return new If(text("!" + ACTIVE), leaveEarly(CExpr.literal("0")));
    }

    /** The header's test inside a tile: the counter against the tile's end. */
    String innerTest() {
        return operand.apply(plan.counter()) + " < " + END;
    }

    /**
     * The tile element {@code load} reads at the current counter. The column is {@code jpai_k}, the
     * iteration within the tile, which both loops of {@link #computing} count beside the counter
     * (the counter starts each tile at {@code jpai_tile} and steps by one): an int the OpenCL compiler
     * sees run 0 .. K-1, where {@code counter - jpai_tile} was a 64-bit difference it could not fold
     * into the unrolled loads' addresses.
     */
    String tileRead(LoadIndexedNode load) {
        Tile tile = plan.tileOf(load);
        String column = COLUMN;
        String position;
        if (tile.rows() == 1) {
            position = column;
        } else if (tile.rowDimension() == 0) {
            position = column + " * " + tile.rows() + " + (int) get_local_id(0)";
        } else {
            position = "(int) get_local_id(" + tile.rowDimension() + ") * " + plan.shape().tileWidth() + " + " + column;
        }
        return tile.name() + "[" + position + "]";
    }

    /** The statements replacing the loop whose emitted form is {@code loop} (a {@code for (;;)}). */
    List<CStmt> loop(CStmt loop) {
        int width = plan.shape().tileWidth();
        List<CStmt> code = new ArrayList<>();
        code.add(new Label(LABEL));
        code.add(assign(FIRST, freshValue(plan.first())));
        code.add(assign(LIMIT, freshValue(plan.limit())));
        List<CStmt> round = new ArrayList<>();
        round.add(barrier());
        for (Tile tile : plan.tiles()) {
            round.add(fill(tile));
        }
        round.add(barrier());
        round.add(new If(text(LEFT + " == -1"), computing(loop, width)));
        if (plan.exitsInside()) {
            round.add(new Label(COMPUTED));
        }
        code.add(new For(new Assignment(CExpr.name(TILE), "=", CExpr.name(FIRST)), text(TILE + " < " + LIMIT), new Assignment(CExpr.name(TILE), "+=", CExpr.literal(width + "L")),
                        new Block(round)));
        code.add(new If(text(LEFT + " >= 0"), Block.of(new Return(CExpr.name(LEFT)))));
        for (int r = 0; r < resumeLabels.size(); r++) {
            code.add(new If(text(LEFT + " == " + (-2 - r)), Block.of(new CStmt.Goto(resumeLabels.get(r)))));
        }
        return code;
    }

    /**
     * The computing work-item's part of one tile: the original loop up to the tile's end. The
     * counter is at the tile's start already; saying so lets the OpenCL compiler see the trip count.
     * Where the loop's body has no label (it can be written twice), a whole tile runs as a loop of
     * exactly K iterations without the header's test, which the compiler may unroll fully (the
     * SDK's kernels have constant tile loops), and only the last, partial tile tests the counter.
     */
    private Block computing(CStmt loop, int width) {
        CStmt restart = assign(operand.apply(plan.counter()), "(int) " + TILE);
        CStmt untilLimit = assign(END, "(int) " + LIMIT);
        List<CStmt> body = ((For) loop).body().statements();
        boolean testFirst = !body.isEmpty() && body.get(0) instanceof If test && test.ifFalse().statements().isEmpty()
                        && test.ifTrue().statements().equals(List.of(new CStmt.Break()));
        CStmt testedLoop = new For(startColumn(), null, nextColumn(), ((For) loop).body());
        if (!testFirst || body.stream().anyMatch(TiledLoopWriter::containsLabel)) {
            return Block.of(restart, assign(END, "(int) min(" + TILE + " + " + width + "L, " + LIMIT + ")"), testedLoop);
        }
        CStmt wholeTile = new For(startColumn(), text(COLUMN + " < " + width), nextColumn(), new Block(body.subList(1, body.size())));
        return Block.of(restart, new If(text(TILE + " + " + width + "L <= " + LIMIT), Block.of(wholeTile), Block.of(untilLimit, testedLoop)));
    }

    private static CStmt startColumn() {
        return new CStmt.Declaration("int", COLUMN, CExpr.literal("0"));
    }

    private static CStmt nextColumn() {
        return new CStmt.ExpressionStatement(text(COLUMN + "++"));
    }

    private static boolean containsLabel(CStmt statement) {
        return switch (statement) {
            case Label _ -> true;
            case Block block -> block.statements().stream().anyMatch(TiledLoopWriter::containsLabel);
            case If test -> containsLabel(test.ifTrue()) || containsLabel(test.ifFalse());
            case CStmt.While loop -> containsLabel(loop.body());
            case For loop -> containsLabel(loop.body());
            case CStmt.Switch choice -> choice.cases().stream().anyMatch(arm -> containsLabel(arm.body()));
            default -> false;
        };
    }

    /**
     * The group fills {@code tile}: element {@code e} (row {@code r}, column {@code t}) holds the
     * array at counter {@code jpai_tile + t} for the row's work-items, 0 past the limit or outside
     * the array (no work-item reads those: a computing one reads only counters below the limit, at
     * indices Java's checks, hoisted before the loop, proved in range).
     */
    private CStmt fill(Tile tile) {
        TileShape shape = plan.shape();
        int width = shape.tileWidth();
        int elements = tile.rows() * width;
        String column = tile.rows() > 1 && tile.rowDimension() == 0 ? "jpai_e / " + tile.rows() : "jpai_e % " + width;
        String row = tile.rowDimension() == 0 ? "jpai_e % " + tile.rows() : "jpai_e / " + width;
        String storage = OpenCLTypes.storageType(tile.elementKind());
        List<CStmt> inRange = new ArrayList<>();
        if (tile.rowArgument() != null) {
            // the row's work-item's index: this one's, moved to the row's place in the group
            String own = operand.apply(tile.rowArgument());
            inRange.add(new CStmt.Declaration("const int", "jpai_x",
                            text("as_int((uint) " + own + " - (uint) get_local_id(" + tile.rowDimension() + ") + (uint) (" + row + "))")));
            substitutions.put(tile.rowArgument(), "jpai_x");
        }
        String index = "(uint) (int) jpai_j";
        if (tile.stride() != null) {
            index = index + " * (uint) " + freshValue(tile.stride());
        }
        if (tile.offset() != null) {
            index = index + " + (uint) " + freshValue(tile.offset());
        }
        substitutions.clear();
        String array = operand.apply(tile.array());
        inRange.add(new CStmt.Declaration("const int", "jpai_i", text("as_int(" + index + ")")));
        inRange.add(new If(text("jpai_i >= 0 && jpai_i < " + array + "_length"), Block.of(assign("jpai_v", array + "[jpai_i]"))));
        List<CStmt> element = new ArrayList<>();
        element.add(new CStmt.Declaration("const long", "jpai_j", text(TILE + " + " + column)));
        element.add(new CStmt.Declaration(storage, "jpai_v", CExpr.literal("0")));
        element.add(new If(text("jpai_j < " + LIMIT), new Block(inRange)));
        element.add(assign(tile.name() + "[jpai_e]", "jpai_v"));
        return new For(new CStmt.Declaration("int", "jpai_e", text(flatLocalId(shape))), text("jpai_e < " + elements), new Assignment(CExpr.name("jpai_e"), "+=",
                        CExpr.literal(Long.toString(shape.groupSize()))), new Block(element));
    }

    private static String flatLocalId(TileShape shape) {
        if (shape.localSize().length == 1) {
            return "(int) get_local_id(0)";
        }
        return "(int) (get_local_id(1) * " + shape.localSize(0) + " + get_local_id(0))";
    }

    private static CStmt barrier() {
        return new CStmt.ExpressionStatement(text("barrier(CLK_LOCAL_MEM_FENCE)"));
    }

    /** A uniform value computed anew from parameters and constants (what the code before the loop computed may have been skipped). */
    private String freshValue(ValueNode value) {
        return freshOperand(value);
    }

    private String freshOperand(ValueNode value) {
        ValueNode node = LoopTiling.unwrap(value);
        if (node instanceof ConstantNode || node instanceof LogicConstantNode) {
            return operand.apply(node);
        }
        if (node instanceof ParameterNode parameter) {
            String substituted = substitutions.get(parameter);
            return substituted != null ? substituted : operand.apply(parameter);
        }
        return "(" + fresh.emit(node) + ")";
    }

    private static CStmt assign(String target, String value) {
        return new Assignment(text(target), "=", text(value));
    }

    private static CExpr text(String expression) {
        return new CExpr.Text(expression, CExpr.PRIMARY);
    }
}
