package io.ombtx.broker;

import java.io.IOException;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Stream;

/**
 * The broker's own config definitions ({@code kafka.server.KafkaConfig.configDef()}), loaded from the broker folder
 * in a class loader of its own (the broker's kafka-clients, not the runner's), to check settings before a broker
 * starts: a key's type and Kafka's validator, key by key. Keys Kafka resolves by prefix rather than by definition
 * ({@code listener.name.<listener>.<key>}, {@code config.providers.<name>.…}) are accepted as given.
 */
public final class BrokerConfigDefinitions {

    /** Prefixes whose keys the broker reads although its definitions do not list them. */
    public static final List<String> PREFIXES = List.of("listener.name.", "config.providers.");

    private static final Map<Path, Optional<BrokerConfigDefinitions>> LOADED = new ConcurrentHashMap<>();

    private final String kafkaVersion;
    private final Map<String, ?> keys;
    private final Map<String, ?> topicKeys;
    private final Method parseType;
    private final Method ensureValid;

    private BrokerConfigDefinitions(
            String kafkaVersion, Map<String, ?> keys, Map<String, ?> topicKeys, Method parseType, Method ensureValid) {
        this.kafkaVersion = kafkaVersion;
        this.keys = keys;
        this.topicKeys = topicKeys;
        this.parseType = parseType;
        this.ensureValid = ensureValid;
    }

    /** The definitions of the broker {@link BrokerClassPath#locate()} finds; empty when there is none or it fails. */
    public static Optional<BrokerConfigDefinitions> find() {
        try {
            return of(BrokerClassPath.locate());
        } catch (BrokerStartException e) {
            return Optional.empty();
        }
    }

    /**
     * The definitions of Kafka {@code version}: the built-in broker's when it is that release, else those of the
     * release's jars, resolved from Maven Central first when they are not cached ({@link BrokerLibrary}).
     *
     * @throws BrokerStartException when the release's jars cannot be had
     */
    public static Optional<BrokerConfigDefinitions> find(KafkaVersion version) throws BrokerStartException {
        return of(BrokerLibrary.classPath(version));
    }

    /** The definitions in {@code classPath}'s broker folder; empty when they cannot be read. Cached per folder. */
    public static Optional<BrokerConfigDefinitions> of(BrokerClassPath classPath) {
        return LOADED.computeIfAbsent(classPath.brokerLib(), folder -> {
            try {
                return Optional.of(load(classPath));
            } catch (ReflectiveOperationException | IOException | RuntimeException | LinkageError e) {
                return Optional.empty();
            }
        });
    }

    @SuppressWarnings("unchecked")
    static BrokerConfigDefinitions load(BrokerClassPath classPath) throws ReflectiveOperationException, IOException {
        List<URL> jars = new ArrayList<>();
        try (Stream<Path> files = Files.list(classPath.brokerLib())) {
            for (Path jar :
                    files.filter(p -> p.toString().endsWith(".jar")).sorted().toList()) {
                jars.add(jar.toUri().toURL());
            }
        }
        // Never closed: kept for the JVM's life, as the definitions are cached.
        ClassLoader loader = new URLClassLoader(jars.toArray(URL[]::new), ClassLoader.getPlatformClassLoader());
        // Kafka resolves class-typed defaults through the context class loader: it must be the broker's.
        Thread thread = Thread.currentThread();
        ClassLoader previous = thread.getContextClassLoader();
        Object configDef;
        Map<String, ?> topicKeys;
        Class<?> defClass = Class.forName("org.apache.kafka.common.config.ConfigDef", false, loader);
        thread.setContextClassLoader(loader);
        try {
            configDef = configDef(loader);
            topicKeys = topicKeysOrNone(loader, defClass);
        } finally {
            thread.setContextClassLoader(previous);
        }
        Class<?> typeClass = Class.forName("org.apache.kafka.common.config.ConfigDef$Type", false, loader);
        Class<?> validatorClass = Class.forName("org.apache.kafka.common.config.ConfigDef$Validator", false, loader);
        Map<String, ?> keys = (Map<String, ?>) defClass.getMethod("configKeys").invoke(configDef);
        return new BrokerConfigDefinitions(
                classPath.kafkaVersion(),
                Map.copyOf(keys),
                Map.copyOf(topicKeys),
                defClass.getMethod("parseType", String.class, Object.class, typeClass),
                validatorClass.getMethod("ensureValid", String.class, Object.class));
    }

    /**
     * {@code KafkaConfig.configDef()}: public from Kafka 3 on; in Kafka 2 a private field of the Scala object
     * {@code KafkaConfig$}, read by reflection.
     */
    private static Object configDef(ClassLoader loader) throws ReflectiveOperationException {
        try {
            return Class.forName("kafka.server.KafkaConfig", true, loader)
                    .getMethod("configDef")
                    .invoke(null);
        } catch (NoSuchMethodException older) {
            Class<?> module = Class.forName("kafka.server.KafkaConfig$", true, loader);
            java.lang.reflect.Field field = module.getDeclaredField("configDef");
            field.setAccessible(true);
            return field.get(module.getField("MODULE$").get(null));
        }
    }

    /** The topic-level definitions, or none when this release keeps them where {@link #topicKeys} does not look. */
    private static Map<String, ?> topicKeysOrNone(ClassLoader loader, Class<?> defClass) {
        try {
            return topicKeys(loader, defClass);
        } catch (ReflectiveOperationException | RuntimeException | LinkageError e) {
            return Map.of();
        }
    }

    /**
     * The topic-level config definitions ({@code LogConfig}): a static {@code configKeys()} in the storage module
     * from Kafka 3.6 on; before, the Scala object {@code kafka.log.LogConfig$}'s {@code configDefCopy()}.
     */
    @SuppressWarnings("unchecked")
    private static Map<String, ?> topicKeys(ClassLoader loader, Class<?> defClass) throws ReflectiveOperationException {
        try {
            return (Map<String, ?>) Class.forName("org.apache.kafka.storage.internals.log.LogConfig", true, loader)
                    .getMethod("configKeys")
                    .invoke(null);
        } catch (ClassNotFoundException | NoSuchMethodException older) {
            Class<?> module = Class.forName("kafka.log.LogConfig$", true, loader);
            Object def = module.getMethod("configDefCopy")
                    .invoke(module.getField("MODULE$").get(null));
            return (Map<String, ?>) defClass.getMethod("configKeys").invoke(def);
        }
    }

    public String kafkaVersion() {
        return kafkaVersion;
    }

    /** Every key the broker defines. */
    public Set<String> names() {
        return new TreeSet<>(keys.keySet());
    }

    /** Whether the broker reads {@code key}: defined, or under one of the {@link #PREFIXES}. */
    public boolean knows(String key) {
        return keys.containsKey(key) || PREFIXES.stream().anyMatch(p -> key.startsWith(p) && key.length() > p.length());
    }

    /** Every topic-level key the broker defines ({@code retention.ms}, {@code min.insync.replicas}, …). */
    public Set<String> topicNames() {
        return new TreeSet<>(topicKeys.keySet());
    }

    /** Whether the topic-level definitions could be read (else topic settings are left to the broker). */
    public boolean hasTopicDefinitions() {
        return !topicKeys.isEmpty();
    }

    /** Whether {@code key} is a topic-level setting of this release. */
    public boolean knowsTopic(String key) {
        return topicKeys.containsKey(key);
    }

    /**
     * What is wrong with {@code value} for the defined broker {@code key}, in Kafka's words and with what it expects;
     * empty when Kafka accepts it (or the key is not defined: see {@link #knows}). Class names are not checked.
     */
    public Optional<String> problem(String key, String value) {
        return problem(keys, key, value);
    }

    /** As {@link #problem}, for a topic-level {@code key} (see {@link #knowsTopic}). */
    public Optional<String> topicProblem(String key, String value) {
        return problem(topicKeys, key, value);
    }

    private Optional<String> problem(Map<String, ?> keys, String key, String value) {
        Object definition = keys.get(key);
        if (definition == null) {
            return Optional.empty();
        }
        try {
            Object type = definition.getClass().getField("type").get(definition);
            if (type.toString().equals("CLASS")) {
                return Optional.empty();
            }
            Object validator = definition.getClass().getField("validator").get(definition);
            Thread thread = Thread.currentThread();
            ClassLoader previous = thread.getContextClassLoader();
            thread.setContextClassLoader(parseType.getDeclaringClass().getClassLoader());
            try {
                Object parsed = parseType.invoke(null, key, value, type);
                if (validator != null) {
                    ensureValid.invoke(validator, key, parsed);
                }
                return Optional.empty();
            } catch (InvocationTargetException e) {
                Throwable cause = e.getCause();
                String expects = type.toString().toLowerCase(Locale.ROOT).replace('_', ' ')
                        + (validator == null || validator.toString().isBlank() ? "" : " " + validator);
                return Optional.of("Kafka " + kafkaVersion + " rejects it: "
                        + (cause == null ? "invalid value" : cause.getMessage()) + " (expects " + expects + ")");
            } finally {
                thread.setContextClassLoader(previous);
            }
        } catch (ReflectiveOperationException | RuntimeException e) {
            return Optional.empty(); // an unexpected definitions layout: the broker itself will judge the value
        }
    }
}
