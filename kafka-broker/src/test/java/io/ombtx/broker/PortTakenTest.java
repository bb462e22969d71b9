package io.ombtx.broker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.Map;
import org.apache.kafka.clients.admin.Admin;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * A port chosen free for a broker and bound by another process before the broker binds it: the broker exits with
 * "Address already in use", and the cluster starts again on other ports (four test JVMs starting brokers side by
 * side hit it once in a full run).
 */
@Tag("integration")
class PortTakenTest {

    @Test
    void aClusterWhosePortWasTakenStartsAgainOnOtherPorts() throws Exception {
        try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getByName(LoopbackPorts.LOOPBACK))) {
            int port = taken.getLocalPort();
            LoopbackPorts.HANDED_OUT_FIRST.add(port); // broker 1's client listener, on the first attempt
            try (EmbeddedKafkaCluster cluster =
                    EmbeddedKafkaCluster.builder().brokers(1).start()) {
                assertFalse(
                        cluster.bootstrapServers().endsWith(":" + port),
                        cluster.bootstrapServers() + " is the port taken");
                try (Admin admin = Admin.create(Map.of("bootstrap.servers", cluster.bootstrapServers()))) {
                    assertEquals(1, admin.describeCluster().nodes().get().size());
                }
            } finally {
                LoopbackPorts.HANDED_OUT_FIRST.clear();
            }
        }
    }
}
