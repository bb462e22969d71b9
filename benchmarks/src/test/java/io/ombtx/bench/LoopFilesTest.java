package io.ombtx.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;

import io.ombtx.driver.api.LoopListener;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.ServiceLoader;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LoopFilesTest {

    @Test
    void theBenchmarksJarProvidesItButAJvmAskedForNoFileHearsNothing() {
        List<String> providers = ServiceLoader.load(LoopListener.class).stream()
                .map(provider -> provider.type().getName())
                .toList();
        assertEquals(List.of(LoopFiles.class.getName()), providers);
        assertFalse(new LoopFiles().listening());
        assertSame(LoopListener.NONE, LoopListener.INSTALLED);
        assertFalse(LoopListener.ON);
    }

    @Test
    void aJvmGivenBothFilesWritesEveryGapAndPauseInOrderWhenItExits(@TempDir Path dir) throws Exception {
        Path gaps = dir.resolve("gaps");
        Path pauses = dir.resolve("pauses");
        Process jvm = new ProcessBuilder(
                        Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                        "-Xmx64m",
                        "-D" + LoopFiles.GAPS + "=" + gaps,
                        "-D" + LoopFiles.PAUSES + "=" + pauses,
                        "-cp",
                        System.getProperty("java.class.path"),
                        Child.class.getName())
                .inheritIO()
                .start();
        assertEquals(true, jvm.waitFor(60, TimeUnit.SECONDS));
        assertEquals(0, jvm.exitValue());
        assertEquals(List.of("3", "1", "2"), Files.readAllLines(gaps));
        assertEquals(List.of("500"), Files.readAllLines(pauses));
    }

    /** What the child JVM runs: the driver's calls, through the installed listener. */
    static final class Child {
        public static void main(String[] args) {
            if (!LoopListener.ON || !(LoopListener.INSTALLED instanceof LoopFiles)) {
                throw new IllegalStateException("not installed: " + LoopListener.INSTALLED);
            }
            LoopListener.INSTALLED.gap(3);
            LoopListener.INSTALLED.gap(1);
            LoopListener.INSTALLED.paused(500);
            LoopListener.INSTALLED.gap(2);
        }
    }
}
