package io.ombtx.runner.stats;

/**
 * One reporting period of the measured phase: how long it lasted, where it ended (seconds since the measurement
 * began), what the workers measured in it, and the backlog at its end.
 */
public record Period(double seconds, double elapsedSeconds, StatsSnapshot stats, long backlog) {}
