package io.ombtx.runner.result;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Properties;

/**
 * omb-tx's version as the build wrote it: pom.xml's project version, filtered into {@code omb-tx-version.properties}
 * beside this class, so the version is written in one place only.
 */
public final class OmbTxVersion {

    /** The version, e.g. {@code 0.1.0-SNAPSHOT}; {@code unknown} only in a build that skipped the resource. */
    public static final String VERSION = read();

    private OmbTxVersion() {}

    private static String read() {
        try (InputStream in = OmbTxVersion.class.getResourceAsStream("omb-tx-version.properties")) {
            if (in == null) {
                return "unknown";
            }
            Properties properties = new Properties();
            properties.load(in);
            return properties.getProperty("version", "unknown");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
