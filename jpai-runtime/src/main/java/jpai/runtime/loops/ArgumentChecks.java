package jpai.runtime.loops;

import java.lang.reflect.Method;

/**
 * What a call's arguments must be for the kernel to give Java's result, checked before each launch:
 * no array argument null (Java throws where the method uses it; the original body does that), no
 * array passed twice (one iteration's write could be another's read, which the compiler could not
 * see), and each array small enough to come back in one piece.
 */
final class ArgumentChecks {

    private ArgumentChecks() {
    }

    /** Why {@code arguments} cannot run on the device, or null when they can. */
    static String problem(Method body, Object[] arguments) {
        for (int k = 0; k < arguments.length; k++) {
            Class<?> type = body.getParameterTypes()[k];
            if (!type.isArray()) {
                continue;
            }
            Object array = arguments[k];
            if (array == null) {
                return "its argument " + (k + 1) + " (a " + type.getSimpleName() + ") is null";
            }
            if (!ArrayReadBack.fits(array)) {
                return "its argument " + (k + 1) + " has more than 2^31 - 1 bytes, more than one copy back takes";
            }
            for (int j = 0; j < k; j++) {
                if (arguments[j] == array) {
                    return "its arguments " + (j + 1) + " and " + (k + 1) + " are the same array, so an iteration may read what another writes";
                }
            }
        }
        return null;
    }
}
