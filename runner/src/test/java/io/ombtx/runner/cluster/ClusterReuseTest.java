package io.ombtx.runner.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.ombtx.runner.OmbTxHome;
import io.ombtx.runner.config.ClusterProfile;
import io.ombtx.runner.config.DriverFile;
import java.lang.reflect.Proxy;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * {@link ClusterReuse}: which runs start a cluster, which share the one kept, and when the kept one is stopped — on
 * a broker system that records what it was asked, so the counts are exact.
 */
class ClusterReuseTest {

    private static final BrokerPlan ONE = BrokerPlan.embedded(1, ClusterProfile.DEFAULT, Map.of(), "4.1.1", 2);
    private static final DriverFile DRIVER =
            DriverFile.load(OmbTxHome.locate().resolve("driver-kafka-tx/kafka-tx.yaml"));
    private static final BrokerPlan THREE = BrokerPlan.embedded(3, ClusterProfile.DEFAULT, Map.of(), "4.1.1", 2);

    private final List<StandInSession> opened = new ArrayList<>();
    private final List<String> log = new ArrayList<>();

    /** A broker system whose only working call is open(): every other call is not this test's business. */
    private final ClusterSystem system = (ClusterSystem) Proxy.newProxyInstance(
            ClusterSystem.class.getClassLoader(), new Class<?>[] {ClusterSystem.class}, (proxy, method, args) -> {
                if (!method.getName().equals("open")) {
                    throw new UnsupportedOperationException(method.getName());
                }
                StandInSession session = new StandInSession(opened.size() + 1, null);
                opened.add(session);
                return session;
            });

    @Test
    void runsInARowOnTheSamePlanShareOneClusterAndCountTheirRuns() throws Exception {
        try (ClusterReuse reuse = new ClusterReuse()) {
            for (int run = 1; run <= 3; run++) {
                ClusterSession session = reuse.open(system, ONE, DRIVER, true, log::add);
                assertEquals(run, session.facts().runOnCluster());
                session.close();
            }
            assertEquals(1, opened.size());
            assertEquals(false, opened.get(0).closed, "kept open for the next run");
            assertEquals(2, log.size(), "a line for each run that shared it: " + log);
        }
        assertEquals(true, opened.get(0).closed, "stopped when the reuse is closed");
    }

    @Test
    void anotherPlanStopsTheKeptClusterBeforeStartingItsOwn() throws Exception {
        try (ClusterReuse reuse = new ClusterReuse()) {
            reuse.open(system, ONE, DRIVER, true, log::add).close();
            ClusterSession three = reuse.open(system, THREE, DRIVER, true, log::add);
            assertEquals(2, opened.size());
            assertEquals(true, opened.get(0).closed, "the first stopped before the second started");
            assertEquals(1, three.facts().runOnCluster());
            three.close();
            reuse.open(system, ONE, DRIVER, true, log::add).close();
            assertEquals(3, opened.size(), "back to the first plan: a cluster of its own again, not the stopped one");
        }
    }

    @Test
    void aRunWithFaultsGetsAClusterOfItsOwnStoppedAfterIt() throws Exception {
        try (ClusterReuse reuse = new ClusterReuse()) {
            reuse.open(system, ONE, DRIVER, true, log::add).close();
            ClusterSession faulty = reuse.open(system, ONE, DRIVER, false, log::add);
            assertEquals(2, opened.size());
            assertEquals(true, opened.get(0).closed, "the kept one is stopped: two never run side by side");
            assertNull(faulty.facts().runOnCluster(), "not a shared cluster");
            faulty.close();
            assertEquals(true, opened.get(1).closed, "the faulty run's cluster stops with the run");
            reuse.open(system, ONE, DRIVER, true, log::add).close();
            assertEquals(3, opened.size(), "the next run does not get the faulted cluster");
        }
    }

    @Test
    void aClusterThatLostABrokerIsStoppedAndNeverHandedOn() throws Exception {
        try (ClusterReuse reuse = new ClusterReuse()) {
            ClusterSession first = reuse.open(system, ONE, DRIVER, true, log::add);
            opened.get(0).lost = "embedded broker 1 (pid 4242) exited with code 137";
            first.close();
            assertEquals(true, opened.get(0).closed);
            ClusterSession second = reuse.open(system, ONE, DRIVER, true, log::add);
            assertEquals(2, opened.size());
            assertNotSame(first, second);
            assertEquals(1, second.facts().runOnCluster());
        }
    }

    @Test
    void theDryRunCountsTheStartsAsTheRunsWillMakeThem() {
        List<BrokerPlan> plans = List.of(ONE, ONE, THREE, THREE, ONE, BrokerPlan.none(), ONE, ONE);
        assertEquals(4, ClusterReuse.starts(plans, i -> true));
        assertEquals(5, ClusterReuse.starts(plans, i -> i != 1), "run 1 has faults: a cluster of its own");
        assertEquals(
                6, ClusterReuse.starts(plans, i -> i != 1 && i != 2), "and run 2's successor cannot share with it");
        BrokerPlan external = BrokerPlan.external(1, "localhost:9092", "--brokers", List.of());
        assertEquals(
                3,
                ClusterReuse.starts(List.of(ONE, external, external, ONE, ONE, THREE), i -> true),
                "an external cluster is never started, and the embedded run after it starts its own");
    }
}
