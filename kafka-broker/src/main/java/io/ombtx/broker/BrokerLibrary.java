package io.ombtx.broker;

import java.io.File;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * The jars of a Kafka release other than the built-in one ({@code broker-lib}, laid out by the build): resolved from
 * Maven Central on first use by Maven's dependency plugin, the way the build lays out {@code broker-lib}, into a
 * cache folder, and taken from there afterwards.
 *
 * <p>The cache is {@code -Dombtx.kafka.cache=DIR}, else {@code $OMBTX_KAFKA_CACHE}, else
 * {@code ~/.cache/omb-tx/kafka}; release {@code V} lives in {@code V/lib} (with a {@code complete} marker written
 * last). Resolving runs {@code mvn} ({@code $OMBTX_MVN}, else {@code mvn} on the PATH) on a small generated pom:
 * first offline (enough when Maven's local repository already holds the jars), then online. With no network and
 * nothing cached the start fails with an error saying so; once cached, no network is needed.
 */
public final class BrokerLibrary {

    /** System property naming the cache folder. */
    public static final String PROPERTY = "ombtx.kafka.cache";
    /** Environment variable naming the cache folder (when the property is not set). */
    public static final String ENVIRONMENT = "OMBTX_KAFKA_CACHE";
    /** Environment variable naming the Maven command. */
    public static final String MAVEN = "OMBTX_MVN";

    private static final String COMPLETE = "complete";
    private static final long RESOLVE_MINUTES = 10;

    private BrokerLibrary() {}

    /**
     * The class path for {@code version}: the built-in broker when it is that release, else the cached (or now
     * resolved) jars.
     */
    public static BrokerClassPath classPath(KafkaVersion version) throws BrokerStartException {
        BrokerClassPath builtIn = null;
        BrokerStartException builtInProblem = null;
        try {
            builtIn = BrokerClassPath.locate();
        } catch (BrokerStartException e) {
            builtInProblem = e;
        }
        if (builtIn != null && builtIn.kafkaVersion().equals(version.toString())) {
            return builtIn;
        }
        Path launcher = BrokerClassPath.launcherLocation()
                .orElseThrow(() ->
                        new BrokerStartException("the embedded broker's launcher jar could not be located, so Kafka "
                                + version + " cannot be started"));
        if (builtIn == null && version.toString().equals(EmbeddedKafkaCluster.DEFAULT_VERSION)) {
            throw builtInProblem; // the built-in release whose folder is missing: say how to build it
        }
        Path lib = resolve(cacheRoot(), version);
        return new BrokerClassPath(launcher.toAbsolutePath().normalize(), lib, version.toString());
    }

    /** Whether {@code version} can start without fetching anything: the built-in release, or one cached. */
    public static boolean available(KafkaVersion version) {
        try {
            if (BrokerClassPath.locate().kafkaVersion().equals(version.toString())) {
                return true;
            }
        } catch (BrokerStartException e) {
            // No built-in broker: only the cache can have it.
        }
        return Files.exists(cacheRoot().resolve(version.toString()).resolve(COMPLETE));
    }

    /** Where releases are cached, by the rule above. */
    public static Path cacheRoot() {
        String property = System.getProperty(PROPERTY);
        if (property != null && !property.isBlank()) {
            return Path.of(property.trim()).toAbsolutePath();
        }
        String environment = System.getenv(ENVIRONMENT);
        if (environment != null && !environment.isBlank()) {
            return Path.of(environment.trim()).toAbsolutePath();
        }
        return Path.of(System.getProperty("user.home"), ".cache", "omb-tx", "kafka");
    }

    /** {@code root/V/lib}, resolving it first when it is not complete; one process at a time per release. */
    static Path resolve(Path root, KafkaVersion version) throws BrokerStartException {
        return resolve(root.resolve(version.toString()), version, pom(version), "kafka_2.13-" + version + ".jar");
    }

    /**
     * The jar of kafka-clients {@code version} (the built-in one when it is that release), from the cache, resolved
     * from Maven Central on first use as broker releases are: {@code <cache>/clients-V/lib}. Only the client's own jar
     * is returned: its compression libraries are the runner's, newer and compatible.
     */
    public static Path clientJar(KafkaVersion version) throws BrokerStartException {
        Path lib = resolve(
                cacheRoot().resolve("clients-" + version),
                version,
                clientPom(version),
                "kafka-clients-" + version + ".jar");
        return lib.resolve("kafka-clients-" + version + ".jar");
    }

    /** Whether kafka-clients {@code version} is in the cache (no fetching needed). */
    public static boolean clientAvailable(KafkaVersion version) {
        return Files.exists(cacheRoot().resolve("clients-" + version).resolve(COMPLETE));
    }

    private static Path resolve(Path dir, KafkaVersion version, String pom, String expectedJar)
            throws BrokerStartException {
        Path lib = dir.resolve("lib");
        if (Files.exists(dir.resolve(COMPLETE))) {
            return lib;
        }
        try {
            Files.createDirectories(dir);
            try (FileChannel channel =
                            FileChannel.open(dir.resolve("lock"), StandardOpenOption.CREATE, StandardOpenOption.WRITE);
                    FileLock ignored = channel.lock()) {
                if (Files.exists(dir.resolve(COMPLETE))) {
                    return lib; // another process resolved it while this one waited
                }
                download(dir, version, pom, expectedJar);
                return lib;
            }
        } catch (IOException e) {
            throw new BrokerStartException(
                    "could not prepare the cache folder " + dir + " for Kafka " + version + ": " + e.getMessage(), e);
        }
    }

    private static void download(Path dir, KafkaVersion version, String pomText, String expectedJar)
            throws IOException, BrokerStartException {
        Path pom = dir.resolve("pom.xml");
        Files.writeString(pom, pomText, StandardCharsets.UTF_8);
        Path staging = dir.resolve("lib.partial");
        deleteRecursively(staging);
        Path log = dir.resolve("resolve.log");
        // Offline first: no network needed when Maven's local repository has every jar already.
        if (!runMaven(pom, staging, log, true)) {
            deleteRecursively(staging);
            if (!runMaven(pom, staging, log, false)) {
                throw new BrokerStartException("Kafka " + version + "'s jars are not in " + dir.resolve("lib")
                        + " and Maven could not fetch " + expectedJar + " from Maven Central"
                        + " (no network, or no such release?). Run once with network access (later runs need none),"
                        + " or copy a filled " + version + "/lib folder into " + dir.getParent() + ". Maven's output"
                        + " (" + log + ") ends with:\n" + tail(log, 15));
            }
        }
        if (!Files.exists(staging.resolve(expectedJar))) {
            throw new BrokerStartException(
                    "Maven resolved Kafka " + version + " but " + staging + " has no " + expectedJar + "; see " + log);
        }
        Path lib = dir.resolve("lib");
        deleteRecursively(lib);
        Files.move(staging, lib, StandardCopyOption.ATOMIC_MOVE);
        Files.writeString(dir.resolve(COMPLETE), version + "\n");
    }

    private static boolean runMaven(Path pom, Path output, Path log, boolean offline) throws BrokerStartException {
        List<String> command = new ArrayList<>();
        String maven = System.getenv(MAVEN);
        command.add(maven != null && !maven.isBlank() ? maven.trim() : "mvn");
        command.add("-B");
        command.add("-ntp");
        if (offline) {
            command.add("-o");
        }
        command.add("-f");
        command.add(pom.toString());
        command.add("dependency:copy-dependencies");
        command.add("-DoutputDirectory=" + output);
        command.add("-DincludeScope=runtime");
        try {
            Process process = new ProcessBuilder(command)
                    .directory(pom.getParent().toFile())
                    .redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()))
                    .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
                    .start();
            if (!process.waitFor(RESOLVE_MINUTES, TimeUnit.MINUTES)) {
                process.destroyForcibly();
                throw new BrokerStartException(
                        "resolving Kafka jars with Maven took over " + RESOLVE_MINUTES + " minutes; see " + log);
            }
            return process.exitValue() == 0;
        } catch (IOException e) {
            throw new BrokerStartException("Kafka jars other than the built-in " + EmbeddedKafkaCluster.DEFAULT_VERSION
                    + " are resolved with Maven, but '" + command.get(0) + "' could not be run (" + e.getMessage()
                    + "); install Maven or set " + MAVEN + " to its command");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new BrokerStartException("interrupted while resolving Kafka jars");
        }
    }

    /**
     * A pom whose runtime dependencies are the broker's class path: {@code kafka_2.13} (which brings ZooKeeper for
     * releases that use it) and the logging binding that release's own distribution ships.
     */
    static String pom(KafkaVersion version) {
        StringBuilder dependencies = new StringBuilder();
        dependency(dependencies, "org.apache.kafka", "kafka_2.13", version.toString());
        if (version.major() >= 4) {
            dependency(dependencies, "org.apache.logging.log4j", "log4j-slf4j-impl", "2.24.3");
            dependency(dependencies, "org.apache.logging.log4j", "log4j-core", "2.24.3");
        } else if (version.compareTo(new KafkaVersion(3, 2, 0)) >= 0) {
            dependency(dependencies, "org.slf4j", "slf4j-reload4j", "1.7.36");
        } else {
            dependency(dependencies, "org.slf4j", "slf4j-log4j12", "1.7.30");
        }
        return cachePom("the embedded Kafka " + version, "kafka-" + version, dependencies);
    }

    private static String cachePom(String what, String artifact, StringBuilder dependencies) {
        return """
                <?xml version="1.0" encoding="UTF-8"?>
                <!-- Written by omb-tx (BrokerLibrary): the class path of %s. -->
                <project xmlns="http://maven.apache.org/POM/4.0.0">
                  <modelVersion>4.0.0</modelVersion>
                  <groupId>io.ombtx.kafka-cache</groupId>
                  <artifactId>%s</artifactId>
                  <version>1</version>
                  <packaging>pom</packaging>
                  <dependencies>
                %s  </dependencies>
                  <build>
                    <plugins>
                      <plugin>
                        <groupId>org.apache.maven.plugins</groupId>
                        <artifactId>maven-dependency-plugin</artifactId>
                        <version>3.8.1</version>
                      </plugin>
                    </plugins>
                  </build>
                </project>
                """
                .formatted(what, artifact, dependencies);
    }

    /** A pom whose runtime dependencies are kafka-clients {@code version} alone. */
    static String clientPom(KafkaVersion version) {
        StringBuilder dependencies = new StringBuilder();
        dependency(dependencies, "org.apache.kafka", "kafka-clients", version.toString());
        return cachePom("kafka-clients " + version, "kafka-clients-" + version, dependencies);
    }

    private static void dependency(StringBuilder out, String group, String artifact, String version) {
        out.append("    <dependency><groupId>")
                .append(group)
                .append("</groupId><artifactId>")
                .append(artifact)
                .append("</artifactId><version>")
                .append(version)
                .append("</version></dependency>\n");
    }

    private static String tail(Path file, int lines) {
        try {
            List<String> all = Files.readAllLines(file, StandardCharsets.UTF_8);
            return String.join("\n", all.subList(Math.max(0, all.size() - lines), all.size()));
        } catch (IOException e) {
            return "";
        }
    }

    private static void deleteRecursively(Path root) throws IOException {
        if (!Files.exists(root)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(root)) {
            for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        }
    }
}
