package io.ombtx.runner.worker;

import com.fasterxml.jackson.databind.JsonNode;
import io.ombtx.driver.api.config.ConfigException;
import io.ombtx.driver.api.config.ConfigFields;
import io.ombtx.driver.api.config.YamlFiles;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** OMB's workers file: a YAML mapping with a {@code workers:} list of URLs. */
public final class WorkersFile {

    private WorkersFile() {}

    public static List<String> read(Path file) {
        JsonNode root = YamlFiles.read(file);
        // A mistyped key first: "worker:" is named (with a did-you-mean), not reported as a missing "workers".
        new ConfigFields(file.toString(), root, "").onlyKeys(List.of("workers"));
        JsonNode workers = root.get("workers");
        if (workers == null || !workers.isArray() || workers.isEmpty()) {
            throw new ConfigException(file.toString(), "workers", "expected a list of worker URLs (http://host:8080)");
        }
        List<String> urls = new ArrayList<>();
        for (JsonNode url : workers) {
            if (!url.isTextual()) {
                throw new ConfigException(
                        file.toString(),
                        "workers",
                        "expected a list of worker URLs (http://host:8080)," + " got " + url);
            }
            String text = url.asText().trim();
            WorkerUrls.problem(text).ifPresent(problem -> {
                throw new ConfigException(file.toString(), "workers", problem);
            });
            urls.add(text);
        }
        WorkerUrls.duplicateProblem(urls).ifPresent(problem -> {
            throw new ConfigException(file.toString(), "workers", problem);
        });
        return urls;
    }
}
