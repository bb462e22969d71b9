package io.ombtx.runner.worker;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.Map;
import java.util.Optional;

/**
 * The secret a coordinator and its workers share: every request to a worker started with one carries it in an
 * {@code Authorization: Bearer} header, and the worker answers 401 to any that does not. It keeps whoever can reach
 * a worker's port from having it load a driver and send load anywhere. It travels in clear over HTTP: on a network
 * that is not trusted, put the workers behind TLS or a VPN as well. Never printed ({@link #toString()}).
 */
public final class WorkerToken {

    /** The environment variable both sides read when no {@code --token-file} is given. */
    public static final String ENV = "OMBTX_WORKER_TOKEN";

    /** The shortest token taken: anything shorter is guessable. */
    public static final int MIN_LENGTH = 16;

    static final String HEADER = "Authorization";
    private static final String SCHEME = "Bearer ";

    private final byte[] secret;

    private WorkerToken(String secret) {
        this.secret = secret.getBytes(StandardCharsets.UTF_8);
    }

    /** A fresh random token (32 bytes, hex), e.g. for a child worker JVM this process starts. */
    public static WorkerToken random() {
        byte[] bytes = new byte[32];
        new SecureRandom().nextBytes(bytes);
        return new WorkerToken(HexFormat.of().formatHex(bytes));
    }

    /**
     * The token given: {@code file}'s content when a file is given (surrounding white space dropped), else the
     * environment's {@link #ENV} when set and not empty, else none.
     *
     * @throws IllegalArgumentException naming the file or the variable and what is wrong with it
     */
    public static Optional<WorkerToken> resolve(Path file, Map<String, String> environment) {
        if (file != null) {
            return Optional.of(read(file));
        }
        String value = environment.get(ENV);
        if (value == null || value.isEmpty()) {
            return Optional.empty();
        }
        return Optional.of(of(value.strip(), "the environment variable " + ENV));
    }

    /** The token in {@code file}. */
    public static WorkerToken read(Path file) {
        String text;
        try {
            text = Files.readString(file, StandardCharsets.UTF_8);
        } catch (NoSuchFileException e) {
            throw new IllegalArgumentException(file + ": no such file");
        } catch (IOException | java.io.UncheckedIOException e) {
            throw new IllegalArgumentException(file + ": cannot read it (" + e.getMessage() + ")");
        }
        return of(text.strip(), file.toString());
    }

    private static WorkerToken of(String value, String source) {
        if (value.length() < MIN_LENGTH) {
            throw new IllegalArgumentException(source + ": a worker token must be at least " + MIN_LENGTH
                    + " characters long (it has " + value.length() + "); e.g. openssl rand -hex 32 > FILE");
        }
        if (!value.chars().allMatch(c -> c > 0x20 && c < 0x7f)) {
            throw new IllegalArgumentException(source + ": a worker token is one word of printable ASCII (no spaces,"
                    + " no line breaks inside it)");
        }
        return new WorkerToken(value);
    }

    /** The value of the {@link #HEADER} header that carries this token. */
    String headerValue() {
        return SCHEME + new String(secret, StandardCharsets.UTF_8);
    }

    /** Whether {@code header} (the request's {@link #HEADER}, or null) carries this token; constant time. */
    public boolean admits(String header) {
        if (header == null || !header.startsWith(SCHEME)) {
            return false;
        }
        byte[] given = header.substring(SCHEME.length()).getBytes(StandardCharsets.UTF_8);
        return MessageDigest.isEqual(given, secret);
    }

    /** The environment entry that hands this token to a child process. */
    public Map.Entry<String, String> asEnvironment() {
        return Map.entry(ENV, new String(secret, StandardCharsets.UTF_8));
    }

    @Override
    public String toString() {
        return "WorkerToken[redacted]";
    }
}
