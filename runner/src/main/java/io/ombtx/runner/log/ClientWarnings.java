package io.ombtx.runner.log;

import java.io.PrintStream;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A client library's warnings, collapsed. kafka-clients logs a WARN for every retried request (a produce request
 * answered CONCURRENT_TRANSACTIONS while the previous transaction's markers are written, say): two hundred
 * transactional producers print tens of thousands of them a minute. Here each distinct message (its numbers, topic
 * names and the client's log prefix taken out) is printed the first time it is seen; later ones are counted, and
 * every {@link #PERIOD_SECONDS} seconds one line says how often each repeated and from how many clients. A run keeps
 * its own tally ({@link #open}) for its result.
 */
public final class ClientWarnings {

    /** How often the repeats are summed up on the console. */
    static final long PERIOD_SECONDS = 10;
    /** The most distinct clients a message remembers (beyond it, the count says "at least"). */
    private static final int MAX_CLIENTS = 100_000;

    /** Standard output as it is when a summary is printed (a test may have replaced it), as the loggers use it. */
    private static final ClientWarnings GLOBAL = new ClientWarnings(() -> System.out, true);

    private static final Pattern CONTEXT = Pattern.compile("^\\[([^\\]]*)\\]\\s*");
    private static final Pattern CLIENT_ID = Pattern.compile("clientId=([^,\\]\\s]+)");
    /** A word with a digit in it: an id, a count, a partition, an address; replaced so messages compare equal. */
    private static final Pattern ERROR_CODE = Pattern.compile("Error: ([A-Z_]+)\\W*$");

    private static final Pattern VARIABLE = Pattern.compile("[\\w.:/-]*\\d[\\w.:/-]*");

    /** One distinct message's tally: over the whole process, or over one window (a run). */
    private static final class Tally {
        final Level level;
        final String logger;
        final String message;
        long count;
        final Set<String> clients = new HashSet<>();
        long firstMillis;
        long lastMillis;
        long repeatsUnsaid;
        final Set<String> clientsUnsaid = new HashSet<>();

        Tally(Level level, String logger, String message, long nowMillis) {
            this.level = level;
            this.logger = logger;
            this.message = message;
            this.firstMillis = nowMillis;
        }

        void add(String client, long nowMillis) {
            count++;
            lastMillis = nowMillis;
            if (client != null && clients.size() < MAX_CLIENTS) {
                clients.add(client);
            }
        }
    }

    /** What one message amounted to over a window: for a result's {@code clientWarnings}. */
    public record Summary(
            String level, String logger, String message, long count, int clients, long firstMillis, long lastMillis) {

        /** When it was first seen. */
        public Instant first() {
            return Instant.ofEpochMilli(firstMillis);
        }

        /** When it was last seen. */
        public Instant last() {
            return Instant.ofEpochMilli(lastMillis);
        }
    }

    /**
     * Tallies from several processes (this one's and its remote workers') as one: the same level, logger and message
     * summed (counts and clients, each process's clients being its own), from the first to the last seen; most
     * frequent first.
     */
    public static List<Summary> merge(List<Summary> ours, List<Summary> theirs) {
        Map<String, Summary> merged = new LinkedHashMap<>();
        for (Summary s : concat(ours, theirs)) {
            merged.merge(
                    s.level() + " " + s.logger() + " " + s.message(),
                    s,
                    (a, b) -> new Summary(
                            a.level(),
                            a.logger(),
                            a.message(),
                            a.count() + b.count(),
                            a.clients() + b.clients(),
                            Math.min(a.firstMillis(), b.firstMillis()),
                            Math.max(a.lastMillis(), b.lastMillis())));
        }
        List<Summary> all = new ArrayList<>(merged.values());
        all.sort((a, b) -> Long.compare(b.count(), a.count()));
        return all;
    }

    private static List<Summary> concat(List<Summary> a, List<Summary> b) {
        List<Summary> both = new ArrayList<>(a);
        both.addAll(b);
        return both;
    }

    /** A run's own tally, from {@link #open} to {@link #close}. */
    public final class Window {
        private final Map<String, Tally> tallies = new LinkedHashMap<>();

        /** The messages seen since the window opened, most frequent first; the window stops counting. */
        public List<Summary> close() {
            synchronized (ClientWarnings.this) {
                windows.remove(this);
                return snapshot();
            }
        }

        /** The messages seen so far, most frequent first; the window goes on counting. */
        public List<Summary> snapshot() {
            synchronized (ClientWarnings.this) {
                List<Summary> summaries = new ArrayList<>();
                for (Tally t : tallies.values()) {
                    summaries.add(new Summary(
                            t.level.name(),
                            t.logger,
                            t.message,
                            t.count,
                            t.clients.size(),
                            t.firstMillis,
                            t.lastMillis));
                }
                summaries.sort((a, b) -> Long.compare(b.count(), a.count()));
                return summaries;
            }
        }
    }

    private final Supplier<PrintStream> out;
    private final boolean summarizeOnTimer;
    private final Map<String, Tally> seen = new LinkedHashMap<>();
    private final List<Window> windows = new CopyOnWriteArrayList<>();
    private ScheduledExecutorService timer;

    ClientWarnings(Supplier<PrintStream> out, boolean summarizeOnTimer) {
        this.out = out;
        this.summarizeOnTimer = summarizeOnTimer;
    }

    /** The process's collector, which the console loggers feed. */
    public static ClientWarnings global() {
        return GLOBAL;
    }

    /** Starts a run's own tally of what the client library warns from now on. */
    public synchronized Window open() {
        Window window = new Window();
        windows.add(window);
        return window;
    }

    /**
     * Counts one warning; true when it is to be printed now (the first of its kind), false when it is only counted
     * (said in the next summary line).
     */
    synchronized boolean offer(Level level, String logger, String rawMessage, Throwable error) {
        long now = System.currentTimeMillis();
        String client = null;
        String body = rawMessage;
        Matcher context = CONTEXT.matcher(rawMessage);
        if (context.find()) {
            Matcher id = CLIENT_ID.matcher(context.group(1));
            client = id.find() ? id.group(1) : context.group(1);
            body = rawMessage.substring(context.end());
        }
        String message = VARIABLE.matcher(body).replaceAll("#")
                + (error == null ? "" : " (" + error.getClass().getSimpleName() + ")");
        String key = level + " " + logger + " " + message;
        Tally tally = seen.get(key);
        boolean first = tally == null;
        if (first) {
            tally = new Tally(level, logger, message, now);
            seen.put(key, tally);
        } else {
            tally.repeatsUnsaid++;
            if (client != null && tally.clientsUnsaid.size() < MAX_CLIENTS) {
                tally.clientsUnsaid.add(client);
            }
            startTimer();
        }
        tally.add(client, now);
        for (Window window : windows) {
            Tally own = window.tallies.computeIfAbsent(key, k -> new Tally(level, logger, message, now));
            own.add(client, now);
        }
        return first;
    }

    /**
     * Prints one line for the messages that repeated since the last summary, each by a short name (its error code, or
     * its first words) with its count and clients, and starts the counts again.
     */
    public synchronized void summarize() {
        StringBuilder line = new StringBuilder();
        Level level = Level.WARN;
        for (Tally t : seen.values()) {
            if (t.repeatsUnsaid > 0) {
                line.append(line.length() == 0 ? "" : "; ")
                        .append(String.format("%,d × %s", t.repeatsUnsaid, shortName(t.message)));
                int clients = t.clientsUnsaid.size();
                if (clients > 0) {
                    line.append(" (").append(clients).append(clients == 1 ? " client)" : " clients)");
                }
                if (t.level == Level.ERROR) {
                    level = Level.ERROR;
                }
                t.repeatsUnsaid = 0;
                t.clientsUnsaid.clear();
            }
        }
        if (line.length() > 0) {
            ConsoleLoggers.print(out.get(), level, "kafka-clients", "repeated since last said: " + line, null);
        }
    }

    /** A message's short name: the error code it ends with ({@code Error: CODE}), else its first words. */
    static String shortName(String message) {
        Matcher code = ERROR_CODE.matcher(message);
        if (code.find()) {
            return code.group(1);
        }
        return message.length() <= 60 ? message : message.substring(0, 57) + "...";
    }

    private void startTimer() {
        if (timer == null && summarizeOnTimer) {
            timer = Executors.newSingleThreadScheduledExecutor(r -> {
                Thread thread = new Thread(r, "ombtx-client-warnings");
                thread.setDaemon(true);
                return thread;
            });
            timer.scheduleAtFixedRate(this::summarize, PERIOD_SECONDS, PERIOD_SECONDS, TimeUnit.SECONDS);
        }
    }
}
