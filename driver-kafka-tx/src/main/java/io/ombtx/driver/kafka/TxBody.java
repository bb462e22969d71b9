package io.ombtx.driver.kafka;

import org.apache.kafka.clients.producer.Producer;

/** What happens inside one transaction attempt, between begin and commit (and just after the commit). */
interface TxBody {

    /** Runs after {@code beginTransaction}; times its own phases on {@code timer}. */
    void inTransaction(Producer<String, byte[]> producer, PhaseTimer timer) throws Exception;

    /** Runs after a successful {@code commitTransaction}. */
    default void afterCommit(PhaseTimer timer) throws Exception {
    }
}
