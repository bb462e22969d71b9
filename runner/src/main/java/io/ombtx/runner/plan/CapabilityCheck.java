package io.ombtx.runner.plan;

import io.ombtx.driver.api.ClientFaults;
import io.ombtx.driver.api.DriverCapabilities;
import io.ombtx.driver.api.config.ConfigException;
import io.ombtx.runner.cluster.BrokerPlan;
import io.ombtx.runner.config.DriverFile;
import io.ombtx.runner.config.EmbeddedSystem;
import io.ombtx.runner.config.Fault;
import io.ombtx.runner.config.Workload;
import java.util.Optional;

/**
 * Asks a driver that declares its {@link DriverCapabilities} (driver-aeron) whether it can run the workload and
 * whether it needs a Kafka broker, while planning: a workload it cannot run stops with exit code 2, naming the
 * workload's key and the driver, before anything starts. Drivers that declare nothing are Kafka-API clients.
 */
public final class CapabilityCheck {

    private CapabilityCheck() {}

    /** Whether the run needs a Kafka broker (embedded or external); throws when the driver cannot run {@code w}. */
    static boolean check(DriverFile driver, Workload w) {
        clientFaults(driver, w);
        Optional<DriverCapabilities> declared = capabilities(driver);
        if (declared.isEmpty()) {
            return true;
        }
        DriverCapabilities capabilities = declared.get();
        boolean transactional = w.operation().transactional();
        capabilities.unsupported(w.operation().kind(), transactional).ifPresent(reason -> {
            throw new ConfigException(
                    w.sourceFile(),
                    transactional ? "operation.transactional" : "operation.kind",
                    "driver " + driver.name() + " (" + driver.file() + ") cannot run it: " + reason);
        });
        if (capabilities.usesKafkaBroker()) {
            return true;
        }
        if (!w.faults().isEmpty()) {
            throw new ConfigException(
                    w.sourceFile(),
                    "faults",
                    "driver " + driver.name() + " (" + driver.file()
                            + ") uses no broker, so there is none to take away: run this workload with a Kafka driver");
        }
        if (!w.brokerSettings().isEmpty()) {
            throw new ConfigException(
                    w.sourceFile(),
                    "brokerSettings",
                    "driver " + driver.name() + " (" + driver.file()
                            + ") uses no broker, so broker settings do not apply");
        }
        return false;
    }

    /**
     * A workload's client faults (target: stream-processor, transactional-producer) act through the driver's
     * {@link ClientFaults}: a driver without it cannot run them.
     */
    private static void clientFaults(DriverFile driver, Workload w) {
        Optional<Fault> first =
                w.faults().stream().filter(f -> f.target().isClient()).findFirst();
        if (first.isEmpty()) {
            return;
        }
        Class<?> type;
        try {
            type = Class.forName(driver.driverClass(), false, CapabilityCheck.class.getClassLoader());
        } catch (ClassNotFoundException | LinkageError e) {
            return; // Planner reports a driver class that is not here
        }
        if (!ClientFaults.class.isAssignableFrom(type)) {
            throw new ConfigException(
                    w.sourceFile(),
                    first.get().key() + ".target",
                    first.get().target().key() + ": driver " + driver.name() + " (" + driver.file()
                            + ") cannot fault its clients (it does not implement " + ClientFaults.class.getName()
                            + "): run this workload with driver-kafka-tx");
        }
    }

    /**
     * When the run is on an embedded broker (Apache Kafka, or Tansu) but the driver is written for another broker
     * system (its {@link DriverCapabilities#writtenFor()}): the line saying so, for the console before the run and
     * the dry run.
     */
    public static Optional<String> standInNote(DriverFile driver, BrokerPlan broker) {
        if (!broker.embedded()) {
            return Optional.empty();
        }
        EmbeddedSystem embedded = broker.system() == null ? EmbeddedSystem.KAFKA : broker.system();
        String standIn = embedded == EmbeddedSystem.KAFKA ? "Apache Kafka" : embedded.displayName();
        return capabilities(driver)
                .flatMap(DriverCapabilities::writtenFor)
                .filter(system -> !system.equalsIgnoreCase(embedded.displayName()))
                .map(system -> "driver " + driver.name() + " is written for " + system + " but names no cluster"
                        + " (commonConfig's bootstrap.servers): it runs on the embedded " + standIn + ", not "
                        + system + ", and the result says broker.system " + embedded.key() + "; name a " + system
                        + " cluster to measure " + system);
    }

    /** The driver's declaration; empty when it makes none or its class is not here (Planner reports that). */
    private static Optional<DriverCapabilities> capabilities(DriverFile driver) {
        Class<?> type;
        try {
            type = Class.forName(driver.driverClass(), false, CapabilityCheck.class.getClassLoader());
        } catch (ClassNotFoundException | LinkageError e) {
            return Optional.empty();
        }
        if (!DriverCapabilities.class.isAssignableFrom(type)) {
            return Optional.empty();
        }
        try {
            return Optional.of(
                    (DriverCapabilities) type.getDeclaredConstructor().newInstance());
        } catch (ReflectiveOperationException | RuntimeException | LinkageError e) {
            throw new ConfigException(
                    driver.file().toString(),
                    "driverClass",
                    "cannot create "
                            + driver.driverClass() + ": it needs a public no-argument constructor ("
                            + e.getClass().getSimpleName() + ")");
        }
    }
}
