package io.ombtx.runner.cli;

import picocli.CommandLine.Option;

/** bin/benchmark's live metrics: where it serves {@code /metrics} while it runs (docs/metrics.md). */
public final class MetricsOptions {

    @Option(
            names = "--metrics-port",
            paramLabel = "PORT",
            converter = Converters.WholeNumber.class,
            order = Cli.OMB_TX_SECTION + 8,
            description = "serve live Prometheus metrics on http://ADDRESS:PORT/metrics while the runs go on"
                    + " (0 picks a free port; default: none)")
    @Converters.Bounds(min = 0, max = 65_535)
    Integer port;

    @Option(
            names = "--metrics-address",
            paramLabel = "ADDRESS",
            order = Cli.OMB_TX_SECTION + 8,
            description = "with --metrics-port: the address to listen on (default ${DEFAULT-VALUE}; 0.0.0.0 for"
                    + " every interface)")
    String address = "127.0.0.1";

    @Option(
            names = "--metrics-linger",
            paramLabel = "SECONDS",
            converter = Converters.WholeNumber.class,
            order = Cli.OMB_TX_SECTION + 8,
            description = "with --metrics-port: after the last run, keep serving until a scrape has read the final"
                    + " values, at most this long (default ${DEFAULT-VALUE}; at least your scrape interval)")
    @Converters.Bounds(min = 0, max = 3600)
    int lingerSeconds = 15;

    /** The port to serve on, or null for no metrics. */
    public Integer port() {
        return port;
    }

    public String address() {
        return address;
    }

    public int lingerSeconds() {
        return lingerSeconds;
    }
}
