package io.ombtx.broker;

import java.io.File;
import java.io.IOException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * A kafka-clients release other than the built-in one, as a run uses it ({@code --client-version}): its jar (fetched
 * on first use, {@link BrokerLibrary#clientJar}), the class path of a worker JVM that runs the drivers on it, and the
 * configuration keys it knows, read from that release's own {@code ProducerConfig}, {@code ConsumerConfig} and
 * {@code AdminClientConfig} in an isolated class loader, so a setting the release lacks is found before anything
 * starts.
 */
public final class ClientRelease {

    /** Which client a block of settings configures. */
    public enum Kind {
        PRODUCER("org.apache.kafka.clients.producer.ProducerConfig"),
        CONSUMER("org.apache.kafka.clients.consumer.ConsumerConfig"),
        ADMIN("org.apache.kafka.clients.admin.AdminClientConfig");

        private final String configClass;

        Kind(String configClass) {
            this.configClass = configClass;
        }
    }

    private final KafkaVersion version;
    private final Path jar;

    private ClientRelease(KafkaVersion version, Path jar) {
        this.version = version;
        this.jar = jar;
    }

    /** The release, its jar resolved (from the cache, or from Maven Central the first time). */
    public static ClientRelease of(KafkaVersion version) throws BrokerStartException {
        return new ClientRelease(version, BrokerLibrary.clientJar(version));
    }

    /** Whether {@code version} is the kafka-clients this JVM runs (then no other worker JVM is needed). */
    public static boolean builtIn(KafkaVersion version) {
        return version.toString().equals(EmbeddedKafkaCluster.DEFAULT_VERSION);
    }

    public KafkaVersion version() {
        return version;
    }

    public Path jar() {
        return jar;
    }

    /**
     * {@code classPath} (e.g. this JVM's, {@code java.class.path}) with every kafka-clients jar replaced by this
     * release's, in the place of the first.
     */
    public List<Path> classPath(String classPath) {
        List<Path> entries = new ArrayList<>();
        boolean placed = false;
        for (String entry : classPath.split(File.pathSeparator)) {
            if (entry.isBlank()) {
                continue;
            }
            Path path = Path.of(entry);
            String name = path.getFileName() == null ? "" : path.getFileName().toString();
            if (name.startsWith("kafka-clients-") && name.endsWith(".jar")) {
                if (!placed) {
                    entries.add(jar);
                    placed = true;
                }
                continue;
            }
            entries.add(path);
        }
        if (!placed) {
            entries.add(jar);
        }
        return entries;
    }

    /** The configuration keys {@code kind} knows in this release. */
    public Set<String> configKeys(Kind kind) throws IOException {
        try (URLClassLoader loader = isolated()) {
            Class<?> config = Class.forName(kind.configClass, true, loader);
            @SuppressWarnings("unchecked")
            Set<String> names = (Set<String>) config.getMethod("configNames").invoke(null);
            return new TreeSet<>(names);
        } catch (ReflectiveOperationException | LinkageError e) {
            throw new IOException(
                    "could not read the configuration keys of kafka-clients " + version + " from " + jar + ": " + e, e);
        }
    }

    /**
     * A loader that takes {@code org.apache.kafka} classes from this release's jar only, and everything else (the
     * logging API its classes name) from this JVM.
     */
    private URLClassLoader isolated() throws IOException {
        ClassLoader app = ClientRelease.class.getClassLoader();
        return new URLClassLoader(new URL[] {jar.toUri().toURL()}, app) {
            @Override
            protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
                if (!name.startsWith("org.apache.kafka.")) {
                    return super.loadClass(name, resolve);
                }
                synchronized (getClassLoadingLock(name)) {
                    Class<?> loaded = findLoadedClass(name);
                    if (loaded == null) {
                        loaded = findClass(name);
                    }
                    if (resolve) {
                        resolveClass(loaded);
                    }
                    return loaded;
                }
            }
        };
    }
}
