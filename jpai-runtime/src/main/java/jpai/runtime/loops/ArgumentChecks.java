package jpai.runtime.loops;

import java.lang.reflect.Method;
import java.util.Map;

import jdk.vm.ci.meta.JavaKind;
import jpai.PArray;

/**
 * What a call's arguments must be for the kernel to give Java's result, checked before each launch:
 * no array argument null (Java throws where the method uses it; the original body does that), no
 * array reachable twice (one iteration's write could be another's read, which the compiler could not
 * see; two {@code PArray}s that are views of one storage count as one, and so does a row of a 2-D
 * array that is also another row or argument), each Java array small enough to come back in one
 * piece, each 2-D array rectangular ({@link RectangularArguments}) and each {@code PArray} as
 * {@link PArrayParameters#problem} wants it.
 */
final class ArgumentChecks {

    private ArgumentChecks() {
    }

    /**
     * Why {@code arguments} (the method's declared ones, without an instance method's receiver)
     * cannot run on the device, or null when they can; {@code seen} gets every array they hold, by
     * identity, with what holds it ("its argument 2").
     */
    static String problem(Method body, Object[] arguments, Map<Object, String> seen) {
        Class<?>[] types = body.getParameterTypes();
        for (int k = 0; k < arguments.length; k++) {
            Class<?> type = types[k];
            boolean pArray = type == PArray.class;
            if (!type.isArray() && !pArray) {
                continue;
            }
            Object argument = arguments[k];
            if (argument == null) {
                return "its argument " + (k + 1) + " (a " + type.getSimpleName() + ") is null";
            }
            Object storage = argument;
            if (pArray) {
                JavaKind kind = PArrayParameters.declaredElementKind(body, k);
                String problem = kind == null ? "its parameter " + (k + 1) + " is a PArray without a scalar element type" : PArrayParameters.problem(k, kind, (PArray<?>) argument);
                if (problem != null) {
                    return problem;
                }
                storage = PArrayParameters.storage((PArray<?>) argument);
            } else if (!type.getComponentType().isArray() && !ArrayReadBack.fits(argument)) {
                return "its argument " + (k + 1) + " has more than 2^31 - 1 bytes, more than one copy back takes";
            }
            String which = "its argument " + (k + 1);
            String other = seen.putIfAbsent(storage, which);
            if (other != null) {
                return other + " and " + which + " are the same array, so an iteration may read what another writes";
            }
            if (argument instanceof Object[] rows) {
                String problem = RectangularArguments.problem(which, rows, seen);
                if (problem != null) {
                    return problem;
                }
            }
        }
        return null;
    }
}
