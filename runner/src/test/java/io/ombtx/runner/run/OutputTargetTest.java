package io.ombtx.runner.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ombtx.runner.config.UsageException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class OutputTargetTest {

    @TempDir
    Path dir;

    @Test
    void namesTheFolderAFileGoesIn() {
        assertEquals(Path.of("results"), OutputTarget.of(null).folder());
        OutputTarget file = OutputTarget.of(dir.resolve("x").resolve("r.json"));
        assertEquals(dir.resolve("x"), file.folder());
        assertEquals(dir.resolve("x").resolve("r.json"), file.file());
        assertEquals(null, OutputTarget.of(dir.resolve("out")).file());
    }

    @Test
    void aRealCheckCreatesTheFolderADryOneDoesNot() {
        Path out = dir.resolve("p").resolve("q");
        OutputTarget.of(out).check(false);
        assertFalse(Files.exists(dir.resolve("p")));
        OutputTarget.of(out.resolve("r.json")).check(true);
        assertTrue(Files.isDirectory(out));
    }

    @Test
    void aFileWhereAFolderIsNeededIsNamed() throws Exception {
        Path file = Files.writeString(dir.resolve("f"), "x");
        UsageException e = assertThrows(
                UsageException.class, () -> OutputTarget.of(file.resolve("a/b")).check(false));
        assertTrue(e.getMessage().contains(file.toString()) && e.getMessage().contains("is a file"), e.getMessage());
        assertThrows(UsageException.class, () -> OutputTarget.of(file).check(true));
    }

    /** A named result file that exists is refused before the run, dry or real: it would not be the run's result. */
    @Test
    void aNamedFileThatExistsIsRefusedBeforeTheRun() throws Exception {
        Path old = Files.writeString(dir.resolve("r.json"), "{}");
        for (boolean create : new boolean[] {false, true}) {
            UsageException e = assertThrows(
                    UsageException.class, () -> OutputTarget.of(old).check(create));
            assertEquals(
                    "output " + old + ": exists, and a result never replaces another: remove it, or name a new file or"
                            + " a folder (where each run gets a new name)",
                    e.getMessage());
        }
        assertEquals("{}", Files.readString(old));
        OutputTarget.of(dir.resolve("new.json")).check(true);
        OutputTarget.of(dir).check(true); // a folder that holds results takes more
    }

    /** Works as root too: nobody can create files in /proc. */
    @Test
    void aFolderNobodyCanWriteIsFoundBeforeTheRun() {
        Path proc = Path.of("/proc");
        org.junit.jupiter.api.Assumptions.assumeTrue(Files.isDirectory(proc.resolve("self")), "Linux /proc");
        UsageException e =
                assertThrows(UsageException.class, () -> OutputTarget.of(proc).check(true));
        assertTrue(e.getMessage().startsWith("output /proc: the output folder is not writable ("), e.getMessage());
        e = assertThrows(UsageException.class, () -> OutputTarget.of(proc.resolve("omb-tx/r.json"))
                .check(true));
        assertTrue(e.getMessage().startsWith("output /proc/omb-tx: cannot create the output folder ("), e.getMessage());
    }
}
