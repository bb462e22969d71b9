package io.ombtx.runner.fault;

import io.ombtx.driver.api.ClientFaults;
import io.ombtx.runner.config.Fault;
import io.ombtx.runner.config.FaultAction;
import io.ombtx.runner.config.FaultTarget;
import io.ombtx.runner.result.RunResult;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * Injects a workload's faults during the measurement and records what happened to each. The measurement loop
 * tells it when the measurement starts and, at every poll, the time and the measured operations done; a fault that
 * is due is handed to the injector's own thread, so resolving its target (cluster requests that may wait on a
 * dying broker) and injecting it never hold up the measurement. Faults run one after another; a recovery runs its delay
 * after its injection. {@link #finish} ends it: faults not yet due are reported as not injected, recoveries still
 * waiting run at once (the cluster is left as the workload meant to leave it), and every fault's record is returned.
 *
 * <p>A client fault (target {@code stream-processor} or {@code transactional-producer}) goes through the
 * {@link ClientControl} instead: its injection is the client acting (killed, stopped or paused at its next
 * transaction's decision point; a processor added or removed), its recovery a new instance with the same
 * transactional id (after a pause, the zombie is then let go on and must be fenced); {@link #finish} asks each for
 * what it came to (fencings, transactions aborted, records processed again, the stall).
 */
public final class FaultInjector {

    private final BrokerControl control; // null when every fault is a client fault and no broker control is given
    private final ClientControl clients; // null when the run has no client faults
    private final FaultCluster targets;
    private final Consumer<String> log;
    private final List<State> states = new ArrayList<>();
    private final ScheduledThreadPoolExecutor executor;
    private final List<BrokerControl.Broker> brokersAtStart;
    private final Object lock = new Object();
    private volatile long measureStartNanos = -1;
    private boolean finishing; // guarded by lock
    private boolean recoverPending = true; // guarded by lock: whether finishing brings recoveries forward

    /**
     * Prepares the faults of a run on {@code cluster} (closed by {@link #finish}): notes its brokers, which broker
     * indexes refer to.
     */
    public FaultInjector(List<Fault> faults, BrokerControl control, FaultCluster cluster, Consumer<String> log)
            throws Exception {
        this(faults, control, null, cluster, log);
    }

    /** As the broker-only constructor, client faults reaching the run's clients through {@code clients}. */
    public FaultInjector(
            List<Fault> faults,
            BrokerControl control,
            ClientControl clients,
            FaultCluster cluster,
            Consumer<String> log)
            throws Exception {
        for (Fault f : faults) {
            if (f.target().isClient() ? clients == null : control == null) {
                throw new IllegalArgumentException(
                        f.key() + ": no " + (f.target().isClient() ? "client" : "broker") + " control for it");
            }
        }
        this.control = control;
        this.clients = clients;
        this.targets = cluster;
        this.log = log;
        faults.forEach(f -> states.add(new State(f)));
        this.brokersAtStart = targets.brokers();
        this.executor = new ScheduledThreadPoolExecutor(1, runnable -> {
            Thread thread = new Thread(runnable, "omb-tx-faults");
            thread.setDaemon(true);
            return thread;
        });
        executor.setExecuteExistingDelayedTasksAfterShutdownPolicy(false);
    }

    /** The brokers when the run began, sorted by node id (what a broker index names). */
    public List<BrokerControl.Broker> brokersAtStart() {
        return List.copyOf(brokersAtStart);
    }

    /** The measurement started at {@code nanos} ({@link System#nanoTime()}): times count from here. */
    public void measurementStarted(long nanos) {
        if (measureStartNanos < 0) {
            measureStartNanos = nanos;
        }
    }

    /** Hands every fault now due to the injector's thread. Called from the measurement loop only. */
    public void poll(long nowNanos, long measuredOperationsDone) {
        long start = measureStartNanos;
        if (start < 0) {
            return;
        }
        for (State state : states) {
            if (state.handedOver) {
                continue;
            }
            Fault f = state.fault;
            boolean due = f.at() != null
                    ? nowNanos - start >= f.at().toNanos()
                    : measuredOperationsDone >= f.afterOperations();
            if (due) {
                synchronized (lock) {
                    if (finishing) {
                        return;
                    }
                    state.handedOver = true;
                    executor.execute(() -> inject(state));
                }
            }
        }
    }

    private void inject(State state) {
        Fault f = state.fault;
        try {
            String what = f.target().isClient() ? injectClient(state) : injectBroker(state);
            log.accept(String.format(
                    Locale.ROOT,
                    "Fault %s: %s %s at %.1f s",
                    f.key(),
                    past(f.action()),
                    what,
                    seconds(state.injectedNanos)));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            state.error = "interrupted while injecting";
            return;
        } catch (Exception e) {
            state.error = "injecting failed: " + message(e);
            log.accept("Fault " + f.key() + ": " + state.error);
            return;
        }
        scheduleRecovery(state);
    }

    /** Injects a broker fault; returns what was faulted, for the log line. */
    private String injectBroker(State state) throws Exception {
        Fault f = state.fault;
        FaultCluster.Resolved resolved = targets.resolve(f, brokersAtStart);
        BrokerControl.Broker broker = broker(resolved.nodeId());
        state.broker = broker;
        state.via = resolved.via();
        state.injectedEpochMillis = System.currentTimeMillis();
        state.injectedNanos = System.nanoTime();
        control.inject(f.action(), broker);
        state.injected = true;
        return String.format(
                Locale.ROOT,
                "broker %d (%s)%s",
                broker.nodeId(),
                broker.address(),
                state.via == null ? "" : ", " + state.via);
    }

    private void scheduleRecovery(State state) {
        Fault f = state.fault;
        if (f.recovers()) {
            synchronized (lock) {
                if (!finishing) {
                    long delay = state.injectedNanos + f.recoverAfter().toNanos() - System.nanoTime();
                    state.recovery = executor.schedule(() -> recover(state), Math.max(0, delay), TimeUnit.NANOSECONDS);
                    return;
                }
                if (!recoverPending) {
                    state.note = "no " + f.action().recovery() + ": the run ended early";
                    return;
                }
            }
            recover(state, true);
        }
    }

    private void recover(State state) {
        recover(state, false);
    }

    /** Injects a client fault; returns what was faulted, for the log line. */
    private String injectClient(State state) throws Exception {
        Fault f = state.fault;
        ClientFaults.Step step =
                switch (f.action()) {
                    case KILL -> ClientFaults.Step.KILL;
                    case STOP -> ClientFaults.Step.STOP;
                    case PAUSE -> ClientFaults.Step.PAUSE;
                    case ADD -> ClientFaults.Step.ADD;
                    case REMOVE -> ClientFaults.Step.REMOVE;
                };
        ClientFaults.Report report = clients.clientFault(request(f, step, f.clientIndex()));
        // Injected when the client acted (at its next transaction), which the recovery's delay counts from.
        state.injectedEpochMillis = System.currentTimeMillis();
        state.injectedNanos = System.nanoTime();
        state.clientReport = report;
        state.clientIndex = report.index();
        state.injected = true;
        return f.target().key() + " " + report.index();
    }

    private static ClientFaults.Request request(Fault f, ClientFaults.Step step, Integer index) {
        ClientFaults.Client client = f.target() == FaultTarget.STREAM_PROCESSOR
                ? ClientFaults.Client.STREAM_PROCESSOR
                : ClientFaults.Client.TRANSACTIONAL_PRODUCER;
        return new ClientFaults.Request(f.key(), client, index == null ? -1 : index, step);
    }

    /** A new instance of the faulted client (with the same transactional id); after a pause, the zombie goes on. */
    private void recoverClient(State state) throws Exception {
        Fault f = state.fault;
        ClientFaults.Step step = f.action() == FaultAction.PAUSE ? ClientFaults.Step.RESUME : ClientFaults.Step.RESTART;
        state.clientReport = clients.clientFault(request(f, step, state.clientIndex));
    }

    private String clientRecovered(State state) {
        Fault f = state.fault;
        return String.format(
                Locale.ROOT,
                "Fault %s: %s %d %s at %.1f s, the new instance ready at %.1f s%s",
                f.key(),
                f.target().key(),
                state.clientIndex,
                f.action() == FaultAction.PAUSE ? "replaced, the zombie resumed" : "restarted",
                seconds(state.recoveredNanos),
                seconds(state.rejoinedNanos),
                state.clientReport.fencings() > 0 ? ", the zombie fenced" : "");
    }

    /** What a client fault came to, asked once the faults are over (the stall may need the next commit). */
    private void reportClient(State state) {
        if (!state.injected
                || !state.fault.target().isClient()
                || state.fault.action().changesGroup()) {
            return;
        }
        try {
            state.clientReport = clients.clientFault(request(state.fault, ClientFaults.Step.REPORT, state.clientIndex));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (Exception e) {
            if (state.error == null) {
                state.error = "reading what the fault did failed: " + message(e);
            }
        }
    }

    /** @param early whether the recovery runs before its time because the measurement ended */
    private void recover(State state, boolean early) {
        if (!state.injected || !state.recoveryStarted.compareAndSet(false, true)) {
            return;
        }
        Fault f = state.fault;
        if (early) {
            state.note = f.action().recovery() + " brought forward to the end of the measurement";
        }
        try {
            state.recoveredEpochMillis = System.currentTimeMillis();
            state.recoveredNanos = System.nanoTime();
            if (f.target().isClient()) {
                recoverClient(state);
            } else {
                recoverBroker(state);
            }
            state.rejoinedEpochMillis = System.currentTimeMillis();
            state.rejoinedNanos = System.nanoTime();
            log.accept(f.target().isClient() ? clientRecovered(state) : brokerRecovered(state));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            state.error = f.action().recovery() + " interrupted";
        } catch (Exception e) {
            state.error = f.action().recovery() + " failed: " + message(e);
            log.accept("Fault " + f.key() + ": " + state.error);
        }
    }

    /** The broker restarted or resumed, and serving again. */
    private void recoverBroker(State state) throws Exception {
        control.recover(state.fault.action(), state.broker);
        targets.awaitServing(state.broker.nodeId());
    }

    private String brokerRecovered(State state) {
        Fault f = state.fault;
        return String.format(
                Locale.ROOT,
                "Fault %s: broker %d %s at %.1f s, serving again at %.1f s",
                f.key(),
                state.broker.nodeId(),
                f.action() == FaultAction.PAUSE ? "resumed" : "restarted",
                seconds(state.recoveredNanos),
                seconds(state.rejoinedNanos));
    }

    private BrokerControl.Broker broker(int nodeId) throws Exception {
        for (BrokerControl.Broker b : brokersAtStart) {
            if (b.nodeId() == nodeId) {
                return b;
            }
        }
        for (BrokerControl.Broker b : targets.brokers()) {
            if (b.nodeId() == nodeId) {
                return b;
            }
        }
        throw new IllegalStateException("broker " + nodeId + " is not in the cluster metadata");
    }

    /**
     * Ends fault injection: faults not yet due are not injected, recoveries still waiting run now, and everything
     * under way gets up to {@code budget} to finish. Returns what happened to each fault, in the declared order.
     */
    public List<RunResult.FaultEvent> finish(Duration budget) {
        return finish(budget, true);
    }

    /**
     * As {@link #finish(Duration)}; with {@code recoverPending} false (a run ended early on a cluster about to be
     * closed anyway), recoveries still waiting are dropped instead, and noted.
     */
    public List<RunResult.FaultEvent> finish(Duration budget, boolean recoverPending) {
        synchronized (lock) {
            finishing = true;
            this.recoverPending = recoverPending;
            for (State state : states) {
                if (!state.handedOver) {
                    state.note = "not injected: the measurement ended first";
                } else if (state.recovery != null && !state.recoveryStarted.get() && state.recovery.cancel(false)) {
                    if (recoverPending) {
                        executor.execute(() -> recover(state, true));
                    } else {
                        state.note = "no " + state.fault.action().recovery() + ": the run ended early";
                    }
                }
            }
            executor.shutdown();
        }
        try {
            if (!executor.awaitTermination(budget.toMillis(), TimeUnit.MILLISECONDS)) {
                executor.shutdownNow();
                for (State state : states) {
                    if (state.handedOver
                            && state.error == null
                            && (!state.injected || state.fault.recovers() && state.rejoinedEpochMillis == null)) {
                        state.error = "still under way when the run ended (" + budget.toSeconds() + " s after the"
                                + " measurement)";
                    }
                }
            }
        } catch (InterruptedException e) {
            executor.shutdownNow();
            Thread.currentThread().interrupt();
        } finally {
            targets.close();
        }
        if (recoverPending && !Thread.currentThread().isInterrupted()) {
            states.forEach(this::reportClient);
        }
        return states.stream().map(this::event).toList();
    }

    private RunResult.FaultEvent event(State s) {
        Fault f = s.fault;
        ClientFaults.Report report = f.action().changesGroup() ? null : s.clientReport;
        return new RunResult.FaultEvent(
                f.key(),
                RunResult.FaultEvent.Action.ofKey(f.action().key()),
                RunResult.FaultEvent.Target.ofKey(f.target().key()),
                f.partition(),
                f.brokerIndex(),
                f.at() == null ? null : f.at().toMillis() / 1000.0,
                f.afterOperations(),
                f.recovers()
                        ? RunResult.FaultEvent.Recovery.ofKey(
                                f.action().recovery().key())
                        : null,
                f.recovers() ? f.recoverAfter().toMillis() / 1000.0 : null,
                s.broker == null ? null : s.broker.nodeId(),
                s.broker == null ? null : s.broker.address(),
                s.via,
                s.injectedEpochMillis,
                s.injectedEpochMillis == null ? null : seconds(s.injectedNanos),
                s.recoveredEpochMillis,
                s.recoveredEpochMillis == null ? null : seconds(s.recoveredNanos),
                s.rejoinedEpochMillis,
                s.rejoinedEpochMillis == null ? null : seconds(s.rejoinedNanos),
                s.error,
                noteWith(s),
                f.target().isClient() ? (s.clientIndex != null ? s.clientIndex : f.clientIndex()) : null,
                report == null ? null : report.fencings(),
                report == null ? null : report.zombieCommits(),
                report == null ? null : report.abortedTransactions(),
                report == null ? null : report.reprocessedRecords(),
                report == null || report.stallMillis() == null ? null : report.stallMillis() / 1000.0);
    }

    private static String noteWith(State s) {
        String driverNote = s.clientReport == null ? null : s.clientReport.note();
        if (driverNote == null) {
            return s.note;
        }
        return s.note == null ? driverNote : s.note + "; " + driverNote;
    }

    /** Seconds from the start of the measurement, to the millisecond. */
    private double seconds(long nanos) {
        return Math.round((nanos - measureStartNanos) / 1e6) / 1000.0;
    }

    private static String past(FaultAction action) {
        return switch (action) {
            case KILL -> "killed";
            case PAUSE -> "paused";
            case STOP -> "stopped";
            case ADD -> "added";
            case REMOVE -> "removed";
        };
    }

    private static String message(Throwable e) {
        Throwable t = e;
        while ((t instanceof java.util.concurrent.ExecutionException
                        || t instanceof java.util.concurrent.CompletionException)
                && t.getCause() != null) {
            t = t.getCause();
        }
        String text = t.getMessage();
        return text == null || text.isBlank() ? t.getClass().getSimpleName() : text;
    }

    /** One fault's progress; written by the injector's thread, read by {@link #finish} after it stopped. */
    private static final class State {
        final Fault fault;
        volatile boolean handedOver;
        volatile BrokerControl.Broker broker;
        volatile String via;
        volatile Long injectedEpochMillis;
        volatile long injectedNanos;
        volatile boolean injected;
        volatile ScheduledFuture<?> recovery;
        final java.util.concurrent.atomic.AtomicBoolean recoveryStarted =
                new java.util.concurrent.atomic.AtomicBoolean();
        volatile Long recoveredEpochMillis;
        volatile long recoveredNanos;
        volatile Long rejoinedEpochMillis;
        volatile long rejoinedNanos;
        volatile String error;
        volatile String note;
        volatile Integer clientIndex;
        volatile ClientFaults.Report clientReport;

        State(Fault fault) {
            this.fault = fault;
        }
    }
}
