package io.ombtx.runner.config;

import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * The one rule for which settings hold secrets, used wherever a setting is printed or stored: a driver file's keys and
 * client blocks, a workload's {@code driverOverrides}, embedded broker settings ({@code brokerSettings},
 * {@code --broker-config}) in the dry run, on the console and in the result. A key is secret when its name mentions a
 * password, secret, token, credential, JAAS configuration, private key or user info (Schema Registry's
 * {@code basic.auth.user.info} is {@code user:password}).
 */
public final class Secrets {

    public static final String REDACTED = "<redacted>";

    private static final Pattern SECRET_KEY = Pattern.compile(
            ".*(password|passwd|secret|token|jaas|credential|user\\.info|userinfo|\\.key$|private\\.key).*");

    private Secrets() {}

    public static boolean isSecret(String key) {
        return SECRET_KEY.matcher(key.toLowerCase(Locale.ROOT)).matches();
    }

    /** {@code value}, or {@link #REDACTED} when {@code key} is secret. */
    public static String shown(String key, String value) {
        return isSecret(key) ? REDACTED : value;
    }

    /** A copy of {@code settings} in the same order, secret values replaced. */
    public static Map<String, String> redacted(Map<String, String> settings) {
        Map<String, String> out = new LinkedHashMap<>();
        settings.forEach((key, value) -> out.put(key, shown(key, value)));
        return out;
    }
}
