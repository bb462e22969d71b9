"""The findings catalogue: what each seed finding compares, on which statistic, and what its verdict depends on.

A finding names its statistic (printed in the report), the workloads on each side of a comparison, how two sides
combine (a ratio, or a difference in percentage points), the reference value a direction is read against, and the
set-up fields its claim depends on (a verdict on a set-up that differs in one of them is labelled so). The seed's
figures, with the system each claim is about and the seed's set-up, are in ``seeds.FIGURES``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from .. import analysis
from ..model import Result

KNEE_FACTOR = 10.0  # a knee: the end-to-end p50 reaches this multiple of its value at the lowest rate


@dataclass(frozen=True)
class Statistic:
    name: str  # as the report prints it
    unit: str  # of one run's value: "ms", "msg/s", "share"
    of: Callable[[Result], float | None]


def _operation(key: str) -> Callable[[Result], float | None]:
    return lambda r: r.operation_latency.get(key) if r.operation_latency else None


def share_past(threshold_ms: float) -> Callable[[Result], float | None]:
    """The share of operations slower than ``threshold_ms`` (from the operation histogram)."""

    def share(result: Result) -> float | None:
        histogram = result.histogram("operationLatencyMicros")
        if histogram is None:
            return None
        limit = threshold_ms * 1000
        past = sum(count for index, count in enumerate(histogram.counts)
                   if count and histogram.lowest_value_at_index(index) > limit)
        return past / histogram.total_count

    return share


def _phase_share(phase: str) -> Callable[[Result], float | None]:
    def share(result: Result) -> float | None:
        mine, whole = result.transaction_phases.get(phase), result.transaction_phases.get("transaction")
        if mine is None or whole is None or not whole.get("p50"):
            return None
        return (mine.get("p50") or 0.0) / whole.get("p50")  # type: ignore[operator]

    return share


OPERATION_P50 = Statistic("median operation latency (p50 of the run)", "ms", _operation("p50"))
OPERATION_MEAN = Statistic("mean operation latency (total time ÷ operations: the seeds' \"x times slower\")", "ms",
                           _operation("avg"))
END_TO_END_P50 = Statistic("median end-to-end latency (p50)", "ms",
                           lambda r: analysis.percentile_value_ms(r, analysis.END_TO_END, 50.0))
WRITE_TO_VISIBLE_P50 = Statistic(
    "median write-to-visible latency (tx-fetch's end-to-end p50: publish until a read_committed consumer sees it; "
    "not the transaction time)", "ms", lambda r: analysis.percentile_value_ms(r, analysis.END_TO_END, 50.0))
MESSAGES_PER_SECOND = Statistic("throughput, msg/s (summary.messagesPerSecond)", "msg/s",
                                lambda r: r.summary.messages_per_second if r.summary else None)
BACKOFF_MS = 100.0  # kafka-clients' default retry.backoff.ms: the wait a colliding transaction adds
PAST_BACKOFF = Statistic(f"share of operations slower than the back-off ({BACKOFF_MS:g} ms), from the operation "
                         "histogram", "share", share_past(BACKOFF_MS))
BEGIN_SHARE = Statistic("begin phase p50 ÷ transaction p50", "share", _phase_share("begin"))
RESOLVE_P50 = Statistic("resolve phase p50 (waiting for the send acks)", "ms",
                        lambda r: r.transaction_phases["resolve"].get("p50") if "resolve" in r.transaction_phases
                        else None)


@dataclass(frozen=True)
class Side:
    """The runs on one side of a comparison: this workload, with this retry.backoff.ms (None: any)."""

    workload: str
    backoff_ms: int | None = None

    def accepts(self, result: Result, backoff: int | None) -> bool:
        if result.workload != self.workload or analysis.is_rate_sweep_point(result):
            return False
        return self.backoff_ms is None or backoff == self.backoff_ms

    def describe(self) -> str:
        return self.workload + ("" if self.backoff_ms is None else f" (retry.backoff.ms={self.backoff_ms})")


RATIO = "ratio"
DIFFERENCE = "difference"  # in percentage points, for shares


@dataclass(frozen=True)
class FindingSpec:
    key: str  # seeds.FIGURES keys are "<key>/<system>[/<nodes>]"
    seed: str
    title: str
    statistic: Statistic
    comparisons: tuple[tuple[Side, Side | None], ...] = ()  # (numerator, denominator or None for a single value)
    combine: str = RATIO
    reference: float | None = None  # the no-effect value a direction is read against (1× for a ratio, 0 pp)
    depends_on: tuple[str, ...] = ()  # set-up fields (setup.Setup) the seed's claim depends on
    knee: bool = False
    cross_system: bool = False  # compares two systems: needs both systems' results side by side
    varies: tuple[str, ...] = ()  # set-up fields the two sides differ in by design (not matched when pairing)

    @property
    def unit(self) -> str:
        if self.knee:
            return "msg/s"
        if self.denominator_free:
            return self.statistic.unit
        return "pp" if self.combine == DIFFERENCE else "×"

    @property
    def denominator_free(self) -> bool:
        return all(denominator is None for _, denominator in self.comparisons)

    @property
    def quantity(self) -> str:
        """What is compared, in words: the statistic and how the sides combine."""
        if self.knee:
            return (f"lowest target rate whose {END_TO_END_P50.name} is ≥ {KNEE_FACTOR:g}× its value at the lowest "
                    "rate swept")
        if self.denominator_free:
            return self.statistic.name
        if self.combine == DIFFERENCE:
            return f"{self.statistic.name}: numerator side minus denominator side, in percentage points"
        return f"ratio of the two sides' {self.statistic.name}"


_TOPOLOGY = ("brokers",)
_KAFKA_TUNING = ("brokers", "replication", "min_isr", "flush_per_message", "backoff_ms")
_ZERO = 0
_DEFAULT = 100

SPECS: tuple[FindingSpec, ...] = (
    FindingSpec("000-writes", "000", "Transactional writes overhead: tx-writes ÷ base-writes", OPERATION_P50,
                ((Side("tx-writes", _DEFAULT), Side("base-writes")),
                 (Side("tx-writes-ack-first", _DEFAULT), Side("base-writes"))),
                reference=1.0, depends_on=("brokers", "replication")),
    FindingSpec("000-streaming", "000", "Transactional streaming overhead: tx-streaming ÷ base-streaming",
                OPERATION_P50,
                ((Side("tx-streaming", _DEFAULT), Side("base-streaming")),
                 (Side("tx-streaming-ack-first", _DEFAULT), Side("base-streaming-ack-first"))),
                reference=1.0, depends_on=("brokers", "replication")),
    FindingSpec("001-txsend", "001", "TxSendBench median", OPERATION_P50,
                ((Side("tx-writes"), None), (Side("tx-writes-ack-first"), None)), depends_on=_TOPOLOGY),
    FindingSpec("001-sendoffsets", "001", "TxSendOffsetsBench median", OPERATION_P50,
                ((Side("tx-send-offsets"), None),), depends_on=_TOPOLOGY),
    FindingSpec("001-fetch", "001", "FetchBench median (write-to-visible)", WRITE_TO_VISIBLE_P50,
                ((Side("tx-fetch"), None),), depends_on=_TOPOLOGY),
    FindingSpec("001-stream", "001", "StreamBench median", OPERATION_P50,
                ((Side("tx-streaming"), None), (Side("tx-streaming-ack-first"), None)), depends_on=_TOPOLOGY),
    FindingSpec("002-ordering", "002", "Acks SLA profile ordering: durable msg/s ÷ yolo msg/s", MESSAGES_PER_SECOND,
                ((Side("acks-sla-durable"), Side("acks-sla-yolo")),), reference=1.0, depends_on=("brokers",),
                varies=("replication", "min_isr")),
    FindingSpec("002-rate-yolo", "002", "Acks SLA throughput: yolo (RF 2, min ISR 1, acks 1)", MESSAGES_PER_SECOND,
                ((Side("acks-sla-yolo"), None),), depends_on=("brokers", "replication", "min_isr")),
    FindingSpec("002-rate-throughput", "002", "Acks SLA throughput: throughput (RF 3, min ISR 1, acks 1)",
                MESSAGES_PER_SECOND, ((Side("acks-sla-throughput"), None),),
                depends_on=("brokers", "replication", "min_isr")),
    FindingSpec("002-rate-durable", "002", "Acks SLA throughput: durable (RF 3, min ISR 2, acks all)",
                MESSAGES_PER_SECOND, ((Side("acks-sla-durable"), None),),
                depends_on=("brokers", "replication", "min_isr")),
    FindingSpec("003-streaming", "003", "Transactional streaming overhead, tuned: tx-streaming ÷ base-streaming",
                OPERATION_P50,
                ((Side("tx-streaming"), Side("base-streaming")),
                 (Side("tx-streaming-ack-first"), Side("base-streaming-ack-first"))),
                reference=1.0, depends_on=_KAFKA_TUNING),
    FindingSpec("003-stream-tx", "003", "Transactional streaming median", OPERATION_P50,
                ((Side("tx-streaming"), None),), depends_on=_TOPOLOGY),
    FindingSpec("003-stream-base", "003", "Naive streaming median", OPERATION_P50,
                ((Side("base-streaming"), None),), depends_on=_TOPOLOGY),
    FindingSpec("003-backoff-share", "003", "Back-off collision: operations past the back-off, default − 0",
                PAST_BACKOFF,
                ((Side("tx-writes", _DEFAULT), Side("tx-writes", _ZERO)),
                 (Side("tx-streaming", _DEFAULT), Side("tx-streaming", _ZERO)),
                 (Side("tx-streaming-ack-first", _DEFAULT), Side("tx-streaming-ack-first", _ZERO))),
                combine=DIFFERENCE, reference=0.0, varies=("backoff_ms",)),
    FindingSpec("003-backoff", "003", "Back-off collision: mean latency, default ÷ 0", OPERATION_MEAN,
                ((Side("tx-writes", _DEFAULT), Side("tx-writes", _ZERO)),
                 (Side("tx-streaming", _DEFAULT), Side("tx-streaming", _ZERO)),
                 (Side("tx-streaming-ack-first", _DEFAULT), Side("tx-streaming-ack-first", _ZERO))),
                reference=1.0, depends_on=("brokers", "replication", "flush_per_message"), varies=("backoff_ms",)),
    FindingSpec("003-bulk", "003", "Transactional vs naive bulk insert: bulk-tx ÷ bulk-acks-all", MESSAGES_PER_SECOND,
                ((Side("bulk-tx"), Side("bulk-acks-all")),), reference=1.0),
    FindingSpec("003-begin", "003", "Begin phase: no server call", BEGIN_SHARE,
                ((Side("tx-writes"), None),)),
    FindingSpec("003-phases-vs", "003", "Resolve phase: Kafka ÷ Redpanda", RESOLVE_P50,
                ((Side("tx-writes"), None),), reference=1.0, cross_system=True),
    FindingSpec("004-knee", "004", "Latency knee of the RPS sweep", END_TO_END_P50, knee=True,
                depends_on=("brokers",)),
)


def spec(key: str) -> FindingSpec:
    return next(s for s in SPECS if s.key == key)
