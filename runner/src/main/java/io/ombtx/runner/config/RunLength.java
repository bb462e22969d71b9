package io.ombtx.runner.config;

import io.ombtx.driver.api.OperationKind;
import io.ombtx.driver.api.OperationSpec;
import io.ombtx.driver.api.config.ConfigFields;
import java.time.Duration;

/**
 * How long a run warms up and measures: durations (OMB's), or counts of operations (the seeds'; a count of messages
 * is turned into operations). The durations are zero in a count-based run, the counts zero in a time-based one.
 */
public record RunLength(Duration warmupDuration, Duration testDuration, long warmupOperations, long measureOperations) {

    public boolean countBased() {
        return measureOperations > 0;
    }

    static RunLength read(ConfigFields f, OperationSpec operation, LoadRate load) {
        boolean hasCounts = f.has("measureOperations") || f.has("measureMessages");
        boolean hasDuration = f.has("testDurationMinutes") || f.has("testDurationSeconds");
        if (hasCounts && hasDuration) {
            throw f.error(
                    f.has("testDurationMinutes") ? "testDurationMinutes" : "testDurationSeconds",
                    "give the run length either as a duration or as a count (measureOperations/measureMessages), not both");
        }
        if (!hasCounts && !hasDuration) {
            throw f.error(
                    "testDurationMinutes",
                    "required: a run length (testDurationMinutes, testDurationSeconds, measureOperations or measureMessages)");
        }
        if (f.has("testDurationMinutes") && f.has("testDurationSeconds")) {
            throw f.error("testDurationSeconds", "give testDurationMinutes or testDurationSeconds, not both");
        }
        if (f.has("measureOperations") && f.has("measureMessages")) {
            throw f.error("measureMessages", "give measureOperations or measureMessages, not both");
        }
        RunLength length = hasDuration ? durations(f) : counts(f, operation);
        if (load.consumerBacklogSizeGB() > 0 && hasCounts) {
            throw f.error(
                    "consumerBacklogSizeGB",
                    "a backlog run is time-based: use testDurationMinutes or testDurationSeconds");
        }
        return length;
    }

    private static RunLength durations(ConfigFields f) {
        Duration test = f.has("testDurationSeconds")
                ? Duration.ofSeconds(f.wholeNumber("testDurationSeconds", 0L, 1L, 31L * 24 * 3600))
                : Duration.ofMinutes(f.wholeNumber("testDurationMinutes", 0L, 1L, 31L * 24 * 60));
        if (f.has("warmupOperations") || f.has("warmupMessages")) {
            throw f.error(
                    f.has("warmupOperations") ? "warmupOperations" : "warmupMessages",
                    "a duration-based run warms up for a duration: use warmupDurationSeconds or warmupDurationMinutes");
        }
        Duration warmup = f.has("warmupDurationSeconds")
                ? Duration.ofSeconds(f.wholeNumber("warmupDurationSeconds", 0L, 0L, 31L * 24 * 3600))
                : Duration.ofMinutes(f.wholeNumber("warmupDurationMinutes", 1L, 0L, 31L * 24 * 60));
        return new RunLength(warmup, test, 0, 0);
    }

    private static RunLength counts(ConfigFields f, OperationSpec operation) {
        if (f.has("warmupDurationSeconds") || f.has("warmupDurationMinutes")) {
            throw f.error(
                    f.has("warmupDurationSeconds") ? "warmupDurationSeconds" : "warmupDurationMinutes",
                    "a count-based run warms up for a count: use warmupOperations or warmupMessages");
        }
        int perOp = Math.max(1, operation.kind() == OperationKind.SEND_OFFSETS ? 1 : operation.messagesPerOperation());
        long measureOps = f.has("measureOperations")
                ? f.wholeNumber("measureOperations", 0L, 1L, Long.MAX_VALUE)
                : messagesToOperations(f, "measureMessages", perOp, 1L);
        long warmupOps = f.has("warmupMessages")
                ? messagesToOperations(f, "warmupMessages", perOp, 0L)
                : f.wholeNumber("warmupOperations", 0L, 0L, Long.MAX_VALUE);
        return new RunLength(Duration.ZERO, Duration.ZERO, warmupOps, measureOps);
    }

    private static long messagesToOperations(ConfigFields f, String key, int perOperation, long min) {
        long messages = f.wholeNumber(key, 0L, min, Long.MAX_VALUE);
        if (messages % perOperation != 0) {
            throw f.error(
                    key,
                    messages + " messages is not a whole number of operations of " + perOperation
                            + " messages (operation.messagesPerOperation)");
        }
        return messages / perOperation;
    }
}
