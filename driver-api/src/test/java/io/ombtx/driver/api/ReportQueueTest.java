package io.ombtx.driver.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/** Reports leave the loop's thread, run in the order given, and are all run by the time close returns. */
class ReportQueueTest {

    @Test
    void everyReportRunsInOrderOffTheCallersThreadBeforeCloseReturns() {
        List<Integer> seen = new ArrayList<>(); // only the queue's thread writes it until close returns
        List<Thread> threads = new ArrayList<>();
        Thread caller = Thread.currentThread();
        ReportQueue queue = new ReportQueue("test-reports");
        for (int i = 0; i < 10_000; i++) {
            int n = i;
            queue.execute(() -> {
                seen.add(n);
                if (n == 0) {
                    threads.add(Thread.currentThread());
                }
            });
        }
        queue.close();
        assertEquals(IntStream.range(0, 10_000).boxed().toList(), seen);
        assertTrue(threads.get(0) != caller, "reports run on the queue's own thread");
    }

    @Test
    void afterCloseAReportRunsAtOnce() {
        ReportQueue queue = new ReportQueue("test-reports");
        queue.close();
        List<Thread> ran = new ArrayList<>();
        queue.execute(() -> ran.add(Thread.currentThread()));
        assertEquals(List.of(Thread.currentThread()), ran);
    }
}
