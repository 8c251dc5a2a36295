package jpai.ocl;

import static jpai.ocl.KernelTestSupport.assertMapEqualsJava;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.function.Function;

import org.junit.jupiter.api.Test;

import jdk.graal.compiler.nodes.extended.IntegerSwitchNode;
import jpai.compiler.KernelGraph;
import jpai.compiler.ValueShape;

/** Java switch statements and expressions on ints (tableswitch and lookupswitch) run on the device. */
class SwitchOnDeviceTest {

    static final int[] INPUTS = {-7, -1, 0, 1, 2, 3, 4, 5, 6, 9, 100, 1000, 65, 97, Integer.MIN_VALUE, Integer.MAX_VALUE};

    @Test
    void denseSwitchWithFallThroughAndDefault() {
        Function<Integer, Integer> f = x -> {
            int r = 0;
            switch (x) {
                case 0:
                    r += 10;
                case 1:
                    r += 1;
                    break;
                case 2:
                case 3:
                    r = x * 7;
                    break;
                case 4:
                    return -4;
                case 5:
                    r = 55;
                    break;
                default:
                    r = x + 1;
            }
            return r * 3;
        };
        assertKeepsSwitch(f, Integer.class);
        assertMapEqualsJava(f, Integer.class, Integer.class, INPUTS);
    }

    @Test
    void sparseSwitchWithExtremeKeys() {
        Function<Integer, Long> f = x -> switch (x) {
            case Integer.MIN_VALUE -> 1L;
            case -7 -> 2L;
            case 100 -> 3L;
            case 1000, 9 -> 4L;
            case Integer.MAX_VALUE -> 5L;
            default -> (long) x * 11;
        };
        assertKeepsSwitch(f, Long.class);
        assertMapEqualsJava(f, Integer.class, Long.class, INPUTS);
    }

    @Test
    void switchOnACharAndAByte() {
        Function<Integer, Integer> f = x -> {
            char c = (char) x.intValue();
            byte b = (byte) (x >> 1);
            int fromChar = switch (c) {
                case 'A' -> 1;
                case 'a' -> 2;
                case '\uffff' -> 3;
                default -> 0;
            };
            int fromByte = switch (b) {
                case -1 -> 10;
                case 50 -> 20;
                case 127 -> 30;
                default -> 40;
            };
            return fromChar * 100 + fromByte;
        };
        assertMapEqualsJava(f, Integer.class, Integer.class, INPUTS);
    }

    @Test
    void switchInALoopWithContinueBreakAndReturn() {
        Function<Integer, Integer> f = x -> {
            int sum = 0;
            for (int i = 0; i < 12; i++) {
                switch ((x + i) & 7) {
                    case 0:
                        continue;
                    case 1:
                        sum += 3;
                        break;
                    case 2:
                        sum *= 2;
                        break;
                    case 5:
                        if (sum > 40) {
                            return sum;
                        }
                        sum -= 1;
                        break;
                    case 7:
                        i++;
                        break;
                    default:
                        sum += i;
                }
                if (sum > 100) {
                    break;
                }
            }
            return sum;
        };
        assertKeepsSwitch(f, Integer.class);
        assertMapEqualsJava(f, Integer.class, Integer.class, INPUTS);
    }

    /** The kernel graph still has the switch (Graal did not turn it into ifs), so the test covers its emission. */
    private static void assertKeepsSwitch(Function<Integer, ?> f, Class<?> out) {
        KernelGraph graph = KernelTestSupport.compile(f, KernelTestSupport.FUNCTION_APPLY, List.of(ValueShape.ofBoxed(Integer.class)), ValueShape.ofBoxed(out));
        assertTrue(graph.graph().getNodes().filter(IntegerSwitchNode.class).isNotEmpty(), "no IntegerSwitchNode left");
    }
}
