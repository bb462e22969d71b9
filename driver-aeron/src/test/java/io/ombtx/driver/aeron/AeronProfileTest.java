package io.ombtx.driver.aeron;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** A profile is the starting point of the media driver's settings; the driver YAML overrides it key by key. */
class AeronProfileTest {

    @Test
    void theDefaultProfileIsAeronsOwnDefaults() {
        AeronSettings settings = AeronConfigParser.parse("aeron.yaml", "transport: ipc\n");
        assertEquals(AeronProfile.DEFAULT, settings.profile());
        assertEquals(
                expected("DEDICATED", 16 * 1024 * 1024, 1408, 0, 0, 128 * 1024, "backoff", "backoff", false),
                settings.mediaDriver().describe());
        assertNull(settings.mediaDriver().directory());
    }

    @Test
    void theLowLatencyProfileIsSeed004sTunedMediaDriver() {
        AeronSettings settings = AeronConfigParser.parse("aeron.yaml", "profile: low-latency\n");
        assertEquals(
                expected(
                        "DEDICATED",
                        16 * 1024 * 1024,
                        8 * 1024,
                        2 * 1024 * 1024,
                        2 * 1024 * 1024,
                        2 * 1024 * 1024,
                        "spin",
                        "noop",
                        false),
                settings.mediaDriver().describe());
    }

    @Test
    void aKeyInTheMediaDriverBlockOverridesItsProfile() {
        AeronSettings settings = AeronConfigParser.parse(
                "aeron.yaml", "profile: low-latency\nmediaDriver:\n  mtuLength: 4096\n  senderIdleStrategy: yield\n");
        Map<String, Object> want = expected(
                "DEDICATED",
                16 * 1024 * 1024,
                4096,
                2 * 1024 * 1024,
                2 * 1024 * 1024,
                2 * 1024 * 1024,
                "spin",
                "noop",
                false);
        want.put("senderIdleStrategy", "yield");
        assertEquals(want, settings.mediaDriver().describe());
    }

    private static Map<String, Object> expected(
            String threading,
            int term,
            int mtu,
            int sndbuf,
            int rcvbuf,
            int window,
            String conductorIdle,
            String otherIdle,
            boolean sparse) {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("threadingMode", threading);
        out.put("termBufferLength", term);
        out.put("mtuLength", mtu);
        out.put("socketSndbufLength", sndbuf);
        out.put("socketRcvbufLength", rcvbuf);
        out.put("initialWindowLength", window);
        out.put("conductorIdleStrategy", conductorIdle);
        out.put("senderIdleStrategy", otherIdle);
        out.put("receiverIdleStrategy", otherIdle);
        out.put("sharedIdleStrategy", otherIdle);
        out.put("termBufferSparseFile", sparse);
        return out;
    }
}
