package io.ombtx.runner.run;

import io.ombtx.driver.api.ClientFaults;
import io.ombtx.driver.api.ExactlyOnceReport;
import io.ombtx.driver.api.LiveCheckReport;
import io.ombtx.driver.api.OperationKind;
import io.ombtx.driver.api.OperationSpec;
import io.ombtx.runner.plan.WorkerAssignment;
import io.ombtx.runner.stats.StatsSnapshot;
import io.ombtx.runner.worker.LoadSpec;
import io.ombtx.runner.worker.Worker;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * The workers of a run seen as one {@link Worker}, as OMB's distributed ensemble is: each step goes to the workers
 * whose {@link WorkerAssignment} it concerns, in parallel, and their answers are merged (statistics by each
 * metric's rule, progress summed). Rates, counts and producers are split exactly as the plan says.
 */
public final class WorkerGroup implements Worker {

    /** One worker and what the plan gave it. */
    public record Member(Worker worker, WorkerAssignment assignment) {}

    private interface Step {
        void run(Member member) throws Exception;
    }

    private final List<Member> members;
    private final ExecutorService calls;
    /** Whether the members were sent {@code /initialize-driver}: then {@link #stopInitialized()} stops them. */
    private volatile boolean driverSent;

    private OperationSpec operation = OperationSpec.publish();
    /** The stream processors created at set-up, then those added by client faults: the next added one's index. */
    private int processors;

    /** The workers of a plan, each created by {@code create} from its name; those created are closed on a failure. */
    static WorkerGroup of(List<WorkerAssignment> assignments, java.util.function.Function<String, Worker> create) {
        List<Member> members = new ArrayList<>();
        try {
            for (WorkerAssignment assignment : assignments) {
                members.add(new Member(create.apply(assignment.worker()), assignment));
            }
        } catch (RuntimeException e) {
            members.forEach(m -> m.worker().close());
            throw e;
        }
        return new WorkerGroup(members);
    }

    public WorkerGroup(List<Member> members) {
        if (members.isEmpty()) {
            throw new IllegalArgumentException("a run needs at least one worker");
        }
        this.members = List.copyOf(members);
        this.calls = members.size() == 1
                ? null
                : Executors.newCachedThreadPool(runnable -> {
                    Thread thread = new Thread(runnable, "worker-call");
                    thread.setDaemon(true);
                    return thread;
                });
    }

    public List<Member> members() {
        return members;
    }

    private List<Member> producing() {
        return members.stream().filter(m -> m.assignment().producing()).toList();
    }

    private List<Member> consuming() {
        return members.stream().filter(m -> m.assignment().consuming()).toList();
    }

    /**
     * Runs {@code step} on each member at once and waits for all. The first failure is rethrown as it was, later ones
     * ride along as suppressed; if this thread is interrupted, the calls still under way are cancelled.
     */
    private void each(List<Member> targets, Step step) throws Exception {
        if (calls == null || targets.size() == 1) {
            for (Member member : targets) {
                step.run(member);
            }
            return;
        }
        List<Future<?>> pending = new ArrayList<>();
        for (Member member : targets) {
            pending.add(calls.submit(() -> {
                step.run(member);
                return null;
            }));
        }
        Exception first = null;
        for (Future<?> future : pending) {
            try {
                future.get();
            } catch (InterruptedException e) {
                pending.forEach(f -> f.cancel(true));
                throw e;
            } catch (ExecutionException e) {
                Throwable cause = e.getCause();
                if (cause instanceof Error error) {
                    throw error;
                }
                Exception failure = cause instanceof Exception exception ? exception : e;
                if (first == null) {
                    first = failure;
                } else {
                    first.addSuppressed(failure);
                }
            }
        }
        if (first != null) {
            throw first;
        }
    }

    @Override
    public void initializeDriver(String driverYaml, OperationSpec operation) throws Exception {
        this.operation = operation;
        driverSent = true; // to every member at once: each must be stopped, even one whose initialization failed
        each(members, m -> m.worker().initializeDriver(driverYaml, operation));
    }

    /**
     * Ends the run on every worker that was sent {@code /initialize-driver} (whether or not it succeeded), so each is
     * free for the next run: a stock OMB worker refuses a new driver until {@code /stop-all}. All are stopped, in
     * parallel, even when one fails; the first failure is rethrown after.
     */
    public void stopInitialized() throws Exception {
        if (driverSent) {
            each(members, m -> m.worker().run(Command.STOP_ALL));
        }
    }

    /** As OMB: the first worker creates the topics for everyone. */
    @Override
    public List<String> createTopics(int count, int partitions) throws Exception {
        return members.get(0).worker().createTopics(count, partitions);
    }

    @Override
    public List<String> createTopics(int count, int partitions, String runId) throws Exception {
        return members.get(0).worker().createTopics(count, partitions, runId);
    }

    @Override
    public void createProducers(List<String> topics) throws Exception {
        List<Member> targets = producing();
        List<List<String>> dealt = deal(topics, targets, WorkerAssignment::producers);
        each(targets, m -> m.worker().createProducers(dealt.get(targets.indexOf(m))));
    }

    @Override
    public void createConsumers(List<TopicSubscription> subscriptions) throws Exception {
        List<Member> targets = consuming();
        List<List<TopicSubscription>> dealt = deal(subscriptions, targets, WorkerAssignment::consumers);
        each(targets, m -> m.worker().createConsumers(dealt.get(targets.indexOf(m))));
        synchronized (this) {
            processors = subscriptions.size();
        }
    }

    /**
     * To the worker that runs the client: producers and stream processors were dealt round-robin over the producing
     * and the consuming workers, so client {@code i} of the run is client {@code i / n} of worker {@code i % n}; an
     * added processor takes the next index and is dealt the same way. The report's index is the run's again.
     */
    @Override
    public synchronized ClientFaults.Report clientFault(ClientFaults.Request request) throws Exception {
        List<Member> targets = request.client() == ClientFaults.Client.STREAM_PROCESSOR ? consuming() : producing();
        if (targets.isEmpty()) {
            throw new IllegalStateException("no worker runs " + request.client());
        }
        int index = request.step() == ClientFaults.Step.ADD ? processors : request.index();
        Member member = targets.get(index % targets.size());
        ClientFaults.Report report = member.worker()
                .clientFault(new ClientFaults.Request(
                        request.fault(), request.client(), index / targets.size(), request.step()));
        if (request.step() == ClientFaults.Step.ADD) {
            processors++;
        }
        return new ClientFaults.Report(
                index,
                report.fencings(),
                report.zombieCommits(),
                report.abortedTransactions(),
                report.reprocessedRecords(),
                report.stallMillis(),
                report.note());
    }

    /** Round-robin, as the plan counted; a different count means the plan and the run disagree, a bug. */
    private static <T> List<List<T>> deal(
            List<T> items, List<Member> targets, java.util.function.ToIntFunction<WorkerAssignment> planned) {
        List<List<T>> dealt = new ArrayList<>();
        for (int i = 0; i < targets.size(); i++) {
            List<T> mine = new ArrayList<>();
            for (int j = i; j < items.size(); j += targets.size()) {
                mine.add(items.get(j));
            }
            if (mine.size() != planned.applyAsInt(targets.get(i).assignment())) {
                throw new IllegalStateException("worker "
                        + targets.get(i).assignment().worker() + " was planned "
                        + planned.applyAsInt(targets.get(i).assignment()) + " item(s) but is dealt " + mine.size());
            }
            dealt.add(mine);
        }
        return dealt;
    }

    /** Each producing worker writes its planned share; {@code messages} is the total and must match the plan. */
    @Override
    public void prefill(long messages, byte[] payload) throws Exception {
        long planned = producing().stream()
                .mapToLong(m -> m.assignment().prefillMessages())
                .sum();
        if (planned != messages) {
            throw new IllegalStateException("prefill of " + messages + " message(s) but " + planned + " planned");
        }
        each(producing(), m -> m.worker().prefill(m.assignment().prefillMessages(), payload));
    }

    /**
     * Starts each worker on its planned rate and counts, the workers that only consume first so none of the load's
     * messages arrive before they count; {@code load} gives the rest (loop, payloads, keys).
     *
     * <p>As in OMB, a worker that only consumes is sent no load when there is nothing in it for its consumers (a
     * plain, time-based run): it has no rate to take, and a stock OMB worker refuses a rate of 0. Its statistics are
     * reset instead, so the consumer-readiness probes it received are not measured. It is sent the load when its
     * consumers count operations (a STREAM run, or a warm-up or measurement given as a count).
     */
    @Override
    public void startLoad(LoadSpec load) throws Exception {
        List<Member> consumersOnly =
                members.stream().filter(m -> !m.assignment().producing()).toList();
        each(consumersOnly, m -> {
            LoadSpec share = share(load, m);
            if (consumersNeedLoad(share)) {
                m.worker().startLoad(share);
            } else {
                m.worker().run(Command.RESET_STATS);
            }
        });
        each(producing(), m -> m.worker().startLoad(share(load, m)));
    }

    private static LoadSpec share(LoadSpec load, Member m) {
        return load.share(
                m.assignment().publishRate(),
                m.assignment().warmupOperations(),
                m.assignment().measureOperations());
    }

    /** Whether a worker's consumers must know the load: they perform or count the operations. */
    private boolean consumersNeedLoad(LoadSpec share) {
        return operation.kind() == OperationKind.STREAM
                || share.warmupOperations() > 0
                || share.measureOperations() > 0
                || share.waitForConsume();
    }

    /** To the workers a step concerns: probes to producers, pause and resume to consumers, the rest to all. */
    @Override
    public void run(Command command) throws Exception {
        List<Member> targets =
                switch (command) {
                    case PROBE_PRODUCERS -> producing();
                    case PAUSE_CONSUMERS, RESUME_CONSUMERS -> consuming();
                    case RESET_STATS, STOP_ALL -> members;
                };
        each(targets, m -> m.worker().run(command));
    }

    /** {@code messagesPerSecond} is the total; each producing worker gets an equal share. */
    @Override
    public void adjustRate(double messagesPerSecond) throws Exception {
        List<Member> targets = producing();
        each(targets, m -> m.worker().adjustRate(messagesPerSecond / targets.size()));
    }

    /**
     * Every worker's period, merged. A worker that fails does not cost the others' figures, which were drained
     * already: they travel with the failure in a {@link PartialStats}.
     */
    @Override
    public StatsSnapshot periodStats() throws Exception {
        StatsSnapshot merged = new StatsSnapshot();
        try {
            each(members, m -> {
                StatsSnapshot one = m.worker().periodStats();
                synchronized (merged) {
                    merged.add(one);
                }
            });
        } catch (Exception e) {
            throw new PartialStats(merged, e);
        }
        return merged;
    }

    /** A period that some workers could not report: what the others reported, and why. */
    public static final class PartialStats extends Exception {
        private final transient StatsSnapshot reported;

        PartialStats(StatsSnapshot reported, Exception cause) {
            super(cause.getMessage() == null ? cause.toString() : cause.getMessage(), cause);
            this.reported = reported;
        }

        public StatsSnapshot reported() {
            return reported;
        }
    }

    @Override
    public Progress progress() throws Exception {
        Progress total = null;
        for (Progress p : collect(Worker::progress)) {
            total = total == null ? p : total.plus(p);
        }
        return total;
    }

    /** What the client library warned in each worker's process (none for those in this JVM); best effort. */
    public List<io.ombtx.runner.log.ClientWarnings.Summary> clientWarnings() {
        List<io.ombtx.runner.log.ClientWarnings.Summary> all = new ArrayList<>();
        try {
            for (List<io.ombtx.runner.log.ClientWarnings.Summary> one : collect(worker -> {
                try {
                    return worker.clientWarnings();
                } catch (Exception e) {
                    return List.<io.ombtx.runner.log.ClientWarnings.Summary>of();
                }
            })) {
                all.addAll(one);
            }
        } catch (Exception e) {
            // A help to read the run, never a reason to fail it.
        }
        return all;
    }

    /** Each member's CPU counters now, in member order; null for one that cannot say or did not answer. */
    public List<io.ombtx.runner.stats.CpuMeter.Sample> cpuSamples() {
        try {
            return collect(worker -> {
                try {
                    return worker.cpuSample();
                } catch (Exception e) {
                    return null; // the figure is a help to read the verdict, never a reason to fail the run
                }
            });
        } catch (Exception e) {
            return java.util.Collections.nCopies(members.size(), null);
        }
    }

    private interface Query<T> {
        T ask(Worker worker) throws Exception;
    }

    private <T> List<T> collect(Query<T> query) throws Exception {
        List<T> answers = new ArrayList<>(members.size());
        for (int i = 0; i < members.size(); i++) {
            answers.add(null);
        }
        each(members, m -> {
            T answer = query.ask(m.worker());
            synchronized (answers) {
                answers.set(members.indexOf(m), answer);
            }
        });
        return answers;
    }

    /** The first worker's: its driver describes the brokers and clients for the result. */
    @Override
    public Map<String, Object> environment() throws Exception {
        return members.get(0).worker().environment();
    }

    /** The first consuming worker checks: the verdict reads the committed output, whoever wrote it. */
    @Override
    public ExactlyOnceReport verifyExactlyOnce(String topic, String subscription) throws Exception {
        return consuming().get(0).worker().verifyExactlyOnce(topic, subscription);
    }

    /** As the final check, the first consuming worker runs the live one: it reads the output, whoever writes it. */
    @Override
    public void startLiveCheck(String topic, String subscription) throws Exception {
        consuming().get(0).worker().startLiveCheck(topic, subscription);
    }

    @Override
    public LiveCheckReport stopLiveCheck(String topic, String subscription) throws Exception {
        return consuming().get(0).worker().stopLiveCheck(topic, subscription);
    }

    private final java.util.concurrent.atomic.AtomicBoolean closed = new java.util.concurrent.atomic.AtomicBoolean();

    /** Closes each worker once; a second call (say after a close abandoned at the teardown deadline) returns at once. */
    @Override
    public void close() {
        if (claimClose()) {
            closeMembers();
        }
    }

    /** Marks the group closed; true for the one caller that is then to run {@link #closeMembers()}. */
    boolean claimClose() {
        return closed.compareAndSet(false, true);
    }

    void closeMembers() {
        try {
            for (Member member : members) {
                try {
                    member.worker().close();
                } catch (RuntimeException e) {
                    // Closing is best effort: the others still get closed.
                }
            }
        } finally {
            if (calls != null) {
                calls.shutdownNow();
            }
        }
    }
}
