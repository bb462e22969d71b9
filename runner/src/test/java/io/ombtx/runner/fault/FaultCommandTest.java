package io.ombtx.runner.fault;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Optional;
import org.junit.jupiter.api.Test;

class FaultCommandTest {

    @Test
    void placeholdersAreFilledIn() {
        FaultCommand command = new FaultCommand("ssh {host} sudo omb-tx-fault {action} # {broker} {port}");
        assertEquals("ssh 10.0.0.2 sudo omb-tx-fault kill # 2 9092", command.render("kill", 2, "10.0.0.2", 9092));
    }

    @Test
    void aTemplateMustSayWhatAndWhere() {
        assertEquals(Optional.empty(), FaultCommand.problem("ssh {host} x {action}"));
        assertEquals(Optional.empty(), FaultCommand.problem("k8s-kill broker-{broker} {action}"));
        assertTrue(FaultCommand.problem("ssh {hots} x {action}").orElseThrow().contains("did you mean {host}"));
        assertTrue(FaultCommand.problem("ssh {host} x").orElseThrow().contains("{action}"));
        assertTrue(FaultCommand.problem("x {action}").orElseThrow().contains("{host}"));
        assertTrue(FaultCommand.problem(" ").isPresent());
    }

    @Test
    void aHostThatIsNotAPlainNameIsRefused() {
        assertThrows(IllegalArgumentException.class, () -> new FaultCommand("ssh {host} {action}")
                .render("kill", 1, "h; rm -rf /", 9092));
    }
}
