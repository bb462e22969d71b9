package io.ombtx.runner.worker;

import java.util.concurrent.atomic.AtomicLong;

/**
 * An {@link AtomicLong} followed by a cache line of padding, so that two of them never share a line: the worker's
 * per-message counters are written by different threads (the producer threads, the clients' I/O threads), and
 * side by side each write would take the line from the other core (false sharing).
 */
@SuppressWarnings("unused")
final class PaddedAtomicLong extends AtomicLong {

    private static final long serialVersionUID = 1L;

    // Subclass fields are laid out after AtomicLong's value: 56 bytes here, plus the next object's header.
    private long p1;
    private long p2;
    private long p3;
    private long p4;
    private long p5;
    private long p6;
    private long p7;
}
