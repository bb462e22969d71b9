package io.ombtx.driver.api;

/**
 * Optional, implemented by a {@code BenchmarkDriver} whose YAML has keys of its own: the runner creates the driver
 * (public no-argument constructor, nothing else) and asks it to check the effective driver YAML while planning,
 * before any broker or worker starts, so a typo fails with exit code 2 instead of after minutes of setup.
 * The check must not connect anywhere.
 */
public interface CheckedConfiguration {

    /**
     * Checks {@code yamlText} as {@code initialize} would read it.
     *
     * @param source the user's file name, for messages
     * @throws io.ombtx.driver.api.config.ConfigException naming {@code source}, the key and what was expected
     */
    void checkConfiguration(String source, String yamlText);
}
