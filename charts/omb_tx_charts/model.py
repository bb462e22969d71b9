"""The parts of a result file the charts use, as typed values (see docs/result-format.md)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from . import hdr

# Summary field -> percentile it holds ("min" is the 0th, "max" the 100th).
SUMMARY_PERCENTILES: dict[str, float] = {
    "min": 0.0,
    "p25": 25.0,
    "p50": 50.0,
    "p75": 75.0,
    "p90": 90.0,
    "p95": 95.0,
    "p99": 99.0,
    "p999": 99.9,
    "p9999": 99.99,
    "max": 100.0,
}

PHASE_ORDER: tuple[str, ...] = ("init", "begin", "send", "resolve", "sendOffsets", "commit", "abort", "transaction")


@dataclass(frozen=True)
class LatencySummary:
    """omb-tx's latency summary; every value in milliseconds, any of them may be missing."""

    count: int | None
    values_ms: Mapping[str, float]  # keys: min, avg, p25 ... p9999, max
    total_millis: float | None

    def get(self, name: str) -> float | None:
        return self.values_ms.get(name)

    def quantiles(self) -> dict[float, float]:
        """Percentile -> ms for the percentiles the summary carries."""
        return {p: self.values_ms[name] for name, p in SUMMARY_PERCENTILES.items() if name in self.values_ms}


@dataclass(frozen=True)
class RunMode:
    loop: str | None  # "closed" | "open"
    target_rate: float | None  # msg/s
    warmup: Mapping[str, float]  # e.g. {"operations": 1000}
    measure: Mapping[str, float]
    reporting_interval_seconds: float | None
    omb_period_seconds: float | None = None  # period of OMB's per-period lists (runMode.ombPeriodSeconds)


@dataclass(frozen=True)
class Sweep:
    name: str
    parameter: str
    value: float | str  # the runner writes a number when the swept value is one, else the text


@dataclass(frozen=True)
class Repetition:
    """``repetition`` of a result: run ``index`` of ``count`` of one (driver, workload); runs sharing ``group``
    are repetitions of one comparison (interleaved: A B A B ...), never superseded duplicates of each other."""

    index: int
    count: int
    group: str
    interleaved: bool
    comparison: str | None  # the suite entry's name


@dataclass(frozen=True)
class RunSummary:
    duration_seconds: float | None
    messages_per_second: float | None
    operations_per_second: float | None
    # duration ÷ messages (seed 002's "average latency": a cost per message, not a latency)
    millis_per_message: float | None


@dataclass(frozen=True)
class RateVerdict:
    """Whether an open loop held its target rate (the result's ``rate``)."""

    target: float  # msg/s
    achieved: float  # msg/s sent in the measured phase
    held: bool
    publish_delay_p99_ms: float | None
    limited_by: str | None  # "load generator" | "machine" | "broker", when not held and known
    evidence: str | None


@dataclass(frozen=True)
class Coordinators:
    """The transaction coordinators' load over the measured phase, read from the broker's log (``coordinators``)."""

    committed: int
    aborted: int
    partitions_used: int
    partitions: int
    ended_by_broker: Mapping[int, int]  # broker id -> transactions ended in the log partitions it leads

    @property
    def busiest_broker(self) -> tuple[int, float] | None:
        """The broker whose log partitions ended the most transactions, and its share; None when none ended."""
        ended = self.committed + self.aborted
        if ended == 0 or not self.ended_by_broker:
            return None
        broker = max(self.ended_by_broker, key=lambda b: (self.ended_by_broker[b], -b))
        return broker, self.ended_by_broker[broker] / ended


@dataclass(frozen=True)
class Drain:
    """``drain`` of a count-based run with consumers: whether every message sent was received before it ended."""

    completed: bool
    not_received: int | None
    seconds: float | None


@dataclass(frozen=True)
class LiveViolation:
    """One violation the live check saw (``exactlyOnce.live.violations``): where, when, and what was wrong."""

    kind: str  # "duplicate" | "aborted" | "uncommitted" | "outOfOrder" | "unknownSource"
    topic: str
    partition: int
    offset: int
    source_partition: int | None
    source_offset: int | None
    seen_at_seconds: float | None  # from the start of the measurement (negative: during the warm-up)
    detail: str


@dataclass(frozen=True)
class LiveCheck:
    """``exactlyOnce.live``: what the concurrent read_committed consumer saw during the run."""

    outputs_read: int
    duplicates: int
    aborted_seen: int
    uncommitted: int
    out_of_order: int
    unknown_source: int
    read_to_end: bool
    passed: bool
    violations: tuple[LiveViolation, ...]


@dataclass(frozen=True)
class ExactlyOnce:
    """``exactlyOnce``: the check after the run (output set = processed input set) and, when run, the live one."""

    checked: int
    duplicated: int
    missing: int
    unexpected: int
    aborted_seen: int | None  # written for runs with aborts on purpose
    passed: bool
    live: LiveCheck | None


@dataclass(frozen=True)
class Conformance:
    """``conformance``: the broker guarantee a run judged, its verdict, counts and first violation."""

    guarantee: str
    title: str
    verdict: str  # "pass" | "fail" | "not-judged"
    counts: Mapping[str, int]
    first_violation: str | None
    note: str | None


@dataclass(frozen=True)
class Fault:
    """One of ``faults``: what was declared and whether it happened."""

    action: str  # kill | stop | pause
    target: str  # transaction-coordinator | partition-leader | group-coordinator | broker
    injected_at_seconds: float | None
    error: str | None


@dataclass(frozen=True)
class Result:
    """One result file. ``is_omb_tx`` is False for a stock OMB result (only OMB's fields)."""

    path: Path
    workload: str
    driver: str
    is_omb_tx: bool
    status: str  # "complete", "partial", "failed" (every measured operation failed), or "unknown" (stock OMB)
    partial_reason: str | None
    failure_reason: str | None
    start_time: str | None
    run_mode: RunMode | None
    sweep: Sweep | None
    scenario: Mapping[str, Any]
    versions: Mapping[str, str]
    broker_embedded: bool | None
    broker_count: int | None
    broker_settings: Mapping[str, Any]
    driver_config: Mapping[str, Any]
    counts: Mapping[str, int]
    summary: RunSummary | None
    operation_latency: LatencySummary | None
    transaction_phases: Mapping[str, LatencySummary]
    partitions: int | None
    message_size: int | None
    publish_latency_quantiles: Mapping[float, float]  # percentile -> ms
    end_to_end_latency_quantiles: Mapping[float, float]
    encoded_histograms: Mapping[str, str]  # name -> base64 (values in µs)
    period_series: Mapping[str, tuple[float | None, ...]]  # OMB per-period lists and omb-tx `periods`
    repetition: Repetition | None = None  # absent in files written before repetitions existed
    transaction_version: int | None = None  # broker.transactionVersion (0: pre-KIP-890), None when not recorded
    broker_system: str | None = None  # broker.system read back from the cluster ("kafka", "redpanda"), None: absent
    environment: Mapping[str, Any] = field(default_factory=dict)  # what the driver reported (settings read back)
    drain: Drain | None = None  # absent for time-based runs, runs without consumers and older files
    publish_delay_p99_micros: float | None = None  # aggregatedPublishDelayLatency99pct
    exactly_once: ExactlyOnce | None = None  # absent when not checked
    faults: tuple[Fault, ...] = ()  # absent when the workload declared none
    host: Mapping[str, Any] = field(default_factory=dict)  # the runner's machine and network; absent in older files
    broker_disk: Mapping[str, Any] = field(default_factory=dict)  # broker.dataDisk: an embedded cluster's disk
    rate: RateVerdict | None = None  # an open loop with a target; absent in older files
    coordinators: Coordinators | None = None  # a transactional run on Kafka; absent otherwise and in older files
    conformance: Conformance | None = None  # the broker guarantee the run judged; absent when it judged none
    _decoded: dict[str, hdr.Histogram | None] = field(default_factory=dict, compare=False, repr=False)

    @property
    def is_partial(self) -> bool:
        return self.status == "partial"

    @property
    def is_failed(self) -> bool:
        return self.status == "failed"

    @property
    def label(self) -> str:
        """Legend label: the driver, flagged when the run was cut short or failed."""
        if self.is_failed:
            return f"{self.driver} [FAILED]"
        return f"{self.driver} [PARTIAL]" if self.is_partial else self.driver

    def histogram(self, name: str) -> hdr.Histogram | None:
        """Decoded histogram ``name``, or None when absent or not decodable (the caller falls back)."""
        if name not in self._decoded:
            text = self.encoded_histograms.get(name)
            decoded: hdr.Histogram | None = None
            if text:
                try:
                    decoded = hdr.decode_base64(text)
                except hdr.HistogramDecodeError:
                    decoded = None
            self._decoded[name] = decoded if decoded is not None and decoded.total_count > 0 else None
        return self._decoded[name]

    def series(self, name: str) -> tuple[float | None, ...]:
        return self.period_series.get(name, ())
