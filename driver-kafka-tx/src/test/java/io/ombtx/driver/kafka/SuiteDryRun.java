package io.ombtx.driver.kafka;

import io.ombtx.runner.OmbTxHome;
import io.ombtx.runner.SuiteMain;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** A shipped suite's dry run (no broker starts), for the suite tests: what it returned and printed. */
record SuiteDryRun(int code, String out, String err) {

    static SuiteDryRun of(String suite, String profile) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code = SuiteMain.run(
                new String[] {
                    "--dry-run",
                    "--profile",
                    profile,
                    OmbTxHome.locate().resolve(suite).toString()
                },
                new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
        return new SuiteDryRun(code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    /** How many lines of the output match {@code regex}. */
    int count(String regex) {
        Matcher m = Pattern.compile(regex, Pattern.MULTILINE).matcher(out);
        int n = 0;
        while (m.find()) {
            n++;
        }
        return n;
    }
}
