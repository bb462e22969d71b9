package io.ombtx.driver.kafka;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ombtx.driver.api.LiveCheckReport;
import io.ombtx.driver.api.LiveCheckReport.Kind;
import io.ombtx.driver.api.LiveCheckReport.Violation;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The live check's rules, record by record, without a broker. */
class LiveCheckStateTest {

    private static final String OUT = "src-out";

    private static byte[] key(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    /** Output partition 0, offsets counting up, the source records named by {@code keys}, seen at time 1000 + i. */
    private static LiveCheckState read(String... keys) {
        LiveCheckState state = new LiveCheckState(OUT, LiveCheckReport.MAX_VIOLATIONS);
        for (int i = 0; i < keys.length; i++) {
            state.accept(0, i, key(keys[i]), false, 1000 + i);
        }
        return state;
    }

    @Test
    void outputsOfEverySourceRecordOnceInSourceOrderPass() {
        LiveCheckState state = read("0:0", "1:0", "0:1", "0:2", "1:1", "1:5");
        state.committed(Map.of(0, 3L, 1, 6L), 2000);
        LiveCheckReport report = state.report(true);
        assertEquals(new LiveCheckReport(6, 0, 0, 0, 0, 0, true, List.of()), report);
        assertTrue(report.passed());
    }

    @Test
    void aSourceRecordSeenTwiceIsADuplicateWhereTheSecondCopyIs() {
        LiveCheckReport report = read("0:0", "0:1", "0:1", "0:2").report(true);
        assertEquals(1, report.duplicates());
        assertEquals(0, report.outOfOrder(), "a duplicate is counted once, as a duplicate");
        assertEquals(
                List.of(new Violation(
                        Kind.DUPLICATE, OUT, 0, 2, 0, 1, 1002, "source record 0:1 was already in the output")),
                report.violations());
        assertFalse(report.passed());
    }

    @Test
    void aRecordBelowTheHighestOfItsSourcePartitionIsOutOfOrder() {
        LiveCheckReport report = read("0:0", "0:2", "1:9", "0:1", "0:3").report(true);
        assertEquals(1, report.outOfOrder(), "the other source partition keeps its own order");
        assertEquals(0, report.duplicates());
        Violation v = report.violations().get(0);
        assertEquals(Kind.OUT_OF_ORDER, v.kind());
        assertEquals(3, v.offset());
        assertEquals(1, v.sourceOffset());
        assertEquals("after source offset 2 of the same source partition", v.detail());
    }

    @Test
    void aMarkedRecordIsCountedAsAbortedWhateverItsKey() {
        LiveCheckState state = read("0:0");
        state.accept(0, 1, key("0:1"), true, 5000);
        state.accept(0, 2, key("0:1"), false, 5001);
        LiveCheckReport report = state.report(true);
        assertEquals(1, report.abortedSeen());
        assertEquals(0, report.duplicates(), "the aborted copy does not count as the source's output");
        assertEquals(
                new Violation(Kind.ABORTED, OUT, 0, 1, 0, 1, 5000, "written in a transaction aborted on purpose"),
                report.violations().get(0));
    }

    @Test
    void keysThatNameNoSourceRecordAreUnknown() {
        LiveCheckState state = read("0:0");
        state.accept(0, 1, null, false, 1);
        state.accept(0, 2, key("x:1"), false, 2);
        state.accept(0, 3, key("0:"), false, 3);
        state.accept(0, 4, key("99999999:1"), false, 4);
        LiveCheckReport report = state.report(true);
        assertEquals(4, report.unknownSource());
        assertEquals(-1, report.violations().get(0).sourcePartition());
        assertEquals(99999999, report.violations().get(3).sourcePartition(), "named, but beyond what is tracked");
    }

    @Test
    void outputsSeenAtOrAboveTheCommittedOffsetAreUncommittedAndCountedOnce() {
        LiveCheckState state = read("0:0", "0:1", "0:2", "0:3");
        state.committed(Map.of(0, 2L), 7000); // 0:2 and 0:3 are visible, their offsets not committed
        LiveCheckReport first = state.report(true);
        assertEquals(2, first.uncommitted());
        assertEquals(
                new Violation(
                        Kind.UNCOMMITTED,
                        OUT,
                        0,
                        3,
                        0,
                        2,
                        7000,
                        "2 output(s) of source offsets 2..3 visible while the group's committed offset was 2"),
                first.violations().get(0));

        state.committed(Map.of(0, 4L), 8000);
        assertEquals(2, state.report(true).uncommitted(), "judged once, at the first reading after it was seen");

        state.accept(0, 4, key("0:4"), false, 8500);
        state.committed(Map.of(0, 5L), 9000);
        assertEquals(2, state.report(true).uncommitted(), "committed by the next reading: fine");
    }

    @Test
    void aRecordThatArrivesOutOfOrderAfterAReadingIsStillJudged() {
        LiveCheckState state = read("0:0", "0:5");
        state.committed(Map.of(0, 1L), 1);
        assertEquals(1, state.report(true).uncommitted());
        state.accept(0, 2, key("0:3"), false, 2);
        state.committed(Map.of(0, 1L), 3);
        LiveCheckReport report = state.report(true);
        assertEquals(2, report.uncommitted(), "0:3 too; 0:5 not counted again");
        assertEquals(1, report.outOfOrder());
    }

    @Test
    void aPartitionWithNoCommittedOffsetHasCommittedNothing() {
        LiveCheckState state = read("2:0");
        state.committed(Map.of(), 1);
        assertEquals(1, state.report(true).uncommitted());
    }

    @Test
    void countsCoverEveryViolationAndTheReportKeepsTheFirst() {
        LiveCheckState state = new LiveCheckState(OUT, 3);
        for (int i = 0; i < 10; i++) {
            state.accept(0, i, key("0:0"), false, i);
        }
        LiveCheckReport report = state.report(false);
        assertEquals(9, report.duplicates());
        assertEquals(
                List.of(1L, 2L, 3L),
                report.violations().stream().map(Violation::offset).toList());
        assertFalse(report.readToEnd());
    }

    @Test
    void reportsOfTwoOutputsAddUpAndKeepTheFirstViolationsByTime() {
        LiveCheckState a = new LiveCheckState("a-out", LiveCheckReport.MAX_VIOLATIONS);
        LiveCheckState b = new LiveCheckState("b-out", LiveCheckReport.MAX_VIOLATIONS);
        for (int i = 0; i < 15; i++) {
            a.accept(0, i, key("0:0"), false, 100 + 2 * i); // 14 duplicates at 102, 104, …
            b.accept(1, i, key("3:7"), false, 101 + 2 * i); // 14 duplicates at 103, 105, …
        }
        LiveCheckReport both = a.report(true).plus(b.report(false));
        assertEquals(30, both.outputsRead());
        assertEquals(28, both.duplicates());
        assertFalse(both.readToEnd());
        assertEquals(LiveCheckReport.MAX_VIOLATIONS, both.violations().size());
        assertEquals(102, both.violations().get(0).seenEpochMillis());
        assertEquals("b-out", both.violations().get(1).topic());
        assertEquals(121, both.violations().get(19).seenEpochMillis());
    }
}
