package io.ombtx.runner.kafka;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ombtx.runner.cli.Cli;
import io.ombtx.runner.config.ClusterProfile;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** bin/kafka-local start's command line (the script passes --state): help, typed values, one-line errors. */
class KafkaLocalMainTest {

    record Outcome(int code, String out, String err) {}

    private static Outcome parse(String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code = Cli.parse(
                        new KafkaLocalMain.Options(),
                        args,
                        new PrintStream(out, true, StandardCharsets.UTF_8),
                        new PrintStream(err, true, StandardCharsets.UTF_8))
                .orElse(-1);
        return new Outcome(code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    private static void assertOneLineError(Outcome o, String... fragments) {
        assertEquals(2, o.code(), o.err());
        assertEquals("", o.out(), "no usage dump");
        assertTrue(o.err().startsWith("error: "), o.err());
        assertEquals(1, o.err().strip().lines().count(), "one line: " + o.err());
        for (String fragment : fragments) {
            assertTrue(o.err().contains(fragment), "expected '" + fragment + "' in: " + o.err());
        }
    }

    @Test
    void helpListsTheBrokerOptionsButNotTheScriptsOwnState() {
        Outcome help = parse("--state", "s.json", "--help");
        assertEquals(0, help.code(), help.err());
        assertEquals("", help.err());
        assertTrue(help.out().startsWith("Usage: bin/kafka-local start"), help.out());
        for (String option : new String[] {"--brokers", "--broker-profile", "--broker-config"}) {
            assertTrue(help.out().contains(option), option + " in:\n" + help.out());
        }
        assertFalse(help.out().contains("--state"), "the script passes --state itself");
    }

    @Test
    void badInputIsOneLineWithExitCode2() {
        assertOneLineError(
                parse("--state", "s.json", "--brokers", "10"), "--brokers expects a whole number from 1 to 9");
        assertOneLineError(parse("--state", "s.json", "--broker-config", "x"), "--broker-config expects KEY=VALUE");
        assertOneLineError(parse("--brokers", "3"), "--state FILE is required");
        assertOneLineError(
                parse("--state", "s.json", "--brokr", "3"), "unknown option --brokr", "did you mean --brokers?");
    }

    @Test
    void tansuRefusesWhatItDoesNotHaveNamingTheFlag() {
        String[][] cases = {
            {"--brokers", "3"},
            {"--broker-profile", "max-consistency"},
            {"--broker-config", "a=1"},
            {"--broker-version", "3.9.1"},
            {"--transaction-version", "2"}
        };
        for (String[] flags : cases) {
            KafkaLocalMain.Options options = new KafkaLocalMain.Options();
            String[] args = new String[flags.length + 4];
            args[0] = "--state";
            args[1] = "s.json";
            args[2] = "--broker-system";
            args[3] = "tansu";
            System.arraycopy(flags, 0, args, 4, flags.length);
            Cli.parse(options, args);
            String problem = KafkaLocalMain.tansuProblem(options.broker);
            assertTrue(problem != null && problem.startsWith(flags[0] + " ") && problem.contains("Tansu"), problem);
        }
        KafkaLocalMain.Options plain = new KafkaLocalMain.Options();
        Cli.parse(plain, new String[] {"--state", "s.json", "--broker-system", "tansu", "--brokers", "1"});
        assertEquals(null, KafkaLocalMain.tansuProblem(plain.broker));
    }

    @Test
    void optionsAreReadTypedAndALaterBrokerConfigWins() {
        KafkaLocalMain.Options options = new KafkaLocalMain.Options();
        Cli.parse(options, new String[] {
            "--state",
            "s.json",
            "--brokers",
            "3",
            "--broker-profile",
            "default",
            "--broker-config",
            "a=1",
            "--broker-config",
            "a=2"
        });
        assertEquals(Path.of("s.json"), options.state);
        assertEquals(3, options.broker.brokers());
        assertEquals(ClusterProfile.DEFAULT, options.broker.profile());
        assertEquals(Map.of("a", "2"), options.broker.settings());
    }
}
