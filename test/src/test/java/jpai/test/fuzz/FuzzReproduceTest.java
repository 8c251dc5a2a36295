package jpai.test.fuzz;

import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

/**
 * Reruns one program of a fuzz run, as the JUnit form of {@code bin/jpai fuzz --seed S --program I}:
 * <pre>
 * JPAI_EXPECT_OPENCL=1 mvn -B -q -pl test -am verify -Dtest=FuzzReproduceTest -Dsurefire.failIfNoSpecifiedTests=false \
 *     -Djpai.fuzz.seed=S -Djpai.fuzz.program=I [-Djpai.fuzz.features=all,-captures] [-Djpai.fuzz.elements=200:2000]
 * </pre>
 */
class FuzzReproduceTest {

    @Test
    @EnabledIfSystemProperty(named = "jpai.fuzz.program", matches = "\\d+")
    void reproduce() {
        long seed = Long.parseLong(System.getProperty("jpai.fuzz.seed", "0"));
        int program = Integer.parseInt(System.getProperty("jpai.fuzz.program"));
        String[] elements = System.getProperty("jpai.fuzz.elements", "200:2000").split(":");
        Fuzzer.Config config = new Fuzzer.Config(seed, program, 1, Feature.parse(System.getProperty("jpai.fuzz.features", "all")), Integer.parseInt(elements[0]),
                        Integer.parseInt(elements[elements.length - 1]), 1, true, FuzzCiTest.openCLExpected(), 300);
        Fuzzer fuzzer = new Fuzzer(config, System.out);
        System.out.print(fuzzer.program(program).numberedSource());
        Fuzzer.Summary summary = fuzzer.run();
        summary.print(System.out);
        assertTrue(summary.bugs.isEmpty(), summary.line());
    }
}
