package io.ombtx.broker;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

/**
 * How one embedded broker process was started: its node id, its full command line and where its output goes. A
 * restart after a fault runs exactly this again, so it comes back on the same ports with the same data, whatever
 * command the cluster chose for its broker version.
 *
 * @param nodeId the broker's node id
 * @param command the command line, as started the first time
 * @param output the file its standard output and error go to (appended to on a restart)
 */
record BrokerLaunch(int nodeId, List<String> command, Path output) {

    BrokerLaunch {
        command = List.copyOf(command);
    }

    /**
     * Starts the process; its standard input is a pipe the cluster holds open (the broker exits when it closes).
     *
     * @param append whether to add to the output file rather than start it afresh
     */
    Process start(boolean append) throws IOException {
        return new ProcessBuilder(command)
                .redirectErrorStream(true)
                .redirectOutput(
                        append
                                ? ProcessBuilder.Redirect.appendTo(output.toFile())
                                : ProcessBuilder.Redirect.to(output.toFile()))
                .redirectInput(ProcessBuilder.Redirect.PIPE)
                .start();
    }
}
