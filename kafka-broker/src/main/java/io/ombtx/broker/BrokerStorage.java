package io.ombtx.broker;

import java.io.IOException;
import java.io.Reader;
import java.io.Writer;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * A KRaft broker's storage, formatted before the broker first starts.
 *
 * <p>The release's own storage tool formats it, in a JVM of its own, once per set of format inputs: the release's
 * jars, KIP-890's {@code transactionVersion} and the broker settings that are not one node's (its id, listeners,
 * quorum and log folder). What the tool writes then is a template, kept beside the broker folder in {@code
 * <folder>.storage/<key>/}: its {@code bootstrap.checkpoint} (the cluster's feature levels, no node's or cluster's
 * id) is copied to every later broker of that kind, and its {@code meta.properties} is written again with the
 * broker's node id, the cluster's id and a fresh directory id, as the tool would have. A template is moved into place
 * whole, so a broker never copies half of one, and one holding anything but those two files is not used. The tool
 * runs for each broker when given extra arguments (SCRAM credentials, which carry random salts), when the broker has
 * more than one log folder or a metadata folder of its own, or when a template cannot be made or read.
 */
final class BrokerStorage {

    /** The files of a formatted log folder that a template may hold. */
    static final String META = "meta.properties";

    static final String BOOTSTRAP = "bootstrap.checkpoint";

    /** Settings that name one node, left out of a template's key and rewritten or not read by the tool. */
    private static final Set<String> PER_NODE =
            Set.of("node.id", "listeners", "advertised.listeners", "log.dirs", "controller.quorum.voters");

    private BrokerStorage() {}

    /** How a broker's storage was formatted. */
    enum Formatted {
        /** By the storage tool, for this broker alone. */
        TOOL,
        /** From a template the tool wrote for an earlier broker of the same kind (or for this one, first). */
        TEMPLATE
    }

    /**
     * Formats the log folder {@code config} names for cluster {@code clusterId}, at KIP-890's {@code
     * transactionVersion} when given (Kafka 4.x; the planner checks that), with the release on {@code classPath}, with
     * {@code extraArguments} (SCRAM credentials) at the end; the tool's output goes to {@code format.log} beside
     * {@code config}.
     */
    static Formatted format(
            BrokerClassPath classPath,
            Path config,
            String clusterId,
            Integer transactionVersion,
            List<String> extraArguments)
            throws IOException, BrokerStartException {
        if (extraArguments.isEmpty()) {
            Properties settings = read(config);
            Optional<Path> template = template(classPath, settings, transactionVersion);
            if (template.isPresent() && copy(template.get(), settings, clusterId)) {
                return Formatted.TEMPLATE;
            }
        }
        runTool(classPath, config, config.resolveSibling("format.log"), clusterId, transactionVersion, extraArguments);
        return Formatted.TOOL;
    }

    private static void runTool(
            BrokerClassPath classPath,
            Path config,
            Path out,
            String clusterId,
            Integer transactionVersion,
            List<String> extraArguments)
            throws IOException, BrokerStartException {
        List<String> command =
                new ArrayList<>(List.of("kafka.tools.StorageTool", "format", "-t", clusterId, "-c", config.toString()));
        if (transactionVersion != null) {
            command.add("--feature");
            command.add(TransactionProtocol.FEATURE + "=" + transactionVersion);
        }
        command.addAll(extraArguments);
        Process format = new ProcessBuilder(ChildJvm.command(classPath, config.getParent(), List.of(), command))
                .redirectErrorStream(true)
                .redirectOutput(out.toFile())
                .start();
        try {
            if (!format.waitFor(60, TimeUnit.SECONDS) || format.exitValue() != 0) {
                format.destroyForcibly();
                throw new BrokerStartException("formatting the broker storage failed:\n" + ChildFiles.tail(out, 20));
            }
        } catch (InterruptedException e) {
            format.destroyForcibly();
            Thread.currentThread().interrupt();
            throw new BrokerStartException("interrupted while formatting broker storage");
        }
    }

    /** The one log folder {@code settings} name, or null when they name several or a metadata folder apart. */
    private static Path logFolder(Properties settings) {
        String dirs = settings.getProperty("log.dirs");
        if (dirs == null || dirs.isBlank() || dirs.contains(",") || settings.getProperty("metadata.log.dir") != null) {
            return null;
        }
        return Path.of(dirs.strip());
    }

    /**
     * The template for a broker of {@code settings}, made by the storage tool now when missing; empty when the broker
     * cannot use one or it could not be made (the tool then formats the broker's folder itself).
     */
    static Optional<Path> template(BrokerClassPath classPath, Properties settings, Integer transactionVersion)
            throws BrokerStartException {
        if (logFolder(settings) == null) {
            return Optional.empty();
        }
        TreeMap<String, String> kind = new TreeMap<>();
        settings.stringPropertyNames().stream()
                .filter(key -> !PER_NODE.contains(key))
                .forEach(key -> kind.put(key, settings.getProperty(key)));
        Optional<String> key =
                BrokerClassArchive.key(classPath.jars(), "transaction.version=" + transactionVersion + "\n" + kind);
        if (key.isEmpty()) {
            return Optional.empty();
        }
        Path folder = classPath.brokerLib();
        Path templates = folder.resolveSibling(folder.getFileName() + ".storage");
        Path template = templates.resolve(key.get());
        if (Files.isDirectory(template)) {
            return Optional.of(template);
        }
        Path part = null;
        try {
            Files.createDirectories(templates);
            part = Files.createTempDirectory(templates, key.get() + ".part");
            Properties own = new Properties();
            own.putAll(settings);
            own.setProperty("log.dirs", part.resolve("data").toString());
            Path config = part.resolve("server.properties");
            try (Writer out = Files.newBufferedWriter(config, StandardCharsets.UTF_8)) {
                own.store(out, "omb-tx storage template");
            }
            runTool(classPath, config, part.resolve("format.log"), randomClusterId(), transactionVersion, List.of());
            if (!holdsOnlyTemplateFiles(part.resolve("data"))) {
                return Optional.empty();
            }
            try {
                Files.move(part.resolve("data"), template, StandardCopyOption.ATOMIC_MOVE);
            } catch (IOException madeMeanwhile) {
                // Another JVM made the same template meanwhile (the rename found it there): use theirs.
            }
            return Files.isDirectory(template) ? Optional.of(template) : Optional.empty();
        } catch (IOException e) {
            return Optional.empty();
        } finally {
            if (part != null) {
                deleteQuietly(part);
            }
        }
    }

    /** Whether {@code data} holds {@value #META}, at most {@value #BOOTSTRAP} beside it, and nothing else. */
    private static boolean holdsOnlyTemplateFiles(Path data) throws IOException {
        if (!Files.isRegularFile(data.resolve(META))) {
            return false;
        }
        try (Stream<Path> files = Files.list(data)) {
            return files.allMatch(file -> Files.isRegularFile(file)
                    && Set.of(META, BOOTSTRAP).contains(file.getFileName().toString()));
        }
    }

    /**
     * Writes a broker's log folder from {@code template}: its bootstrap checkpoint as it is, its meta.properties with
     * the broker's node id, {@code clusterId} and a fresh directory id (where the release has them). False when the
     * template is not whole.
     */
    private static boolean copy(Path template, Properties settings, String clusterId) throws IOException {
        if (!holdsOnlyTemplateFiles(template)) {
            return false;
        }
        Properties meta = read(template.resolve(META));
        if (meta.getProperty("node.id") == null || meta.getProperty("cluster.id") == null) {
            return false;
        }
        Path data = Files.createDirectories(logFolder(settings));
        if (Files.isRegularFile(template.resolve(BOOTSTRAP))) {
            Files.copy(template.resolve(BOOTSTRAP), data.resolve(BOOTSTRAP), StandardCopyOption.REPLACE_EXISTING);
        }
        meta.setProperty("node.id", settings.getProperty("node.id"));
        meta.setProperty("cluster.id", clusterId);
        if (meta.getProperty("directory.id") != null) {
            meta.setProperty("directory.id", randomClusterId());
        }
        try (Writer out = Files.newBufferedWriter(data.resolve(META), StandardCharsets.UTF_8)) {
            meta.store(out, "omb-tx: written from the storage template " + template.getFileName());
        }
        return true;
    }

    private static Properties read(Path file) throws IOException {
        Properties properties = new Properties();
        try (Reader in = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            properties.load(in);
        }
        return properties;
    }

    private static void deleteQuietly(Path tree) {
        try (Stream<Path> paths = Files.walk(tree)) {
            paths.sorted(Comparator.reverseOrder()).forEach(path -> {
                try {
                    Files.deleteIfExists(path);
                } catch (IOException e) {
                    // A temporary folder left behind: harmless.
                }
            });
        } catch (IOException e) {
            // As above.
        }
    }

    /**
     * Kafka's cluster id is a URL-safe base64 of 16 random bytes, without padding. One starting with '-' would be
     * read as an option by the storage tool's command line (Kafka's own generator avoids them too). Directory ids
     * have the same form.
     */
    static String randomClusterId() {
        while (true) {
            UUID uuid = UUID.randomUUID();
            ByteBuffer bytes = ByteBuffer.allocate(16);
            bytes.putLong(uuid.getMostSignificantBits()).putLong(uuid.getLeastSignificantBits());
            String id = Base64.getUrlEncoder().withoutPadding().encodeToString(bytes.array());
            if (!id.startsWith("-")) {
                return id;
            }
        }
    }
}
