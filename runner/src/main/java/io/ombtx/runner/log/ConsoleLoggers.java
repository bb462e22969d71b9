package io.ombtx.runner.log;

import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.LocalTime;
import java.time.format.DateTimeFormatter;
import java.util.HashMap;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.ILoggerFactory;
import org.slf4j.Logger;

/**
 * The runner's SLF4J back end: one line per event on standard output, the stream of the progress lines (a line is
 * written in one call, so it never lands inside a progress line), as {@code HH:mm:ss.SSS LEVEL Logger - message}.
 * Levels come from {@code /ombtx-log.properties} (logger name, or a prefix of it at a dot, to a level; {@code
 * default} for the rest), and a system property {@code ombtx.log.NAME=LEVEL} (or {@code ombtx.log.default}) overrides
 * them for one run. A client library's warnings and errors (loggers under {@code org.apache.kafka.}) go through
 * {@link ClientWarnings}, which prints each distinct message once and then a count per period instead of a flood.
 */
public final class ConsoleLoggers implements ILoggerFactory {

    static final String CLIENT_PREFIX = "org.apache.kafka.";
    private static final String CONFIG = "/ombtx-log.properties";
    private static final String PROPERTY_PREFIX = "ombtx.log.";
    private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("HH:mm:ss.SSS");

    private static final ConsoleLoggers INSTANCE = new ConsoleLoggers(configured(), ClientWarnings.global());

    private final Map<String, Level> levels;
    private final Level defaultLevel;
    private final ClientWarnings clientWarnings;
    private final Map<String, Logger> loggers = new ConcurrentHashMap<>();

    ConsoleLoggers(Map<String, Level> levels, ClientWarnings clientWarnings) {
        Map<String, Level> copy = new HashMap<>(levels);
        Level fallback = copy.remove("default");
        this.defaultLevel = fallback == null ? Level.WARN : fallback;
        this.levels = Map.copyOf(copy);
        this.clientWarnings = clientWarnings;
    }

    public static ConsoleLoggers instance() {
        return INSTANCE;
    }

    @Override
    public Logger getLogger(String name) {
        return loggers.computeIfAbsent(name, n -> new ConsoleLogger(n, levelOf(n), this));
    }

    /** The level of the most specific configured name that is {@code name} or a dotted prefix of it. */
    Level levelOf(String name) {
        String candidate = name;
        while (true) {
            Level level = levels.get(candidate);
            if (level != null) {
                return level;
            }
            int dot = candidate.lastIndexOf('.');
            if (dot < 0) {
                return defaultLevel;
            }
            candidate = candidate.substring(0, dot);
        }
    }

    /** Prints one event, or hands a client library's warning to {@link ClientWarnings} to print or to count. */
    void log(Level level, String loggerName, String shortName, String message, Throwable error) {
        if ((level == Level.WARN || level == Level.ERROR)
                && loggerName.startsWith(CLIENT_PREFIX)
                && !clientWarnings.offer(level, shortName, message, error)) {
            return;
        }
        print(System.out, level, shortName, message, error);
    }

    static void print(PrintStream out, Level level, String shortName, String message, Throwable error) {
        StringBuilder line = new StringBuilder(message.length() + 48)
                .append(LocalTime.now().format(TIME))
                .append(' ')
                .append(level)
                .append(' ')
                .append(shortName)
                .append(" - ")
                .append(message);
        if (error != null) {
            StringWriter trace = new StringWriter();
            error.printStackTrace(new PrintWriter(trace));
            line.append(System.lineSeparator()).append(trace.toString().stripTrailing());
        }
        out.println(line); // one call: the stream's lock is held for the whole line
    }

    private static Map<String, Level> configured() {
        Map<String, Level> levels = new HashMap<>();
        Properties file = new Properties();
        try (InputStream in = ConsoleLoggers.class.getResourceAsStream(CONFIG)) {
            if (in != null) {
                file.load(in);
            }
        } catch (IOException e) {
            // no file: every logger at the default
        }
        file.stringPropertyNames().forEach(name -> put(levels, name, file.getProperty(name)));
        Properties system = System.getProperties();
        for (String name : system.stringPropertyNames()) {
            if (name.startsWith(PROPERTY_PREFIX)) {
                put(levels, name.substring(PROPERTY_PREFIX.length()), system.getProperty(name));
            }
        }
        return levels;
    }

    private static void put(Map<String, Level> levels, String name, String value) {
        Level level = Level.named(value);
        if (level != null) {
            levels.put(name.trim(), level);
        }
    }
}
