package io.ombtx.broker;

import java.io.File;
import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.CodeSource;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * The class path a child broker JVM runs with: the jar (or class folder) this launcher was loaded from, for
 * {@link ChildKafkaMain}, plus every jar of the broker folder, which holds {@code kafka_2.13-<version>.jar} and its
 * dependencies. The broker folder is, first match wins:
 * <ol>
 *   <li>{@code -Dombtx.broker.lib=DIR};</li>
 *   <li>{@code $OMBTX_BROKER_LIB};</li>
 *   <li>{@code broker-lib/} beside the launcher's jar or class folder: {@code kafka-broker/target/broker-lib} in
 *       the source tree after {@code mvn package} (or {@code mvn compile}), and the same folder in a package that
 *       keeps the launcher jar and {@code broker-lib/} side by side.</li>
 * </ol>
 * A folder named by the property or the variable is used as given: when it is not usable the launcher says so
 * rather than quietly falling back to another broker.
 */
public record BrokerClassPath(Path launcher, Path brokerLib, String kafkaVersion) {

    /** System property naming the broker folder. */
    public static final String PROPERTY = "ombtx.broker.lib";
    /** Environment variable naming the broker folder (when the property is not set). */
    public static final String ENVIRONMENT = "OMBTX_BROKER_LIB";
    /** The broker folder's name beside the launcher. */
    public static final String FOLDER = "broker-lib";

    private static final String BROKER_JAR_PREFIX = "kafka_2.13-";
    private static final String JAR = ".jar";

    /** Finds the broker folder by the rule above, for the launcher this class was loaded from. */
    public static BrokerClassPath locate() throws BrokerStartException {
        return locate(
                System.getProperty(PROPERTY),
                System.getenv(ENVIRONMENT),
                launcherLocation().orElse(null));
    }

    /**
     * The rule, with its inputs given: the property's and the variable's values (null or blank when unset) and the
     * launcher's jar or class folder (null when the class loader does not say where it came from).
     */
    static BrokerClassPath locate(String property, String environment, Path launcher) throws BrokerStartException {
        String origin;
        Path folder;
        if (property != null && !property.isBlank()) {
            origin = "-D" + PROPERTY + "=" + property.trim();
            folder = Path.of(property.trim());
        } else if (environment != null && !environment.isBlank()) {
            origin = ENVIRONMENT + "=" + environment.trim();
            folder = Path.of(environment.trim());
        } else if (launcher != null) {
            folder = launcher.toAbsolutePath().normalize().resolveSibling(FOLDER);
            origin = FOLDER + "/ beside " + launcher.toAbsolutePath().normalize();
        } else {
            throw notFound("(none: the launcher's location is unknown, and neither -D" + PROPERTY + " nor "
                    + ENVIRONMENT + " is set)");
        }
        folder = folder.toAbsolutePath().normalize();
        if (!Files.isDirectory(folder)) {
            throw notFound(folder + " (" + origin + "): no such folder");
        }
        Optional<String> version = kafkaVersionIn(folder);
        if (version.isEmpty()) {
            throw notFound(folder + " (" + origin + "): no " + BROKER_JAR_PREFIX + "<version>" + JAR + " in it");
        }
        if (launcher == null) {
            throw new BrokerStartException("the embedded broker's launcher jar could not be located (its class loader "
                    + "does not say where it came from), so the brokers' main class cannot be put on their class path; "
                    + "put the kafka-broker jar on the class path as a jar or class folder");
        }
        return new BrokerClassPath(launcher.toAbsolutePath().normalize(), folder, version.get());
    }

    private static BrokerStartException notFound(String tried) {
        return new BrokerStartException("the Kafka broker's class path was not found. Tried:\n  " + tried + "\n"
                + "Build omb-tx (mvn -q -DskipTests package lays it out in kafka-broker/target/" + FOLDER + ", beside "
                + "the kafka-broker jar), or set -D" + PROPERTY + "=DIR or " + ENVIRONMENT + "=DIR to a folder holding "
                + BROKER_JAR_PREFIX + "<version>" + JAR + " and its dependencies.");
    }

    /** The jar or class folder the launcher classes (and so {@link ChildKafkaMain}) were loaded from. */
    static Optional<Path> launcherLocation() {
        CodeSource source = BrokerClassPath.class.getProtectionDomain().getCodeSource();
        if (source == null || source.getLocation() == null) {
            return Optional.empty();
        }
        try {
            return Optional.of(Path.of(source.getLocation().toURI()));
        } catch (URISyntaxException | IllegalArgumentException | java.nio.file.FileSystemNotFoundException e) {
            return Optional.empty();
        }
    }

    private static Optional<String> kafkaVersionIn(Path folder) {
        try (Stream<Path> files = Files.list(folder)) {
            return files.map(p -> p.getFileName().toString())
                    .filter(n -> n.startsWith(BROKER_JAR_PREFIX) && n.endsWith(JAR))
                    .map(n -> n.substring(BROKER_JAR_PREFIX.length(), n.length() - JAR.length()))
                    .sorted()
                    .findFirst();
        } catch (IOException e) {
            return Optional.empty();
        }
    }

    /**
     * The {@code -cp} value for a broker JVM: every jar in the broker folder, by name, then the launcher. The jars
     * come first and in a fixed order because a class-data archive of them ({@link BrokerClassArchive}) is mapped only
     * into a JVM whose class path starts with the class path it was made from.
     */
    public String classPath() {
        List<String> entries = new ArrayList<>();
        jars().forEach(jar -> entries.add(jar.toString()));
        entries.add(launcher.toString());
        return String.join(File.pathSeparator, entries);
    }

    /** The broker folder's jars, sorted by name (empty when it cannot be read). */
    public List<Path> jars() {
        try (Stream<Path> files = Files.list(brokerLib)) {
            return files.filter(p -> p.getFileName().toString().endsWith(JAR) && Files.isRegularFile(p))
                    .sorted()
                    .toList();
        } catch (IOException e) {
            return List.of();
        }
    }
}
