package io.ombtx.driver.api;

/**
 * The timed phases of one operation, named as in seed 003 plus sendOffsets, abort and the whole; and init, the move to
 * a new transactional id that producer churn ({@code operation.transactionsPerProducer}) puts before a transaction.
 */
public enum Phase {
    INIT("init"),
    BEGIN("begin"),
    SEND("send"),
    RESOLVE("resolve"),
    SEND_OFFSETS("sendOffsets"),
    COMMIT("commit"),
    ABORT("abort"),
    TRANSACTION("transaction");

    private final String key;

    Phase(String key) {
        this.key = key;
    }

    /** The name used in result JSON and stats scopes. */
    public String key() {
        return key;
    }

    public static Phase ofKey(String key) {
        return EnumKeys.find(values(), Phase::key, key)
                .orElseThrow(() -> new IllegalArgumentException("unknown phase '" + key + "'"));
    }
}
