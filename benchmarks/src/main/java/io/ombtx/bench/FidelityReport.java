package io.ombtx.bench;

import static io.ombtx.runner.stats.OrderStatistics.median;

import io.ombtx.runner.stats.OrderStatistics;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.ToDoubleFunction;

/**
 * {@code bin/bench fidelity}'s tables and verdicts from the rounds' {@link FidelityFigures}: omb-tx ÷ the bare loop,
 * median [min–max] over the rounds against the target band, with the order-statistics interval that says whether
 * the rounds decide it, and the figures that explain a ratio (phases, back-offs, loop gaps, paused times, settling,
 * the A/A noise floor, the disk).
 */
final class FidelityReport {

    private FidelityReport() {}

    /** omb-tx ÷ bare within this band (median over the rounds) meets the target. */
    static final double LOW = 0.95;

    static final double HIGH = 1.05;

    /** The slow operations' target: omb-tx's count within this share of the bare loop's. */
    static final double SLOW_TOLERANCE = 0.10;

    /**
     * The disk's part: the probe's median flush before each run, median [min–max] over the runs of each side, and
     * its ratio omb-tx's run ÷ the bare loop's, round by round: how far the disk under the two loops moved apart, to
     * read beside how far their own figures did.
     */
    static void printDisk(PrintStream out, Map<String, List<DiskProbe.Figures[]>> disk) {
        out.printf(
                Locale.ROOT,
                "%nThe disk under the broker: fsync of a 100-byte append (as a log flush), p50 over %d s just before each"
                        + " run, ms, median [min–max] over the rounds (omb-tx's runs / the bare loop's), and omb-tx's ÷"
                        + " the bare loop's round by round; information, not a target%n",
                Fidelity.DISK_PROBE.toSeconds());
        for (Map.Entry<String, List<DiskProbe.Figures[]>> e : disk.entrySet()) {
            List<DiskProbe.Figures[]> rounds = e.getValue();
            double[] omb = new double[rounds.size()];
            double[] bare = new double[rounds.size()];
            double[] ratio = new double[rounds.size()];
            for (int i = 0; i < rounds.size(); i++) {
                omb[i] = rounds.get(i)[0].p50Micros() / 1000;
                bare[i] = rounds.get(i)[1].p50Micros() / 1000;
                ratio[i] = omb[i] / bare[i];
            }
            Arrays.sort(omb);
            Arrays.sort(bare);
            Arrays.sort(ratio);
            out.printf(Locale.ROOT, "%-25s | %s / %s | × %s%n", e.getKey(), spread(omb), spread(bare), spread(ratio));
        }
    }

    /**
     * The operations of {@link FidelityFigures#BACKED_OFF_MICROS} or more, omb-tx's and the bare loop's, round by
     * round, for the scenarios where either side had any: the 20 ms back-off lands here, under the 50 ms of the target.
     */
    static void printBackedOff(PrintStream out, Map<String, List<FidelityFigures[]>> measured) {
        if (measured.values().stream().allMatch(FidelityReport::noneBackedOff)) {
            return;
        }
        out.printf(
                Locale.ROOT,
                "%nOperations >= %d ms (where the back-offs land: the ~100 ms one, and the 20 ms one of a"
                        + " transaction's first write to a partition whose last markers are not yet written; on a"
                        + " broker that fsyncs every message, log.flush.interval.messages=1, an fsync-bound operation"
                        + " lands here too without one), median over the rounds and round by round (omb-tx / bare;"
                        + " round by round with --aa: omb-tx / bare / bare again); information, not a target%n",
                FidelityFigures.BACKED_OFF_MICROS / 1000);
        for (Map.Entry<String, List<FidelityFigures[]>> e : measured.entrySet()) {
            List<FidelityFigures[]> runs = e.getValue();
            if (noneBackedOff(runs)) {
                continue;
            }
            List<String> rounds = new ArrayList<>();
            for (FidelityFigures[] r : runs) {
                rounds.add(r[0].backedOff() + "/" + r[1].backedOff() + (r.length > 2 ? "/" + r[2].backedOff() : ""));
            }
            out.printf(
                    Locale.ROOT,
                    "%-25s | %7.1f / %-7.1f | %s%n",
                    e.getKey(),
                    sideMedian(runs, 0, FidelityFigures::backedOff),
                    sideMedian(runs, 1, FidelityFigures::backedOff),
                    String.join(" ", rounds));
        }
    }

    /** Whether no run of either side had an operation of {@link FidelityFigures#BACKED_OFF_MICROS} or more. */
    private static boolean noneBackedOff(List<FidelityFigures[]> runs) {
        return runs.stream().allMatch(r -> r[0].backedOff() == 0 && r[1].backedOff() == 0);
    }

    /** The table; true when every target is met. */
    static boolean print(PrintStream out, Map<String, List<FidelityFigures[]>> measured) {
        out.printf(
                Locale.ROOT,
                "%nomb-tx ÷ bare loop, median [min–max] over the rounds (target %.2f–%.2f); operations >= %d ms,"
                        + " median over the rounds (target: within 10%% of the bare loop's)%n",
                LOW,
                HIGH,
                FidelityFigures.SLOW_MICROS / 1000);
        out.printf(
                Locale.ROOT,
                "%-25s | %-19s | %-19s | %-19s | %-17s | %s%n",
                "scenario",
                "p50 ×",
                "p99 ×",
                "total ×",
                ">=50ms omb / bare",
                "verdict");
        boolean allMet = true;
        for (Map.Entry<String, List<FidelityFigures[]>> e : measured.entrySet()) {
            List<FidelityFigures[]> runs = e.getValue();
            double[] p50 = ratios(runs, FidelityFigures::p50);
            double[] p99 = ratios(runs, FidelityFigures::p99);
            double[] total = ratios(runs, FidelityFigures::total);
            double slowOmb = sideMedian(runs, 0, FidelityFigures::slow);
            double slowBare = sideMedian(runs, 1, FidelityFigures::slow);
            List<String> missed = new ArrayList<>();
            check(missed, "p50", p50);
            check(missed, "p99", p99);
            check(missed, "total", total);
            if (slowMissed(runs)) {
                missed.add(">=50ms");
            }
            allMet &= missed.isEmpty();
            out.printf(
                    Locale.ROOT,
                    "%-25s | %-19s | %-19s | %-19s | %7.1f / %-7.1f | %s%n",
                    e.getKey(),
                    spread(p50),
                    spread(p99),
                    spread(total),
                    slowOmb,
                    slowBare,
                    verdict(missed, runs));
        }
        boolean aa = measured.values().stream().allMatch(runs -> runs.get(0).length > 2);
        out.printf(
                Locale.ROOT,
                "%nPhase means, ms, median over the rounds (omb-tx / bare%s; —: not a phase of that side's loop,"
                        + " as tx-fetch's wait until the records are visible, which omb-tx measures as its end-to-end"
                        + " latency)%n",
                aa ? " / bare again, the A/A" : "");
        for (Map.Entry<String, List<FidelityFigures[]>> e : measured.entrySet()) {
            StringBuilder line = new StringBuilder(String.format(Locale.ROOT, "%-25s |", e.getKey()));
            for (String phase : e.getValue().get(0)[1].phaseMeans().keySet()) {
                line.append(' ').append(phase);
                for (int side = 0; side < (aa ? 3 : 2); side++) {
                    double mean =
                            sideMedian(e.getValue(), side, f -> f.phaseMeans().getOrDefault(phase, Double.NaN));
                    String shown = Double.isNaN(mean) ? "—" : String.format(Locale.ROOT, "%.3f", mean);
                    line.append(side == 0 ? " " : " / ").append(shown);
                }
                line.append(" |");
            }
            out.println(line);
        }
        printBackedOff(out, measured);
        out.printf(
                Locale.ROOT,
                "%nLoop gap, µs, from a commit returning to the next begin (what decides whether the next transaction"
                        + " meets the commit's markers; plain writes: from the last ack to the next send), median over"
                        + " the rounds of p50 and p90 (omb-tx / bare%s)%n",
                aa ? " / bare again" : "");
        for (Map.Entry<String, List<FidelityFigures[]>> e : measured.entrySet()) {
            List<FidelityFigures[]> runs = e.getValue();
            int sides = aa ? 3 : 2;
            double[] p50 = new double[sides];
            double[] p90 = new double[sides];
            for (int side = 0; side < sides; side++) {
                p50[side] = sideMedian(runs, side, FidelityFigures::gapP50);
                p90[side] = sideMedian(runs, side, FidelityFigures::gapP90);
            }
            if (Double.isNaN(p50[0]) && Double.isNaN(p50[1])) {
                continue; // no transactions, or not recorded (a worker JVM of its own)
            }
            out.printf(Locale.ROOT, "%-25s | p50 %s | p90 %s%n", e.getKey(), perSide(p50), perSide(p90));
        }
        printPauses(out, measured);
        printSettling(out, measured);
        printIntervals(out, measured);
        printSplit(out, measured);
        if (measured.values().stream().allMatch(runs -> runs.get(0).length > 2)) {
            printNoiseFloor(out, measured);
        }
        out.println("(total = sum of the measured operations' latencies; both sides decoded through HdrHistogram"
                + " at 3 significant digits; fewer than 1% of the operations on both sides counts as met)");
        return allMet;
    }

    /**
     * The A/A table: the bare loop against itself, round by round, so a reader sees how far two runs of the same loop
     * on this machine differ; omb-tx's median ratio is marked "inside" when it lies within that spread.
     */
    static void printNoiseFloor(PrintStream out, Map<String, List<FidelityFigures[]>> measured) {
        out.printf(
                Locale.ROOT,
                "%nNoise floor (A/A): the bare loop ÷ itself run again in the same round, median [min–max]; omb-tx ÷"
                        + " bare's median beside it, 'inside' when within the A/A range%n");
        out.printf(
                Locale.ROOT,
                "%-25s | %-19s | %-19s | %-19s | %-17s | %s%n",
                "scenario",
                "p50 × (A/A)",
                "p99 × (A/A)",
                "total × (A/A)",
                ">=50ms bare / bare",
                "omb-tx ÷ bare: p50, p99, total");
        for (Map.Entry<String, List<FidelityFigures[]>> e : measured.entrySet()) {
            List<FidelityFigures[]> runs = e.getValue();
            List<FidelityFigures[]> aa = againstItself(runs);
            StringBuilder against = new StringBuilder();
            for (ToDoubleFunction<FidelityFigures> figure : List.<ToDoubleFunction<FidelityFigures>>of(
                    FidelityFigures::p50, FidelityFigures::p99, FidelityFigures::total)) {
                double[] floor = ratios(aa, figure);
                double omb = median(ratios(runs, figure));
                if (against.length() > 0) {
                    against.append(", ");
                }
                against.append(String.format(
                        Locale.ROOT,
                        "%.3f %s",
                        omb,
                        omb >= floor[0] && omb <= floor[floor.length - 1] ? "inside" : "outside"));
            }
            out.printf(
                    Locale.ROOT,
                    "%-25s | %-19s | %-19s | %-19s | %7.1f / %-7.1f | %s%n",
                    e.getKey(),
                    spread(ratios(aa, FidelityFigures::p50)),
                    spread(ratios(aa, FidelityFigures::p99)),
                    spread(ratios(aa, FidelityFigures::total)),
                    sideMedian(runs, 2, FidelityFigures::slow),
                    sideMedian(runs, 1, FidelityFigures::slow),
                    against);
        }
    }

    /** The median over the rounds of side {@code side}'s {@code figure}. */
    private static double sideMedian(List<FidelityFigures[]> runs, int side, ToDoubleFunction<FidelityFigures> figure) {
        return median(runs.stream()
                .mapToDouble(r -> figure.applyAsDouble(r[side]))
                .sorted()
                .toArray());
    }

    /**
     * omb-tx's paused time per operation: where its runner does its bookkeeping inside an operation with the clock
     * stopped (a transaction running ahead: after its last request, before its commit), which the bare loop does
     * not. Only the scenarios where omb-tx recorded any.
     */
    static void printPauses(PrintStream out, Map<String, List<FidelityFigures[]>> measured) {
        boolean header = false;
        for (Map.Entry<String, List<FidelityFigures[]>> e : measured.entrySet()) {
            // Rounds pooled from runs that kept no paused times have none: the median of those that did.
            List<FidelityFigures[]> paused = e.getValue().stream()
                    .filter(round -> !Double.isNaN(round[0].pauseP50()))
                    .toList();
            if (paused.isEmpty()) {
                continue;
            }
            double p50 = sideMedian(paused, 0, FidelityFigures::pauseP50);
            if (!header) {
                out.printf(
                        Locale.ROOT,
                        "%nPaused, µs: omb-tx's time inside an operation with its clock stopped, its runner's"
                                + " bookkeeping (a transaction: after its last request, before its commit, where the"
                                + " bare loop calls the commit at once), median over the rounds of p50 and p90%n");
                header = true;
            }
            out.printf(
                    Locale.ROOT,
                    "%-25s | p50 %7.1f | p90 %7.1f%s%n",
                    e.getKey(),
                    p50,
                    sideMedian(paused, 0, FidelityFigures::pauseP90),
                    paused.size() < e.getValue().size()
                            ? " (" + paused.size() + " of " + e.getValue().size() + " rounds)"
                            : "");
        }
    }

    /** The A/A pairs of {@code --aa} rounds: the bare loop's second run against its first. */
    private static List<FidelityFigures[]> againstItself(List<FidelityFigures[]> runs) {
        return runs.stream().map(r -> new FidelityFigures[] {r[2], r[1]}).toList();
    }

    /** One figure per side, "omb-tx / bare[ / bare again]", each 7.1f. */
    private static String perSide(double[] figures) {
        StringBuilder text = new StringBuilder();
        for (double figure : figures) {
            text.append(text.length() == 0 ? "" : " / ").append(String.format(Locale.ROOT, "%7.1f", figure));
        }
        return text.toString();
    }

    /** The confidence of {@link #interval}: at least this share of such intervals holds the true median. */
    static final double CONFIDENCE = 0.90;

    /**
     * Whether the verdicts above are decided by the rounds measured: per figure, the distribution-free 90% confidence
     * interval of the median of the round-by-round ratios ({@link #interval}), and "decided" when it lies wholly
     * inside the target band (met) or wholly outside it (not met). A median inside the band with an interval that
     * crosses its edge is not a pass, and one outside it not a failure: more rounds or more operations per round
     * would decide it. The operations of 50 ms or more are compared round by round here (omb-tx ÷ bare of each
     * round's counts, target 0.90–1.10).
     */
    static void printIntervals(PrintStream out, Map<String, List<FidelityFigures[]>> measured) {
        out.printf(
                Locale.ROOT,
                "%nDecided? %.0f%% confidence interval of each median ratio over the rounds (order statistics, no"
                        + " assumption of a distribution): 'met' or 'not met' when the interval lies wholly inside or"
                        + " wholly outside the target band, else 'undecided', with about how many rounds at this"
                        + " spread would decide it%n",
                CONFIDENCE * 100);
        out.printf(
                Locale.ROOT,
                "%-25s | %-38s | %-38s | %-38s | %s%n",
                "scenario",
                "p50 ×",
                "p99 ×",
                "total ×",
                ">=50ms × (round by round)");
        for (Map.Entry<String, List<FidelityFigures[]>> e : measured.entrySet()) {
            List<FidelityFigures[]> runs = e.getValue();
            printIntervalLine(out, e.getKey(), runs);
            if (runs.get(0).length > 2) {
                // The same for the bare loop against itself (--aa): a target it cannot meet decides nothing.
                List<FidelityFigures[]> aa = againstItself(runs);
                printIntervalLine(out, e.getKey() + " (A/A)", aa);
            }
        }
    }

    /**
     * The p50 taken apart. A transactional closed loop's operations fall in two modes: those that did not meet the
     * previous commit's markers (a few ms) and those that did and backed off (20 ms for a first write to a partition on
     * Kafka 4.x, ~100 ms of {@code retry.backoff.ms} for an offset commit or a 2.x-3.x client). A run's p50 is the (0.5
     * ÷ share without back-off)-th percentile of the first mode, so it moves with the backed-off share, which is a race
     * between the broker's marker writes and the loop's next request and varies from run to run of one loop (tx-writes
     * on 4.1.1: 16% to 38% in ten of the bare loop's own runs). The two figures it is made of are printed apart: the
     * share of operations of {@link FidelityFigures#BACKED_OFF_MICROS} or more (omb-tx ÷ bare of each round's counts,
     * with its interval against ±{@link #SLOW_TOLERANCE}) and the median of the operations under it (with its interval
     * against the p50's band); with {@code --aa} each beside the bare loop's against itself, which says whether the
     * rounds can decide it at all.
     */
    static void printSplit(PrintStream out, Map<String, List<FidelityFigures[]>> measured) {
        out.printf(
                Locale.ROOT,
                "%nThe p50 taken apart: operations >= %d ms (backed off) as a share of all, median over the rounds"
                        + " (omb-tx / bare), and omb-tx ÷ bare of their counts round by round with its %.0f%% interval"
                        + " (against %.2f–%.2f); the median of the operations under %d ms, omb-tx ÷ bare with its"
                        + " interval (target %.2f–%.2f)%n",
                FidelityFigures.BACKED_OFF_MICROS / 1000,
                CONFIDENCE * 100,
                1 - SLOW_TOLERANCE,
                1 + SLOW_TOLERANCE,
                FidelityFigures.BACKED_OFF_MICROS / 1000,
                LOW,
                HIGH);
        for (Map.Entry<String, List<FidelityFigures[]>> e : measured.entrySet()) {
            List<FidelityFigures[]> runs = e.getValue();
            if (runs.stream().anyMatch(r -> Double.isNaN(r[0].fastP50()) || Double.isNaN(r[1].fastP50()))) {
                continue; // a round with no fast operation on one side: nothing to take apart
            }
            out.printf(
                    Locale.ROOT,
                    "%-25s | backed off %4.1f%% / %4.1f%% | %s%n",
                    e.getKey(),
                    100 * sideMedian(runs, 0, FidelityFigures::backedOffShare),
                    100 * sideMedian(runs, 1, FidelityFigures::backedOffShare),
                    splitFigures(runs));
            if (runs.get(0).length > 2) {
                List<FidelityFigures[]> aa = againstItself(runs);
                out.printf(Locale.ROOT, "%-25s | %-27s | %s%n", e.getKey() + " (A/A)", "", splitFigures(aa));
            }
        }
    }

    /** The split's two comparisons of {@code runs}' first side against its second. */
    private static String splitFigures(List<FidelityFigures[]> runs) {
        double[] backedOff = runs.stream()
                .filter(r -> r[1].backedOff() > 0)
                .mapToDouble(r -> (double) r[0].backedOff() / r[1].backedOff())
                .sorted()
                .toArray();
        boolean few = runs.stream()
                .allMatch(r -> r[0].backedOff() < 0.01 * r[0].count() && r[1].backedOff() < 0.01 * r[1].count());
        double[] fast = ratios(runs, FidelityFigures::fastP50);
        return String.format(
                Locale.ROOT,
                "backed off × %s | under %d ms p50 × %.3f %s",
                few || backedOff.length == 0
                        ? "too few to compare"
                        : String.format(
                                Locale.ROOT,
                                "%.3f %s",
                                median(backedOff),
                                decided(backedOff, 1 - SLOW_TOLERANCE, 1 + SLOW_TOLERANCE)),
                FidelityFigures.BACKED_OFF_MICROS / 1000,
                median(fast),
                decided(fast, LOW, HIGH));
    }

    /**
     * Whether the warm-up was long enough: the bare loop's {@link FidelityFigures#settling} per round. omb-tx's result
     * holds its operations as a histogram, out of order, so only the bare side can be taken apart; a bare loop still
     * getting faster says both sides measured part of their warm-up, and omb-tx, with more code on its path to compile,
     * may be further from its steady state than the bare loop is.
     */
    static void printSettling(PrintStream out, Map<String, List<FidelityFigures[]>> measured) {
        out.printf(
                Locale.ROOT,
                "%nSettled? The bare loop's p50 of its measured operations' second half ÷ their first half, median"
                        + " [min–max] over the rounds: below %.2f the loop was still getting faster after the warm-up"
                        + " (raise --warmup)%n",
                LOW);
        for (Map.Entry<String, List<FidelityFigures[]>> e : measured.entrySet()) {
            double[] settling = e.getValue().stream()
                    .mapToDouble(r -> r[1].settling())
                    .filter(x -> !Double.isNaN(x))
                    .sorted()
                    .toArray();
            if (settling.length == 0) {
                continue;
            }
            out.printf(
                    Locale.ROOT,
                    "%-25s | %s%s%n",
                    e.getKey(),
                    spread(settling),
                    median(settling) < LOW ? " still warming up" : "");
        }
    }

    /** One line of the intervals' table: {@code runs}' first side against its second. */
    private static void printIntervalLine(PrintStream out, String label, List<FidelityFigures[]> runs) {
        double[] slow = runs.stream()
                .filter(r -> r[1].slow() > 0)
                .mapToDouble(r -> (double) r[0].slow() / r[1].slow())
                .sorted()
                .toArray();
        double slowOmb = sideMedian(runs, 0, FidelityFigures::slow);
        double slowBare = sideMedian(runs, 1, FidelityFigures::slow);
        out.printf(
                Locale.ROOT,
                "%-25s | %-38s | %-38s | %-38s | %s%n",
                label,
                decided(ratios(runs, FidelityFigures::p50), LOW, HIGH),
                decided(ratios(runs, FidelityFigures::p99), LOW, HIGH),
                decided(ratios(runs, FidelityFigures::total), LOW, HIGH),
                rare(slowOmb, slowBare, runs) || slow.length == 0
                        ? "too few to compare"
                        : decided(slow, 1 - SLOW_TOLERANCE, 1 + SLOW_TOLERANCE));
    }

    /** The interval of {@code sorted}'s median and what it decides against [{@code low}, {@code high}]. */
    private static String decided(double[] sorted, double low, double high) {
        double[] interval = interval(sorted);
        if (interval == null) {
            return "too few rounds";
        }
        String verdict = interval[0] >= low && interval[1] <= high
                ? "met"
                : interval[1] < low || interval[0] > high ? "not met" : "undecided";
        if (verdict.equals("undecided")) {
            long rounds = roundsToDecide(sorted, low, high);
            verdict += rounds < 0 ? " (at the band's edge)" : " (≈" + rounds + " rounds)";
        }
        return String.format(Locale.ROOT, "[%.3f–%.3f] %s", interval[0], interval[1], verdict);
    }

    /** Beyond this many rounds an estimate says only that the median sits at the band's edge. */
    static final long MAX_ROUNDS_ESTIMATE = 10_000;

    /**
     * About how many rounds would decide an undecided median at the spread measured: an order-statistics interval
     * narrows as one over the square root of the rounds, so it must shrink by the factor by which it overreaches
     * the room between the median and the band's edge on its side (both edges for a median inside the band);
     * -1 when that takes more than {@link #MAX_ROUNDS_ESTIMATE} rounds (the median is at the edge) or there is no
     * interval to scale (fewer than 5 rounds), 0 when the interval already decides. An estimate for planning the
     * next run, not a verdict.
     */
    static long roundsToDecide(double[] sorted, double low, double high) {
        double[] interval = interval(sorted);
        if (interval == null) {
            return -1;
        }
        double m = median(sorted);
        double factor;
        if (m < low) {
            factor = (interval[1] - m) / (low - m);
        } else if (m > high) {
            factor = (m - interval[0]) / (m - high);
        } else {
            factor = Math.max(
                    m == low ? Double.POSITIVE_INFINITY : (m - interval[0]) / (m - low),
                    m == high ? Double.POSITIVE_INFINITY : (interval[1] - m) / (high - m));
        }
        if (factor <= 1) {
            return 0;
        }
        double rounds = Math.ceil(sorted.length * factor * factor);
        return rounds > MAX_ROUNDS_ESTIMATE ? -1 : (long) rounds;
    }

    /**
     * The distribution-free {@link #CONFIDENCE} confidence interval of the median of {@code sorted}: the k-th smallest
     * and k-th largest values, for the largest k whose interval covers the median with that probability (the number
     * of values below the median is Binomial(n, ½)); null when even the whole range covers it less often (fewer than
     * 5 values).
     */
    static double[] interval(double[] sorted) {
        return OrderStatistics.medianInterval(sorted, CONFIDENCE);
    }

    /** Both sides' slow operations under 1% of the operations: too few for a ±10% comparison to mean anything. */
    private static boolean rare(double slowOmb, double slowBare, List<FidelityFigures[]> runs) {
        double operations = runs.get(0)[1].count();
        return slowOmb < 0.01 * operations && slowBare < 0.01 * operations;
    }

    /**
     * The verdict column: MET, or NOT MET with the figures missed. With {@code --aa} each missed ratio is set beside
     * the bare loop's against itself: a figure the bare loop ÷ itself also misses (its median outside the band too),
     * with omb-tx's median inside the A/A's [min–max], is marked "A/A misses it too", and when every missed figure is
     * so marked the verdict says the target cannot be decided by these rounds on this machine, rather than that
     * omb-tx measured another loop. A miss wider than the bare loop's own spread stays omb-tx's.
     */
    static String verdict(List<String> missed, List<FidelityFigures[]> runs) {
        if (missed.isEmpty()) {
            return "MET";
        }
        if (runs.get(0).length < 3) {
            return "NOT MET (" + String.join(", ", missed) + ")";
        }
        List<FidelityFigures[]> aa = againstItself(runs);
        List<String> marked = new ArrayList<>();
        int alsoAa = 0;
        for (String name : missed) {
            ToDoubleFunction<FidelityFigures> figure =
                    switch (name) {
                        case "p50" -> FidelityFigures::p50;
                        case "p99" -> FidelityFigures::p99;
                        case "total" -> FidelityFigures::total;
                        default -> null;
                    };
            boolean aaMisses;
            String aaValue;
            if (figure != null) {
                double[] floors = ratios(aa, figure);
                double floor = median(floors);
                double omb = median(ratios(runs, figure));
                aaMisses = (floor < LOW || floor > HIGH) && omb >= floors[0] && omb <= floors[floors.length - 1];
                aaValue = String.format(Locale.ROOT, "%.3f", floor);
            } else {
                aaMisses = slowMissed(aa);
                aaValue = String.format(
                        Locale.ROOT,
                        "%.1f / %.1f",
                        sideMedian(aa, 0, FidelityFigures::slow),
                        sideMedian(aa, 1, FidelityFigures::slow));
            }
            if (aaMisses) {
                alsoAa++;
                marked.add(name + ": A/A misses it too, " + aaValue);
            } else {
                marked.add(name);
            }
        }
        return (alsoAa == missed.size() ? "NOT DECIDED here (" : "NOT MET (")
                + String.join(alsoAa > 0 ? "; " : ", ", marked) + ")";
    }

    /** Whether the first side's operations of 50 ms or more (median) are off the second's by more than 10%. */
    private static boolean slowMissed(List<FidelityFigures[]> runs) {
        double first = sideMedian(runs, 0, FidelityFigures::slow);
        double second = sideMedian(runs, 1, FidelityFigures::slow);
        return Math.abs(first - second) > SLOW_TOLERANCE * second && !rare(first, second, runs);
    }

    private static void check(List<String> missed, String name, double[] sortedRatios) {
        double median = median(sortedRatios);
        if (median < LOW || median > HIGH) {
            missed.add(name);
        }
    }

    private static double[] ratios(List<FidelityFigures[]> runs, ToDoubleFunction<FidelityFigures> figure) {
        return Bench.ratios(runs, 0, 1, figure);
    }

    private static String spread(double[] values) {
        return Bench.spread(values, "%.3f");
    }
}
