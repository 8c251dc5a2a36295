package jpai.bench;

import java.util.List;
import java.util.Random;
import java.util.stream.IntStream;

import org.jocl.cl_kernel;
import org.jocl.cl_mem;

import com.aparapi.Kernel;

import jpai.AF;
import jpai.ArrayFunction;
import jpai.PArray;
import jpai.Tuple6;

/**
 * N-Body, float: one time step of the all-pairs gravitational simulation (softened), as in the
 * vendors' SDK samples: every body's acceleration from all bodies, then {@code v += a*dt},
 * {@code p += v*dt}, into new arrays (so every run does the same step).
 */
public final class NBody extends Program<NBody.Data> {

    static final float DT = 0.005f;
    static final float EPS2 = 0.01f;

    /** Positions, masses and velocities, structure of arrays. */
    public record Data(float[] x, float[] y, float[] z, float[] m, float[] vx, float[] vy, float[] vz) {
        int n() {
            return x.length;
        }
    }

    @Override
    public String name() {
        return "nbody";
    }

    @Override
    public String precision() {
        return "float";
    }

    @Override
    public String description() {
        return "one all-pairs time step of n bodies: new positions and velocities";
    }

    @Override
    public int size(SizeClass size) {
        return switch (size) {
            case TINY -> 256;
            case QUICK -> 1024;
            case SMALL -> 4096;
            case LARGE -> 16384;
        };
    }

    @Override
    public String sizeLabel(int n) {
        return n + " bodies";
    }

    @Override
    public Tolerance tolerance(int n) {
        return Tolerance.floats(1e-4, 1e-5);
    }

    @Override
    public String toleranceReason() {
        return "the OpenCL versions use rsqrt (as the SDK samples do) and may fuse multiply-adds; the sums run in the same order";
    }

    @Override
    public Data createData(int n, Random random) {
        float[][] a = new float[7][n];
        for (int i = 0; i < n; i++) {
            a[0][i] = random.nextFloat() * 2 - 1;
            a[1][i] = random.nextFloat() * 2 - 1;
            a[2][i] = random.nextFloat() * 2 - 1;
            a[3][i] = (0.5f + random.nextFloat()) / n;
            a[4][i] = (random.nextFloat() * 2 - 1) * 0.1f;
            a[5][i] = (random.nextFloat() * 2 - 1) * 0.1f;
            a[6][i] = (random.nextFloat() * 2 - 1) * 0.1f;
        }
        return new Data(a[0], a[1], a[2], a[3], a[4], a[5], a[6]);
    }

    /** The new state of body {@code i}, written to {@code out[0..5][i]} (x, y, z, vx, vy, vz). */
    static void step(Data d, float[][] out, int i) {
        float[] x = d.x();
        float[] y = d.y();
        float[] z = d.z();
        float[] m = d.m();
        float px = x[i];
        float py = y[i];
        float pz = z[i];
        float ax = 0;
        float ay = 0;
        float az = 0;
        for (int j = 0; j < x.length; j++) {
            float dx = x[j] - px;
            float dy = y[j] - py;
            float dz = z[j] - pz;
            float d2 = dx * dx + dy * dy + dz * dz + EPS2;
            float inv = 1.0f / (float) Math.sqrt(d2);
            float s = m[j] * inv * inv * inv;
            ax += s * dx;
            ay += s * dy;
            az += s * dz;
        }
        float vx = d.vx()[i] + ax * DT;
        float vy = d.vy()[i] + ay * DT;
        float vz = d.vz()[i] + az * DT;
        out[0][i] = px + vx * DT;
        out[1][i] = py + vy * DT;
        out[2][i] = pz + vz * DT;
        out[3][i] = vx;
        out[4][i] = vy;
        out[5][i] = vz;
    }

    private static Output output(float[][] out) {
        return Output.of("x", out[0].clone(), "y", out[1].clone(), "z", out[2].clone(), "vx", out[3].clone(), "vy", out[4].clone(), "vz", out[5].clone());
    }

    @Override
    public Run sequential(Data d) {
        float[][] out = new float[6][d.n()];
        return Run.java(() -> {
            for (int i = 0; i < d.n(); i++) {
                step(d, out, i);
            }
        }, () -> output(out), "Java: 1 thread");
    }

    @Override
    public Run streams(Data d) {
        float[][] out = new float[6][d.n()];
        return Run.java(() -> IntStream.range(0, d.n()).parallel().forEach(i -> step(d, out, i)), () -> output(out), "Java: fork/join pool");
    }

    /**
     * One map over body indices returning {@code new Tuple6<>(x', y', z', vx', vy', vz')}, capturing
     * the position, mass and velocity arrays as {@code PArray}s (resident on the device: sent by the
     * first apply, not again while unchanged); results read into six Java arrays.
     */
    @Override
    public Run jpai(Data d) {
        int n = d.n();
        PArray<Float> x = PArray.of(d.x());
        PArray<Float> y = PArray.of(d.y());
        PArray<Float> z = PArray.of(d.z());
        PArray<Float> m = PArray.of(d.m());
        PArray<Float> vx = PArray.of(d.vx());
        PArray<Float> vy = PArray.of(d.vy());
        PArray<Float> vz = PArray.of(d.vz());
        PArray<Integer> bodies = JpaiRun.indices(n);
        float[][] out = new float[6][n];
        ArrayFunction<Integer, Tuple6<Float, Float, Float, Float, Float, Float>> step = JpaiRun.placed(AF.map((Integer i) -> {
            float px = x.get(i);
            float py = y.get(i);
            float pz = z.get(i);
            float ax = 0;
            float ay = 0;
            float az = 0;
            for (int j = 0; j < n; j++) {
                float dx = x.get(j) - px;
                float dy = y.get(j) - py;
                float dz = z.get(j) - pz;
                float d2 = dx * dx + dy * dy + dz * dz + EPS2;
                float inv = 1.0f / (float) Math.sqrt(d2);
                float s = m.get(j) * inv * inv * inv;
                ax += s * dx;
                ay += s * dy;
                az += s * dz;
            }
            float nvx = vx.get(i) + ax * DT;
            float nvy = vy.get(i) + ay * DT;
            float nvz = vz.get(i) + az * DT;
            return new Tuple6<>(px + nvx * DT, py + nvy * DT, pz + nvz * DT, nvx, nvy, nvz);
        }));
        return new JpaiRun(List.of(bodies, x, y, z, m, vx, vy, vz), () -> List.of(step.apply(bodies)), results -> {
            for (int c = 0; c < 6; c++) {
                JpaiRun.copy(results.get(0), c, out[c]);
            }
        }, () -> output(out), "map over body indices returning Tuple6, capturing x, y, z, m, vx, vy, vz as resident PArrays");
    }

    /** The SDK samples' tiled kernel, in OpenCL's precision: {@code rsqrt}, contraction allowed. */
    private static final String KERNEL = """
                __kernel void nbody(__global const float4* pos, __global const float4* vel, __global float4* newPos, __global float4* newVel,
                                    __local float4* tile, const int n, const float dt, const float eps2) {
                    int i = get_global_id(0);
                    int lid = get_local_id(0);
                    int tileSize = get_local_size(0);
                    float4 p = i < n ? pos[i] : (float4)(0.0f);
                    float3 acc = (float3)(0.0f);
                    for (int start = 0; start < n; start += tileSize) {
                        int j = start + lid;
                        tile[lid] = j < n ? pos[j] : (float4)(0.0f);
                        barrier(CLK_LOCAL_MEM_FENCE);
                        for (int k = 0; k < tileSize; k++) {
                            float4 q = tile[k];
                            float3 d = q.xyz - p.xyz;
                            float d2 = d.x * d.x + d.y * d.y + d.z * d.z + eps2;
                            float inv = rsqrt(d2);
                            float s = q.w * inv * inv * inv;
                            acc += s * d;
                        }
                        barrier(CLK_LOCAL_MEM_FENCE);
                    }
                    if (i < n) {
                        float3 v = vel[i].xyz + acc * dt;
                        newVel[i] = (float4)(v, 0.0f);
                        newPos[i] = (float4)(p.xyz + v * dt, p.w);
                    }
                }
                """;

    /**
     * The tiled kernel as a programmer writes it for Java's results: {@code 1.0f / sqrt(d2)} with
     * float {@code /} and {@code sqrt} correctly rounded (a build option), no contraction, the
     * operations in Java's order, and no padded bodies in the sums (Java's loop stops at n).
     */
    private static final String EXACT_KERNEL = """
            #pragma OPENCL FP_CONTRACT OFF
            __kernel void nbody(__global const float4* pos, __global const float4* vel, __global float4* newPos, __global float4* newVel,
                                __local float4* tile, const int n, const float dt, const float eps2) {
                int i = get_global_id(0);
                int lid = get_local_id(0);
                int tileSize = get_local_size(0);
                float4 p = i < n ? pos[i] : (float4)(0.0f);
                float ax = 0.0f, ay = 0.0f, az = 0.0f;
                for (int start = 0; start < n; start += tileSize) {
                    int j = start + lid;
                    tile[lid] = j < n ? pos[j] : (float4)(0.0f);
                    barrier(CLK_LOCAL_MEM_FENCE);
                    int count = min(tileSize, n - start);
                    for (int k = 0; k < count; k++) {
                        float4 q = tile[k];
                        float dx = q.x - p.x;
                        float dy = q.y - p.y;
                        float dz = q.z - p.z;
                        float d2 = dx * dx + dy * dy + dz * dz + eps2;
                        float inv = 1.0f / sqrt(d2);
                        float s = q.w * inv * inv * inv;
                        ax += s * dx;
                        ay += s * dy;
                        az += s * dz;
                    }
                    barrier(CLK_LOCAL_MEM_FENCE);
                }
                if (i < n) {
                    float4 v0 = vel[i];
                    float vx = v0.x + ax * dt;
                    float vy = v0.y + ay * dt;
                    float vz = v0.z + az * dt;
                    newVel[i] = (float4)(vx, vy, vz, 0.0f);
                    newPos[i] = (float4)(p.x + vx * dt, p.y + vy * dt, p.z + vz * dt, p.w);
                }
            }
            """;

    @Override
    public Run openCL(Data d, Jocl cl) {
        return tiled(d, cl, KERNEL, "");
    }

    @Override
    public boolean hasExactOpenCL() {
        return true;
    }

    @Override
    public Run openCLExact(Data d, Jocl cl) {
        return tiled(d, cl, EXACT_KERNEL, cl.correctlyRoundedDivideSqrt());
    }

    private static Run tiled(Data d, Jocl cl, String source, String buildOptions) {
        int n = d.n();
        long bytes = 16L * n;
        Jocl.Pinned pos = cl.pinned(bytes);
        Jocl.Pinned vel = cl.pinned(bytes);
        Jocl.Pinned newPos = cl.pinned(bytes);
        Jocl.Pinned newVel = cl.pinned(bytes);
        for (int i = 0; i < n; i++) {
            pos.host().putFloat(16 * i, d.x()[i]).putFloat(16 * i + 4, d.y()[i]).putFloat(16 * i + 8, d.z()[i]).putFloat(16 * i + 12, d.m()[i]);
            vel.host().putFloat(16 * i, d.vx()[i]).putFloat(16 * i + 4, d.vy()[i]).putFloat(16 * i + 8, d.vz()[i]).putFloat(16 * i + 12, 0);
        }
        cl_mem dPos = cl.deviceBuffer(bytes);
        cl_mem dVel = cl.deviceBuffer(bytes);
        cl_mem dNewPos = cl.deviceBuffer(bytes);
        cl_mem dNewVel = cl.deviceBuffer(bytes);
        // The SDK samples' scheme: each work-group loads a tile of bodies into local memory, every
        // work-item accumulates that tile, and so on; bodies past n are padded with mass 0.
        cl_kernel kernel = cl.kernel(source, "nbody", buildOptions);
        long local = Math.min(256, cl.device().maxWorkGroupSize());
        Jocl.arg(kernel, 0, dPos);
        Jocl.arg(kernel, 1, dVel);
        Jocl.arg(kernel, 2, dNewPos);
        Jocl.arg(kernel, 3, dNewVel);
        Jocl.localArg(kernel, 4, 16 * local);
        Jocl.arg(kernel, 5, n);
        Jocl.arg(kernel, 6, DT);
        Jocl.arg(kernel, 7, EPS2);
        // The bodies stay on the device between calls, as JPAI keeps its captured PArrays there.
        cl.writeNow(dPos, pos);
        cl.writeNow(dVel, vel);
        return new OpenCLRun(cl, () -> {
            cl.launch(kernel, new long[] {Jocl.roundUp(n, local)}, new long[] {local});
            cl.read(newPos, dNewPos);
            cl.read(newVel, dNewVel);
            return cl.finish();
        }, () -> {
            float[][] out = new float[6][n];
            for (int i = 0; i < n; i++) {
                for (int c = 0; c < 3; c++) {
                    out[c][i] = newPos.host().getFloat(16 * i + 4 * c);
                    out[3 + c][i] = newVel.host().getFloat(16 * i + 4 * c);
                }
            }
            return output(out);
        });
    }

    /** As Aparapi's own N-Body sample: one work-item per body, structure of arrays, no local memory. */
    static final class NBodyKernel extends Kernel {
        float[] x, y, z, m, vx, vy, vz;
        float[] nx, ny, nz, nvx, nvy, nvz;
        int n;

        @Override
        public void run() {
            int i = getGlobalId();
            float px = x[i];
            float py = y[i];
            float pz = z[i];
            float ax = 0;
            float ay = 0;
            float az = 0;
            for (int j = 0; j < n; j++) {
                float dx = x[j] - px;
                float dy = y[j] - py;
                float dz = z[j] - pz;
                float d2 = dx * dx + dy * dy + dz * dz + EPS2;
                float inv = rsqrt(d2);
                float s = m[j] * inv * inv * inv;
                ax += s * dx;
                ay += s * dy;
                az += s * dz;
            }
            float ux = vx[i] + ax * DT;
            float uy = vy[i] + ay * DT;
            float uz = vz[i] + az * DT;
            nx[i] = px + ux * DT;
            ny[i] = py + uy * DT;
            nz[i] = pz + uz * DT;
            nvx[i] = ux;
            nvy[i] = uy;
            nvz[i] = uz;
        }
    }

    @Override
    public Run aparapi(Data d, AparapiSupport aparapi) {
        NBodyKernel k = new NBodyKernel();
        int n = d.n();
        k.n = n;
        k.x = d.x();
        k.y = d.y();
        k.z = d.z();
        k.m = d.m();
        k.vx = d.vx();
        k.vy = d.vy();
        k.vz = d.vz();
        k.nx = new float[n];
        k.ny = new float[n];
        k.nz = new float[n];
        k.nvx = new float[n];
        k.nvy = new float[n];
        k.nvz = new float[n];
        return new AparapiRun(aparapi, k, () -> k.put(k.x).put(k.y).put(k.z).put(k.m).put(k.vx).put(k.vy).put(k.vz),
                () -> k.get(k.nx).get(k.ny).get(k.nz).get(k.nvx).get(k.nvy).get(k.nvz),
                () -> output(new float[][] {k.nx, k.ny, k.nz, k.nvx, k.nvy, k.nvz}), aparapi.range(n));
    }
}
