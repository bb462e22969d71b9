package io.ombtx.runner;

import com.fasterxml.jackson.databind.JsonNode;
import io.ombtx.driver.api.KeySuggestions;
import io.ombtx.driver.api.config.ConfigException;
import io.ombtx.driver.api.config.YamlFiles;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * The driver files shipped in the installation ({@code driver-*}/{@code *.yaml} under {@link OmbTxHome}), so that
 * {@code -d} may name one from any folder: by its path in the installation ({@code driver-redpanda-tx/redpanda-tx.yaml}),
 * its file name ({@code redpanda-tx.yaml}, {@code redpanda-tx}), its module ({@code driver-redpanda-tx}, for the
 * module's own {@code redpanda-tx.yaml}) or its {@code name:} when only one file has it. A file that exists is always
 * what it names.
 */
public final class ShippedDrivers {

    private ShippedDrivers() {}

    /**
     * {@code given} when it exists, else the shipped driver it names.
     *
     * @throws ConfigException when it names none: file not found, with the nearest shipped driver
     */
    public static Path resolve(Path given) {
        if (Files.exists(given)) {
            return given;
        }
        Path home;
        try {
            home = OmbTxHome.locate();
        } catch (IllegalStateException e) {
            throw notFound(given, Map.of());
        }
        if (!given.isAbsolute() && Files.isRegularFile(home.resolve(given))) {
            return home.resolve(given);
        }
        Map<String, List<Path>> names = names(home);
        String wanted = stem(
                given.getFileName() == null
                        ? given.toString()
                        : given.getFileName().toString());
        List<Path> found = names.getOrDefault(wanted, List.of());
        if (found.size() == 1) {
            return found.get(0);
        }
        if (found.size() > 1) {
            throw new ConfigException(
                    given.toString(),
                    null,
                    "file not found; shipped drivers named '" + wanted + "': "
                            + String.join(
                                    ", ",
                                    found.stream()
                                            .map(p -> home.relativize(p).toString())
                                            .toList())
                            + " (give one of their paths)");
        }
        throw notFound(given, relative(home, names));
    }

    private static ConfigException notFound(Path given, Map<String, List<Path>> names) {
        String wanted = stem(
                given.getFileName() == null
                        ? given.toString()
                        : given.getFileName().toString());
        // Shorter names first: of several sharing the typed prefix, the plainest driver is suggested.
        List<String> candidates = names.keySet().stream()
                .sorted(java.util.Comparator.comparingInt(String::length)
                        .thenComparing(java.util.Comparator.naturalOrder()))
                .toList();
        String hint = KeySuggestions.closest(wanted, candidates)
                .map(name ->
                        "; the nearest shipped driver is " + names.get(name).get(0) + " (-d " + name + ")")
                .orElse(
                        names.isEmpty()
                                ? ""
                                : "; shipped drivers: "
                                        + String.join(
                                                ", ",
                                                names.values().stream()
                                                        .map(l -> l.get(0).toString())
                                                        .distinct()
                                                        .toList()));
        return new ConfigException(given.toString(), null, "file not found" + hint);
    }

    private static Map<String, List<Path>> relative(Path home, Map<String, List<Path>> names) {
        Map<String, List<Path>> out = new LinkedHashMap<>();
        names.forEach((name, paths) ->
                out.put(name, paths.stream().map(home::relativize).toList()));
        return out;
    }

    /**
     * Each name a shipped driver answers to, with the files answering to it: file stems first, then modules, then
     * {@code name:} values (which several files may share).
     */
    static Map<String, List<Path>> names(Path home) {
        Map<String, List<Path>> byStem = new LinkedHashMap<>();
        Map<String, List<Path>> byModule = new LinkedHashMap<>();
        Map<String, List<Path>> byName = new LinkedHashMap<>();
        for (Path file : files(home)) {
            String stem = stem(file.getFileName().toString());
            byStem.computeIfAbsent(stem, k -> new ArrayList<>()).add(file);
            String module = file.getParent().getFileName().toString();
            if (module.equals("driver-" + stem)) {
                byModule.computeIfAbsent(module, k -> new ArrayList<>()).add(file);
            }
            try {
                JsonNode name = YamlFiles.read(file).get("name");
                if (name != null && name.isTextual()) {
                    byName.computeIfAbsent(name.asText(), k -> new ArrayList<>())
                            .add(file);
                }
            } catch (ConfigException e) {
                // Not a driver file after all; still reachable by its file name.
            }
        }
        Map<String, List<Path>> all = new LinkedHashMap<>(byStem);
        byModule.forEach(all::putIfAbsent);
        byName.forEach(all::putIfAbsent);
        return all;
    }

    private static List<Path> files(Path home) {
        List<Path> files = new ArrayList<>();
        try (Stream<Path> modules = Files.list(home)) {
            for (Path module : modules.filter(Files::isDirectory)
                    .filter(p -> p.getFileName().toString().startsWith("driver-"))
                    .sorted()
                    .toList()) {
                try (Stream<Path> yamls = Files.list(module)) {
                    yamls.filter(p -> p.toString().endsWith(".yaml") && Files.isRegularFile(p))
                            .sorted()
                            .forEach(files::add);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return files;
    }

    private static String stem(String fileName) {
        for (String extension : new String[] {".yaml", ".yml"}) {
            if (fileName.endsWith(extension)) {
                return fileName.substring(0, fileName.length() - extension.length());
            }
        }
        return fileName;
    }
}
