package io.ombtx.runner.cli;

import io.ombtx.runner.cluster.ClusterSystems;
import io.ombtx.runner.config.ClusterProfile;
import io.ombtx.runner.config.EmbeddedSystem;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import java.util.Map;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.Model.ArgSpec;
import picocli.CommandLine.TypeConversionException;

/** picocli converters whose messages complete "OPTION ...": "--brokers expects a whole number from 1 to 9, got 0". */
public final class Converters {

    private Converters() {}

    /**
     * The bounds of a whole-number option, read by {@link WholeNumber}: {@code @Bounds(min = 1, max = 9)} next to
     * {@code @Option(converter = Converters.WholeNumber.class)}.
     */
    @Retention(RetentionPolicy.RUNTIME)
    @Target(ElementType.FIELD)
    public @interface Bounds {
        int min();

        int max() default Integer.MAX_VALUE;
    }

    /**
     * A whole number within its option's {@link Bounds}. picocli creates one per option, unbounded; {@link Cli}
     * gives each the bounds of the field it converts for ({@link #bound(ArgSpec)}).
     */
    public static final class WholeNumber implements ITypeConverter<Integer> {
        private int min = Integer.MIN_VALUE;
        private int max = Integer.MAX_VALUE;

        public WholeNumber() {}

        public WholeNumber(int min, int max) {
            this.min = min;
            this.max = max;
        }

        /** Takes the {@link Bounds} of the field behind {@code arg}; an option without them is a mistake here. */
        void bound(ArgSpec arg) {
            Bounds bounds = Cli.annotation(arg, Bounds.class);
            if (bounds == null) {
                throw new IllegalStateException(arg + ": a WholeNumber option needs @Converters.Bounds");
            }
            min = bounds.min();
            max = bounds.max();
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
            throw new TypeConversionException("expects a whole number "
                    + (max == Integer.MAX_VALUE ? "of at least " + min : "from " + min + " to " + max) + ", got "
                    + text);
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
            return Map.entry(
                    text.substring(0, eq).trim(), text.substring(eq + 1).trim());
        }
    }

    /** {@code default} or {@code max-consistency}. */
    public static final class Profile implements ITypeConverter<ClusterProfile> {
        @Override
        public ClusterProfile convert(String text) {
            try {
                return ClusterProfile.parse(text);
            } catch (IllegalArgumentException e) {
                throw new TypeConversionException("expects default or max-consistency, got '" + text + "'");
            }
        }
    }

    /** An embedded cluster's security: none, sasl-scram or mtls. */
    public static final class Security implements ITypeConverter<io.ombtx.runner.config.BrokerSecurity> {
        @Override
        public io.ombtx.runner.config.BrokerSecurity convert(String text) {
            try {
                return io.ombtx.runner.config.BrokerSecurity.parse(text);
            } catch (IllegalArgumentException e) {
                throw new TypeConversionException("expects none, sasl-scram or mtls, got '" + text + "'");
            }
        }
    }

    /** An embedded broker system: kafka or tansu. */
    public static final class System implements ITypeConverter<EmbeddedSystem> {
        @Override
        public EmbeddedSystem convert(String text) {
            try {
                return EmbeddedSystem.parse(text);
            } catch (IllegalArgumentException e) {
                throw new TypeConversionException("expects kafka or tansu, got '" + text + "'");
            }
        }
    }

    /** A release the broker system supports (Kafka's: {@code MAJOR.MINOR.PATCH}), normalized. */
    public static final class Version implements ITypeConverter<String> {
        @Override
        public String convert(String text) {
            try {
                return ClusterSystems.installed().release(text);
            } catch (IllegalArgumentException e) {
                throw new TypeConversionException(e.getMessage().replaceFirst("^expected", "expects"));
            }
        }
    }
}
