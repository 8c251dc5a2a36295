package jpai.test.api;

/**
 * Elements that take a while in Java and give the same bits on the device: chains of float
 * multiply-adds (no {@code Math} function, no fused multiply-add in the kernel), for tests whose
 * Java threads must be busy long enough for something to happen meanwhile (tiering's takeover, the
 * cost model's choice).
 */
final class SlowElements {

    private SlowElements() {
    }

    /** {@code steps} multiply-adds from {@code x}. */
    static float chain(float x, int steps) {
        float s = x;
        for (int k = 0; k < steps; k++) {
            s = s * 0.99990f + 0.5f;
        }
        return s;
    }
}
