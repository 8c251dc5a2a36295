package jpai.ocl;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

import jdk.vm.ci.meta.JavaKind;
import jpai.compiler.CapturedValue;
import jpai.compiler.KernelGraph;
import jpai.compiler.ValueShape;
import jpai.ocl.KernelParameter.Role;
import jpai.ocl.codegen.CodeWriter;
import jpai.ocl.codegen.FunctionEmitter;
import jpai.ocl.codegen.TileShape;
import jpai.ocl.codegen.FunctionEmitter.EmittedFunction;
import jpai.ocl.codegen.FunctionEmitter.FunctionParameter;
import jpai.ocl.codegen.FunctionEmitter.ParameterKind;
import jpai.ocl.codegen.Helper;

/**
 * The backend's entry point: OpenCL C programs for the parallel skeletons, with the user's
 * functions emitted from their graphs ({@link FunctionEmitter}, one {@code static int} element
 * function each) and the skeleton's kernel around them. Emits text; builds and launches nothing.
 *
 * <p>Every kernel ends with {@code const long n, __global int *jpai_status}: the number of elements,
 * and two ints the runtime zeroes before the launch. A work-item whose function returns a nonzero
 * {@link DeoptReason} code writes it to {@code jpai_status[0]} and its element index, saturated to
 * {@code INT_MAX}, to {@code jpai_status[1]} (encoded: {@link KernelStatus}), and stops: in a map the
 * lowest element wins ({@code atomic_min}), so the runtime re-runs in Java only the elements from it
 * on; in a reduction the first writer wins ({@code atomic_cmpxchg}). After the kernel, a nonzero {@code jpai_status[0]} means the
 * outputs are not Java's: the runtime must run the operation in Java instead.
 */
public final class OpenCLKernelGenerator {

    /**
     * Options for {@code clBuildProgram} that keep Java's results: divisions and square roots in
     * {@code float} correctly rounded (OpenCL otherwise allows 2.5 ulp).
     */
    public static final String JAVA_SEMANTICS_BUILD_OPTIONS = "-cl-fp32-correctly-rounded-divide-sqrt";

    /** Options for {@code clBuildProgram} with {@link GeneratorOptions#fastMath()}. */
    public static final String FAST_MATH_BUILD_OPTIONS = "-cl-fast-relaxed-math";

    private static final String REPORT_FUNCTION = """
            /* Records why the kernel cannot give Java's result: the first reason and its element win
               (the element word holds element + INT_MIN: KernelStatus). */
            static void jpai_report(__global int *jpai_status, int reason, long index) {
                if (atomic_cmpxchg(jpai_status, 0, reason) == 0) {
                    jpai_status[1] = (int) (min(index, (long) INT_MAX) + (long) INT_MIN);
                }
            }

            /* Records the lowest element that exits (element + INT_MIN, so the zeroed word is above
               every one) and a reason, that element's unless elements of other reasons exit at once:
               the runtime re-runs in Java only the elements from the lowest one on. */
            static void jpai_report_lowest(__global int *jpai_status, int reason, long index) {
                const int word = (int) (min(index, (long) INT_MAX) + (long) INT_MIN);
                if (atomic_min(jpai_status + 1, word) > word) {
                    atomic_xchg(jpai_status, reason);
                }
            }""";

    private final GeneratorOptions options;

    /** A generator that keeps Java's semantics ({@link GeneratorOptions#JAVA_SEMANTICS}). */
    public OpenCLKernelGenerator() {
        this(GeneratorOptions.JAVA_SEMANTICS);
    }

    public OpenCLKernelGenerator(GeneratorOptions options) {
        this.options = options;
    }

    /**
     * A map: {@code out[i] = f(in[i])} for every {@code i < n}, one element per work-item: element
     * {@code get_global_id(0)}, work-items at or past {@code n} do nothing. Contract with the runtime:
     * the launches cover {@code 0..n-1}, in one enqueue or in several with global offsets (the ids
     * include the offset). No loop, as in a hand-written kernel: a loop around the element (the
     * grid-stride loop this kernel had) keeps PoCL from inlining the element function and from
     * vectorising its work-group loop. Kernel {@code jpai_map}, arguments: the input component buffers
     * ({@link Role#INPUT_BUFFER}), the output component buffers ({@link Role#OUTPUT_BUFFER}), the
     * captured values ({@link Role#CAPTURED_SCALAR}, or {@link Role#CAPTURED_ARRAY} followed by
     * {@link Role#CAPTURED_ARRAY_LENGTH}, and for a 2-D array {@link Role#CAPTURED_ROW_LENGTH}; a
     * field of a captured object or a static array only where the function reads it),
     * {@link Role#BASE_INDEX}, {@link Role#LENGTH}, {@link Role#STATUS}. A map over indices
     * ({@link MapKernelSpec#inputIsIndex()}) has no input buffer: element {@code i} is {@code i}.
     * A map over a 2-D or 3-D index space is a 2-D or 3-D NDRange, whose dimension 0 runs along the
     * last index ({@code j} of {@code (i, j)}) and whose last dimension along the first; it takes one
     * {@link Role#INDEX_EXTENT} per dimension after the base (which offsets the first index), writes
     * element {@code (i, j)} at {@code i * extent1 + j}, and does nothing outside the extents. The
     * runtime may split its launch into slabs along the last NDRange dimension.
     */
    public KernelSource map(KernelGraph kernel, MapKernelSpec spec) {
        TileShape tileShape = options.tiling().covers(spec.indexDimensions()) ? TileShape.forMap(spec) : null;
        EmittedFunction function = new FunctionEmitter(kernel, "jpai_" + kernel.lambda().identifier(), tileShape, options.helperFormulation()).emit();
        TileShape tiled = function.tiledShape();
        requireComponents("the function's arguments", function.parameters(ParameterKind.ARGUMENT), spec.inputComponents());
        requireComponents("the function's result", function.parameters(ParameterKind.RESULT), spec.outputComponents());

        KernelSignatureBuilder kernelParameters = new KernelSignatureBuilder();
        for (int i = 0; i < spec.inputComponents().size() && !spec.inputIsIndex(); i++) {
            kernelParameters.buffer("in" + i, Role.INPUT_BUFFER, spec.inputComponents().get(i), i, true);
        }
        for (int i = 0; i < spec.outputComponents().size(); i++) {
            kernelParameters.buffer("out" + i, Role.OUTPUT_BUFFER, spec.outputComponents().get(i), i, false);
        }
        List<String> captureNames = kernelParameters.captures(kernel, 0);
        kernelParameters.add("base", Role.BASE_INDEX, JavaKind.Long, 0, "const long base");
        int dimensions = spec.indexDimensions();
        if (dimensions > 1) {
            for (int d = 0; d < dimensions; d++) {
                kernelParameters.add("extent" + d, Role.INDEX_EXTENT, JavaKind.Long, d, "const long extent" + d);
            }
        }
        kernelParameters.lengthAndStatus(List.of(function));

        CodeWriter code = prelude(kernel.lambda().displayName(), pluginsOf(kernel, null), List.of(function), spec.inputComponents(), spec.outputComponents());
        if (tiled != null) {
            tiledMap(code, function, tiled, captureNames, kernelParameters.declarations(), spec);
            List<Long> local = Arrays.stream(tiled.localSize()).boxed().toList();
            return new KernelSource("jpai_map", code.toString(), buildOptions(), kernelParameters.parameters, kernel.captures(), local, function.tilingNotes());
        }
        code.open("__kernel void jpai_map(" + kernelParameters.declarations() + ")");
        List<String> arguments = new ArrayList<>();
        if (dimensions > 1) {
            arguments.addAll(indexSpaceElement(code, dimensions));
        } else {
            code.line("const long i = base + (long) get_global_id(0); /* no global offset: its width past 2^31 is the driver's choice */");
            code.open("if (i < n)");
            if (spec.inputIsIndex()) {
                arguments.add("(int) i"); // an index range holds at most INT_MAX elements
            } else {
                for (int c = 0; c < spec.inputComponents().size(); c++) {
                    arguments.add("(" + OpenCLTypes.valueType(spec.inputComponents().get(c)) + ") in" + c + "[i]");
                }
            }
        }
        mapElement(code, function, captureNames, arguments, spec);
        code.close();
        code.close();
        return new KernelSource("jpai_map", code.toString(), buildOptions(), kernelParameters.parameters, kernel.captures(), List.of(), function.tilingNotes());
    }

    /**
     * Maps fused into one map kernel: {@code out[i] = fk(...f1(f0(in[i])))}, each stage's element
     * function emitted once and called on the previous stage's result, held in private variables,
     * so no intermediate array exists. The kernel is a map kernel ({@link #map}): name
     * {@code jpai_map}, the same argument roles, the captured values of every stage one after the
     * other (stage 0's slots first), and an exit in any stage reported at its element as a map
     * reports it. Not tiled. A stage that writes a captured array is refused: Java runs each stage
     * over the whole array before the next, so a later stage would read what an earlier one wrote.
     *
     * @param stages the stages' graphs, in order of application
     * @param components the components of the input and of each stage's result ({@code stages.size() + 1} lists)
     * @param indexDimensions 0 for an input read from buffers, 1 for a 1-D index space
     */
    public KernelSource fusedMap(List<KernelGraph> stages, List<List<JavaKind>> components, int indexDimensions) {
        if (stages.size() < 2 || components.size() != stages.size() + 1 || indexDimensions > 1) {
            throw new IllegalArgumentException("a fused map has two or more stages, one component list more than stages and at most a 1-D index space: "
                            + stages.size() + " stages, " + components.size() + " component lists, " + indexDimensions + " dimensions");
        }
        MapKernelSpec spec = new MapKernelSpec(components.get(0), components.get(components.size() - 1), indexDimensions);
        List<EmittedFunction> functions = new ArrayList<>();
        List<JavaKind> allKinds = new ArrayList<>();
        for (int k = 0; k < stages.size(); k++) {
            KernelGraph stage = stages.get(k);
            for (int c = 0; c < stage.captures().size(); c++) {
                if (FunctionEmitter.isWritten(stage, c)) {
                    throw new jpai.compiler.KernelBailoutException("stage " + (k + 1) + " (" + stage.lambda().displayName()
                                    + ") writes a captured array, which a later stage could read before Java's order has written it", null);
                }
            }
            // the stage number in the name: one lambda may be two stages of a pipeline
            EmittedFunction function = new FunctionEmitter(stage, "jpai_s" + k + "_" + stage.lambda().identifier(), null, options.helperFormulation()).emit();
            requireComponents("stage " + (k + 1) + "'s arguments", function.parameters(ParameterKind.ARGUMENT), components.get(k));
            requireComponents("stage " + (k + 1) + "'s result", function.parameters(ParameterKind.RESULT), components.get(k + 1));
            functions.add(function);
            allKinds.addAll(components.get(k + 1));
        }

        KernelSignatureBuilder kernelParameters = new KernelSignatureBuilder();
        for (int i = 0; i < spec.inputComponents().size() && !spec.inputIsIndex(); i++) {
            kernelParameters.buffer("in" + i, Role.INPUT_BUFFER, spec.inputComponents().get(i), i, true);
        }
        for (int i = 0; i < spec.outputComponents().size(); i++) {
            kernelParameters.buffer("out" + i, Role.OUTPUT_BUFFER, spec.outputComponents().get(i), i, false);
        }
        List<CapturedValue> captures = new ArrayList<>();
        List<List<String>> captureNames = new ArrayList<>();
        for (KernelGraph stage : stages) {
            captureNames.add(kernelParameters.captures(stage, captures.size()));
            captures.addAll(stage.captures());
        }
        kernelParameters.add("base", Role.BASE_INDEX, JavaKind.Long, 0, "const long base");
        kernelParameters.lengthAndStatus(functions);

        StringBuilder description = new StringBuilder();
        LinkedHashSet<String> plugins = new LinkedHashSet<>();
        for (KernelGraph stage : stages) {
            description.append(description.isEmpty() ? "" : " then ").append(stage.lambda().displayName());
            String of = pluginsOf(stage, null);
            if (of != null) {
                plugins.add(of);
            }
        }
        CodeWriter code = prelude(description.toString(), plugins.isEmpty() ? null : String.join("; ", plugins), functions, spec.inputComponents(), allKinds);
        code.open("__kernel void jpai_map(" + kernelParameters.declarations() + ")");
        code.line("const long i = base + (long) get_global_id(0); /* no global offset: its width past 2^31 is the driver's choice */");
        code.open("if (i < n)");
        List<String> arguments = new ArrayList<>();
        if (spec.inputIsIndex()) {
            arguments.add("(int) i"); // an index range holds at most INT_MAX elements
        } else {
            for (int c = 0; c < spec.inputComponents().size(); c++) {
                arguments.add("(" + OpenCLTypes.valueType(spec.inputComponents().get(c)) + ") in" + c + "[i]");
            }
        }
        code.line("int reason = 0;");
        List<String> lastResults = List.of();
        for (int k = 0; k < stages.size(); k++) {
            List<JavaKind> kinds = components.get(k + 1);
            List<String> results = declareComponents(code, "s" + k + "_", kinds);
            code.line("reason = " + call(functions.get(k), captureNames.get(k), arguments, addressesOf(results)) + ";");
            code.open("if (reason != 0)");
            code.line("jpai_report_lowest(jpai_status, reason, i);");
            code.line("return;");
            code.close();
            // the next stage reads the value as it would read it from an array of its type: stored, then loaded
            lastResults = results;
            arguments = new ArrayList<>();
            for (int c = 0; c < kinds.size(); c++) {
                String valueType = OpenCLTypes.valueType(kinds.get(c));
                boolean sameType = valueType.equals(OpenCLTypes.storageType(kinds.get(c)));
                arguments.add(sameType ? results.get(c) : "(" + valueType + ") " + store(kinds.get(c), results.get(c)));
            }
        }
        for (int i = 0; i < spec.outputComponents().size(); i++) {
            code.line("out" + i + "[i] = " + store(spec.outputComponents().get(i), lastResults.get(i)) + ";");
        }
        code.close();
        code.close();
        return new KernelSource("jpai_map", code.toString(), buildOptions(), kernelParameters.parameters, captures, List.of(), List.of());
    }

    /**
     * A map whose function reads through {@code __local} tiles (docs/backend.md, "Tiling"): the
     * kernel requires its work-group ({@code reqd_work_group_size}), declares the tiles, and calls
     * the function in every work-item, also past the end of the elements (those with
     * {@code jpai_active} false, an index that is only used to locate their row of a tile, and no
     * element read), so that every work-item of a group meets every barrier; only active ones
     * report and store.
     */
    private static void tiledMap(CodeWriter code, EmittedFunction function, TileShape shape, List<String> captureNames, String declarations, MapKernelSpec spec) {
        long[] local = shape.localSize();
        code.open("__kernel __attribute__((reqd_work_group_size(" + local[0] + ", " + shape.localSize(1) + ", " + shape.localSize(2) + "))) void jpai_map(" + declarations + ")");
        for (String tile : function.localDeclarations()) {
            code.line(tile);
        }
        List<String> arguments = new ArrayList<>();
        int dimensions = spec.indexDimensions();
        if (dimensions > 1) {
            // past the extents an index may exceed INT_MAX: wrapped (it only locates the work-item in its group)
            IndexSpaceHead head = indexSpaceHead(code, dimensions, d -> "as_int((uint) i" + d + ")");
            arguments.addAll(head.arguments());
            code.line("const bool jpai_active = " + head.guard() + ";");
            code.line("const long i = " + head.position() + ";");
        } else {
            code.line("const long i = base + (long) get_global_id(0); /* no global offset: its width past 2^31 is the driver's choice */");
            code.line("const bool jpai_active = i < n;");
            if (spec.inputIsIndex()) {
                arguments.add("as_int((uint) i)"); // past the end: only locates the work-item in its group
            } else {
                for (int c = 0; c < spec.inputComponents().size(); c++) {
                    arguments.add("(jpai_active ? (" + OpenCLTypes.valueType(spec.inputComponents().get(c)) + ") in" + c + "[i] : 0)");
                }
            }
        }
        List<String> results = declareComponents(code, "r", spec.outputComponents());
        code.line("int reason = " + call(function, captureNames, arguments, addressesOf(results)) + ";");
        code.open("if (jpai_active)");
        code.open("if (reason != 0)");
        // the lowest exiting element, as every map kernel reports: Java re-runs the map from there
        code.line("jpai_report_lowest(jpai_status, reason, i);");
        code.line("return;");
        code.close();
        for (int r = 0; r < results.size(); r++) {
            code.line("out" + r + "[i] = " + store(spec.outputComponents().get(r), results.get(r)) + ";");
        }
        code.close();
        code.close();
    }

    /**
     * The head of a map over a 2-D or 3-D index space: each index from its own NDRange dimension
     * (no division or remainder per element), the guard for work-items past the extents (the global
     * sizes are rounded up to whole work-groups), and the element's row-major position {@code i}.
     * NDRange dimension 0 runs along the last (innermost) index, so that consecutive work-items of a
     * work-group write consecutive elements; the outermost index adds the base of the launch's slab.
     * Every index and {@code i} are {@code long}: their products stay below the element count, so
     * nothing overflows, also past 2^31 elements. Opens the guard's block and returns the function's
     * arguments, the indices outermost first (each below {@code INT_MAX}: an extent is an int).
     */
    private static List<String> indexSpaceElement(CodeWriter code, int dimensions) {
        IndexSpaceHead head = indexSpaceHead(code, dimensions, d -> "(int) i" + d);
        code.open("if (" + head.guard() + ")");
        code.line("const long i = " + head.position() + ";");
        return head.arguments();
    }

    /** The indices' declarations written, the function's arguments, the guard for work-items inside the extents, the row-major position. */
    private record IndexSpaceHead(List<String> arguments, String guard, String position) {
    }

    /**
     * Writes {@code const long iD = ...} for each dimension (see {@link #indexSpaceElement});
     * {@code argument} gives the function's argument for index {@code D}.
     */
    private static IndexSpaceHead indexSpaceHead(CodeWriter code, int dimensions, java.util.function.IntFunction<String> argument) {
        List<String> arguments = new ArrayList<>();
        List<String> inside = new ArrayList<>();
        StringBuilder position = new StringBuilder("i0");
        for (int d = 0; d < dimensions; d++) {
            String id = "(long) get_global_id(" + (dimensions - 1 - d) + ")";
            code.line("const long i" + d + " = " + (d == 0 ? "base + " + id + "; /* the slab's first row is the base: no global offset */" : id + ";"));
            arguments.add(argument.apply(d));
            inside.add("i" + d + " < extent" + d);
            if (d > 0) {
                position.insert(0, "(").append(" * extent").append(d).append(" + i").append(d).append(")");
            }
        }
        String row = position.length() > 2 ? position.substring(1, position.length() - 1) : position.toString();
        return new IndexSpaceHead(arguments, String.join(" && ", inside), row);
    }

    /** The body of a map over element {@code i} with these arguments, inside its guard's block. */
    private static void mapElement(CodeWriter code, EmittedFunction function, List<String> captureNames, List<String> arguments, MapKernelSpec spec) {
        List<String> results = declareComponents(code, "r", spec.outputComponents());
        code.line("int reason = " + call(function, captureNames, arguments, addressesOf(results)) + ";");
        code.open("if (reason != 0)");
        code.line("jpai_report_lowest(jpai_status, reason, i);");
        code.line("return;");
        code.close();
        for (int i = 0; i < results.size(); i++) {
            code.line("out" + i + "[i] = " + store(spec.outputComponents().get(i), results.get(i)) + ";");
        }
    }

    /**
     * One pass of a reduction in the canonical combining order (docs/java-semantics.md, "Reductions";
     * the runtime's {@code CombiningTree} is the same order in Java). The elements are cut into
     * <em>leaves</em> of {@code leafWidth} consecutive elements; leaf {@code j} is work-item
     * {@code j}'s (global id), folded left to right from the identity ({@code acc = combiner(acc,
     * mapper(in[i]))}, or {@code combiner(acc, in[i])} without a mapper). The work-group then combines
     * its leaves by the aligned binary tree: at stride {@code s = 1, 2, 4, ...}, the value at local id
     * {@code l} (a multiple of {@code 2s}) becomes {@code combiner(value[l], value[l + s])} when leaf
     * {@code l + s} exists, and stays as it is when not; work-item 0 writes the group's value to
     * {@code partial[firstLeaf / localSize]} (the group's number). With a local size that is a power of two, each group's value
     * is a node of the aligned binary tree over all leaves, whatever the local size: so the next pass
     * (the partials as its elements, leaf width 1, no mapper) continues the same tree, and the last
     * pass's one value is the root. The order of operands never changes, so any associative combiner
     * gives the sequential fold's result, and the bits of a float reduction depend on the length only.
     *
     * <p>The first pass ({@code leafWidth} = {@link ReduceKernelSpec#leafWidth()}) reads its leaves
     * through local memory: folding 16 consecutive elements per work-item straight from global memory
     * makes a warp's loads 64 bytes apart (39% of the H100's copy bandwidth); instead consecutive
     * work-items load (and map) consecutive elements into a tile, padded to one slot more per leaf so
     * that the folds read distinct banks, and then each folds its own leaf from the tile. Where the
     * elements come from changes nothing in the order of the combiner's operands.
     *
     * <p>Kernel {@code jpai_reduce}, arguments: the input component buffers, the captured values (the
     * mapper's, then the combiner's; slots count over both), the identity's components
     * ({@link Role#IDENTITY}), one {@link Role#PARTIAL_BUFFER} per element component (one value per
     * work-group), one {@link Role#LOCAL_SCRATCH} per element component (see the role for its size),
     * {@link Role#LEAF_WIDTH} (the spec's leaf width for the first pass, 1 for the others), {@link Role#LENGTH},
     * {@link Role#STATUS}. Contract with the runtime: the local size is a power of two, the global
     * size covers {@code ceil(n / leafWidth)} work-items (more do nothing). The combiner must be
     * associative and the identity its neutral element, as for Java's {@code Stream.reduce}. A failure
     * in the tree (after the elements) reports the work-item's first element as its index.
     *
     * @param combiner a two-argument function of the element shape to the element shape
     * @param mapper a function from the input shape to the element shape applied to each input
     *            element first, or null
     */
    public KernelSource reduce(KernelGraph combiner, KernelGraph mapper, ReduceKernelSpec spec) {
        return mapper == null ? reduce(combiner, List.of(), List.of(spec.inputComponents()), spec)
                        : reduce(combiner, List.of(mapper), List.of(spec.inputComponents(), spec.elementComponents()), spec);
    }

    /**
     * {@link #reduce(KernelGraph, KernelGraph, ReduceKernelSpec)} with the maps {@code mappers}
     * applied to each input element one after the other first ({@link MapperChain}; none for the
     * elements themselves), {@code mapperComponents} the input's components and each map's result's.
     */
    public KernelSource reduce(KernelGraph combiner, List<KernelGraph> mappers, List<List<JavaKind>> mapperComponents, ReduceKernelSpec spec) {
        List<JavaKind> element = spec.elementComponents();
        EmittedFunction combine = new FunctionEmitter(combiner, "jpai_combine_" + combiner.lambda().identifier(), null, options.helperFormulation()).emit();
        List<JavaKind> twoElements = new ArrayList<>(element);
        twoElements.addAll(element);
        requireComponents("the combiner's arguments", combine.parameters(ParameterKind.ARGUMENT), twoElements);
        requireComponents("the combiner's result", combine.parameters(ParameterKind.RESULT), element);
        MapperChain chain = new MapperChain(mappers, mapperComponents, options.helperFormulation());
        requireComponents("the input elements", parametersOf(chain.inputComponents()), spec.inputComponents());
        requireComponents("the mapped elements", parametersOf(chain.elementComponents()), element);

        KernelSignatureBuilder kernelParameters = new KernelSignatureBuilder();
        for (int i = 0; i < spec.inputComponents().size(); i++) {
            kernelParameters.buffer("in" + i, Role.INPUT_BUFFER, spec.inputComponents().get(i), i, true);
        }
        List<CapturedValue> captures = new ArrayList<>(chain.declareCaptures(kernelParameters, 0));
        List<String> combinerCaptures = kernelParameters.captures(combiner, captures.size());
        captures.addAll(combiner.captures());
        for (int i = 0; i < element.size(); i++) {
            kernelParameters.add("identity" + i, Role.IDENTITY, element.get(i), i, "const " + OpenCLTypes.storageType(element.get(i)) + " identity" + i);
        }
        for (int i = 0; i < element.size(); i++) {
            kernelParameters.add("partial" + i, Role.PARTIAL_BUFFER, element.get(i), i, "__global " + OpenCLTypes.storageType(element.get(i)) + " *restrict partial" + i);
        }
        for (int i = 0; i < element.size(); i++) {
            kernelParameters.add("scratch" + i, Role.LOCAL_SCRATCH, element.get(i), i, "__local " + OpenCLTypes.storageType(element.get(i)) + " *scratch" + i);
        }
        kernelParameters.add("leafWidth", Role.LEAF_WIDTH, JavaKind.Long, 0, "const long leafWidth");
        // A mapper with loops is compute-bound: its group maps one element per work-item (a group then
        // holds fewer leaves, a node of the same tree), for sixteen times the work-items at once.
        boolean spread = chain.hasLoops();
        if (spread) {
            kernelParameters.add("leavesPerGroup", Role.LEAVES_PER_GROUP, JavaKind.Long, 0, "const long leavesPerGroup");
        }
        List<EmittedFunction> functions = new ArrayList<>(chain.functions());
        functions.add(combine);
        kernelParameters.lengthAndStatus(functions);

        String description = chain.descriptionPrefix() + combiner.lambda().displayName();
        CodeWriter code = prelude(description, joinPlugins(chain.plugins(), pluginsOf(combiner, null)), functions, spec.inputComponents(), chain.allKinds());
        code.open("__kernel void jpai_reduce(" + kernelParameters.declarations() + ")");
        code.line("int reason = 0;");
        code.line("long failed = 0;");
        code.line("const size_t lid = get_local_id(0);");
        code.line("const long localSize = (long) get_local_size(0);");
        if (spread) {
            code.line("const long group = ((long) get_global_id(0) - (long) lid) / localSize; /* also in a launch split at global offsets */");
            code.line("const long firstLeaf = group * leavesPerGroup; /* the group's first leaf */");
        } else {
            code.line("const long firstLeaf = (long) get_global_id(0) - (long) lid; /* the group's first leaf, also in a launch split at global offsets */");
        }
        code.line("const long leaves = n / leafWidth + (n % leafWidth != 0);");
        code.line("const long start = (firstLeaf + (long) lid) * leafWidth;");
        code.line("const long end = min(start + leafWidth, n);");
        List<String> accumulator = new ArrayList<>();
        for (int i = 0; i < element.size(); i++) {
            accumulator.add("acc" + i);
            code.line(OpenCLTypes.valueType(element.get(i)) + " acc" + i + " = identity" + i + ";");
        }
        int leaf = spec.leafWidth();
        code.open("if (leafWidth == 1)");
        code.comment("A pass after the first: one element per work-item, whose loads are coalesced already.");
        code.open("for (long i = start; i < end; i++)");
        List<String> single = elementAt(code, chain, "i");
        combineInto(code, combine, combinerCaptures, element, accumulator, single, "i");
        code.close();
        code.between("} else {");
        code.comment("The first pass, leaves of " + leaf + ": the group's elements are loaded (and mapped) by consecutive work-items, so that loads are coalesced, into a");
        code.comment("local tile in which leaf l occupies " + (leaf + 1) + " slots from l * " + (leaf + 1) + " (the padding keeps the leaf folds below free of bank conflicts).");
        code.line("const long groupStart = firstLeaf * " + leaf + ";");
        String perWorkItem = spread ? "perWorkItem" : Integer.toString(leaf);
        if (spread) {
            code.line("const int perWorkItem = (int) (" + leaf + " * leavesPerGroup / localSize); /* elements each work-item maps: 1 unless the group is smaller than a leaf */");
            code.open("if (groupStart + " + leaf + " * leavesPerGroup <= n)");
        } else {
            code.open("if (groupStart + " + leaf + " * localSize <= n)");
        }
        if (spread) {
            // Sixteen unrolled copies of a mapper with loops and exits made PoCL 3.1's work-group
            // compilation run for more than 5 minutes (fuzz seed 20261139, program 4710); such a
            // mapper is compute-bound, so it loads, maps and stores one element at a time.
            code.comment("A whole group, one element per work-item: the mapper has loops, so the loads are not the cost.");
            // A mapper's failure leaves the block around its element, not the loop: with a break out
            // of this loop, PoCL 3.1 kept the failure of the groups' first work-items only, and a map
            // with loops then reduce gave a wrong sum where Java throws (found by a tiered
            // reduction's test, 2026-11-27; ReductionExitTest). The loop's condition then ends it.
            code.line("#pragma unroll 1");
            code.open("for (int k = 0; k < perWorkItem && reason == 0; k++)");
            code.line("const int e = k * (int) localSize + (int) lid;");
            code.open("do");
            storeInTile(code, elementAt(code, chain, "groupStart + e"), element, leaf);
            code.close(" while (0); /* a failure breaks out of this block */");
            code.close();
        } else {
            code.comment("A whole group: every load first, so that all of this work-item's are in flight at once.");
            List<String> loadedInputs = new ArrayList<>();
            for (int c = 0; c < spec.inputComponents().size(); c++) {
                code.line(OpenCLTypes.storageType(spec.inputComponents().get(c)) + " x" + c + "[" + leaf + "];");
                loadedInputs.add("x" + c + "[k]");
            }
            code.line("#pragma unroll");
            code.open("for (int k = 0; k < " + leaf + "; k++)");
            for (int c = 0; c < spec.inputComponents().size(); c++) {
                code.line("x" + c + "[k] = in" + c + "[groupStart + k * localSize + (long) lid];");
            }
            code.close();
            code.line("#pragma unroll");
            code.open("for (int k = 0; k < " + leaf + "; k++)");
            code.line("const int e = k * (int) localSize + (int) lid;");
            storeInTile(code, elementAt(code, chain, loadedInputs, "groupStart + e"), element, leaf);
            code.close();
        }
        code.between("} else {");
        code.comment("The group at the end: only the elements that exist.");
        code.open("for (int k = 0; k < " + perWorkItem + "; k++)");
        code.line("const int e = k * (int) localSize + (int) lid;");
        code.line("const long i = groupStart + e;");
        code.open("if (i >= n)");
        code.line("break;");
        code.close();
        storeInTile(code, elementAt(code, chain, "i"), element, leaf);
        code.close();
        code.close();
        code.close();
        // Every barrier at the kernel's top level, none in a branch (even a uniform one): PoCL's
        // work-item loops abort the JVM on barriers in the branches of an if ("Cannot add context
        // restore for a PHI node at the region entry", PoCL 3.1, fuzz seed 20261136).
        code.line("barrier(CLK_LOCAL_MEM_FENCE);");
        code.comment("This work-item's leaf, left to right from the identity (the first pass).");
        code.open(spread ? "if (leafWidth != 1 && reason == 0 && (long) lid < leavesPerGroup)" : "if (leafWidth != 1 && reason == 0)");
        code.line("const int row = (int) lid * " + (leaf + 1) + ";");
        code.line("const int count = (int) max(end - start, 0L);");
        // Not unrolled: NVIDIA's PTX assembler (CUDA 13.0, driver 580) fuses two unrolled steps
        // max(max(acc, -a), -b) into one three-way max and drops a negation (fuzz seed 20261131
        // program 1391, docs/fuzzing.md); one step per iteration keeps it a two-way max.
        code.line("#pragma unroll 1");
        code.open("for (int j = 0; j < count; j++)");
        List<String> fromTile = new ArrayList<>();
        for (int c = 0; c < element.size(); c++) {
            fromTile.add("(" + OpenCLTypes.valueType(element.get(c)) + ") scratch" + c + "[row + j]");
        }
        combineInto(code, combine, combinerCaptures, element, accumulator, fromTile, "start + j");
        code.close();
        code.close();
        code.line("barrier(CLK_LOCAL_MEM_FENCE); /* the tree below reuses the tile's first slots */");
        code.open("if (reason != 0)");
        code.line("jpai_report(jpai_status, reason, failed);");
        code.close();
        for (int i = 0; i < element.size(); i++) {
            code.line("scratch" + i + "[lid] = " + store(element.get(i), accumulator.get(i)) + ";");
        }
        String groupLeaves = spread ? "leavesPerGroup" : "localSize";
        code.line("const long present = min(" + groupLeaves + ", leaves - firstLeaf); /* the group's leaves that exist */");
        code.line("barrier(CLK_LOCAL_MEM_FENCE);");
        code.comment("The aligned binary tree over the group's leaves, operands in order; every work-item reaches every barrier, also after a failure.");
        code.open("for (long stride = 1; stride < " + groupLeaves + "; stride <<= 1)");
        code.open("if (((long) lid & (2 * stride - 1)) == 0 && (long) lid + stride < present)");
        List<String> pair = new ArrayList<>();
        for (int i = 0; i < element.size(); i++) {
            pair.add("(" + OpenCLTypes.valueType(element.get(i)) + ") scratch" + i + "[lid]");
        }
        for (int i = 0; i < element.size(); i++) {
            pair.add("(" + OpenCLTypes.valueType(element.get(i)) + ") scratch" + i + "[lid + stride]");
        }
        List<String> tree = declareComponents(code, "u", element);
        code.line("int treeReason = " + call(combine, combinerCaptures, pair, addressesOf(tree)) + ";");
        code.open("if (treeReason != 0)");
        code.line("jpai_report(jpai_status, treeReason, start);");
        code.line("} else {");
        for (int i = 0; i < element.size(); i++) {
            code.line("    scratch" + i + "[lid] = " + store(element.get(i), tree.get(i)) + ";");
        }
        code.close();
        code.close();
        code.line("barrier(CLK_LOCAL_MEM_FENCE);");
        code.close();
        code.open("if (lid == 0)");
        for (int i = 0; i < element.size(); i++) {
            code.line("partial" + i + "[" + (spread ? "group" : "firstLeaf / localSize") + "] = scratch" + i + "[0];");
        }
        code.close();
        code.close();
        return new KernelSource("jpai_reduce", code.toString(), buildOptions(), kernelParameters.parameters, captures);
    }

    /**
     * One level of a scan's down-sweep, in JPAI's scan order (docs/java-semantics.md, "Scans"; the
     * runtime's {@code JavaScan} is the same order in Java). As in {@link #reduce}, leaf {@code j}
     * (global id) holds {@code leafWidth} consecutive elements and a work-group's leaves are
     * combined by the aligned binary tree, kept here in local memory with each node at its last
     * leaf's slot (an up-sweep). The carry into the group ({@code carry[group]}, computed by the
     * level above, or the identity at the top) then goes down the tree: a left child's carry is its
     * parent's, a right child's is {@code combiner(parent's carry, left child's value)}, so the carry
     * into leaf {@code j} is the fold, from the group's carry, of the nodes that cover the group's
     * leaves before {@code j}, largest first. Each work-item then folds its leaf from its carry and
     * writes every prefix: after its element ({@code exclusive} 0), or before it ({@code exclusive}
     * 1: the levels above the first, whose outputs are the carries into the groups of the level
     * below). A node is combined only when every leaf under it exists, a carry only for a leaf that
     * exists, so padding never reaches the combiner.
     *
     * <p>The group's elements come in through a tile in local memory (leaf {@code l} at
     * {@code l * (leafWidth + 1)}, padded as in {@link #reduce}) and go out through it, so that
     * consecutive work-items load and store consecutive elements; the tree's {@code localSize}
     * slots follow the tile.
     *
     * <p>Kernel {@code jpai_scan}, arguments: the element component buffers ({@link Role#INPUT_BUFFER}),
     * the combiner's captured values, the identity's components ({@link Role#IDENTITY}), one
     * {@link Role#CARRY_BUFFER} and one {@link Role#OUTPUT_BUFFER} per component, one
     * {@link Role#LOCAL_SCRATCH} per component of {@code localSize * (leafWidth + 2)} slots,
     * {@link Role#LEAF_WIDTH}, {@link Role#SCAN_EXCLUSIVE}, {@link Role#LENGTH}, {@link Role#STATUS}.
     * Contract with the runtime: the local size is a power of two, the global size covers
     * {@code ceil(n / leafWidth)} work-items, launched in one enqueue without offset. A failure reports
     * the element being folded, or the work-item's first element for one in the tree.
     */
    public KernelSource scan(KernelGraph combiner, ScanKernelSpec spec) {
        return scan(combiner, List.of(), List.of(spec.elementComponents()), spec);
    }

    /**
     * {@link #scan(KernelGraph, ScanKernelSpec)} of the elements that the maps {@code mappers} make of
     * each input element, one after the other ({@link MapperChain}, applied as the group's elements
     * come into the tile: no mapped array), {@code mapperComponents} the input's components and each
     * map's result's. The input buffers are then of the input's components; the captured values are
     * the combiner's, then the maps' in order. A map's exit reports its element, as the operator's.
     */
    public KernelSource scan(KernelGraph combiner, List<KernelGraph> mappers, List<List<JavaKind>> mapperComponents, ScanKernelSpec spec) {
        List<JavaKind> element = spec.elementComponents();
        EmittedFunction combine = new FunctionEmitter(combiner, "jpai_combine_" + combiner.lambda().identifier()).emit();
        List<JavaKind> twoElements = new ArrayList<>(element);
        twoElements.addAll(element);
        requireComponents("the combiner's arguments", combine.parameters(ParameterKind.ARGUMENT), twoElements);
        requireComponents("the combiner's result", combine.parameters(ParameterKind.RESULT), element);
        MapperChain chain = new MapperChain(mappers, mapperComponents, options.helperFormulation());
        requireComponents("the mapped elements", parametersOf(chain.elementComponents()), element);

        KernelSignatureBuilder kernelParameters = new KernelSignatureBuilder();
        for (int i = 0; i < chain.inputComponents().size(); i++) {
            kernelParameters.buffer("in" + i, Role.INPUT_BUFFER, chain.inputComponents().get(i), i, true);
        }
        List<String> captures = kernelParameters.captures(combiner, 0);
        List<CapturedValue> allCaptures = new ArrayList<>(combiner.captures());
        allCaptures.addAll(chain.declareCaptures(kernelParameters, combiner.captures().size()));
        for (int i = 0; i < element.size(); i++) {
            kernelParameters.add("identity" + i, Role.IDENTITY, element.get(i), i, "const " + OpenCLTypes.storageType(element.get(i)) + " identity" + i);
        }
        boolean single = spec.singlePass();
        for (int i = 0; i < element.size() && !single; i++) {
            kernelParameters.buffer("carry" + i, Role.CARRY_BUFFER, element.get(i), i, true);
        }
        for (int i = 0; i < element.size(); i++) {
            kernelParameters.buffer("out" + i, Role.OUTPUT_BUFFER, element.get(i), i, false);
        }
        for (int i = 0; i < element.size(); i++) {
            kernelParameters.add("scratch" + i, Role.LOCAL_SCRATCH, element.get(i), i, "__local " + OpenCLTypes.storageType(element.get(i)) + " *scratch" + i);
        }
        if (single) {
            kernelParameters.add("nodeWords", Role.NODE_WORDS, JavaKind.Int, 0, "__global int *nodeWords");
            kernelParameters.add("spinLimit", Role.SPIN_LIMIT, JavaKind.Long, 0, "const long spinLimit");
        } else {
            kernelParameters.add("leafWidth", Role.LEAF_WIDTH, JavaKind.Long, 0, "const long leafWidth");
        }
        kernelParameters.add("exclusive", Role.SCAN_EXCLUSIVE, JavaKind.Int, 0, "const int exclusive");
        List<EmittedFunction> functions = new ArrayList<>(chain.functions());
        functions.add(combine);
        if (single) {
            kernelParameters.lengthAndStatus(); // its waits may give up, whatever its functions do
        } else {
            kernelParameters.lengthAndStatus(functions);
        }

        CodeWriter code = prelude(chain.descriptionPrefix() + combiner.lambda().displayName(), joinPlugins(chain.plugins(), pluginsOf(combiner, null)), functions,
                        chain.inputComponents(), chain.allKinds());
        if (single) {
            code.line("#pragma OPENCL EXTENSION " + ScanKernelSpec.SINGLE_PASS_EXTENSION + " : enable");
            code.line("#define LOOK_BACK_LEVELS 63");
        }
        code.open("__kernel void jpai_scan(" + kernelParameters.declarations() + ")");
        code.line("int reason = 0;");
        code.line("long failed = 0;");
        code.line("const size_t lid = get_local_id(0);");
        code.line("const long localSize = (long) get_local_size(0);");
        if (single) {
            code.line("const long leafWidth = " + spec.leafWidth() + ";");
            code.comment("The groups take their numbers in the order they start: a group waits only for groups that started before it (the forward-progress assumption).");
            code.line("__local long groupNumber[1];");
            code.line("int stalled = 0; /* a wait of this work-item's gave up */");
            for (int i = 0; i < element.size(); i++) {
                code.line("__local " + OpenCLTypes.storageType(element.get(i)) + " lookBack" + i + "[LOOK_BACK_LEVELS]; /* the nodes covering the groups before this one, by level */");
            }
            code.open("if (lid == 0)");
            code.line("groupNumber[0] = (long) (uint) atomic_inc(nodeWords);");
            code.close();
            code.line("barrier(CLK_LOCAL_MEM_FENCE);");
            code.line("const long group = groupNumber[0];");
            code.line("const long firstLeaf = group * localSize;");
        } else {
            code.line("const long firstLeaf = (long) get_global_id(0) - (long) lid;");
            code.line("const long group = firstLeaf / localSize;");
        }
        code.line("const long leaves = n / leafWidth + (n % leafWidth != 0);");
        code.line("const long start = (firstLeaf + (long) lid) * leafWidth;");
        code.line("const long end = min(start + leafWidth, n);");
        code.line("const int width = (int) leafWidth;");
        code.line("const int widthShift = 31 - clz(width); /* leafWidth is a power of two: no division per element */");
        code.line("const int row = (int) lid * (width + 1);");
        code.line("const int count = (int) max(end - start, 0L);");
        code.line("const long groupStart = firstLeaf * leafWidth;");
        code.line("const int tree = (int) localSize * (width + 1); /* the tree's slots follow the tile */");
        code.line("const long present = min(localSize, leaves - firstLeaf); /* the group's leaves that exist */");
        code.comment(chain.isEmpty() ? "The group's elements into the tile, consecutive work-items loading consecutive elements."
                        : "The group's elements, mapped, into the tile, consecutive work-items loading consecutive elements.");
        code.open("for (int k = 0; k < width; k++)");
        code.line("const int e = k * (int) localSize + (int) lid;");
        code.line("const long i = groupStart + e;");
        code.open("if (i < n)");
        if (chain.isEmpty()) {
            for (int c = 0; c < element.size(); c++) {
                code.line("scratch" + c + "[(e >> widthShift) * (width + 1) + (e & (width - 1))] = in" + c + "[i];");
            }
        } else {
            List<String> mapped = elementAt(code, chain, "i"); // an exit leaves the loop: the scan's result is then discarded
            for (int c = 0; c < element.size(); c++) {
                code.line("scratch" + c + "[(e >> widthShift) * (width + 1) + (e & (width - 1))] = " + store(element.get(c), mapped.get(c)) + ";");
            }
        }
        code.close();
        code.close();
        // Every barrier at the kernel's top level (see reduce: PoCL 3.1 and barriers in branches).
        code.line("barrier(CLK_LOCAL_MEM_FENCE);");
        code.comment("This work-item's leaf, left to right from the identity: a leaf of the tree.");
        List<String> accumulator = new ArrayList<>();
        for (int i = 0; i < element.size(); i++) {
            accumulator.add("acc" + i);
            code.line(OpenCLTypes.valueType(element.get(i)) + " acc" + i + " = identity" + i + ";");
        }
        List<String> fromTile = new ArrayList<>();
        for (int c = 0; c < element.size(); c++) {
            fromTile.add("(" + OpenCLTypes.valueType(element.get(c)) + ") scratch" + c + "[row + j]");
        }
        code.line("#pragma unroll 1");
        code.open("for (int j = 0; j < count && reason == 0; j++) /* not after a map's exit, whose reason must stay */");
        combineInto(code, combine, captures, element, accumulator, fromTile, "start + j");
        code.close();
        for (int i = 0; i < element.size(); i++) {
            code.line("scratch" + i + "[tree + lid] = " + store(element.get(i), accumulator.get(i)) + ";");
        }
        code.line("barrier(CLK_LOCAL_MEM_FENCE);");
        code.comment("Up-sweep: each node of the aligned tree at its last leaf's slot, combined only when all its leaves exist.");
        code.open("for (long stride = 1; stride < localSize; stride <<= 1)");
        code.open("if ((((long) lid + 1) & (2 * stride - 1)) == 0 && (long) lid < present)");
        treeStep(code, combine, captures, element, "tree + lid - stride", "tree + lid", "tree + lid");
        code.close();
        code.line("barrier(CLK_LOCAL_MEM_FENCE);");
        code.close();
        if (single) {
            singlePassCarry(code, combine, captures, element);
            code.open("if (stalled)");
            code.line("jpai_report(jpai_status, " + DeoptReason.NO_FORWARD_PROGRESS.code() + ", start); /* outside the spins: no atomic on the status in their loops */");
            code.close();
        } else {
            code.open("if ((long) lid == localSize - 1)");
            for (int i = 0; i < element.size(); i++) {
                code.line("scratch" + i + "[tree + lid] = carry" + i + "[group];");
            }
            code.close();
        }
        code.line("barrier(CLK_LOCAL_MEM_FENCE);");
        code.comment("Down-sweep: a left child's carry is its parent's, a right child's the parent's combined with the left child's value.");
        code.open("for (long stride = localSize >> 1; stride >= 1; stride >>= 1)");
        code.open("if ((((long) lid + 1) & (2 * stride - 1)) == 0)");
        List<String> left = new ArrayList<>();
        List<String> parent = new ArrayList<>();
        for (int i = 0; i < element.size(); i++) {
            String type = OpenCLTypes.valueType(element.get(i));
            code.line("const " + type + " left" + i + " = (" + type + ") scratch" + i + "[tree + lid - stride];");
            code.line("const " + type + " parent" + i + " = (" + type + ") scratch" + i + "[tree + lid];");
            code.line("scratch" + i + "[tree + lid - stride] = " + store(element.get(i), "parent" + i) + ";");
            left.add("left" + i);
            parent.add("parent" + i);
        }
        code.open("if ((long) lid - stride + 1 < present)");
        List<String> pair = new ArrayList<>(parent);
        pair.addAll(left);
        List<String> carried = declareComponents(code, "v", element);
        code.line("int treeReason = " + call(combine, captures, pair, addressesOf(carried)) + ";");
        code.open("if (treeReason != 0)");
        code.line("jpai_report(jpai_status, treeReason, start);");
        code.line("} else {");
        for (int i = 0; i < element.size(); i++) {
            code.line("    scratch" + i + "[tree + lid] = " + store(element.get(i), carried.get(i)) + ";");
        }
        code.close();
        code.close();
        code.close();
        code.line("barrier(CLK_LOCAL_MEM_FENCE);");
        code.close();
        code.comment("This leaf's outputs: the fold from its carry, written over its elements in the tile.");
        for (int i = 0; i < element.size(); i++) {
            code.line("acc" + i + " = (" + OpenCLTypes.valueType(element.get(i)) + ") scratch" + i + "[tree + lid];");
        }
        code.open("if (reason == 0)");
        code.line("#pragma unroll 1");
        code.open("for (int j = 0; j < count; j++)");
        List<String> x = new ArrayList<>();
        for (int i = 0; i < element.size(); i++) {
            String type = OpenCLTypes.valueType(element.get(i));
            code.line("const " + type + " x" + i + " = (" + type + ") scratch" + i + "[row + j];");
            x.add("x" + i);
        }
        code.open("if (exclusive)");
        for (int i = 0; i < element.size(); i++) {
            code.line("scratch" + i + "[row + j] = " + store(element.get(i), accumulator.get(i)) + ";");
        }
        code.close();
        combineInto(code, combine, captures, element, accumulator, x, "start + j");
        code.open("if (!exclusive)");
        for (int i = 0; i < element.size(); i++) {
            code.line("scratch" + i + "[row + j] = " + store(element.get(i), accumulator.get(i)) + ";");
        }
        code.close();
        code.close();
        code.close();
        code.open("if (reason != 0)");
        code.line("jpai_report(jpai_status, reason, failed);");
        code.close();
        code.line("barrier(CLK_LOCAL_MEM_FENCE);");
        code.comment("The group's outputs from the tile, consecutive work-items storing consecutive elements.");
        code.open("for (int k = 0; k < width; k++)");
        code.line("const int e = k * (int) localSize + (int) lid;");
        code.line("const long i = groupStart + e;");
        code.open("if (i < n)");
        for (int c = 0; c < element.size(); c++) {
            code.line("out" + c + "[i] = scratch" + c + "[(e >> widthShift) * (width + 1) + (e & (width - 1))];");
        }
        code.close();
        code.close();
        code.close();
        return new KernelSource("jpai_scan", code.toString(), buildOptions(), kernelParameters.parameters, allCaptures);
    }

    /**
     * The single-pass scan's exchange between work-groups, after the up-sweep. The groups' values
     * are the leaves of the same aligned tree one level up: a complete group's last work-item (which
     * holds the group's root) publishes its value as node {@code (0, group)} and, while it is the
     * last group of a larger aligned block, that block's node (its left sibling's value, published by
     * an earlier group, combined with its own). The carry into the group is the fold from the
     * identity of the nodes covering the groups before it, largest first (one per binary digit of
     * {@code group}). Those nodes are awaited in parallel, work-item {@code l} waiting for level
     * {@code l}'s into {@code lookBack[l]}, so that a group pays one round trip to global memory for
     * its carry rather than one per digit (the serial version left the H100 at 58 % of a copy's
     * bandwidth); after a barrier the last work-item folds them in the fixed order, largest first,
     * into the tree's root slot. Every node waited for is published by a group that started earlier
     * (the counter in {@code nodeWords[0]}), so the scan finishes as long as a group that has started
     * keeps running while later ones spin: true where work-groups are not preempted for later ones
     * (GPUs' resident work-groups, PoCL's threads). A failure of the combiner still publishes (the
     * waiting groups must go on) and is reported: the result is then discarded. Nodes of level
     * {@code l} start at {@code sum(groups >> j, j < l)}.
     *
     * <p>How a node passes between groups without trusting any fence: each 32 bits of its value
     * travel in a 64-bit word of their own, {@code 1 << 32 | bits}, written by one 64-bit atomic
     * exchange and read by 64-bit atomic adds of 0 until the high half is 1 (the words are zeroed
     * before the launch). A word is thus its own flag: a reader that sees the flag sees the bits
     * written with it, whatever order the device makes other writes visible in. The first version
     * wrote the value, then {@code mem_fence(CLK_GLOBAL_MEM_FENCE)}, then a separate flag; on the
     * H200's NVIDIA driver a group then read stale values (the scan of 2^28 floats was wrong from
     * element 131,072): OpenCL 1.2's fences order a work-item's accesses for its own work-group only.
     * Needs {@code cl_khr_int64_base_atomics}; the words start at int 2 of {@code nodeWords}, 8-byte aligned.
     *
     * <p>Emitted at the kernel's top level: it holds a barrier.
     */
    private static void singlePassCarry(CodeWriter code, EmittedFunction combine, List<String> captures, List<JavaKind> element) {
        code.line("const long groups = (leaves + localSize - 1) / localSize;");
        code.line("volatile __global ulong *words = (volatile __global ulong *) (nodeWords + 2);");
        int slices = ScanKernelSpec.slicesPerNode(element);
        code.open("if ((long) lid == localSize - 1 && present == localSize)");
        code.comment("A complete group: its value and the nodes it completes, for the groups after it.");
        List<String> node = new ArrayList<>();
        for (int i = 0; i < element.size(); i++) {
            String type = OpenCLTypes.valueType(element.get(i));
            code.line(type + " node" + i + " = (" + type + ") scratch" + i + "[tree + lid];");
            node.add("node" + i);
        }
        code.line("long base = 0;");
        code.line("long levelSize = groups;");
        code.line("long m = group;");
        code.open("for (;;)");
        publishNode(code, element, slices, "base + m", node);
        code.open("if ((m & 1) == 0)");
        code.line("break;");
        code.close();
        code.line("const long left = base + m - 1;");
        List<String> pair = new ArrayList<>(awaitNode(code, element, slices, "left", "sibling"));
        pair.addAll(node);
        List<String> parent = declareComponents(code, "p", element);
        code.line("int nodeReason = " + call(combine, captures, pair, addressesOf(parent)) + ";");
        code.open("if (nodeReason != 0)");
        code.line("jpai_report(jpai_status, nodeReason, start);");
        code.close();
        for (int i = 0; i < element.size(); i++) {
            code.line("node" + i + " = " + parent.get(i) + ";");
        }
        code.line("base += levelSize;");
        code.line("levelSize >>= 1;");
        code.line("m >>= 1;");
        code.close();
        code.close();
        code.comment("The nodes covering the groups before this one, one per binary digit of group, awaited side by side.");
        code.open("for (int level = (int) lid; level < LOOK_BACK_LEVELS; level += (int) localSize)");
        code.open("if (((group >> level) & 1) != 0)");
        code.line("long at = 0;");
        code.open("for (int j = 0; j < level; j++)");
        code.line("at += groups >> j;");
        code.close();
        code.line("at += (group >> level) - 1;");
        List<String> covering = awaitNode(code, element, slices, "at", "covering");
        for (int i = 0; i < element.size(); i++) {
            code.line("lookBack" + i + "[level] = " + store(element.get(i), covering.get(i)) + ";");
        }
        code.close();
        code.close();
        code.line("barrier(CLK_LOCAL_MEM_FENCE);");
        code.open("if ((long) lid == localSize - 1)");
        code.comment("The carry: the fold from the identity of those nodes, largest first.");
        List<String> carry = new ArrayList<>();
        for (int i = 0; i < element.size(); i++) {
            code.line(OpenCLTypes.valueType(element.get(i)) + " carried" + i + " = identity" + i + ";");
            carry.add("carried" + i);
        }
        code.open("for (int level = LOOK_BACK_LEVELS - 1; level >= 0; level--)");
        code.open("if (((group >> level) & 1) != 0)");
        List<String> arguments = new ArrayList<>(carry);
        for (int i = 0; i < element.size(); i++) {
            arguments.add("(" + OpenCLTypes.valueType(element.get(i)) + ") lookBack" + i + "[level]");
        }
        List<String> folded = declareComponents(code, "f", element);
        code.line("int carryReason = " + call(combine, captures, arguments, addressesOf(folded)) + ";");
        code.open("if (carryReason != 0)");
        code.line("jpai_report(jpai_status, carryReason, start);");
        code.close();
        for (int i = 0; i < element.size(); i++) {
            code.line("carried" + i + " = " + folded.get(i) + ";");
        }
        code.close();
        code.close();
        for (int i = 0; i < element.size(); i++) {
            code.line("scratch" + i + "[tree + lid] = " + store(element.get(i), "carried" + i) + ";");
        }
        code.close();
    }

    /** Bits of a component's value as a {@code ulong} (the low 32 bits only for 32-bit types). */
    private static String bitsOf(JavaKind kind, String value) {
        return switch (kind) {
            case Long, Double -> "as_ulong(" + value + ")";
            case Float -> "(ulong) as_uint(" + value + ")";
            default -> "(ulong) as_uint(" + value + ")"; // int, and the narrower kinds widened to int
        };
    }

    /** Writes node {@code index}'s components, each 32-bit slice as a self-flagged word (see singlePassCarry). */
    private static void publishNode(CodeWriter code, List<JavaKind> element, int slices, String index, List<String> values) {
        int slice = 0;
        for (int i = 0; i < element.size(); i++) {
            JavaKind kind = element.get(i);
            String bits = bitsOf(kind, values.get(i));
            for (int half = 0; half < ScanKernelSpec.slicesOf(kind); half++) {
                String part = half == 0 ? "(" + bits + " & 0xFFFFFFFFUL)" : "(" + bits + " >> 32)";
                code.line("atom_xchg(&words[(" + index + ") * " + slices + " + " + slice + "], (1UL << 32) | " + part + ");");
                slice++;
            }
        }
    }

    /**
     * Waits for node {@code index} and declares its components as {@code name0, name1, ...}: each
     * slice's word read until its flag half is set.
     */
    private static List<String> awaitNode(CodeWriter code, List<JavaKind> element, int slices, String index, String name) {
        List<String> components = new ArrayList<>();
        int slice = 0;
        for (int i = 0; i < element.size(); i++) {
            JavaKind kind = element.get(i);
            String type = OpenCLTypes.valueType(kind);
            List<String> parts = new ArrayList<>();
            for (int half = 0; half < ScanKernelSpec.slicesOf(kind); half++) {
                String word = name + "Word" + i + "_" + half;
                code.line("ulong " + word + ";");
                code.comment("Polled until published, at most spinLimit + 1 times: then the device is taken not to run the group waited for (reported after the waits).");
                code.line("long " + word + "Spins = 0;");
                code.line("do { " + word + " = atom_add(&words[(" + index + ") * " + slices + " + " + slice + "], 0UL); } while (((" + word + " >> 32) == 0 || spinLimit < 0) && "
                                + word + "Spins++ < spinLimit);");
                code.line("stalled |= (" + word + " >> 32) == 0 || spinLimit < 0;");
                parts.add(word);
                slice++;
            }
            String bits = parts.size() == 1 ? "(uint) " + parts.get(0) : "((" + parts.get(0) + " & 0xFFFFFFFFUL) | (" + parts.get(1) + " << 32))";
            String value = switch (kind) {
                case Long -> "as_long(" + bits + ")";
                case Double -> "as_double(" + bits + ")";
                case Float -> "as_float(" + bits + ")";
                default -> "as_int(" + bits + ")";
            };
            code.line("const " + type + " " + name + i + " = " + value + ";");
            components.add(name + i);
        }
        return components;
    }

    /** {@code slot[to] = combiner(slot[leftSlot], slot[rightSlot])} in the scratch, reporting a failure at the work-item's first element. */
    private static void treeStep(CodeWriter code, EmittedFunction combine, List<String> captures, List<JavaKind> element, String leftSlot, String rightSlot, String to) {
        List<String> pair = new ArrayList<>();
        for (int i = 0; i < element.size(); i++) {
            pair.add("(" + OpenCLTypes.valueType(element.get(i)) + ") scratch" + i + "[" + leftSlot + "]");
        }
        for (int i = 0; i < element.size(); i++) {
            pair.add("(" + OpenCLTypes.valueType(element.get(i)) + ") scratch" + i + "[" + rightSlot + "]");
        }
        List<String> tree = declareComponents(code, "u", element);
        code.line("int treeReason = " + call(combine, captures, pair, addressesOf(tree)) + ";");
        code.open("if (treeReason != 0)");
        code.line("jpai_report(jpai_status, treeReason, start);");
        code.line("} else {");
        for (int i = 0; i < element.size(); i++) {
            code.line("    scratch" + i + "[" + to + "] = " + store(element.get(i), tree.get(i)) + ";");
        }
        code.close();
    }

    /**
     * Declares the reduced element at input index {@code index}: the mapper's result for that input
     * element, or the input's components themselves; breaks out of the enclosing loop when the mapper
     * fails.
     */
    private static List<String> elementAt(CodeWriter code, MapperChain chain, String index) {
        List<String> stored = new ArrayList<>();
        for (int i = 0; i < chain.inputComponents().size(); i++) {
            stored.add("in" + i + "[" + index + "]");
        }
        return elementAt(code, chain, stored, index);
    }

    /** As above, of the input element whose components (as stored) are {@code stored}. */
    private static List<String> elementAt(CodeWriter code, MapperChain chain, List<String> stored, String index) {
        List<String> inputs = new ArrayList<>();
        for (int i = 0; i < chain.inputComponents().size(); i++) {
            inputs.add("(" + OpenCLTypes.valueType(chain.inputComponents().get(i)) + ") " + stored.get(i));
        }
        return chain.emit(code, inputs, index);
    }

    /** Two programs' phase plugins as one header line, or null for none. */
    static String joinPlugins(String first, String second) {
        return first == null ? second : second == null || second.equals(first) ? first : first + "; " + second;
    }

    /** Stores element {@code e} of the group in the first pass's padded tile. */
    private static void storeInTile(CodeWriter code, List<String> values, List<JavaKind> element, int leaf) {
        int leafShift = Integer.numberOfTrailingZeros(leaf);
        for (int c = 0; c < element.size(); c++) {
            code.line("scratch" + c + "[(e >> " + leafShift + ") * " + (leaf + 1) + " + (e & " + (leaf - 1) + ")] = " + store(element.get(c), values.get(c)) + ";");
        }
    }

    /** {@code accumulator = combiner(accumulator, values)}; breaks out of the enclosing loop on a failure. */
    private static void combineInto(CodeWriter code, EmittedFunction combine, List<String> combinerCaptures, List<JavaKind> element, List<String> accumulator, List<String> values,
                    String index) {
        List<String> combined = declareComponents(code, "t", element);
        List<String> arguments = new ArrayList<>(accumulator);
        arguments.addAll(values);
        code.line("reason = " + call(combine, combinerCaptures, arguments, addressesOf(combined)) + ";");
        breakOnFailure(code, index);
        for (int i = 0; i < element.size(); i++) {
            code.line(accumulator.get(i) + " = " + combined.get(i) + ";");
        }
    }

    private static void breakOnFailure(CodeWriter code, String index) {
        code.open("if (reason != 0)");
        code.line("failed = " + index + ";");
        code.line("break;");
        code.close();
    }

    /** How the functions of this generator's kernels write float division and sqrt (null: OpenCL's own). */
    ExactFloatDivSqrt helperFormulation() {
        return options.helperFormulation();
    }

    /**
     * The build options: relaxed math, or the correctly rounded built-in float division and sqrt, or
     * none where helpers compute them exactly ({@link GeneratorOptions#helperFormulation()}): the
     * option would only slow down {@code /} and {@code sqrt} the program no longer uses on floats.
     */
    String buildOptions() {
        if (options.fastMath()) {
            return FAST_MATH_BUILD_OPTIONS;
        }
        return options.helperFormulation() == null ? JAVA_SEMANTICS_BUILD_OPTIONS : "";
    }

    /**
     * The phase plugins that ran on the graphs of a program, for its header, or null for none: the
     * header makes the text of a kernel compiled with plugins differ from the same kernel without
     * them, so that the program caches, which key on the text, never serve one for the other.
     */
    static String pluginsOf(KernelGraph first, KernelGraph second) {
        LinkedHashSet<String> descriptions = new LinkedHashSet<>();
        for (KernelGraph graph : new KernelGraph[] {first, second}) {
            if (graph != null && !graph.plugins().isEmpty()) {
                descriptions.add(graph.plugins().description());
            }
        }
        return descriptions.isEmpty() ? null : String.join("; ", descriptions);
    }

    /** The program's head: pragmas, helpers, the report function and the element functions. */
    CodeWriter prelude(String description, String plugins, List<EmittedFunction> functions, List<JavaKind> inputs, List<JavaKind> outputs) {
        boolean doubles = inputs.contains(JavaKind.Double) || outputs.contains(JavaKind.Double);
        Set<Helper> helpers = EnumSet.noneOf(Helper.class);
        for (EmittedFunction function : functions) {
            doubles |= function.usesDoubles();
            helpers.addAll(function.helpers());
        }
        CodeWriter code = new CodeWriter();
        code.line("// Generated by JPAI from " + description);
        if (plugins != null) {
            code.line("// With the phase plugins " + plugins);
        }
        if (!options.fastMath()) {
            code.line("#pragma OPENCL FP_CONTRACT OFF");
        }
        if (doubles) {
            code.line("#pragma OPENCL EXTENSION cl_khr_fp64 : enable");
        }
        code.blank();
        for (Helper helper : helpers) {
            code.line(helper.text());
            code.blank();
        }
        code.line(REPORT_FUNCTION);
        code.blank();
        for (EmittedFunction function : functions) {
            code.line(function.text().stripTrailing());
            code.blank();
        }
        return code;
    }

    /** Declares one variable per component ({@code r0, r1, ...}) and returns their names. */
    static List<String> declareComponents(CodeWriter code, String prefix, List<JavaKind> kinds) {
        List<String> names = new ArrayList<>();
        for (int i = 0; i < kinds.size(); i++) {
            names.add(prefix + i);
            code.line(OpenCLTypes.valueType(kinds.get(i)) + " " + prefix + i + ";");
        }
        return names;
    }

    static List<String> addressesOf(List<String> variables) {
        return variables.stream().map(v -> "&" + v).toList();
    }

    /** The call of an element function: captures (by the kernel's names), arguments, result pointers. */
    static String call(EmittedFunction function, List<String> captureNames, List<String> arguments, List<String> results) {
        List<String> values = new ArrayList<>();
        for (FunctionParameter parameter : function.parameters()) {
            switch (parameter.kind()) {
                case CAPTURED_SCALAR, CAPTURED_ARRAY -> values.add(captureNames.get(parameter.slot()));
                case CAPTURED_ARRAY_LENGTH -> values.add(captureNames.get(parameter.slot()) + "_length");
                case CAPTURED_ROW_LENGTH -> values.add(captureNames.get(parameter.slot()) + "_rowLength");
                case ARGUMENT -> values.add(arguments.get(parameter.slot()));
                case RESULT -> values.add(results.get(parameter.slot()));
                case LOCAL_TILE, WORK_ITEM_ACTIVE -> values.add(parameter.name()); // the kernel's own names for them
            }
        }
        return function.name() + "(" + String.join(", ", values) + ")";
    }

    /** A value in a buffer element's storage type; a boolean is stored as 0 or 1. */
    static String store(JavaKind kind, String value) {
        return "(" + OpenCLTypes.storageType(kind) + ") " + value;
    }

    static void requireComponents(String what, List<FunctionParameter> parameters, List<JavaKind> expected) {
        List<JavaKind> actual = parameters.stream().map(FunctionParameter::javaKind).toList();
        if (!actual.equals(expected)) {
            throw new IllegalArgumentException(what + " have the components " + actual + ", the kernel spec says " + expected);
        }
    }

    private static List<FunctionParameter> parametersOf(List<JavaKind> kinds) {
        List<FunctionParameter> parameters = new ArrayList<>();
        for (int i = 0; i < kinds.size(); i++) {
            parameters.add(new FunctionParameter(ParameterKind.ARGUMENT, i, kinds.get(i), OpenCLTypes.valueType(kinds.get(i)), "in" + i));
        }
        return parameters;
    }

    /** The kernel's parameters, in order, with their declarations. */
    static final class KernelSignatureBuilder {
        final List<KernelParameter> parameters = new ArrayList<>();
        final List<String> declarations = new ArrayList<>();

        void add(String name, Role role, JavaKind kind, int slot, String declaration) {
            parameters.add(new KernelParameter(parameters.size(), name, role, kind, slot));
            declarations.add(declaration);
        }

        void buffer(String name, Role role, JavaKind kind, int slot, boolean readOnly) {
            add(name, role, kind, slot, "__global " + (readOnly ? "const " : "") + OpenCLTypes.storageType(kind) + " *restrict " + name);
        }

        /**
         * Declares {@code kernel}'s captured values with slots from {@code firstSlot}; returns their
         * kernel names, by the function's slot (null for one that is not a parameter:
         * {@link FunctionEmitter#isPassed}).
         */
        List<String> captures(KernelGraph kernel, int firstSlot) {
            List<CapturedValue> captures = kernel.captures();
            List<String> names = new ArrayList<>();
            for (int k = 0; k < captures.size(); k++) {
                int slot = firstSlot + k;
                String name = "c" + slot;
                if (!FunctionEmitter.isPassed(kernel, k)) {
                    names.add(null);
                    continue;
                }
                names.add(name);
                boolean written = FunctionEmitter.isWritten(kernel, k);
                switch (captures.get(k).shape()) {
                    case ValueShape.Primitive primitive -> add(name, Role.CAPTURED_SCALAR, primitive.kind(), slot, "const " + OpenCLTypes.storageType(primitive.kind()) + " " + name);
                    case ValueShape.BoxedPrimitive boxed -> {
                        add(name, Role.CAPTURED_SCALAR, boxed.kind(), slot, "const " + OpenCLTypes.storageType(boxed.kind()) + " " + name);
                        // -1 for a null box, which the function's null checks test
                        add(name + "_length", Role.CAPTURED_ARRAY_LENGTH, JavaKind.Int, slot, "const int " + name + "_length");
                    }
                    case ValueShape.PrimitiveArray array when written -> {
                        add(name, Role.WRITTEN_ARRAY, array.elementKind(), slot, "__global " + OpenCLTypes.storageType(array.elementKind()) + " *restrict " + name);
                        add(name + "_length", Role.CAPTURED_ARRAY_LENGTH, JavaKind.Int, slot, "const int " + name + "_length");
                    }
                    case ValueShape.PrimitiveArray array -> array(name, array.elementKind(), slot);
                    case ValueShape.RectangularArray matrix when written -> {
                        // an accelerated method's 2-D array parameter that the kernel writes: its rows in one buffer
                        add(name, Role.WRITTEN_ARRAY, matrix.elementKind(), slot, "__global " + OpenCLTypes.storageType(matrix.elementKind()) + " *restrict " + name);
                        add(name + "_length", Role.CAPTURED_ARRAY_LENGTH, JavaKind.Int, slot, "const int " + name + "_length");
                        add(name + "_rowLength", Role.CAPTURED_ROW_LENGTH, JavaKind.Int, slot, "const int " + name + "_rowLength");
                    }
                    case ValueShape.RectangularArray matrix -> {
                        // the rows one after the other, their number, and their length
                        array(name, matrix.elementKind(), slot);
                        add(name + "_rowLength", Role.CAPTURED_ROW_LENGTH, JavaKind.Int, slot, "const int " + name + "_rowLength");
                    }
                    case ValueShape.ElementReader reader -> array(name, reader.elementKind(), slot);
                    case ValueShape.Tuple tuple -> throw new IllegalArgumentException("a captured tuple: " + tuple);
                }
            }
            return names;
        }

        private void array(String name, JavaKind elementKind, int slot) {
            add(name, Role.CAPTURED_ARRAY, elementKind, slot, "__global const " + OpenCLTypes.storageType(elementKind) + " *restrict " + name);
            add(name + "_length", Role.CAPTURED_ARRAY_LENGTH, JavaKind.Int, slot, "const int " + name + "_length");
        }

        /** The length and status words that the kernel writes (its own code reports, not only its functions). */
        void lengthAndStatus() {
            lengthAndStatus(Role.STATUS);
        }

        /**
         * The length and the status words; {@code functions}: those the kernel calls, whose exits
         * are the only writers of the status: when none can exit, the status is
         * {@link Role#UNWRITTEN_STATUS} and the runtime neither zeroes nor reads it (the read's
         * enqueue and event were about 35 us of a 0.7 ms reduction of 2^28 floats in a wall-clock
         * profile on the H200).
         */
        void lengthAndStatus(List<EmittedFunction> functions) {
            lengthAndStatus(functions.stream().anyMatch(EmittedFunction::mayExit) ? Role.STATUS : Role.UNWRITTEN_STATUS);
        }

        private void lengthAndStatus(Role status) {
            add("n", Role.LENGTH, JavaKind.Long, 0, "const long n");
            add("jpai_status", status, JavaKind.Int, 0, "__global int *jpai_status");
        }

        String declarations() {
            return String.join(", ", declarations);
        }
    }
}
