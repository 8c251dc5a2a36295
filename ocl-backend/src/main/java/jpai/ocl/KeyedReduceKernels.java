package jpai.ocl;

import java.util.ArrayList;
import java.util.List;

import jdk.vm.ci.meta.JavaKind;
import jpai.compiler.CapturedValue;
import jpai.compiler.KernelGraph;
import jpai.compiler.loops.ReductionOperator;
import jpai.ocl.KernelParameter.Role;
import jpai.ocl.OpenCLKernelGenerator.KernelSignatureBuilder;
import jpai.ocl.codegen.CodeWriter;
import jpai.ocl.codegen.FunctionEmitter;
import jpai.ocl.codegen.FunctionEmitter.EmittedFunction;
import jpai.ocl.codegen.FunctionEmitter.ParameterKind;

/**
 * The kernels of a keyed reduction ({@code AF.reduceByKey}): each element's key and value are
 * computed by the user's key and value functions inside the kernel (so neither is ever stored), in
 * Java's order (the key, its range check, then the value), and the values of each key are combined
 * into a result of {@code keyCount} elements. Two strategies:
 *
 * <ul>
 * <li>{@link #atomic}: for an {@code int} value (a {@code long} where the device has 64-bit atomics) and a recognised operator whose result's bits do not
 * depend on the order ({@code +}, {@code min}, {@code max}, {@code &}, {@code |}, {@code ^}): OpenCL's
 * OpenCL's atomics, into per-work-group bins in local memory when they fit there, else straight into
 * the result.</li>
 * <li>{@link #chunks} (or {@link #sharedChunks}, a work-group per chunk) then {@link #combineChunks}: any other value or operator (floats above all), in
 * one fixed order: the elements are cut into chunks of {@code chunkLength} consecutive elements;
 * work-item {@code c} folds chunk {@code c} left to right into its own row of {@code keyCount}
 * partial values, each starting at the identity ({@code p[c][k] = combiner(p[c][k], value)}); then
 * work-item {@code k} folds column {@code k} of the partial values, chunk 0 first, from the
 * identity. The runtime's Java executors compute the same order, so the bits do not depend on where
 * it ran; with an associative combiner and its identity it is the sequential loop's result.</li>
 * </ul>
 *
 * A key outside {@code 0 .. keyCount-1} reports {@link DeoptReason#BOUNDS_CHECK} at its element (some
 * element with a bad key, not necessarily the first: the runtime re-runs the operation in Java,
 * which throws Java's exception at Java's element). Emits text; launches nothing.
 */
public final class KeyedReduceKernels {

    private final OpenCLKernelGenerator generator;

    public KeyedReduceKernels(OpenCLKernelGenerator generator) {
        this.generator = generator;
    }

    /** The extension a device must list for 64-bit {@code atom_add} (global and local memory). */
    public static final String INT64_BASE_ATOMICS = "cl_khr_int64_base_atomics";

    /** The extension a device must list for 64-bit {@code atom_min}, {@code atom_max}, {@code atom_and}, {@code atom_or}, {@code atom_xor}. */
    public static final String INT64_EXTENDED_ATOMICS = "cl_khr_int64_extended_atomics";

    /**
     * Whether {@link #atomic} takes values of {@code kind} with {@code operator}: {@code int}s, and
     * {@code long}s where the device lists the extension {@link #int64Extension} names.
     */
    public static boolean hasAtomic(JavaKind kind, ReductionOperator operator) {
        return (kind == JavaKind.Int || kind == JavaKind.Long) && operator != null && operator != ReductionOperator.PRODUCT;
    }

    /** The extension 64-bit atomics of {@code operator} need. */
    public static String int64Extension(ReductionOperator operator) {
        return operator == ReductionOperator.SUM ? INT64_BASE_ATOMICS : INT64_EXTENDED_ATOMICS;
    }

    /**
     * Kernel {@code jpai_keyed_atomic}: {@code result[key(x)] = operator(result[key(x)], value(x))}
     * with atomics ({@code int}, or {@code long} with the 64-bit atomics extensions, enabled by pragma), in a loop over the elements with the global size as its stride. With
     * {@code localBins}, each work-group first combines into {@code keyCount} bins in local memory
     * (set to the operator's neutral value), then adds each bin that changed to the result with one
     * global atomic. Arguments: one {@link Role#INPUT_BUFFER} per input component, the captured
     * values (the key function's, then the value function's; slots count over both),
     * {@link Role#KEYED_RESULT} (the identity in every element before the launch),
     * {@link Role#LOCAL_SCRATCH} ({@code keyCount} values with {@code localBins}, else unused: give it
     * one value's bytes), {@link Role#KEY_COUNT}, {@link Role#LENGTH}, {@link Role#STATUS}. An exit of a
     * function, or a key out of range, reports and skips the element.
     */
    public KernelSource atomic(KernelGraph key, KernelGraph value, List<JavaKind> input, JavaKind valueKind, ReductionOperator operator, boolean localBins) {
        if (!hasAtomic(valueKind, operator)) {
            throw new IllegalArgumentException("no atomic keyed reduction of " + valueKind + " with " + operator);
        }
        boolean wide = valueKind == JavaKind.Long;
        String atomic = (wide ? "atom_" : "atomic_") + switch (operator) {
            case SUM -> "add";
            case MIN -> "min";
            case MAX -> "max";
            case AND -> "and";
            case OR -> "or";
            case XOR -> "xor";
            case PRODUCT -> throw new AssertionError(operator);
        };
        String neutral = switch (operator) {
            case SUM, OR, XOR -> "0";
            case AND -> "-1";
            case MIN -> wide ? "LONG_MAX" : "INT_MAX";
            case MAX -> wide ? "LONG_MIN" : "INT_MIN";
            case PRODUCT -> throw new AssertionError(operator);
        };
        String type = OpenCLTypes.storageType(valueKind);
        ElementFunctions functions = new ElementFunctions(key, value, null, input, List.of(valueKind));
        KernelSignatureBuilder parameters = new KernelSignatureBuilder();
        functions.declare(parameters);
        parameters.add("result", Role.KEYED_RESULT, valueKind, 0, "__global " + type + " *restrict result");
        parameters.add("bins", Role.LOCAL_SCRATCH, valueKind, 0, "__local " + type + " *bins");
        parameters.add("keyCount", Role.KEY_COUNT, JavaKind.Int, 0, "const int keyCount");
        parameters.lengthAndStatus();
        CodeWriter code = generator.prelude(functions.description() + " (a keyed reduction with " + atomic + (localBins ? " into local bins)" : ")"), functions.plugins(),
                        functions.emitted(), input, List.of(valueKind));
        if (wide) {
            code.line("#pragma OPENCL EXTENSION " + INT64_BASE_ATOMICS + " : enable");
            if (operator != ReductionOperator.SUM) {
                code.line("#pragma OPENCL EXTENSION " + INT64_EXTENDED_ATOMICS + " : enable");
            }
        }
        code.open("__kernel void jpai_keyed_atomic(" + parameters.declarations() + ")");
        code.line("const long stride = (long) get_global_size(0);");
        code.line("int reason = 0;");
        if (localBins) {
            code.line("const int lid = (int) get_local_id(0);");
            code.line("const int localSize = (int) get_local_size(0);");
            code.open("for (int k = lid; k < keyCount; k += localSize)");
            code.line("bins[k] = " + neutral + ";");
            code.close();
            code.line("barrier(CLK_LOCAL_MEM_FENCE);");
        }
        code.open("for (long i = (long) get_global_id(0); i < n; i += stride)");
        List<String> values = functions.keyAndValue(code, "i", "continue;");
        code.line(atomic + "(&" + (localBins ? "bins" : "result") + "[k], " + values.get(0) + ");");
        code.close();
        if (localBins) {
            code.line("barrier(CLK_LOCAL_MEM_FENCE);");
            code.open("for (int k = lid; k < keyCount; k += localSize)");
            code.line("const " + type + " bin = bins[k];");
            code.open("if (bin != " + neutral + ")");
            code.line(atomic + "(&result[k], bin);");
            code.close();
            code.close();
        }
        code.close();
        return new KernelSource("jpai_keyed_atomic", code.toString(), generator.buildOptions(), parameters.parameters, functions.captures());
    }

    /**
     * Kernel {@code jpai_keyed_chunks}, the ordered strategy's first step: work-item {@code c} sets its
     * row {@code partial[c * keyCount ..]} to the identity and folds the elements of chunk {@code c}
     * into it, left to right. Arguments: one {@link Role#INPUT_BUFFER} per input component, the
     * captured values (the key function's, the value function's, then the combiner's),
     * {@link Role#IDENTITY} per value component, {@link Role#PARTIAL_BUFFER} per value component
     * ({@code chunks * keyCount} values), {@link Role#KEY_COUNT}, {@link Role#LEAF_WIDTH} (the chunk
     * length), {@link Role#LENGTH}, {@link Role#STATUS}. The global size covers
     * {@code ceil(n / chunkLength)} work-items (more do nothing).
     */
    public KernelSource chunks(KernelGraph key, KernelGraph value, KernelGraph combiner, List<JavaKind> input, List<JavaKind> valueKinds) {
        ElementFunctions functions = new ElementFunctions(key, value, combiner, input, valueKinds);
        EmittedFunction combine = functions.combine();
        KernelSignatureBuilder parameters = chunkParameters(functions, valueKinds, false);

        CodeWriter code = generator.prelude(functions.description() + " (a keyed reduction's chunks)", functions.plugins(), functions.emitted(), input, valueKinds);
        code.open("__kernel void jpai_keyed_chunks(" + parameters.declarations() + ")");
        code.line("const long start = (long) get_global_id(0) * chunkLength;");
        code.open("if (start >= n)");
        code.line("return;");
        code.close();
        code.line("const long end = min(start + chunkLength, n);");
        code.line("const long row = (long) get_global_id(0) * keyCount;");
        code.open("for (int k = 0; k < keyCount; k++)");
        for (int i = 0; i < valueKinds.size(); i++) {
            code.line("partial" + i + "[row + k] = " + OpenCLKernelGenerator.store(valueKinds.get(i), "identity" + i) + ";");
        }
        code.close();
        code.line("int reason = 0;");
        code.line("long failed = 0;");
        code.open("for (long i = start; i < end; i++)");
        List<String> values = functions.keyAndValue(code, "i", "failed = i;\nbreak;");
        List<String> arguments = new ArrayList<>();
        for (int i = 0; i < valueKinds.size(); i++) {
            arguments.add("(" + OpenCLTypes.valueType(valueKinds.get(i)) + ") partial" + i + "[row + k]");
        }
        arguments.addAll(values);
        combineAndStore(code, combine, functions.combinerCaptures(), valueKinds, arguments, "partial", "row + k", "i");
        code.close();
        code.open("if (reason != 0)");
        code.line("jpai_report(jpai_status, reason, failed);");
        code.close();
        code.close();
        return new KernelSource("jpai_keyed_chunks", code.toString(), generator.buildOptions(), parameters.parameters, functions.captures());
    }

    /** Elements each work-item of {@link #sharedChunks} computes the key and value of per tile. */
    public static final int SHARED_ELEMENTS_PER_WORK_ITEM = 4;

    /**
     * Kernel {@code jpai_keyed_shared_chunks}: the ordered strategy's first step with a work-group per
     * chunk instead of a work-item, for many keys (few chunks fit in the partial values' memory, and
     * one work-item each would leave most of a GPU idle while each walks a long chunk). The keys are
     * shared out among the work-items, key {@code k} to work-item {@code k % localSize}. The chunk
     * goes through in tiles of {@link #SHARED_ELEMENTS_PER_WORK_ITEM} elements per work-item:
     * together the work-items compute the tile's keys and values into local memory, consecutive
     * work-items on consecutive elements; then each work-item walks the whole tile in order and
     * folds the values of its own keys into its row. Each key's values are thus folded left to right,
     * in {@link #chunks}' order: the same bits. Arguments as {@link #chunks}', plus a
     * {@link Role#LOCAL_SCRATCH} of one {@code int} (the keys) and then one per value component (the
     * values), each of {@code localSize * SHARED_ELEMENTS_PER_WORK_ITEM} slots. The local size is a
     * power of two; the global size is the chunks times the local size.
     */
    public KernelSource sharedChunks(KernelGraph key, KernelGraph value, KernelGraph combiner, List<JavaKind> input, List<JavaKind> valueKinds) {
        ElementFunctions functions = new ElementFunctions(key, value, combiner, input, valueKinds);
        EmittedFunction combine = functions.combine();
        KernelSignatureBuilder parameters = chunkParameters(functions, valueKinds, true);

        CodeWriter code = generator.prelude(functions.description() + " (a keyed reduction's chunks, a work-group each)", functions.plugins(), functions.emitted(), input, valueKinds);
        code.open("__kernel void jpai_keyed_shared_chunks(" + parameters.declarations() + ")");
        code.line("const int lid = (int) get_local_id(0);");
        code.line("const int localSize = (int) get_local_size(0);");
        code.line("const long chunk = ((long) get_global_id(0) - lid) / localSize;");
        code.line("const long start = chunk * chunkLength;");
        code.line("const long end = min(start + chunkLength, n);");
        code.line("const long row = chunk * keyCount;");
        code.line("const int tile = localSize * " + SHARED_ELEMENTS_PER_WORK_ITEM + ";");
        code.comment("This work-item's keys start at the identity: no other work-item touches them.");
        code.open("for (int k = lid; k < keyCount; k += localSize)");
        for (int i = 0; i < valueKinds.size(); i++) {
            code.line("partial" + i + "[row + k] = " + OpenCLKernelGenerator.store(valueKinds.get(i), "identity" + i) + ";");
        }
        code.close();
        code.line("int reason = 0;");
        code.comment("The same number of tiles for every work-item of the group: the barriers are reached by all.");
        code.open("for (long tileStart = start; tileStart < end; tileStart += tile)");
        code.open("for (int j = 0; j < " + SHARED_ELEMENTS_PER_WORK_ITEM + "; j++)");
        code.line("const int t = j * localSize + lid;");
        code.line("const long i = tileStart + t;");
        code.line("tileKeys[t] = -1; /* past the chunk, or an element whose key or value left the kernel: skipped */");
        code.open("if (i >= end)");
        code.line("continue;");
        code.close();
        List<String> values = functions.keyAndValue(code, "i", "continue;");
        code.line("tileKeys[t] = k;");
        for (int i = 0; i < valueKinds.size(); i++) {
            code.line("tileValues" + i + "[t] = " + OpenCLKernelGenerator.store(valueKinds.get(i), values.get(i)) + ";");
        }
        code.close();
        code.line("barrier(CLK_LOCAL_MEM_FENCE);");
        code.comment("Four keys per read of local memory (the tile's length is a multiple of four); a work-item's own keys are rare, so the walk is the cost.");
        code.open("for (int quad = 0; quad < tile; quad += 4)");
        code.line("const int4 keys = vload4(0, tileKeys + quad);");
        code.line("#pragma unroll");
        code.open("for (int q = 0; q < 4; q++)");
        code.line("const int k = q == 0 ? keys.x : q == 1 ? keys.y : q == 2 ? keys.z : keys.w;");
        code.line("const int t = quad + q;");
        code.open("if (k < 0 || (k & (localSize - 1)) != lid)");
        code.line("continue;");
        code.close();
        List<String> arguments = new ArrayList<>();
        for (int i = 0; i < valueKinds.size(); i++) {
            arguments.add("(" + OpenCLTypes.valueType(valueKinds.get(i)) + ") partial" + i + "[row + k]");
        }
        for (int i = 0; i < valueKinds.size(); i++) {
            arguments.add("(" + OpenCLTypes.valueType(valueKinds.get(i)) + ") tileValues" + i + "[t]");
        }
        List<String> combined = OpenCLKernelGenerator.declareComponents(code, "t", valueKinds);
        code.line("reason = " + OpenCLKernelGenerator.call(combine, functions.combinerCaptures(), arguments, OpenCLKernelGenerator.addressesOf(combined)) + ";");
        code.open("if (reason != 0)");
        code.line("jpai_report(jpai_status, reason, tileStart + t);");
        code.line("continue;");
        code.close();
        for (int i = 0; i < valueKinds.size(); i++) {
            code.line("partial" + i + "[row + k] = " + OpenCLKernelGenerator.store(valueKinds.get(i), combined.get(i)) + ";");
        }
        code.close();
        code.close();
        code.line("barrier(CLK_LOCAL_MEM_FENCE);");
        code.close();
        code.close();
        return new KernelSource("jpai_keyed_shared_chunks", code.toString(), generator.buildOptions(), parameters.parameters, functions.captures());
    }

    /**
     * Kernel {@code jpai_keyed_combine}, the ordered strategy's second step: work-item {@code k}
     * folds {@code in[c * keyCount + k]} for {@code c = 0, 1, ...} from the identity and writes the
     * result to {@code partial[k]}. Arguments: one {@link Role#INPUT_BUFFER} per component (the
     * first step's partial values), the combiner's captured values, {@link Role#IDENTITY} per
     * component, {@link Role#PARTIAL_BUFFER} per component (the result, {@code keyCount} values),
     * {@link Role#KEY_COUNT}, {@link Role#LENGTH} ({@code chunks * keyCount}), {@link Role#STATUS}.
     * A failure reports the key as its index.
     */
    public KernelSource combineChunks(KernelGraph combiner, List<JavaKind> value) {
        EmittedFunction combine = combinerFunction(combiner, value);
        KernelSignatureBuilder parameters = new KernelSignatureBuilder();
        for (int i = 0; i < value.size(); i++) {
            parameters.buffer("in" + i, Role.INPUT_BUFFER, value.get(i), i, true);
        }
        List<String> captures = parameters.captures(combiner, 0);
        identityAndPartials(parameters, value);
        parameters.add("keyCount", Role.KEY_COUNT, JavaKind.Int, 0, "const int keyCount");
        parameters.lengthAndStatus();

        CodeWriter code = generator.prelude(combiner.lambda().displayName() + " (a keyed reduction's chunks combined)", OpenCLKernelGenerator.pluginsOf(combiner, null),
                        List.of(combine), value, value);
        code.open("__kernel void jpai_keyed_combine(" + parameters.declarations() + ")");
        code.line("const long k = (long) get_global_id(0);");
        code.open("if (k >= keyCount)");
        code.line("return;");
        code.close();
        code.line("const long chunks = n / keyCount;");
        List<String> accumulator = new ArrayList<>();
        for (int i = 0; i < value.size(); i++) {
            accumulator.add("acc" + i);
            code.line(OpenCLTypes.valueType(value.get(i)) + " acc" + i + " = identity" + i + ";");
        }
        code.line("int reason = 0;");
        code.open("for (long c = 0; c < chunks; c++)");
        List<String> arguments = new ArrayList<>(accumulator);
        for (int i = 0; i < value.size(); i++) {
            arguments.add("(" + OpenCLTypes.valueType(value.get(i)) + ") in" + i + "[c * keyCount + k]");
        }
        List<String> combined = OpenCLKernelGenerator.declareComponents(code, "t", value);
        code.line("reason = " + OpenCLKernelGenerator.call(combine, captures, arguments, OpenCLKernelGenerator.addressesOf(combined)) + ";");
        code.open("if (reason != 0)");
        code.line("jpai_report(jpai_status, reason, k);");
        code.line("return;");
        code.close();
        for (int i = 0; i < value.size(); i++) {
            code.line("acc" + i + " = t" + i + ";");
        }
        code.close();
        for (int i = 0; i < value.size(); i++) {
            code.line("partial" + i + "[k] = " + OpenCLKernelGenerator.store(value.get(i), "acc" + i) + ";");
        }
        code.close();
        return new KernelSource("jpai_keyed_combine", code.toString(), generator.buildOptions(), parameters.parameters, combiner.captures());
    }

    EmittedFunction combinerFunction(KernelGraph combiner, List<JavaKind> value) {
        EmittedFunction combine = new FunctionEmitter(combiner, "jpai_combine_" + combiner.lambda().identifier(), null, generator.helperFormulation()).emit();
        List<JavaKind> twoValues = new ArrayList<>(value);
        twoValues.addAll(value);
        OpenCLKernelGenerator.requireComponents("the combiner's arguments", combine.parameters(ParameterKind.ARGUMENT), twoValues);
        OpenCLKernelGenerator.requireComponents("the combiner's result", combine.parameters(ParameterKind.RESULT), value);
        return combine;
    }

    /**
     * The per-chunk kernels' parameters: inputs and captured values, the identity, the partial rows,
     * with {@code tiles} the local tiles of keys and values, the key count, the chunk length, the
     * length and the status.
     */
    private static KernelSignatureBuilder chunkParameters(ElementFunctions functions, List<JavaKind> valueKinds, boolean tiles) {
        KernelSignatureBuilder parameters = new KernelSignatureBuilder();
        functions.declare(parameters);
        identityAndPartials(parameters, valueKinds);
        if (tiles) {
            parameters.add("tileKeys", Role.LOCAL_SCRATCH, JavaKind.Int, 0, "__local int *tileKeys");
            for (int i = 0; i < valueKinds.size(); i++) {
                parameters.add("tileValues" + i, Role.LOCAL_SCRATCH, valueKinds.get(i), i, "__local " + OpenCLTypes.storageType(valueKinds.get(i)) + " *tileValues" + i);
            }
        }
        parameters.add("keyCount", Role.KEY_COUNT, JavaKind.Int, 0, "const int keyCount");
        parameters.add("chunkLength", Role.LEAF_WIDTH, JavaKind.Long, 0, "const long chunkLength");
        parameters.lengthAndStatus();
        return parameters;
    }

    private static void identityAndPartials(KernelSignatureBuilder parameters, List<JavaKind> value) {
        for (int i = 0; i < value.size(); i++) {
            parameters.add("identity" + i, Role.IDENTITY, value.get(i), i, "const " + OpenCLTypes.storageType(value.get(i)) + " identity" + i);
        }
        for (int i = 0; i < value.size(); i++) {
            parameters.add("partial" + i, Role.PARTIAL_BUFFER, value.get(i), i, "__global " + OpenCLTypes.storageType(value.get(i)) + " *restrict partial" + i);
        }
    }

    /** {@code target[index] = combiner(arguments)}; on a failure records {@code element} and breaks out of the loop. */
    private static void combineAndStore(CodeWriter code, EmittedFunction combine, List<String> captures, List<JavaKind> value, List<String> arguments, String target, String index,
                    String element) {
        List<String> combined = OpenCLKernelGenerator.declareComponents(code, "t", value);
        code.line("reason = " + OpenCLKernelGenerator.call(combine, captures, arguments, OpenCLKernelGenerator.addressesOf(combined)) + ";");
        code.open("if (reason != 0)");
        code.line("failed = " + element + ";");
        code.line("break;");
        code.close();
        for (int i = 0; i < value.size(); i++) {
            code.line(target + i + "[" + index + "] = " + OpenCLKernelGenerator.store(value.get(i), combined.get(i)) + ";");
        }
    }

    /**
     * The element functions of a keyed kernel: the key function, the value function and the
     * combiner (or none), emitted once, with their captured values' kernel parameters in that order.
     */
    private final class ElementFunctions {
        private final KernelGraph keyGraph;
        private final KernelGraph valueGraph;
        private final KernelGraph combinerGraph;
        private final List<JavaKind> input;
        private final List<JavaKind> valueKinds;
        private final EmittedFunction key;
        private final EmittedFunction value;
        private final EmittedFunction combine;
        private List<String> keyCaptures = List.of();
        private List<String> valueCaptures = List.of();
        private List<String> combinerCaptures = List.of();

        ElementFunctions(KernelGraph keyGraph, KernelGraph valueGraph, KernelGraph combinerGraph, List<JavaKind> input, List<JavaKind> valueKinds) {
            this.keyGraph = keyGraph;
            this.valueGraph = valueGraph;
            this.combinerGraph = combinerGraph;
            this.input = input;
            this.valueKinds = valueKinds;
            key = new FunctionEmitter(keyGraph, "jpai_key_" + keyGraph.lambda().identifier(), null, generator.helperFormulation()).emit();
            OpenCLKernelGenerator.requireComponents("the key function's arguments", key.parameters(ParameterKind.ARGUMENT), input);
            OpenCLKernelGenerator.requireComponents("the key function's result", key.parameters(ParameterKind.RESULT), List.of(JavaKind.Int));
            value = new FunctionEmitter(valueGraph, "jpai_value_" + valueGraph.lambda().identifier(), null, generator.helperFormulation()).emit();
            OpenCLKernelGenerator.requireComponents("the value function's arguments", value.parameters(ParameterKind.ARGUMENT), input);
            OpenCLKernelGenerator.requireComponents("the value function's result", value.parameters(ParameterKind.RESULT), valueKinds);
            combine = combinerGraph == null ? null : combinerFunction(combinerGraph, valueKinds);
        }

        EmittedFunction combine() {
            return combine;
        }

        List<EmittedFunction> emitted() {
            return combine == null ? List.of(key, value) : List.of(key, value, combine);
        }

        String description() {
            return "key " + keyGraph.lambda().displayName() + ", value " + valueGraph.lambda().displayName()
                            + (combinerGraph == null ? "" : ", combiner " + combinerGraph.lambda().displayName());
        }

        String plugins() {
            String first = OpenCLKernelGenerator.pluginsOf(keyGraph, valueGraph);
            String second = combinerGraph == null ? null : OpenCLKernelGenerator.pluginsOf(combinerGraph, null);
            return first == null ? second : second == null || second.equals(first) ? first : first + "; " + second;
        }

        /** Declares the input buffers and the captured values (slots: the key's, the value's, the combiner's). */
        void declare(KernelSignatureBuilder parameters) {
            for (int i = 0; i < input.size(); i++) {
                parameters.buffer("in" + i, Role.INPUT_BUFFER, input.get(i), i, true);
            }
            keyCaptures = parameters.captures(keyGraph, 0);
            valueCaptures = parameters.captures(valueGraph, keyGraph.captures().size());
            if (combinerGraph != null) {
                combinerCaptures = parameters.captures(combinerGraph, keyGraph.captures().size() + valueGraph.captures().size());
            }
        }

        List<String> combinerCaptures() {
            return combinerCaptures;
        }

        List<CapturedValue> captures() {
            List<CapturedValue> all = new ArrayList<>(keyGraph.captures());
            all.addAll(valueGraph.captures());
            if (combinerGraph != null) {
                all.addAll(combinerGraph.captures());
            }
            return all;
        }

        /**
         * Element {@code index}'s key into {@code k} (declared), checked against {@code keyCount},
         * then its value, in Java's order; on an exit or a key out of range sets {@code reason},
         * reports unless {@code onFailure} records it, and runs {@code onFailure} (lines separated by
         * a newline). Returns the value's component variables.
         */
        List<String> keyAndValue(CodeWriter code, String index, String onFailure) {
            List<String> arguments = new ArrayList<>();
            for (int c = 0; c < input.size(); c++) {
                arguments.add("(" + OpenCLTypes.valueType(input.get(c)) + ") in" + c + "[" + index + "]");
            }
            boolean records = onFailure.startsWith("failed");
            code.line("int k;");
            code.line("reason = " + OpenCLKernelGenerator.call(key, keyCaptures, arguments, List.of("&k")) + ";");
            code.open("if (reason == 0 && (uint) k >= (uint) keyCount)");
            code.comment("an unsigned comparison: a negative key is a large one, both out of range");
            code.line("reason = " + DeoptReason.BOUNDS_CHECK.code() + ";");
            code.close();
            failure(code, index, onFailure, records);
            List<String> values = OpenCLKernelGenerator.declareComponents(code, "v", valueKinds);
            code.line("reason = " + OpenCLKernelGenerator.call(value, valueCaptures, arguments, OpenCLKernelGenerator.addressesOf(values)) + ";");
            failure(code, index, onFailure, records);
            return values;
        }

        private static void failure(CodeWriter code, String index, String onFailure, boolean records) {
            code.open("if (reason != 0)");
            if (!records) {
                code.line("jpai_report(jpai_status, reason, " + index + ");");
            }
            for (String line : onFailure.split("\n")) {
                code.line(line);
            }
            code.close();
        }
    }
}
