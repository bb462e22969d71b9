package io.ombtx.runner.result;

import java.io.IOException;
import java.nio.file.Path;

/**
 * Reads a result file into a {@link RunResult}, for benchmarks and tools that look at results after a run. Strict:
 * a field the model does not know is an error, so that nothing in a file goes unread. Files written before a field
 * existed read with that member null (objects, boxed numbers) or 0 (counts).
 */
public final class ResultReader {

    private ResultReader() {}

    public static RunResult read(Path file) throws IOException {
        return ResultWriter.json().readValue(file.toFile(), RunResult.class);
    }
}
