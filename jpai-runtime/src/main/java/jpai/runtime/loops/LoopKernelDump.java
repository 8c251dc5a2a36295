package jpai.runtime.loops;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import jpai.compiler.KernelGraph;
import jpai.ocl.KernelSource;
import jpai.runtime.Explain;
import jpai.runtime.JpaiOptions;

/** Writes an accelerated method's kernel under {@code -Djpai.dump.opencl=DIR}, as {@code DIR/<class>_<method>_<line>.jpai_map.cl}. */
final class LoopKernelDump {

    private LoopKernelDump() {
    }

    static void write(KernelGraph graph, KernelSource source) {
        write(graph, source, null);
    }

    /** As {@link #write(KernelGraph, KernelSource)}, {@code variant} (or null) before the extension: {@code ...jpai_map.unchecked.cl}. */
    static void write(KernelGraph graph, KernelSource source, String variant) {
        Path dir = JpaiOptions.dumpOpenCL();
        if (dir == null) {
            return;
        }
        try {
            Files.createDirectories(dir);
            Files.writeString(dir.resolve(graph.lambda().identifier() + "." + source.kernelName() + (variant == null ? "" : "." + variant) + ".cl"), source.text());
        } catch (IOException e) {
            Explain.notice("could not write the kernel dump to " + dir + ": " + e.getMessage());
        }
    }
}
