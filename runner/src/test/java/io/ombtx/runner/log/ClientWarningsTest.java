package io.ombtx.runner.log;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

class ClientWarningsTest {

    /** kafka-clients 4.1's Sender line for a produce request retried on CONCURRENT_TRANSACTIONS. */
    private static String retried(int client, int correlation, int partition) {
        return "[Producer clientId=producer-omb-tx-aae5803f-" + client + ", transactionalId=omb-tx-aae5803f-" + client
                + "] Got error produce response with correlation id " + correlation
                + " on topic-partition omb-tx-9tz5whij-0-" + partition
                + ", retrying (2147483646 attempts left). Error: CONCURRENT_TRANSACTIONS";
    }

    private final ByteArrayOutputStream printed = new ByteArrayOutputStream();
    private final ClientWarnings warnings =
            new ClientWarnings(() -> new PrintStream(printed, true, StandardCharsets.UTF_8), false);

    private List<String> lines() {
        String text = printed.toString(StandardCharsets.UTF_8);
        return text.isEmpty() ? List.of() : List.of(text.split("\\R"));
    }

    @Test
    void theFirstOfAKindIsPrintedAndTheRepeatsAreCountedPerClientIntoOneLine() {
        assertTrue(warnings.offer(Level.WARN, "Sender", retried(1, 231, 6), null), "the first is printed");
        for (int i = 0; i < 1000; i++) {
            assertFalse(warnings.offer(Level.WARN, "Sender", retried(i % 200, 232 + i, i % 16), null));
        }
        assertTrue(
                warnings.offer(
                        Level.WARN, "Sender", "Got error produce response. Error: OUT_OF_ORDER_SEQUENCE_NUMBER", null),
                "another message is printed the first time too");
        assertTrue(
                lines().isEmpty(), "the loggers print what offer says to print; the collector prints only summaries");
        warnings.summarize();
        List<String> summary = lines();
        assertEquals(1, summary.size(), summary.toString());
        assertTrue(
                summary.get(0)
                        .endsWith("WARN kafka-clients - repeated since last said: 1,000 × CONCURRENT_TRANSACTIONS"
                                + " (200 clients)"),
                summary.get(0));
        warnings.summarize();
        assertEquals(1, lines().size(), "nothing repeated since: nothing said");
    }

    @Test
    void aRunsWindowCountsEveryOccurrenceWithItsClientsAndTimes() {
        warnings.offer(Level.WARN, "Sender", retried(1, 1, 1), null); // before the window: not the run's
        ClientWarnings.Window window = warnings.open();
        for (int i = 0; i < 30; i++) {
            warnings.offer(Level.WARN, "Sender", retried(i % 3, 10 + i, i % 4), null);
        }
        warnings.offer(Level.ERROR, "KafkaProducer", "Interrupted while joining ioThread", new InterruptedException());
        List<ClientWarnings.Summary> seen = window.close();
        assertEquals(2, seen.size(), seen.toString());
        ClientWarnings.Summary retries = seen.get(0);
        assertEquals(30, retries.count());
        assertEquals(3, retries.clients());
        assertEquals(
                "Got error produce response with correlation id # on topic-partition #, retrying (# attempts left)."
                        + " Error: CONCURRENT_TRANSACTIONS",
                retries.message());
        assertFalse(retries.first().isAfter(retries.last()));
        assertEquals(
                "Interrupted while joining ioThread (InterruptedException)",
                seen.get(1).message());
        assertEquals(0, seen.get(1).clients(), "no client prefix, no client counted");
        warnings.offer(Level.WARN, "Sender", retried(5, 99, 1), null);
        assertEquals(30, window.close().get(0).count(), "a closed window counts no more");
    }

    @Test
    void aShortNameIsTheErrorCodeOrTheFirstWords() {
        assertEquals("CONCURRENT_TRANSACTIONS", ClientWarnings.shortName("retrying. Error: CONCURRENT_TRANSACTIONS"));
        assertEquals(
                "Connection to node # could not be established.",
                ClientWarnings.shortName("Connection to node # could not be established."));
        assertEquals(60, ClientWarnings.shortName("x".repeat(100)).length());
    }

    @Test
    void talliesFromTheWorkersProcessesAddUpWithThisOnesAndCrossTheWire() throws Exception {
        ClientWarnings.Summary ours =
                new ClientWarnings.Summary("WARN", "Sender", "retried: CONCURRENT_TRANSACTIONS", 7, 2, 1_000, 5_000);
        ClientWarnings.Summary theirs =
                new ClientWarnings.Summary("WARN", "Sender", "retried: CONCURRENT_TRANSACTIONS", 30, 5, 2_000, 9_000);
        ClientWarnings.Summary other =
                new ClientWarnings.Summary("WARN", "NetworkClient", "disconnected", 1, 1, 3_000, 3_000);
        List<ClientWarnings.Summary> merged = ClientWarnings.merge(List.of(ours, other), List.of(theirs));
        assertEquals(
                List.of(
                        new ClientWarnings.Summary(
                                "WARN", "Sender", "retried: CONCURRENT_TRANSACTIONS", 37, 7, 1_000, 9_000),
                        other),
                merged,
                "summed, the span of both, most frequent first");
        // As a worker sends them (/omb-tx/client-warnings) and the coordinator reads them.
        var reply = new io.ombtx.runner.worker.WorkerProtocol.ClientWarningsReply(42, merged);
        byte[] wire = io.ombtx.runner.worker.WorkerProtocol.JSON.writeValueAsBytes(reply);
        assertEquals(
                reply,
                io.ombtx.runner.worker.WorkerProtocol.JSON.readValue(
                        wire, io.ombtx.runner.worker.WorkerProtocol.CLIENT_WARNINGS.reply()));
    }
}
