package io.ombtx.runner.config;

import java.util.Collection;
import java.util.Locale;
import java.util.Optional;

/** "Did you mean ...?" for misspelt keys: the closest known key within a small edit distance. */
public final class Suggestions {

    private Suggestions() {
    }

    public static Optional<String> closest(String unknown, Collection<String> known) {
        String best = null;
        int bestDistance = Integer.MAX_VALUE;
        for (String candidate : known) {
            int distance = distance(unknown.toLowerCase(Locale.ROOT), candidate.toLowerCase(Locale.ROOT));
            if (distance < bestDistance) {
                best = candidate;
                bestDistance = distance;
            }
        }
        int tolerance = Math.max(2, unknown.length() / 3);
        return bestDistance <= tolerance ? Optional.ofNullable(best) : Optional.empty();
    }

    /** The message tail for an unknown key: the suggestion if any, else the list of accepted keys. */
    public static String unknownKey(String unknown, Collection<String> known) {
        return closest(unknown, known)
                .map(s -> "unknown key (did you mean '" + s + "'?)")
                .orElse("unknown key; expected one of " + String.join(", ", known));
    }

    /** Levenshtein distance. */
    static int distance(String a, String b) {
        int[] previous = new int[b.length() + 1];
        int[] current = new int[b.length() + 1];
        for (int j = 0; j <= b.length(); j++) {
            previous[j] = j;
        }
        for (int i = 1; i <= a.length(); i++) {
            current[0] = i;
            for (int j = 1; j <= b.length(); j++) {
                int substitution = previous[j - 1] + (a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1);
                current[j] = Math.min(substitution, Math.min(previous[j] + 1, current[j - 1] + 1));
            }
            int[] swap = previous;
            previous = current;
            current = swap;
        }
        return previous[b.length()];
    }
}
