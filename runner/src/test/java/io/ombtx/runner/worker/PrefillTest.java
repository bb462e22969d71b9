package io.ombtx.runner.worker;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.ombtx.driver.api.OperationSpec;
import io.ombtx.runner.testdriver.SendLogDriver;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A prefilled source is sent as unconsumed for end-to-end latency (a prefilled record's would be the time since the
 * prefill): through a driver's call-back send with {@code consumed} false, so the driver leaves out what it adds only
 * for that; a producer of OMB's SPI alone gets OMB's {@code sendAsync}.
 */
class PrefillTest {

    @Test
    void aCallBackProducerIsPrefilledUnconsumedAndUnkeyed() throws Exception {
        SendLogDriver driver = SendLogDriver.withCallbacks();
        prefill(driver, 250);
        List<SendLogDriver.CallbackSend> sent = List.copyOf(driver.callbackSends);
        assertEquals(250, sent.size(), "every prefilled record sent once");
        assertEquals(
                List.of(new SendLogDriver.CallbackSend(null, false, 6)),
                sent.stream().distinct().toList());
        assertEquals(0, driver.sends.size(), "none through OMB's sendAsync");
    }

    @Test
    void anOmbOnlyProducerIsPrefilledThroughSendAsync() throws Exception {
        SendLogDriver driver = new SendLogDriver();
        prefill(driver, 40);
        assertEquals(40, driver.sends.size());
        assertEquals(0, driver.callbackSends.size());
    }

    private static void prefill(SendLogDriver driver, long messages) throws Exception {
        try (LocalWorker worker = new LocalWorker(driverClass -> driver)) {
            worker.initializeDriver("driverClass: " + SendLogDriver.class.getName() + "\n", OperationSpec.publish());
            worker.createProducers(worker.createTopics(1, 1));
            worker.prefill(messages, new byte[6]);
        }
    }
}
