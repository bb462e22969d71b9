package io.ombtx.driver.api.config;

/**
 * Bad input: names the file, the key and what was expected. The CLI prints the message alone and exits with
 * code 2, never a stack trace.
 */
public final class ConfigException extends RuntimeException {

    private final String file;
    private final String key;
    private final String problem;

    public ConfigException(String file, String key, String problem) {
        super(format(file, key, problem));
        this.file = file;
        this.key = key;
        this.problem = problem;
    }

    /** The same mistake, with more said about where it came from. */
    public ConfigException withNote(String note) {
        return new ConfigException(file, key, problem + " (" + note + ")");
    }

    /** The same mistake, blamed on {@code key} (e.g. the key with the path of the profile that set it). */
    public ConfigException withKey(String key) {
        return new ConfigException(file, key, problem);
    }

    private static String format(String file, String key, String problem) {
        StringBuilder message = new StringBuilder();
        if (file != null) {
            message.append(file).append(": ");
        }
        if (key != null && !key.isEmpty()) {
            message.append("key '").append(key).append("': ");
        }
        return message.append(problem).toString();
    }

    public String file() {
        return file;
    }

    public String key() {
        return key;
    }

    /** What is wrong, without the file and key. */
    public String problem() {
        return problem;
    }
}
