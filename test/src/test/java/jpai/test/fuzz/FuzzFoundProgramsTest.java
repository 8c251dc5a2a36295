package jpai.test.fuzz;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

/**
 * The generated programs that showed a bug (docs/fuzzing.md, "Bugs found"), rerun as they were
 * found: each must now show none (a match, a fallback with its reason, or the same exception).
 * The minimised regressions are in ocl-backend's FuzzerFoundBugsTest and jpai.test.api.FuzzerRegressionTest;
 * these keep the original programs, for the bugs whose minimised form did not reproduce them.
 */
class FuzzFoundProgramsTest {

    /** seed, program, elements (the run's range), what it showed. */
    private record Found(long seed, int program, int minElements, int maxElements, java.util.Set<Feature> features, String bug) {

        Found(long seed, int program, int minElements, int maxElements, String bug) {
            this(seed, program, minElements, maxElements, Feature.original(), bug);
        }
    }

    private static final List<Found> FOUND = List.of(
                    new Found(20261121L, 211, 64, 256, "OpenCL rejected: undeclared label (merge after a loop emitted inside it)"),
                    new Found(20261121L, 302, 64, 256, "OpenCL rejected: undeclared label (merge after a loop emitted inside it)"),
                    new Found(42L, 133, 200, 2000, "Math.pow(-1, infinity) was 1.0"),
                    new Found(42L, 610, 200, 2000, "Math.copySign with a NaN sign (generator now uses StrictMath.copySign)"),
                    new Found(42L, 5854, 200, 2000, "floor of a NaN in a loop miscompiled by PoCL's LLVM"),
                    new Found(42L, 6945, 200, 2000, "OpenCL rejected: redefinition of a local array materialised on two paths"),
                    new Found(42L, 7743, 200, 2000, "IllegalArgumentException 'no unsigned form of bool': a boolean narrowed to 1 bit and zero-extended"),
                    new Found(20261128L, 6688, 200, 2000, Feature.all(), "NVIDIA: a polynomial-hash reduction of a constant pair of longs differed"),
                    new Found(20261130L, 2610, 200, 2000, Feature.all(), "NVIDIA: (int) Math.abs((long) MIN_VALUE) was 2^31"),
                    new Found(20261131L, 1391, 200, 2000, Feature.all(), "NVIDIA: a max-reduction of non-positive values gave 65534"),
                    new Found(20261126L, 92, 200, 2000, Feature.all(), "NVIDIA: (short) ~(p * Integer.MAX_VALUE) < -1 was true for p = -32768 (a narrowing taken for a 16-bit sign extension)"),
                    new Found(20261139L, 4710, 200, 2000, Feature.all(), "PoCL: the build of a reduction whose mapper has a loop ran for over 5 minutes (16 unrolled copies of the mapper)"));

    @Test
    void foundProgramsShowNoBug() {
        List<String> bugs = new ArrayList<>();
        for (Found found : FOUND) {
            Fuzzer.Config config = new Fuzzer.Config(found.seed(), found.program(), 1, found.features(), found.minElements(), found.maxElements(), 1, false, FuzzCiTest.openCLExpected(), 300);
            Fuzzer.Summary summary = new Fuzzer(config, System.out).run();
            System.out.println(summary.line());
            if (!summary.bugs.isEmpty()) {
                bugs.add("seed " + found.seed() + " program " + found.program() + " (" + found.bug() + "): " + summary.bugs.get(0).category() + " " + summary.bugs.get(0).detail());
            }
        }
        assertTrue(bugs.isEmpty(), String.join("\n", bugs));
    }
}
