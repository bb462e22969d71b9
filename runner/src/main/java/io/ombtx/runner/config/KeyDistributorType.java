package io.ombtx.runner.config;

/** OMB's key distributors: how a message key is chosen. */
public enum KeyDistributorType {
    NO_KEY,
    KEY_ROUND_ROBIN,
    RANDOM_NANO
}
