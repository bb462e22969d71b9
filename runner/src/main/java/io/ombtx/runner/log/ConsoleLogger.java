package io.ombtx.runner.log;

import org.slf4j.helpers.FormattingTuple;
import org.slf4j.helpers.MarkerIgnoringBase;
import org.slf4j.helpers.MessageFormatter;

/** One named logger of {@link ConsoleLoggers}: its level fixed when it is made; markers are ignored. */
final class ConsoleLogger extends MarkerIgnoringBase {

    private static final long serialVersionUID = 1L;

    private final transient ConsoleLoggers sink;
    private final Level level;
    private final String shortName;

    ConsoleLogger(String name, Level level, ConsoleLoggers sink) {
        this.name = name;
        this.level = level;
        this.sink = sink;
        this.shortName = name.substring(name.lastIndexOf('.') + 1);
    }

    private boolean enabled(Level at) {
        return at.compareTo(level) >= 0 && level != Level.OFF;
    }

    /** Formats SLF4J's {} placeholders (a last argument that is a Throwable is the error) and prints, if enabled. */
    private void emit(Level at, String format, Object[] arguments, Throwable error) {
        if (!enabled(at)) {
            return;
        }
        String message;
        Throwable thrown = error;
        if (arguments == null) {
            message = String.valueOf(format);
        } else {
            FormattingTuple tuple = MessageFormatter.arrayFormat(format, arguments);
            message = tuple.getMessage();
            if (thrown == null) {
                thrown = tuple.getThrowable();
            }
        }
        sink.log(at, name, shortName, message, thrown);
    }

    @Override
    public boolean isTraceEnabled() {
        return enabled(Level.TRACE);
    }

    @Override
    public void trace(String msg) {
        emit(Level.TRACE, msg, null, null);
    }

    @Override
    public void trace(String format, Object arg) {
        emit(Level.TRACE, format, new Object[] {arg}, null);
    }

    @Override
    public void trace(String format, Object arg1, Object arg2) {
        emit(Level.TRACE, format, new Object[] {arg1, arg2}, null);
    }

    @Override
    public void trace(String format, Object... arguments) {
        emit(Level.TRACE, format, arguments, null);
    }

    @Override
    public void trace(String msg, Throwable t) {
        emit(Level.TRACE, msg, null, t);
    }

    @Override
    public boolean isDebugEnabled() {
        return enabled(Level.DEBUG);
    }

    @Override
    public void debug(String msg) {
        emit(Level.DEBUG, msg, null, null);
    }

    @Override
    public void debug(String format, Object arg) {
        emit(Level.DEBUG, format, new Object[] {arg}, null);
    }

    @Override
    public void debug(String format, Object arg1, Object arg2) {
        emit(Level.DEBUG, format, new Object[] {arg1, arg2}, null);
    }

    @Override
    public void debug(String format, Object... arguments) {
        emit(Level.DEBUG, format, arguments, null);
    }

    @Override
    public void debug(String msg, Throwable t) {
        emit(Level.DEBUG, msg, null, t);
    }

    @Override
    public boolean isInfoEnabled() {
        return enabled(Level.INFO);
    }

    @Override
    public void info(String msg) {
        emit(Level.INFO, msg, null, null);
    }

    @Override
    public void info(String format, Object arg) {
        emit(Level.INFO, format, new Object[] {arg}, null);
    }

    @Override
    public void info(String format, Object arg1, Object arg2) {
        emit(Level.INFO, format, new Object[] {arg1, arg2}, null);
    }

    @Override
    public void info(String format, Object... arguments) {
        emit(Level.INFO, format, arguments, null);
    }

    @Override
    public void info(String msg, Throwable t) {
        emit(Level.INFO, msg, null, t);
    }

    @Override
    public boolean isWarnEnabled() {
        return enabled(Level.WARN);
    }

    @Override
    public void warn(String msg) {
        emit(Level.WARN, msg, null, null);
    }

    @Override
    public void warn(String format, Object arg) {
        emit(Level.WARN, format, new Object[] {arg}, null);
    }

    @Override
    public void warn(String format, Object arg1, Object arg2) {
        emit(Level.WARN, format, new Object[] {arg1, arg2}, null);
    }

    @Override
    public void warn(String format, Object... arguments) {
        emit(Level.WARN, format, arguments, null);
    }

    @Override
    public void warn(String msg, Throwable t) {
        emit(Level.WARN, msg, null, t);
    }

    @Override
    public boolean isErrorEnabled() {
        return enabled(Level.ERROR);
    }

    @Override
    public void error(String msg) {
        emit(Level.ERROR, msg, null, null);
    }

    @Override
    public void error(String format, Object arg) {
        emit(Level.ERROR, format, new Object[] {arg}, null);
    }

    @Override
    public void error(String format, Object arg1, Object arg2) {
        emit(Level.ERROR, format, new Object[] {arg1, arg2}, null);
    }

    @Override
    public void error(String format, Object... arguments) {
        emit(Level.ERROR, format, arguments, null);
    }

    @Override
    public void error(String msg, Throwable t) {
        emit(Level.ERROR, msg, null, t);
    }
}
