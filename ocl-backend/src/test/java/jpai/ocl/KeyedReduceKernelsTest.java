package jpai.ocl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.function.BinaryOperator;
import java.util.function.Function;

import org.junit.jupiter.api.Test;

import jdk.vm.ci.meta.JavaKind;
import jpai.compiler.KernelGraph;
import jpai.compiler.ValueShape;
import jpai.compiler.loops.ReductionOperator;

/**
 * The text and parameters of the keyed reduction's kernels (their results on devices are
 * {@code KeyedReduceTest}'s, end to end): Java's order per element, the unsigned range check, the
 * atomics and extensions for each value kind, and the parameter roles the runtime binds.
 */
class KeyedReduceKernelsTest {

    private static KernelGraph function(Function<?, ?> f, Class<?> in, Class<?> out) {
        return KernelTestSupport.compile(f, KernelTestSupport.FUNCTION_APPLY, List.of(ValueShape.ofBoxed(in)), ValueShape.ofBoxed(out));
    }

    private static KernelGraph combiner(BinaryOperator<?> op, Class<?> type) {
        ValueShape shape = ValueShape.ofBoxed(type);
        return KernelTestSupport.compile(op, KernelTestSupport.BIFUNCTION_APPLY, List.of(shape, shape), shape);
    }

    private static List<KernelParameter.Role> roles(KernelSource source) {
        return source.parameters().stream().map(KernelParameter::role).toList();
    }

    @Test
    void atomicIntKernelChecksTheKeyBeforeTheValueAndUsesLocalBins() {
        KernelGraph key = function((Function<Integer, Integer>) x -> x & 255, Integer.class, Integer.class);
        KernelGraph value = function((Function<Integer, Integer>) x -> 1, Integer.class, Integer.class);
        String text = new KeyedReduceKernels(new OpenCLKernelGenerator()).atomic(key, value, List.of(JavaKind.Int), JavaKind.Int, ReductionOperator.SUM, true).text();
        assertTrue(text.contains("(uint) k >= (uint) keyCount"), text);
        assertTrue(text.indexOf("jpai_key_") < text.indexOf("(uint) k >= (uint) keyCount") && text.indexOf("(uint) k >= (uint) keyCount") < text.lastIndexOf("jpai_value_"), "key, range check, value: " + text);
        assertTrue(text.contains("atomic_add(&bins[k], v0);") && text.contains("atomic_add(&result[k], bin);"), text);
        assertFalse(text.contains("cl_khr_int64"), text);
    }

    @Test
    void atomicLongMinEnablesBothInt64ExtensionsAndStartsBinsAtLongMax() {
        KernelGraph key = function((Function<Integer, Integer>) x -> x & 15, Integer.class, Integer.class);
        KernelGraph value = function((Function<Integer, Long>) x -> (long) x, Integer.class, Long.class);
        KernelSource source = new KeyedReduceKernels(new OpenCLKernelGenerator()).atomic(key, value, List.of(JavaKind.Int), JavaKind.Long, ReductionOperator.MIN, true);
        assertTrue(source.text().contains("#pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable"), source.text());
        assertTrue(source.text().contains("#pragma OPENCL EXTENSION cl_khr_int64_extended_atomics : enable"), source.text());
        assertTrue(source.text().contains("bins[k] = LONG_MAX;") && source.text().contains("atom_min(&bins[k], v0);"), source.text());
        assertEquals(List.of(KernelParameter.Role.INPUT_BUFFER, KernelParameter.Role.KEYED_RESULT, KernelParameter.Role.LOCAL_SCRATCH, KernelParameter.Role.KEY_COUNT,
                        KernelParameter.Role.LENGTH, KernelParameter.Role.STATUS), roles(source));
    }

    @Test
    void noAtomicKernelForAProductOrAFloat() {
        KernelGraph key = function((Function<Integer, Integer>) x -> x & 15, Integer.class, Integer.class);
        KernelGraph value = function((Function<Integer, Integer>) x -> x, Integer.class, Integer.class);
        KeyedReduceKernels kernels = new KeyedReduceKernels(new OpenCLKernelGenerator());
        assertThrows(IllegalArgumentException.class, () -> kernels.atomic(key, value, List.of(JavaKind.Int), JavaKind.Int, ReductionOperator.PRODUCT, false));
        assertThrows(IllegalArgumentException.class, () -> kernels.atomic(key, value, List.of(JavaKind.Int), JavaKind.Float, ReductionOperator.SUM, false));
    }

    @Test
    void orderedKernelsFoldEachChunkThenEachKeysColumnInOrder() {
        KernelGraph key = function((Function<Float, Integer>) x -> (int) (float) x & 7, Float.class, Integer.class);
        KernelGraph value = function((Function<Float, Float>) x -> x * 2f, Float.class, Float.class);
        KernelGraph sum = combiner((BinaryOperator<Float>) Float::sum, Float.class);
        KeyedReduceKernels kernels = new KeyedReduceKernels(new OpenCLKernelGenerator());
        KernelSource chunks = kernels.chunks(key, value, sum, List.of(JavaKind.Float), List.of(JavaKind.Float));
        assertTrue(chunks.text().contains("for (long i = start; i < end; i++)") && chunks.text().contains("partial0[row + k] = (float) t0;"), chunks.text());
        assertEquals(List.of(KernelParameter.Role.INPUT_BUFFER, KernelParameter.Role.IDENTITY, KernelParameter.Role.PARTIAL_BUFFER, KernelParameter.Role.KEY_COUNT,
                        KernelParameter.Role.LEAF_WIDTH, KernelParameter.Role.LENGTH, KernelParameter.Role.STATUS), roles(chunks));
        KernelSource combine = kernels.combineChunks(sum, List.of(JavaKind.Float));
        assertTrue(combine.text().contains("for (long c = 0; c < chunks; c++)") && combine.text().contains("in0[c * keyCount + k]"), combine.text());
    }
}
