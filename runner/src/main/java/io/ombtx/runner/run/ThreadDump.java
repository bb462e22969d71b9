package io.ombtx.runner.run;

import io.ombtx.runner.worker.LocalWorker;
import java.lang.management.LockInfo;
import java.lang.management.ManagementFactory;
import java.lang.management.MonitorInfo;
import java.lang.management.ThreadInfo;
import java.time.Instant;

/**
 * The stacks of this JVM's threads, taken when a run stops making progress: with a worker in this JVM (the local
 * worker), they show where its loop waits (in the driver, in the client, on a lock) when nothing else would. Whole
 * stacks with the locks each thread holds and waits for, as {@code jstack -l} prints them ({@link
 * ThreadInfo#toString()} cuts each stack at eight frames).
 */
final class ThreadDump {
    private ThreadDump() {}

    /** The dump, or null when no member of {@code group} runs in this JVM (its threads would say nothing). */
    static String ifLocal(WorkerGroup group, String why) {
        boolean local = group.members().stream().anyMatch(m -> m.worker() instanceof LocalWorker);
        return local ? of(why) : null;
    }

    static String of(String why) {
        StringBuilder out = new StringBuilder()
                .append("Threads of the run's JVM (its local worker's among them) at ")
                .append(Instant.now())
                .append(": ")
                .append(why)
                .append("\n\n");
        for (ThreadInfo t : ManagementFactory.getThreadMXBean().dumpAllThreads(true, true)) {
            out.append('"').append(t.getThreadName()).append("\" #").append(t.getThreadId());
            out.append(t.isDaemon() ? " daemon" : "").append(' ').append(t.getThreadState());
            if (t.getLockName() != null) {
                out.append(" on ").append(t.getLockName());
                if (t.getLockOwnerName() != null) {
                    out.append(" owned by \"")
                            .append(t.getLockOwnerName())
                            .append("\" #")
                            .append(t.getLockOwnerId());
                }
            }
            out.append('\n');
            StackTraceElement[] stack = t.getStackTrace();
            for (int i = 0; i < stack.length; i++) {
                out.append("\tat ").append(stack[i]).append('\n');
                for (MonitorInfo m : t.getLockedMonitors()) {
                    if (m.getLockedStackDepth() == i) {
                        out.append("\t- locked ").append(m).append('\n');
                    }
                }
            }
            LockInfo[] synchronizers = t.getLockedSynchronizers();
            if (synchronizers.length > 0) {
                out.append("\tLocked synchronizers:\n");
                for (LockInfo s : synchronizers) {
                    out.append("\t- ").append(s).append('\n');
                }
            }
            out.append('\n');
        }
        return out.toString();
    }
}
