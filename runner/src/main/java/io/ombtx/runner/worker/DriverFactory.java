package io.ombtx.runner.worker;

import io.openmessaging.benchmark.driver.BenchmarkDriver;

/**
 * Creates the driver a {@link LocalWorker} runs, from the driver YAML's {@code driverClass}. Runs use
 * {@link #byClassName()}, as OMB does; a test hands a worker a driver it holds, and so needs no static state in
 * the driver to observe or steer it.
 */
@FunctionalInterface
public interface DriverFactory {

    /** The driver for {@code driverClass}; a {@link WorkerException} says in words why there is none. */
    BenchmarkDriver create(String driverClass) throws WorkerException;

    /** As OMB: the class by name from the class path, through its public no-argument constructor. */
    static DriverFactory byClassName() {
        return driverClass -> {
            Object instance;
            try {
                instance = Class.forName(driverClass).getDeclaredConstructor().newInstance();
            } catch (ClassNotFoundException e) {
                throw new WorkerException("driver class " + driverClass + " is not on the class path: add the"
                        + " driver's jar and its dependencies with bin/benchmark-worker --extra-classpath"
                        + " 'DRIVER.jar:LIB-DIR/*' on a worker, or OMBTX_CLASSPATH='DRIVER.jar:LIB-DIR/*' for any"
                        + " omb-tx command");
            } catch (ReflectiveOperationException e) {
                throw new WorkerException(
                        "cannot create driver " + driverClass + ": it needs a public no-argument constructor ("
                                + e.getClass().getSimpleName() + ")");
            }
            if (!(instance instanceof BenchmarkDriver driver)) {
                throw new WorkerException(
                        driverClass + " does not implement io.openmessaging.benchmark.driver.BenchmarkDriver");
            }
            return driver;
        };
    }
}
