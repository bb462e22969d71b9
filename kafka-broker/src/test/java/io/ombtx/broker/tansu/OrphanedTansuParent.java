package io.ombtx.broker.tansu;

import java.util.stream.Collectors;

/**
 * Not a test: a parent process for {@link EmbeddedTansuLifetimeTest}. Starts one Tansu broker, prints
 * {@code tansu BOOTSTRAP DIR PID...} (its address, its temporary folder and the processes it runs as) and waits to be
 * killed.
 */
public final class OrphanedTansuParent {

    private OrphanedTansuParent() {}

    public static void main(String[] args) throws Exception {
        EmbeddedTansu tansu = EmbeddedTansu.start(System.err::println);
        System.out.println("tansu " + tansu.bootstrapServers() + " " + tansu.workDir() + " "
                + tansu.processes().stream().map(p -> String.valueOf(p.pid())).collect(Collectors.joining(" ")));
        System.out.flush();
        Thread.sleep(Long.MAX_VALUE);
    }
}
