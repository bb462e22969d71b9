package io.ombtx.broker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.util.Arrays;
import org.junit.jupiter.api.Test;

class FreePortsTest {

    /** CI once got the same port for a broker's client and controller listeners from two back-to-back binds. */
    @Test
    void portsTakenTogetherAreDistinct() throws Exception {
        for (int round = 0; round < 20; round++) {
            int[] ports = LoopbackPorts.freePorts(6);
            assertEquals(6, Arrays.stream(ports).distinct().count());
        }
    }

    @Test
    void aPortToAvoidIsNotHandedOut() throws Exception {
        int avoid = LoopbackPorts.freePorts(1)[0];
        for (int round = 0; round < 20; round++) {
            assertFalse(Arrays.stream(LoopbackPorts.freePorts(4, avoid)).anyMatch(p -> p == avoid));
        }
    }
}
