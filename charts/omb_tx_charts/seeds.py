"""The figures the seed benchmarks published, in one sourced table: the reference every finding is judged against.

Each figure names the seed document and the section it comes from, the system and set-up it was measured on,
and the value as published (a range when the seed gives one, or when it gives one figure per topology). Only
facts are kept here: the numbers, what they measure and where they stand; the wording is ours.
"""

from __future__ import annotations

import math
from dataclasses import dataclass


@dataclass(frozen=True)
class Seed:
    number: str  # "000" ... "004": how this repository refers to it
    title: str
    description: str  # who published it and what it measures, in a line


SEEDS: dict[str, Seed] = {
    seed.number: seed
    for seed in (
        Seed("000", "Kafka transactional performance",
             "Vectorized's kafka-tx-performance benchmarks: multi-partition writes and consume-transform-produce "
             "streaming, with and without transactions, on a 3-node Kafka 2.7 cluster (i3.large, NVMe)"),
        Seed("001", "Benchmarks (Redpanda and Kafka transactions)",
             "TxSendBench, FetchBench, TxSendOffsetsBench and StreamBench, Redpanda against Kafka on a laptop "
             "(single node) and on 3 × i3.large"),
        Seed("002", "Kafka Producer SLA Load Test",
             "three topic profiles (yolo, throughput, durable: replication, min ISR and acks) timed for 100k and "
             "1M messages on 3 local brokers (a MacBook Pro, Confluent 4.0)"),
        Seed("003", "Kafka-compatible fast distributed transactions",
             "Denis Rystsov's Redpanda blog post (14 September 2021): transactional against naive streaming, "
             "the phases of a transaction, transactional bulk insert, Kafka 2.8.0 tuning "
             "(retry.backoff.ms=0, RF 3, fsync per message)"),
        Seed("004", "transport-bench: event-driven transport frameworks compared",
             "end-to-end latency percentiles of Kafka 2.8.0, Redpanda 21.7.6 and Aeron 1.34.0 at 1K to 100K msg/s, "
             "1 producer, 1 consumer, 1 partition, ~78-byte messages, all on one host"),
    )
}


@dataclass(frozen=True)
class SeedFigure:
    """One published figure. ``low``..``high`` is the value (equal for a single figure); a direction-only
    claim (``low`` = 1, ``high`` = inf) says "more than 1×" without a number."""

    key: str  # finding key + system, e.g. "001-txsend/Kafka"
    seed: str  # "001"
    section: str  # where in the seed document
    system: str  # "Kafka", "Redpanda", "Aeron"
    setup: str  # the seed's hardware and version, briefly
    low: float
    high: float
    unit: str  # "×", "ms", "msg/s"
    shown: str  # the figure as the report prints it

    @property
    def direction_only(self) -> bool:
        return math.isinf(self.high) and not math.isinf(self.low)


def _figure(key: str, seed: str, section: str, system: str, setup: str, low: float, high: float, unit: str,
            shown: str) -> SeedFigure:
    return SeedFigure(key, seed, section, system, setup, low, high, unit, shown)


_KAFKA_001 = "Kafka, laptop single node / 3 × i3.large"
_REDPANDA_001 = "Redpanda, laptop single node / 3 × i3.large"

FIGURES: tuple[SeedFigure, ...] = (
    # Seed 000, "Results": tx overhead against the base benchmarks (Kafka 2.7, 3 nodes).
    _figure("000-writes/Kafka", "000", "Results (TxWritesBench vs BaseWritesBench)", "Kafka",
            "Kafka 2.7, 3 × i3.large", 30, 50, "×", "30–50×"),
    _figure("000-streaming/Kafka", "000", "Results (TxStreamingBench vs BaseStreamingBench)", "Kafka",
            "Kafka 2.7, 3 × i3.large", 40, 120, "×", "40–120×"),
    # Seed 001: the median of each benchmark, single node and 3 nodes (the range spans the two).
    _figure("001-txsend/Kafka", "001", "TxSendBench, median: 39 ms single node, 25.5 ms on 3 nodes", "Kafka",
            _KAFKA_001, 25.5, 39, "ms", "25.5–39 ms"),
    _figure("001-txsend/Redpanda", "001", "TxSendBench, median: 3.9 ms single node, 3.7 ms on 3 nodes", "Redpanda",
            _REDPANDA_001, 3.7, 3.9, "ms", "3.7–3.9 ms"),
    _figure("001-sendoffsets/Kafka", "001", "TxSendOffsetsBench, median: 121 ms single node, 107 ms on 3 nodes",
            "Kafka", _KAFKA_001, 107, 121, "ms", "107–121 ms"),
    _figure("001-sendoffsets/Redpanda", "001", "TxSendOffsetsBench, median: 4 ms single node, 3.5 ms on 3 nodes",
            "Redpanda", _REDPANDA_001, 3.5, 4, "ms", "3.5–4 ms"),
    _figure("001-fetch/Kafka", "001", "FetchBench (write, commit, read until seen), median: 41 ms single node, "
            "27.5 ms on 3 nodes", "Kafka", _KAFKA_001, 27.5, 41, "ms", "27.5–41 ms"),
    _figure("001-fetch/Redpanda", "001", "FetchBench (write, commit, read until seen), median: 3.3 ms single node, "
            "3.8 ms on 3 nodes", "Redpanda", _REDPANDA_001, 3.3, 3.8, "ms", "3.3–3.8 ms"),
    _figure("001-stream/Kafka", "001", "StreamBench, median: 150 ms single node, 132 ms on 3 nodes", "Kafka",
            _KAFKA_001, 132, 150, "ms", "132–150 ms"),
    _figure("001-stream/Redpanda", "001", "StreamBench, median: 5.7 ms single node, 5.4 ms on 3 nodes", "Redpanda",
            _REDPANDA_001, 5.4, 5.7, "ms", "5.4–5.7 ms"),
    # Seed 002, "Local Results": durable ÷ yolo msg/s was 1.9× with durable run last (33,456 vs 17,599), 0.46× in
    # reverse order (15,885 vs 34,494) and 1.33× over 1M messages (10,982 vs 14,553 ms): the seed's own order of runs
    # moves the ratio across 1×, so its figure is that range, with no direction.
    _figure("002-ordering/Kafka", "002", "Local Results: durable ÷ yolo 1.9× run last (33,456 vs 17,599 msg/s), "
            "0.46× in reverse order (15,885 vs 34,494), 1.33× over 1M messages (10,982 vs 14,553 ms)",
            "Kafka", "Confluent 4.0 (Kafka 1.0), 3 brokers on one MacBook Pro", 15885 / 34494, 33456 / 17599, "×",
            "0.46–1.9×"),
    # Seed 003: tx streaming / naive streaming median, 3 nodes.
    _figure("003-streaming/Kafka", "003", "transactional vs naive streaming (Kafka tuned as in the Q&A)", "Kafka",
            "Kafka 2.8.0, 3 × i3.large, RF 3, fsync per message, retry.backoff.ms=0", 6.3, 6.3, "×", "6.3×"),
    _figure("003-streaming/Redpanda", "003", "transactional vs naive streaming: 2.8 ms / 0.6 ms", "Redpanda",
            "Redpanda, 3 × i3.large", 4.6, 4.6, "×", "4.6×"),
    # Seed 003, Q&A "Why did you set retry.backoff.ms to 0?": the default back-off makes latency about 100× higher.
    _figure("003-backoff/Kafka", "003", "Q&A, why retry.backoff.ms=0: the default makes latency \"hundred fold\" higher",
            "Kafka", "Kafka 2.8.0, 3 × i3.large",
            100, 100, "×", "≈100×"),
    # Seed 003, "Is it faster to go with Redpanda transactions than without them?": a chart, no number in the text.
    _figure("003-bulk/Redpanda", "003", "transactional vs naive bulk insert: tx faster (a chart; no number in the text)",
            "Redpanda",
            "Redpanda, c5.large with st1 disk", 1, math.inf, "×", "> 1×"),
    # Seed 004: the lowest target rate at which the end-to-end p50 is 10× or more its value at the lowest rate.
    _figure("004-knee/Kafka", "004", "Results (KAFKA v2.8.0): p50 6.8 ms at 1K, 9.9 ms at 10K, 763 ms at 25K",
            "Kafka", "Kafka 2.8.0, one host", 25000, 25000, "msg/s", "25K msg/s"),
    _figure("004-knee/Redpanda", "004", "Results (Redpanda v21.7.6): p50 12.1 ms at 5K, 40 ms at 25K, 875 ms at 50K",
            "Redpanda", "Redpanda 21.7.6, one host", 50000, 50000, "msg/s", "50K msg/s"),
    _figure("004-knee/Aeron", "004", "Results (Aeron v1.34.0): p50 ≤ 3.4 ms at every rate up to 100K", "Aeron",
            "Aeron 1.34.0, one host", math.inf, math.inf, "msg/s", "none ≤ 100K"),
)

# The seed's published figures: system -> target msg/s -> (p25, p50, p90, p99, p99.9) in ms; None where the seed
# has "-" (Redpanda was not run at 1K).
SEED_004: dict[str, dict[int, tuple[float, float, float, float, float] | None]] = {
    "Kafka 2.8.0": {
        1_000: (3.7, 6.8, 12.1, 25, 59.9),
        5_000: (4.3, 7.3, 12.5, 16.9, 26.5),
        10_000: (5.8, 9.9, 25.6, 54, 60.5),
        25_000: (438, 763, 1372, 1452, 1456),
        50_000: (911, 2489, 4073, 4179, 4198),
        100_000: (1593, 3169, 4842, 4969, 4992),
    },
    "Redpanda 21.7.6": {
        1_000: None,
        5_000: (8, 12.1, 21.8, 50.8, 62),
        10_000: (9.4, 13.9, 26.1, 43, 47),
        25_000: (17.7, 40, 123.9, 157.7, 162.2),
        50_000: (624.8, 875, 1000, 1039, 1043),
        100_000: (819, 1115, 1357, 1439, 1450),
    },
    "Aeron 1.34.0": {
        1_000: (0.9, 2, 4.5, 8, 18.7),
        5_000: (0.2, 1, 3.1, 4.4, 6),
        10_000: (0.4, 0.7, 4.4, 8.3, 12.1),
        25_000: (1, 2.1, 5.2, 7.9, 9.9),
        50_000: (1.7, 3.4, 8.7, 16.2, 17.9),
        100_000: (1.1, 2.4, 5.8, 9, 9.9),
    },
}

# Seed 004's end-to-end p50 per target rate (ms), the curve its knee is read from: the p50 column of SEED_004.
SWEEP_P50_MS: dict[str, dict[float, float]] = {
    system.split()[0]: {rate: row[1] for rate, row in table.items() if row is not None}
    for system, table in SEED_004.items()
}


def figure(key: str) -> SeedFigure | None:
    return next((f for f in FIGURES if f.key == key), None)
