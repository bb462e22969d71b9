package io.ombtx.runner.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
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
    void clientLogLinesGoToTheProgressStreamOneLineEach() throws Exception {
        Properties logging = new Properties();
        try (InputStream in = RunConsole.class.getResourceAsStream("/simplelogger.properties")) {
            logging.load(in);
        }
        // slf4j-simple takes the stream's lock for a whole line (println), as the progress lines do (print).
        assertEquals("System.out", logging.getProperty("org.slf4j.simpleLogger.logFile"));
        assertEquals("warn", logging.getProperty("org.slf4j.simpleLogger.defaultLogLevel"));
    }
}
