package jpai.examples;

import java.util.Random;
import java.util.function.Function;

import jpai.AF;
import jpai.ArrayFunction;
import jpai.Executor;
import jpai.PArray;
import jpai.Tuple6;

/**
 * One step of the N-Body simulation as in the thesis: for each body, the acceleration from all
 * bodies (softened), then its new position and velocity. The bodies' state is captured by the lambda
 * as Java arrays; the map runs over body indices.
 */
final class NBody implements ThesisProgram {

    private final PArray<Integer> bodies;
    private final ArrayFunction<Integer, Tuple6<Float, Float, Float, Float, Float, Float>> step;
    /** The lambda the function maps, for the compile-time benchmark. */
    final Function<Integer, Tuple6<Float, Float, Float, Float, Float, Float>> stepFunction;

    NBody(int size, long seed) {
        Random random = new Random(seed);
        float[] px = new float[size];
        float[] py = new float[size];
        float[] pz = new float[size];
        float[] vx = new float[size];
        float[] vy = new float[size];
        float[] vz = new float[size];
        float[] mass = new float[size];
        int[] indices = new int[size];
        for (int i = 0; i < size; i++) {
            px[i] = random.nextFloat() * 2f - 1f;
            py[i] = random.nextFloat() * 2f - 1f;
            pz[i] = random.nextFloat() * 2f - 1f;
            vx[i] = random.nextFloat() * 0.01f;
            vy[i] = random.nextFloat() * 0.01f;
            vz[i] = random.nextFloat() * 0.01f;
            mass[i] = 0.5f + random.nextFloat();
            indices[i] = i;
        }
        bodies = PArray.of(indices);
        float dt = 0.005f;
        float softening = 1e-4f;
        step = AF.map(stepFunction = (Integer i) -> {
            float xi = px[i];
            float yi = py[i];
            float zi = pz[i];
            float ax = 0f;
            float ay = 0f;
            float az = 0f;
            for (int j = 0; j < px.length; j++) {
                float dx = px[j] - xi;
                float dy = py[j] - yi;
                float dz = pz[j] - zi;
                float distanceSquared = dx * dx + dy * dy + dz * dz + softening;
                float inverse = 1.0f / (float) Math.sqrt(distanceSquared);
                float strength = mass[j] * inverse * inverse * inverse;
                ax += strength * dx;
                ay += strength * dy;
                az += strength * dz;
            }
            float nvx = vx[i] + dt * ax;
            float nvy = vy[i] + dt * ay;
            float nvz = vz[i] + dt * az;
            return new Tuple6<>(xi + dt * nvx, yi + dt * nvy, zi + dt * nvz, nvx, nvy, nvz);
        });
    }

    @Override
    public String name() {
        return "N-Body";
    }

    @Override
    public String check() {
        return "bit-exact (sqrt and division are correctly rounded, no contraction)";
    }

    @Override
    public PArray<?> run(Executor executor) {
        return step.on(executor).apply(bodies);
    }

    @Override
    public String compare(PArray<?> reference, PArray<?> actual) {
        return ThesisProgram.compareExactly(reference, actual);
    }

    @Override
    public void close() {
        bodies.close();
    }
}
