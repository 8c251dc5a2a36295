import java.nio.*;
import java.nio.file.*;
import java.util.*;
import org.jocl.*;
import jpai.bench.Jocl;
import jpai.runtime.device.DeviceChoice;
import jpai.runtime.opencl.OpenCLRuntime;

public class FilterVariants {
    public static void main(String[] args) throws Exception {
        DeviceChoice.OpenCL device = (DeviceChoice.OpenCL) OpenCLRuntime.choice();
        int log2n = Integer.parseInt(args[0]);
        int n = 1 << log2n;
        float[] values = new float[n];
        int expected = 0;
        for (int i = 0; i < n; i++) { values[i] = (int) ((i * 2654435761L) % 1000) * 0.001f; if (values[i] > 0.5f) expected++; }
        try (Jocl jocl = Jocl.open(device.device())) {
            cl_mem in = jocl.deviceBuffer(4L * n);
            jocl.writeNow(in, values);
            cl_mem out = jocl.deviceBuffer(4L * n);
            cl_mem copyOut = jocl.deviceBuffer(4L * n);
            long copyNanos = Long.MAX_VALUE;
            for (int r = 0; r < 10; r++) copyNanos = Math.min(copyNanos, jocl.copyOnDevice(in, copyOut, 4L * n));
            System.out.printf("copy (clEnqueueCopyBuffer) 2^%d floats: %.3f ms%n", log2n, copyNanos / 1e6);
            cl_mem total = jocl.deviceBuffer(8);
            cl_mem status = jocl.deviceBuffer(8);
            Jocl.Pinned totalBack = jocl.pinned(8);
            for (String file : args[1].split(",")) {
                String source = Files.readString(Path.of(args[2], file));
                int perItem = Integer.parseInt(file.replaceAll(".*_(\\d+)\\.cl", "$1"));
                long local = Long.parseLong(args.length > 3 ? args[3] : "256");
                long groups = (n + local * perItem - 1) / (local * perItem);
                long wordInts = 2 + 4 * groups;
                cl_mem words = jocl.deviceBuffer(4L * wordInts);
                cl_kernel kernel = jocl.kernel(source, "jpai_filter");
                Jocl.arg(kernel, 0, in); Jocl.arg(kernel, 1, out); Jocl.arg(kernel, 2, words); Jocl.arg(kernel, 3, total);
                Jocl.localArg(kernel, 4, local * perItem + local * 4);
                boolean tiles = file.startsWith("A") || file.startsWith("C");
                Jocl.localArg(kernel, 5, tiles ? local * perItem * 4 : 4);
                Jocl.localArg(kernel, 6, tiles ? local * perItem * 4 : 4);
                CL.clSetKernelArg(kernel, 7, Sizeof.cl_long, Pointer.to(new long[] {n}));
                Jocl.arg(kernel, 8, status);
                List<Long> times = new ArrayList<>();
                long kept = -1;
                for (int r = 0; r < 25; r++) {
                    jocl.writeNow(words, new float[(int) wordInts]); // zeros
                    jocl.finish();
                    jocl.launch(kernel, new long[] {groups * local}, new long[] {local});
                    long t = jocl.finish();
                    if (r >= 5) times.add(t);
                    jocl.read(totalBack, total);
                    jocl.finish();
                    kept = totalBack.host().order(ByteOrder.nativeOrder()).getLong(0);
                }
                Collections.sort(times);
                double ms = times.get(times.size() / 2) / 1e6;
                System.out.printf("%s local %d: %.3f ms, kept %d (expected %d), %.1f%% of the copy's time-rate for 4n+4k bytes over 8n%n", file, local, ms, kept, expected,
                        100.0 * (copyNanos / 1e6) / ms * (4.0 * n + 4.0 * expected) / (8.0 * n));

            }
        }
    }
}
