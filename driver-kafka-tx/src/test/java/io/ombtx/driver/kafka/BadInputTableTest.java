package io.ombtx.driver.kafka;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ombtx.runner.Main;
import io.ombtx.runner.SuiteMain;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every kind of bad input, one row each: the files a user wrote, the command line, and what the one-line error must
 * name. Every row exits 2 with exactly one {@code error: } line naming the user's file and the key or flag, no
 * exception and no stack trace, no usage dump, and no broker started — in dry runs and real runs alike.
 */
class BadInputTableTest {

    @TempDir
    Path dir;

    /** In file contents, arguments and expected fragments, {@code {dir}} stands for the case's temporary folder. */
    private static final String DIR = "{dir}";

    private static final String KAFKA = "driverClass: io.ombtx.driver.kafka.KafkaTxBenchmarkDriver\n";
    private static final String DRIVER = "name: k\n" + KAFKA;
    private static final String WORKLOAD = "name: w\nmessageSize: 100\nmeasureOperations: 5\n";
    private static final String BROKER_FOLDER_PREFIX = "omb-tx-kafka-";

    enum Entry {
        BENCHMARK,
        SUITE
    }

    /**
     * A file ending in "/" is a folder; a value of {@code bytes:N} is N bytes, one of {@code latin1:TEXT} the text
     * saved as ISO-8859-1.
     */
    record Case(String name, Map<String, String> files, Entry entry, List<String> args, List<String> mustName) {
        @Override
        public String toString() {
            return name;
        }
    }

    private static final class Table {
        final List<Case> cases = new ArrayList<>();

        /** bin/benchmark -d d.yaml [flags] w.yaml, dry run and real run each. */
        void both(String name, String driver, String workload, List<String> flags, String... mustName) {
            bench(name + " (dry run)", driver, workload, concat(List.of("--dry-run"), flags), mustName);
            bench(name + " (real run)", driver, workload, concat(List.of("-o", DIR + "/results"), flags), mustName);
        }

        void bench(String name, String driver, String workload, List<String> flags, String... mustName) {
            Map<String, String> files = new LinkedHashMap<>();
            files.put("d.yaml", driver);
            files.put("w.yaml", workload);
            List<String> args = new ArrayList<>(List.of("-d", DIR + "/d.yaml"));
            args.addAll(flags);
            args.add(DIR + "/w.yaml");
            cases.add(new Case(name, files, Entry.BENCHMARK, args, List.of(mustName)));
        }

        void raw(String name, Entry entry, Map<String, String> files, List<String> args, String... mustName) {
            cases.add(new Case(name, files, entry, args, List.of(mustName)));
        }

        private static List<String> concat(List<String> a, List<String> b) {
            List<String> all = new ArrayList<>(a);
            all.addAll(b);
            return all;
        }
    }

    static Stream<Arguments> cases() {
        Table t = new Table();
        List<String> none = List.of();
        String w = "w.yaml";
        String d = "d.yaml";

        // workload: unknown keys, at every level
        t.both(
                "workload unknown top-level key",
                DRIVER,
                WORKLOAD + "producerRates: 5\n",
                none,
                w,
                "'producerRates'",
                "did you mean 'producerRate'");
        t.both(
                "workload unknown key in operation",
                DRIVER,
                WORKLOAD + "operation: {kind: WRITE, transactionl: true}\n",
                none,
                w,
                "'operation.transactionl'",
                "did you mean 'transactional'");
        t.bench(
                "workload unknown key in driverOverrides",
                DRIVER,
                WORKLOAD + "driverOverrides: {replicationFactr: 1}\n",
                List.of("--dry-run"),
                w,
                "'driverOverrides.replicationFactr'");
        t.both(
                "workload unknown key in a profile",
                DRIVER,
                WORKLOAD + "profiles: {quick: {measureOps: 1}}\n",
                List.of("--profile", "quick"),
                w,
                "'profiles.quick.measureOps'");
        t.both(
                "workload unknown key inside a chosen profile's block",
                DRIVER,
                WORKLOAD + "profiles: {quick: {operation: {kind: WRITE, transactionl: true}}}\n",
                List.of("--profile", "quick"),
                w,
                "'profiles.quick.operation.transactionl'",
                "did you mean 'transactional'");
        t.both(
                "workload unknown key in a profile not chosen",
                DRIVER,
                WORKLOAD + "profiles: {full: {measureOps: 1}}\n",
                none,
                w,
                "'profiles.full.measureOps'");
        t.bench(
                "workload bad value in a profile not chosen",
                DRIVER,
                WORKLOAD + "profiles: {quick: {measureOperations: 1}, full: {partitionsPerTopic: 0}}\n",
                List.of("--dry-run", "--profile", "quick"),
                w,
                "'profiles.full.partitionsPerTopic'");
        t.bench(
                "workload profile given as a YAML alias, read as the anchored mapping",
                DRIVER,
                WORKLOAD + "profiles:\n  quick: &q {measureOperatons: 1}\n  ci: *q\n",
                List.of("--dry-run", "--profile", "ci"),
                w,
                "'profiles.ci.measureOperatons'",
                "did you mean 'measureOperations'");
        t.both(
                "workload profiles given as a list, no profile chosen",
                DRIVER,
                WORKLOAD + "profiles:\n  - quick\n",
                none,
                w,
                "'profiles'",
                "expected a mapping of profile name to overrides");
        // workload: wrong types and values out of range
        t.bench(
                "workload messageSize not a number",
                DRIVER,
                "name: w\nmessageSize: big\nmeasureOperations: 5\n",
                List.of("--dry-run"),
                w,
                "'messageSize'");
        t.bench(
                "workload operation.transactional not a boolean",
                DRIVER,
                WORKLOAD + "operation: {kind: WRITE, transactional: maybe}\n",
                List.of("--dry-run"),
                w,
                "'operation.transactional'");
        t.both(
                "workload operation.abortRatio above 1",
                DRIVER,
                WORKLOAD + "operation: {kind: WRITE, transactional: true, abortRatio: 1.5}\n",
                none,
                w,
                "'operation.abortRatio'",
                "expected a number");
        t.both(
                "workload operation.abortRatio below 0",
                DRIVER,
                WORKLOAD + "operation: {kind: STREAM, transactional: true, abortRatio: -0.1}\n",
                none,
                w,
                "'operation.abortRatio'");
        t.both(
                "workload operation.abortRatio on a non-transactional operation",
                DRIVER,
                WORKLOAD + "operation: {kind: WRITE, abortRatio: 0.3}\n",
                none,
                w,
                "'operation.abortRatio'",
                "only a transaction can be aborted on purpose");
        t.bench(
                "workload operation.abortRatio on a transactional PUBLISH",
                DRIVER,
                WORKLOAD + "operation: {kind: PUBLISH, transactional: true, abortRatio: 0.3}\n",
                List.of("--dry-run"),
                w,
                "'operation.abortRatio'",
                "group-commits");
        t.bench(
                "workload operation.abortSeed without abortRatio",
                DRIVER,
                WORKLOAD + "operation: {kind: WRITE, transactional: true, abortSeed: 7}\n",
                List.of("--dry-run"),
                w,
                "'operation.abortSeed'",
                "set abortRatio");
        t.both(
                "workload zero partitions",
                DRIVER,
                WORKLOAD + "partitionsPerTopic: 0\n",
                none,
                w,
                "'partitionsPerTopic'");
        t.bench(
                "workload negative producerRate",
                DRIVER,
                WORKLOAD + "producerRate: -5\n",
                List.of("--dry-run"),
                w,
                "'producerRate'");
        t.bench(
                "workload latencyTarget without the max-rate search",
                DRIVER,
                WORKLOAD + "latencyTarget: {p99Ms: 50}\n",
                List.of("--dry-run"),
                w,
                "'latencyTarget'",
                "producerRate: 0");
        t.bench(
                "workload latencyTarget misspelled inside",
                DRIVER,
                "name: w\nmessageSize: 100\ntestDurationMinutes: 1\nproducerRate: 0\nlatencyTarget: {p99: 50}\n",
                List.of("--dry-run"),
                w,
                "'latencyTarget.p99'",
                "did you mean 'p99Ms'");
        t.both(
                "workload messageSize 0",
                DRIVER,
                "name: w\nmessageSize: 0\nmeasureOperations: 5\n",
                none,
                w,
                "'messageSize'");
        t.bench(
                "workload messageSize absurdly large",
                DRIVER,
                "name: w\nmessageSize: 99999999999\nmeasureOperations: 5\n",
                List.of("--dry-run"),
                w,
                "'messageSize'");
        t.both("workload duplicate key", DRIVER, WORKLOAD + "name: again\n", none, w, "Duplicate field 'name'");
        t.bench(
                "workload STREAM prefill check overflowing a long",
                DRIVER,
                "name: w\nmessageSize: 100\nwarmupOperations: 0\nmeasureOperations: 4611686018427387904\n"
                        + "operation: {kind: STREAM, messagesPerOperation: 4, prefillMessages: 10}\n",
                List.of("--dry-run"),
                w,
                "'operation.prefillMessages'",
                "more than 9223372036854775807 records");
        // workload: sweeps
        t.bench(
                "workload empty sweep list",
                DRIVER,
                WORKLOAD + "producerRate: []\n",
                List.of("--dry-run"),
                w,
                "'producerRate'");
        t.both(
                "workload sweep list with text",
                DRIVER,
                WORKLOAD + "producerRate: [1000, fast]\n",
                none,
                w,
                "'producerRate'");
        // workload: what a run may cost, bounded before anything starts
        t.both(
                "workload sweep of more than 1000 runs",
                DRIVER,
                WORKLOAD + "producerRate: [" + "1000, ".repeat(40) + "1000]\n" + "partitionsPerTopic: ["
                        + "1, ".repeat(30) + "1]\n",
                none,
                w,
                "'partitionsPerTopic'",
                "more than 1000 runs");
        t.both(
                "workload randomized payload pool above the heap's bound",
                DRIVER,
                "name: w\nmessageSize: 104857600\nmeasureOperations: 5\nuseRandomizedPayloads: true\n",
                none,
                w,
                "'randomizedPayloadPoolSize'",
                "(the default)",
                "above the bound of");
        t.bench(
                "workload sweep over a key that cannot sweep",
                DRIVER,
                WORKLOAD + "loop: [open, closed]\n",
                List.of("--dry-run"),
                w,
                "'loop'");
        // workload: the payload file
        t.bench(
                "payloadFile missing",
                DRIVER,
                WORKLOAD + "payloadFile: nope.data\n",
                List.of("--dry-run"),
                w,
                "'payloadFile'",
                "not found");
        Map<String, String> folderPayload = new LinkedHashMap<>(
                Map.of("d.yaml", DRIVER, "payloads/", "", "w.yaml", WORKLOAD + "payloadFile: payloads\n"));
        t.raw(
                "payloadFile is a folder (real run)",
                Entry.BENCHMARK,
                folderPayload,
                List.of("-d", DIR + "/d.yaml", "-o", DIR + "/results", DIR + "/w.yaml"),
                w,
                "'payloadFile'",
                "not a regular file");
        Map<String, String> smallPayload = new LinkedHashMap<>(
                Map.of("d.yaml", DRIVER, "p.data", "bytes:10", "w.yaml", WORKLOAD + "payloadFile: p.data\n"));
        t.raw(
                "payloadFile of the wrong size (real run)",
                Entry.BENCHMARK,
                smallPayload,
                List.of("-d", DIR + "/d.yaml", "-o", DIR + "/results", DIR + "/w.yaml"),
                w,
                "'payloadFile'",
                "10 bytes",
                "messageSize");
        t.raw(
                "payloadFile of the wrong size (dry run)",
                Entry.BENCHMARK,
                smallPayload,
                List.of("-d", DIR + "/d.yaml", "--dry-run", DIR + "/w.yaml"),
                w,
                "'payloadFile'",
                "10 bytes");
        // workload: profiles
        t.both(
                "profile typo",
                DRIVER,
                WORKLOAD + "profiles: {quick: {measureOperations: 1}}\n",
                List.of("--profile", "quik"),
                "--profile quik");

        // driver YAML: the driver's own parser
        t.both("driver unknown top-level key", DRIVER + "colour: red\n", WORKLOAD, none, d, "'colour'");
        t.both(
                "driver unknown key in transactions",
                DRIVER + "transactions: {enabld: true}\n",
                WORKLOAD,
                none,
                d,
                "'transactions.enabld'",
                "did you mean 'enabled'");
        t.bench(
                "driver wrong type in transactions",
                DRIVER + "transactions:\n  maxRetries: lots\n",
                WORKLOAD,
                List.of("--dry-run"),
                d,
                "'transactions.maxRetries'");
        t.bench(
                "driver group-commit byte bound 0",
                DRIVER + "transactions:\n  maxBytesPerTransaction: 0\n",
                WORKLOAD,
                List.of("--dry-run"),
                d,
                "'transactions.maxBytesPerTransaction'",
                ">= 1");
        t.both(
                "driver both names of the message bound",
                DRIVER + "transactions:\n  messagesPerTransaction: 5\n  maxMessagesPerTransaction: 5\n",
                WORKLOAD,
                none,
                d,
                "'transactions.messagesPerTransaction'",
                "give only one");
        t.bench(
                "driver replicationFactor 0",
                DRIVER + "replicationFactor: 0\n",
                WORKLOAD,
                List.of("--dry-run"),
                d,
                "'replicationFactor'");
        t.both(
                "driver replicationFactor -1",
                DRIVER + "replicationFactor: -1\n",
                WORKLOAD,
                none,
                d,
                "'replicationFactor'");
        t.bench(
                "driver replicationFactor 2.5",
                DRIVER + "replicationFactor: 2.5\n",
                WORKLOAD,
                List.of("--dry-run"),
                d,
                "'replicationFactor'");
        t.both(
                "driver replicationFactor 50",
                DRIVER + "replicationFactor: 50\n",
                WORKLOAD,
                none,
                d,
                "replicationFactor");
        t.both(
                "driver acks=maybe",
                DRIVER + "producerConfig: |\n  acks=maybe\n",
                WORKLOAD,
                none,
                d,
                "'producerConfig'",
                "acks");
        t.both(
                "driver property given twice in one block",
                DRIVER + "producerConfig: |\n  acks=all\n  linger.ms=5\n  acks=1\n",
                WORKLOAD,
                none,
                d,
                "'producerConfig.acks'",
                "given twice in producerConfig");
        t.bench(
                "driver topic property given twice",
                DRIVER + "topicConfig: |\n  retention.ms=1000\n  retention.ms: 2000\n",
                WORKLOAD,
                List.of("--dry-run"),
                d,
                "'topicConfig.retention.ms'",
                "given twice in topicConfig");
        t.bench(
                "workload driverOverrides property given twice",
                DRIVER,
                WORKLOAD + "driverOverrides:\n  commonConfig: |\n    client.id=a\n    client.id b\n",
                List.of("--dry-run"),
                w,
                "'driverOverrides.commonConfig.client.id'",
                "given twice in commonConfig");
        t.bench(
                "driver bad isolation.level",
                DRIVER + "consumerConfig: |\n  isolation.level=eventually\n",
                WORKLOAD,
                List.of("--dry-run"),
                d,
                "'consumerConfig'",
                "isolation.level");
        t.bench(
                "workload driverOverrides acks=maybe",
                DRIVER,
                WORKLOAD + "driverOverrides:\n  producerConfig: |\n" + "    acks=maybe\n",
                List.of("--dry-run"),
                w,
                "'driverOverrides.producerConfig.acks'",
                "kafka-clients rejects acks");
        String tx = WORKLOAD + "operation: {kind: WRITE, transactional: true}\n";
        t.both(
                "driver acks=1 with transactions",
                DRIVER + "producerConfig: |\n  acks=1\n",
                tx,
                none,
                d,
                "'producerConfig.acks'",
                "acks=all");
        t.both(
                "workload driverOverrides enable.idempotence=false with transactions",
                DRIVER,
                tx + "driverOverrides:\n  producerConfig: {enable.idempotence: false}\n",
                none,
                w,
                "'driverOverrides.producerConfig.enable.idempotence'",
                "idempotent");
        t.bench(
                "driver acks=1 in commonConfig with transactions",
                DRIVER + "commonConfig: |\n  acks=1\n",
                tx,
                List.of("--dry-run"),
                d,
                "'commonConfig.acks'");
        t.both(
                "transaction.timeout.ms above the broker's default maximum",
                DRIVER + "producerConfig: |\n  transaction.timeout.ms=900001\n",
                tx,
                none,
                d,
                "'producerConfig.transaction.timeout.ms'",
                "transaction.max.timeout.ms (900000, Kafka's default)");
        t.bench(
                "transaction.timeout.ms above a maximum lowered by --broker-config",
                DRIVER + "producerConfig: |\n  transaction.timeout.ms=60000\n",
                tx,
                List.of("--dry-run", "--broker-config", "transaction.max.timeout.ms=30000"),
                d,
                "'producerConfig.transaction.timeout.ms'",
                "(30000, as the broker settings set it)");
        t.both(
                "driver topicConfig unknown key",
                DRIVER + "topicConfig: |\n  retention.msx=5\n",
                WORKLOAD,
                none,
                d,
                "'topicConfig.retention.msx'",
                "did you mean 'retention.ms'");
        t.both(
                "driver topicConfig max.message.bytes below the message",
                DRIVER + "topicConfig: |\n  max.message.bytes=10\n",
                "name: w\nmessageSize: 16\nmeasureOperations: 5\n",
                none,
                d,
                "'topicConfig.max.message.bytes'",
                "a 16-byte message",
                "refuse every send as too large");
        t.both(
                "workload messageSize above the producer's max.request.size",
                DRIVER,
                "name: w\nmessageSize: 2000000\nmeasureOperations: 5\n",
                none,
                d,
                "'producerConfig.max.request.size'",
                "more than max.request.size 1048576");
        t.bench(
                "driver topicConfig bad value",
                DRIVER + "topicConfig: |\n  min.insync.replicas=zero\n",
                WORKLOAD,
                List.of("--dry-run"),
                d,
                "'topicConfig.min.insync.replicas'",
                "zero");
        t.bench(
                "workload driverOverrides topicConfig unknown key",
                DRIVER,
                WORKLOAD + "driverOverrides:\n  topicConfig: {retention.msx: 5}\n",
                List.of("--dry-run"),
                w,
                "'driverOverrides.topicConfig.retention.msx'");
        t.both(
                "driver misspelled client property",
                DRIVER + "producerConfig: |\n  lingr.ms=5\n",
                WORKLOAD,
                none,
                d,
                "'producerConfig'",
                "'lingr.ms'",
                "did you mean 'linger.ms'");
        t.bench(
                "driver misspelled client property in commonConfig",
                DRIVER + "commonConfig: |\n  request.timout.ms=5\n",
                WORKLOAD,
                List.of("--dry-run"),
                d,
                "'commonConfig'",
                "did you mean 'request.timeout.ms'");
        t.both(
                "workload driverOverrides misspelled client property",
                DRIVER,
                WORKLOAD + "driverOverrides:\n  consumerConfig: {fetch.min.byte: 1}\n",
                none,
                w,
                "'driverOverrides.consumerConfig.fetch.min.byte'",
                "did you mean 'fetch.min.bytes'");
        t.both(
                "driver properties block is a list",
                DRIVER + "producerConfig: [acks, all]\n",
                WORKLOAD,
                none,
                d,
                "'producerConfig'");
        t.bench(
                "driver properties block is a mapping",
                DRIVER + "commonConfig: {linger.ms: 5}\n",
                WORKLOAD,
                List.of("--dry-run"),
                d,
                "'commonConfig'");
        t.both("driver without name", KAFKA, WORKLOAD, none, d, "'name'");
        t.bench("driver without driverClass", "name: k\n", WORKLOAD, List.of("--dry-run"), d, "'driverClass'");
        t.both(
                "driverClass not on the class path",
                "name: k\ndriverClass: no.such.Driver\n",
                WORKLOAD,
                none,
                d,
                "'driverClass'",
                "no.such.Driver");
        t.bench(
                "driverClass not a driver",
                "name: k\ndriverClass: java.lang.String\n",
                WORKLOAD,
                List.of("--dry-run"),
                d,
                "'driverClass'",
                "java.lang.String");
        t.bench(
                "driver not valid YAML",
                DRIVER + "producerConfig: [\n",
                WORKLOAD,
                List.of("--dry-run"),
                d,
                "not valid YAML");

        // broker settings
        t.both(
                "brokerSettings bad value",
                DRIVER,
                WORKLOAD + "brokerSettings: {num.network.threads: many}\n",
                none,
                w,
                "'brokerSettings.num.network.threads'");
        t.bench(
                "brokerSettings unknown key",
                DRIVER,
                WORKLOAD + "brokerSettings: {log.retention.mss: 1}\n",
                List.of("--dry-run"),
                w,
                "'brokerSettings.log.retention.mss'");
        t.both(
                "--broker-config bad value",
                DRIVER,
                WORKLOAD,
                List.of("--broker-config", "num.network.threads=many"),
                "--broker-config",
                "num.network.threads");
        t.bench(
                "--broker-config not KEY=VALUE",
                DRIVER,
                WORKLOAD,
                List.of("--broker-config", "linger"),
                "--broker-config");
        t.bench(
                "--broker-config unknown key",
                DRIVER,
                WORKLOAD,
                List.of("--broker-config", "log.retention.mss=1"),
                "--broker-config",
                "log.retention.mss");

        // broker releases and transaction versions
        t.both(
                "workload brokerVersion not a release",
                DRIVER,
                WORKLOAD + "brokerVersion: latest\n",
                none,
                w,
                "'brokerVersion'",
                "MAJOR.MINOR.PATCH");
        t.both(
                "workload transactionVersion on Kafka 2.8",
                DRIVER,
                WORKLOAD + "brokerVersion: 2.8.2\n" + "transactionVersion: 2\n",
                none,
                w,
                "'transactionVersion'",
                "Kafka 2.8.2 has no transaction.version");
        t.both(
                "--transaction-version on --broker-version 2.8.2",
                DRIVER,
                WORKLOAD,
                List.of("--broker-version", "2.8.2", "--transaction-version", "1"),
                "--transaction-version 1",
                "(--broker-version)");
        // the embedded Tansu: what it does not have, named with the key or flag and the broker
        List<String> tansu = List.of("--broker-system", "tansu");
        String onTansu = "brokerSystem: tansu\n";
        t.both(
                "workload brokerSystem unknown",
                DRIVER,
                WORKLOAD + "brokerSystem: redpanda\n",
                none,
                w,
                "'brokerSystem'",
                "KAFKA | TANSU");
        t.bench(
                "--broker-system unknown",
                DRIVER,
                WORKLOAD,
                List.of("--broker-system", "redpanda"),
                "--broker-system",
                "kafka or tansu");
        t.both(
                "Tansu with a replication factor 3 driver",
                DRIVER + "replicationFactor: 3\n",
                WORKLOAD,
                tansu,
                "d.yaml",
                "'replicationFactor'",
                "replication factor 3",
                "Tansu (--broker-system tansu)");
        t.both(
                "Tansu with workload brokers 3",
                DRIVER,
                WORKLOAD + onTansu + "brokers: 3\n",
                none,
                w,
                "'brokers'",
                "Tansu (brokerSystem tansu in");
        t.both(
                "Tansu with --brokers 3",
                DRIVER,
                WORKLOAD,
                List.of("--broker-system", "tansu", "--brokers", "3"),
                "--brokers 3",
                "Tansu");
        t.both(
                "Tansu with driverOverrides replicationFactor 3",
                DRIVER,
                WORKLOAD + onTansu + "brokers: 1\ndriverOverrides:\n  replicationFactor: 3\n",
                none,
                w,
                "'driverOverrides.replicationFactor'");
        t.both(
                "Tansu with workload brokerProfile max-consistency",
                DRIVER,
                WORKLOAD + onTansu + "brokerProfile: max-consistency\n",
                none,
                w,
                "'brokerProfile'",
                "max-consistency",
                "Tansu");
        t.both(
                "Tansu with --broker-profile max-consistency",
                DRIVER,
                WORKLOAD,
                List.of("--broker-profile", "max-consistency", "--broker-system", "tansu"),
                "--broker-profile max-consistency",
                "Tansu");
        t.both(
                "Tansu with workload brokerVersion",
                DRIVER,
                WORKLOAD + onTansu + "brokerVersion: 3.9.1\n",
                none,
                w,
                "'brokerVersion'",
                "Tansu");
        t.both(
                "Tansu with --broker-version",
                DRIVER,
                WORKLOAD,
                List.of("--broker-version", "3.9.1", "--broker-system", "tansu"),
                "--broker-version 3.9.1",
                "Tansu");
        t.both(
                "Tansu with workload brokerSettings",
                DRIVER,
                WORKLOAD + onTansu + "brokerSettings:\n  log.retention.ms: 1000\n",
                none,
                w,
                "'brokerSettings.log.retention.ms'",
                "Tansu");
        t.both(
                "Tansu with workload partitionVerification",
                DRIVER,
                WORKLOAD + onTansu + "partitionVerification: false\n",
                none,
                w,
                "'partitionVerification'",
                "Tansu");
        t.both(
                "Tansu with --broker-config",
                DRIVER,
                WORKLOAD,
                List.of("--broker-config", "log.retention.ms=1000", "--broker-system", "tansu"),
                "--broker-config log.retention.ms",
                "Tansu");
        t.both(
                "Tansu with workload transactionVersion",
                DRIVER,
                WORKLOAD + onTansu + "transactionVersion: 2\n",
                none,
                w,
                "'transactionVersion'",
                "Tansu");
        t.both(
                "Tansu with --transaction-version",
                DRIVER,
                WORKLOAD,
                List.of("--transaction-version", "2", "--broker-system", "tansu"),
                "--transaction-version 2",
                "Tansu");
        t.both(
                "Tansu with workload groupProtocol consumer",
                DRIVER,
                WORKLOAD + onTansu + "operation:\n  kind: STREAM\n  prefillMessages: 10\ngroupProtocol: consumer\n",
                none,
                w,
                "'groupProtocol'",
                "Tansu",
                "ConsumerGroupHeartbeat");
        t.both(
                "Tansu with group.protocol=consumer in the driver",
                DRIVER + "consumerConfig: |\n  group.protocol=consumer\n",
                WORKLOAD,
                tansu,
                "d.yaml",
                "'consumerConfig.group.protocol'",
                "Tansu");
        t.both(
                "Tansu with a broker fault",
                DRIVER,
                "name: w\nmessageSize: 100\ntestDurationSeconds: 10\n" + onTansu
                        + "faults:\n  - action: kill\n    target: partition-leader\n    at: 1s\n    restartAfter: 2s\n",
                none,
                w,
                "'faults'",
                "Tansu");
        t.both(
                "Tansu with an external cluster in the driver",
                DRIVER + "commonConfig: |\n  bootstrap.servers=localhost:9092\n",
                WORKLOAD,
                tansu,
                "--broker-system tansu",
                "d.yaml",
                "localhost:9092");
        t.both(
                "workload brokerSystem tansu with an external cluster in the driver",
                DRIVER + "commonConfig: |\n  bootstrap.servers=localhost:9092\n",
                WORKLOAD + onTansu,
                none,
                w,
                "'brokerSystem'",
                "localhost:9092");

        t.bench(
                "--broker-version 0.10.2",
                DRIVER,
                WORKLOAD,
                List.of("--broker-version", "0.10.2"),
                "--broker-version",
                "not supported");
        t.both(
                "--broker-config a setting Kafka 2.8 lacks",
                DRIVER,
                WORKLOAD,
                List.of("--broker-version", "2.8.2", "--broker-config", "group.coordinator.append.linger.ms=0"),
                "--broker-config",
                "Kafka 2.8.2 has no broker setting 'group.coordinator.append.linger.ms'");

        // the command line
        t.bench("unknown option", DRIVER, WORKLOAD, List.of("--frobnicate"), "--frobnicate");
        t.raw("missing -d", Entry.BENCHMARK, Map.of(w, WORKLOAD), List.of(DIR + "/w.yaml"), "-d/--drivers");
        t.raw(
                "missing workload",
                Entry.BENCHMARK,
                Map.of(d, DRIVER),
                List.of("-d", DIR + "/d.yaml"),
                "missing workload");
        t.raw(
                "driver file not found",
                Entry.BENCHMARK,
                Map.of(w, WORKLOAD),
                List.of("-d", DIR + "/nope.yaml", DIR + "/w.yaml"),
                "nope.yaml",
                "not found");
        t.raw(
                "driver file not found and no shipped driver near its name",
                Entry.BENCHMARK,
                Map.of(w, WORKLOAD),
                List.of("-d", "redpanda-tx-rf5.yaml", DIR + "/w.yaml"),
                "redpanda-tx-rf5.yaml",
                "file not found",
                "nearest shipped driver is driver-redpanda-tx/redpanda-tx-rf3.yaml");
        t.raw(
                "workload file not found",
                Entry.BENCHMARK,
                Map.of(d, DRIVER),
                List.of("-d", DIR + "/d.yaml", "--dry-run", DIR + "/nope.yaml"),
                "nope.yaml",
                "not found");
        t.both(
                "workload brokers below the driver's replication factor, as --brokers is",
                DRIVER + "replicationFactor: 3\n",
                WORKLOAD + "brokers: 1\n",
                none,
                w,
                "'brokers'",
                "below the replication factor 3 of ",
                "/d.yaml (replicationFactor)");
        t.bench("--brokers 0", DRIVER, WORKLOAD, List.of("--brokers", "0"), "--brokers");
        t.bench("--brokers 10", DRIVER, WORKLOAD, List.of("--brokers", "10"), "--brokers", "10");
        t.bench("--brokers text", DRIVER, WORKLOAD, List.of("--dry-run", "--brokers", "many"), "--brokers", "many");
        t.both(
                "-w with a bad URL",
                DRIVER,
                WORKLOAD,
                List.of("-w", "http://ok:8080,ftp://host:8080"),
                "-w/--workers",
                "'ftp://host:8080'");
        t.both(
                "-w with a port beyond 65535",
                DRIVER,
                WORKLOAD,
                List.of("-w", "http://a:8080,http://b:99999"),
                "-w/--workers",
                "'http://b:99999'",
                "port 99999");
        t.both(
                "-w with the same worker twice",
                DRIVER,
                WORKLOAD,
                List.of("-w", "http://a:8080,http://A:8080/"),
                "-w/--workers",
                "listed twice");
        Map<String, String> twiceWorkers = new LinkedHashMap<>(
                Map.of("d.yaml", DRIVER, "w.yaml", WORKLOAD, "workers.yaml", "workers: [http://a:80, http://a]\n"));
        t.raw(
                "workers file with the same worker twice (dry run)",
                Entry.BENCHMARK,
                twiceWorkers,
                List.of("-d", DIR + "/d.yaml", "--dry-run", "-wf", DIR + "/workers.yaml", DIR + "/w.yaml"),
                "workers.yaml",
                "'workers'",
                "listed twice");
        t.both(
                "driver bootstrap.servers not HOST:PORT",
                "name: k\n" + KAFKA + "commonConfig: |\n  bootstrap.servers=not a host:::\n",
                WORKLOAD,
                none,
                d,
                "'commonConfig.bootstrap.servers'",
                "not HOST:PORT");
        t.both(
                "driver bootstrap.servers left empty (a template not filled in)",
                "name: k\n" + KAFKA + "commonConfig: |\n  bootstrap.servers=\n",
                WORKLOAD,
                none,
                d,
                "'commonConfig.bootstrap.servers'",
                "empty");
        t.bench(
                "workload driverOverrides bootstrap.servers left empty",
                DRIVER,
                WORKLOAD + "driverOverrides:\n  commonConfig: {bootstrap.servers: ' '}\n",
                List.of("--dry-run"),
                w,
                "'driverOverrides.commonConfig.bootstrap.servers'",
                "empty");
        t.both(
                "driver bootstrap.servers with a URL scheme",
                "name: k\n" + KAFKA + "commonConfig: |\n  bootstrap.servers=b1:9092,http://127.0.0.1:9092\n",
                WORKLOAD,
                none,
                d,
                "'commonConfig.bootstrap.servers'",
                "'http://127.0.0.1:9092'",
                "write 127.0.0.1:9092");
        t.bench(
                "workload driverOverrides bootstrap.servers with a bad port",
                DRIVER,
                WORKLOAD + "driverOverrides:\n  commonConfig: {bootstrap.servers: 'b1:9092,b2:70000'}\n",
                List.of("--dry-run"),
                w,
                "'driverOverrides.commonConfig.bootstrap.servers'",
                "'b2:70000'");
        t.bench(
                "-w and -wf together",
                DRIVER,
                WORKLOAD,
                List.of("-w", "http://a:8080", "-wf", DIR + "/workers.yaml"),
                "-w/--workers",
                "-wf/--workers-file");
        t.both(
                "-wf missing file",
                DRIVER,
                WORKLOAD,
                List.of("-wf", DIR + "/nope-workers.yaml"),
                "nope-workers.yaml",
                "not found");
        t.both(
                "-o x.json with a sweep",
                DRIVER,
                WORKLOAD + "producerRate: [1000, 2000]\n",
                List.of("-o", DIR + "/x.json"),
                "-o",
                "x.json",
                "2 runs");
        t.raw(
                "-o names a result file that exists",
                Entry.BENCHMARK,
                new LinkedHashMap<>(Map.of("d.yaml", DRIVER, "w.yaml", WORKLOAD, "old.json", "{}")),
                List.of("-d", DIR + "/d.yaml", "-q", "-o", DIR + "/old.json", DIR + "/w.yaml"),
                "old.json",
                "exists, and a result never replaces another");
        Map<String, String> brokenWorkers = new LinkedHashMap<>(
                Map.of("d.yaml", DRIVER, "w.yaml", WORKLOAD, "workers.yaml", "workers: [http://a:8080\n"));
        // The YAML problem whole, as for workload files: SnakeYAML's quoted punctuation is kept, not cut short.
        t.raw(
                "workers file malformed (dry run)",
                Entry.BENCHMARK,
                brokenWorkers,
                List.of("-d", DIR + "/d.yaml", "--dry-run", "-wf", DIR + "/workers.yaml", DIR + "/w.yaml"),
                "workers.yaml",
                "not valid YAML at line 2, column 1: expected ',' or ']', but got <stream end>");
        t.raw(
                "workers file malformed (real run)",
                Entry.BENCHMARK,
                brokenWorkers,
                List.of("-d", DIR + "/d.yaml", "-o", DIR + "/results", "-wf", DIR + "/workers.yaml", DIR + "/w.yaml"),
                "workers.yaml",
                "not valid YAML at line 2, column 1: expected ',' or ']', but got <stream end>");
        t.bench(
                "workload malformed YAML, reported as for the workers file",
                DRIVER,
                "name: w\nmessageSize: [100\n",
                List.of("--dry-run"),
                w,
                "not valid YAML at line 3, column 1: expected ',' or ']', but got <stream end>");
        Map<String, String> keyWorkers = new LinkedHashMap<>(
                Map.of("d.yaml", DRIVER, "w.yaml", WORKLOAD, "workers.yaml", "worker: [http://a:8080]\n"));
        t.raw(
                "workers file mistyped key (dry run)",
                Entry.BENCHMARK,
                keyWorkers,
                List.of("-d", DIR + "/d.yaml", "--dry-run", "-wf", DIR + "/workers.yaml", DIR + "/w.yaml"),
                "workers.yaml",
                "key 'worker'",
                "did you mean 'workers'");
        t.raw(
                "workers file mistyped key (real run)",
                Entry.BENCHMARK,
                keyWorkers,
                List.of("-d", DIR + "/d.yaml", "-o", DIR + "/results", "-wf", DIR + "/workers.yaml", DIR + "/w.yaml"),
                "workers.yaml",
                "key 'worker'",
                "did you mean 'workers'");
        Map<String, String> noWorkers =
                new LinkedHashMap<>(Map.of("d.yaml", DRIVER, "w.yaml", WORKLOAD, "workers.yaml", "workers: []\n"));
        t.raw(
                "workers file with an empty list",
                Entry.BENCHMARK,
                noWorkers,
                List.of("-d", DIR + "/d.yaml", "--dry-run", "-wf", DIR + "/workers.yaml", DIR + "/w.yaml"),
                "workers.yaml",
                "'workers'",
                "list of worker URLs");

        // YAML files of any size: bounded before they are parsed (SnakeYAML takes seconds per megabyte of one value)
        String big = "x".repeat(1_200_000);
        t.bench(
                "workload file above the size bound, however valid",
                DRIVER,
                WORKLOAD + "description: " + big + "\n",
                List.of("--dry-run"),
                w,
                "1200060 bytes",
                "limit of 1048576 bytes (1 MiB)");
        t.both(
                "driver file above the size bound",
                DRIVER + "colour: " + big + "\n",
                WORKLOAD,
                none,
                d,
                "1200075 bytes",
                "limit of 1048576 bytes (1 MiB)");
        t.raw(
                "suite file above the size bound",
                Entry.SUITE,
                new LinkedHashMap<>(
                        Map.of("d.yaml", DRIVER, "w.yaml", WORKLOAD, "s.yaml", "name: s\ndescription: " + big + "\n")),
                List.of("-o", DIR + "/results", DIR + "/s.yaml"),
                "s.yaml",
                "limit of 1048576 bytes (1 MiB)");
        t.raw(
                "workers file above the size bound",
                Entry.BENCHMARK,
                new LinkedHashMap<>(Map.of(
                        "d.yaml", DRIVER, "w.yaml", WORKLOAD, "workers.yaml", "workers: [http://a:80]\n#" + big)),
                List.of("-d", DIR + "/d.yaml", "--dry-run", "-wf", DIR + "/workers.yaml", DIR + "/w.yaml"),
                "workers.yaml",
                "limit of 1048576 bytes (1 MiB)");
        // ... and of any shape: said as what is wrong, with the line
        t.both(
                "workload lists nested 20,000 deep",
                DRIVER,
                WORKLOAD + "topics: " + "[".repeat(20_000) + "]".repeat(20_000) + "\n",
                none,
                w,
                "not valid YAML at line 4, column ",
                "nested more than 100 deep");
        t.bench(
                "driver mappings nested 3,000 deep",
                DRIVER + "transactions: " + "{a: ".repeat(3_000) + "1" + "}".repeat(3_000) + "\n",
                WORKLOAD,
                List.of("--dry-run"),
                d,
                "not valid YAML at line 3, column ",
                "nested more than 100 deep");
        t.both(
                "workload saved as Latin-1",
                DRIVER,
                "latin1:" + WORKLOAD + "description: caf\u00e9\n",
                none,
                w,
                "not UTF-8 text",
                "(line 4)");

        // workload faults: the same strictness as every other workload key
        String kill = "faults:\n  - action: kill\n    target: partition-leader\n    at: 1s\n    restartAfter: 2s\n";
        t.both(
                "faults unknown key",
                DRIVER,
                WORKLOAD + kill + "    restartAftr: 5s\n",
                none,
                w,
                "'faults[0].restartAftr'",
                "did you mean 'restartAfter'");
        t.bench(
                "faults not a list",
                DRIVER,
                WORKLOAD + "faults: {action: kill}\n",
                List.of("--dry-run"),
                w,
                "'faults'",
                "list of faults");
        t.bench(
                "faults entry not a mapping",
                DRIVER,
                WORKLOAD + "faults: [kill]\n",
                List.of("--dry-run"),
                w,
                "'faults[0]'",
                "mapping");
        t.bench(
                "faults unknown action",
                DRIVER,
                WORKLOAD + kill.replace("kill\n", "explode\n"),
                List.of("--dry-run"),
                w,
                "'faults[0].action'",
                "KILL | PAUSE | STOP",
                "'explode'");
        t.bench(
                "faults missing action",
                DRIVER,
                WORKLOAD + "faults: [{target: 0, at: 1s, restartAfter: 1s}]\n",
                List.of("--dry-run"),
                w,
                "'faults[0].action'",
                "required");
        t.both(
                "faults mistyped role",
                DRIVER,
                WORKLOAD + kill.replace("partition-leader", "partition-leadr"),
                none,
                w,
                "'faults[0].target'",
                "did you mean 'partition-leader'");
        t.bench(
                "faults target a list",
                DRIVER,
                WORKLOAD + kill.replace("partition-leader", "[0, 1]"),
                List.of("--dry-run"),
                w,
                "'faults[0].target'",
                "a list");
        t.bench(
                "faults at not a duration",
                DRIVER,
                WORKLOAD + kill.replace("at: 1s", "at: soon"),
                List.of("--dry-run"),
                w,
                "'faults[0].at'",
                "'soon'");
        t.bench(
                "faults at and afterOperations both",
                DRIVER,
                WORKLOAD + kill + "    afterOperations: 2\n",
                List.of("--dry-run"),
                w,
                "'faults[0].afterOperations'",
                "not both");
        t.bench(
                "faults without a time",
                DRIVER,
                WORKLOAD + kill.replace("    at: 1s\n", ""),
                List.of("--dry-run"),
                w,
                "'faults[0].at'",
                "required");
        t.both(
                "faults afterOperations beyond the run",
                DRIVER,
                WORKLOAD + kill.replace("at: 1s", "afterOperations: 5"),
                none,
                w,
                "'faults[0].afterOperations'",
                "measures 5 operation(s)");
        t.bench(
                "faults at after a time-based run ends",
                DRIVER,
                "name: w\nmessageSize: 100\ntestDurationSeconds: 10\n" + "warmupDurationSeconds: 0\n"
                        + kill.replace("at: 1s", "at: 20s"),
                List.of("--dry-run"),
                w,
                "'faults[0].at'",
                "lasts 10 s");
        t.bench(
                "faults restart after a time-based run ends",
                DRIVER,
                "name: w\nmessageSize: 100\n" + "testDurationSeconds: 10\nwarmupDurationSeconds: 0\n"
                        + kill.replace("at: 1s", "at: 9s"),
                List.of("--dry-run"),
                w,
                "'faults[0].restartAfter'",
                "after it ends");
        t.bench(
                "faults afterOperations in a time-based run",
                DRIVER,
                "name: w\nmessageSize: 100\ntestDurationSeconds: 10\n" + kill.replace("at: 1s", "afterOperations: 5"),
                List.of("--dry-run"),
                w,
                "'faults[0].afterOperations'",
                "time-based");
        t.bench(
                "faults resumeAfter on a kill",
                DRIVER,
                WORKLOAD + kill.replace("restartAfter", "resumeAfter"),
                List.of("--dry-run"),
                w,
                "'faults[0].resumeAfter'",
                "write restartAfter");
        t.bench(
                "faults restartAfter on a pause",
                DRIVER,
                WORKLOAD + kill.replace("kill", "pause"),
                List.of("--dry-run"),
                w,
                "'faults[0].restartAfter'",
                "write resumeAfter");
        t.bench(
                "faults restartAfter of zero",
                DRIVER,
                WORKLOAD + kill.replace("restartAfter: 2s", "restartAfter: 0s"),
                List.of("--dry-run"),
                w,
                "'faults[0].restartAfter'");
        // client faults: checked against the run's clients and operation
        String streamTx = "operation: {kind: STREAM, transactional: true, prefillMessages: 1000}\n";
        t.both(
                "client fault index beyond the processors",
                DRIVER,
                WORKLOAD + streamTx
                        + "faults: [{action: kill, target: stream-processor, index: 2, afterOperations: 1,"
                        + " restartAfter: 1s}]\n",
                none,
                w,
                "'faults[0].index'",
                "the run starts 1 stream processor(s)");
        t.bench(
                "client fault stream-processor on a WRITE workload",
                DRIVER,
                WORKLOAD + "operation: {kind: WRITE, transactional: true}\n"
                        + "faults: [{action: kill, target: stream-processor, afterOperations: 1}]\n",
                List.of("--dry-run"),
                w,
                "'faults[0].target'",
                "runs no stream processor");
        t.both(
                "client fault add outside group mode",
                DRIVER,
                WORKLOAD + streamTx + "faults: [{action: add, target: stream-processor, afterOperations: 1}]\n",
                none,
                w,
                "'faults[0].action'",
                "needs group mode");
        t.both(
                "faults broker index beyond the cluster",
                DRIVER,
                WORKLOAD + kill.replace("partition-leader", "5"),
                none,
                w,
                "'faults[0].target'",
                "broker index 5",
                "1 broker(s)");
        t.bench(
                "faults broker index above the embedded limit",
                DRIVER,
                WORKLOAD + kill.replace("partition-leader", "9"),
                List.of("--dry-run"),
                w,
                "'faults[0].target'",
                "from 0 to 8");
        t.bench(
                "faults partition beyond the topic",
                DRIVER,
                WORKLOAD + kill + "    partition: 3\n",
                List.of("--dry-run"),
                w,
                "'faults[0].partition'",
                "1 partition(s)");
        t.bench(
                "faults partition with a coordinator target",
                DRIVER,
                WORKLOAD + "operation: {kind: WRITE, transactional: true}\n"
                        + kill.replace("partition-leader", "transaction-coordinator") + "    partition: 0\n",
                List.of("--dry-run"),
                w,
                "'faults[0].partition'",
                "partition-leader only");
        t.both(
                "faults transaction coordinator without transactions",
                DRIVER,
                WORKLOAD + kill.replace("partition-leader", "transaction-coordinator"),
                none,
                w,
                "'faults[0].target'",
                "not transactional");
        t.bench(
                "faults group coordinator without consumers",
                DRIVER,
                WORKLOAD + "subscriptionsPerTopic: 0\n" + kill.replace("partition-leader", "group-coordinator"),
                List.of("--dry-run"),
                w,
                "'faults[0].target'",
                "no consumers");
        t.both(
                "faults kill the only broker for good",
                DRIVER,
                WORKLOAD + kill.replace("    restartAfter: 2s\n", ""),
                none,
                w,
                "'faults[0]'",
                "only broker",
                "restartAfter");
        t.bench(
                "faults pause the only broker for good",
                DRIVER,
                WORKLOAD + kill.replace("kill", "pause").replace("    restartAfter: 2s\n", ""),
                List.of("--dry-run"),
                w,
                "'faults[0]'",
                "only broker",
                "resumeAfter");
        t.both(
                "faults on an external cluster without a hook",
                "name: k\n" + KAFKA + "commonConfig: |\n  bootstrap.servers=127.0.0.1:1\n",
                WORKLOAD + kill,
                none,
                w,
                "'faults'",
                "--fault-command",
                "127.0.0.1:1");
        t.both(
                "--fault-command with an unknown placeholder",
                DRIVER,
                WORKLOAD + kill,
                List.of("--fault-command", "ssh {hots} omb-tx-fault {action}"),
                "--fault-command",
                "{hots}",
                "did you mean {host}");
        t.bench(
                "--fault-command without {action}",
                DRIVER,
                WORKLOAD + kill,
                List.of("--fault-command", "ssh {host} x"),
                "--fault-command",
                "{action}");
        t.both(
                "faults unknown key in a profile",
                DRIVER,
                WORKLOAD + "profiles: {quick: {faults: [{action: kill,"
                        + " target: 0, at: 1s, restartAfter: 1s, colour: red}]}}\n",
                List.of("--profile", "quick"),
                w,
                "'profiles.quick.faults[0].colour'");

        // bin/benchmark-suite
        String suiteRun = "runs:\n  - driver: " + DIR + "/d.yaml\n    workloads: [" + DIR + "/w.yaml]\n";
        t.raw(
                "suite unknown key",
                Entry.SUITE,
                new LinkedHashMap<>(
                        Map.of("d.yaml", DRIVER, "w.yaml", WORKLOAD, "s.yaml", "name: s\nprofle: quick\n" + suiteRun)),
                List.of("--dry-run", DIR + "/s.yaml"),
                "s.yaml",
                "'profle'");
        t.raw(
                "suite with a driver property given twice in one block",
                Entry.SUITE,
                new LinkedHashMap<>(Map.of(
                        "d.yaml",
                        DRIVER + "consumerConfig: |\n  fetch.min.bytes=1\n  fetch.min.bytes=\\\n    2\n",
                        "w.yaml",
                        WORKLOAD,
                        "s.yaml",
                        "name: s\n" + suiteRun)),
                List.of("-o", DIR + "/results", DIR + "/s.yaml"),
                "d.yaml",
                "'consumerConfig.fetch.min.bytes'",
                "given twice in consumerConfig");
        t.raw(
                "suite with a missing driver file",
                Entry.SUITE,
                new LinkedHashMap<>(Map.of("w.yaml", WORKLOAD, "s.yaml", "name: s\n" + suiteRun)),
                List.of("-o", DIR + "/results", DIR + "/s.yaml"),
                "s.yaml",
                "runs[0].driver",
                "d.yaml");
        Map<String, String> badAfterGood = new LinkedHashMap<>(Map.of(
                "d.yaml",
                DRIVER,
                "w.yaml",
                WORKLOAD,
                "bad.yaml",
                DRIVER + "replicationFactor: 0\n",
                "s.yaml",
                "name: s\n" + suiteRun + "  - driver: " + DIR + "/bad.yaml\n    workloads: [" + DIR + "/w.yaml]\n"));
        t.raw(
                "suite with a bad entry after a good one (real run)",
                Entry.SUITE,
                badAfterGood,
                List.of("-o", DIR + "/results", DIR + "/s.yaml"),
                "bad.yaml",
                "'replicationFactor'");
        t.raw(
                "suite with a bad entry after a good one (dry run)",
                Entry.SUITE,
                badAfterGood,
                List.of("--dry-run", DIR + "/s.yaml"),
                "bad.yaml",
                "'replicationFactor'");
        t.raw(
                "suite entry with a bad workload",
                Entry.SUITE,
                new LinkedHashMap<>(Map.of(
                        "d.yaml",
                        DRIVER,
                        "w.yaml",
                        WORKLOAD + "partitionsPerTopic: 0\n",
                        "s.yaml",
                        "name: s\n" + suiteRun)),
                List.of("-o", DIR + "/results", DIR + "/s.yaml"),
                "w.yaml",
                "'partitionsPerTopic'");
        t.raw(
                "suite entry brokerSystem tansu with a replication factor 3 driver",
                Entry.SUITE,
                new LinkedHashMap<>(Map.of(
                        "d.yaml",
                        DRIVER + "replicationFactor: 3\n",
                        "w.yaml",
                        WORKLOAD,
                        "s.yaml",
                        "name: s\n" + suiteRun + "    brokerSystem: tansu\n")),
                List.of("--dry-run", DIR + "/s.yaml"),
                "d.yaml",
                "'replicationFactor'",
                "Tansu (runs[0].brokerSystem tansu in");
        t.raw(
                "suite entry brokerVersion run on Tansu by --broker-system",
                Entry.SUITE,
                new LinkedHashMap<>(Map.of(
                        "d.yaml",
                        DRIVER,
                        "w.yaml",
                        WORKLOAD,
                        "s.yaml",
                        "name: s\n" + suiteRun + "    brokerVersion: 4.1.1\n")),
                List.of("--dry-run", "--broker-system", "tansu", DIR + "/s.yaml"),
                "s.yaml",
                "'runs[0].brokerVersion'",
                "Tansu (--broker-system tansu)");
        t.raw(
                "suite entry brokers 3 with its brokerSystem tansu",
                Entry.SUITE,
                new LinkedHashMap<>(Map.of(
                        "d.yaml",
                        DRIVER,
                        "w.yaml",
                        WORKLOAD,
                        "s.yaml",
                        "name: s\n" + suiteRun + "    brokerSystem: tansu\n    brokers: 3\n")),
                List.of("--dry-run", DIR + "/s.yaml"),
                "s.yaml",
                "'runs[0].brokers'",
                "Tansu (runs[0].brokerSystem tansu in");
        t.raw(
                "suite entry brokerSystem tansu with an external cluster",
                Entry.SUITE,
                new LinkedHashMap<>(Map.of(
                        "d.yaml",
                        DRIVER + "commonConfig: |\n  bootstrap.servers=localhost:9092\n",
                        "w.yaml",
                        WORKLOAD,
                        "s.yaml",
                        "name: s\n" + suiteRun + "    brokerSystem: tansu\n")),
                List.of("--dry-run", DIR + "/s.yaml"),
                "s.yaml",
                "'runs[0].brokerSystem'",
                "localhost:9092");
        t.raw(
                "suite entry brokerSystem unknown",
                Entry.SUITE,
                new LinkedHashMap<>(Map.of(
                        "d.yaml",
                        DRIVER,
                        "w.yaml",
                        WORKLOAD,
                        "s.yaml",
                        "name: s\n" + suiteRun + "    brokerSystem: pulsar\n")),
                List.of("--dry-run", DIR + "/s.yaml"),
                "s.yaml",
                "brokerSystem",
                "KAFKA | TANSU");
        return t.cases.stream().map(Arguments::of);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void badInputExitsTwoWithOneLineAndStartsNoBroker(Case c) throws Exception {
        for (Map.Entry<String, String> f : c.files().entrySet()) {
            Path path = dir.resolve(f.getKey());
            if (f.getKey().endsWith("/")) {
                Files.createDirectories(path);
            } else if (f.getValue().startsWith("bytes:")) {
                Files.write(path, new byte[Integer.parseInt(f.getValue().substring("bytes:".length()))]);
            } else if (f.getValue().startsWith("latin1:")) {
                Files.write(path, f.getValue().substring("latin1:".length()).getBytes(StandardCharsets.ISO_8859_1));
            } else {
                Files.writeString(path, f.getValue().replace(DIR, dir.toString()));
            }
        }
        String[] args =
                c.args().stream().map(a -> a.replace(DIR, dir.toString())).toArray(String[]::new);
        Set<Path> brokerFoldersBefore = brokerFolders();

        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        PrintStream o = new PrintStream(out, true, StandardCharsets.UTF_8);
        PrintStream e = new PrintStream(err, true, StandardCharsets.UTF_8);
        int code = c.entry() == Entry.BENCHMARK ? Main.run(args, o, e) : SuiteMain.run(args, o, e);
        String stdout = out.toString(StandardCharsets.UTF_8);
        String stderr = err.toString(StandardCharsets.UTF_8);

        String seen = "\nstderr: " + stderr + "\nstdout: " + stdout;
        assertEquals(2, code, "exit code" + seen);
        assertTrue(stderr.startsWith("error: "), "starts with 'error: '" + seen);
        assertEquals(1, stderr.lines().count(), "exactly one line" + seen);
        assertTrue(stderr.endsWith("\n") && stderr.indexOf('\n') == stderr.length() - 1, "one line" + seen);
        assertFalse(stderr.contains("Exception"), "no exception names" + seen);
        assertFalse(stderr.contains("\tat "), "no stack trace" + seen);
        for (String fragment : c.mustName()) {
            assertTrue(stderr.contains(fragment), "names '" + fragment + "'" + seen);
        }
        assertFalse(stdout.contains("Usage:") || stdout.contains("--drivers"), "no usage dump" + seen);
        assertFalse(stdout.contains("Starting embedded Kafka"), "no broker started" + seen);
        assertFalse(stdout.contains("Starting embedded Tansu"), "no Tansu started" + seen);
        assertFalse(
                ProcessHandle.current().descendants().anyMatch(BadInputTableTest::isBroker),
                "no broker child process" + seen);
        Set<Path> newFolders = brokerFolders();
        newFolders.removeAll(brokerFoldersBefore);
        assertEquals(Set.of(), newFolders, "no broker data folder" + seen);
        assertFalse(
                Files.exists(dir.resolve("results"))
                        && Files.list(dir.resolve("results")).findAny().isPresent(),
                "no result written" + seen);
    }

    private static boolean isBroker(ProcessHandle p) {
        return p.info()
                .commandLine()
                .map(cmd -> cmd.contains("ChildKafkaMain") || cmd.contains("/tansu "))
                .orElse(false);
    }

    /**
     * The embedded brokers' data folders ({@code omb-tx-kafka-*} and Tansu's {@code omb-tx-tansu-*} in the temporary
     * folder) that exist now.
     */
    private static Set<Path> brokerFolders() throws IOException {
        Set<Path> found = new HashSet<>();
        for (String prefix : List.of(BROKER_FOLDER_PREFIX, "omb-tx-tansu-")) {
            try (DirectoryStream<Path> s =
                    Files.newDirectoryStream(Path.of(System.getProperty("java.io.tmpdir")), prefix + "*")) {
                s.forEach(found::add);
            }
        }
        return found;
    }
}
