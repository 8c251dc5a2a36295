package jpai.runtime;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** {@link CostModel}'s choices from given measurements (no device, no clock). */
class CostModelTest {

    @Test
    void millisecondsHaveThreeDecimals() {
        org.junit.jupiter.api.Assertions.assertEquals("0.009", CostModel.millis(9_000));
        org.junit.jupiter.api.Assertions.assertEquals("1.100", CostModel.millis(1_100_000));
        org.junit.jupiter.api.Assertions.assertEquals("182.342", CostModel.millis(182_341_700));
        org.junit.jupiter.api.Assertions.assertEquals("0.050", CostModel.millis(50_400));
    }

    @Test
    void theDeviceRunsUntilItIsMeasured() {
        CostModel model = new CostModel();
        model.javaRan(1000, 1_000);
        assertFalse(model.choose(1000, true).onJava(), "the device is measured first");
    }

    @Test
    void theSidePredictedFasterRunsAndTheOtherIsMeasuredAgainNowAndThen() {
        CostModel model = new CostModel();
        model.javaRan(1_000_000, 2_000_000); // 2 ns per element
        model.deviceRan(1_000_000, 50_000_000, 100_000); // a first launch: not trusted
        assertFalse(model.choose(1000, true).onJava(), "the device is measured twice first");
        model.deviceRan(1_000_000, 500_000, 100_000); // 400 us on the host, 0.1 ns per element
        // 1,000 elements: Java 2 us, the device 400 us
        CostModel.Choice small = model.choose(1000, true);
        assertTrue(small.onJava() && !small.measuring(), small.why());
        // 10^7 elements: Java 20 ms, the device 1.4 ms
        CostModel.Choice large = model.choose(10_000_000, true);
        assertFalse(large.onJava(), large.why());
        int remeasures = 0;
        for (int i = 0; i < 4 * CostModel.REMEASURE_EVERY; i++) {
            CostModel.Choice choice = model.choose(10_000_000, true);
            if (choice.onJava()) {
                assertTrue(choice.measuring() && choice.sharesWithDevice(), "Java runs only to be measured, for the device's time: " + choice.why());
                remeasures++;
            }
        }
        assertTrue(remeasures >= 3 && remeasures <= 5, "Java re-measured every " + CostModel.REMEASURE_EVERY + " applies: " + remeasures);
    }

    @Test
    void aKernelWhoseBitsDifferIsNeverSharedAndJavaIsReMeasuredOnlyWhenClose() {
        CostModel model = new CostModel();
        model.javaRan(1_000_000, 100_000_000); // 100 ns per element
        model.deviceRan(1_000_000, 1_000_000, 900_000);
        model.deviceRan(1_000_000, 1_000_000, 900_000);
        int measures = 0;
        for (int i = 0; i < 4000; i++) {
            if (model.choose(1_000_000, false).onJava()) {
                measures++;
                assertTrue(i >= 1900, "Java 100x slower is measured again only after 20x its time on the device: apply " + i);
            }
        }
        assertTrue(measures == 1 || measures == 2, "amortised re-measures: " + measures);
        CostModel close = new CostModel();
        close.javaRan(1_000_000, 1_500_000);
        close.deviceRan(1_000_000, 1_000_000, 900_000);
        close.deviceRan(1_000_000, 1_000_000, 900_000);
        boolean measured = false;
        for (int i = 0; i < 2 * CostModel.REMEASURE_EVERY; i++) {
            CostModel.Choice choice = close.choose(1_000_000, false);
            assertFalse(choice.sharesWithDevice(), "never shared");
            measured |= choice.onJava();
        }
        assertTrue(measured, "Java within " + CostModel.FULL_REMEASURE_WITHIN + "x of the device is measured again, whole");
        CostModel shareable = new CostModel();
        shareable.javaRan(1_000_000, 1_500_000);
        shareable.deviceRan(1_000_000, 1_000_000, 900_000);
        shareable.deviceRan(1_000_000, 1_000_000, 900_000);
        for (int i = 0; i < 2 * CostModel.REMEASURE_EVERY; i++) {
            assertFalse(shareable.choose(1_000_000, true).sharesWithDevice(), "a close call is measured whole, even where it could be shared");
        }
    }

    @Test
    void javaNeverMeasuredIsMeasuredOnceTheDeviceRanASecond() {
        CostModel model = new CostModel();
        model.deviceRan(1000, 1_000_000, 10_000);
        model.deviceRan(1000, 1_000_000, 10_000); // 1 ms an apply
        int firstOnJava = -1;
        for (int i = 0; i < 2000 && firstOnJava < 0; i++) {
            if (model.choose(1000, false).onJava()) {
                firstOnJava = i;
            }
        }
        assertTrue(firstOnJava >= 999 && firstOnJava <= 1001, "after a second of the device's time: apply " + firstOnJava);
    }

    @Test
    void theSideChangesAsMeasurementsDo() {
        CostModel model = new CostModel();
        model.javaRan(1000, 100_000);
        model.deviceRan(1000, 50_000, 10_000);
        model.deviceRan(1000, 50_000, 10_000);
        assertFalse(model.choose(1000, true).onJava());
        model.javaRan(1000, 10_000); // Java's code got compiled: 10 us now
        CostModel.Choice choice = model.choose(1000, true);
        assertTrue(choice.onJava() && choice.sideChanged(), choice.why());
    }
}
