package io.ombtx.runner.result;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.ombtx.runner.result.RunResult.Broker.SystemKind;
import org.junit.jupiter.api.Test;

/**
 * Enums in the result model write the same strings the result always had (docs/result-format.md) and read back: the
 * broker system told from the wire and its identity, the coordination, a fault's action, target and recovery, the order of
 * the ack wait.
 */
class ResultEnumsTest {

    @Test
    void theResultNamesTheSystemAndTheCoordinationInLowerCase() throws Exception {
        RunResult.Broker broker = RunResult.Broker.embedded(1, "4.1.1", "default", java.util.Map.of())
                .withReadBack(RunResult.Broker.Coordination.KRAFT, 2, "KIP-890", null)
                .withIdentity(
                        new RunResult.Identity(
                                SystemKind.UNKNOWN,
                                "no rule matched",
                                java.util.List.of("DescribeCluster: cluster id x, 1 node(s)"),
                                java.util.Map.of("18", "0-4")),
                        "x",
                        new RunResult.Capabilities(
                                java.util.Map.of("EndTxn", "0-5"), true, true, true, "allowed", "allowed", null));
        String json = ResultWriter.json().writeValueAsString(broker);
        org.junit.jupiter.api.Assertions.assertTrue(json.contains("\"coordination\" : \"kraft\""), json);
        org.junit.jupiter.api.Assertions.assertTrue(json.contains("\"system\" : \"unknown\""), json);
        org.junit.jupiter.api.Assertions.assertTrue(json.contains("\"18\" : \"0-4\""), json);
        org.junit.jupiter.api.Assertions.assertTrue(json.contains("\"EndTxn\" : \"0-5\""), json);
        assertEquals(broker, ResultWriter.json().readValue(json, RunResult.Broker.class));
    }

    @Test
    void aFaultEventWritesItsActionTargetAndRecoveryByTheirWorkloadNames() throws Exception {
        RunResult.FaultEvent event = new RunResult.FaultEvent(
                "faults[0]",
                RunResult.FaultEvent.Action.PAUSE,
                RunResult.FaultEvent.Target.TRANSACTION_COORDINATOR,
                null,
                null,
                1.5,
                null,
                RunResult.FaultEvent.Recovery.RESUME,
                2.0,
                1,
                "h1:9092",
                null,
                null,
                null,
                null,
                null,
                null,
                null,
                null,
                null,
                null,
                null,
                null,
                null,
                null,
                null);
        String json = ResultWriter.json().writeValueAsString(event);
        assertEquals(
                "{\"fault\":\"faults[0]\",\"action\":\"pause\",\"target\":\"transaction-coordinator\","
                        + "\"atSeconds\":1.5,\"recovery\":\"resume\",\"recoverAfterSeconds\":2.0,\"brokerId\":1,"
                        + "\"broker\":\"h1:9092\"}",
                ResultWriter.json().readTree(json).toString());
        assertEquals(event, ResultWriter.json().readValue(json, RunResult.FaultEvent.class));
    }

    @Test
    void theScenarioWritesTheOrderOfTheAckWaitByItsWorkloadName() throws Exception {
        for (io.ombtx.driver.api.AwaitAcks order : io.ombtx.driver.api.AwaitAcks.values()) {
            String json = ResultWriter.json().writeValueAsString(order);
            assertEquals("\"" + order.key() + "\"", json);
            assertEquals(order, ResultWriter.json().readValue(json, io.ombtx.driver.api.AwaitAcks.class));
        }
    }
}
