package io.ombtx.runner.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ombtx.runner.plan.WorkerAssignment;
import io.ombtx.runner.worker.LocalWorker;
import io.ombtx.runner.worker.Worker;
import java.lang.reflect.Proxy;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * What a stalled run keeps of its JVM's threads: whole stacks (deeper than the eight frames {@code ThreadInfo}
 * prints), the monitor each frame holds, and what a blocked thread waits for and who holds it; taken only when a
 * worker runs in this JVM.
 */
class ThreadDumpTest {

    private final Object lock = new Object();
    private final CountDownLatch never = new CountDownLatch(1);
    private final CountDownLatch waiting = new CountDownLatch(1);

    private void deep(int frames) throws InterruptedException {
        if (frames > 0) {
            deep(frames - 1);
            return;
        }
        synchronized (lock) {
            waiting.countDown();
            never.await();
        }
    }

    private void blockedOnTheLock() {
        synchronized (lock) {
            never.countDown();
        }
    }

    @Test
    void aStalledThreadShowsItsWholeStackWhatItHoldsAndWhoWaitsForIt() throws Exception {
        Thread holder = new Thread(
                () -> {
                    try {
                        deep(12);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                },
                "stalled-loop");
        holder.setDaemon(true);
        holder.start();
        assertTrue(waiting.await(30, TimeUnit.SECONDS));
        Thread blocked = new Thread(this::blockedOnTheLock, "blocked-behind-it");
        blocked.setDaemon(true);
        blocked.start();
        while (blocked.getState() != Thread.State.BLOCKED) {
            Thread.onSpinWait(); // it reaches the monitor the holder keeps, and stays there
        }

        String dump = ThreadDump.of("no progress for 60 s (broker fault?)");

        assertTrue(dump.contains(": no progress for 60 s (broker fault?)\n"), dump);
        String stalled = section(dump, "stalled-loop");
        assertTrue(stalled.contains(" WAITING on java.util.concurrent.CountDownLatch$Sync@"), stalled);
        assertEquals(
                13,
                stalled.lines().filter(l -> l.contains("ThreadDumpTest.deep(")).count(),
                stalled);
        assertTrue(stalled.contains("\t- locked java.lang.Object@"), "the monitor held in deep(0): " + stalled);
        String behind = section(dump, "blocked-behind-it");
        assertTrue(behind.contains(" BLOCKED on java.lang.Object@"), behind);
        assertTrue(behind.contains("owned by \"stalled-loop\""), behind);
        assertTrue(behind.contains("ThreadDumpTest.blockedOnTheLock("), behind);
        holder.interrupt();
        holder.join(30_000);
        blocked.join(30_000);
    }

    /** A dump says nothing of a worker in another JVM (HTTP, a child JVM of another client): none is taken. */
    @Test
    void takenOnlyWithAWorkerInThisJvm() throws Exception {
        Worker remote = (Worker) Proxy.newProxyInstance(
                Worker.class.getClassLoader(), new Class<?>[] {Worker.class}, (proxy, method, args) -> null);
        WorkerAssignment assignment = new WorkerAssignment("w", 1, 0, 0, 0, 0, 0);
        try (WorkerGroup remoteOnly = new WorkerGroup(List.of(new WorkerGroup.Member(remote, assignment)))) {
            assertNull(ThreadDump.ifLocal(remoteOnly, "x"));
        }
        String dump;
        try (WorkerGroup withLocal = new WorkerGroup(List.of(
                new WorkerGroup.Member(remote, assignment), new WorkerGroup.Member(new LocalWorker(), assignment)))) {
            dump = ThreadDump.ifLocal(withLocal, "x"); // a group of two: closed, its call threads end
        }
        assertNotNull(dump);
        assertTrue(dump.contains("\"" + Thread.currentThread().getName() + "\""), dump);
    }

    /** The lines of one thread's entry in the dump. */
    private static String section(String dump, String thread) {
        int start = dump.indexOf("\"" + thread + "\"");
        assertTrue(start >= 0, thread + " is in the dump: " + dump);
        int end = dump.indexOf("\n\n", start);
        return dump.substring(start, end);
    }
}
