package io.ombtx.broker;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedDeque;

/** Ports on the loopback interface, where every embedded broker and ZooKeeper listens. */
final class LoopbackPorts {

    static final String LOOPBACK = "127.0.0.1";

    private LoopbackPorts() {}

    /**
     * Ports {@link #freePorts} hands out before asking the kernel, whether free or not: a test's way to give a broker
     * a port that is already taken. Empty outside tests.
     */
    static final Deque<Integer> HANDED_OUT_FIRST = new ConcurrentLinkedDeque<>();

    /**
     * {@code count} distinct free loopback ports, none of them in {@code avoid}: every socket stays bound until
     * all are chosen, so the kernel cannot hand the same port out twice.
     */
    static int[] freePorts(int count, int... avoid) throws IOException {
        List<ServerSocket> held = new ArrayList<>();
        try {
            int[] ports = new int[count];
            int found = 0;
            for (Integer given; found < count && (given = HANDED_OUT_FIRST.poll()) != null; ) {
                ports[found++] = given;
            }
            while (found < count) {
                ServerSocket socket = new ServerSocket(0, 1, InetAddress.getByName(LOOPBACK));
                held.add(socket);
                int port = socket.getLocalPort();
                if (Arrays.stream(avoid).noneMatch(a -> a == port)) {
                    ports[found++] = port;
                }
            }
            return ports;
        } finally {
            for (ServerSocket socket : held) {
                socket.close();
            }
        }
    }

    /** Whether something accepts connections on {@code port} (within a second). */
    static boolean listening(int port) {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress(LOOPBACK, port), 1000);
            return true;
        } catch (IOException notYet) {
            return false;
        }
    }
}
