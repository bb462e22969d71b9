package io.ombtx.runner.result;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import io.ombtx.runner.stats.Counter;
import io.ombtx.runner.stats.Latency;
import io.ombtx.runner.stats.Period;
import io.ombtx.runner.stats.StatsSnapshot;
import java.util.ArrayList;
import java.util.List;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

/** OMB's per-period lists come on OMB's 10-s period whatever interval the run reported progress at. */
class OmbPeriodsTest {

    /** Five 2-s periods per OMB period: the first sends 100 messages at 1 ms each, the others 10 more each. */
    private static List<Period> twoSecondPeriods(int count) {
        List<Period> periods = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            StatsSnapshot stats = new StatsSnapshot();
            long sent = i % 5 == 0 ? 100 : 10;
            stats.put(Counter.MESSAGES_SENT, sent);
            Histogram h = stats.histogram(Latency.PUBLISH_LATENCY);
            h.recordValueWithCount(i % 5 == 0 ? 1_000 : 50_000, sent); // µs
            periods.add(new Period(2.0, 2.0 * (i + 1), stats, i));
        }
        return periods;
    }

    @Test
    void theOmbPeriodIsTenSecondsWheneverTheIntervalDividesIt() {
        assertEquals(10, OmbPeriods.seconds(1));
        assertEquals(10, OmbPeriods.seconds(2));
        assertEquals(10, OmbPeriods.seconds(5));
        assertEquals(10, OmbPeriods.seconds(10));
        assertEquals(3, OmbPeriods.seconds(3)); // cannot be merged into 10-s periods: stays, and the result says so
        assertEquals(30, OmbPeriods.seconds(30));
    }

    @Test
    void shortPeriodsMergeExactlyIntoTenSecondOnes() {
        List<Period> merged = OmbPeriods.regroup(twoSecondPeriods(12), 2);
        assertEquals(3, merged.size()); // 5 + 5 + the 2 periods of the run's last 4 s
        Period first = merged.get(0);
        assertEquals(10.0, first.seconds());
        assertEquals(10.0, first.elapsedSeconds());
        assertEquals(4, first.backlog()); // the backlog at the end of its last part
        assertEquals(140, first.stats().counter(Counter.MESSAGES_SENT));
        Histogram publish = first.stats().histogram(Latency.PUBLISH_LATENCY);
        assertEquals(140, publish.getTotalCount());
        // 100 of 140 samples at 1 ms: the median is 1 ms, the 99th percentile 50 ms (histograms added, not averaged)
        assertEquals(
                publish.lowestEquivalentValue(1_000), publish.lowestEquivalentValue(publish.getValueAtPercentile(50)));
        assertEquals(
                publish.lowestEquivalentValue(50_000), publish.lowestEquivalentValue(publish.getValueAtPercentile(99)));
        Period last = merged.get(2);
        assertEquals(4.0, last.seconds());
        assertEquals(24.0, last.elapsedSeconds());
        assertEquals(110, last.stats().counter(Counter.MESSAGES_SENT));
    }

    @Test
    void tenSecondAndUnmergeableIntervalsAreLeftAlone() {
        List<Period> periods = twoSecondPeriods(4);
        assertSame(periods, OmbPeriods.regroup(periods, 10));
        assertSame(periods, OmbPeriods.regroup(periods, 3));
    }
}
