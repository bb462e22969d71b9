package io.ombtx.bench;

import static io.ombtx.bench.ThroughputPasses.number;
import static io.ombtx.runner.stats.OrderStatistics.median;

import io.ombtx.bench.ThroughputPasses.Pass;
import io.ombtx.broker.EmbeddedKafkaCluster;
import io.ombtx.runner.cli.Cli;
import io.ombtx.runner.config.DriverOverrides;
import io.ombtx.runner.config.UsageException;
import io.ombtx.runner.search.MaxRateSearch;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.ToDoubleFunction;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * Is the load generator ever the bottleneck? On one embedded broker with the same producer settings
 * ({@code acks=all linger.ms=5 batch.size=131072}, 1 topic × 1 partition, 100-byte messages, no consumer), it
 * alternates Kafka's own {@code ProducerPerformance} (kafka-tools, {@code --throughput -1}) and the omb-tx runner at
 * an unreachable {@code producerRate}, and prints msg/s and CPU µs per message with omb-tx ÷ ProducerPerformance
 * ratios (median and range), and the runner's heap after garbage collection; then the max-rate search
 * ({@code producerRate: 0}): rate found, seconds to find it, whether the run holds it and a run at 1.1 x it does
 * not, and (for information) its ratio to the warmed saturation rate; then publish-delay p99 at 10K and 50K msg/s:
 * the median over alternating runs of omb-tx and of a bare paced kafka-clients loop, each run's p50, p95, p99 and
 * p99.9 printed. Each target from issue 12 is printed MET or NOT MET: a benchmark, not a test.
 *
 * <p>Every run is a JVM of its own with the same flags ({@value #CHILD_FLAGS}): ProducerPerformance's own
 * {@code main}, or {@link ThroughputChild} for omb-tx. A tool's CPU is its whole process's (user + system, every
 * thread: JVM start, JIT, GC, for omb-tx also its coordinator, planner and result file), read from this JVM's
 * reaped-children CPU time; the broker's is read from /proc over the same interval and shown apart. One unrecorded
 * warm-up pass of each tool goes first, so that no counted pass meets a JIT-cold broker.
 */
public final class Throughput {

    private static final String PRODUCER_SETTINGS = "acks=all linger.ms=5 batch.size=131072";
    static final DriverOverrides DRIVER_OVERRIDES =
            new DriverOverrides(null, Map.of("producerConfig", Map.of("linger.ms", "5", "batch.size", "131072")));
    /**
     * Both tools' JVM flags. The initial heap is the maximum: a G1 heap left to shrink (after a concurrent cycle it
     * fell from 380 to 50 MiB in a 10K msg/s run) collects every second or two, and each pause delays the
     * messages due meanwhile.
     */
    static final String CHILD_FLAGS = "-Xms512m -Xmx512m -XX:+UseG1GC -XX:+ExitOnOutOfMemoryError";

    private static final double HEAP_LIMIT_MIB = 512;
    /** Seconds into a saturated load at which omb-tx's live set is taken (a full GC). */
    private static final long LIVE_SET_AFTER_SECONDS = 4;
    /**
     * Seconds of unmeasured load before each publish-delay run and its bare loop: long enough for the JIT to have
     * compiled the send path (with 2 s, OMB's per-10-s p99 at 10K msg/s was 1.16 ms over the first 10 s measured and
     * 0.63 ms over the next 10; OMB's own default warm-up is a minute).
     */
    static final int DELAY_WARMUP_SECONDS = 10;
    /**
     * The control passes' {@code buffer.memory} (4 MiB; kafka-clients' default is 32 MiB). At saturation a sender
     * that outpaces the broker keeps the default buffer full, a few hundred thousand records in flight that every
     * young collection copies; how often each tool's sender does that decides much of its GC. With this buffer
     * neither holds more than ~40,000, so the control passes compare the two tools on an equal footing.
     */
    static final long CONTROL_BUFFER_MEMORY = 4L << 20;
    /** Messages of the short pass that measures each tool's fixed cost per run. */
    private static final long FIXED_COST_MESSAGES = 20_000;

    @Command(
            name = "bin/bench throughput",
            description = "Kafka's ProducerPerformance vs the omb-tx runner on the same embedded broker with the same"
                    + " producer settings (" + PRODUCER_SETTINGS + ", 1 topic x 1 partition, 100-byte messages, no"
                    + " consumer), alternating, each run in a JVM of its own (" + CHILD_FLAGS + "): msg/s, CPU us"
                    + " per message and the omb-tx / ProducerPerformance ratios, the runner's heap after GC; then the"
                    + " max-rate search (producerRate: 0) and publish-delay p99 at 10K and 50K msg/s open loop"
                    + " (the median of alternating runs, each beside a bare paced kafka-clients loop)."
                    + " Prints each issue-12 target as MET or NOT MET.",
            footer = {
                "",
                "CPU is each run's whole process (user + system, all threads, JVM start included); the"
                        + " broker's (from /proc) is shown apart. One warm-up pass of each tool is not counted.",
                "",
                "Examples:",
                "  bin/bench throughput --quick",
                "  bin/bench throughput --passes 5 --messages 6000000"
            })
    static final class Options implements Cli.Validated {
        @picocli.CommandLine.Mixin
        Bench.KeepWork keepWork = new Bench.KeepWork();

        @Option(
                names = "--quick",
                description = "short runs (1M messages a pass, 2 passes, 5 s delay runs): a few" + " minutes")
        boolean quick;

        @Option(
                names = "--passes",
                paramLabel = "N",
                description = "saturation passes of each tool (default: 3," + " --quick 2)")
        Integer passes;

        @Option(
                names = "--messages",
                paramLabel = "N",
                description = "messages per saturation run (default: 4000000, --quick 1000000)")
        Long messages;

        @Option(
                names = "--delay-seconds",
                paramLabel = "S",
                description = "measured seconds of each publish-delay run (default: 15, --quick 5)")
        Integer delaySeconds;

        @Option(
                names = "--delay-repeats",
                paramLabel = "N",
                description = "publish-delay runs of each tool at each rate, alternating (default: 3, --quick 1);"
                        + " the verdict is on the median p99")
        Integer delayRepeats;

        @Option(
                names = "--control-passes",
                paramLabel = "N",
                description = "passes of each tool with buffer.memory=" + CONTROL_BUFFER_MEMORY + " (a client buffer"
                        + " neither sender fills), for information (default: 2, --quick 1; 0 leaves them out)")
        Integer controlPasses;

        @Option(names = "--skip-search", description = "leave out the max-rate search")
        boolean skipSearch;

        @Option(names = "--skip-delay", description = "leave out the publish-delay runs")
        boolean skipDelay;

        @Option(
                names = "--no-class-data-archive",
                description = "run omb-tx without its class-data archive (AppCDS),"
                        + " which bin/benchmark uses from its second run on")
        boolean noClassDataArchive;

        @Override
        public void validate() {
            if (passes != null && (passes < 1 || passes > 50)) {
                throw new UsageException("--passes must be 1 to 50, got " + passes);
            }
            if (messages != null && messages < 10_000) {
                throw new UsageException("--messages must be at least 10000, got " + messages);
            }
            if (delaySeconds != null && (delaySeconds < 1 || delaySeconds > 3600)) {
                throw new UsageException("--delay-seconds must be 1 to 3600, got " + delaySeconds);
            }
            if (controlPasses != null && (controlPasses < 0 || controlPasses > 50)) {
                throw new UsageException("--control-passes must be 0 to 50, got " + controlPasses);
            }
            if (delayRepeats != null && (delayRepeats < 1 || delayRepeats > 50)) {
                throw new UsageException("--delay-repeats must be 1 to 50, got " + delayRepeats);
            }
        }

        int passes() {
            return passes != null ? passes : quick ? 2 : 3;
        }

        long messages() {
            return messages != null ? messages : quick ? 1_000_000 : 4_000_000;
        }

        int delaySeconds() {
            return delaySeconds != null ? delaySeconds : quick ? 5 : 15;
        }

        int controlPasses() {
            return controlPasses != null ? controlPasses : quick ? 1 : 2;
        }

        int delayRepeats() {
            return delayRepeats != null ? delayRepeats : quick ? 1 : 3;
        }
    }

    /** The rate above the one found that must not hold: the search is then within 10 % of the sustained maximum. */
    static final double SEARCH_CHECK_FACTOR = 1.1;

    private static final int SEARCH_CHECK_WARMUP_SECONDS = 5;
    /** Achieved ÷ target a run must reach to hold its rate (besides a publish delay within the search's bound). */
    static final double HOLD_RATIO = 0.98;

    /** An open-loop run at a fixed target: what it achieved and how late its producers sent. */
    record Held(double targetRate, double achievedRate, double publishDelayP99Millis) {

        static Held of(double target, Map<String, Object> child) {
            return new Held(target, number(child, "messagesPerSecond"), number(child, "publishDelayP99Millis"));
        }

        /** Held: achieved at least {@link #HOLD_RATIO} of the target, publish-delay p99 within the bound. */
        boolean holds(double boundMillis) {
            return achievedRate >= HOLD_RATIO * targetRate && publishDelayP99Millis <= boundMillis;
        }

        String figures() {
            return String.format(Locale.ROOT, "(%.3fx, p99 %.0f ms)", achievedRate / targetRate, publishDelayP99Millis);
        }

        String describe(int seconds, double boundMillis) {
            return String.format(
                    Locale.ROOT,
                    "%.0f msg/s target, %.0f msg/s over %d s = %.3fx, publish delay p99"
                            + " %.1f ms: %s (holding: >= %.2fx and p99 <= %.0f ms)",
                    targetRate,
                    achievedRate,
                    seconds,
                    achievedRate / targetRate,
                    publishDelayP99Millis,
                    holds(boundMillis) ? "holds" : "does not hold",
                    HOLD_RATIO,
                    boundMillis);
        }
    }

    private Throughput() {}

    public static void main(String[] args) throws Exception {
        Cli.main(new Options(), args, Throughput::run);
    }

    private static int run(Options options) throws Exception {
        PrintStream out = System.out;
        Bench bench = Bench.create();
        Path archive = options.noClassDataArchive ? null : bench.work().resolve("omb-tx.jsa");
        long messages = options.messages();
        try (EmbeddedKafkaCluster cluster = EmbeddedKafkaCluster.builder().start()) {
            ThroughputPasses passes = new ThroughputPasses(bench, cluster, archive);
            out.printf(
                    Locale.ROOT,
                    "Throughput: embedded Kafka %s, %d cores, %s, 1 topic x 1 partition, 100-byte"
                            + " messages, no consumer; %d pass(es) of %d messages per tool%n",
                    EmbeddedKafkaCluster.brokerVersion(),
                    Runtime.getRuntime().availableProcessors(),
                    PRODUCER_SETTINGS,
                    options.passes(),
                    messages);
            out.printf(
                    Locale.ROOT,
                    "Each run is a JVM of its own (%s); CPU = that JVM's whole process (user + system,"
                            + " all threads, JVM start included); (run only) = the same JVM's CPU from the tool's main to its"
                            + " end, without the JVM's start; broker CPU apart; heap-after-GC = each tool's heap in use after"
                            + " a GC, the largest (young GCs: live data plus old garbage not yet collected); GCs and the share of"
                            + " wall time in GC pauses.%n",
                    CHILD_FLAGS);
            out.println(
                    archive == null
                            ? "omb-tx runs without a class-data archive (--no-class-data-archive)."
                            : "omb-tx runs as bin/benchmark does from its second run on, with its class-data archive (AppCDS,"
                                    + " written by its warm-up pass; the 'no CDS' pass shows a short run without it);"
                                    + " ProducerPerformance as kafka-producer-perf-test.sh runs it, without one.");
            out.printf(
                    Locale.ROOT,
                    "%-20s %7s %10s %11s %11s %14s %13s %5s %6s%n",
                    "tool",
                    "pass",
                    "msg/s",
                    "CPU us/msg",
                    "(run only)",
                    "broker us/msg",
                    "heap-after-GC",
                    "GCs",
                    "in GC");
            // Warm the broker (its JIT, its log directory) with each tool first; these passes are not counted.
            long warmup = Math.min(messages, 1_000_000);
            print(out, "warm-up", passes.producerPerformance(warmup, 0));
            print(out, "warm-up", passes.ombTxSaturation(warmup, 0));
            // omb-tx's live set at saturation: a full GC a few seconds into an 8-second saturated run (its pause
            // would count against omb-tx in a counted pass).
            Map<String, Object> live = passes.ombTxChild(
                    "live-set",
                    """
                    producerRate: 10000000
                    warmupDurationSeconds: 0
                    testDurationSeconds: 8
                    """,
                    null,
                    LIVE_SET_AFTER_SECONDS);
            double liveSet = number(live, "liveSetMiB");
            out.printf(
                    Locale.ROOT,
                    "%-20s %7s %10.0f   live set %.0f MiB (heap in use after a full GC %d s into the" + " load)%n",
                    "omb-tx",
                    "heap",
                    number(live, "messagesPerSecond"),
                    liveSet,
                    LIVE_SET_AFTER_SECONDS);
            // What a run costs whatever its length (JVM start, set-up, close; for omb-tx also planning, topic
            // creation, the result file): a short pass of each, to tell the fixed cost from the cost per message.
            Pass ppFixed = passes.producerPerformance(FIXED_COST_MESSAGES, -1);
            print(out, "short", ppFixed);
            Pass ombFixed = passes.ombTxSaturation(FIXED_COST_MESSAGES, -1);
            print(out, "short", ombFixed);
            if (archive != null && Files.exists(archive)) {
                print(out, "no CDS", passes.withoutArchive().ombTxSaturation(FIXED_COST_MESSAGES, -2));
            }
            List<Pass> pp = new ArrayList<>();
            List<Pass> omb = new ArrayList<>();
            for (int pass = 1; pass <= options.passes(); pass++) {
                // Alternate which goes first (0: ProducerPerformance), so neither always meets the broker fresher.
                for (int side : Bench.order(pass, 2)) {
                    Pass p = side == 0
                            ? passes.producerPerformance(messages, pass)
                            : passes.ombTxSaturation(messages, pass);
                    (p.tool().equals("ProducerPerformance") ? pp : omb).add(p);
                    print(out, Integer.toString(pass), p);
                }
            }
            double ombRate = median(figures(omb, Pass::messagesPerSecond));
            double ppRate = median(figures(pp, Pass::messagesPerSecond));
            List<String> verdicts = new ArrayList<>();
            printSaturation(out, omb, pp, ombFixed, ppFixed, messages, liveSet, verdicts);
            if (options.controlPasses() > 0) {
                control(out, passes, messages, options.controlPasses());
            }
            if (!options.skipSearch) {
                verdicts.add(searchCheck(out, passes, options, ombRate, ppRate));
            }
            if (!options.skipDelay) {
                for (int rate : new int[] {10_000, 50_000}) {
                    verdicts.add(openLoop(out, passes, options, rate));
                }
            }
            out.println();
            out.println("Targets (issue 12; ratios are omb-tx / ProducerPerformance pass by pass, median [min-max]):");
            verdicts.forEach(v -> out.println("  " + v));
        }
        bench.finish(out, options.keepWork.keep);
        return Cli.OK;
    }

    /**
     * The counted passes' figures, median [min-max], omb-tx's beside ProducerPerformance's and their ratios pass by
     * pass: msg/s, CPU per message (whole process, run only, beyond each tool's fixed cost of a run), by thread, heap
     * allocated, heap and GC. Adds the throughput, CPU and heap verdicts to {@code verdicts}.
     */
    private static void printSaturation(
            PrintStream out,
            List<Pass> omb,
            List<Pass> pp,
            Pass ombFixed,
            Pass ppFixed,
            long messages,
            double liveSet,
            List<String> verdicts) {
        double[] rateRatios = ratios(omb, pp, Pass::messagesPerSecond);
        double[] cpuRatios = ratios(omb, pp, Pass::cpuMicrosPerMessage);
        out.println();
        out.println("Counted passes, median [min-max]:");
        out.printf(
                Locale.ROOT,
                "  msg/s       omb-tx %s   ProducerPerformance %s%n",
                spread(figures(omb, Pass::messagesPerSecond), "%.0f"),
                spread(figures(pp, Pass::messagesPerSecond), "%.0f"));
        out.printf(
                Locale.ROOT,
                "  CPU us/msg  omb-tx %s   ProducerPerformance %s%n",
                spread(figures(omb, Pass::cpuMicrosPerMessage), "%.2f"),
                spread(figures(pp, Pass::cpuMicrosPerMessage), "%.2f"));
        verdicts.add(verdict(
                "saturation throughput >= 1.0x ProducerPerformance",
                spread(rateRatios, "%.3f") + " x",
                median(rateRatios) >= 1.0));
        verdicts.add(verdict(
                "CPU per message <= 1.0x ProducerPerformance",
                spread(cpuRatios, "%.3f") + " x",
                median(cpuRatios) <= 1.0));
        out.printf(
                Locale.ROOT,
                "  CPU us/msg, run only (no JVM start)  omb-tx %s   ProducerPerformance %s" + "   ratio %s x%n",
                spread(figures(omb, Pass::runCpuMicrosPerMessage), "%.2f"),
                spread(figures(pp, Pass::runCpuMicrosPerMessage), "%.2f"),
                spread(ratios(omb, pp, Pass::runCpuMicrosPerMessage), "%.3f"));
        double[] ombMarginal = marginal(omb, ombFixed, messages);
        double[] ppMarginal = marginal(pp, ppFixed, messages);
        out.printf(
                Locale.ROOT,
                "  CPU us/msg beyond the fixed cost of a run (each tool's %d-message pass as the"
                        + " fixed cost: omb-tx %.2f s, ProducerPerformance %.2f s of process CPU)  omb-tx %s   ProducerPerformance"
                        + " %s   ratio %s x%n",
                FIXED_COST_MESSAGES,
                ombFixed.cpuMicrosPerMessage() * FIXED_COST_MESSAGES / 1e6,
                ppFixed.cpuMicrosPerMessage() * FIXED_COST_MESSAGES / 1e6,
                spread(ombMarginal, "%.2f"),
                spread(ppMarginal, "%.2f"),
                spread(pairwise(ombMarginal, ppMarginal), "%.3f"));
        printThreadCpu(out, omb, pp);
        out.printf(
                Locale.ROOT,
                "  heap allocated per message (every thread, the whole process)  omb-tx %s B"
                        + "   ProducerPerformance %s B%n",
                spread(figures(omb, Pass::allocatedBytesPerMessage), "%.0f"),
                spread(figures(pp, Pass::allocatedBytesPerMessage), "%.0f"));
        double heapAfterGc =
                omb.stream().mapToDouble(Pass::heapAfterGcMiB).max().orElse(Double.NaN);
        out.printf(
                Locale.ROOT,
                "  omb-tx heap under -Xmx512m: live set %.0f MiB at saturation, heap in use after"
                        + " any GC <= %.0f MiB (garbage included), no OutOfMemoryError; share of wall time in GC pauses:"
                        + " omb-tx %s, ProducerPerformance %s (ProducerPerformance's heap in use after any GC <= %.0f MiB)%n",
                liveSet,
                heapAfterGc,
                spread(figures(omb, p -> 100 * p.gcShare()), "%.1f%%"),
                spread(figures(pp, p -> 100 * p.gcShare()), "%.1f%%"),
                pp.stream().mapToDouble(Pass::heapAfterGcMiB).max().orElse(Double.NaN));
        verdicts.add(verdict(
                "runner heap < 512 MiB at saturation (-Xmx512m, no OOM)",
                String.format(Locale.ROOT, "live set %.0f MiB, after-GC max %.0f MiB", liveSet, heapAfterGc),
                liveSet < HEAP_LIMIT_MIB));
    }

    /**
     * The max-rate search ({@code producerRate: 0}) in a JVM of its own, and whether the rate found is the highest the
     * system sustains within 10 %: a run at it must hold, one at {@link #SEARCH_CHECK_FACTOR} times it must not. Its
     * verdict line.
     */
    private static String searchCheck(
            PrintStream out, ThroughputPasses passes, Options options, double ombRate, double ppRate) throws Exception {
        Map<String, Object> search = passes.ombTxChild(
                "max-rate",
                """
                producerRate: 0
                warmupDurationSeconds: 0
                testDurationSeconds: %d
                """
                        .formatted(options.delaySeconds()),
                null,
                -1);
        double found = number(search, "searchFoundRate");
        double seconds = number(search, "searchSeconds");
        boolean completed = Boolean.TRUE.equals(search.get("searchCompleted"));
        // Is the rate found the highest the system sustains, within 10 %? It must hold (the run at it, right
        // after the search), and 1.1 x it must not (a run of its own, warmed up at that rate first).
        Held atFound = Held.of(found, search);
        double above = Math.round(found * SEARCH_CHECK_FACTOR);
        Held atAbove = Held.of(
                above,
                passes.ombTxChild(
                        "max-rate-check",
                        """
                producerRate: %d
                warmupDurationSeconds: %d
                testDurationSeconds: %d
                """
                                .formatted((long) above, SEARCH_CHECK_WARMUP_SECONDS, options.delaySeconds()),
                        null,
                        -1));
        double bound = MaxRateSearch.Settings.defaults(1).maxPublishDelayP99Millis();
        out.printf(
                Locale.ROOT,
                "max-rate search: %.0f msg/s found in %.1f s (%s probes, %s)%n",
                found,
                seconds,
                search.get("searchProbes"),
                completed ? "converged" : "did not converge");
        out.printf(
                Locale.ROOT,
                "  held at the rate found, right after the search: %s%n",
                atFound.describe(options.delaySeconds(), bound));
        out.printf(
                Locale.ROOT,
                "  at %.1f x the rate found, %d s warm-up: %s%n",
                SEARCH_CHECK_FACTOR,
                SEARCH_CHECK_WARMUP_SECONDS,
                atAbove.describe(options.delaySeconds(), bound));
        out.printf(
                Locale.ROOT,
                "  (information) the rate found is %.3fx omb-tx's and %.3fx"
                        + " ProducerPerformance's unlimited saturation median%n",
                found / ombRate,
                found / ppRate);
        out.println("  (the saturation passes run with no rate limit: a sender that outpaces the broker fills"
                + " buffer.memory and keeps a few hundred thousand records in flight, so GC takes a large share"
                + " of the pass; a rate the search finds and holds can exceed that median)");
        boolean foundHolds = atFound.holds(bound);
        boolean aboveHolds = atAbove.holds(bound);
        return verdict(
                "producerRate: 0 within 10% of the sustained maximum in <= 60 s",
                String.format(
                        Locale.ROOT,
                        "%.0f holds %s; %.1fx %s; %.1f s",
                        found,
                        atFound.figures(),
                        SEARCH_CHECK_FACTOR,
                        (aboveHolds ? "holds " : "does not ") + atAbove.figures(),
                        seconds),
                completed && seconds <= 60 && foundHolds && !aboveHolds);
    }

    /**
     * Information, not a target: both tools with {@link #CONTROL_BUFFER_MEMORY}, alternating. The counted passes keep
     * the client's default buffer, as a user's run does; whether a tool's sender fills it (omb-tx's does; whether
     * ProducerPerformance's does varies with the broker's pace) moves its GC by up to a second a pass. Here neither
     * fills it, so what is left is each tool's own cost.
     */
    private static void control(PrintStream out, ThroughputPasses passes, long messages, int count) throws Exception {
        List<Pass> pp = new ArrayList<>();
        List<Pass> omb = new ArrayList<>();
        for (int pass = 1; pass <= count; pass++) {
            for (int side : Bench.order(pass, 2)) {
                Pass p = side == 0
                        ? passes.producerPerformance(messages, 100 + pass, CONTROL_BUFFER_MEMORY)
                        : passes.ombTxSaturation(messages, 100 + pass, CONTROL_BUFFER_MEMORY);
                (p.tool().equals("ProducerPerformance") ? pp : omb).add(p);
                print(out, "4MiB-" + pass, p);
            }
        }
        out.printf(
                Locale.ROOT,
                "  (information) buffer.memory=%d for both: msg/s ratio %s x, CPU us/msg ratio %s x,"
                        + " share of wall time in GC pauses omb-tx %s, ProducerPerformance %s%n",
                CONTROL_BUFFER_MEMORY,
                spread(ratios(omb, pp, Pass::messagesPerSecond), "%.3f"),
                spread(ratios(omb, pp, Pass::cpuMicrosPerMessage), "%.3f"),
                spread(figures(omb, p -> 100 * p.gcShare()), "%.1f%%"),
                spread(figures(pp, p -> 100 * p.gcShare()), "%.1f%%"));
    }

    /**
     * Publish delay at {@code rate}, open loop: {@code --delay-repeats} runs of omb-tx, each with a bare paced
     * kafka-clients loop beside it (same JVM flags, producer settings and broker; which goes first alternates). One
     * 15-s run's p99 on this 2-core machine moves by a factor of two or more from run to run for either tool (the
     * tail is how late a woken thread gets a core), so the verdict is on the median of the runs' p99s, as the
     * saturation verdicts are on the median of the passes.
     */
    private static String openLoop(PrintStream out, ThroughputPasses passes, Options options, int rate)
            throws Exception {
        int repeats = options.delayRepeats();
        double[] omb = new double[repeats];
        double[] bare = new double[repeats];
        for (int i = 0; i < repeats; i++) {
            Map<String, Object> r = null;
            Map<String, Object> b = null;
            for (int half = 0; half < 2; half++) {
                if ((half == 0) == (i % 2 == 0)) {
                    r = passes.ombTxChild(
                            "delay-" + rate,
                            """
                            producerRate: %d
                            warmupDurationSeconds: %d
                            testDurationSeconds: %d
                            """
                                    .formatted(rate, DELAY_WARMUP_SECONDS, options.delaySeconds()),
                            null,
                            -1);
                } else {
                    b = ThroughputPasses.childResult(
                            passes.runChild(
                                    List.of(),
                                    List.of(
                                            ThroughputChild.class.getName(),
                                            ThroughputChild.BARE_LOOP,
                                            passes.cluster().bootstrapServers(),
                                            Integer.toString(rate),
                                            Integer.toString(DELAY_WARMUP_SECONDS),
                                            Integer.toString(options.delaySeconds()))),
                            "the bare loop");
                }
            }
            omb[i] = number(r, "publishDelayP99Millis");
            bare[i] = number(b, "publishDelayP99Millis");
            out.printf(
                    Locale.ROOT,
                    "open loop %d msg/s, run %d of %d: omb-tx %.0f msg/s, publish delay %s (%s);"
                            + " bare loop %.0f msg/s, %s (%s)%n",
                    rate,
                    i + 1,
                    repeats,
                    number(r, "messagesPerSecond"),
                    delayShape(r),
                    pauses(r),
                    number(b, "messagesPerSecond"),
                    delayShape(b),
                    pauses(b));
        }
        double limit = rate == 10_000 ? 0.5 : 1.0;
        out.printf(
                Locale.ROOT,
                "open loop %d msg/s, publish delay p99 over %d run(s), median [min-max]: omb-tx %s ms,"
                        + " bare paced kafka-clients loop %s ms, omb-tx / bare loop %s x%n",
                rate,
                repeats,
                spread(omb, "%.3f"),
                spread(bare, "%.3f"),
                spread(pairwise(omb, bare), "%.2f"));
        return verdict(
                "publish-delay p99 <= " + limit + " ms at " + rate / 1000 + "K msg/s",
                String.format(Locale.ROOT, "median %s ms (bare loop %.3f)", spread(omb, "%.3f"), median(bare)),
                median(omb) <= limit);
    }

    /**
     * What paused a delay run's JVM or its machine: the collections, the longest of them, and the host's steal time
     * over the child's life (the CPU time the hypervisor gave to others while this machine's vCPUs had work).
     */
    private static String pauses(Map<String, Object> child) {
        Object steal = child.get("stealSeconds");
        return String.format(
                Locale.ROOT,
                "%s GCs, longest %s ms; host steal %s",
                child.get("gcCount"),
                child.get("gcLongestMillis"),
                steal == null ? "unknown" : String.format(Locale.ROOT, "%.2f s", ((Number) steal).doubleValue()));
    }

    /** A delay run's p50 / p95 / p99 / p99.9 in ms. */
    private static String delayShape(Map<String, Object> child) {
        return String.format(
                Locale.ROOT,
                "p50/p95/p99/p99.9 %.3f/%.3f/%.3f/%.3f ms",
                number(child, "publishDelayP50Millis"),
                number(child, "publishDelayP95Millis"),
                number(child, "publishDelayP99Millis"),
                number(child, "publishDelayP999Millis"));
    }

    private static void print(PrintStream out, String pass, Pass p) {
        out.printf(
                Locale.ROOT,
                "%-20s %7s %10.0f %11.2f %11.2f %14.2f %13s %5s %6s%n",
                p.tool(),
                pass,
                p.messagesPerSecond(),
                p.cpuMicrosPerMessage(),
                p.runCpuMicrosPerMessage(),
                p.brokerCpuMicrosPerMessage(),
                Double.isNaN(p.heapAfterGcMiB()) ? "-" : String.format(Locale.ROOT, "%.0f MiB", p.heapAfterGcMiB()),
                p.gcCount() < 0 ? "-" : Long.toString(p.gcCount()),
                Double.isNaN(p.gcShare()) ? "-" : String.format(Locale.ROOT, "%.1f%%", 100 * p.gcShare()));
    }

    private static String verdict(String target, String figure, boolean met) {
        return String.format(Locale.ROOT, "%-58s %-52s %s", target, figure, met ? "MET" : "NOT MET");
    }

    private static String spread(double[] values, String format) {
        return Bench.spread(values, format, "-");
    }

    private static double[] figures(List<Pass> passes, ToDoubleFunction<Pass> figure) {
        return passes.stream().mapToDouble(figure).toArray();
    }

    /** Process CPU µs per message of each pass after taking away the short pass's CPU (its fixed cost). */
    private static double[] marginal(List<Pass> passes, Pass fixed, long messages) {
        double fixedMicros = fixed.cpuMicrosPerMessage() * FIXED_COST_MESSAGES;
        return passes.stream()
                .mapToDouble(p -> (p.cpuMicrosPerMessage() * messages - fixedMicros) / (messages - FIXED_COST_MESSAGES))
                .toArray();
    }

    private static double[] pairwise(double[] omb, double[] pp) {
        double[] ratios = new double[Math.min(omb.length, pp.length)];
        for (int i = 0; i < ratios.length; i++) {
            ratios[i] = omb[i] / pp[i];
        }
        return ratios;
    }

    /** omb-tx ÷ ProducerPerformance, pass by pass. */
    private static double[] ratios(List<Pass> omb, List<Pass> pp, ToDoubleFunction<Pass> figure) {
        return pairwise(figures(omb, figure), figures(pp, figure));
    }

    /**
     * The counted passes' CPU by thread group, µs per message (median per group), biggest first: where omb-tx spends
     * what ProducerPerformance does not.
     */
    private static void printThreadCpu(PrintStream out, List<Pass> omb, List<Pass> pp) {
        java.util.Set<String> names = new java.util.TreeSet<>();
        omb.forEach(p -> names.addAll(p.threadCpuMicrosPerMessage().keySet()));
        pp.forEach(p -> names.addAll(p.threadCpuMicrosPerMessage().keySet()));
        if (names.isEmpty()) {
            return;
        }
        ToDoubleFunction<String> ombOf = name -> median(omb.stream()
                .mapToDouble(p -> p.threadCpuMicrosPerMessage().getOrDefault(name, 0.0))
                .toArray());
        ToDoubleFunction<String> ppOf = name -> median(pp.stream()
                .mapToDouble(p -> p.threadCpuMicrosPerMessage().getOrDefault(name, 0.0))
                .toArray());
        out.println("  CPU us/msg by thread (median of the counted passes; from /proc/self/task at the run's end;"
                + " omb-tx sends on producer-N, ProducerPerformance on main):");
        out.printf(Locale.ROOT, "    %-24s %8s %8s %8s%n", "thread", "omb-tx", "PP", "diff");
        names.stream()
                .sorted(java.util.Comparator.comparingDouble(
                        n -> -Math.max(ombOf.applyAsDouble(n), ppOf.applyAsDouble(n))))
                .filter(n -> Math.max(ombOf.applyAsDouble(n), ppOf.applyAsDouble(n)) >= 0.005)
                .forEach(n -> out.printf(
                        Locale.ROOT,
                        "    %-24s %8.3f %8.3f %+8.3f%n",
                        n,
                        ombOf.applyAsDouble(n),
                        ppOf.applyAsDouble(n),
                        ombOf.applyAsDouble(n) - ppOf.applyAsDouble(n)));
    }
}
