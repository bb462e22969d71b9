package io.ombtx.runner.cli;

import io.ombtx.runner.broker.BrokerProfile;
import java.util.Map;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/** picocli converters whose messages complete "OPTION ...": "--brokers expects a whole number from 1 to 9, got 0". */
public final class Converters {

    private Converters() {
    }

    /** A whole number in [min, max]. */
    public abstract static class Range implements ITypeConverter<Integer> {
        private final int min;
        private final int max;

        protected Range(int min, int max) {
            this.min = min;
            this.max = max;
        }

        @Override
        public Integer convert(String text) {
            try {
                int value = Integer.parseInt(text.trim());
                if (value >= min && value <= max) {
                    return value;
                }
            } catch (NumberFormatException e) {
                throw new TypeConversionException("expects a whole number, got '" + text + "'");
            }
            throw new TypeConversionException("expects a whole number " + (max == Integer.MAX_VALUE ? "of at least " + min
                    : "from " + min + " to " + max) + ", got " + text);
        }
    }

    /** Embedded broker count. */
    public static final class Brokers extends Range {
        public Brokers() {
            super(1, 9);
        }
    }

    /** Progress line interval. */
    public static final class ReportSeconds extends Range {
        public ReportSeconds() {
            super(1, 3600);
        }
    }

    /** Worker answer timeout. */
    public static final class TimeoutSeconds extends Range {
        public TimeoutSeconds() {
            super(1, 86_400);
        }
    }

    /** A TCP port; 0 picks a free one. */
    public static final class Port extends Range {
        public Port() {
            super(0, 65_535);
        }
    }

    /** A positive rate or count. */
    public static final class Positive extends Range {
        public Positive() {
            super(1, Integer.MAX_VALUE);
        }
    }

    /** A broker setting, {@code KEY=VALUE}, both trimmed. */
    public static final class Setting implements ITypeConverter<Map.Entry<String, String>> {
        @Override
        public Map.Entry<String, String> convert(String text) {
            int eq = text.indexOf('=');
            if (eq <= 0 || text.substring(0, eq).isBlank()) {
                throw new TypeConversionException("expects KEY=VALUE, got '" + text + "'");
            }
            return Map.entry(text.substring(0, eq).trim(), text.substring(eq + 1).trim());
        }
    }

    /** {@code default} or {@code max-consistency}. */
    public static final class Profile implements ITypeConverter<BrokerProfile> {
        @Override
        public BrokerProfile convert(String text) {
            try {
                return BrokerProfile.parse(text);
            } catch (IllegalArgumentException e) {
                throw new TypeConversionException("expects default or max-consistency, got '" + text + "'");
            }
        }
    }
}
