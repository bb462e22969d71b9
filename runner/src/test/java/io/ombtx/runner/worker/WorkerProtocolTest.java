package io.ombtx.runner.worker;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.ombtx.driver.api.OperationKind;
import io.ombtx.driver.api.OperationSpec;
import io.ombtx.runner.config.KeyDistributorType;
import io.ombtx.runner.config.LoopMode;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The protocol's bodies are one set of types: what the client writes is what the server reads. */
class WorkerProtocolTest {

    @Test
    void startLoadUsesOmbsFieldNamesAndRoundTrips() throws Exception {
        LoadSpec load = new LoadSpec(
                LoopMode.CLOSED,
                250.5,
                List.of(new byte[] {1, 2, 3}),
                KeyDistributorType.KEY_ROUND_ROBIN,
                10,
                20,
                2,
                true);
        byte[] json = WorkerProtocol.JSON.writeValueAsBytes(load);
        JsonNode tree = WorkerProtocol.JSON.readTree(json);
        assertEquals(250.5, tree.path("publishRate").asDouble());
        assertEquals("KEY_ROUND_ROBIN", tree.path("keyDistributorType").asText());
        assertEquals("AQID", tree.path("payloadData").get(0).asText(), "byte arrays travel as base64, as in OMB");
        assertEquals("CLOSED", tree.path("loop").asText(), "the enum's name, as earlier workers read it");
        LoadSpec back = WorkerProtocol.JSON.readValue(json, WorkerProtocol.START_LOAD.request());
        assertEquals(load.loop(), back.loop());
        assertEquals(load.messagesPerSecond(), back.messagesPerSecond());
        assertArrayEquals(load.payloads().get(0), back.payloads().get(0));
        assertEquals(
                List.of(10L, 20L, 2, true),
                List.of(
                        back.warmupOperations(),
                        back.measureOperations(),
                        back.messagesPerOperation(),
                        back.waitForConsume()));
        LoadSpec sendOffsetsOnly = load.share(0, 0, 5);
        sendOffsetsOnly = new LoadSpec(
                sendOffsetsOnly.loop(),
                0,
                sendOffsetsOnly.payloads(),
                sendOffsetsOnly.keyDistributor(),
                0,
                5,
                0,
                false);
        assertEquals(
                0,
                WorkerProtocol.JSON
                        .<LoadSpec>readValue(
                                WorkerProtocol.JSON.writeValueAsBytes(sendOffsetsOnly),
                                WorkerProtocol.START_LOAD.request())
                        .messagesPerOperation(),
                "SEND_OFFSETS operations write no message");
    }

    @Test
    void aStockOmbCoordinatorsStartLoadMeansOmbsOpenTimedLoad() throws Exception {
        String ombBody = "{\"payloadData\":[\"AA==\"],\"publishRate\":1000.0,\"keyDistributorType\":\"NO_KEY\"}";
        LoadSpec load = WorkerProtocol.JSON.readValue(
                ombBody.getBytes(StandardCharsets.UTF_8), WorkerProtocol.START_LOAD.request());
        assertEquals(LoopMode.OPEN, load.loop());
        assertEquals(1000.0, load.messagesPerSecond());
        assertEquals(1, load.messagesPerOperation());
        assertEquals(0, load.measureOperations(), "until stopped");
        assertTrue(load.consumed(), "a stock coordinator may have consumers: keep what they need");
    }

    @Test
    void whetherAnythingConsumesAndThePlannedSenderThreadsTravelWithTheLoad() throws Exception {
        LoadSpec unconsumed = new LoadSpec(
                LoopMode.OPEN, 1000, List.of(new byte[1]), KeyDistributorType.NO_KEY, 0, 0, 1, false, false, 4);
        LoadSpec back = WorkerProtocol.JSON.readValue(
                WorkerProtocol.JSON.writeValueAsBytes(unconsumed.share(500, 0, 0)),
                WorkerProtocol.START_LOAD.request());
        assertFalse(back.consumed());
        assertEquals(500, back.messagesPerSecond());
        assertEquals(4, back.senderThreadsPerProducer());
    }

    @Test
    void ombBodiesKeepOmbsNames() throws Exception {
        assertEquals(
                "{\"numberOfTopics\":2,\"numberOfPartitionsPerTopic\":3}",
                WorkerProtocol.JSON.writeValueAsString(new WorkerProtocol.TopicsInfo(2, 3)));
        assertEquals(
                "{\"topicsSubscriptions\":[{\"topic\":\"t\",\"subscription\":\"s\"}]}",
                WorkerProtocol.JSON.writeValueAsString(
                        new WorkerProtocol.ConsumerAssignment(List.of(new Worker.TopicSubscription("t", "s")))));
        String counters = WorkerProtocol.JSON.writeValueAsString(new WorkerProtocol.CountersStats(5, 4, 1));
        assertTrue(counters.contains("\"messageSendErrors\":1"), counters);
    }

    @Test
    void theOperationTravelsAsTheDriverApisOwnType() throws Exception {
        OperationSpec spec = new OperationSpec(OperationKind.STREAM, true, 10, 1, false, true);
        byte[] json = WorkerProtocol.JSON.writeValueAsBytes(spec);
        assertEquals(spec, WorkerProtocol.JSON.readValue(json, WorkerProtocol.CONFIGURE_OPERATION.request()));
        // The order of the ack wait reaches a remote worker's driver too.
        OperationSpec ordered = new OperationSpec(
                OperationKind.WRITE, true, 2, 2, true, true, io.ombtx.driver.api.AwaitAcks.BEFORE_COMMIT);
        assertEquals(
                ordered,
                WorkerProtocol.JSON.readValue(
                        WorkerProtocol.JSON.writeValueAsBytes(ordered), WorkerProtocol.CONFIGURE_OPERATION.request()));
    }

    @Test
    void aStockOmbWorkersPeriodStatsBecomeOurCounters() throws Exception {
        // A real HTTP server answering as a stock OMB worker does: OMB's PeriodStats, no omb-tx endpoints.
        com.sun.net.httpserver.HttpServer omb =
                com.sun.net.httpserver.HttpServer.create(new java.net.InetSocketAddress("127.0.0.1", 0), 0);
        omb.createContext("/", exchange -> {
            byte[] body = exchange.getRequestURI().getPath().equals("/period-stats")
                    ? ("{\"messagesSent\":40,\"messageSendErrors\":2,\"bytesSent\":4000,\"messagesReceived\":38,"
                                    + "\"bytesReceived\":3800,\"publishLatency\":\"\",\"endToEndLatency\":null}")
                            .getBytes(StandardCharsets.UTF_8)
                    : new byte[0];
            exchange.sendResponseHeaders(body.length > 0 ? 200 : 404, body.length > 0 ? body.length : -1);
            if (body.length > 0) {
                exchange.getResponseBody().write(body);
            }
            exchange.close();
        });
        omb.start();
        try {
            HttpWorkerClient client = new HttpWorkerClient(
                    "http://127.0.0.1:" + omb.getAddress().getPort(), java.time.Duration.ofSeconds(10));
            io.ombtx.runner.stats.StatsSnapshot s = client.periodStats();
            assertEquals(40, s.counter(io.ombtx.runner.stats.Counter.MESSAGES_SENT));
            assertEquals(2, s.counter(io.ombtx.runner.stats.Counter.PUBLISH_ERRORS));
            assertEquals(38, s.counter(io.ombtx.runner.stats.Counter.MESSAGES_RECEIVED));
            assertEquals(40, s.counter(io.ombtx.runner.stats.Counter.OPERATIONS));
            assertEquals(
                    0,
                    s.histogram(io.ombtx.runner.stats.Latency.PUBLISH_LATENCY).getTotalCount());
        } finally {
            omb.stop(0);
        }
    }
}
