package io.ombtx.runner.kafka;

import io.ombtx.runner.cluster.BrokerNeeds.Capability;
import io.ombtx.runner.result.RunResult;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What a cluster serves of the transactional protocol, read from one broker's ApiVersions answer (the one
 * {@link BrokerIdentity} already read: one probe) and {@link ProducerProbe}'s InitProducerId answers: each
 * transactional API's versions by name, what they make possible ({@link Capability}: KIP-447, KIP-890 part 2,
 * KIP-848), and the console's one line. Pure.
 */
final class BrokerCapabilities {

    /** The APIs recorded, by name, with their API keys (Kafka's protocol guide), in the order they are shown. */
    static final Map<String, Integer> APIS = apis();

    private BrokerCapabilities() {}

    private static Map<String, Integer> apis() {
        Map<String, Integer> apis = new LinkedHashMap<>();
        apis.put("InitProducerId", 22);
        apis.put("AddPartitionsToTxn", 24);
        apis.put("AddOffsetsToTxn", 25);
        apis.put("TxnOffsetCommit", 28);
        apis.put("EndTxn", 26);
        apis.put("DescribeTransactions", 65);
        apis.put("ListTransactions", 66);
        apis.put("ConsumerGroupHeartbeat", 68);
        return java.util.Collections.unmodifiableMap(apis);
    }

    /**
     * The capabilities in {@code apiVersions} (API key to {@code MIN-MAX}) and the producers' answers.
     *
     * @param producers what InitProducerId answered, or null when it was not asked
     */
    static RunResult.Capabilities of(Map<Integer, String> apiVersions, ProducerProbe.Answers producers) {
        Map<String, String> versions = new LinkedHashMap<>();
        APIS.forEach((name, key) -> versions.put(name, apiVersions.getOrDefault(key, RunResult.Capabilities.NONE)));
        RunResult.Capabilities apisOnly = new RunResult.Capabilities(versions, null, null, null, null, null, null);
        return new RunResult.Capabilities(
                versions,
                Capability.GROUP_METADATA.servedBy(apisOnly),
                Capability.TRANSACTION_V2.servedBy(apisOnly),
                Capability.CONSUMER_GROUP_PROTOCOL.servedBy(apisOnly),
                producers == null ? null : producers.idempotent(),
                producers == null ? null : producers.transactional(),
                null);
    }

    /**
     * The console's line: "Broker capabilities: InitProducerId 0-5, …, EndTxn 0-5 (KIP-890 part 2), …; idempotent
     * producer allowed, transactional producer allowed", or why they were not probed.
     */
    static String line(RunResult.Capabilities c) {
        if (!c.probed()) {
            return "Broker capabilities not probed: " + c.problem();
        }
        List<String> parts = new ArrayList<>();
        c.apis().forEach((name, range) -> parts.add(name + " " + range + note(name, c)));
        return "Broker capabilities: " + String.join(", ", parts) + "; idempotent producer " + c.idempotentProducer()
                + ", transactional producer " + c.transactionalProducer();
    }

    /** " (KIP-447)" after the API a capability rests on, " (no KIP-447: v3 needed)" when it lacks it. */
    private static String note(String api, RunResult.Capabilities c) {
        for (Capability capability : Capability.values()) {
            if (capability.api().equals(api)) {
                String kip = capability.kip();
                return capability.servedBy(c)
                        ? " (" + kip + ")"
                        : " (no " + kip
                                + (capability.minVersion() > 0 ? ": v" + capability.minVersion() + " needed" : "")
                                + ")";
            }
        }
        return "";
    }
}
