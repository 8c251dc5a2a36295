package com.example;

import jpai.AF;
import jpai.ArrayFunction;
import jpai.PArray;
import jpai.Tuple2;

/** z = a * x + y on the OpenCL device, checked against the same loop in Java. */
public final class Saxpy {

    private Saxpy() {
    }

    /** a * x[i] + y[i] for every i, computed by JPAI. */
    public static float[] saxpy(float a, float[] x, float[] y) {
        ArrayFunction<Tuple2<Float, Float>, Float> function = AF.<Float, Float>zip2().map(t -> a * t._1() + t._2());
        try (PArray<Float> xs = PArray.of(x); PArray<Float> ys = PArray.of(y); PArray<Float> z = function.apply(PArray.zip(xs, ys))) {
            return z.toFloatArray();
        }
    }

    public static void main(String[] args) {
        int n = 1 << 16;
        float[] x = new float[n];
        float[] y = new float[n];
        for (int i = 0; i < n; i++) {
            x[i] = i;
            y[i] = n - i;
        }
        float[] z = saxpy(2.5f, x, y);
        int wrong = 0;
        for (int i = 0; i < n; i++) {
            if (z[i] != 2.5f * x[i] + y[i]) {
                wrong++;
            }
        }
        System.out.println("saxpy of " + n + " floats: " + (wrong == 0 ? "matches Java" : wrong + " elements differ from Java") + "; ran on "
                        + AF.lastProfile().device() + ", kernels launched: " + AF.lastProfile().kernelCount());
        if (wrong != 0) {
            System.exit(1);
        }
    }
}
