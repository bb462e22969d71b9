package io.ombtx.runner.result;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ombtx.runner.OmbTxHome;
import java.io.IOException;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * docs/result-format.md, the guide, checked against docs/result.schema.json, the definition: every field of the
 * schema is named in the guide, and every field the guide's tables name is in the schema.
 *
 * <p>How the guide names fields: a table whose header's first cell is {@code field} has one row per field (or a few),
 * named in code spans in its first cell. Those names are paths relative to the section's heading: the code spans in
 * the heading ({@code ### `faults`}, {@code ### Latency summaries: `operationLatency`, …}), or the top level for a
 * heading without any. {@code <phase>}, a map's key, stands for any key ({@code *} in schema paths). A field is named
 * when a row names its path, or names one of its ancestors and quotes the field's own name in the row ({@code
 * "messagesSent"} or {@code `messagesSent`}), as the rows for objects do: {@code `counts` | {"messagesSent", …}}.
 */
class ResultFormatDocTest {

    private static final Pattern CODE = Pattern.compile("`([^`]+)`");
    private static final Pattern KEY = Pattern.compile("<[^>]+>");

    /** One table row: the paths its first cell names, and the row's whole text. */
    record Row(List<String> names, String text) {}

    static List<Row> rows(List<String> lines) {
        List<Row> rows = new ArrayList<>();
        List<String> contexts = List.of("");
        boolean inFieldTable = false;
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i);
            if (line.startsWith("#")) {
                contexts = codeSpans(line);
                if (contexts.isEmpty()) {
                    contexts = List.of("");
                }
                inFieldTable = false;
            } else if (!line.startsWith("|")) {
                inFieldTable = false;
            } else if (!inFieldTable) {
                inFieldTable = firstCell(line).equals("field")
                        && i + 1 < lines.size()
                        && lines.get(i + 1).startsWith("|-");
                i += inFieldTable ? 1 : 0;
            } else {
                List<String> names = new ArrayList<>();
                for (String context : contexts) {
                    for (String name : codeSpans(firstCell(line))) {
                        names.add(context.isEmpty() ? name : context + "." + name);
                    }
                }
                rows.add(new Row(names, line));
            }
        }
        return rows;
    }

    private static String firstCell(String row) {
        int end = row.indexOf('|', 1);
        return row.substring(1, end < 0 ? row.length() : end).trim();
    }

    private static List<String> codeSpans(String text) {
        List<String> spans = new ArrayList<>();
        Matcher code = CODE.matcher(text);
        while (code.find()) {
            spans.add(KEY.matcher(code.group(1)).replaceAll("*"));
        }
        return spans;
    }

    /** Whether {@code row} names {@code path}, or an ancestor of it and quotes the path's last name. */
    static boolean names(Row row, String path) {
        if (row.names().contains(path)) {
            return true;
        }
        String leaf = path.substring(path.lastIndexOf('.') + 1);
        boolean quoted = row.text().contains("\"" + leaf + "\"")
                || codeSpans(row.text()).stream().anyMatch(c -> c.equals(leaf) || c.endsWith("." + leaf));
        return quoted && row.names().stream().anyMatch(n -> path.startsWith(n + "."));
    }

    private static List<Row> guide() throws IOException {
        List<Row> rows = rows(Files.readAllLines(OmbTxHome.locate().resolve("docs/result-format.md")));
        assertTrue(rows.size() > 40, "the guide's field tables were read: " + rows.size() + " rows");
        return rows;
    }

    /** The schema's fields: its property paths, less a map's free keys (a path ending in {@code *}). */
    private static Set<String> schemaFields() {
        Set<String> fields =
                new TreeSet<>(ResultSchemaTest.schemaPaths(ResultSchema.tree()).keySet());
        fields.removeIf(p -> p.endsWith("*"));
        return fields;
    }

    @Test
    void everyFieldOfTheSchemaIsNamedInTheGuide() throws IOException {
        List<Row> rows = guide();
        List<String> unnamed = schemaFields().stream()
                .filter(path -> rows.stream().noneMatch(row -> names(row, path)))
                .toList();
        assertEquals(List.of(), unnamed, "fields of the schema that docs/result-format.md does not name");
    }

    @Test
    void everyFieldTheGuidesTablesNameIsInTheSchema() throws IOException {
        Set<String> fields = schemaFields();
        Set<String> unknown = new TreeSet<>();
        guide().forEach(row ->
                row.names().stream().filter(n -> !fields.contains(n)).forEach(unknown::add));
        assertEquals(Set.of(), unknown, "fields docs/result-format.md names that the schema does not have");
    }

    @Test
    void aRowNamesAFieldByItsPathOrByAnAncestorThatQuotesIt() {
        List<Row> rows = rows(List.of(
                "## Top",
                "| field | what |",
                "|---|---|",
                "| `counts` | `{\"messagesSent\", \"failed\"}`; `retries` too |",
                "| `a`, `b.c` | |",
                "### `faults`",
                "| field | what |",
                "|---|---|",
                "| `action` | kill |",
                "### Summaries: `x`, `m.<key>`",
                "| field | what |",
                "|---|---|",
                "| `p50` | |",
                "",
                "| class | what |",
                "|---|---|",
                "| `NotAField` | |"));
        assertEquals(
                List.of(List.of("counts"), List.of("a", "b.c"), List.of("faults.action"), List.of("x.p50", "m.*.p50")),
                rows.stream().map(Row::names).toList());
        Row counts = rows.get(0);
        assertTrue(names(counts, "counts.messagesSent"));
        assertTrue(names(counts, "counts.retries"));
        assertTrue(!names(counts, "counts.fenced"), "not quoted");
        assertTrue(!names(counts, "summary.failed"), "quoted, but under another field");
        assertTrue(names(rows.get(3), "m.*.p50"));
    }
}
