package io.ombtx.broker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

class ChildJvmTest {

    @Test
    void brokerJvmsGetTheDefaultsUnlessTheEnvironmentNamesOthers() {
        assertEquals(
                List.of("-Xms256m", "-Xmx1g", "-XX:+UseG1GC", "-XX:MaxGCPauseMillis=20"),
                ChildJvm.heapAndCompiler(null));
        assertEquals(ChildJvm.DEFAULTS, ChildJvm.heapAndCompiler(" \t"));
        assertEquals(
                List.of("-Xmx512m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1"),
                ChildJvm.heapAndCompiler(" -Xmx512m\t-XX:+UseSerialGC\n -XX:TieredStopAtLevel=1 "));
    }

    @Test
    void theFlagsComeBeforeTheClassPathAndTheCallersOptionsAfterThem() {
        BrokerClassPath classPath = new BrokerClassPath(Path.of("/k/launcher.jar"), Path.of("/k/lib"), "4.1.1");
        List<String> command = ChildJvm.command(classPath, Path.of("/n"), List.of("-Dx=1"), List.of("Main", "arg"));
        List<String> flags = ChildJvm.heapAndCompiler(System.getenv(ChildJvm.JAVA_OPTS_ENV));
        int first = command.indexOf(flags.get(0));
        int own = command.indexOf("-Dx=1");
        assertTrue(first > 0, command.toString());
        assertEquals(flags, command.subList(first, first + flags.size()));
        assertTrue(first + flags.size() <= own && own < command.indexOf("-cp"), command.toString());
        assertEquals(List.of("Main", "arg"), command.subList(command.size() - 2, command.size()));
    }
}
