package io.ombtx.runner.worker;

/**
 * OMB's worker HTTP endpoints, plus omb-tx's extensions under {@code /omb-tx/}. Bodies are JSON except
 * {@code /initialize-driver}, which carries the driver YAML as is. Extension fields in OMB's bodies are ignored by
 * stock OMB workers (they do not fail on unknown properties), so plain workloads run on either kind.
 */
public final class WorkerProtocol {

    public static final String INITIALIZE_DRIVER = "/initialize-driver";
    public static final String CREATE_TOPICS = "/create-topics";
    public static final String CREATE_PRODUCERS = "/create-producers";
    public static final String PROBE_PRODUCERS = "/probe-producers";
    public static final String CREATE_CONSUMERS = "/create-consumers";
    public static final String PAUSE_CONSUMERS = "/pause-consumers";
    public static final String RESUME_CONSUMERS = "/resume-consumers";
    public static final String START_LOAD = "/start-load";
    public static final String ADJUST_PUBLISH_RATE = "/adjust-publish-rate";
    public static final String STOP_ALL = "/stop-all";
    public static final String PERIOD_STATS = "/period-stats";
    public static final String CUMULATIVE_LATENCIES = "/cumulative-latencies";
    public static final String COUNTERS_STATS = "/counters-stats";
    public static final String RESET_STATS = "/reset-stats";

    /** omb-tx: the operation to configure at the next {@code /initialize-driver}. */
    public static final String CONFIGURE_OPERATION = "/omb-tx/configure-operation";
    public static final String PREFILL = "/omb-tx/prefill";
    public static final String PROGRESS = "/omb-tx/progress";
    public static final String ENVIRONMENT = "/omb-tx/environment";
    public static final String VERIFY_EXACTLY_ONCE = "/omb-tx/verify-exactly-once";
    public static final String CLOSE = "/omb-tx/close";

    /** The key under which omb-tx's full statistics travel inside OMB's period-stats body. */
    public static final String OMB_TX_STATS = "ombTx";

    private WorkerProtocol() {
    }
}
