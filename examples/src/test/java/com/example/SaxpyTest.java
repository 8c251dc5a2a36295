package com.example;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jpai.AF;
import org.junit.jupiter.api.Test;

/** Runs with -Djpai.fallback=error (the argLine): a fallback to Java is an exception, so passing means the device ran. */
class SaxpyTest {

    @Test
    void saxpyRunsOnTheDeviceAndMatchesJava() {
        float[] x = {1, 2, 3, 4};
        float[] y = {10, 20, 30, 40};
        assertArrayEquals(new float[] {12, 24, 36, 48}, Saxpy.saxpy(2, x, y));
        assertTrue(AF.lastProfile().kernelCount() > 0, "a kernel was launched: " + AF.lastProfile());
    }
}
