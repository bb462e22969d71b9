package io.ombtx.runner;

import java.io.File;
import java.io.OutputStream;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Arrays;
import javax.management.ObjectName;

/**
 * The runner's class-data archive (AppCDS): the classes a real run loads, parsed and verified once and mapped into
 * every later JVM, so that a run starts on about 1.5 s less CPU (measured on the 2-core machine: a 20,000-message
 * saturated run took 3.4 s of process CPU without the archive and 1.9 s with it, three runs each).
 *
 * <p>The bin/ scripts ({@code ombtx_java} in bin/lib/common.sh) name one archive per Java and class path (its
 * jars' names, sizes and times): with it present they start the JVM with {@code -XX:SharedArchiveFile}; without,
 * with {@code -XX:+RecordDynamicDumpInfo} and {@value #PROPERTY} naming where to write it. After the first run that
 * completes, {@link #saveIfAsked()} has this JVM write what it loaded there (Java 17's {@code VM.cds
 * dynamic_dump}, through the platform's diagnostic-command MBean), to a temporary file moved into place, so a
 * concurrent run never maps half an archive. The archive is only a speed-up: any failure leaves the run as it was,
 * and a stale archive (a jar rebuilt since) is refused by the JVM itself and runs without it.
 * {@code OMBTX_CDS=off} turns it off.
 */
public final class ClassDataArchive {

    /** System property: where to write the archive after a complete run (set by bin/lib/common.sh). */
    public static final String PROPERTY = "ombtx.cds.archive";

    private ClassDataArchive() {}

    /**
     * Writes the archive {@value #PROPERTY} names if it is missing and prints {@code written} or {@code not written}:
     * what the bin/ scripts' first complete run does, on its own (a check that this Java and class path can).
     */
    public static void main(String[] args) throws Exception {
        String target = System.getProperty(PROPERTY);
        System.out.println(target != null && save(Path.of(target)) ? "written" : "not written");
    }

    /** Writes the archive {@value #PROPERTY} names, once: when asked, when absent, when the class path allows it. */
    public static void saveIfAsked() {
        String target = System.getProperty(PROPERTY);
        if (target == null || target.isBlank()) {
            return;
        }
        try {
            save(Path.of(target));
        } catch (Exception | LinkageError e) {
            // Only a speed-up: the next run asks again.
        }
    }

    /** True if the archive was written by this call. */
    static boolean save(Path archive) throws Exception {
        if (Files.exists(archive) || !jarsOnly(System.getProperty("java.class.path", ""))) {
            return false;
        }
        Files.createDirectories(archive.toAbsolutePath().getParent());
        Path part = archive.resolveSibling(
                archive.getFileName() + "." + ProcessHandle.current().pid() + ".part");
        Files.deleteIfExists(part);
        PrintStream console = System.out;
        System.setOut(new PrintStream(OutputStream.nullOutputStream())); // Java 17 prints "Dynamic dump to file ..."
        try {
            ManagementFactory.getPlatformMBeanServer()
                    .invoke(
                            new ObjectName("com.sun.management:type=DiagnosticCommand"),
                            "vmCds",
                            new Object[] {new String[] {"dynamic_dump", part.toString()}},
                            new String[] {String[].class.getName()});
        } finally {
            System.setOut(console);
        }
        if (!Files.isRegularFile(part) || Files.size(part) == 0) {
            Files.deleteIfExists(part);
            return false;
        }
        Files.move(part, archive, StandardCopyOption.ATOMIC_MOVE);
        return true;
    }

    /**
     * Whether every class-path entry is a jar file: Java 17 ends the JVM with an error when it dumps an archive
     * while a directory is on the class path (a user's {@code OMBTX_CLASSPATH}, a test's target/classes).
     */
    static boolean jarsOnly(String classPath) {
        return !classPath.isEmpty()
                && Arrays.stream(classPath.split(File.pathSeparator))
                        .allMatch(entry -> entry.endsWith(".jar") && Files.isRegularFile(Path.of(entry)));
    }
}
