package io.ombtx.runner;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** bin/benchmark-worker's {@code --extra-classpath}: the script puts the entries on the class path, the worker checks. */
class WorkerMainTest {

    @TempDir
    Path dir;

    @Test
    void entriesAlreadyOnTheClassPathAreAccepted() {
        String first = System.getProperty("java.class.path").split(File.pathSeparator)[0];
        assertNull(WorkerMain.extraClasspathProblem(List.of(first)));
        assertNull(WorkerMain.extraClasspathProblem(List.of()));
    }

    @Test
    void aMissingJarOrFolderIsNamed() {
        String jar = dir.resolve("driver-kafka.jar").toString();
        assertEquals(jar + ": no such file or folder", WorkerMain.extraClasspathProblem(List.of(jar)));
        String lib = dir.resolve("lib") + "/*";
        assertEquals(lib + ": no such folder", WorkerMain.extraClasspathProblem(List.of(lib)));
    }

    @Test
    void anEntryTheJvmWasNotStartedWithSaysHowToAddIt() throws Exception {
        Path jar = Files.createFile(dir.resolve("driver-kafka.jar"));
        assertEquals(
                jar + ": not on the class path; start the worker with bin/benchmark-worker, which adds it (or,"
                        + " running java yourself, add it to -cp)",
                WorkerMain.extraClasspathProblem(List.of(jar.toString())));
    }
}
