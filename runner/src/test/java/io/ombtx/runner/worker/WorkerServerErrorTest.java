package io.ombtx.runner.worker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * A request the worker cannot serve is answered, not dropped: HTTP 500 with the failure's message (before the fix
 * the exchange was closed before the answer, so a coordinator saw "empty reply from server" and never the reason,
 * e.g. that the driver class is not on the worker's class path).
 */
class WorkerServerErrorTest {

    @Test
    void aFailedRequestIsAnswered500WithItsCause() throws Exception {
        try (WorkerServer server = new WorkerServer("127.0.0.1", 0).start()) {
            String yaml = "name: missing\ndriverClass: com.example.NotOnTheClassPath\n";
            HttpResponse<String> reply = HttpClient.newHttpClient()
                    .send(
                            HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port()
                                            + WorkerProtocol.INITIALIZE_DRIVER.path()))
                                    .POST(HttpRequest.BodyPublishers.ofString(yaml))
                                    .timeout(Duration.ofSeconds(30))
                                    .build(),
                            HttpResponse.BodyHandlers.ofString());
            assertEquals(500, reply.statusCode());
            assertTrue(reply.body().contains("com.example.NotOnTheClassPath"), reply.body());
        }
    }

    @Test
    void aMissingDriverClassIsNamedWithHowToPutItsJarsOnTheWorkersClassPath() throws Exception {
        try (WorkerServer server = new WorkerServer("127.0.0.1", 0).start()) {
            // What a stock OMB coordinator sends with OMB's own Kafka driver, which omb-tx does not ship.
            String yaml = "name: Kafka\ndriverClass: io.openmessaging.benchmark.driver.kafka.KafkaBenchmarkDriver\n";
            HttpResponse<String> reply = HttpClient.newHttpClient()
                    .send(
                            HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port()
                                            + WorkerProtocol.INITIALIZE_DRIVER.path()))
                                    .POST(HttpRequest.BodyPublishers.ofString(yaml))
                                    .timeout(Duration.ofSeconds(30))
                                    .build(),
                            HttpResponse.BodyHandlers.ofString());
            assertEquals(500, reply.statusCode());
            assertTrue(
                    reply.body()
                            .contains("driver class io.openmessaging.benchmark.driver.kafka.KafkaBenchmarkDriver is not"
                                    + " on the class path"),
                    reply.body());
            assertTrue(reply.body().contains("bin/benchmark-worker --extra-classpath"), reply.body());
            assertTrue(reply.body().contains("OMBTX_CLASSPATH"), reply.body());
        }
    }

    @Test
    void theCoordinatorsClientReportsTheWorkersReason() throws Exception {
        try (WorkerServer server = new WorkerServer("127.0.0.1", 0).start()) {
            HttpWorkerClient client = new HttpWorkerClient("http://127.0.0.1:" + server.port(), Duration.ofSeconds(30));
            Exception e = org.junit.jupiter.api.Assertions.assertThrows(
                    Exception.class,
                    () -> client.initializeDriver(
                            "name: missing\ndriverClass: com.example.NotOnTheClassPath\n",
                            io.ombtx.driver.api.OperationSpec.publish()));
            assertTrue(e.getMessage().contains("HTTP 500"), e.getMessage());
            assertTrue(e.getMessage().contains("com.example.NotOnTheClassPath"), e.getMessage());
        }
    }
}
