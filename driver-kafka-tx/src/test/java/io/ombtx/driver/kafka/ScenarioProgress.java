package io.ombtx.driver.kafka;

import java.io.ByteArrayOutputStream;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The console of a suite run by a test, kept whole for the test's assertions, with a line on the build's console as
 * each scenario starts, so that a test class that runs for minutes says what it is running.
 *
 * <p>Surefire keeps what tests write to {@code System.out} and {@code System.err} in files (the parent pom's
 * {@code redirectTestOutputToFile}); what the test JVM writes to its own standard error, file descriptor 2, it passes
 * to Maven's console as it comes. The lines picked are the runner's own: a run's first measured line
 * ({@code "12:00:01 tx-writes: warm-up 100 then 300 operation(s), closed loop"}) and a run that failed or ended early.
 */
final class ScenarioProgress extends OutputStream {
    private static final Pattern RUN_STARTS = Pattern.compile("^\\d\\d:\\d\\d:\\d\\d (\\S+: warm-up .*)$");
    private static final Pattern RUN_ENDS_BADLY =
            Pattern.compile("^\\d\\d:\\d\\d:\\d\\d (Run (FAILED|ended early).*)$");

    /** File descriptor 2, past Surefire's redirection; never closed. */
    private static final PrintStream CONSOLE =
            new PrintStream(new FileOutputStream(FileDescriptor.err), true, StandardCharsets.UTF_8);

    private final String test;
    private final ByteArrayOutputStream whole = new ByteArrayOutputStream();
    private final ByteArrayOutputStream line = new ByteArrayOutputStream();
    private final long start = System.nanoTime();
    private int started;

    /** @param test the test's name, leading each console line */
    ScenarioProgress(String test) {
        this.test = test;
    }

    /** Says on the console what the test is about to run. */
    void announce(String what) {
        say(test + ": " + what);
    }

    /** Says on the console how the suite ended, with how many scenarios started and how long it took. */
    void finished(int exitCode) {
        say(String.format(
                Locale.ROOT,
                "%s: the suite ended (exit code %d) after %s, %d scenario(s) started",
                test,
                exitCode,
                elapsed(),
                started));
    }

    /** Everything the suite wrote, as it would have been on its own console. */
    synchronized String text() {
        return whole.toString(StandardCharsets.UTF_8);
    }

    @Override
    public synchronized void write(int b) {
        whole.write(b);
        if (b == '\n') {
            lineEnded();
        } else {
            line.write(b);
        }
    }

    @Override
    public synchronized void write(byte[] bytes, int offset, int length) {
        for (int i = offset; i < offset + length; i++) {
            write(bytes[i]);
        }
    }

    private void lineEnded() {
        String text = line.toString(StandardCharsets.UTF_8).stripTrailing();
        line.reset();
        Matcher starts = RUN_STARTS.matcher(text);
        if (starts.matches()) {
            started++;
            say(String.format(Locale.ROOT, "%s [%d, +%s] %s", test, started, elapsed(), starts.group(1)));
            return;
        }
        Matcher endsBadly = RUN_ENDS_BADLY.matcher(text);
        if (endsBadly.matches()) {
            say(String.format(Locale.ROOT, "%s [%d, +%s] %s", test, started, elapsed(), endsBadly.group(1)));
        }
    }

    private String elapsed() {
        long seconds = (System.nanoTime() - start) / 1_000_000_000L;
        return String.format(Locale.ROOT, "%dm%02ds", seconds / 60, seconds % 60);
    }

    private static void say(String text) {
        CONSOLE.println(text);
    }
}
