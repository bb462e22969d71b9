package io.ombtx.runner.worker;

import java.net.URI;
import java.net.URISyntaxException;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/** What a worker URL may be: http or https, a host, an optional port, nothing else (a trailing '/' is fine). */
public final class WorkerUrls {

    public static final String EXPECTED = "expected http://host:port or https://host:port";

    private WorkerUrls() {}

    /**
     * {@code url} as it may be printed: any credentials in it ({@code user:password@}) replaced by {@code ***}, so
     * that an error about a URL never shows a password.
     */
    public static String shown(String url) {
        return url.replaceAll("(?<=//)[^/?#]*@", "***@");
    }

    /** Why {@code url} is not a worker URL, or empty when it is one. Never shows credentials the URL holds. */
    public static Optional<String> problem(String given) {
        String url = shown(given);
        URI uri;
        try {
            uri = new URI(given.trim());
        } catch (URISyntaxException e) {
            return Optional.of("'" + url + "' is not a URL (" + e.getReason().replace(given.trim(), url.trim()) + "); "
                    + EXPECTED);
        }
        String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
        if (!scheme.equals("http") && !scheme.equals("https")) {
            return Optional.of("'" + url + "' " + (scheme.isEmpty() ? "has no scheme" : "has scheme '" + scheme + "'")
                    + "; " + EXPECTED);
        }
        if (uri.getRawUserInfo() != null) {
            return Optional.of("'" + url + "' holds credentials (user:password@), which a worker takes none of; a"
                    + " worker started with a token is given it by --token-file or OMBTX_WORKER_TOKEN; " + EXPECTED);
        }
        if (uri.getHost() == null) {
            return Optional.of("'" + url + "' has no valid host; " + EXPECTED);
        }
        if (uri.getPort() != -1 && (uri.getPort() < 1 || uri.getPort() > 65535)) {
            return Optional.of("'" + url + "' has port " + uri.getPort() + ", outside 1 to 65535; " + EXPECTED);
        }
        String path = uri.getRawPath();
        if ((path != null && !path.isEmpty() && !path.equals("/"))
                || uri.getRawQuery() != null
                || uri.getRawFragment() != null) {
            return Optional.of("'" + url + "' has more than a host and port; " + EXPECTED);
        }
        return Optional.empty();
    }

    /**
     * Why {@code urls} (each a worker URL) cannot be one run's workers, or empty: a worker listed twice (the same
     * scheme, host and port, whatever the case or a trailing '/') would be given two workers' share of the run.
     */
    public static Optional<String> duplicateProblem(List<String> urls) {
        Map<String, String> seen = new HashMap<>();
        for (String url : urls) {
            URI uri = URI.create(url.trim());
            String scheme = uri.getScheme().toLowerCase(Locale.ROOT);
            int port = uri.getPort() != -1 ? uri.getPort() : scheme.equals("https") ? 443 : 80;
            String key = scheme + "://" + uri.getHost().toLowerCase(Locale.ROOT) + ":" + port;
            String first = seen.putIfAbsent(key, url);
            if (first != null) {
                return Optional.of("'" + url + "' is listed twice"
                        + (first.equals(url) ? "" : " (also as '" + first + "')") + "; each worker may be listed once");
            }
        }
        return Optional.empty();
    }
}
