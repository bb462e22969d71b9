package io.ombtx.runner;

import io.ombtx.driver.api.config.ConfigException;
import io.ombtx.runner.cli.BenchmarkArgs;
import io.ombtx.runner.cli.BenchmarkCommand;
import io.ombtx.runner.cli.Cli;
import io.ombtx.runner.cli.MetricsOptions;
import io.ombtx.runner.cluster.ClusterReuse;
import io.ombtx.runner.cluster.ClusterStartFailed;
import io.ombtx.runner.cluster.ClusterUnreachable;
import io.ombtx.runner.config.DriverFile;
import io.ombtx.runner.config.UsageException;
import io.ombtx.runner.config.Workload;
import io.ombtx.runner.config.WorkloadLoader;
import io.ombtx.runner.metrics.LiveMetrics;
import io.ombtx.runner.metrics.MetricsServer;
import io.ombtx.runner.plan.PlanOptions;
import io.ombtx.runner.plan.PlanText;
import io.ombtx.runner.plan.Planner;
import io.ombtx.runner.plan.Repetitions;
import io.ombtx.runner.plan.RunSpec;
import io.ombtx.runner.plan.WorkerAssignment;
import io.ombtx.runner.run.Interruption;
import io.ombtx.runner.run.OutputTarget;
import io.ombtx.runner.run.RunCoordinator;
import io.ombtx.runner.run.RunOptions;
import io.ombtx.runner.worker.ChildJvmWorker;
import io.ombtx.runner.worker.HttpWorkerClient;
import io.ombtx.runner.worker.LocalWorker;
import io.ombtx.runner.worker.SenderThreads;
import io.ombtx.runner.worker.Worker;
import io.ombtx.runner.worker.WorkerException;
import io.ombtx.runner.worker.WorkerUrls;
import io.ombtx.runner.worker.WorkersFile;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import sun.misc.Signal;

/** {@code bin/benchmark}: plans the runs, then executes them one after another. */
public final class Main {

    public static final int OK = 0;
    public static final int FAILED = 1;
    public static final int BAD_INPUT = 2;
    /**
     * Every run complete and judged, and a broker guarantee a run judged (a workload's {@code conformance}) broken: a
     * verdict on the broker, not a failure of omb-tx or of the run. A failed run (1) outranks it.
     */
    public static final int GUARANTEE_BROKEN = 3;

    public static final int INTERRUPTED = 130;

    private Main() {}

    public static void main(String[] args) {
        System.exit(run(args, System.out, System.err));
    }

    public static int run(String[] args, PrintStream out, PrintStream err) {
        return Cli.execute(
                new BenchmarkCommand(),
                args,
                out,
                err,
                command -> run(command.toArgs(false), command.metrics(), out, err));
    }

    /**
     * Runs already-parsed arguments, serving live metrics while they run when {@code metrics} asks for a port (not
     * for a dry run): then, after the last run, it keeps serving until a scrape has read the final values or the
     * linger is up.
     */
    static int run(BenchmarkArgs parsed, MetricsOptions metrics, PrintStream out, PrintStream err) {
        if (metrics.port() == null || parsed.dryRun() || parsed.help()) {
            return run(parsed, out, err);
        }
        LiveMetrics live = new LiveMetrics();
        MetricsServer server;
        try {
            server = MetricsServer.start(metrics.address(), metrics.port(), live, null);
        } catch (java.io.IOException | RuntimeException e) {
            err.println("error: --metrics-port " + metrics.port() + ": cannot listen on " + metrics.address() + ":"
                    + metrics.port() + ": " + (e.getMessage() != null ? e.getMessage() : e));
            return BAD_INPUT;
        }
        try {
            if (!parsed.quiet()) {
                out.printf("Metrics: http://%s:%d%s%n", metrics.address(), server.port(), MetricsServer.PATH);
            }
            int status = runWith(parsed, out, err, live);
            long mark = server.mark();
            if (metrics.lingerSeconds() > 0) {
                if (!parsed.quiet()) {
                    out.printf(
                            "Metrics: serving until a scrape reads the final values (at most %d s, --metrics-linger)%n",
                            metrics.lingerSeconds());
                }
                try {
                    server.awaitScrapeAfter(mark, Duration.ofSeconds(metrics.lingerSeconds()));
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
            return status;
        } finally {
            server.close();
        }
    }

    /** What one run of the command line returned and printed. */
    public record Captured(int code, String out, String err) {}

    /** Runs the command line with what it prints captured (for embedding, and for tests). */
    public static Captured capture(String... args) {
        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
        java.io.ByteArrayOutputStream err = new java.io.ByteArrayOutputStream();
        int code = run(
                args,
                new PrintStream(out, true, java.nio.charset.StandardCharsets.UTF_8),
                new PrintStream(err, true, java.nio.charset.StandardCharsets.UTF_8));
        return new Captured(
                code,
                out.toString(java.nio.charset.StandardCharsets.UTF_8),
                err.toString(java.nio.charset.StandardCharsets.UTF_8));
    }

    /**
     * Reads, checks and plans everything the arguments name, touching no broker and no worker: what a dry run prints
     * and a real run executes. Bad input throws {@link ConfigException} or {@link UsageException}.
     */
    public static List<RunSpec> plan(BenchmarkArgs parsed) {
        List<DriverFile> drivers = new ArrayList<>();
        parsed.drivers().forEach(d -> drivers.add(DriverFile.load(ShippedDrivers.resolve(d))));
        List<Workload> workloads = new ArrayList<>();
        boolean profileDefined = false;
        for (Path file : parsed.workloads()) {
            WorkloadLoader.Loaded loaded = WorkloadLoader.read(file, parsed.profile());
            workloads.addAll(loaded.runs());
            profileDefined |= loaded.definesProfile();
        }
        if (parsed.profile() != null && !parsed.profile().equals("full") && !profileDefined) {
            // A typo here would silently run the seeds' full counts, which can take hours.
            throw new UsageException("--profile " + parsed.profile() + ": no workload defines it (its 'profiles:'"
                    + " block); the shipped workloads have quick and full");
        }
        PlanOptions planOptions = PlanOptions.builder()
                .brokers(parsed.brokers())
                .brokerProfile(parsed.brokerProfile())
                .brokerSettings(parsed.brokerSettings())
                .reportingIntervalSeconds(parsed.reportingIntervalSeconds())
                .workerUrls(workerUrls(parsed))
                .extraConsumers(parsed.extraConsumers())
                .teardownTimeoutSeconds(parsed.teardownTimeoutSeconds())
                .brokerVersion(parsed.brokerVersion())
                .transactionVersion(parsed.transactionVersion())
                .faultCommand(parsed.faultCommand())
                .senderThreadsPerProducer(senderThreadsSetting())
                .clientVersion(parsed.clientVersion())
                .brokerSystem(parsed.brokerSystem(), parsed.brokerSystemSource())
                .brokerSecurity(parsed.brokerSecurity())
                .build();
        List<RunSpec> plan = Repetitions.expand(
                Planner.plan(drivers, workloads, planOptions),
                parsed.repeat(),
                parsed.interleave(),
                parsed.comparison(),
                Repetitions.newGroupId(java.time.Instant.now()));
        if (singleFileOutput(parsed) && plan.size() > 1) {
            throw new UsageException("-o " + parsed.output() + " names one file but the plan has " + plan.size()
                    + " runs" + (parsed.repeat() > 1 ? " (--repeat " + parsed.repeat() + ")" : "")
                    + ": give a folder instead");
        }
        // Before anything starts: a dry run only looks, a real run creates the folder and writes a probe.
        OutputTarget.of(parsed.output()).check(!parsed.dryRun());
        return plan;
    }

    /**
     * The local worker on another client release: a worker JVM with that client on its class path in place of the
     * built-in one (the release fetched on first use), spoken to over loopback HTTP.
     */
    static Worker clientWorker(String release, Duration timeout, PrintStream console) {
        try {
            List<Path> classPath = io.ombtx.runner.cluster.ClusterSystems.installed()
                    .clientClassPath(release, System.getProperty("java.class.path"));
            List<String> jvm = new ArrayList<>(workerJvmFlags(System.getenv("OMBTX_JAVA_OPTS")));
            jvm.add("--add-exports");
            jvm.add("java.base/jdk.internal.misc=ALL-UNNAMED");
            String home = System.getProperty("ombtx.home");
            if (home != null) {
                jvm.add("-Dombtx.home=" + home);
            }
            ChildJvmWorker child = ChildJvmWorker.start(classPath, jvm, timeout);
            if (console != null) {
                console.printf(
                        "Local worker on kafka-clients %s: a worker JVM of its own (pid %d)%n", release, child.pid());
            }
            return child;
        } catch (Exception e) {
            throw new IllegalStateException(
                    "could not start a worker on client release " + release + ": " + e.getMessage(), e);
        }
    }

    /**
     * The flags of the worker JVM of {@code --client-version}: those the runner's own JVM got from bin/lib
     * ({@code OMBTX_JAVA_OPTS}, split on white space as the launcher's shell does), else the launcher's defaults. So a
     * heap size, a JIT flag or a system property given for a run reaches the JVM where its loop runs (before, that
     * JVM always got the defaults: {@code bin/bench fidelity --client-version} lost its {@code --jvm-opt} flags on
     * omb-tx's side only).
     */
    static List<String> workerJvmFlags(String javaOpts) {
        return javaOpts == null || javaOpts.isBlank()
                ? List.of("-Xms512m", "-Xmx2g", "-XX:+UseG1GC")
                : List.of(javaOpts.trim().split("\\s+"));
    }

    /** The dry run's line on --reuse-brokers: how many clusters the plan starts. */
    static String reuseLine(List<RunSpec> plan) {
        int starts = PlanText.clusterStarts(plan);
        return String.format(
                "Brokers: --reuse-brokers: %d embedded cluster start(s) for %d run(s) (runs in a row on the same"
                        + " cluster and without faults share one)",
                starts, plan.size());
    }

    private static boolean singleFileOutput(BenchmarkArgs parsed) {
        return OutputTarget.of(parsed.output()).file() != null;
    }

    /** The setting {@link SenderThreads#PROPERTY}, checked before anything is planned. */
    static Integer senderThreadsSetting() {
        try {
            return SenderThreads.fromSystemProperty();
        } catch (IllegalArgumentException e) {
            throw new UsageException(e.getMessage() + " (set in OMBTX_JAVA_OPTS)");
        }
    }

    /** Runs already-parsed arguments. */
    public static int run(BenchmarkArgs parsed, PrintStream out, PrintStream err) {
        return runWith(parsed, out, err, null);
    }

    private static int runWith(BenchmarkArgs parsed, PrintStream out, PrintStream err, LiveMetrics metrics) {
        if (!parsed.reuseBrokers() || parsed.dryRun()) {
            return run(parsed, out, err, null, metrics);
        }
        try (ClusterReuse reuse = new ClusterReuse()) {
            return run(parsed, out, err, reuse, metrics);
        }
    }

    /**
     * Runs already-parsed arguments, their embedded clusters kept between runs by {@code reuse} when
     * {@code parsed.reuseBrokers()} (the caller closes it: bin/benchmark-suite keeps one across its entries).
     */
    public static int run(BenchmarkArgs parsed, PrintStream out, PrintStream err, ClusterReuse reuse) {
        return run(parsed, out, err, reuse, null);
    }

    /** As {@link #run(BenchmarkArgs, PrintStream, PrintStream, ClusterReuse)}, each run feeding {@code metrics}. */
    private static int run(
            BenchmarkArgs parsed, PrintStream out, PrintStream err, ClusterReuse reuse, LiveMetrics metrics) {
        Interruption interruption = new Interruption();
        try {
            List<RunSpec> plan = plan(parsed);
            plan.stream().flatMap(run -> run.warnings().stream()).distinct().forEach(err::println);
            if (parsed.dryRun()) {
                out.print(PlanText.describe(plan));
                if (parsed.reuseBrokers() && reuse == null) {
                    out.println(reuseLine(plan)); // a suite, which passes its reuse, counts over all its entries
                }
                return OK;
            }
            OutputTarget target = OutputTarget.of(parsed.output());
            Path outputDir = target.file() != null ? Path.of("results") : target.folder();
            Path outputFile = target.file();
            Duration workerTimeout = Duration.ofSeconds(parsed.workerTimeoutSeconds());
            RunCoordinator.WorkerFactory workers = new RunCoordinator.WorkerFactory() {
                @Override
                public Worker create(String worker) {
                    return worker.equals(WorkerAssignment.LOCAL)
                            ? new LocalWorker()
                            : new HttpWorkerClient(worker, workerTimeout, parsed.workerToken());
                }

                @Override
                public Worker create(String worker, RunSpec spec) {
                    if (spec.clientVersion() == null || !worker.equals(WorkerAssignment.LOCAL)) {
                        return create(worker);
                    }
                    return clientWorker(spec.clientVersion(), workerTimeout, parsed.quiet() ? null : out);
                }
            };
            RunOptions options = new RunOptions(outputDir, outputFile, parsed.quiet(), metrics);
            installSignalHandlers(interruption);
            RunCoordinator coordinator =
                    new RunCoordinator(options, out, workers, interruption, parsed.reuseBrokers() ? reuse : null);
            int status = OK;
            for (RunSpec run : plan) {
                if (interruption.reason() != null) {
                    break;
                }
                RunCoordinator.Outcome outcome = coordinator.run(run);
                if (!outcome.complete()) {
                    status = FAILED;
                    if (parsed.quiet()) {
                        err.println("run " + run.name() + ": " + outcome.shortfall());
                    }
                } else if (RunCoordinator.brokenGuarantee(outcome.result()) != null) {
                    status = worse(status, GUARANTEE_BROKEN);
                    if (parsed.quiet()) {
                        err.println("run " + run.name() + ": " + RunCoordinator.brokenGuarantee(outcome.result()));
                    }
                }
            }
            if (interruption.reason() != null) {
                return INTERRUPTED;
            }
            if (status == OK || status == GUARANTEE_BROKEN) {
                ClassDataArchive.saveIfAsked(); // once per class path: later runs start on less CPU
            }
            return status;
        } catch (ConfigException | UsageException e) {
            err.println("error: " + e.getMessage());
            return BAD_INPUT;
        } catch (ClusterStartFailed | WorkerException | ClusterUnreachable e) {
            err.println("error: " + e.getMessage());
            return FAILED;
        } catch (Exception e) {
            err.println("error: " + e);
            if (System.getenv("OMBTX_DEBUG") != null) {
                e.printStackTrace(err);
            }
            return FAILED;
        }
    }

    /**
     * The exit status of two outcomes together: bad input, then interrupted, then a failed run, then a broken
     * guarantee, then done.
     */
    public static int worse(int a, int b) {
        for (int code : new int[] {BAD_INPUT, INTERRUPTED, FAILED, GUARANTEE_BROKEN}) {
            if (a == code || b == code) {
                return code;
            }
        }
        return Math.max(a, b);
    }

    private static List<String> workerUrls(BenchmarkArgs args) {
        List<String> urls = new ArrayList<>();
        for (String url : args.workers()) {
            WorkerUrls.problem(url).ifPresent(problem -> {
                throw new UsageException("-w/--workers: " + problem);
            });
            urls.add(url.trim());
        }
        WorkerUrls.duplicateProblem(urls).ifPresent(problem -> {
            throw new UsageException("-w/--workers: " + problem);
        });
        if (args.workersFile() != null) {
            urls.addAll(WorkersFile.read(args.workersFile()));
        }
        return urls;
    }

    private static void installSignalHandlers(Interruption interruption) {
        for (String name : new String[] {"INT", "TERM"}) {
            try {
                Signal.handle(new Signal(name), signal -> {
                    if (interruption.reason() != null) {
                        System.exit(INTERRUPTED); // a second Ctrl-C: give up at once (shutdown hooks still run)
                    }
                    interruption.interrupt("interrupted by SIG" + name);
                });
            } catch (IllegalArgumentException unsupported) {
                // Not available on this platform: the JVM's default handling applies.
            }
        }
    }
}
