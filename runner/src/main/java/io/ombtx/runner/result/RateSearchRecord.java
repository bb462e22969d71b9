package io.ombtx.runner.result;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import java.util.List;

/**
 * How {@code producerRate: 0} found the rate the run was measured at ({@code runMode.maxRateSearch}): the criterion
 * in words, the rate found, how long the search took, and every probe.
 *
 * @param criterion what made a probe "sustained"
 * @param foundRate msg/s held for the warm-up and the measured phase
 * @param seconds wall-clock time of the search, before the warm-up
 * @param completed false when the run ended (or a worker failed) before the search converged
 */
@JsonPropertyOrder({"criterion", "foundRate", "seconds", "completed", "steps"})
public record RateSearchRecord(
        String criterion, double foundRate, double seconds, boolean completed, List<Probe> steps) {

    /**
     * One probe window.
     *
     * @param stage ramp, bisect or confirm
     * @param receivedRate per subscription; absent when nothing consumes
     * @param ackedRate absent when operations write no messages
     * @param inFlightGrowth msg/s: least-squares slope, over the window, of the messages issued but not yet
     *     acknowledged; absent when operations write no messages
     * @param backlogGrowth msg/s: the same for the messages acknowledged but not yet received, per subscription;
     *     absent when nothing consumes
     * @param publishDelayP99Millis the publish delay's 99th percentile over the window; absent when none was recorded
     * @param latencyP99Millis the operations' latency 99th percentile over the window, when a {@code latencyTarget}
     *     bounded the search; absent otherwise
     */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    @JsonPropertyOrder({
        "stage",
        "targetRate",
        "seconds",
        "issuedRate",
        "ackedRate",
        "receivedRate",
        "sustained",
        "inFlightGrowth",
        "backlogGrowth",
        "publishDelayP99Millis",
        "latencyP99Millis"
    })
    public record Probe(
            String stage,
            double targetRate,
            double seconds,
            double issuedRate,
            Double ackedRate,
            Double receivedRate,
            boolean sustained,
            Double inFlightGrowth,
            Double backlogGrowth,
            Double publishDelayP99Millis,
            Double latencyP99Millis) {}
}
