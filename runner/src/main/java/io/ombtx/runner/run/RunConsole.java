package io.ombtx.runner.run;

import java.io.PrintStream;
import java.util.Locale;

/** The run's progress lines on the console, each with its time of day; none when quiet. */
final class RunConsole {
    private final PrintStream out;
    private final boolean quiet;

    RunConsole(PrintStream out, boolean quiet) {
        this.out = out;
        this.quiet = quiet;
    }

    /**
     * One line, written whole (one write of the line and its end): written in pieces, as {@code printf} does, a line
     * on the other stream of the terminal (a client's warning, a worker JVM's output) could land inside it.
     */
    void say(String format, Object... args) {
        if (!quiet) {
            out.print(String.format(
                    Locale.ROOT, "%tT %s%n", System.currentTimeMillis(), String.format(Locale.ROOT, format, args)));
            out.flush();
        }
    }

    /** One line as it is (a consumer for the pieces that report progress). */
    void line(String line) {
        say("%s", line);
    }
}
