package io.ombtx.runner.kafka;

import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;

/**
 * A plaintext connection of its own to one broker, for the probes that read what the broker answers on the wire
 * ({@link BrokerIdentity}'s ApiVersions, {@link ProducerProbe}'s FindCoordinator and InitProducerId): request header
 * v1 (API key, version, correlation id, client id) and response header v0 (correlation id), or for a flexible version
 * header v2 and v1 (the same, then tagged fields); bodies written and read by the caller with {@link DataOutputStream}
 * and {@link DataInputStream}.
 */
final class KafkaWire implements AutoCloseable {

    static final int SOCKET_TIMEOUT_MS = 10_000;
    private static final byte[] CLIENT_ID = "omb-tx-identity".getBytes(StandardCharsets.UTF_8);

    private final Socket socket;
    private final DataOutputStream out;
    private final DataInputStream in;
    private int correlation;

    private KafkaWire(Socket socket) throws IOException {
        this.socket = socket;
        this.out = new DataOutputStream(socket.getOutputStream());
        this.in = new DataInputStream(socket.getInputStream());
    }

    static KafkaWire connect(String host, int port) throws IOException {
        Socket socket = new Socket();
        try {
            socket.connect(new InetSocketAddress(host, port), SOCKET_TIMEOUT_MS);
            socket.setSoTimeout(SOCKET_TIMEOUT_MS);
            return new KafkaWire(socket);
        } catch (IOException e) {
            socket.close();
            throw e;
        }
    }

    /** The body a request writes after its header. */
    interface Body {
        void write(DataOutputStream body) throws IOException;
    }

    /**
     * Sends request {@code apiKey} v{@code version} with {@code body} and returns its answer's body, after checking
     * the answer's size and that it answers this request.
     */
    DataInputStream call(int apiKey, int version, Body body) throws IOException {
        return call(apiKey, version, false, body);
    }

    /**
     * As {@link #call(int, int, Body)}, for a flexible version when {@code flexible}: request header v2 and response
     * header v1, which end in tagged fields (none sent; those answered are skipped).
     */
    DataInputStream call(int apiKey, int version, boolean flexible, Body body) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        DataOutputStream request = new DataOutputStream(bytes);
        int id = ++correlation;
        request.writeShort(apiKey);
        request.writeShort(version);
        request.writeInt(id);
        request.writeShort(CLIENT_ID.length);
        request.write(CLIENT_ID);
        if (flexible) {
            request.writeByte(0); // no tagged fields
        }
        body.write(request);
        request.flush();
        out.writeInt(bytes.size());
        bytes.writeTo(out);
        out.flush();
        int size = in.readInt();
        if (size < 4 || size > 1 << 20) {
            throw new IOException("an answer of " + size + " bytes to API " + apiKey + " is not Kafka's");
        }
        byte[] answer = new byte[size];
        in.readFully(answer);
        DataInputStream read = new DataInputStream(new java.io.ByteArrayInputStream(answer));
        int answered = read.readInt();
        if (answered != id) {
            throw new IOException("answer to another request (correlation id " + answered + ", not " + id + ")");
        }
        if (flexible) {
            skipTaggedFields(read);
        }
        return read;
    }

    /** A flexible version's tagged fields: their count, then each one's tag, size and bytes. */
    static void skipTaggedFields(DataInputStream in) throws IOException {
        int count = readUnsignedVarint(in);
        for (int i = 0; i < count; i++) {
            readUnsignedVarint(in);
            in.skipNBytes(readUnsignedVarint(in));
        }
    }

    private static int readUnsignedVarint(DataInputStream in) throws IOException {
        try {
            return unsignedVarint(in::readUnsignedByte);
        } catch (IllegalArgumentException e) {
            throw new IOException(e.getMessage());
        }
    }

    /** Where an unsigned varint's bytes come from, one at a time (0..255). */
    interface ByteSource<E extends Exception> {
        int next() throws E;
    }

    /** An UNSIGNED_VARINT: 7 bits a byte, low first, the high bit set on all but the last; at most 5 bytes. */
    static <E extends Exception> int unsignedVarint(ByteSource<E> bytes) throws E {
        int value = 0;
        for (int shift = 0; shift < 35; shift += 7) {
            int b = bytes.next();
            value |= (b & 0x7f) << shift;
            if ((b & 0x80) == 0) {
                return value;
            }
        }
        throw new IllegalArgumentException("a varint longer than 5 bytes");
    }

    /** A COMPACT_NULLABLE_STRING: its length + 1 as an unsigned varint (0: null), then UTF-8 bytes. */
    static void writeCompactString(DataOutputStream out, String value) throws IOException {
        if (value == null) {
            out.writeByte(0);
            return;
        }
        byte[] bytes = value.getBytes(StandardCharsets.UTF_8);
        int length = bytes.length + 1;
        while ((length & ~0x7f) != 0) {
            out.writeByte((length & 0x7f) | 0x80);
            length >>>= 7;
        }
        out.writeByte(length);
        out.write(bytes);
    }

    /** A STRING or NULLABLE_STRING: its length (-1: null), then UTF-8 bytes. */
    static void writeString(DataOutputStream out, String value) throws IOException {
        if (value == null) {
            out.writeShort(-1);
            return;
        }
        byte[] bytes = value.getBytes(StandardCharsets.UTF_8);
        out.writeShort(bytes.length);
        out.write(bytes);
    }

    /** A STRING or NULLABLE_STRING (null for length -1). */
    static String readString(DataInputStream in) throws IOException {
        int length = in.readShort();
        if (length < 0) {
            return null;
        }
        byte[] bytes = new byte[length];
        in.readFully(bytes);
        return new String(bytes, StandardCharsets.UTF_8);
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}
