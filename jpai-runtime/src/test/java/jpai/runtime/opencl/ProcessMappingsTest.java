package jpai.runtime.opencl;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/**
 * The guard against PoCL's abort when the process runs out of memory mappings (PoCL 3.1 keeps a
 * kernel library mapped for every program it built; ManyFunctionsMemoryTest with 10,000 functions
 * ended the JVM there before the guard).
 */
class ProcessMappingsTest {

    @Test
    void aProgramIsRefusedOnlyWhenTheHeadroomIsGone() {
        long limit = 65_530;
        long headroom = ProcessMappings.headroom(limit);
        assertEquals(8191, headroom, "an eighth of the default limit");
        assertNull(ProcessMappings.refusal(limit - headroom - 1, limit));
        String refusal = ProcessMappings.refusal(limit - headroom, limit);
        assertNotNull(refusal);
        assertTrue(refusal.contains("vm.max_map_count") && refusal.contains(Long.toString(limit - headroom)), refusal);
        assertEquals(4096, ProcessMappings.headroom(10_000), "at least 4,096 on a small limit");
        assertNull(ProcessMappings.refusal(-1, limit), "unknown: not refused");
    }

    @Test
    void thisProcessIsFarFromItsLimit() {
        assertTrue(ProcessMappings.limit() == -1 || ProcessMappings.limit() > 4096,
                        "the limit read from /proc: " + ProcessMappings.limit());
        assertDoesNotThrow(ProcessMappings::checkBeforeBuild);
    }
}
