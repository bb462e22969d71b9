package io.ombtx.runner.config;

import java.util.Locale;

/**
 * How clients reach the embedded cluster ({@code brokerSecurity:}, {@code --broker-security}): PLAINTEXT (the
 * default), SASL_SSL with SCRAM-SHA-512, or mutual TLS; a secured cluster runs with its authorizer on and the
 * benchmark's principal has only the ACLs the workload needs. How it is made is the broker system's business.
 */
public enum BrokerSecurity {
    /** PLAINTEXT, no authorizer. */
    NONE("PLAINTEXT"),
    /** SASL_SSL, SCRAM-SHA-512. */
    SASL_SCRAM("SASL_SSL"),
    /** SSL with client certificates required. */
    MTLS("SSL");

    private final String protocol;

    BrokerSecurity(String protocol) {
        this.protocol = protocol;
    }

    /** Kafka's {@code security.protocol} of the clients: PLAINTEXT, SASL_SSL, SSL. */
    public String protocol() {
        return protocol;
    }

    /** Its name in workloads, flags and results: none, sasl-scram, mtls. */
    public String key() {
        return name().toLowerCase(Locale.ROOT).replace('_', '-');
    }

    public static BrokerSecurity parse(String name) {
        String normalized = name.trim().toUpperCase(Locale.ROOT).replace('-', '_');
        for (BrokerSecurity security : values()) {
            if (security.name().equals(normalized)) {
                return security;
            }
        }
        throw new IllegalArgumentException(
                "unknown broker security '" + name + "' (expected none, sasl-scram or mtls)");
    }
}
