package io.ombtx.runner.worker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ombtx.driver.api.OperationSpec;
import io.ombtx.runner.testdriver.FileObservingDriver;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.attribute.PosixFilePermissions;
import org.junit.jupiter.api.Test;

/** The driver YAML copy a LocalWorker hands its driver holds secrets: owner-only, and gone once read. */
class LocalWorkerDriverFileTest {

    private static final String YAML = "name: t\ndriverClass: " + FileObservingDriver.class.getName()
            + "\ncommonConfig: |\n  ssl.keystore.password=TopSecret\n";

    @Test
    void theCopyIsOwnerOnlyAndDeletedAsSoonAsTheDriverHasReadIt() throws Exception {
        FileObservingDriver driver = new FileObservingDriver();
        LocalWorker worker = new LocalWorker(driverClass -> driver);
        try {
            worker.initializeDriver(YAML, OperationSpec.publish());
            assertTrue(driver.seenText.contains("TopSecret"), "the driver read the configuration");
            assertFalse(Files.exists(driver.seenFile), "deleted right after initialize");
            if (driver.seenPermissions != null) {
                assertEquals("rw-------", PosixFilePermissions.toString(driver.seenPermissions));
            }
        } finally {
            worker.close();
        }
    }

    @Test
    void theCopyIsDeletedWhenInitializeFails() {
        FileObservingDriver driver = new FileObservingDriver();
        LocalWorker worker = new LocalWorker(driverClass -> driver);
        try {
            assertThrows(
                    IOException.class, () -> worker.initializeDriver(YAML + "fail: true\n", OperationSpec.publish()));
            assertEquals(YAML + "fail: true\n", driver.seenText, "the driver read the copy");
            assertFalse(Files.exists(driver.seenFile));
        } finally {
            worker.close();
        }
    }
}
