package io.ombtx.driver.kafka;

import io.ombtx.driver.api.OperationTimings;

/** One finished operation: its timings, and the error it was given up on (null unless its outcome is FAILED). */
record OperationResult(OperationTimings timings, Throwable failure) {}
