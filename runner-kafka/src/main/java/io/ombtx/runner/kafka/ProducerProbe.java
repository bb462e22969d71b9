package io.ombtx.runner.kafka;

import java.io.DataInputStream;
import java.io.IOException;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.common.protocol.Errors;

/**
 * Whether a cluster lets an idempotent and a transactional producer start, asked the way a producer does, on
 * connections of its own ({@link KafkaWire}, plaintext), each at the highest version the broker serves up to v5:
 * InitProducerId without a transactional id, to the broker that answered ApiVersions; then FindCoordinator for the
 * transactional id {@value #TRANSACTIONAL_ID} and InitProducerId with it, to that coordinator. Each answer is recorded
 * as the wire gave it: {@code allowed}, or {@code refused: ERROR (code) from REQUEST} (e.g.
 * {@code TRANSACTIONAL_ID_AUTHORIZATION_FAILED (53)} from an authorizer), or why there was none. The answers of a
 * broker not ready yet — COORDINATOR_LOAD_IN_PROGRESS (14: also a KRaft broker whose first block of producer ids has
 * not arrived), COORDINATOR_NOT_AVAILABLE (15: the transaction log being created), NOT_COORDINATOR (16),
 * CONCURRENT_TRANSACTIONS (51) — are what a producer waits through too, and are waited through here for up to
 * {@link #COORDINATOR_WAIT_MS} in all.
 *
 * <p>The probe's transactional id stays known to the coordinator (empty: no transaction), as every transactional id
 * does until {@code transactional.id.expiration.ms}; one fixed id, so repeated probes leave one entry. The first probe
 * on a fresh Kafka cluster creates its transaction log, which a transactional run's first producer would otherwise.
 */
final class ProducerProbe {

    static final String TRANSACTIONAL_ID = "omb-tx-capabilities-probe";
    static final int COORDINATOR_WAIT_MS = 30_000;
    static final String ALLOWED = "allowed";

    private static final int FIND_COORDINATOR = 10;
    private static final int INIT_PRODUCER_ID = 22;
    /** The highest InitProducerId this probe writes: v3 to v5 share one schema; v6 (KIP-939) adds two fields. */
    private static final int MAX_INIT_PRODUCER_ID = 5;
    /** FindCoordinator's key type of a transaction coordinator. */
    private static final byte TRANSACTION_KEY = 1;
    /** The transaction time-out the probe asks for: kafka-clients' default. */
    private static final int TRANSACTION_TIMEOUT_MS = 60_000;
    /** COORDINATOR_LOAD_IN_PROGRESS, COORDINATOR_NOT_AVAILABLE, NOT_COORDINATOR, CONCURRENT_TRANSACTIONS. */
    private static final Set<Short> NOT_READY = Set.of((short) 14, (short) 15, (short) 16, (short) 51);

    private ProducerProbe() {}

    /** What InitProducerId answered for each kind of producer. */
    record Answers(String idempotent, String transactional) {}

    /** Asks the broker at {@code host}:{@code port}, whose ApiVersions answer is {@code apiVersions}. */
    static Answers ask(String host, int port, Map<Integer, String> apiVersions) throws InterruptedException {
        int initVersion = version(apiVersions, INIT_PRODUCER_ID, 0, MAX_INIT_PRODUCER_ID);
        if (initVersion < 0) {
            String why = "not asked: the broker serves no InitProducerId version up to " + MAX_INIT_PRODUCER_ID + " ("
                    + apiVersions.getOrDefault(INIT_PRODUCER_ID, "none") + ")";
            return new Answers(why, why);
        }
        long deadline = System.nanoTime() + COORDINATOR_WAIT_MS * 1_000_000L;
        String idempotent = untilReady(deadline, () -> {
            try (KafkaWire wire = KafkaWire.connect(host, port)) {
                return Step.answered(initProducerId(wire, initVersion, null), "InitProducerId");
            } catch (IOException e) {
                return Step.failed("no answer from " + host + ":" + port + ": " + e.getMessage());
            }
        });
        int findVersion = version(apiVersions, FIND_COORDINATOR, 1, 2);
        String transactional = findVersion < 0
                ? "not asked: the broker serves no FindCoordinator version 1 or 2 ("
                        + apiVersions.getOrDefault(FIND_COORDINATOR, "none") + ")"
                : untilReady(deadline, () -> transactional(host, port, findVersion, initVersion));
        return new Answers(idempotent, transactional);
    }

    /**
     * One attempt: an error code from the named request, or (code null) an answer that ends the probe as it is.
     */
    private record Step(Short error, String request, String text) {
        static Step answered(short error, String request) {
            return new Step(error, request, null);
        }

        static Step failed(String text) {
            return new Step(null, null, text);
        }
    }

    private interface Attempt {
        Step run();
    }

    /** The attempt until it gets an answer other than a coordinator not ready yet, or the deadline passes. */
    private static String untilReady(long deadline, Attempt attempt) throws InterruptedException {
        while (true) {
            Step step = attempt.run();
            if (step.error() == null) {
                return step.text();
            }
            if (step.error() == 0) {
                return ALLOWED;
            }
            String error = Errors.forCode(step.error()).name() + " (" + step.error() + ") from " + step.request();
            if (!NOT_READY.contains(step.error())) {
                return "refused: " + error;
            }
            if (System.nanoTime() > deadline) {
                return "not ready within " + COORDINATOR_WAIT_MS / 1000 + " s, the last answer " + error;
            }
            Thread.sleep(200);
        }
    }

    /** FindCoordinator for {@link #TRANSACTIONAL_ID}, then InitProducerId with it at that coordinator. */
    private static Step transactional(String host, int port, int findVersion, int initVersion) {
        String coordinator = host + ":" + port;
        try (KafkaWire wire = KafkaWire.connect(host, port)) {
            DataInputStream in = wire.call(FIND_COORDINATOR, findVersion, body -> {
                KafkaWire.writeString(body, TRANSACTIONAL_ID);
                body.writeByte(TRANSACTION_KEY);
            });
            in.readInt(); // throttle time
            short error = in.readShort();
            KafkaWire.readString(in); // error message
            in.readInt(); // node id
            String nodeHost = KafkaWire.readString(in);
            int nodePort = in.readInt();
            if (error != 0) {
                return Step.answered(error, "FindCoordinator");
            }
            coordinator = nodeHost + ":" + nodePort;
            try (KafkaWire at = KafkaWire.connect(nodeHost, nodePort)) {
                return Step.answered(initProducerId(at, initVersion, TRANSACTIONAL_ID), "InitProducerId");
            }
        } catch (IOException e) {
            return Step.failed("no answer from " + coordinator + ": " + e.getMessage());
        }
    }

    /**
     * InitProducerId with the transactional id (null: idempotent only) and the time-out, in one of its three
     * schemas: v0-1, v2 (flexible), v3 on (flexible, with the producer id and epoch: none, -1, for a new producer).
     */
    private static short initProducerId(KafkaWire wire, int version, String transactionalId) throws IOException {
        boolean flexible = version >= 2;
        DataInputStream in = wire.call(INIT_PRODUCER_ID, version, flexible, body -> {
            if (flexible) {
                KafkaWire.writeCompactString(body, transactionalId);
            } else {
                KafkaWire.writeString(body, transactionalId);
            }
            body.writeInt(TRANSACTION_TIMEOUT_MS);
            if (version >= 3) {
                body.writeLong(-1);
                body.writeShort(-1);
            }
            if (flexible) {
                body.writeByte(0); // no tagged fields
            }
        });
        in.readInt(); // throttle time
        return in.readShort();
    }

    /**
     * The version of {@code key} to send, as a client does: the highest the broker serves, up to {@code highest}
     * (the highest whose schema this probe writes), and at least {@code lowest}; -1 when there is none.
     */
    static int version(Map<Integer, String> apiVersions, int key, int lowest, int highest) {
        String range = apiVersions.get(key);
        if (range == null) {
            return -1;
        }
        int dash = range.indexOf('-');
        int min = Integer.parseInt(range.substring(0, dash));
        int max = Integer.parseInt(range.substring(dash + 1));
        int version = Math.min(max, highest);
        return version >= Math.max(min, lowest) ? version : -1;
    }
}
