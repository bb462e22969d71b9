package io.ombtx.driver.aeron;

import io.aeron.driver.ThreadingMode;
import io.ombtx.driver.api.config.ConfigFields;
import io.ombtx.driver.api.config.YamlFiles;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads and checks the Aeron driver's YAML: unknown keys (with a did-you-mean), wrong types and impossible values
 * name the file and the key. The Kafka convention's blocks ({@code replicationFactor}, {@code topicConfig},
 * {@code commonConfig}, {@code producerConfig}, {@code consumerConfig}) are accepted and not used, so a workload
 * whose {@code driverOverrides} tune kafka-clients (the RPS sweep's) runs on Aeron unchanged.
 */
public final class AeronConfigParser {

    static final List<String> MEDIA_DRIVER_KEYS = List.of(
            "directory",
            "threadingMode",
            "termBufferLength",
            "mtuLength",
            "socketSndbufLength",
            "socketRcvbufLength",
            "initialWindowLength",
            "conductorIdleStrategy",
            "senderIdleStrategy",
            "receiverIdleStrategy",
            "sharedIdleStrategy",
            "termBufferSparseFile");
    static final List<String> SUBSCRIBER_KEYS = List.of("idleStrategy", "fragmentLimit");
    static final List<String> PUBLISHER_KEYS = List.of("offerTimeoutMs", "retryIdleStrategy");
    /** OMB's Kafka driver YAML blocks: accepted (a Kafka driver file can be pointed at Aeron), checked, not used. */
    private static final List<String> KAFKA_BLOCKS =
            List.of("topicConfig", "commonConfig", "producerConfig", "consumerConfig");

    private static final List<String> TOP_KEYS;

    static {
        List<String> keys = new ArrayList<>(List.of(
                "name",
                "driverClass",
                "transport",
                "udpEndpoint",
                "profile",
                "mediaDriver",
                "subscriber",
                "publisher",
                "replicationFactor"));
        keys.addAll(KAFKA_BLOCKS);
        TOP_KEYS = List.copyOf(keys);
    }

    private static final Pattern SIZE = Pattern.compile("(\\d+)\\s*([kKmMgG]?)[bB]?");
    private static final Pattern ENDPOINT = Pattern.compile("(.+):(\\d+|auto)");
    private static final int MIN_TERM = 64 * 1024;
    private static final int MAX_TERM = 1024 * 1024 * 1024;

    private AeronConfigParser() {}

    public static AeronSettings parse(String source, String yamlText) {
        ConfigFields root = new ConfigFields(source, YamlFiles.parse(source, yamlText), "").onlyKeys(TOP_KEYS);
        AeronSettings.Transport transport =
                root.choice("transport", AeronSettings.Transport.class, AeronSettings.Transport.IPC);
        String host = "127.0.0.1";
        int port = 0;
        if (root.has("udpEndpoint")) {
            if (transport != AeronSettings.Transport.UDP) {
                throw root.error("udpEndpoint", "applies to transport: udp only (this driver's transport is ipc)");
            }
            String endpoint = root.text("udpEndpoint", "").trim();
            Matcher m = ENDPOINT.matcher(endpoint);
            if (!m.matches()) {
                throw root.error(
                        "udpEndpoint",
                        "expected HOST:PORT or HOST:auto (e.g. 127.0.0.1:40456), got '" + endpoint + "'");
            }
            host = m.group(1);
            if (!m.group(2).equals("auto")) {
                port = Integer.parseInt(m.group(2));
                if (port < 1 || port > 65535) {
                    throw root.error("udpEndpoint", "port " + port + " is outside 1..65535");
                }
            }
        }
        AeronProfile profile = root.choice("profile", AeronProfile.class, AeronProfile.DEFAULT);
        AeronSettings.MediaDriverSettings base = profile.mediaDriver;
        ConfigFields md = root.block("mediaDriver").onlyKeys(MEDIA_DRIVER_KEYS);
        String directory = md.text("directory", null);
        ThreadingMode threading = md.choice("threadingMode", ThreadingMode.class, base.threadingMode());
        if (threading == ThreadingMode.INVOKER) {
            throw md.error(
                    "threadingMode",
                    "INVOKER needs the client to run the media driver's duty cycle, which"
                            + " this driver does not do: use DEDICATED, SHARED_NETWORK or SHARED");
        }
        int term = size(md, "termBufferLength", base.termBufferLength(), MIN_TERM, MAX_TERM);
        if (Integer.bitCount(term) != 1) {
            throw md.error("termBufferLength", "must be a power of two between 64k and 1g, got " + term);
        }
        int mtu = size(md, "mtuLength", base.mtuLength(), 32, 65504);
        if (mtu % 32 != 0) {
            throw md.error("mtuLength", "must be a multiple of 32 (Aeron's frame alignment), got " + mtu);
        }
        AeronSettings.MediaDriverSettings mediaDriver = new AeronSettings.MediaDriverSettings(
                directory == null || directory.isBlank() ? null : Path.of(directory),
                threading,
                term,
                mtu,
                size(md, "socketSndbufLength", base.socketSndbufLength(), 0, Integer.MAX_VALUE),
                size(md, "socketRcvbufLength", base.socketRcvbufLength(), 0, Integer.MAX_VALUE),
                size(md, "initialWindowLength", base.initialWindowLength(), mtu, Integer.MAX_VALUE),
                md.choice("conductorIdleStrategy", IdleStrategyName.class, base.conductorIdle()),
                md.choice("senderIdleStrategy", IdleStrategyName.class, base.senderIdle()),
                md.choice("receiverIdleStrategy", IdleStrategyName.class, base.receiverIdle()),
                md.choice("sharedIdleStrategy", IdleStrategyName.class, base.sharedIdle()),
                md.bool("termBufferSparseFile", base.termBufferSparseFile()));
        ConfigFields sub = root.block("subscriber").onlyKeys(SUBSCRIBER_KEYS);
        IdleStrategyName subscriberIdle = sub.choice(
                "idleStrategy",
                IdleStrategyName.class,
                profile == AeronProfile.LOW_LATENCY ? IdleStrategyName.SPIN : IdleStrategyName.BACKOFF);
        int fragmentLimit = sub.wholeNumber("fragmentLimit", 256, 1, 1_000_000);
        ConfigFields pub = root.block("publisher").onlyKeys(PUBLISHER_KEYS);
        long offerTimeout = pub.wholeNumber("offerTimeoutMs", 10_000L, 0L, 3_600_000L);
        IdleStrategyName retryIdle = pub.choice("retryIdleStrategy", IdleStrategyName.class, IdleStrategyName.YIELD);
        for (String block : KAFKA_BLOCKS) {
            root.properties(block); // still well-formed, though unused
        }
        return new AeronSettings(
                transport, host, port, profile, mediaDriver, subscriberIdle, fragmentLimit, offerTimeout, retryIdle);
    }

    /** A byte count: a whole number, or one with a k, m or g suffix (powers of 1024), as Aeron's own properties. */
    static int size(ConfigFields fields, String key, int fallback, long min, long max) {
        if (!fields.has(key)) {
            return fallback;
        }
        String raw = fields.text(key, "").trim();
        Matcher m = SIZE.matcher(raw);
        if (!m.matches()) {
            throw fields.error(key, "expected a size in bytes, e.g. 65536, 64k, 16m, got '" + raw + "'");
        }
        long value;
        try {
            long base = Long.parseLong(m.group(1));
            int shift =
                    switch (m.group(2).toLowerCase(Locale.ROOT)) {
                        case "k" -> 10;
                        case "m" -> 20;
                        case "g" -> 30;
                        default -> 0;
                    };
            value = base << shift;
            if (base > (Long.MAX_VALUE >> shift)) {
                value = Long.MAX_VALUE;
            }
        } catch (NumberFormatException e) {
            value = Long.MAX_VALUE;
        }
        if (value < min || value > max) {
            throw fields.error(key, "must be between " + min + " and " + max + " bytes, got '" + raw + "'");
        }
        return (int) value;
    }
}
