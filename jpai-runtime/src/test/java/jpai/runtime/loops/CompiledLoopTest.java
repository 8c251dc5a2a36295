package jpai.runtime.loops;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.util.List;

import org.junit.jupiter.api.Test;

import jdk.vm.ci.meta.JavaKind;
import jpai.ocl.KernelParameter;
import jpai.ocl.KernelParameter.Role;
import jpai.ocl.KernelSource;

/**
 * When a loop counts as exiting only by its index checks: what the graph says ({@code IndexExits})
 * holds only if the kernel the backend wrote without those checks has no status left to write.
 */
class CompiledLoopTest {

    private static KernelSource kernel(Role status) {
        return new KernelSource("jpai_map", "/* text */", "", List.of(new KernelParameter(0, "n", Role.LENGTH, JavaKind.Long, 0),
                        new KernelParameter(1, "jpai_status", status, JavaKind.Int, 0)), List.of());
    }

    @Test
    void indexChecksAreTheOnlyExitsWhenTheUncheckedKernelWritesNoStatus() {
        List<Integer> lengths = List.of(0, 2);
        assertEquals(lengths, CompiledLoop.confirmedIndexExits(lengths, kernel(Role.STATUS), kernel(Role.UNWRITTEN_STATUS)));
    }

    @Test
    void anExitTheBackendAddedMakesTheLoopOneThatMayExitOtherwise() {
        // e.g. a division whose divisor had no zero check in the graph: the backend writes its own exit
        assertNull(CompiledLoop.confirmedIndexExits(List.of(1), kernel(Role.STATUS), kernel(Role.STATUS)));
        assertNull(CompiledLoop.confirmedIndexExits(List.of(), kernel(Role.STATUS), null), "no check in the graph, yet the kernel has a status to write");
    }

    @Test
    void aKernelWithNoExitAtAllStaysOne() {
        assertEquals(List.of(), CompiledLoop.confirmedIndexExits(List.of(), kernel(Role.UNWRITTEN_STATUS), null));
        assertNull(CompiledLoop.confirmedIndexExits(null, kernel(Role.STATUS), null));
    }

    @Test
    void aCallThatCannotExitRunsTheUncheckedKernelWhenThereIsOne() {
        KernelSource checked = kernel(Role.STATUS);
        KernelSource unchecked = kernel(Role.UNWRITTEN_STATUS);
        CompiledLoop loop = new CompiledLoop(checked, List.of(), List.of(), null, null, null, null, false, null, 0, List.of(), List.of(0), unchecked);
        assertSame(unchecked, loop.kernelFor(true));
        assertSame(checked, loop.kernelFor(false));
        CompiledLoop withoutVariant = new CompiledLoop(checked, List.of(), List.of(), null, null, null, null, false, null, 0, List.of(), null, null);
        assertSame(checked, withoutVariant.kernelFor(true));
    }
}
