package io.ombtx.broker;

import java.io.IOException;
import java.io.InputStream;

/**
 * Starts a real Kafka broker ({@code kafka.Kafka}) as a child of the omb-tx runner. The parent holds this
 * process's standard input open; when the parent exits for any reason (Ctrl-C, kill -9, a crash) the pipe
 * closes and the broker shuts down cleanly, so no broker outlives the run that started it.
 */
public final class ChildKafkaMain {

    private ChildKafkaMain() {
    }

    public static void main(String[] args) throws Exception {
        Thread watcher = new Thread(ChildKafkaMain::exitWhenParentGoes, "parent-watcher");
        watcher.setDaemon(true);
        watcher.start();
        kafka.Kafka.main(args);
    }

    private static void exitWhenParentGoes() {
        InputStream in = System.in;
        byte[] buffer = new byte[64];
        try {
            while (in.read(buffer) >= 0) {
                // The parent never writes; any bytes are ignored.
            }
        } catch (IOException ignored) {
            // A broken pipe means the same as end of stream.
        }
        System.exit(0);
    }
}
