package io.ombtx.runner;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The runner's packages depend on each other in one direction: the graph of their references (imports and fully
 * qualified names in code, comments left out) has no cycle. A failure names each cycle's packages and, for each
 * edge in it, a file that makes it. And the result types refer to no input (config) type.
 */
class PackageGraphTest {

    private static final String BASE = "io.ombtx.runner";
    private static final Pattern PACKAGE = Pattern.compile("^package\\s+([\\w.]+)\\s*;", Pattern.MULTILINE);
    /** A reference to a runner type: the package part, then an upper-case type name. */
    private static final Pattern REFERENCE = Pattern.compile("\\bio\\.ombtx\\.runner((?:\\.[a-z][a-z0-9]*)*)\\.[A-Z]");

    /** package → package it refers to → one file that does. */
    static Map<String, Map<String, String>> graph(Path sources) {
        Map<String, Map<String, String>> edges = new TreeMap<>();
        try (Stream<Path> files = Files.walk(sources)) {
            for (Path file : files.filter(f -> f.toString().endsWith(".java")).toList()) {
                String text = withoutComments(Files.readString(file));
                Matcher own = PACKAGE.matcher(text);
                if (!own.find()) {
                    continue;
                }
                String from = own.group(1);
                Map<String, String> out = edges.computeIfAbsent(from, k -> new TreeMap<>());
                Matcher reference = REFERENCE.matcher(text);
                while (reference.find()) {
                    String to = BASE + reference.group(1);
                    if (!to.equals(from)) {
                        out.putIfAbsent(to, sources.relativize(file).toString());
                    }
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return edges;
    }

    /**
     * Java source without its comments and with its string and character literals emptied: a class named in a string
     * (a main class for a child JVM) is not a dependency, and a "//" inside a string is not a comment.
     */
    static String withoutComments(String source) {
        StringBuilder out = new StringBuilder(source.length());
        int i = 0;
        while (i < source.length()) {
            char c = source.charAt(i);
            if (c == '"' || c == '\'') {
                int end = i + 1;
                while (end < source.length() && source.charAt(end) != c) {
                    end += source.charAt(end) == '\\' ? 2 : 1;
                }
                out.append(c).append(c);
                i = end + 1;
            } else if (source.startsWith("//", i)) {
                int end = source.indexOf('\n', i);
                i = end < 0 ? source.length() : end;
            } else if (source.startsWith("/*", i)) {
                int end = source.indexOf("*/", i + 2);
                i = end < 0 ? source.length() : end + 2;
            } else {
                out.append(c);
                i++;
            }
        }
        return out.toString();
    }

    /** The strongly connected components of more than one package (Tarjan), each sorted. */
    static List<Set<String>> cycles(Map<String, Map<String, String>> edges) {
        Map<String, Integer> index = new HashMap<>();
        Map<String, Integer> low = new HashMap<>();
        Deque<String> stack = new ArrayDeque<>();
        Set<String> onStack = new TreeSet<>();
        List<Set<String>> found = new ArrayList<>();
        int[] counter = {0};
        for (String start : edges.keySet()) {
            if (!index.containsKey(start)) {
                connect(start, edges, index, low, stack, onStack, found, counter);
            }
        }
        return found;
    }

    private static void connect(
            String node,
            Map<String, Map<String, String>> edges,
            Map<String, Integer> index,
            Map<String, Integer> low,
            Deque<String> stack,
            Set<String> onStack,
            List<Set<String>> found,
            int[] counter) {
        index.put(node, counter[0]);
        low.put(node, counter[0]);
        counter[0]++;
        stack.push(node);
        onStack.add(node);
        for (String next : edges.getOrDefault(node, Map.of()).keySet()) {
            if (!index.containsKey(next)) {
                connect(next, edges, index, low, stack, onStack, found, counter);
                low.put(node, Math.min(low.get(node), low.get(next)));
            } else if (onStack.contains(next)) {
                low.put(node, Math.min(low.get(node), index.get(next)));
            }
        }
        if (low.get(node).equals(index.get(node))) {
            Set<String> component = new TreeSet<>();
            String member;
            do {
                member = stack.pop();
                onStack.remove(member);
                component.add(member);
            } while (!member.equals(node));
            if (component.size() > 1) {
                found.add(component);
            }
        }
    }

    @Test
    void theRunnersPackagesFormNoCycle() {
        Path sources = OmbTxHome.locate().resolve("runner/src/main/java");
        Map<String, Map<String, String>> edges = graph(sources);
        assertTrue(edges.size() >= 10, "the runner's packages were read: " + edges.keySet());
        StringBuilder report = new StringBuilder();
        for (Set<String> cycle : cycles(edges)) {
            report.append("\ncycle among ").append(cycle).append(':');
            for (String from : cycle) {
                edges.get(from).forEach((to, file) -> {
                    if (cycle.contains(to)) {
                        report.append("\n  ")
                                .append(from)
                                .append(" -> ")
                                .append(to)
                                .append(" (")
                                .append(file)
                                .append(')');
                    }
                });
            }
        }
        assertEquals("", report.toString(), "the runner's package graph has cycles");
    }

    /** A reference to anything in the input (config) package: a type, a static member, a wildcard import. */
    private static final Pattern CONFIG_REFERENCE = Pattern.compile("\\bio\\.ombtx\\.runner\\.config\\b");

    /** The files of {@code dir} that refer to the config package in code (comments and strings left out). */
    static List<String> filesReferringToConfig(Path dir) {
        List<String> found = new ArrayList<>();
        try (Stream<Path> files = Files.list(dir)) {
            for (Path file :
                    files.filter(f -> f.toString().endsWith(".java")).sorted().toList()) {
                String code = withoutComments(Files.readString(file));
                Matcher reference = CONFIG_REFERENCE.matcher(code);
                if (reference.find()) {
                    // Near: a block comment taken out takes its line breaks with it.
                    long line = 1
                            + code.substring(0, reference.start())
                                    .chars()
                                    .filter(c -> c == '\n')
                                    .count();
                    found.add(file.getFileName() + " (near line " + line + ")");
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return found;
    }

    /**
     * The result types know nothing of the input: no file in {@code result/} refers to {@code io.ombtx.runner.config}
     * (by import, static import, wildcard or qualified name), so renaming a workload enum or reshaping a config record
     * cannot change the result file. The planner turns input values into result values ({@code plan.AsRecorded}).
     */
    @Test
    void theResultTypesReferToNoInputType() {
        Path result = OmbTxHome.locate().resolve("runner/src/main/java/io/ombtx/runner/result");
        assertTrue(Files.isRegularFile(result.resolve("RunResult.java")), "the result package was found: " + result);
        assertEquals(
                List.of(), filesReferringToConfig(result), "files in result/ that refer to io.ombtx.runner.config");
    }

    @Test
    void aConfigReferenceIsFoundInAnyFormButNotInACommentOrAString(@TempDir Path dir) throws IOException {
        Files.writeString(
                dir.resolve("Clean.java"),
                """
                package io.ombtx.runner.result;
                // io.ombtx.runner.config.Workload is read by the planner, not here
                /** {@link io.ombtx.runner.config.LoopMode} */
                class Clean { String s = "io.ombtx.runner.config.X"; io.ombtx.runner.configured.Y y; }
                """);
        Files.writeString(dir.resolve("Wildcard.java"), "package p;\n\nimport io.ombtx.runner.config.*;\nclass W {}\n");
        Files.writeString(
                dir.resolve("Qualified.java"),
                "package p;\nclass Q { Object o = io.ombtx.runner.config.LoopMode.OPEN; }\n");
        Files.writeString(
                dir.resolve("Static.java"),
                "package p;\nimport static io.ombtx.runner.config.LoopMode.OPEN;\nclass S {}\n");
        assertEquals(
                List.of("Qualified.java (near line 2)", "Static.java (near line 2)", "Wildcard.java (near line 3)"),
                filesReferringToConfig(dir));
    }

    @Test
    void aCycleIsFoundAndCommentsDoNotCount() {
        Map<String, Map<String, String>> edges = new TreeMap<>();
        edges.put("a", Map.of("b", "A.java"));
        edges.put("b", Map.of("c", "B.java"));
        edges.put("c", Map.of("a", "C.java", "d", "C.java"));
        edges.put("d", Map.of());
        assertEquals(List.of(Set.of("a", "b", "c")), cycles(edges));
        edges.put("c", Map.of("d", "C.java"));
        assertEquals(List.of(), cycles(edges));
        assertEquals(
                "int x = 1;  String s = \"\"; \n",
                withoutComments(
                        "int x = 1; /* io.ombtx.runner.run.X */ String s = \"// io.ombtx.runner.b.C\"; // io.ombtx.runner.a.B\n"));
    }
}
