package io.ombtx.driver.api;

import java.util.Collection;
import java.util.Locale;
import java.util.Optional;

/**
 * "Did you mean" for mistyped YAML keys, shared by the runner and the drivers so a typo gets the same help in a
 * workload, a suite or a driver file: the closest expected key by edit distance, if it is close enough.
 */
public final class KeySuggestions {

    private KeySuggestions() {}

    public static Optional<String> closest(String typed, Collection<String> expected) {
        String best = null;
        int bestDistance = Integer.MAX_VALUE;
        for (String candidate : expected) {
            int distance = distance(typed.toLowerCase(Locale.ROOT), candidate.toLowerCase(Locale.ROOT));
            if (distance < bestDistance) {
                best = candidate;
                bestDistance = distance;
            }
        }
        // A third of the key's length (at least 2 edits) catches typos and case slips without proposing
        // unrelated keys for genuinely foreign ones.
        int tolerated = Math.max(2, typed.length() / 3);
        if (bestDistance <= tolerated) {
            return Optional.ofNullable(best);
        }
        return longestSharedPrefix(typed, expected);
    }

    /** The message tail for an unknown key: the suggestion if any, else the list of accepted keys. */
    public static String unknownKey(String unknown, Collection<String> known) {
        return closest(unknown, known)
                .map(s -> "unknown key (did you mean '" + s + "'?)")
                .orElse("unknown key; expected one of " + String.join(", ", known));
    }

    /** Abbreviations ("messagesPerTxn"): a candidate sharing at least half of the typed key as its prefix. */
    private static Optional<String> longestSharedPrefix(String typed, Collection<String> expected) {
        String best = null;
        int bestLength = Math.max(4, (typed.length() + 1) / 2) - 1;
        for (String candidate : expected) {
            int shared = 0;
            while (shared < typed.length()
                    && shared < candidate.length()
                    && Character.toLowerCase(typed.charAt(shared)) == Character.toLowerCase(candidate.charAt(shared))) {
                shared++;
            }
            if (shared > bestLength) {
                best = candidate;
                bestLength = shared;
            }
        }
        return Optional.ofNullable(best);
    }

    /** Levenshtein distance, two rows. */
    public static int distance(String a, String b) {
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
