package io.ombtx.runner.fault;

import io.ombtx.runner.config.FaultAction;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

/** Faults on an external cluster through the {@code --fault-command} hook, run with {@code /bin/sh -c}. */
public final class CommandBrokerControl implements BrokerControl {

    private static final int OUTPUT_KEPT = 2000;

    private final FaultCommand command;
    private final Duration timeout;

    public CommandBrokerControl(FaultCommand command, Duration timeout) {
        this.command = command;
        this.timeout = timeout;
    }

    @Override
    public void inject(FaultAction action, Broker broker) throws Exception {
        run(action.key(), broker);
    }

    @Override
    public void recover(FaultAction action, Broker broker) throws Exception {
        run(action.recovery().key(), broker);
    }

    @Override
    public String describe() {
        return "--fault-command";
    }

    private void run(String action, Broker broker) throws IOException, InterruptedException {
        String line = command.render(action, broker.nodeId(), broker.host(), broker.port());
        Process process = new ProcessBuilder("/bin/sh", "-c", line)
                .redirectErrorStream(true)
                .start();
        process.getOutputStream().close();
        ByteArrayOutputStream output = new ByteArrayOutputStream();
        Thread reader = new Thread(() -> keepTail(process.getInputStream(), output), "fault-command-output");
        reader.setDaemon(true);
        reader.start();
        if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
            process.destroyForcibly();
            throw new IOException(
                    "the fault command '" + line + "' did not finish within " + timeout.toSeconds() + " s");
        }
        reader.join(1000);
        if (process.exitValue() != 0) {
            String text;
            synchronized (output) {
                text = output.toString(StandardCharsets.UTF_8).trim();
            }
            throw new IOException("the fault command '" + line + "' exited with " + process.exitValue()
                    + (text.isEmpty() ? "" : ": " + text.replaceAll("\\s+", " ")));
        }
    }

    private static void keepTail(InputStream in, ByteArrayOutputStream output) {
        byte[] buffer = new byte[512];
        try {
            for (int n; (n = in.read(buffer)) >= 0; ) {
                synchronized (output) {
                    if (output.size() < OUTPUT_KEPT) {
                        output.write(buffer, 0, Math.min(n, OUTPUT_KEPT - output.size()));
                    }
                }
            }
        } catch (IOException ignored) {
            // The process went away.
        }
    }
}
