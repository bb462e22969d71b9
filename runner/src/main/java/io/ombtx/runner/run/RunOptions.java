package io.ombtx.runner.run;

import io.ombtx.broker.BrokerProfile;
import java.nio.file.Path;
import java.util.Map;

/**
 * Run-wide choices from the command line.
 *
 * @param outputFile where to write the result (null: a fresh name in outputDir)
 * @param brokers embedded broker count to start (null: what the workload and driver need)
 * @param brokerProfile overrides the workload's broker profile (null: the workload's)
 * @param brokerSettings embedded broker settings on top of profile and workload
 * @param reportingIntervalSeconds overrides the workload's progress interval (null: the workload's)
 */
public record RunOptions(
        Path outputDir,
        Path outputFile,
        Integer brokers,
        BrokerProfile brokerProfile,
        Map<String, String> brokerSettings,
        Integer reportingIntervalSeconds,
        boolean quiet) {
}
