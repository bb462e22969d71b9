package io.ombtx.runner.run;

import io.ombtx.runner.metrics.LiveMetrics;
import java.nio.file.Path;

/**
 * How runs are carried out and reported, from the command line (what runs is in the plan).
 *
 * @param outputDir where results go under fresh names
 * @param outputFile where to write the result (null: a fresh name in outputDir)
 * @param quiet print nothing but errors
 * @param metrics the live metrics each run feeds ({@code --metrics-port}), or null
 */
public record RunOptions(Path outputDir, Path outputFile, boolean quiet, LiveMetrics metrics) {

    /** Without live metrics. */
    public RunOptions(Path outputDir, Path outputFile, boolean quiet) {
        this(outputDir, outputFile, quiet, null);
    }
}
