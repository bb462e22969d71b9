package io.ombtx.runner.worker;

import java.net.URI;
import java.net.URISyntaxException;
import java.util.Locale;
import java.util.Optional;

/** What a worker URL may be: http or https, a host, an optional port, nothing else (a trailing '/' is fine). */
public final class WorkerUrls {

    public static final String EXPECTED = "expected http://host:port or https://host:port";

    private WorkerUrls() {}

    /** Why {@code url} is not a worker URL, or empty when it is one. */
    public static Optional<String> problem(String url) {
        URI uri;
        try {
            uri = new URI(url.trim());
        } catch (URISyntaxException e) {
            return Optional.of("'" + url + "' is not a URL (" + e.getReason() + "); " + EXPECTED);
        }
        String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
        if (!scheme.equals("http") && !scheme.equals("https")) {
            return Optional.of("'" + url + "' " + (scheme.isEmpty() ? "has no scheme" : "has scheme '" + scheme + "'")
                    + "; " + EXPECTED);
        }
        if (uri.getHost() == null || uri.getRawUserInfo() != null) {
            return Optional.of("'" + url + "' has no valid host; " + EXPECTED);
        }
        String path = uri.getRawPath();
        if ((path != null && !path.isEmpty() && !path.equals("/"))
                || uri.getRawQuery() != null
                || uri.getRawFragment() != null) {
            return Optional.of("'" + url + "' has more than a host and port; " + EXPECTED);
        }
        return Optional.empty();
    }
}
