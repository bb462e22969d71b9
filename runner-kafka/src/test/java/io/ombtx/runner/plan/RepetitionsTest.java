package io.ombtx.runner.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ombtx.runner.config.DriverFile;
import io.ombtx.runner.config.WorkloadLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Repeating a plan: each (driver, workload) N times, in a row or interleaved, numbered and grouped. */
class RepetitionsTest {

    @TempDir
    Path dir;

    /** Two planned runs, A and B. */
    private List<RunSpec> twoRuns() throws Exception {
        DriverFile driver = DriverFile.load(Files.writeString(
                dir.resolve("d.yaml"), "name: d\ndriverClass: io.ombtx.runner.testdriver.SpiOnlyKafkaDriver\n"));
        Path a = Files.writeString(dir.resolve("a.yaml"), "name: a\nmessageSize: 10\ntestDurationMinutes: 1\n");
        Path b = Files.writeString(dir.resolve("b.yaml"), "name: b\nmessageSize: 10\ntestDurationMinutes: 1\n");
        return Planner.plan(
                List.of(driver),
                List.of(
                        WorkloadLoader.load(a, null).get(0),
                        WorkloadLoader.load(b, null).get(0)),
                PlanOptions.defaults());
    }

    private static String order(List<RunSpec> runs) {
        StringBuilder text = new StringBuilder();
        for (RunSpec run : runs) {
            text.append(run.number())
                    .append(':')
                    .append(run.name())
                    .append(run.repetition().index())
                    .append(' ');
        }
        return text.toString().trim();
    }

    @Test
    void withoutInterleavingEachRunRepeatsInARowInAGroupOfItsOwn() throws Exception {
        List<RunSpec> runs = Repetitions.expand(twoRuns(), 3, false, null, "g");
        assertEquals("1:a1 2:a2 3:a3 4:b1 5:b2 6:b3", order(runs));
        assertEquals(
                List.of("g-1", "g-1", "g-1", "g-2", "g-2", "g-2"),
                runs.stream().map(r -> r.repetition().group()).toList());
        assertTrue(runs.stream()
                .allMatch(r -> r.repetition().count() == 3 && !r.repetition().interleaved()));
    }

    @Test
    void interleavingAlternatesTheComparisonAndSharesOneGroup() throws Exception {
        List<RunSpec> runs = Repetitions.expand(twoRuns(), 3, true, "writes", "g");
        assertEquals("1:a1 2:b1 3:a2 4:b2 5:a3 6:b3", order(runs));
        assertTrue(runs.stream()
                .allMatch(r -> r.repetition().group().equals("writes-g")
                        && r.repetition().interleaved()
                        && "writes".equals(r.repetition().comparison())));
    }

    @Test
    void onceIsRepetitionOneOfOne() throws Exception {
        List<RunSpec> planned = twoRuns();
        List<RunSpec> runs = Repetitions.expand(planned, 1, false, null, "g");
        assertEquals("1:a1 2:b1", order(runs));
        assertEquals(planned.get(1).measurement(), runs.get(1).measurement());
        assertEquals(new Repetition(1, 1, "g-2", false, null), runs.get(1).repetition());
    }

    @Test
    void groupIdsOfTwoInvocationsDiffer() {
        java.time.Instant now = java.time.Instant.parse("2026-11-23T01:02:03Z");
        String one = Repetitions.newGroupId(now);
        assertTrue(one.startsWith("20261123-010203-"), one);
        // A random tag of four hex digits: two ids of the same second collide once in 61,440.
        assertTrue(one.matches("20261123-010203-[0-9a-f]{4}"), one);
    }
}
