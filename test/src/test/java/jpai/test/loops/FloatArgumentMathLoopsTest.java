package jpai.test.loops;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Random;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfEnvironmentVariable;

import jpai.AF;
import jpai.Accelerate;
import jpai.Parallel;
import jpai.compiler.MathFunctions;
import jpai.runtime.opencl.KernelLaunches;

/**
 * An accelerated loop computes {@code (float) Math.sin/cos/exp/log} of floats as a lambda does: with
 * {@code -Djpai.math=java-float} (a GPU's default) from the float, with {@code java} (a CPU device's)
 * by FdLibm alone; both give {@code (float) StrictMath}'s bits on the device.
 */
@EnabledIfEnvironmentVariable(named = "JPAI_EXPECT_OPENCL", matches = "1")
class FloatArgumentMathLoopsTest extends WithTheAgent {

    /** 1/15! as kernels print it: the float path's sine polynomial has it, FdLibm's does not. */
    private static final String FLOAT_PATH_MARK = "0x1.ae7f3e733b81fp-41";

    @Accelerate
    static void transcendentals(float[] x, float[] out) {
        for (@Parallel int i = 0; i < out.length; i++) {
            out[i] = (float) Math.sin(x[i]) + 2f * (float) Math.cos(x[i]) - (float) Math.exp(x[i] * 0.01f) + (float) Math.log(Math.abs(x[i]) + 1f);
        }
    }

    private static float strict(float x) {
        return (float) StrictMath.sin(x) + 2f * (float) StrictMath.cos(x) - (float) StrictMath.exp(x * 0.01f) + (float) StrictMath.log(Math.abs(x) + 1f);
    }

    @Test
    void bothChoicesGiveStrictMathsBitsAndJavaFloatComputesFromTheFloat() throws IOException {
        Random random = new Random(18);
        float[] x = new float[50_000];
        for (int i = 0; i < x.length; i++) {
            x[i] = (random.nextFloat() * 2 - 1) * (i % 2 == 0 ? 8_000f : 6f);
        }
        String previousMath = System.getProperty(MathFunctions.PROPERTY);
        String previousDump = System.getProperty("jpai.dump.opencl");
        try {
            for (MathFunctions math : new MathFunctions[] {MathFunctions.JAVA_FLOAT_ARGUMENTS, MathFunctions.JAVA}) {
                Path dump = Files.createTempDirectory("jpai-loop-math");
                System.setProperty(MathFunctions.PROPERTY, math.optionValue());
                System.setProperty("jpai.dump.opencl", dump.toString());
                float[] out = new float[x.length];
                long launches = KernelLaunches.count();
                transcendentals(x, out);
                assertTrue(KernelLaunches.count() > launches && !AF.lastProfile().fellBack(), math + ": the device ran: " + AF.lastProfile());
                for (int i = 0; i < x.length; i++) {
                    assertEquals(Float.floatToRawIntBits(strict(x[i])), Float.floatToRawIntBits(out[i]), math + ": element " + i + ", x = " + x[i]);
                }
                assertEquals(math == MathFunctions.JAVA_FLOAT_ARGUMENTS, kernelsContain(dump, FLOAT_PATH_MARK), math + ": the kernel computes from the float");
            }
        } finally {
            restore(MathFunctions.PROPERTY, previousMath);
            restore("jpai.dump.opencl", previousDump);
        }
    }

    private static boolean kernelsContain(Path dump, String text) {
        try (Stream<Path> files = Files.list(dump)) {
            return files.anyMatch(file -> {
                try {
                    return Files.readString(file).contains(text);
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            });
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void restore(String property, String value) {
        if (value == null) {
            System.clearProperty(property);
        } else {
            System.setProperty(property, value);
        }
    }
}
