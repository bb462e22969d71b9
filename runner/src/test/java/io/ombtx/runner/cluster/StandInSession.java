package io.ombtx.runner.cluster;

import io.ombtx.runner.config.DriverFile;
import io.ombtx.runner.fault.BrokerControl;
import io.ombtx.runner.fault.FaultCluster;
import io.ombtx.runner.result.RunResult;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * An embedded cluster of one broker for tests of the runner, with no broker behind it: it says which one it is,
 * whether it was stopped and whether it lost a broker, and keeps one line as its broker's log.
 */
public class StandInSession implements ClusterSession {
    public final int id;
    private final DriverFile driver;
    public volatile boolean closed;
    public volatile String lost;

    /** @param driver what {@link #driver()} returns (may be null) */
    public StandInSession(int id, DriverFile driver) {
        this.id = id;
        this.driver = driver;
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
        return RunResult.Broker.embedded(1, "4.1.1", "default", Map.of());
    }

    @Override
    public BrokerControl processControl() {
        return null;
    }

    @Override
    public FaultCluster faultCluster(FaultCluster.RunNames names) {
        return null;
    }

    @Override
    public String lost() {
        return lost;
    }

    @Override
    public DriverFile driverFor(DriverFile planned) {
        return planned;
    }

    /** Writes {@code broker-1.log}: "broker 1 of stand-in N". */
    @Override
    public List<Path> keepBrokerLogs(Path dir) throws IOException {
        Files.createDirectories(dir);
        return List.of(Files.writeString(dir.resolve("broker-1.log"), "broker 1 of stand-in " + id + "\n"));
    }

    @Override
    public void close() {
        closed = true;
    }
}
