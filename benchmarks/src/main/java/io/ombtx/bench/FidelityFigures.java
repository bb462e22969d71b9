package io.ombtx.bench;

import io.ombtx.runner.result.ResultReader;
import io.ombtx.runner.stats.Histograms;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.HdrHistogram.Histogram;

/**
 * One side's figures of one run: latencies in ms, the count of slow operations and of all, the loop's gap
 * from a commit returning to the next begin (plain writes: from the last ack to the next send; {@link LoopFiles}),
 * p50 and p90 in µs over the measured operations
 * (NaN when not recorded), the median of the operations under {@link #SLOW_MICROS} in ms (NaN when none), and the
 * count of operations of {@link #BACKED_OFF_MICROS} or more; omb-tx's side also how long its operations' clocks
 * were stopped inside them (its runner's bookkeeping, {@link LoopFiles#paused}), p50 and p90 in µs over the
 * measured operations that paused (NaN for the bare loop, which has no such time, or when not recorded).
 */
record FidelityFigures(
        double p50,
        double p99,
        double total,
        long slow,
        long count,
        Map<String, Double> phaseMeans,
        double gapP50,
        double gapP90,
        double fastP50,
        long backedOff,
        double settling,
        double pauseP50,
        double pauseP90) {

    /**
     * These figures with the paused times of {@code file} (one per paused operation, in order; the last {@link
     * #count} of them are the measured operations'), unchanged when there is no such file.
     */
    FidelityFigures withPauses(Path file) throws IOException {
        double[] pauses = lastMicros(file, count);
        if (pauses.length == 0) {
            return this;
        }
        return new FidelityFigures(
                p50,
                p99,
                total,
                slow,
                count,
                phaseMeans,
                gapP50,
                gapP90,
                fastP50,
                backedOff,
                settling,
                pauses[pauses.length / 2],
                pauses[pauses.length * 9 / 10]);
    }

    /** As {@link #of(Histogram, Map, Path, double)}, the run order of the operations unknown (a histogram's). */
    static FidelityFigures of(Histogram operations, Map<String, Histogram> phases, Path gapFile) throws IOException {
        return of(operations, phases, gapFile, Double.NaN);
    }

    /** @param settling the operations' {@link #settling(long[])}, NaN when their order is not known */
    static FidelityFigures of(Histogram operations, Map<String, Histogram> phases, Path gapFile, double settling)
            throws IOException {
        Map<String, Double> means = new LinkedHashMap<>();
        phases.forEach((name, h) -> means.put(name, h.getMean() / 1000));
        double[] gaps = lastMicros(gapFile, operations.getTotalCount());
        return new FidelityFigures(
                operations.getValueAtPercentile(50) / 1000.0,
                operations.getValueAtPercentile(99) / 1000.0,
                operations.getMean() * operations.getTotalCount() / 1000.0,
                operations.getCountBetweenValues(SLOW_MICROS, operations.getMaxValue() + 1),
                operations.getTotalCount(),
                means,
                gaps.length == 0 ? Double.NaN : gaps[gaps.length / 2],
                gaps.length == 0 ? Double.NaN : gaps[gaps.length * 9 / 10],
                fastMedian(operations),
                operations.getCountBetweenValues(BACKED_OFF_MICROS, operations.getMaxValue() + 1),
                settling,
                Double.NaN, // paused times: read by withPauses, omb-tx's side only
                Double.NaN);
    }

    /**
     * Whether a run measured a loop still warming up: the median of the second half of its measured operations
     * (in the order they ran) ÷ the median of the first half. About 1 when steady; below it when the loop was
     * still getting faster (the JIT compiling the loop's path, the broker's caches filling) after the warm-up.
     */
    static double settling(long[] operationMicros) {
        int half = operationMicros.length / 2;
        if (half == 0) {
            return Double.NaN;
        }
        long[] first = Arrays.copyOfRange(operationMicros, 0, half);
        long[] second = Arrays.copyOfRange(operationMicros, operationMicros.length - half, operationMicros.length);
        Arrays.sort(first);
        Arrays.sort(second);
        return (double) second[half / 2] / first[half / 2];
    }

    /**
     * The median of the operations that met no back-off (under {@link #BACKED_OFF_MICROS}), in ms; NaN when there
     * are none.
     */
    static double fastMedian(Histogram operations) {
        long fast = operations.getCountBetweenValues(0, BACKED_OFF_MICROS - 1);
        return fast == 0
                ? Double.NaN
                : operations.getValueAtPercentile(100.0 * Math.max(1, fast / 2) / operations.getTotalCount()) / 1000.0;
    }

    /** The operations that met a back-off ({@link #BACKED_OFF_MICROS} or more) as a share of all. */
    double backedOffShare() {
        return count == 0 ? 0 : (double) backedOff / count;
    }

    /**
     * The last {@code measured} values of a {@link LoopFiles} file (the measured operations' gaps or pauses, in ns,
     * one per line), sorted, in µs; none when there is no file.
     */
    private static double[] lastMicros(Path file, long measured) throws IOException {
        if (!Files.exists(file)) {
            return new double[0];
        }
        List<String> lines = Files.readAllLines(file);
        return lines.subList((int) Math.max(0, lines.size() - measured), lines.size()).stream()
                .mapToDouble(line -> Long.parseLong(line.trim()) / 1000.0)
                .sorted()
                .toArray();
    }

    /** Operations of at least this many ms are counted: the tail where back-off collisions land. */
    static final long SLOW_MICROS = 50_000;

    /**
     * Operations this long or longer met a back-off of some kind: the ~100 ms of {@link #SLOW_MICROS}, and a 20 ms one
     * for a transaction's first write to a partition while the previous transaction's markers are still being
     * written (with transaction version 2 the broker retries adding the partition itself, after {@code
     * add.partitions.to.txn.retry.backoff.ms}, 20 ms, since Kafka 4.0; with version 1 kafka-clients retries its
     * {@code AddPartitionsToTxn} after 20 ms). ack-first's resolve phase is ~0.5 ms or ~22 ms. Printed, not a target.
     */
    static final long BACKED_OFF_MICROS = 10_000;

    /** omb-tx's figures from its result file (and its loop-gap and paused-time files beside it, when kept). */
    static FidelityFigures readOmbTx(String scenario, Path output) throws IOException {
        Map<String, String> histograms = ResultReader.read(output).histograms();
        Map<String, Histogram> phases = new LinkedHashMap<>();
        histograms.forEach((name, encoded) -> {
            if (name.startsWith("phase.")) {
                phases.put(name.substring(6), Histograms.decode(encoded));
            }
        });
        // tx-fetch: the seeds' operation ends when the write is seen (their loop's last lap); omb-tx's operation is the
        // transaction and the wait for visibility is its end-to-end latency, from the record's publish time (taken
        // before the begin) to its receipt.
        String operations = scenario.equals("tx-fetch") ? "endToEndLatencyMicros" : "operationLatencyMicros";
        return FidelityFigures.of(Histograms.decode(histograms.get(operations)), phases, gapFile(output))
                .withPauses(pauseFile(output));
    }

    /** The bare loop's figures from its per-operation file (and its loop-gap file beside it). */
    static FidelityFigures readBare(Path output) throws IOException {
        List<String> lines = Files.readAllLines(output);
        String[] names = lines.get(0).split(",");
        Histogram operations = new Histogram(3);
        Map<String, Histogram> phases = new LinkedHashMap<>();
        for (int i = 1; i < names.length; i++) {
            phases.put(names[i], new Histogram(3));
        }
        long[] inOrder = new long[lines.size() - 1]; // the measured operations, as they ran
        for (int op = 0; op < inOrder.length; op++) {
            String[] values = lines.get(op + 1).split(",");
            inOrder[op] = Long.parseLong(values[0]) / 1000;
            operations.recordValue(inOrder[op]);
            for (int i = 1; i < values.length; i++) {
                phases.get(names[i]).recordValue(Long.parseLong(values[i]) / 1000);
            }
        }
        return FidelityFigures.of(operations, phases, gapFile(output), FidelityFigures.settling(inOrder));
    }

    static Path gapFile(Path output) {
        return output.resolveSibling(output.getFileName() + ".gaps");
    }

    /** Where omb-tx's side writes how long each operation's clock was stopped ({@link LoopFiles#paused}). */
    static Path pauseFile(Path output) {
        return output.resolveSibling(output.getFileName() + ".pauses");
    }
}
