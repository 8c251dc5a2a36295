package jpai.runtime;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;

/** A tiered apply's deferred compilation starts after the apply, once, and never waits for ever. */
class CompilePoolTest {

    @Test
    void aDeferredCompilationStartsOnlyAfterTheApplyEnds() throws Exception {
        AtomicInteger runs = new AtomicInteger();
        CompletableFuture<Void> done = CompilePool.submitAfterApply(runs::incrementAndGet);
        Thread.sleep(AfterApply.AFTER_APPLY_NANOS / 1_000_000 * 2);
        assertFalse(done.isDone(), "the apply has not ended: nothing compiles beside its Java threads");
        long ended = System.nanoTime();
        AfterApply.applyEnded();
        done.get(10, TimeUnit.SECONDS);
        assertTrue(System.nanoTime() - ended >= AfterApply.AFTER_APPLY_NANOS, "it starts a while after the apply");
        AfterApply.applyEnded(); // a second end starts nothing more
        Thread.sleep(50);
        assertTrue(runs.get() == 1, "ran once, not " + runs.get() + " times");
    }

    @Test
    void aDeferredCompilationOfAnotherThreadIsNotStartedByThisOne() throws Exception {
        CountDownLatch deferred = new CountDownLatch(1);
        CompletableFuture<Void>[] done = new CompletableFuture[1];
        Thread apply = new Thread(() -> {
            done[0] = CompilePool.submitAfterApply(() -> {
            });
            deferred.countDown();
        });
        apply.start();
        deferred.await();
        apply.join();
        AfterApply.applyEnded();
        Thread.sleep(AfterApply.AFTER_APPLY_NANOS / 1_000_000 * 2);
        assertFalse(done[0].isDone(), "only its own apply's end starts it");
        // the thread ended without saying its apply had: the compilation still starts, at the latest after a few seconds
        done[0].get(15, TimeUnit.SECONDS);
    }
}
