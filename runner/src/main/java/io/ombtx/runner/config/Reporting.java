package io.ombtx.runner.config;

import io.ombtx.driver.api.config.ConfigFields;

/** How often progress is reported (the length of the result's periods), and how long no progress ends the run. */
public record Reporting(int reportingIntervalSeconds, int stallTimeoutSeconds) {

    static Reporting read(ConfigFields f) {
        int reportInterval = f.wholeNumber("reportingIntervalSeconds", 10, 1, 3600);
        int stallTimeout = f.wholeNumber("stallTimeoutSeconds", 60, 1, 86_400);
        return new Reporting(reportInterval, stallTimeout);
    }
}
