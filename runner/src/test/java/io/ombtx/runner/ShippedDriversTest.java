package io.ombtx.runner;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ombtx.driver.api.config.ConfigException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code -d} names a shipped driver from any folder: by path in the checkout, file name, module or name:. */
class ShippedDriversTest {

    private static final Path HOME = OmbTxHome.locate();

    @Test
    void aShippedDriverIsFoundByItsFileNameItsModuleOrItsPathInTheCheckout() {
        Path redpanda = HOME.resolve("driver-redpanda-tx/redpanda-tx.yaml");
        for (String name : new String[] {
            "redpanda-tx.yaml",
            "redpanda-tx",
            "driver-redpanda-tx.yaml",
            "driver-redpanda-tx",
            "driver-redpanda-tx/redpanda-tx.yaml"
        }) {
            assertEquals(redpanda, ShippedDrivers.resolve(Path.of(name)), name);
        }
    }

    @Test
    void aNameSharedByNoOtherFileFindsItsFile() {
        assertEquals(
                HOME.resolve("driver-kafka-tx/kafka-tx-rf3.yaml"), ShippedDrivers.resolve(Path.of("kafka-tx-rf3")));
    }

    @Test
    void anExistingFileIsAlwaysWhatItNames(@TempDir Path dir) throws Exception {
        Path mine = Files.writeString(dir.resolve("redpanda-tx.yaml"), "name: mine\n");
        assertEquals(mine, ShippedDrivers.resolve(mine));
    }

    @Test
    void noMatchIsFileNotFoundWithTheNearestShippedDriver() {
        ConfigException e = assertThrows(ConfigException.class, () -> ShippedDrivers.resolve(Path.of("redpanda-txx")));
        assertEquals(
                "redpanda-txx: file not found; the nearest shipped driver is driver-redpanda-tx/redpanda-tx.yaml"
                        + " (-d redpanda-tx)",
                e.getMessage());
        ConfigException prefix = assertThrows(ConfigException.class, () -> ShippedDrivers.resolve(Path.of("redpanda")));
        assertTrue(prefix.getMessage().endsWith("(-d redpanda-tx)"), prefix.getMessage());
        ConfigException far = assertThrows(ConfigException.class, () -> ShippedDrivers.resolve(Path.of("zzz.yaml")));
        assertTrue(far.getMessage().startsWith("zzz.yaml: file not found; shipped drivers: "), far.getMessage());
        assertTrue(far.getMessage().contains("driver-kafka-tx/kafka-tx.yaml"), far.getMessage());
    }
}
