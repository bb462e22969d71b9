package io.ombtx.driver.aeron;

import io.aeron.driver.ThreadingMode;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Everything the Aeron driver takes from its YAML, resolved: the transport, the embedded media driver's settings
 * (the profile's, with the YAML's overrides), how subscribers poll and how a publisher meets back-pressure.
 *
 * @param transport IPC (shared memory in one media driver) or UDP
 * @param udpHost the UDP endpoint's host (UDP only)
 * @param udpPort the UDP endpoint's port; 0 means a free port chosen at initialize (one process only)
 * @param profile the profile the media driver settings started from
 * @param mediaDriver the media driver's settings in force
 * @param subscriberIdle what a subscriber's poll thread does when a poll found nothing
 * @param fragmentLimit the most fragments one poll hands over
 * @param offerTimeoutMillis how long a send keeps offering while Aeron answers BACK_PRESSURED, NOT_CONNECTED or
 *     ADMIN_ACTION before it fails (counted, and reported to the runner as a failed send)
 * @param offerRetryIdle what a publisher does between two offers of the same message
 */
public record AeronSettings(
        Transport transport,
        String udpHost,
        int udpPort,
        AeronProfile profile,
        MediaDriverSettings mediaDriver,
        IdleStrategyName subscriberIdle,
        int fragmentLimit,
        long offerTimeoutMillis,
        IdleStrategyName offerRetryIdle) {

    public enum Transport {
        IPC,
        UDP
    }

    /**
     * The embedded media driver's settings.
     *
     * @param directory the folder the media driver's temporary folder is made in; null: /dev/shm when it exists,
     *     else the system's temporary folder
     * @param termBufferLength term length of UDP and IPC publications, bytes (a power of two, 64 KiB to 1 GiB)
     * @param mtuLength the largest frame, bytes (UDP and IPC)
     */
    public record MediaDriverSettings(
            Path directory,
            ThreadingMode threadingMode,
            int termBufferLength,
            int mtuLength,
            int socketSndbufLength,
            int socketRcvbufLength,
            int initialWindowLength,
            IdleStrategyName conductorIdle,
            IdleStrategyName senderIdle,
            IdleStrategyName receiverIdle,
            IdleStrategyName sharedIdle,
            boolean termBufferSparseFile) {

        /** For the result's environment: every setting by its YAML key (socket buffers: 0 = the OS default). */
        public Map<String, Object> describe() {
            Map<String, Object> out = new LinkedHashMap<>();
            out.put("threadingMode", threadingMode.name());
            out.put("termBufferLength", termBufferLength);
            out.put("mtuLength", mtuLength);
            out.put("socketSndbufLength", socketSndbufLength);
            out.put("socketRcvbufLength", socketRcvbufLength);
            out.put("initialWindowLength", initialWindowLength);
            out.put("conductorIdleStrategy", conductorIdle.key());
            out.put("senderIdleStrategy", senderIdle.key());
            out.put("receiverIdleStrategy", receiverIdle.key());
            out.put("sharedIdleStrategy", sharedIdle.key());
            out.put("termBufferSparseFile", termBufferSparseFile);
            return out;
        }
    }

    /** The Aeron channel every topic of this driver is a stream of. */
    public String channel() {
        return transport == Transport.IPC ? "aeron:ipc" : "aeron:udp?endpoint=" + udpHost + ":" + udpPort;
    }

    public AeronSettings withUdpPort(int port) {
        return new AeronSettings(
                transport,
                udpHost,
                port,
                profile,
                mediaDriver,
                subscriberIdle,
                fragmentLimit,
                offerTimeoutMillis,
                offerRetryIdle);
    }
}
