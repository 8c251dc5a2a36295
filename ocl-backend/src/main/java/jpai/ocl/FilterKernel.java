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
 * <p>A work-group covers {@link #ELEMENTS_PER_WORK_ITEM} elements per work-item. They come in
 * through an input tile in local memory, consecutive work-items loading consecutive elements, and
 * each work-item tests the ones it loaded; their flags go to local memory, where row {@code r}
 * (elements {@code 16r .. 16r + 15} of the group) is counted by work-item {@code r} and the rows'
 * counts summed (integers: exact in any order). The kept elements are copied, in order, into a
 * second tile and go out from there, consecutive work-items storing consecutive elements. (A first
 * version kept each work-item's elements in a private array and stored the kept ones straight to
 * global memory: about half a copy's bandwidth on the H100.)
 *
 * <p>Between groups the counts travel as in the single-pass scan (see
 * {@code OpenCLKernelGenerator.singlePassCarry}): groups number themselves in the order they start
 * (a counter), a group publishes its count as node {@code (0, group)} and, while it is the last group
 * of an aligned block, the block's node; a group's offset is the sum of the nodes covering the groups
 * before it, awaited side by side, one work-item per binary digit of its number. A node is one
 * 64-bit word, {@code 1 << 63 | count}, written by an atomic exchange and read by atomic adds of 0
 * until its top bit is set: the word is its own flag. Forward-progress assumption: a started group
 * keeps running while later ones wait for it (GPUs' resident work-groups, PoCL's threads).
 *
 * <p>Kernel {@code jpai_filter}, arguments: one {@link Role#INPUT_BUFFER} per component, the
 * predicate's captured values, one {@link Role#OUTPUT_BUFFER} per component (room for every
 * element: how many are kept is known only at the end), {@link Role#NODE_WORDS} (zero before the
 * launch, {@link #nodeWordInts} ints), {@link Role#KEPT_TOTAL} (one {@code long}: the last group writes
 * the number of kept elements), {@link Role#LOCAL_SCRATCH} {@code scratch} and one
 * {@link Role#LOCAL_SCRATCH} input tile and kept elements' tile per component ({@link #localBytes(KernelParameter, long)} bytes each),
 * {@link Role#LENGTH}, {@link Role#STATUS}. The local size is a power of two of at least
 * {@link #MIN_LOCAL_SIZE}; the global size is the groups times the local size. An exit of the
 * predicate reports its element and counts the element as dropped (the runtime then discards the
 * result and runs the filter in Java). Emits text; launches nothing.
 */
public final class FilterKernel {

    /** Elements per work-item: a row of flags, read as four {@code uint}s. */
    public static final int ELEMENTS_PER_WORK_ITEM = 16;

    /** The least local size: the row counts' scan assumes at least this many work-items. */
    public static final long MIN_LOCAL_SIZE = 2;

    /** The extension the node words need: 64-bit atomics. */
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

    /** The ints of {@link Role#NODE_WORDS} for {@code groups} groups: the counter and a pad, then a 64-bit word for each of at most {@code 2 * groups} nodes. */
    public static long nodeWordInts(long groups) {
        return 2 + 2 * (2 * groups);
    }

    /**
     * The bytes of local-memory argument {@code parameter} for {@code localSize} work-items: for
     * {@code scratch}, the flags (a byte each) and a count per row; for a component's input tile or
     * kept elements' tile, room for every element of the group.
     */
    public static long localBytes(KernelParameter parameter, long localSize) {
        if (parameter.name().equals("scratch")) {
            return localSize * ELEMENTS_PER_WORK_ITEM + localSize * Integer.BYTES;
        }
        return localSize * ELEMENTS_PER_WORK_ITEM * Math.max(1, parameter.kind().getByteCount());
    }

    /** All local memory for {@code localSize} work-items over elements of {@code components}. */
    public static long localBytes(List<JavaKind> components, long localSize) {
        long bytes = localSize * ELEMENTS_PER_WORK_ITEM + localSize * Integer.BYTES;
        for (JavaKind kind : components) {
            bytes += 2 * localSize * ELEMENTS_PER_WORK_ITEM * Math.max(1, kind.getByteCount()); // the input tile and the kept elements' tile
        }
        return bytes;
    }

    public KernelSource singlePass(KernelGraph predicate, List<JavaKind> input) {
        EmittedFunction test = new FunctionEmitter(predicate, "jpai_" + predicate.lambda().identifier(), null, generator.helperFormulation()).emit();
        OpenCLKernelGenerator.requireComponents("the predicate's arguments", test.parameters(ParameterKind.ARGUMENT), input);
        OpenCLKernelGenerator.requireComponents("the predicate's result", test.parameters(ParameterKind.RESULT), List.of(JavaKind.Boolean));

        KernelSignatureBuilder parameters = new KernelSignatureBuilder();
        for (int c = 0; c < input.size(); c++) {
            parameters.buffer("in" + c, Role.INPUT_BUFFER, input.get(c), c, true);
        }
        List<String> captures = parameters.captures(predicate, 0);
        for (int c = 0; c < input.size(); c++) {
            parameters.buffer("out" + c, Role.OUTPUT_BUFFER, input.get(c), c, false);
        }
        parameters.add("nodeWords", Role.NODE_WORDS, JavaKind.Int, 0, "__global int *nodeWords");
        parameters.add("keptTotal", Role.KEPT_TOTAL, JavaKind.Long, 0, "__global long *keptTotal");
        parameters.add("scratch", Role.LOCAL_SCRATCH, JavaKind.Byte, 0, "__local uchar *scratch");
        for (int c = 0; c < input.size(); c++) {
            parameters.add("tileIn" + c, Role.LOCAL_SCRATCH, input.get(c), c, "__local " + OpenCLTypes.storageType(input.get(c)) + " *tileIn" + c);
        }
        for (int c = 0; c < input.size(); c++) {
            parameters.add("tile" + c, Role.LOCAL_SCRATCH, input.get(c), c, "__local " + OpenCLTypes.storageType(input.get(c)) + " *tile" + c);
        }
        parameters.lengthAndStatus(List.of(test));

        CodeWriter code = generator.prelude(predicate.lambda().displayName() + " (a single-pass filter)", OpenCLKernelGenerator.pluginsOf(predicate, null), List.of(test), input,
                        input);
        code.line("#pragma OPENCL EXTENSION " + EXTENSION + " : enable");
        code.line("#define PER_ITEM " + ELEMENTS_PER_WORK_ITEM);
        code.line("#define LOOK_BACK_LEVELS 63");
        code.line("#define PUBLISHED (1UL << 63)");
        code.open("__kernel void jpai_filter(" + parameters.declarations() + ")");
        code.line("const int lid = (int) get_local_id(0);");
        code.line("const int localSize = (int) get_local_size(0);");
        code.line("__local long groupNumber[1];");
        code.line("__local long groupOffset[1];");
        code.line("__local long covering[LOOK_BACK_LEVELS]; /* the counts of the nodes covering the groups before this one, by level */");
        code.line("__local int *rows = (__local int *) (scratch + localSize * PER_ITEM); /* a count per row of flags, then their inclusive sums */");
        code.comment("The groups take their numbers in the order they start: a group waits only for groups that started before it.");
        code.open("if (lid == 0)");
        code.line("groupNumber[0] = (long) (uint) atomic_inc(nodeWords);");
        code.close();
        code.line("barrier(CLK_LOCAL_MEM_FENCE);");
        code.line("const long group = groupNumber[0];");
        code.line("const long groups = (n + (long) localSize * PER_ITEM - 1) / ((long) localSize * PER_ITEM);");
        code.line("const long groupStart = group * (long) localSize * PER_ITEM;");
        code.line("volatile __global ulong *words = (volatile __global ulong *) (nodeWords + 2);");
        code.comment("The group's elements into the input tile, consecutive work-items loading consecutive elements.");
        code.open("for (int k = 0; k < PER_ITEM; k++)");
        code.line("const int e = k * localSize + lid;");
        code.line("const long i = groupStart + e;");
        code.open("if (i < n)");
        for (int c = 0; c < input.size(); c++) {
            code.line("tileIn" + c + "[e] = in" + c + "[i];");
        }
        code.close();
        code.close();
        code.comment("The predicate on each of them: no barrier needed, a work-item tests the elements it loaded.");
        code.open("for (int k = 0; k < PER_ITEM; k++)");
        code.line("const int e = k * localSize + lid;");
        code.line("const long i = groupStart + e;");
        code.line("int keep = 0;");
        code.open("if (i < n)");
        List<String> arguments = new ArrayList<>();
        for (int c = 0; c < input.size(); c++) {
            arguments.add("(" + OpenCLTypes.valueType(input.get(c)) + ") tileIn" + c + "[e]");
        }
        List<String> result = OpenCLKernelGenerator.declareComponents(code, "t", List.of(JavaKind.Boolean));
        code.line("const int reason = " + OpenCLKernelGenerator.call(test, captures, arguments, OpenCLKernelGenerator.addressesOf(result)) + ";");
        code.open("if (reason != 0)");
        code.line("jpai_report(jpai_status, reason, i); /* the result is discarded: the filter runs in Java */");
        code.line("} else {");
        code.line("    keep = " + result.get(0) + " != 0;");
        code.close();
        code.close();
        code.line("scratch[e] = (uchar) keep;");
        code.close();
        code.line("barrier(CLK_LOCAL_MEM_FENCE);");
        code.comment("Row lid's count (its flags are 0 or 1, so a word's population count is the number of its flags set), then the rows' inclusive sums.");
        code.line("const __local uint *flagWords = (const __local uint *) scratch;");
        code.line("const int count = popcount(flagWords[4 * lid]) + popcount(flagWords[4 * lid + 1]) + popcount(flagWords[4 * lid + 2]) + popcount(flagWords[4 * lid + 3]);");
        code.line("rows[lid] = count;");
        code.line("barrier(CLK_LOCAL_MEM_FENCE);");
        code.open("for (int stride = 1; stride < localSize; stride <<= 1)");
        code.line("const int before = lid >= stride ? rows[lid - stride] : 0;");
        code.line("barrier(CLK_LOCAL_MEM_FENCE);");
        code.line("rows[lid] += before;");
        code.line("barrier(CLK_LOCAL_MEM_FENCE);");
        code.close();
        code.comment("The group's count to the groups after it: node (0, group), and the nodes of the aligned blocks it completes.");
        code.open("if (lid == localSize - 1)");
        code.line("ulong node = (ulong) rows[lid];");
        code.line("long base = 0;");
        code.line("long levelSize = groups;");
        code.line("long m = group;");
        code.open("for (;;)");
        code.line("atom_xchg(&words[base + m], PUBLISHED | node);");
        code.open("if ((m & 1) == 0)");
        code.line("break;");
        code.close();
        code.line("ulong sibling;");
        code.line("do { sibling = atom_add(&words[base + m - 1], 0UL); } while ((sibling & PUBLISHED) == 0);");
        code.line("node += sibling & ~PUBLISHED;");
        code.line("base += levelSize;");
        code.line("levelSize >>= 1;");
        code.line("m >>= 1;");
        code.close();
        code.close();
        code.comment("The nodes covering the groups before this one, one per binary digit of group, awaited side by side.");
        code.open("for (int level = lid; level < LOOK_BACK_LEVELS; level += localSize)");
        code.line("long value = 0;");
        code.open("if (((group >> level) & 1) != 0)");
        code.line("long at = 0;");
        code.open("for (int j = 0; j < level; j++)");
        code.line("at += groups >> j;");
        code.close();
        code.line("at += (group >> level) - 1;");
        code.line("ulong word;");
        code.line("do { word = atom_add(&words[at], 0UL); } while ((word & PUBLISHED) == 0);");
        code.line("value = (long) (word & ~PUBLISHED);");
        code.close();
        code.line("covering[level] = value;");
        code.close();
        code.line("barrier(CLK_LOCAL_MEM_FENCE);");
        code.open("if (lid == localSize - 1)");
        code.line("long offset = 0;");
        code.open("for (int level = 0; level < LOOK_BACK_LEVELS; level++)");
        code.line("offset += covering[level];");
        code.close();
        code.line("groupOffset[0] = offset;");
        code.open("if (group == groups - 1)");
        code.line("keptTotal[0] = offset + rows[lid];");
        code.close();
        code.close();
        code.line("barrier(CLK_LOCAL_MEM_FENCE);");
        code.comment("The kept elements in order into the tile: after the kept elements of the rows before theirs and of their row before them.");
        code.line("const long offset = groupOffset[0];");
        code.line("const int groupCount = rows[localSize - 1];");
        code.open("for (int k = 0; k < PER_ITEM; k++)");
        code.line("const int e = k * localSize + lid;");
        code.open("if (scratch[e] != 0)");
        code.line("const int row = e / PER_ITEM;");
        code.line("const int position = e % PER_ITEM;");
        code.line("int within = 0;");
        code.open("for (int w = 0; w < position / 4; w++)");
        code.line("within += popcount(flagWords[4 * row + w]);");
        code.close();
        code.line("const uint partial = flagWords[4 * row + position / 4];");
        code.line("const int byteInWord = position % 4;");
        code.line("#ifdef __ENDIAN_LITTLE__");
        code.line("within += popcount(byteInWord == 0 ? 0u : partial & (0xFFFFFFFFu >> (32 - 8 * byteInWord))); /* the flags at lower addresses are the low bytes */");
        code.line("#else");
        code.line("within += popcount(byteInWord == 0 ? 0u : partial & (0xFFFFFFFFu << (32 - 8 * byteInWord))); /* the flags at lower addresses are the high bytes */");
        code.line("#endif");
        code.line("const int rank = (row == 0 ? 0 : rows[row - 1]) + within;");
        for (int c = 0; c < input.size(); c++) {
            code.line("tile" + c + "[rank] = tileIn" + c + "[e];");
        }
        code.close();
        code.close();
        code.line("barrier(CLK_LOCAL_MEM_FENCE);");
        code.comment("Then out from the tile to the group's offset, consecutive work-items storing consecutive elements.");
        code.open("for (int j = lid; j < groupCount; j += localSize)");
        for (int c = 0; c < input.size(); c++) {
            code.line("out" + c + "[offset + j] = tile" + c + "[j];");
        }
        code.close();
        code.close();
        return new KernelSource("jpai_filter", code.toString(), generator.buildOptions(), parameters.parameters, predicate.captures());
    }
}
