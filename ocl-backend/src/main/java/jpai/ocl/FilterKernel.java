package jpai.ocl;

import java.util.ArrayList;
import java.util.List;

import jdk.vm.ci.meta.JavaKind;
import jpai.compiler.KernelGraph;
import jpai.ocl.KernelParameter.Role;
import jpai.ocl.OpenCLKernelGenerator.KernelSignatureBuilder;
import jpai.ocl.codegen.CodeWriter;
import jpai.ocl.codegen.FunctionEmitter;
import jpai.ocl.codegen.FunctionEmitter.EmittedFunction;
import jpai.ocl.codegen.FunctionEmitter.ParameterKind;

/**
 * The single-pass filter: one kernel that evaluates the predicate on each element, ranks the kept
 * elements of its work-group, learns where the group's kept elements start from the groups before
 * it, and writes them there, in order. The input is read once, the kept elements written once: no
 * flags array, no second read of the input (the multi-kernel compaction, {@link CompactionKernels},
 * reads the input twice and its flags three times).
 *
 * <p>A work-group covers {@link #ELEMENTS_PER_WORK_ITEM} elements per work-item, consecutive
 * work-items loading consecutive elements into registers, each testing the ones it loaded. The flags
 * go to local memory (a byte each), where row {@code r} (elements {@code 16r .. 16r + 15} of the
 * group) is read by work-item {@code r} as four words and packed into a 16-bit mask; the rows'
 * counts are summed (integers: exact in any order). A kept element's rank in its group is then the
 * kept elements of the rows before its row plus the population count of its row's mask below it:
 * one read of local memory and a few instructions, where counting the bytes of the row before it
 * cost about a third of the kernel's time on the H100.
 *
 * <p>Between groups the counts travel by a decoupled look-back (Merrill and Garland's): groups
 * number themselves in the order they start (a counter); a group publishes its count as soon as it
 * has it ({@code AGGREGATE | count} in its status word), reads the status words of the
 * {@link #LOOK_BACK_WINDOW} groups before it side by side, adds their counts up to the nearest one
 * that holds an inclusive prefix ({@code INCLUSIVE | prefix}), reading again where one has published
 * nothing yet, and then publishes its own inclusive prefix. The sums are of integers, so the offsets
 * do not depend on which words were read when. A status word is one 64-bit word, its state in the
 * top two bits, written by an atomic exchange and read by atomic adds of 0: the word is its own flag.
 * A group that has read more than {@code spinLimit + 1} windows gives up
 * ({@link DeoptReason#NO_FORWARD_PROGRESS}) and stores nothing, so a device that breaks the
 * assumption below ends the kernel instead of hanging.
 * (The single-pass scan's fixed tree of nodes, which floats need, cost the filter a third of its
 * time here: its groups waited for nodes published only after chains of waits.) Forward-progress
 * assumption: a started group keeps running while later ones wait for it (GPUs' resident
 * work-groups, PoCL's threads).
 *
 * <p>Kernel {@code jpai_filter}, arguments: one {@link Role#INPUT_BUFFER} per component, the
 * predicate's captured values, one {@link Role#OUTPUT_BUFFER} per component (room for every
 * element: how many are kept is known only at the end), {@link Role#NODE_WORDS} (zero before the
 * launch, {@link #nodeWordInts} ints), {@link Role#KEPT_TOTAL} (one {@code long}: the last group writes
 * the number of kept elements), {@link Role#LOCAL_SCRATCH} {@code scratch} ({@link #localBytes}
 * bytes), {@link Role#SPIN_LIMIT}, {@link Role#LENGTH}, {@link Role#STATUS}. The local size is a power of two of at least
 * {@link #MIN_LOCAL_SIZE}; the global size is the groups times the local size. An exit of the
 * predicate reports its element and counts the element as dropped (the runtime then discards the
 * result and runs the filter in Java). Emits text; launches nothing.
 */
public final class FilterKernel {

    /** Elements per work-item: a row of flags, read as four {@code uint}s and packed into 16 bits. */
    public static final int ELEMENTS_PER_WORK_ITEM = 16;

    /** The least local size. */
    public static final long MIN_LOCAL_SIZE = 2;

    /** Status words of earlier groups read side by side per step of the look-back. */
    public static final int LOOK_BACK_WINDOW = 32;

    /** The extension the status words need: 64-bit atomics. */
    public static final String EXTENSION = ScanKernelSpec.SINGLE_PASS_EXTENSION;

    private final OpenCLKernelGenerator generator;

    public FilterKernel(OpenCLKernelGenerator generator) {
        this.generator = generator;
    }

    /** The work-groups covering {@code n} elements at {@code localSize} work-items each. */
    public static long groups(long n, long localSize) {
        long perGroup = localSize * ELEMENTS_PER_WORK_ITEM;
        return (n + perGroup - 1) / perGroup;
    }

    /** The ints of {@link Role#NODE_WORDS} for {@code groups} groups: the counter and a pad, then a 64-bit status word per group. */
    public static long nodeWordInts(long groups) {
        return 2 + 2 * groups;
    }

    /** The local memory of {@code scratch} for {@code localSize} work-items: the flags (a byte each), then a count and a mask per row. */
    public static long localBytes(long localSize) {
        return localSize * ELEMENTS_PER_WORK_ITEM + 2L * localSize * Integer.BYTES;
    }

    public KernelSource singlePass(KernelGraph predicate, List<JavaKind> input) {
        return singlePass(predicate, List.of(), List.of(input));
    }

    /**
     * {@link #singlePass(KernelGraph, List)} of the elements that the maps {@code mappers} make of
     * each input element ({@link MapperChain}: maps fused before the filter); the kept elements are
     * the mapped ones. A map's exit drops its element and reports it, as the predicate's does (the
     * runtime then runs the maps and the filter one after the other, in Java's order). Input buffers
     * of the input's components, outputs of the mapped elements'; the captured values are the
     * predicate's, then the maps' in order.
     */
    public KernelSource singlePass(KernelGraph predicate, List<KernelGraph> mappers, List<List<JavaKind>> mapperComponents) {
        MapperChain chain = new MapperChain(mappers, mapperComponents, generator.helperFormulation());
        List<JavaKind> input = chain.inputComponents();
        List<JavaKind> element = chain.elementComponents();
        EmittedFunction test = new FunctionEmitter(predicate, "jpai_" + predicate.lambda().identifier(), null, generator.helperFormulation()).emit();
        OpenCLKernelGenerator.requireComponents("the predicate's arguments", test.parameters(ParameterKind.ARGUMENT), element);
        OpenCLKernelGenerator.requireComponents("the predicate's result", test.parameters(ParameterKind.RESULT), List.of(JavaKind.Boolean));

        KernelSignatureBuilder parameters = new KernelSignatureBuilder();
        for (int c = 0; c < input.size(); c++) {
            parameters.buffer("in" + c, Role.INPUT_BUFFER, input.get(c), c, true);
        }
        List<String> captures = parameters.captures(predicate, 0);
        List<jpai.compiler.CapturedValue> allCaptures = new ArrayList<>(predicate.captures());
        allCaptures.addAll(chain.declareCaptures(parameters, predicate.captures().size()));
        for (int c = 0; c < element.size(); c++) {
            parameters.buffer("out" + c, Role.OUTPUT_BUFFER, element.get(c), c, false);
        }
        parameters.add("nodeWords", Role.NODE_WORDS, JavaKind.Int, 0, "__global int *nodeWords");
        parameters.add("keptTotal", Role.KEPT_TOTAL, JavaKind.Long, 0, "__global long *keptTotal");
        parameters.add("scratch", Role.LOCAL_SCRATCH, JavaKind.Byte, 0, "__local uchar *scratch");
        parameters.add("spinLimit", Role.SPIN_LIMIT, JavaKind.Long, 0, "const long spinLimit");
        parameters.lengthAndStatus(); // its look-back may give up, whatever the predicate does

        List<EmittedFunction> functions = new ArrayList<>(chain.functions());
        functions.add(test);
        CodeWriter code = generator.prelude(chain.descriptionPrefix() + predicate.lambda().displayName() + " (a single-pass filter)",
                        OpenCLKernelGenerator.joinPlugins(chain.plugins(), OpenCLKernelGenerator.pluginsOf(predicate, null)), functions, input, chain.allKinds());
        code.line("#pragma OPENCL EXTENSION " + EXTENSION + " : enable");
        code.line("#define PER_ITEM " + ELEMENTS_PER_WORK_ITEM);
        code.line("#define WINDOW " + LOOK_BACK_WINDOW);
        code.line("#define AGGREGATE (1UL << 62)");
        code.line("#define INCLUSIVE (2UL << 62)");
        code.line("#define VALUE_MASK ((1UL << 62) - 1)");
        code.comment("The 4 flags (bytes of 0 or 1) of a word as 4 bits, the flag at the lowest address lowest.");
        code.line("#ifdef __ENDIAN_LITTLE__");
        code.line("#define FLAG_BITS(word) (((word) * 0x204081u) >> 21 & 0xFu) /* byte j lands on bit 21 + j, and nothing else does */");
        code.line("#else");
        code.line("#define FLAG_BITS(word) ((((word) >> 24) & 1u) | (((word) >> 15) & 2u) | (((word) >> 6) & 4u) | (((word) << 3) & 8u))");
        code.line("#endif");
        code.open("__kernel void jpai_filter(" + parameters.declarations() + ")");
        code.line("const int lid = (int) get_local_id(0);");
        code.line("const int localSize = (int) get_local_size(0);");
        code.line("int reason = 0; /* a map's exit (MapperChain) */");
        code.line("long failed = 0;");
        code.line("__local long groupNumber[1];");
        code.line("__local long groupOffset[1];");
        code.line("__local ulong window[WINDOW]; /* status words of earlier groups, the nearest first */");
        code.line("__local long lookedBack[1]; /* the kept elements of the groups looked at so far */");
        code.line("__local long lookFrom[1]; /* the next group to look at */");
        code.line("__local int lookDone[1];");
        code.line("__local long lookRounds[1]; /* windows read so far: more than spinLimit + 1 and the group gives up */");
        code.line("__local int gaveUp[1];");
        code.line("__local int *rows = (__local int *) (scratch + localSize * PER_ITEM); /* a count per row of flags, then their inclusive sums */");
        code.line("__local uint *masks = (__local uint *) (rows + localSize); /* the flags of each row as 16 bits */");
        code.comment("The groups take their numbers in the order they start: a group waits only for groups that started before it.");
        code.open("if (lid == 0)");
        code.line("groupNumber[0] = (long) (uint) atomic_inc(nodeWords);");
        code.close();
        code.line("barrier(CLK_LOCAL_MEM_FENCE);");
        code.line("const long group = groupNumber[0];");
        code.line("const long groups = (n + (long) localSize * PER_ITEM - 1) / ((long) localSize * PER_ITEM);");
        code.line("const long groupStart = group * (long) localSize * PER_ITEM;");
        code.line("volatile __global ulong *words = (volatile __global ulong *) (nodeWords + 2);");
        code.comment("The group's elements into registers, consecutive work-items loading consecutive elements, every load issued before the first test.");
        String loaded = chain.isEmpty() ? "value" : "input";
        for (int c = 0; c < input.size(); c++) {
            code.line(OpenCLTypes.storageType(input.get(c)) + " " + loaded + c + "[PER_ITEM];");
        }
        for (int c = 0; c < element.size() && !chain.isEmpty(); c++) {
            code.line(OpenCLTypes.storageType(element.get(c)) + " value" + c + "[PER_ITEM];");
        }
        code.line("#pragma unroll");
        code.open("for (int k = 0; k < PER_ITEM; k++)");
        code.line("const long i = groupStart + k * localSize + lid;");
        for (int c = 0; c < input.size(); c++) {
            code.line(loaded + c + "[k] = i < n ? in" + c + "[i] : (" + OpenCLTypes.storageType(input.get(c)) + ") 0;");
        }
        code.close();
        code.line("#pragma unroll");
        code.open("for (int k = 0; k < PER_ITEM; k++)");
        code.line("const int e = k * localSize + lid;");
        code.line("const long i = groupStart + e;");
        code.line("int keep = 0;");
        code.open("if (i < n)");
        if (!chain.isEmpty()) {
            code.comment("The maps, in a loop of one pass: a map's exit leaves it, and the element is dropped.");
            code.open("for (int once = 0; once < 1; once++)");
            List<String> inputs = new ArrayList<>();
            for (int c = 0; c < input.size(); c++) {
                inputs.add("(" + OpenCLTypes.valueType(input.get(c)) + ") input" + c + "[k]");
            }
            List<String> mapped = chain.emit(code, inputs, "i");
            for (int c = 0; c < element.size(); c++) {
                code.line("value" + c + "[k] = " + OpenCLKernelGenerator.store(element.get(c), mapped.get(c)) + ";");
            }
        }
        List<String> arguments = new ArrayList<>();
        for (int c = 0; c < element.size(); c++) {
            arguments.add("(" + OpenCLTypes.valueType(element.get(c)) + ") value" + c + "[k]");
        }
        List<String> result = OpenCLKernelGenerator.declareComponents(code, "t", List.of(JavaKind.Boolean));
        code.line("const int testReason = " + OpenCLKernelGenerator.call(test, captures, arguments, OpenCLKernelGenerator.addressesOf(result)) + ";");
        code.open("if (testReason != 0)");
        code.line("jpai_report(jpai_status, testReason, i); /* the result is discarded: the filter runs in Java */");
        code.line("} else {");
        code.line("    keep = " + result.get(0) + " != 0;");
        code.close();
        if (!chain.isEmpty()) {
            code.close();
            code.open("if (reason != 0)");
            code.line("jpai_report(jpai_status, reason, failed); /* a map exited: dropped, reported, the result discarded */");
            code.line("reason = 0;");
            code.close();
        }
        code.close();
        code.line("scratch[e] = (uchar) keep;");
        code.close();
        code.line("barrier(CLK_LOCAL_MEM_FENCE);");
        code.comment("Row lid's flags as a mask and its count, then the rows' inclusive sums.");
        code.line("const __local uint *flagWords = (const __local uint *) scratch;");
        code.line("const uint rowMask = FLAG_BITS(flagWords[4 * lid]) | FLAG_BITS(flagWords[4 * lid + 1]) << 4 | FLAG_BITS(flagWords[4 * lid + 2]) << 8 | FLAG_BITS(flagWords[4 * lid + 3]) << 12;");
        code.line("masks[lid] = rowMask;");
        code.line("rows[lid] = popcount(rowMask);");
        code.line("barrier(CLK_LOCAL_MEM_FENCE);");
        code.open("for (int stride = 1; stride < localSize; stride <<= 1)");
        code.line("const int before = lid >= stride ? rows[lid - stride] : 0;");
        code.line("barrier(CLK_LOCAL_MEM_FENCE);");
        code.line("rows[lid] += before;");
        code.line("barrier(CLK_LOCAL_MEM_FENCE);");
        code.close();
        code.comment("The group's count for the groups after it, at once; then the look-back.");
        code.open("if (lid == localSize - 1)");
        code.line("atom_xchg(&words[group], (group == 0 ? INCLUSIVE : AGGREGATE) | (ulong) rows[lid]);");
        code.line("lookedBack[0] = 0;");
        code.line("lookFrom[0] = group - 1;");
        code.line("lookDone[0] = group == 0;");
        code.line("lookRounds[0] = 0;");
        code.line("gaveUp[0] = 0;");
        code.close();
        code.line("barrier(CLK_LOCAL_MEM_FENCE);");
        code.comment("The same steps for every work-item (lookDone is read after a barrier): the barriers are reached by all.");
        code.open("while (lookDone[0] == 0)");
        code.line("const long from = lookFrom[0];");
        code.open("for (int j = lid; j < WINDOW; j += localSize)");
        code.line("const long p = from - j;");
        code.line("window[j] = p >= 0 ? atom_add(&words[p], 0UL) : INCLUSIVE; /* before the first group: an inclusive prefix of 0 */");
        code.close();
        code.line("barrier(CLK_LOCAL_MEM_FENCE);");
        code.open("if (lid == 0 && (spinLimit < 0 || ++lookRounds[0] > spinLimit + 1))");
        code.comment("Waited too long: the device is taken not to run the groups waited for. Reported after the loop; the result is discarded: nothing is stored.");
        code.line("gaveUp[0] = 1;");
        code.line("lookDone[0] = 1;");
        code.between("} else if (lid == 0) {");
        code.line("long sum = 0;");
        code.line("int used = 0;");
        code.line("int done = 0;");
        code.open("for (int j = 0; j < WINDOW; j++)");
        code.line("const ulong word = window[j];");
        code.open("if ((word >> 62) == 0)");
        code.line("break; /* not published yet: read again from here */");
        code.close();
        code.line("sum += (long) (word & VALUE_MASK);");
        code.line("used++;");
        code.open("if ((word >> 62) == 2)");
        code.line("done = 1;");
        code.line("break;");
        code.close();
        code.close();
        code.line("lookedBack[0] += sum;");
        code.line("lookFrom[0] = from - used;");
        code.line("lookDone[0] = done;");
        code.close();
        code.line("barrier(CLK_LOCAL_MEM_FENCE);");
        code.close();
        code.open("if (lid == 0 && gaveUp[0] != 0)");
        code.line("jpai_report(jpai_status, " + DeoptReason.NO_FORWARD_PROGRESS.code() + ", groupStart);");
        code.close();
        code.open("if (lid == localSize - 1)");
        code.line("const long before = lookedBack[0];");
        code.line("groupOffset[0] = before;");
        code.open("if (group > 0)");
        code.line("atom_xchg(&words[group], INCLUSIVE | (ulong) (before + rows[lid]));");
        code.close();
        code.open("if (group == groups - 1)");
        code.line("keptTotal[0] = before + rows[lid];");
        code.close();
        code.close();
        code.line("barrier(CLK_LOCAL_MEM_FENCE);");
        code.comment("Each kept element to the group's offset, plus the kept elements of the rows before its row, plus those of its row before it.");
        code.line("const long offset = groupOffset[0];");
        code.line("const int store = gaveUp[0] == 0; /* without its offset a group stores nothing: every store stays inside the output */");
        code.line("#pragma unroll");
        code.open("for (int k = 0; k < PER_ITEM && store; k++)");
        code.line("const int e = k * localSize + lid;");
        code.line("const int row = e / PER_ITEM;");
        code.line("const int position = e % PER_ITEM;");
        code.line("const uint mask = masks[row];");
        code.open("if (((mask >> position) & 1u) != 0)");
        code.line("const long at = offset + (row == 0 ? 0 : rows[row - 1]) + popcount(mask & ((1u << position) - 1u));");
        for (int c = 0; c < element.size(); c++) {
            code.line("out" + c + "[at] = value" + c + "[k];");
        }
        code.close();
        code.close();
        code.close();
        return new KernelSource("jpai_filter", code.toString(), generator.buildOptions(), parameters.parameters, allCaptures);
    }
}
