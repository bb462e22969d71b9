package io.ombtx.runner.run;

import java.nio.file.Path;

/**
 * How runs are carried out and reported, from the command line (what runs is in the plan).
 *
 * @param outputDir where results go under fresh names
 * @param outputFile where to write the result (null: a fresh name in outputDir)
 * @param quiet print nothing but errors
 */
public record RunOptions(Path outputDir, Path outputFile, boolean quiet) {}
