package io.ombtx.bench;

import io.ombtx.runner.config.UsageException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The rounds of several {@code bin/bench fidelity} runs taken together ({@code --pool}): on a machine where one
 * loop's runs differ by more than the ±5% band, five rounds leave many medians undecided, and the rounds of runs
 * made on other days (each kept with {@code --keep-work}) decide them only if they can be read back as one sample.
 *
 * <p>A run writes two files into its work folder for this: {@value #SETUP_FILE}, its set-up (every setting that
 * changes what a round measures, one {@code key: value} line each), and {@value #ROUNDS_FILE}, a line per round
 * it measured on every side ({@code scenario round}); a round left out of the run's own figures (a side failed) is
 * not in it. Pooled folders must agree on every set-up line but the rounds', the build's and the A/A's.
 */
final class FidelityPool {

    static final String SETUP_FILE = "fidelity-setup.txt";
    static final String ROUNDS_FILE = "fidelity-rounds.txt";
    /** The set-up line that may differ between pooled runs. */
    static final String ROUNDS_KEY = "rounds";
    /**
     * The omb-tx build a run measured (its checkout's commit): may differ between pooled runs (a change to the
     * benchmark or the docs leaves the loops as they were), and the pooled header names each folder's.
     */
    static final String BUILD_KEY = "omb-tx build";
    /**
     * The set-up line saying whether each round ran the bare loop twice. It may differ between pooled runs: omb-tx ÷
     * the bare loop is the same comparison either way, and the bare loop's second runs are pooled only when every
     * run has them ({@link Kept#allAa}).
     */
    static final String AA_KEY = "A/A";

    private FidelityPool() {}

    /** Writes a run's set-up, in the order given, into its work folder. */
    static void writeSetup(Path work, Map<String, String> setup) throws IOException {
        StringBuilder text = new StringBuilder();
        setup.forEach(
                (key, value) -> text.append(key).append(": ").append(value).append('\n'));
        Files.writeString(work.resolve(SETUP_FILE), text);
    }

    /** Adds a measured round to the run's list of them. */
    static void recordRound(Path work, String scenario, int round) throws IOException {
        Files.writeString(
                work.resolve(ROUNDS_FILE),
                scenario + " " + round + "\n",
                java.nio.file.StandardOpenOption.CREATE,
                java.nio.file.StandardOpenOption.APPEND);
    }

    /** A folder's set-up lines, keys in their order; a UsageException naming the folder when it has none. */
    static Map<String, String> readSetup(Path folder) {
        Path file = folder.resolve(SETUP_FILE);
        if (!Files.isDirectory(folder)) {
            throw new UsageException("--pool " + folder + ": no such folder");
        }
        if (!Files.isRegularFile(file) || !Files.isRegularFile(folder.resolve(ROUNDS_FILE))) {
            throw new UsageException("--pool " + folder + ": expected the work folder of a bin/bench fidelity run"
                    + " kept with --keep-work, holding " + SETUP_FILE + " and " + ROUNDS_FILE);
        }
        Map<String, String> setup = new LinkedHashMap<>();
        try {
            for (String line : Files.readAllLines(file)) {
                int colon = line.indexOf(": ");
                if (line.isBlank()) {
                    continue;
                }
                if (colon < 1) {
                    throw new UsageException(
                            "--pool " + file + ": expected 'key: value' lines, got '" + line.strip() + "'");
                }
                setup.put(line.substring(0, colon), line.substring(colon + 2));
            }
        } catch (IOException e) {
            throw new UsageException("--pool " + file + ": " + e.getMessage());
        }
        return setup;
    }

    /**
     * The kept runs to pool: their folders and each one's set-up, read once. {@link #read} refuses folders whose
     * set-ups differ.
     */
    record Kept(List<Path> folders, List<Map<String, String>> setups) {

        /**
         * Reads every folder's set-up; a UsageException naming the first folder whose set-up differs from the first
         * one's in anything but the rounds, the build and the A/A, and the line where.
         */
        static Kept read(List<Path> folders) {
            List<Map<String, String>> setups =
                    folders.stream().map(FidelityPool::readSetup).toList();
            Map<String, String> first = comparable(setups.get(0));
            for (int i = 1; i < folders.size(); i++) {
                Map<String, String> other = comparable(setups.get(i));
                for (String key : union(first, other)) {
                    String a = first.getOrDefault(key, "(none)");
                    String b = other.getOrDefault(key, "(none)");
                    if (!a.equals(b)) {
                        throw new UsageException("--pool " + folders.get(i) + ": its run's set-up differs from "
                                + folders.get(0) + "'s in '" + key + "': " + b + ", expected " + a
                                + " (only rounds of one set-up are pooled)");
                    }
                }
            }
            return new Kept(folders, setups);
        }

        /** The set-up the runs share: the first one's, without the lines that may differ. */
        Map<String, String> common() {
            return comparable(setups.get(0));
        }

        /** Whether every run ran the bare loop twice a round (--aa). */
        boolean allAa() {
            return setups.stream().allMatch(Kept::ranAa);
        }

        /** Whether any run ran the bare loop twice a round. */
        boolean anyAa() {
            return setups.stream().anyMatch(Kept::ranAa);
        }

        private static boolean ranAa(Map<String, String> setup) {
            return "yes".equals(setup.get(AA_KEY));
        }

        /** The runs' build, when they share one, else "not the same in every run: " and each folder's. */
        String builds() {
            List<String> builds = setups.stream()
                    .map(setup -> setup.getOrDefault(BUILD_KEY, "unknown"))
                    .toList();
            if (builds.stream().distinct().count() == 1) {
                return builds.get(0);
            }
            List<String> each = new ArrayList<>();
            for (int i = 0; i < folders.size(); i++) {
                each.add(builds.get(i) + " (" + folders.get(i) + ")");
            }
            return "not the same in every run: " + String.join(", ", each);
        }

        private static Map<String, String> comparable(Map<String, String> setup) {
            Map<String, String> lines = new LinkedHashMap<>(setup);
            lines.remove(ROUNDS_KEY);
            lines.remove(BUILD_KEY);
            lines.remove(AA_KEY);
            return lines;
        }
    }

    /**
     * The omb-tx build of the checkout at {@code home}: its commit, with "+changes" when its tracked files differ
     * from it; "unknown" outside a git checkout.
     */
    static String build(Path home) {
        try {
            String commit = git(home, "rev-parse", "--short=12", "HEAD");
            if (commit == null) {
                return "unknown";
            }
            String changes = git(home, "status", "--porcelain", "--untracked-files=no");
            return commit + (changes == null || changes.isEmpty() ? "" : "+changes");
        } catch (IOException e) {
            return "unknown";
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "unknown";
        }
    }

    /** A git command's output, stripped; null when it fails. */
    private static String git(Path home, String... args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of("git", "-C", home.toString()));
        command.addAll(List.of(args));
        Process git = new ProcessBuilder(command)
                .redirectError(ProcessBuilder.Redirect.DISCARD)
                .start();
        String output = new String(git.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        return git.waitFor() == 0 ? output.strip() : null;
    }

    private static List<String> union(Map<String, String> a, Map<String, String> b) {
        List<String> keys = new ArrayList<>(a.keySet());
        b.keySet().stream().filter(k -> !a.containsKey(k)).forEach(keys::add);
        return keys;
    }

    /**
     * Every measured round of the folders, per scenario in the order of {@code scenarios} (those no folder measured
     * are left out), each as its sides' figures (omb-tx, the bare loop, with A/A the bare loop again), folder by
     * folder and round by round.
     */
    static Map<String, List<FidelityFigures[]>> rounds(List<Path> folders, List<String> scenarios, boolean aa) {
        Map<String, List<FidelityFigures[]>> measured = new LinkedHashMap<>();
        scenarios.forEach(s -> measured.put(s, new ArrayList<>()));
        for (Path folder : folders) {
            List<String> lines;
            try {
                lines = Files.readAllLines(folder.resolve(ROUNDS_FILE));
            } catch (IOException e) {
                throw new UsageException("--pool " + folder.resolve(ROUNDS_FILE) + ": " + e.getMessage());
            }
            for (String line : lines) {
                String[] parts = line.strip().split(" ");
                if (parts.length != 2 || !measured.containsKey(parts[0])) {
                    continue; // a blank line, or a scenario not asked for
                }
                String prefix = parts[0] + "-" + parts[1];
                FidelityFigures[] sides = new FidelityFigures[aa ? 3 : 2];
                try {
                    sides[0] = FidelityFigures.readOmbTx(parts[0], folder.resolve(prefix + "-omb.json"));
                    for (int side = 1; side < sides.length; side++) {
                        sides[side] = FidelityFigures.readBare(folder.resolve(prefix + "-bare" + side + ".csv"));
                    }
                } catch (IOException | RuntimeException e) { // gone, empty or not a result (a decode or number error)
                    throw new UsageException("--pool " + folder + ": round " + parts[1] + " of " + parts[0]
                            + " is listed in " + ROUNDS_FILE + " but its files cannot be read: " + e);
                }
                measured.get(parts[0]).add(sides);
            }
        }
        measured.values().removeIf(List::isEmpty);
        return measured;
    }
}
