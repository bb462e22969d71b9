package io.ombtx.runner.result;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ombtx.runner.stats.Counter;
import io.ombtx.runner.stats.CpuMeter;
import io.ombtx.runner.stats.Latency;
import io.ombtx.runner.stats.StatsSnapshot;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class RateJudgeTest {

    private static RunResult.RunMode open(Long target) {
        return new RunResult.RunMode(
                RunResult.Loop.OPEN,
                target,
                target == null,
                RunResult.RunLength.seconds(1),
                RunResult.RunLength.seconds(10),
                10,
                null,
                10);
    }

    /** The verdict, checked to be a valid {@code rate} of a result file. */
    private static RunResult.RateVerdict judged(ResultBuilder.RunFacts facts, StatsSnapshot measured) {
        RunResult.RateVerdict verdict = RateJudge.verdict(facts, measured);
        if (verdict != null) {
            ResultSchema.assertValidAs("rate", verdict);
        }
        return verdict;
    }

    /** Ten seconds measured, {@code sent} messages, publish delays of {@code delayMicros} each. */
    private static StatsSnapshot measured(long sent, long delayMicros) {
        StatsSnapshot s = new StatsSnapshot();
        s.put(Counter.MESSAGES_SENT, sent);
        // The measured operations may reach back into the warm-up: the rate is over the phase's wall time (10 s).
        s.put(Counter.MEASURED_SPAN_NANOS, 13_000_000_000L);
        s.histogram(Latency.PUBLISH_DELAY).recordValueWithCount(delayMicros, 100);
        return s;
    }

    private static ResultBuilder.RunFacts facts(
            RunResult.RunMode mode, CpuMeter.Use cpu, List<RunResult.ClientWarning> warnings) {
        return ResultBuilder.RunFacts.builder()
                .runMode(mode)
                .startTime(Instant.EPOCH)
                .endTime(Instant.EPOCH.plusSeconds(10))
                .broker(RunResult.Broker.embedded(1, "4.1.1", "default", Map.of()))
                .cpu(cpu)
                .clientWarnings(warnings)
                .build();
    }

    @Test
    void aRateWithinFivePercentAndASmallPublishDelayIsHeld() {
        RunResult.RateVerdict v =
                judged(facts(open(1000L), new CpuMeter.Use(0.3, 0.5, 2), List.of()), measured(9_600, 500));
        assertTrue(v.held());
        assertEquals(960.0, v.achieved(), 1e-9);
        assertEquals(0.96, v.ratio(), 1e-9);
        assertNull(v.limitedBy());
        assertEquals(0.3, v.loadGeneratorCpu());
        assertEquals(2, v.cores());
    }

    @Test
    void aRateMissedWithTheLoadGeneratorBusyIsTheLoadGenerators() {
        RunResult.RateVerdict v =
                judged(facts(open(1000L), new CpuMeter.Use(0.97, 0.99, 2), List.of()), measured(5_000, 500));
        assertFalse(v.held());
        assertEquals("load generator", v.limitedBy());
        assertTrue(v.evidence().startsWith("the load generator used 97% of 2 core(s)"), v.evidence());
    }

    @Test
    void aRateMissedWithTheMachineBusyAndAnEmbeddedBrokerIsTheMachines() {
        RunResult.RateVerdict v =
                judged(facts(open(1000L), new CpuMeter.Use(0.6, 0.98, 2), List.of()), measured(5_000, 500));
        assertEquals("machine", v.limitedBy());
    }

    @Test
    void aRateMissedWithCpuToSpareIsTheBrokersWithTheRetriesItCausedAndALatePublishIsNotHeld() {
        List<RunResult.ClientWarning> retries = List.of(new RunResult.ClientWarning(
                "WARN", "Sender", "... Error: CONCURRENT_TRANSACTIONS", 2_048, 50, Instant.EPOCH, Instant.EPOCH));
        RunResult.RateVerdict late =
                judged(facts(open(1000L), new CpuMeter.Use(0.3, 0.5, 2), retries), measured(9_900, 2_500_000));
        assertFalse(late.held(), "every message sent, but 2.5 s late");
        assertEquals(2500.0, late.publishDelayP99Millis(), 2.0);
        assertEquals("broker", late.limitedBy());
        assertTrue(late.evidence().contains("retried 2,048 request(s)"), late.evidence());
    }

    @Test
    void aBusyRemoteWorkerIsTheLoadGeneratorNamedAndItsMachineIsNotTheBrokers() {
        CpuMeter.Use busy = new CpuMeter.Use(0.97, 0.99, 8).at("http://w2:8080");
        RunResult.RateVerdict verdict = judged(facts(open(1000L), busy, List.of()), measured(100, 500));
        assertEquals("load generator", verdict.limitedBy());
        assertTrue(
                verdict.evidence().startsWith("the load generator (the busiest worker, http://w2:8080) used 97% of 8"),
                verdict.evidence());
        // A remote worker's machine is not the embedded broker's: its busy cores are not "the machine" limit.
        CpuMeter.Use idleProcess = new CpuMeter.Use(0.20, 0.99, 8).at("http://w2:8080");
        assertEquals(
                "broker",
                judged(facts(open(1000L), idleProcess, List.of()), measured(100, 500))
                        .limitedBy());
    }

    @Test
    void aRunThatEndedInSetUpHasNothingToJudge() {
        // What a set-up failure writes: the measured phase began and ended at the same instant, nothing measured.
        ResultBuilder.RunFacts nothing = ResultBuilder.RunFacts.builder()
                .runMode(open(1000L))
                .startTime(Instant.EPOCH)
                .endTime(Instant.EPOCH)
                .build();
        assertNull(judged(nothing, measured(0, 0)));
    }

    @Test
    void remoteWorkersLeaveTheLimitUnsaidAndClosedLoopsGetNoVerdict() {
        RunResult.RateVerdict remote = judged(facts(open(1000L), null, List.of()), measured(100, 500));
        assertFalse(remote.held());
        assertNull(remote.limitedBy());
        assertTrue(remote.evidence().contains("remote workers that did not report their CPU"), remote.evidence());
        RunResult.RunMode closed = new RunResult.RunMode(
                RunResult.Loop.CLOSED,
                null,
                false,
                RunResult.RunLength.seconds(1),
                RunResult.RunLength.seconds(10),
                10,
                null,
                10);
        assertNull(judged(facts(closed, null, List.of()), measured(100, 500)));
        assertNull(judged(facts(open(null), null, List.of()), measured(100, 500)), "a search not run");
    }

    @Test
    void theAchievedRateCountsTheMessagesTheMeasurementSentNotTheWarmUpsAcknowledgedInIt() {
        StatsSnapshot s = measured(14_700, 500); // acknowledged in the 10 s, 4,700 of them sent in the warm-up
        s.put(Counter.MESSAGES_SENT_MEASURED, 10_000);
        RunResult.RateVerdict v = judged(facts(open(1000L), new CpuMeter.Use(0.3, 0.5, 2), List.of()), s);
        assertEquals(1000.0, v.achieved(), 1e-9);
        assertTrue(v.held());
    }
}
