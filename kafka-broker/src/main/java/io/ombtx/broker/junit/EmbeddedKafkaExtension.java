package io.ombtx.broker.junit;

import io.ombtx.broker.BrokerProfile;
import io.ombtx.broker.BrokerStartException;
import io.ombtx.broker.EmbeddedKafkaCluster;
import java.lang.reflect.Modifier;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionConfigurationException;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ExtensionContext.Namespace;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolutionException;
import org.junit.jupiter.api.extension.ParameterResolver;
import org.junit.platform.commons.support.AnnotationSupport;

/**
 * A JUnit 5 extension running an {@link EmbeddedKafkaCluster} per test class: started before the class's first test
 * (before its {@code @BeforeAll} methods), stopped when the class is done. Used in either of two ways:
 * <ul>
 *   <li>declared, with {@link EmbeddedKafka} on the test class (which registers this extension and configures it);</li>
 *   <li>held in a static field, configured in code:
 *   <pre>{@code
 *   @RegisterExtension
 *   static final EmbeddedKafkaExtension kafka = new EmbeddedKafkaExtension().brokers(3).override("min.insync.replicas", "2");
 *   ... kafka.bootstrapServers() ...
 *   }</pre></li>
 * </ul>
 * Either way, a parameter of type {@link EmbeddedKafkaCluster}, or a {@code String} annotated with
 * {@link BootstrapServers}, receives the cluster. {@code @Nested} classes share the cluster of the class that
 * registers the extension (a nested class with its own {@link EmbeddedKafka} gets its own cluster).
 * Use one way per class: a class with both would have two extensions answering for the same parameters.
 */
public final class EmbeddedKafkaExtension implements BeforeAllCallback, ParameterResolver {

    private static final Namespace NAMESPACE = Namespace.create(EmbeddedKafkaExtension.class);
    private static final Object LOCK = new Object();

    private boolean configuredInCode;
    private int brokers = 1;
    private BrokerProfile profile = BrokerProfile.DEFAULT;
    private final Map<String, String> overrides = new LinkedHashMap<>();
    private volatile EmbeddedKafkaCluster cluster;

    /** One broker with the default profile, unless configured further or by {@link EmbeddedKafka}. */
    public EmbeddedKafkaExtension() {}

    /** How many brokers (1..9). */
    public EmbeddedKafkaExtension brokers(int count) {
        if (count < 1 || count > 9) {
            throw new IllegalArgumentException("embedded broker count must be 1..9, got " + count);
        }
        this.brokers = count;
        this.configuredInCode = true;
        return this;
    }

    public EmbeddedKafkaExtension profile(BrokerProfile profile) {
        this.profile = Objects.requireNonNull(profile, "profile");
        this.configuredInCode = true;
        return this;
    }

    /** A broker setting on top of the profile. */
    public EmbeddedKafkaExtension override(String key, String value) {
        overrides.put(key, value);
        this.configuredInCode = true;
        return this;
    }

    /** Broker settings on top of the profile. */
    public EmbeddedKafkaExtension overrides(Map<String, String> settings) {
        overrides.putAll(settings);
        this.configuredInCode = true;
        return this;
    }

    /**
     * The running cluster, when this extension is held in a static {@code @RegisterExtension} field (from the
     * class's {@code @BeforeAll} methods on, until the class is done).
     */
    public EmbeddedKafkaCluster cluster() {
        EmbeddedKafkaCluster running = cluster;
        if (running == null) {
            throw new IllegalStateException("the embedded Kafka cluster is not running: register this extension in a "
                    + "static @RegisterExtension field, and use it from tests or @BeforeAll methods");
        }
        return running;
    }

    /** The running cluster's bootstrap servers ({@code host:port,...}); see {@link #cluster()}. */
    public String bootstrapServers() {
        return cluster().bootstrapServers();
    }

    @Override
    public void beforeAll(ExtensionContext context) throws Exception {
        clusterFor(context);
    }

    @Override
    public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
        Class<?> type = parameter.getParameter().getType();
        return type == EmbeddedKafkaCluster.class
                || (type == String.class && parameter.isAnnotated(BootstrapServers.class));
    }

    @Override
    public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
        EmbeddedKafkaCluster running;
        try {
            running = clusterFor(context);
        } catch (BrokerStartException e) {
            throw new ParameterResolutionException("the embedded Kafka cluster did not start: " + e.getMessage(), e);
        }
        return parameter.getParameter().getType() == EmbeddedKafkaCluster.class ? running : running.bootstrapServers();
    }

    /** The cluster serving {@code context}: the one already running for it or an enclosing class, else a new one. */
    private EmbeddedKafkaCluster clusterFor(ExtensionContext context) throws BrokerStartException {
        Target target = target(context);
        synchronized (LOCK) {
            Running running = context.getStore(NAMESPACE).get(target.key(), Running.class);
            if (running == null) {
                EmbeddedKafkaCluster started = EmbeddedKafkaCluster.builder()
                        .brokers(target.brokers())
                        .profile(target.profile())
                        .overrides(target.overrides())
                        .start();
                // Held by this instance when keyed by it: the accessors then serve a static field's users.
                running = new Running(started, target.key() == this ? this : null);
                target.owner().getStore(NAMESPACE).put(target.key(), running);
                if (target.key() == this) {
                    cluster = started;
                }
            }
            return running.cluster();
        }
    }

    /** What to start for {@code context}, where to keep it, and under which key. */
    private Target target(ExtensionContext context) {
        if (!configuredInCode) {
            for (Class<?> type = context.getRequiredTestClass(); type != null; type = enclosingOfNested(type)) {
                Optional<EmbeddedKafka> annotation = AnnotationSupport.findAnnotation(type, EmbeddedKafka.class);
                if (annotation.isPresent()) {
                    EmbeddedKafka a = annotation.get();
                    return new Target(
                            "annotated:" + type.getName(),
                            classContext(context, type),
                            a.brokers(),
                            a.profile(),
                            settings(type, a.settings()));
                }
            }
        }
        return new Target(this, classContext(context, null), brokers, profile, Map.copyOf(overrides));
    }

    /** The enclosing class of a {@code @Nested} (inner) class, else null. */
    private static Class<?> enclosingOfNested(Class<?> type) {
        return type.isMemberClass() && !Modifier.isStatic(type.getModifiers()) ? type.getEnclosingClass() : null;
    }

    /** The class-level context of {@code type} (or, given null, the nearest class-level one) above {@code context}. */
    private static ExtensionContext classContext(ExtensionContext context, Class<?> type) {
        ExtensionContext nearest = null;
        for (ExtensionContext c = context; c != null; c = c.getParent().orElse(null)) {
            boolean classLevel =
                    c.getTestClass().isPresent() && c.getTestMethod().isEmpty();
            if (classLevel) {
                if (nearest == null) {
                    nearest = c;
                }
                if (type == null || c.getRequiredTestClass() == type) {
                    return c;
                }
            }
        }
        return nearest != null ? nearest : context;
    }

    private static Map<String, String> settings(Class<?> type, String[] settings) {
        Map<String, String> parsed = new LinkedHashMap<>();
        for (String setting : settings) {
            int eq = setting.indexOf('=');
            if (eq <= 0) {
                throw new ExtensionConfigurationException(
                        "@EmbeddedKafka on " + type.getName() + ": settings are KEY=VALUE, got '" + setting + "'");
            }
            parsed.put(
                    setting.substring(0, eq).trim(), setting.substring(eq + 1).trim());
        }
        return parsed;
    }

    private record Target(
            Object key, ExtensionContext owner, int brokers, BrokerProfile profile, Map<String, String> overrides) {}

    /** A started cluster in a class's store: JUnit closes it when that class is done. */
    private record Running(EmbeddedKafkaCluster cluster, EmbeddedKafkaExtension heldBy)
            implements ExtensionContext.Store.CloseableResource {

        @Override
        public void close() {
            if (heldBy != null && heldBy.cluster == cluster) {
                heldBy.cluster = null;
            }
            cluster.close();
        }
    }
}
