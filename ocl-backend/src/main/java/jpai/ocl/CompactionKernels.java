package jpai.ocl;

import java.util.ArrayList;
import java.util.List;

import jdk.vm.ci.meta.JavaKind;
import jpai.ocl.KernelParameter.Role;

/**
 * The kernels of a filter's compaction on the device, after the predicate's map has written one flag
 * per element: no user code, so written here as text. A work-group covers
 * {@link #FLAGS_PER_WORK_ITEM} elements per work-item, consecutive work-items reading consecutive
 * elements; the runtime launches the counting and the scattering kernel with the same power-of-two
 * work-group size, so that both cut the elements into the same groups.
 *
 * <ol>
 * <li>{@code jpai_count_kept}: each work-group's number of kept elements ({@link Role#GROUP_COUNTS}).</li>
 * <li>{@code jpai_kept_offsets}, one work-group: the exclusive prefix sums of the counts
 * ({@link Role#GROUP_OFFSETS}, with the total after them), integers, so exact in any order.</li>
 * <li>{@code jpai_scatter_kept}: the group's flags in local memory, in rows of
 * {@link #FLAGS_PER_WORK_ITEM}, each row counted by one work-item and the counts summed; then
 * consecutive work-items copy consecutive kept elements to the group's offset plus the kept
 * elements of the rows before theirs and of their row before them.</li>
 * </ol>
 * The runtime reads the total back between the second and the third, to allocate the output. Every
 * barrier is at a kernel's top level (PoCL 3.1: see {@code OpenCLKernelGenerator.reduce}).
 */
public final class CompactionKernels {

    /** Flags each work-item counts and scatters: consecutive elements. */
    public static final int FLAGS_PER_WORK_ITEM = 16;

    private CompactionKernels() {
    }

    /**
     * {@code jpai_count_kept(kept, groupCounts, scratch, n, status)}: {@link Role#KEPT_FLAGS},
     * {@link Role#GROUP_COUNTS}, {@link Role#LOCAL_SCRATCH} of one {@code int} per work-item,
     * {@link Role#LENGTH} (the elements), {@link Role#UNWRITTEN_STATUS}.
     */
    public static KernelSource count() {
        Signature signature = new Signature();
        signature.add("kept", Role.KEPT_FLAGS, JavaKind.Boolean, "__global const uchar *restrict kept");
        signature.add("groupCounts", Role.GROUP_COUNTS, JavaKind.Int, "__global int *restrict groupCounts");
        signature.add("scratch", Role.LOCAL_SCRATCH, JavaKind.Int, "__local int *scratch");
        signature.lengthAndStatus();
        String text = header() + "__kernel void jpai_count_kept(" + signature.declarations() + ") {\n" + """
                    const long lid = (long) get_local_id(0);
                    const long localSize = (long) get_local_size(0);
                    const long group = ((long) get_global_id(0) - lid) / localSize;
                    const long groupStart = group * localSize * %d;
                    /* any of the group's flags will do for its count: consecutive work-items read consecutive flags */
                    int count = 0;
                    for (int k = 0; k < %d; k++) {
                        const long i = groupStart + k * localSize + lid;
                        count += i < n && kept[i] != 0;
                    }
                """.formatted(FLAGS_PER_WORK_ITEM, FLAGS_PER_WORK_ITEM) + INCLUSIVE_SUM_OF_COUNTS + """
                    if (lid == localSize - 1) {
                        groupCounts[group] = scratch[lid];
                    }
                }
                """;
        return new KernelSource("jpai_count_kept", text, OpenCLKernelGenerator.JAVA_SEMANTICS_BUILD_OPTIONS, signature.parameters);
    }

    /**
     * {@code jpai_kept_offsets(groupCounts, groupOffsets, scratch, n, status)}, one work-group:
     * {@link Role#GROUP_COUNTS} (read), {@link Role#GROUP_OFFSETS} ({@code n + 1} values),
     * {@link Role#LOCAL_SCRATCH} of one {@code long} per work-item, {@link Role#LENGTH} (the groups),
     * {@link Role#UNWRITTEN_STATUS}.
     */
    public static KernelSource offsets() {
        Signature signature = new Signature();
        signature.add("groupCounts", Role.GROUP_COUNTS, JavaKind.Int, "__global const int *restrict groupCounts");
        signature.add("groupOffsets", Role.GROUP_OFFSETS, JavaKind.Long, "__global long *restrict groupOffsets");
        signature.add("scratch", Role.LOCAL_SCRATCH, JavaKind.Long, "__local long *scratch");
        signature.lengthAndStatus();
        String text = header() + "__kernel void jpai_kept_offsets(" + signature.declarations() + ") {\n" + """
                    const long lid = (long) get_local_id(0);
                    const long localSize = (long) get_local_size(0);
                    /* each work-item sums a run of consecutive groups */
                    const long run = (n + localSize - 1) / localSize;
                    const long from = min(lid * run, n);
                    const long to = min(from + run, n);
                    long sum = 0;
                    for (long g = from; g < to; g++) {
                        sum += groupCounts[g];
                    }
                    scratch[lid] = sum;
                    barrier(CLK_LOCAL_MEM_FENCE);
                    for (long stride = 1; stride < localSize; stride <<= 1) {
                        const long before = lid >= stride ? scratch[lid - stride] : 0;
                        barrier(CLK_LOCAL_MEM_FENCE);
                        scratch[lid] += before;
                        barrier(CLK_LOCAL_MEM_FENCE);
                    }
                    long at = scratch[lid] - sum;
                    for (long g = from; g < to; g++) {
                        groupOffsets[g] = at;
                        at += groupCounts[g];
                    }
                    if (lid == localSize - 1) {
                        groupOffsets[n] = scratch[lid];
                    }
                }
                """;
        return new KernelSource("jpai_kept_offsets", text, OpenCLKernelGenerator.JAVA_SEMANTICS_BUILD_OPTIONS, signature.parameters);
    }

    /**
     * {@code jpai_scatter_kept(in..., kept, groupOffsets, out..., scratch, n, status)}: one
     * {@link Role#INPUT_BUFFER} and one {@link Role#OUTPUT_BUFFER} per component of the elements
     * (of {@code components}), {@link Role#KEPT_FLAGS}, {@link Role#GROUP_OFFSETS},
     * {@link Role#LOCAL_SCRATCH} of {@link #FLAGS_PER_WORK_ITEM} + 1 {@code int}s per work-item
     * (the group's flags, then its rows' counts), {@link Role#LENGTH} (the elements), {@link Role#UNWRITTEN_STATUS}.
     */
    public static KernelSource scatter(List<JavaKind> components) {
        Signature signature = new Signature();
        for (int c = 0; c < components.size(); c++) {
            signature.add("in" + c, Role.INPUT_BUFFER, components.get(c), c, "__global const " + OpenCLTypes.storageType(components.get(c)) + " *restrict in" + c);
        }
        signature.add("kept", Role.KEPT_FLAGS, JavaKind.Boolean, "__global const uchar *restrict kept");
        signature.add("groupOffsets", Role.GROUP_OFFSETS, JavaKind.Long, "__global const long *restrict groupOffsets");
        for (int c = 0; c < components.size(); c++) {
            signature.add("out" + c, Role.OUTPUT_BUFFER, components.get(c), c, "__global " + OpenCLTypes.storageType(components.get(c)) + " *restrict out" + c);
        }
        signature.add("scratch", Role.LOCAL_SCRATCH, JavaKind.Int, "__local int *scratch");
        signature.lengthAndStatus();
        StringBuilder copy = new StringBuilder();
        for (int c = 0; c < components.size(); c++) {
            copy.append("            out").append(c).append("[at] = in").append(c).append("[i];\n");
        }
        String pragma = components.contains(JavaKind.Double) ? "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n" : "";
        String text = header() + pragma + "__kernel void jpai_scatter_kept(" + signature.declarations() + ") {\n" + """
                    const long lid = (long) get_local_id(0);
                    const long localSize = (long) get_local_size(0);
                    const long group = ((long) get_global_id(0) - lid) / localSize;
                    const long groupStart = group * localSize * %1$d;
                    /* scratch: the group's flags (row r: elements r * %1$d ...), then one count per row */
                    __local int *rows = scratch + localSize * %1$d;
                    for (int k = 0; k < %1$d; k++) {
                        const long e = k * localSize + lid;
                        const long i = groupStart + e;
                        scratch[e] = i < n && kept[i] != 0;
                    }
                    barrier(CLK_LOCAL_MEM_FENCE);
                    int count = 0;
                    for (int j = 0; j < %1$d; j++) {
                        count += scratch[lid * %1$d + j];
                    }
                    rows[lid] = count;
                    barrier(CLK_LOCAL_MEM_FENCE);
                    for (long stride = 1; stride < localSize; stride <<= 1) {
                        const int before = lid >= stride ? rows[lid - stride] : 0;
                        barrier(CLK_LOCAL_MEM_FENCE);
                        rows[lid] += before;
                        barrier(CLK_LOCAL_MEM_FENCE);
                    }
                    rows[lid] -= count; /* the kept elements of the rows before this one */
                    barrier(CLK_LOCAL_MEM_FENCE);
                    /* consecutive work-items copy consecutive elements: reads coalesced, and the kept ones land next to each other */
                    for (int k = 0; k < %1$d; k++) {
                        const long e = k * localSize + lid;
                        const long i = groupStart + e;
                        if (i < n && scratch[e] != 0) {
                            const long row = e / %1$d;
                            int within = 0;
                            for (long f = row * %1$d; f < e; f++) {
                                within += scratch[f];
                            }
                            const long at = groupOffsets[group] + rows[row] + within;
                """.formatted(FLAGS_PER_WORK_ITEM) + copy + """
                        }
                    }
                }
                """;
        return new KernelSource("jpai_scatter_kept", text, OpenCLKernelGenerator.JAVA_SEMANTICS_BUILD_OPTIONS, signature.parameters);
    }

    /** Leaves in {@code scratch[lid]} the kept elements of the group's work-items up to this one (Hillis and Steele: integers, exact in any order). */
    private static final String INCLUSIVE_SUM_OF_COUNTS = """
                scratch[lid] = count;
                barrier(CLK_LOCAL_MEM_FENCE);
                for (long stride = 1; stride < localSize; stride <<= 1) {
                    const int before = lid >= stride ? scratch[lid - stride] : 0;
                    barrier(CLK_LOCAL_MEM_FENCE);
                    scratch[lid] += before;
                    barrier(CLK_LOCAL_MEM_FENCE);
                }
            """;

    private static String header() {
        return "// Generated by JPAI: a filter's compaction\n";
    }

    /** The kernel's parameters, in order, with their declarations. */
    private static final class Signature {
        final List<KernelParameter> parameters = new ArrayList<>();
        final List<String> declarations = new ArrayList<>();

        void add(String name, Role role, JavaKind kind, String declaration) {
            add(name, role, kind, 0, declaration);
        }

        void add(String name, Role role, JavaKind kind, int slot, String declaration) {
            parameters.add(new KernelParameter(parameters.size(), name, role, kind, slot));
            declarations.add(declaration);
        }

        /** The length, and a status these kernels never write (they run no user code and cannot exit): {@link Role#UNWRITTEN_STATUS}. */
        void lengthAndStatus() {
            add("n", Role.LENGTH, JavaKind.Long, "const long n");
            add("jpai_status", Role.UNWRITTEN_STATUS, JavaKind.Int, "__global int *jpai_status");
        }

        String declarations() {
            return String.join(", ", declarations);
        }
    }
}
