package io.ombtx.runner.config;

/** One point of a sweep: the workload it came from, the swept field and this run's value. */
public record SweepPoint(String sweepName, String parameter, String value) {}
