package io.ombtx.driver.redpanda;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

/** Reads Redpanda's cluster configuration from its Admin API ({@code GET /v1/cluster_config}, port 9644 by default). */
final class RedpandaAdminApi {

    private static final Duration TIMEOUT = Duration.ofSeconds(10);

    private final URI clusterConfig;

    /** @param baseUrl e.g. {@code http://redpanda-0:9644} */
    RedpandaAdminApi(String baseUrl) {
        String base = baseUrl.endsWith("/") ? baseUrl.substring(0, baseUrl.length() - 1) : baseUrl;
        this.clusterConfig = URI.create(base + "/v1/cluster_config");
    }

    URI endpoint() {
        return clusterConfig;
    }

    /** Every cluster property, scalar values as text. */
    Map<String, String> clusterConfig() throws IOException, InterruptedException {
        HttpClient client = HttpClient.newBuilder().connectTimeout(TIMEOUT).build();
        HttpRequest request = HttpRequest.newBuilder(clusterConfig)
                .timeout(TIMEOUT)
                .header("Accept", "application/json")
                .GET()
                .build();
        HttpResponse<String> response = client.send(request, HttpResponse.BodyHandlers.ofString());
        if (response.statusCode() != 200) {
            throw new IOException("GET " + clusterConfig + " answered HTTP " + response.statusCode());
        }
        JsonNode root = new ObjectMapper().readTree(response.body());
        if (root == null || !root.isObject()) {
            throw new IOException("GET " + clusterConfig + " did not return a JSON object of cluster properties");
        }
        Map<String, String> properties = new LinkedHashMap<>();
        root.fields().forEachRemaining(e -> {
            if (e.getValue().isValueNode()) {
                properties.put(e.getKey(), e.getValue().asText());
            }
        });
        return properties;
    }
}
