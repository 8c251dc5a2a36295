package jpai.ocl;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Function;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;

import jpai.compiler.KernelBailoutException;

/**
 * Issue 11: why a lambda cannot run on the device is said in Java's terms (the construct and the
 * source line), never with a Graal node class name.
 */
class FallbackReasonsTest {

    /** Graal's node classes ("ValuePhiNode", "LoadIndexed", "CommitAllocation", ...) as they would leak into a message. */
    private static final Pattern GRAAL_NAMES = Pattern.compile("\\b\\w+Node\\b|ValuePhi|LoadIndexed|StoreIndexed|CommitAllocation|MonitorEnter|InvokeWithException|MethodCallTarget|\\bInvoke\\b| yet\\b");

    private static final Object LOCK = new Object();

    static int fib(int n) {
        return n < 2 ? n : fib(n - 1) + fib(n - 2);
    }

    @Test
    void reasonsNameTheJavaConstructAndLine() {
        Map<String, Function<Integer, Integer>> cases = new LinkedHashMap<>();
        cases.put("recursion in FallbackReasonsTest.fib", x -> fib(x));
        cases.put("synchronized", x -> {
            synchronized (LOCK) {
                return x + 1;
            }
        });
        cases.put("allocating Object objects", x -> new Object().hashCode() + x);
        cases.put("an array whose length is not a constant", x -> Integer.toString(x).length());
        for (Map.Entry<String, Function<Integer, Integer>> c : cases.entrySet()) {
            KernelBailoutException e = assertThrows(KernelBailoutException.class, () -> KernelTestSupport.map(c.getValue(), Integer.class, Integer.class), c.getKey());
            String message = e.getMessage();
            assertTrue(message.contains(c.getKey()), "names the construct '" + c.getKey() + "': " + message);
            assertTrue(message.contains("(at FallbackReasonsTest"), "says where: " + message);
            assertFalse(GRAAL_NAMES.matcher(message).find(), "no Graal node names: " + message);
        }
    }
}
