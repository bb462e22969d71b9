package io.ombtx.runner.fault;

import io.ombtx.driver.api.KeySuggestions;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The hook that injects faults into an external cluster ({@code --fault-command}): a shell command template run
 * on this host with {@code /bin/sh -c}, once per action, e.g.
 * {@code ssh {host} sudo /usr/local/bin/omb-tx-fault {action}}. Placeholders: {@code {action}} (kill, pause,
 * resume, stop, restart), {@code {broker}} (the node id), {@code {host}} and {@code {port}} (the broker's address
 * from the cluster metadata). Values are checked before they are put in (a host name of letters, digits, dots,
 * dashes, colons), so the template needs no quoting.
 */
public record FaultCommand(String template) {

    public static final List<String> PLACEHOLDERS = List.of("action", "broker", "host", "port");
    private static final Pattern PLACEHOLDER = Pattern.compile("\\{([^{}\\s]*)}");
    private static final Pattern SAFE_HOST = Pattern.compile("[A-Za-z0-9._:\\[\\]-]+");

    /** Why {@code template} cannot be used, or empty when it can. */
    public static Optional<String> problem(String template) {
        if (template == null || template.isBlank()) {
            return Optional.of("expected a command, e.g. 'ssh {host} sudo /usr/local/bin/omb-tx-fault {action}'");
        }
        Matcher m = PLACEHOLDER.matcher(template);
        List<String> used = new ArrayList<>();
        while (m.find()) {
            String name = m.group(1);
            if (!PLACEHOLDERS.contains(name)) {
                return Optional.of("unknown placeholder {" + name + "}"
                        + KeySuggestions.closest(name, PLACEHOLDERS)
                                .map(s -> " (did you mean {" + s + "}?)")
                                .orElse("")
                        + "; the template may use {" + String.join("}, {", PLACEHOLDERS) + "}");
            }
            used.add(name);
        }
        if (!used.contains("action")) {
            return Optional.of("the template must pass {action} (kill, pause, resume, stop or restart)");
        }
        if (!used.contains("host") && !used.contains("broker")) {
            return Optional.of("the template must say which broker: {host} (with {port}) or {broker} (the node id)");
        }
        return Optional.empty();
    }

    /** The command line for one action on one broker. */
    public String render(String action, int nodeId, String host, int port) {
        if (!SAFE_HOST.matcher(host).matches()) {
            throw new IllegalArgumentException("broker " + nodeId + "'s host '" + host + "' is not a plain host name");
        }
        Map<String, String> values = Map.of(
                "action", action, "broker", Integer.toString(nodeId), "host", host, "port", Integer.toString(port));
        Matcher m = PLACEHOLDER.matcher(template);
        StringBuilder out = new StringBuilder();
        while (m.find()) {
            m.appendReplacement(out, Matcher.quoteReplacement(values.get(m.group(1))));
        }
        m.appendTail(out);
        return out.toString();
    }
}
