package org.slf4j.impl;

import io.ombtx.runner.log.ConsoleLoggers;
import org.slf4j.ILoggerFactory;
import org.slf4j.spi.LoggerFactoryBinder;

/**
 * SLF4J 1.7's hook for a logging back end: the runner's own console loggers ({@link ConsoleLoggers}), which print as
 * the progress lines do and collapse the client library's repeated warnings.
 */
public final class StaticLoggerBinder implements LoggerFactoryBinder {

    /** The SLF4J API version this binding is written against (read by SLF4J at start-up). */
    public static String REQUESTED_API_VERSION = "1.6.99"; // not final: SLF4J's own convention

    private static final StaticLoggerBinder SINGLETON = new StaticLoggerBinder();

    private StaticLoggerBinder() {}

    public static StaticLoggerBinder getSingleton() {
        return SINGLETON;
    }

    @Override
    public ILoggerFactory getLoggerFactory() {
        return ConsoleLoggers.instance();
    }

    @Override
    public String getLoggerFactoryClassStr() {
        return ConsoleLoggers.class.getName();
    }
}
