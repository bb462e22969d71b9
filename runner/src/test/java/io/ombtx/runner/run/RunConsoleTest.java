package io.ombtx.runner.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Progress lines and client log lines never cut into each other on the console. */
class RunConsoleTest {

    @Test
    void aProgressLineIsWrittenWholeInOneWrite() {
        List<String> writes = new ArrayList<>();
        OutputStream recorder = new OutputStream() {
            @Override
            public void write(int b) {
                writes.add(String.valueOf((char) b));
            }

            @Override
            public void write(byte[] b, int off, int len) {
                writes.add(new String(b, off, len, StandardCharsets.UTF_8));
            }
        };
        new RunConsole(new PrintStream(recorder, true, StandardCharsets.UTF_8), false)
                .say("measuring: %d msg/s, %s", 1000, "x".repeat(200));
        assertEquals(1, writes.size(), "one write: " + writes);
        assertTrue(writes.get(0).matches("\\d\\d:\\d\\d:\\d\\d measuring: 1000 msg/s, x{200}\\R"), writes.get(0));
    }

    @Test
    void clientLogLinesGoToTheProgressStreamWholeUnderItsLock() throws Exception {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        PrintStream progress = new PrintStream(bytes, true, StandardCharsets.UTF_8);
        PrintStream before = System.out;
        System.setOut(progress);
        try {
            // A thread holding the progress stream's lock (a progress line being written) holds the log line back.
            Thread logging;
            synchronized (progress) {
                logging = new Thread(() ->
                        org.slf4j.LoggerFactory.getLogger("io.ombtx.test.Lines").warn("a warning of {} words", 5));
                logging.start();
                logging.join(200);
                assertEquals(0, bytes.size(), "not written while the lock is held");
            }
            logging.join(10_000);
        } finally {
            System.setOut(before);
        }
        String line = bytes.toString(StandardCharsets.UTF_8);
        assertTrue(line.matches("\\d\\d:\\d\\d:\\d\\d\\.\\d{3} WARN Lines - a warning of 5 words\\R"), line);
    }
}
