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
 * The kernels of a keyed reduction ({@code AF.reduceByKey}): the elements' keys and values are
 * already computed (an {@code int} key buffer and the value's component buffers); these kernels
 * combine the values of each key into a result of {@code keyCount} elements. Two strategies:
 *
 * <ul>
 * <li>{@link #atomic}: for an {@code int} value and a recognised operator whose result's bits do not
 * depend on the order ({@code +}, {@code min}, {@code max}, {@code &}, {@code |}, {@code ^}): OpenCL's
 * 32-bit atomics, into per-work-group bins in local memory when they fit there, else straight into
 * the result.</li>
 * <li>{@link #chunks} then {@link #combineChunks}: any other value or operator (floats above all), in
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

    /** Whether {@link #atomic} takes values of {@code kind} with {@code operator}. */
    public static boolean hasAtomic(JavaKind kind, ReductionOperator operator) {
        return kind == JavaKind.Int && operator != null && operator != ReductionOperator.PRODUCT;
    }

    /**
     * Kernel {@code jpai_keyed_atomic}: {@code result[keys[i]] = operator(result[keys[i]], in0[i])}
     * with atomics, in a loop over the elements with the global size as its stride. With
     * {@code localBins}, each work-group first combines into {@code keyCount} bins in local memory
     * (set to the operator's neutral value), then adds each bin that changed to the result with one
     * global atomic. Arguments: {@link Role#KEY_BUFFER}, {@link Role#INPUT_BUFFER} (the values),
     * {@link Role#KEYED_RESULT} (the identity in every element before the launch),
     * {@link Role#LOCAL_SCRATCH} ({@code keyCount} ints with {@code localBins}, else unused: give it
     * 4 bytes), {@link Role#KEY_COUNT}, {@link Role#LENGTH}, {@link Role#STATUS}.
     */
    public KernelSource atomic(JavaKind valueKind, ReductionOperator operator, boolean localBins) {
        if (!hasAtomic(valueKind, operator)) {
            throw new IllegalArgumentException("no atomic keyed reduction of " + valueKind + " with " + operator);
        }
        String atomic = switch (operator) {
            case SUM -> "atomic_add";
            case MIN -> "atomic_min";
            case MAX -> "atomic_max";
            case AND -> "atomic_and";
            case OR -> "atomic_or";
            case XOR -> "atomic_xor";
            case PRODUCT -> throw new AssertionError(operator);
        };
        String neutral = switch (operator) {
            case SUM, OR, XOR -> "0";
            case AND -> "-1";
            case MIN -> "INT_MAX";
            case MAX -> "INT_MIN";
            case PRODUCT -> throw new AssertionError(operator);
        };
        KernelSignatureBuilder parameters = new KernelSignatureBuilder();
        parameters.add("keys", Role.KEY_BUFFER, JavaKind.Int, 0, "__global const int *restrict keys");
        parameters.buffer("in0", Role.INPUT_BUFFER, JavaKind.Int, 0, true);
        parameters.add("result", Role.KEYED_RESULT, JavaKind.Int, 0, "__global int *restrict result");
        parameters.add("bins", Role.LOCAL_SCRATCH, JavaKind.Int, 0, "__local int *bins");
        parameters.add("keyCount", Role.KEY_COUNT, JavaKind.Int, 0, "const int keyCount");
        parameters.lengthAndStatus();
        CodeWriter code = generator.prelude("a keyed reduction of int values with " + atomic + (localBins ? " into local bins" : ""), null, List.of(), List.of(JavaKind.Int),
                        List.of(JavaKind.Int));
        code.open("__kernel void jpai_keyed_atomic(" + parameters.declarations() + ")");
        code.line("const long stride = (long) get_global_size(0);");
        if (localBins) {
            code.line("const int lid = (int) get_local_id(0);");
            code.line("const int localSize = (int) get_local_size(0);");
            code.open("for (int k = lid; k < keyCount; k += localSize)");
            code.line("bins[k] = " + neutral + ";");
            code.close();
            code.line("barrier(CLK_LOCAL_MEM_FENCE);");
        }
        code.open("for (long i = (long) get_global_id(0); i < n; i += stride)");
        code.line("const int k = keys[i];");
        code.comment("an unsigned comparison: a negative key is a large one, both out of range");
        code.open("if ((uint) k >= (uint) keyCount)");
        code.line("jpai_report(jpai_status, " + DeoptReason.BOUNDS_CHECK.code() + ", i);");
        code.line("continue;");
        code.close();
        code.line(atomic + "(&" + (localBins ? "bins" : "result") + "[k], in0[i]);");
        code.close();
        if (localBins) {
            code.line("barrier(CLK_LOCAL_MEM_FENCE);");
            code.open("for (int k = lid; k < keyCount; k += localSize)");
            code.line("const int bin = bins[k];");
            code.open("if (bin != " + neutral + ")");
            code.line(atomic + "(&result[k], bin);");
            code.close();
            code.close();
        }
        code.close();
        return new KernelSource("jpai_keyed_atomic", code.toString(), generator.buildOptions(), parameters.parameters);
    }

    /**
     * Kernel {@code jpai_keyed_chunks}, the ordered strategy's first step: work-item {@code c} sets its
     * row {@code partial[c * keyCount ..]} to the identity and folds the elements of chunk {@code c}
     * into it, left to right. Arguments: {@link Role#KEY_BUFFER}, one {@link Role#INPUT_BUFFER} per
     * value component, the combiner's captured values, {@link Role#IDENTITY} per component,
     * {@link Role#PARTIAL_BUFFER} per component ({@code chunks * keyCount} values),
     * {@link Role#KEY_COUNT}, {@link Role#LEAF_WIDTH} (the chunk length), {@link Role#LENGTH},
     * {@link Role#STATUS}. The global size covers {@code ceil(n / chunkLength)} work-items (more do nothing).
     */
    public KernelSource chunks(KernelGraph combiner, List<JavaKind> value) {
        EmittedFunction combine = combinerFunction(combiner, value);
        KernelSignatureBuilder parameters = new KernelSignatureBuilder();
        parameters.add("keys", Role.KEY_BUFFER, JavaKind.Int, 0, "__global const int *restrict keys");
        for (int i = 0; i < value.size(); i++) {
            parameters.buffer("in" + i, Role.INPUT_BUFFER, value.get(i), i, true);
        }
        List<String> captures = parameters.captures(combiner, 0);
        identityAndPartials(parameters, value);
        parameters.add("keyCount", Role.KEY_COUNT, JavaKind.Int, 0, "const int keyCount");
        parameters.add("chunkLength", Role.LEAF_WIDTH, JavaKind.Long, 0, "const long chunkLength");
        parameters.lengthAndStatus();

        CodeWriter code = generator.prelude(combiner.lambda().displayName() + " (a keyed reduction's chunks)", OpenCLKernelGenerator.pluginsOf(combiner, null), List.of(combine),
                        value, value);
        code.open("__kernel void jpai_keyed_chunks(" + parameters.declarations() + ")");
        code.line("const long start = (long) get_global_id(0) * chunkLength;");
        code.open("if (start >= n)");
        code.line("return;");
        code.close();
        code.line("const long end = min(start + chunkLength, n);");
        code.line("const long row = (long) get_global_id(0) * keyCount;");
        code.open("for (int k = 0; k < keyCount; k++)");
        for (int i = 0; i < value.size(); i++) {
            code.line("partial" + i + "[row + k] = " + OpenCLKernelGenerator.store(value.get(i), "identity" + i) + ";");
        }
        code.close();
        code.line("int reason = 0;");
        code.line("long failed = 0;");
        code.open("for (long i = start; i < end; i++)");
        code.line("const int k = keys[i];");
        code.open("if ((uint) k >= (uint) keyCount)");
        code.line("reason = " + DeoptReason.BOUNDS_CHECK.code() + ";");
        code.line("failed = i;");
        code.line("break;");
        code.close();
        List<String> arguments = new ArrayList<>();
        for (int i = 0; i < value.size(); i++) {
            arguments.add("(" + OpenCLTypes.valueType(value.get(i)) + ") partial" + i + "[row + k]");
        }
        for (int i = 0; i < value.size(); i++) {
            arguments.add("(" + OpenCLTypes.valueType(value.get(i)) + ") in" + i + "[i]");
        }
        combineAndStore(code, combine, captures, value, arguments, "partial", "row + k", "i");
        code.close();
        code.open("if (reason != 0)");
        code.line("jpai_report(jpai_status, reason, failed);");
        code.close();
        code.close();
        return new KernelSource("jpai_keyed_chunks", code.toString(), generator.buildOptions(), parameters.parameters, combiner.captures());
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

    private static EmittedFunction combinerFunction(KernelGraph combiner, List<JavaKind> value) {
        EmittedFunction combine = new FunctionEmitter(combiner, "jpai_combine_" + combiner.lambda().identifier()).emit();
        List<JavaKind> twoValues = new ArrayList<>(value);
        twoValues.addAll(value);
        OpenCLKernelGenerator.requireComponents("the combiner's arguments", combine.parameters(ParameterKind.ARGUMENT), twoValues);
        OpenCLKernelGenerator.requireComponents("the combiner's result", combine.parameters(ParameterKind.RESULT), value);
        return combine;
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
}
