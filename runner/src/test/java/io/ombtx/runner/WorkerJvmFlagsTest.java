package io.ombtx.runner;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The flags of the worker JVM that runs another client release: the runner's own, as bin/lib gave them. */
class WorkerJvmFlagsTest {

    @Test
    void withoutOmbtxJavaOptsTheWorkerGetsTheLaunchersDefaults() {
        List<String> defaults = List.of("-Xms512m", "-Xmx2g", "-XX:+UseG1GC");
        assertEquals(defaults, Main.workerJvmFlags(null));
        assertEquals(defaults, Main.workerJvmFlags(" \t"));
    }

    @Test
    void ombtxJavaOptsReachTheWorkerSplitAsTheShellSplitsThem() {
        assertEquals(
                List.of("-Xmx4g", "-XX:TieredStopAtLevel=1", "-Dombtx.loopGapFile=/tmp/run.json.gaps"),
                Main.workerJvmFlags("  -Xmx4g \t-XX:TieredStopAtLevel=1\n -Dombtx.loopGapFile=/tmp/run.json.gaps "));
    }
}
