package jpai.runtime.device;

/**
 * The child JVM of {@link SignalChainingTest}: loads the OpenCL platforms as the runtime does, then
 * tries an integer division by zero itself (independently of {@link SignalChaining}'s probe) and
 * prints what it saw, so the parent can check the runtime's warning against the truth.
 */
public final class SignalChainingProbe {

    private static volatile int zero;

    private SignalChainingProbe() {
    }

    public static void main(String[] args) {
        Discovery discovery = OpenCLPlatforms.discover();
        boolean threw;
        try {
            System.out.println("quotient=" + (7 / zero));
            threw = false;
        } catch (ArithmeticException e) {
            threw = true;
        }
        System.out.println("divisionThrows=" + threw);
        System.out.println("pocl=" + discovery.devices().stream().anyMatch(d -> d.platformName().equals(TestDevices.POCL)));
        System.out.println("state=" + SignalChaining.state());
    }
}
