package io.ombtx.runner.run;

import io.ombtx.runner.cluster.ClusterSession;
import io.ombtx.runner.config.DriverFile;
import io.ombtx.runner.fault.BrokerControl;
import io.ombtx.runner.fault.ClientControl;
import io.ombtx.runner.fault.FaultCluster;
import io.ombtx.runner.fault.FaultInjector;
import io.ombtx.runner.plan.Measurement;
import io.ombtx.runner.plan.RunSpec;
import io.ombtx.runner.plan.Topology;
import io.ombtx.runner.worker.LoadSpec;
import io.ombtx.runner.worker.Payloads;
import io.ombtx.runner.worker.Worker;
import io.ombtx.runner.worker.Worker.TopicSubscription;
import io.ombtx.runner.worker.WorkerException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;

/**
 * OMB's set-up steps on the workers, in order: driver, topics, producers, (prefill), (the live check), consumers,
 * consumer readiness, faults, load start. Each step runs on a thread of its own while the interruption is watched; one that is
 * interrupted ends set-up with {@link Interrupted}, one that fails with {@link Failed}.
 */
final class SetUp {

    /** What set-up created, which the measurement and its checks use. */
    record Done(List<String> topics, List<TopicSubscription> subscriptions, FaultInjector faults) {}

    /**
     * How a run's faults reach its cluster: the brokers' control (null when the workload's faults are all client
     * faults and the cluster is external without --fault-command) and the session that resolves targets.
     */
    record FaultAccess(BrokerControl control, ClusterSession cluster) {}

    /** Set-up ended by the interruption; {@code step} is the one it ended. */
    static final class Interrupted extends Exception {
        final String step;

        Interrupted(String step) {
            super("interrupted during set-up (" + step + ")");
            this.step = step;
        }
    }

    /** A set-up step failed (a worker refused it, or did not answer); the cause says why. */
    static final class Failed extends Exception {
        final String step;

        Failed(String step, Exception cause) {
            super(cause.getMessage() == null ? cause.toString() : cause.getMessage(), cause);
            this.step = step;
        }
    }

    private static final long POLL_MILLIS = 100;

    private final RunConsole console;
    private final Interruption interruption;

    SetUp(RunConsole console, Interruption interruption) {
        this.console = console;
        this.interruption = interruption;
    }

    /** @param faultAccess how the workload's faults reach the brokers, or null when it declares none */
    Done run(RunSpec spec, DriverFile driver, WorkerGroup group, FaultAccess faultAccess) throws Exception {
        Measurement w = spec.measurement();
        step("driver init", () -> {
            group.initializeDriver(driver.toYaml(), w.operation());
            return null;
        });
        Topology topology = spec.topology();
        List<String> topics = step(
                "topics", () -> group.createTopics(topology.topics(), topology.partitionsPerTopic(), spec.runId()));
        console.say(
                "Created %d topic(s) with %d partition(s): %s", topics.size(), topology.partitionsPerTopic(), topics);
        List<TopicSubscription> subscriptions = topology.subscriptions(topics);
        List<String> producerTopics = topology.producerTopics(topics);
        step("producers", () -> {
            group.createProducers(producerTopics);
            return null;
        });
        List<byte[]> payloads = Payloads.of(spec.payloads());
        if (w.streaming() && w.prefillMessages() > 0) {
            console.say("Prefilling %d message(s) into the source topic(s)", w.prefillMessages());
            step("prefill", () -> {
                group.prefill(w.prefillMessages(), payloads.get(0));
                return null;
            });
        }
        if (w.liveCheck()) {
            // Before the stream processors exist, so it sees their outputs as they come; it reads from the beginning.
            List<TopicSubscription> checked = subscriptions.stream().distinct().toList();
            step("live check", () -> {
                for (TopicSubscription s : checked) {
                    group.startLiveCheck(s.topic(), s.subscription());
                }
                return null;
            });
            console.say("Live exactly-once check started on %d output topic(s)", checked.size());
        }
        step("consumers", () -> {
            group.createConsumers(subscriptions);
            return null;
        });
        console.say("Created %d producer(s) and %d consumer(s)", producerTopics.size(), subscriptions.size());
        if (!w.streaming() && !subscriptions.isEmpty() && !producerTopics.isEmpty()) {
            awaitConsumersReady(
                    group,
                    (long) producerTopics.size() * topology.subscriptionNames().size());
        }
        FaultInjector faults = null;
        if (faultAccess != null && !w.faults().isEmpty()) {
            List<String> groups = subscriptions.stream()
                    .map(TopicSubscription::subscription)
                    .distinct()
                    .toList();
            faults = step(
                    "faults",
                    () -> injector(
                            w,
                            faultAccess,
                            group::clientFault,
                            new FaultCluster.RunNames(topics, groups, w.streaming())));
            console.say(
                    "%d fault(s) planned through the %s; brokers by node id: %s",
                    w.faults().size(),
                    faultAccess.control() == null
                            ? "workers' drivers"
                            : faultAccess.control().describe()
                                    + (w.hasClientFaults() ? " and the workers' drivers" : ""),
                    faults.brokersAtStart().stream()
                            .map(b -> b.nodeId() + "=" + b.address())
                            .toList());
        }
        LoadSpec load = spec.load().withPayloads(payloads);
        try {
            step("load start", () -> {
                group.startLoad(load);
                return null;
            });
        } catch (Exception | Error e) {
            if (faults != null) {
                faults.finish(Duration.ZERO, false); // nothing was injected; its client and thread go
            }
            throw e;
        }
        return new Done(topics, subscriptions, faults);
    }

    private FaultInjector injector(Measurement w, FaultAccess access, ClientControl group, FaultCluster.RunNames names)
            throws Exception {
        FaultCluster cluster = access.cluster().faultCluster(names);
        try {
            return new FaultInjector(w.faults(), access.control(), group, cluster, console::line);
        } catch (Exception | Error e) {
            cluster.close();
            throw e;
        }
    }

    /**
     * Runs one set-up step on a thread of its own and watches the interruption meanwhile: when it comes, the step's
     * thread is interrupted and not waited for, and set-up ends at once.
     */
    private <T> T step(String step, Callable<T> work) throws Exception {
        if (interruption.reason() != null) {
            throw new Interrupted(step);
        }
        try {
            return WatchedCall.call(
                    "set-up: " + step, work, WatchedCall.NO_DEADLINE, () -> interruption.reason() != null, true);
        } catch (WatchedCall.GaveUp e) {
            throw new Interrupted(step);
        } catch (Interrupted | Failed | InterruptedException e) {
            throw e;
        } catch (Exception e) {
            throw new Failed(step, e);
        }
    }

    /** As OMB does: every producer sends one message; the load starts once every subscription has seen them. */
    private void awaitConsumersReady(WorkerGroup group, long expected) throws Exception {
        step("consumer readiness", () -> {
            group.run(Worker.Command.PROBE_PRODUCERS);
            return null;
        });
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
        while (true) {
            long received = step("consumer readiness", () -> group.progress().messagesReceived());
            if (received >= expected) {
                return;
            }
            if (System.nanoTime() > deadline) {
                throw new Failed(
                        "consumer readiness",
                        new WorkerException("consumers received " + received + " of " + expected
                                + " probe messages within 120 s: they are not subscribed (is the broker healthy?)"));
            }
            if (interruption.reason() != null) {
                throw new Interrupted("consumer readiness");
            }
            Thread.sleep(POLL_MILLIS);
        }
    }
}
