package io.ombtx.runner.worker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A worker started with a token serves only requests that carry it, over real HTTP. */
class WorkerTokenTest {

    private static final String SECRET = "0123456789abcdef0123456789abcdef";

    @TempDir
    Path dir;

    private Path tokenFile(String content) throws Exception {
        Path file = dir.resolve("worker.token");
        Files.writeString(file, content);
        return file;
    }

    private static HttpResponse<String> get(WorkerServer server, String path, String authorization) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + path))
                .timeout(Duration.ofSeconds(30));
        if (authorization != null) {
            request.header("Authorization", authorization);
        }
        return HttpClient.newHttpClient().send(request.GET().build(), HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void aTokenComesFromTheFileElseTheEnvironmentElseNone() throws Exception {
        Path file = tokenFile(SECRET + "\n");
        WorkerToken fromFile = WorkerToken.resolve(file, Map.of(WorkerToken.ENV, "x".repeat(20)))
                .orElseThrow();
        assertTrue(fromFile.admits("Bearer " + SECRET), "the file wins, its line break dropped");
        WorkerToken fromEnv =
                WorkerToken.resolve(null, Map.of(WorkerToken.ENV, SECRET)).orElseThrow();
        assertTrue(fromEnv.admits("Bearer " + SECRET));
        assertTrue(WorkerToken.resolve(null, Map.of()).isEmpty());
        assertTrue(WorkerToken.resolve(null, Map.of(WorkerToken.ENV, "")).isEmpty());
        assertEquals("WorkerToken[redacted]", fromFile.toString());
    }

    @Test
    void aMissingShortOrSpacedTokenIsRefusedNamingWhere() throws Exception {
        IllegalArgumentException missing =
                assertThrows(IllegalArgumentException.class, () -> WorkerToken.resolve(dir.resolve("none"), Map.of()));
        assertEquals(dir.resolve("none") + ": no such file", missing.getMessage());
        IllegalArgumentException shortFile = assertThrows(
                IllegalArgumentException.class, () -> WorkerToken.resolve(tokenFile("secret\n"), Map.of()));
        assertTrue(shortFile.getMessage().contains("at least 16 characters long (it has 6)"), shortFile.getMessage());
        IllegalArgumentException shortEnv = assertThrows(
                IllegalArgumentException.class, () -> WorkerToken.resolve(null, Map.of(WorkerToken.ENV, "abc")));
        assertTrue(
                shortEnv.getMessage().startsWith("the environment variable OMBTX_WORKER_TOKEN:"),
                shortEnv.getMessage());
        IllegalArgumentException spaced = assertThrows(
                IllegalArgumentException.class,
                () -> WorkerToken.resolve(tokenFile("first half of it\nsecond half\n"), Map.of()));
        assertTrue(spaced.getMessage().contains("one word of printable ASCII"), spaced.getMessage());
        assertFalse(spaced.getMessage().contains("first half"), "the token is never printed");
    }

    @Test
    void randomTokensDifferAndAreLongEnough() {
        WorkerToken a = WorkerToken.random();
        WorkerToken b = WorkerToken.random();
        assertNotEquals(a.asEnvironment().getValue(), b.asEnvironment().getValue());
        assertEquals(64, a.asEnvironment().getValue().length());
        assertTrue(a.admits(a.headerValue()));
        assertFalse(a.admits(b.headerValue()));
    }

    @Test
    void aWorkerWithATokenAnswers401WithoutItAnd200WithIt() throws Exception {
        WorkerToken token = WorkerToken.resolve(tokenFile(SECRET), Map.of()).orElseThrow();
        PrintStream console = System.err;
        ByteArrayOutputStream logged = new ByteArrayOutputStream();
        try (WorkerServer server = new WorkerServer("127.0.0.1", 0, token).start()) {
            String path = WorkerProtocol.PROGRESS.path();
            System.setErr(new PrintStream(logged, true, StandardCharsets.UTF_8));
            HttpResponse<String> none = get(server, path, null);
            HttpResponse<String> wrong = get(server, path, "Bearer " + SECRET.replace('0', '1'));
            HttpResponse<String> basic = get(server, path, "Basic " + SECRET);
            System.setErr(console);
            for (HttpResponse<String> refused : java.util.List.of(none, wrong, basic)) {
                assertEquals(401, refused.statusCode());
                assertTrue(refused.body().contains("this worker needs its token"), refused.body());
                assertEquals(
                        "Bearer realm=\"omb-tx worker\"",
                        refused.headers().firstValue("WWW-Authenticate").orElse(""));
            }
            String log = logged.toString(StandardCharsets.UTF_8);
            assertTrue(log.contains("worker: refused GET " + path + " from 127.0.0.1: no worker token"), log);
            assertTrue(log.contains("worker: refused GET " + path + " from 127.0.0.1: a wrong worker token"), log);
            assertFalse(log.contains(SECRET.replace('0', '1')), "a wrong token is not logged either");

            HttpResponse<String> admitted = get(server, path, "Bearer " + SECRET);
            assertEquals(200, admitted.statusCode(), admitted.body());
            assertTrue(admitted.body().contains("messagesSent"), admitted.body());

            HttpWorkerClient withToken =
                    new HttpWorkerClient("http://127.0.0.1:" + server.port(), Duration.ofSeconds(30), token);
            assertEquals(0, withToken.progress().messagesSent());
            HttpWorkerClient without =
                    new HttpWorkerClient("http://127.0.0.1:" + server.port(), Duration.ofSeconds(30));
            WorkerException e = assertThrows(WorkerException.class, without::progress);
            assertEquals(
                    "worker http://127.0.0.1:" + server.port() + " refused " + path + " (HTTP 401): it was started"
                            + " with a token; give bin/benchmark the same one (--token-file FILE, or the environment"
                            + " variable OMBTX_WORKER_TOKEN)",
                    e.getMessage());
            HttpWorkerClient other = new HttpWorkerClient(
                    "http://127.0.0.1:" + server.port(), Duration.ofSeconds(30), WorkerToken.random());
            assertTrue(assertThrows(WorkerException.class, other::progress)
                    .getMessage()
                    .endsWith("(HTTP 401): the token given is not the worker's"));
        } finally {
            System.setErr(console);
        }
    }

    @Test
    void aWorkerWithoutATokenIgnoresOneSentAsStockOmbsWorkersDo() throws Exception {
        try (WorkerServer server = new WorkerServer("127.0.0.1", 0).start()) {
            assertEquals(200, get(server, WorkerProtocol.PROGRESS.path(), null).statusCode());
            HttpWorkerClient client = new HttpWorkerClient(
                    "http://127.0.0.1:" + server.port(), Duration.ofSeconds(30), WorkerToken.random());
            assertEquals(0, client.progress().messagesSent());
        }
    }
}
