package io.ombtx.broker;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

/**
 * A secured embedded cluster's client listener and who may use it: a certificate authority and certificates made for
 * the run with the JDK's keytool in the cluster's folder ({@code security/}, deleted with it), random passwords, the
 * broker settings of a SASL_SSL (SCRAM-SHA-512) or mutual-TLS listener with Kafka's {@code StandardAuthorizer}, and
 * the client settings of its two principals: the runner's {@value #ADMIN} (a super user: it grants the ACLs, reads
 * the coordinators' log) and the benchmark's {@value #BENCH}, which has only the ACLs the workload needs.
 *
 * <p>A client's secrets never appear in its settings: each principal's passwords are in an owner-only properties file
 * that the settings name through Kafka's {@code FileConfigProvider} ({@code ${file:PATH:password}}). The controller
 * listener stays PLAINTEXT on loopback; its principal ({@code User:ANONYMOUS}) is a super user, as the KRaft
 * controllers' authorizer must let the brokers register.
 */
public final class ClusterSecurity {

    /** The runner's own principal: a super user. */
    public static final String ADMIN = "omb-tx-admin";

    /** The benchmark's principal: only the ACLs granted to it. */
    public static final String BENCH = "omb-tx-bench";

    /** The brokers' principal between themselves. */
    static final String BROKER = "omb-tx-broker";

    /** The client listener's name in the brokers' settings. */
    static final String LISTENER = "CLIENT";

    /** How clients reach the brokers. */
    public enum Mode {
        /** PLAINTEXT, no authorizer: the default. */
        NONE("PLAINTEXT"),
        /** SASL_SSL with SCRAM-SHA-512: a password per principal, the server's certificate checked. */
        SASL_SCRAM("SASL_SSL"),
        /** SSL with {@code ssl.client.auth=required}: a certificate per principal, its CN the principal's name. */
        MTLS("SSL");

        private final String protocol;

        Mode(String protocol) {
            this.protocol = protocol;
        }

        /** Kafka's {@code security.protocol} of the client listener. */
        public String protocol() {
            return protocol;
        }

        /** none, sasl-scram, mtls. */
        public String key() {
            return name().toLowerCase(Locale.ROOT).replace('_', '-');
        }
    }

    private static final String SCRAM = "SCRAM-SHA-512";
    private static final String AUTHORIZER = "org.apache.kafka.metadata.authorizer.StandardAuthorizer";
    private static final String FILE_PROVIDER = "org.apache.kafka.common.config.provider.FileConfigProvider";
    private static final long KEYTOOL_TIMEOUT_SECONDS = 60;

    private final Mode mode;
    private final Path dir;
    private final Map<String, String> passwords = new LinkedHashMap<>();
    private final String storePassword = randomPassword();

    private ClusterSecurity(Mode mode, Path dir) {
        this.mode = mode;
        this.dir = dir;
        for (String principal : List.of(ADMIN, BENCH, BROKER)) {
            passwords.put(principal, randomPassword());
        }
    }

    /**
     * Makes the run's CA, certificates and secrets files in {@code dir} (created): the brokers' certificate for
     * 127.0.0.1 and localhost, and with mutual TLS one for each client principal.
     */
    static ClusterSecurity create(Mode mode, Path dir) throws IOException, BrokerStartException {
        if (mode == Mode.NONE) {
            throw new IllegalArgumentException("no security to create for " + mode);
        }
        Files.createDirectories(dir);
        ClusterSecurity security = new ClusterSecurity(mode, dir);
        security.makeCertificates();
        security.writeSecrets(ADMIN);
        security.writeSecrets(BENCH);
        return security;
    }

    public Mode mode() {
        return mode;
    }

    /** {@code User:<name>} as Kafka's ACLs name a principal. */
    public static String principal(String name) {
        return "User:" + name;
    }

    /** The client settings of {@code name} ({@link #ADMIN} or {@link #BENCH}): no secret in them, only references. */
    public Map<String, String> clientSettings(String name) {
        if (!name.equals(ADMIN) && !name.equals(BENCH)) {
            throw new IllegalArgumentException("no client principal " + name);
        }
        Path secrets = secretsFile(name);
        Map<String, String> settings = new LinkedHashMap<>();
        settings.put("security.protocol", mode.protocol());
        settings.put("config.providers", "file");
        settings.put("config.providers.file.class", FILE_PROVIDER);
        settings.put("ssl.truststore.type", "PEM");
        settings.put("ssl.truststore.location", caFile().toString());
        if (mode == Mode.SASL_SCRAM) {
            settings.put("sasl.mechanism", SCRAM);
            settings.put(
                    "sasl.jaas.config",
                    "org.apache.kafka.common.security.scram.ScramLoginModule required username=\""
                            + reference(secrets, "username") + "\" password=\"" + reference(secrets, "password")
                            + "\";");
        } else {
            settings.put("ssl.keystore.type", "PKCS12");
            settings.put("ssl.keystore.location", keyStore(name).toString());
            settings.put("ssl.keystore.password", reference(secrets, "keystore.password"));
        }
        return settings;
    }

    /** The broker settings of the client listener (named in {@code listeners} by the cluster), authorizer on. */
    Map<String, String> brokerSettings() {
        Map<String, String> settings = new LinkedHashMap<>();
        settings.put("ssl.keystore.type", "PKCS12");
        settings.put("ssl.keystore.location", keyStore(BROKER).toString());
        settings.put("ssl.keystore.password", storePassword);
        settings.put("ssl.key.password", storePassword);
        settings.put("ssl.truststore.type", "PEM");
        settings.put("ssl.truststore.location", caFile().toString());
        settings.put("authorizer.class.name", AUTHORIZER);
        settings.put("super.users", String.join(";", principal(BROKER), principal(ADMIN), principal("ANONYMOUS")));
        if (mode == Mode.SASL_SCRAM) {
            settings.put("sasl.enabled.mechanisms", SCRAM);
            settings.put("sasl.mechanism.inter.broker.protocol", SCRAM);
            settings.put(
                    "listener.name." + LISTENER.toLowerCase(Locale.ROOT) + "." + SCRAM.toLowerCase(Locale.ROOT)
                            + ".sasl.jaas.config",
                    "org.apache.kafka.common.security.scram.ScramLoginModule required username=\"" + BROKER
                            + "\" password=\"" + passwords.get(BROKER) + "\";");
        } else {
            settings.put("ssl.client.auth", "required");
            // The principal is the certificate's CN, not its whole distinguished name: User:omb-tx-bench either way.
            settings.put("ssl.principal.mapping.rules", "RULE:^CN=([^,]*)$/$1/,DEFAULT");
        }
        return settings;
    }

    /** The storage tool's arguments creating every principal's SCRAM credential (SASL only; none for mTLS). */
    List<String> scramFormatArguments() {
        List<String> args = new ArrayList<>();
        if (mode != Mode.SASL_SCRAM) {
            return args;
        }
        passwords.forEach((name, password) -> {
            args.add("--add-scram");
            args.add(SCRAM + "=[name=" + name + ",password=" + password + "]");
        });
        return args;
    }

    private static String reference(Path file, String key) {
        return "${file:" + file + ":" + key + "}";
    }

    private Path secretsFile(String name) {
        return dir.resolve(name + ".properties");
    }

    private Path caFile() {
        return dir.resolve("ca.pem");
    }

    private Path keyStore(String name) {
        return dir.resolve(name + ".p12");
    }

    private void writeSecrets(String name) throws IOException {
        Properties secrets = new Properties();
        secrets.setProperty("username", name);
        secrets.setProperty("password", passwords.get(name));
        secrets.setProperty("keystore.password", storePassword);
        Path file = ChildFiles.ownerOnly(secretsFile(name));
        try (var out = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
            secrets.store(out, "omb-tx: " + name + "'s secrets for this run's embedded cluster");
        }
    }

    /** The CA, then each party's key, signed by the CA (in parallel: each keytool call is a JVM of its own). */
    private void makeCertificates() throws IOException, BrokerStartException {
        Path caStore = dir.resolve("ca.p12");
        keytool(
                "-genkeypair",
                "-alias",
                "ca",
                "-keyalg",
                "EC",
                "-groupname",
                "secp256r1",
                "-dname",
                "CN=omb-tx-ca",
                "-ext",
                "bc:c",
                "-validity",
                "2",
                "-keystore",
                caStore.toString(),
                "-storetype",
                "PKCS12",
                "-storepass",
                storePassword);
        keytool(
                "-exportcert",
                "-rfc",
                "-alias",
                "ca",
                "-keystore",
                caStore.toString(),
                "-storepass",
                storePassword,
                "-file",
                caFile().toString());
        List<String> parties = mode == Mode.MTLS ? List.of(BROKER, ADMIN, BENCH) : List.of(BROKER);
        ExecutorService pool = Executors.newFixedThreadPool(parties.size());
        try {
            List<Future<Void>> made = new ArrayList<>();
            for (String party : parties) {
                made.add(pool.submit(() -> {
                    signedKey(party, caStore, party.equals(BROKER));
                    return null;
                }));
            }
            for (Future<Void> future : made) {
                future.get();
            }
        } catch (java.util.concurrent.ExecutionException e) {
            if (e.getCause() instanceof BrokerStartException failed) {
                throw failed;
            }
            throw new IOException(e.getCause().getMessage(), e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new BrokerStartException("interrupted while making the run's certificates");
        } finally {
            pool.shutdownNow();
        }
    }

    private void signedKey(String name, Path caStore, boolean server) throws IOException, BrokerStartException {
        Path store = keyStore(name);
        Path request = dir.resolve(name + ".csr");
        Path signed = dir.resolve(name + ".crt");
        keytool(
                "-genkeypair",
                "-alias",
                name,
                "-keyalg",
                "EC",
                "-groupname",
                "secp256r1",
                "-dname",
                "CN=" + name,
                "-validity",
                "2",
                "-keystore",
                store.toString(),
                "-storetype",
                "PKCS12",
                "-storepass",
                storePassword);
        keytool(
                "-certreq",
                "-alias",
                name,
                "-keystore",
                store.toString(),
                "-storepass",
                storePassword,
                "-file",
                request.toString());
        List<String> sign = new ArrayList<>(List.of(
                "-gencert",
                "-alias",
                "ca",
                "-keystore",
                caStore.toString(),
                "-storepass",
                storePassword,
                "-infile",
                request.toString(),
                "-outfile",
                signed.toString(),
                "-rfc",
                "-validity",
                "2"));
        if (server) {
            sign.addAll(List.of("-ext", "SAN=ip:" + LoopbackPorts.LOOPBACK + ",dns:localhost"));
        }
        keytool(sign.toArray(String[]::new));
        keytool(
                "-importcert",
                "-noprompt",
                "-alias",
                "ca",
                "-file",
                caFile().toString(),
                "-keystore",
                store.toString(),
                "-storepass",
                storePassword);
        keytool(
                "-importcert",
                "-alias",
                name,
                "-file",
                signed.toString(),
                "-keystore",
                store.toString(),
                "-storepass",
                storePassword);
    }

    private void keytool(String... args) throws IOException, BrokerStartException {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "keytool").toString());
        // A short-lived JVM: the quickest start, not the quickest code.
        command.add("-J-XX:TieredStopAtLevel=1");
        command.add("-J-XX:+UseSerialGC");
        command.addAll(List.of(args));
        Path out = Files.createTempFile(dir, "keytool-", ".log");
        Process process = new ProcessBuilder(command)
                .redirectErrorStream(true)
                .redirectOutput(out.toFile())
                .start();
        try {
            if (!process.waitFor(KEYTOOL_TIMEOUT_SECONDS, TimeUnit.SECONDS) || process.exitValue() != 0) {
                process.destroyForcibly();
                throw new BrokerStartException("keytool " + args[0] + " failed while making the run's certificates:\n"
                        + ChildFiles.tail(out, 10));
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
            throw new BrokerStartException("interrupted while making the run's certificates");
        } finally {
            Files.deleteIfExists(out);
        }
    }

    private static String randomPassword() {
        byte[] bytes = new byte[18];
        new SecureRandom().nextBytes(bytes);
        // Never starting with '-', which keytool would read as an option.
        return "p" + Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
    }
}
