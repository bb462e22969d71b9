"""Pure functions from loaded results to the numbers the charts and tables show."""

from __future__ import annotations

import math
import re
from collections import defaultdict
from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

from . import systems
from .model import Result

K = TypeVar("K", bound=Hashable)

# --------------------------------------------------------------------------------------------------
# Choosing among repeated runs


def newest_per_key(results: Iterable[Result], key: Callable[[Result], K]) -> tuple[dict[K, Result], list[Result]]:
    """Keep the newest result per key (by startTime, then file name); also return the ones set aside."""
    kept: dict[K, Result] = {}
    superseded: list[Result] = []
    for result in sorted(results, key=lambda r: (r.start_time or "", r.path.name)):
        k = key(result)
        if k in kept:
            superseded.append(kept[k])
        kept[k] = result
    return kept, superseded


# --------------------------------------------------------------------------------------------------
# Percentile curves


@dataclass(frozen=True)
class Metric:
    key: str
    title: str
    histogram_name: str


METRICS: tuple[Metric, ...] = (
    Metric("operation", "Operation latency (whole transaction / iteration)", "operationLatencyMicros"),
    Metric("publish", "Publish latency", "publishLatencyMicros"),
    Metric("endToEnd", "End-to-end latency", "endToEndLatencyMicros"),
)


@dataclass(frozen=True)
class Curve:
    percentiles: tuple[float, ...]
    values_ms: tuple[float, ...]
    source: str  # where the points came from, for captions
    max_ms: float | None = None  # the slowest sample, drawn as the curve's last point
    count: int | None = None  # samples behind the curve: the max is drawn at 1/(1-p) = count


def curve_percentiles(count: int, points_per_decade: int = 20, max_nines: int = 6) -> list[float]:
    """Percentiles evenly spaced on the 1/(1-p) axis, stopping where a single sample decides the value."""
    limit = min(float(count), 10.0**max_nines)
    percentiles = []
    step = 0
    while True:
        inverse_tail = 10.0 ** (step / points_per_decade)
        if inverse_tail > limit:
            break
        percentiles.append(100.0 * (1.0 - 1.0 / inverse_tail))
        step += 1
    return percentiles


def latency_curve(result: Result, metric: Metric) -> Curve | None:
    """Best available percentile curve: full histogram, else OMB's quantile map, else the summary."""
    histogram = result.histogram(metric.histogram_name)
    if histogram is not None:
        levels = curve_percentiles(histogram.total_count)
        values = [histogram.value_at_percentile(p) / 1000.0 for p in levels]
        return _positive_curve(levels, values, "HdrHistogram", histogram.max_value() / 1000.0, histogram.total_count)
    count = None
    if metric.key == "operation":
        quantiles = dict(result.operation_latency.quantiles()) if result.operation_latency else {}
        count = result.operation_latency.count if result.operation_latency else None
        source = "latency summary"
    elif metric.key == "publish":
        quantiles, source = dict(result.publish_latency_quantiles), "quantile map"
    else:
        quantiles, source = dict(result.end_to_end_latency_quantiles), "quantile map"
    maximum = quantiles.pop(100.0, None)  # 1/(1-p) is infinite at 100%: drawn apart, at the sample count
    if len(quantiles) < 2:
        return None
    return _positive_curve(list(quantiles), list(quantiles.values()), source, maximum, count)


def _positive_curve(percentiles: Sequence[float], values: Sequence[float], source: str,
                    maximum: float | None = None, count: int | None = None) -> Curve | None:
    # A log axis cannot show 0 ms (OMB's end-to-end latency has 1 ms resolution, so low percentiles can be 0).
    points = [(p, v) for p, v in zip(percentiles, values) if v > 0 and p < 100.0]
    if len(points) < 2:
        return None
    return Curve(tuple(p for p, _ in points), tuple(v for _, v in points), source,
                 maximum if maximum and maximum > 0 else None, count or None)


def percentile_value_ms(result: Result, metric: Metric, percentile: float) -> float | None:
    """A single percentile: the runner's own number where it wrote one, else from the histogram."""
    if metric.key == "operation" and result.operation_latency is not None:
        value = result.operation_latency.quantiles().get(percentile)
        if value is not None:
            return value
    if metric.key == "publish":
        value = _lookup(result.publish_latency_quantiles, percentile)
        if value is not None:
            return value
    if metric.key == "endToEnd":
        value = _lookup(result.end_to_end_latency_quantiles, percentile)
        if value is not None:
            return value
    histogram = result.histogram(metric.histogram_name)
    if histogram is not None:
        return histogram.value_at_percentile(percentile) / 1000.0
    return None


def _lookup(quantiles: Mapping[float, float], percentile: float) -> float | None:
    for p, value in quantiles.items():
        if math.isclose(p, percentile, abs_tol=1e-9):
            return value
    return None


OPERATION, PUBLISH, END_TO_END = METRICS


# --------------------------------------------------------------------------------------------------
# Transactions versus base: overhead ratios

_PAIRED_WORKLOAD = re.compile(r"^(?P<kind>tx|base)-(?P<family>writes|streaming)(?P<suffix>-.*)?$")
OVERHEAD_FAMILIES = ("writes", "streaming")


@dataclass(frozen=True)
class Overhead:
    driver: str
    family: str  # "writes" | "streaming"
    suffix: str  # e.g. "-quick", "" for the plain scenario
    tx: Result
    base: Result
    tx_p50_ms: float
    base_p50_ms: float
    tx_total_ms: float | None
    base_total_ms: float | None

    @property
    def p50_ratio(self) -> float:
        return self.tx_p50_ms / self.base_p50_ms

    @property
    def counts_differ(self) -> bool:
        return _operation_count(self.tx) != _operation_count(self.base)

    @property
    def total_ratio(self) -> float | None:
        """Ratio of total time for N operations; per operation when the two runs measured different N."""
        if not self.tx_total_ms or not self.base_total_ms:
            return None
        tx_count, base_count = _operation_count(self.tx), _operation_count(self.base)
        if tx_count and base_count and tx_count != base_count:
            return (self.tx_total_ms / tx_count) / (self.base_total_ms / base_count)
        return self.tx_total_ms / self.base_total_ms

    @property
    def label(self) -> str:
        return f"{self.family}{self.suffix}"


def paired_scenario(workload: str) -> tuple[str, str, str] | None:
    """("tx"|"base", family, suffix) for tx-/base- writes/streaming workloads, else None."""
    match = _PAIRED_WORKLOAD.match(workload)
    if not match:
        return None
    return match["kind"], match["family"], match["suffix"] or ""


def _operation_count(result: Result) -> int | None:
    if result.operation_latency is not None and result.operation_latency.count:
        return result.operation_latency.count
    return result.counts.get("operations")


def operation_p50_ms(result: Result) -> float | None:
    """The operation's median latency; the publish median when the result has no operation latency."""
    value = percentile_value_ms(result, OPERATION, 50.0)
    return value if value is not None else percentile_value_ms(result, PUBLISH, 50.0)


def overheads(results: Iterable[Result]) -> list[Overhead]:
    """Pairs tx-X with base-X (same driver, suffix, system and broker version) and their p50 and total-time
    figures."""
    newest, _ = newest_per_key(
        (r for r in results if not is_rate_sweep_point(r) and paired_scenario(r.workload)),
        lambda r: (r.workload, r.driver, broker_setup(r)),
    )
    by_role: dict[tuple[str, tuple[str, str], str, str, str], Result] = {}
    for (_, driver, setup), result in newest.items():
        kind, family, suffix = paired_scenario(result.workload)  # type: ignore[misc]
        by_role[(driver, setup, family, suffix, kind)] = result
    pairs = []
    for (driver, setup, family, suffix, kind), tx in sorted(by_role.items()):
        base = by_role.get((driver, setup, family, suffix, "base"))
        if kind != "tx" or base is None:
            continue
        tx_p50, base_p50 = operation_p50_ms(tx), operation_p50_ms(base)
        if tx_p50 is None or not base_p50:
            continue
        pairs.append(
            Overhead(
                driver=driver,
                family=family,
                suffix=suffix,
                tx=tx,
                base=base,
                tx_p50_ms=tx_p50,
                base_p50_ms=base_p50,
                tx_total_ms=tx.operation_latency.total_millis if tx.operation_latency else None,
                base_total_ms=base.operation_latency.total_millis if base.operation_latency else None,
            )
        )
    family_order = {family: index for index, family in enumerate(OVERHEAD_FAMILIES)}
    return sorted(pairs, key=lambda o: (family_order[o.family], o.suffix, o.driver))


# --------------------------------------------------------------------------------------------------
# Open-loop rate sweeps (seed 004)

SWEEP_PERCENTILES: tuple[float, ...] = (25.0, 50.0, 90.0, 99.0, 99.9)


@dataclass(frozen=True)
class SweepPoint:
    rate: float  # target msg/s
    latencies_ms: Mapping[float, float | None]  # percentile -> end-to-end ms
    result: Result


def sweeps(results: Iterable[Result]) -> dict[str, dict[str, list[SweepPoint]]]:
    """Sweep name -> driver -> points sorted by target rate (producerRate sweeps only)."""
    swept = [r for r in results if is_rate_sweep_point(r)]
    newest, _ = newest_per_key(
        swept, lambda r: (r.sweep.name, _driver_and_version(r, swept), r.sweep.value)  # type: ignore[union-attr]
    )
    grouped: dict[str, dict[str, list[SweepPoint]]] = defaultdict(lambda: defaultdict(list))
    for (name, driver, rate), result in newest.items():
        latencies = {p: percentile_value_ms(result, END_TO_END, p) for p in SWEEP_PERCENTILES}
        grouped[name][driver].append(SweepPoint(float(rate), latencies, result))
    return {
        name: {driver: sorted(points, key=lambda point: point.rate) for driver, points in sorted(drivers.items())}
        for name, drivers in sorted(grouped.items())
    }


# --------------------------------------------------------------------------------------------------
# Acks / durability SLA profiles (seed 002)

ACKS_PROFILE_ORDER = ("yolo", "throughput", "durable")


@dataclass(frozen=True)
class AcksRow:
    profile: str  # the workload name
    partitions: int | None
    replication: str
    min_insync_replicas: str
    acks: str
    duration_ms: float | None
    message_latency_ms: float | None
    messages_per_second: float | None
    result: Result


def read_config_property(config: Any, key: str) -> str | None:
    """A key from a driver-YAML config block: Java-properties text (Kafka's convention) or a map."""
    if isinstance(config, Mapping):
        value = config.get(key)
        return None if value is None else str(value)
    if not isinstance(config, str):
        return None
    found = None
    for line in config.splitlines():
        line = line.strip()
        if not line or line[0] in "#!":
            continue
        name, _, value = line.partition("=") if "=" in line else line.partition(":")
        if name.strip() == key:
            found = value.strip()  # later lines win, as in java.util.Properties
    return found


def acks_rows(results: Iterable[Result]) -> dict[tuple[str, int | None], list[AcksRow]]:
    """(driver, measured messages) -> one row per acks-sla-* profile, in the seed's order."""
    chosen = [r for r in results if r.workload.startswith("acks-sla-") and not is_rate_sweep_point(r)]
    newest, _ = newest_per_key(chosen, lambda r: (r.workload, _driver_and_version(r, chosen), _measured_messages(r)))
    groups: dict[tuple[str, int | None], list[AcksRow]] = defaultdict(list)
    for (_workload, driver, messages), result in newest.items():
        groups[(driver, messages)].append(acks_row(result))
    for rows in groups.values():
        rows.sort(key=lambda row: (_profile_rank(row.profile), row.profile))
    return dict(sorted(groups.items(), key=lambda item: (item[0][0], item[0][1] or 0)))


def _measured_messages(result: Result) -> int | None:
    if "messagesSent" in result.counts:
        return result.counts["messagesSent"]
    if result.run_mode and "messages" in result.run_mode.measure:
        return int(result.run_mode.measure["messages"])
    return None


def _profile_rank(workload: str) -> int:
    for rank, profile in enumerate(ACKS_PROFILE_ORDER):
        if profile in workload.split("-"):
            return rank
    return len(ACKS_PROFILE_ORDER)


def acks_row(result: Result) -> AcksRow:
    """Seed 002's row of one acks-SLA run: its profile, durability settings, duration and rates."""
    config = result.driver_config
    replication = config.get("replicationFactor")
    isr = read_config_property(config.get("topicConfig"), "min.insync.replicas")
    acks = read_config_property(config.get("producerConfig"), "acks")
    summary = result.summary
    duration_seconds = summary.duration_seconds if summary else None
    return AcksRow(
        profile=result.workload,
        partitions=result.partitions,
        replication="?" if replication is None else str(replication),
        min_insync_replicas=isr if isr is not None else "?",
        acks=acks if acks is not None else "?",
        duration_ms=None if duration_seconds is None else duration_seconds * 1000.0,
        message_latency_ms=summary.millis_per_message if summary else None,
        messages_per_second=summary.messages_per_second if summary else None,
        result=result,
    )


# --------------------------------------------------------------------------------------------------
# Closed-loop scenarios in seed 001's table form


def closed_loop_groups(results: Iterable[Result]) -> dict[str, list[Result]]:
    """Workload -> newest closed-loop result per driver that carries an operation latency summary."""
    chosen = [
        r
        for r in results
        if not is_rate_sweep_point(r)
        and r.operation_latency is not None
        and r.operation_latency.get("p50") is not None  # the runner writes {"count": 0} when nothing was measured
        and (r.run_mode is None or r.run_mode.loop in (None, "closed"))
    ]
    newest, _ = newest_per_key(chosen, lambda r: (r.workload, r.driver, broker_setup(r)))
    groups: dict[str, list[Result]] = defaultdict(list)
    for (workload, *_), result in sorted(newest.items(),
                                         key=lambda item: (item[0][0], item[0][1], _system_key(item[1]))):
        groups[workload].append(result)
    return dict(sorted(groups.items()))


def _driver_and_version(result: Result, among: Sequence[Result]) -> str:
    """``result``'s variant as named among ``among`` (variant_name): the system first when ``among`` holds several,
    else the driver, with the broker version when ``among`` holds its runs on several versions."""
    return variant_name(result, systems.compared(among), compares_versions(result.driver, among))


def variant_name(result: Result, many_systems: bool, many_versions: bool) -> str:
    """A run's variant as the report names it: the system and release first when the report compares systems
    ("Tansu 0.6.0 · kafka-tx"), else the driver, with "· broker VERSION" when it compares that driver's releases."""
    if many_systems:
        return f"{systems.setup(result)} · {result.driver}"
    version = broker_version(result)
    return f"{result.driver} · broker {version}" if many_versions and version else result.driver


def compares_versions(driver: str, among: Iterable[Result]) -> bool:
    """Whether ``among`` holds runs of ``driver`` on more than one release of one system (Kafka 2.8.2 and 4.1.1):
    only then does a label need the version (runs on two systems are told apart by the system, systems.setup)."""
    releases: dict[str, set[str]] = defaultdict(set)
    for r in among:
        if r.driver == driver and broker_version(r):
            releases[systems.told(r) or ""].add(broker_version(r))
    return any(len(found) > 1 for found in releases.values())


def has_phase_breakdown(result: Result) -> bool:
    """Phases besides the whole: the runner also writes a lone ``transaction`` phase for plain
    PUBLISH runs (acks-sla-*, sweeps), which is the operation latency again, not a breakdown."""
    return any(phase != "transaction" for phase in result.transaction_phases)


def charted_phases(result: Result) -> list[str]:
    """The phases to draw for a run: a non-transactional run's whole operation is not a "transaction"."""
    phases = list(result.transaction_phases)
    if not is_transactional(result):
        phases = [p for p in phases if p != "transaction"]
    return phases


def is_transactional(result: Result) -> bool:
    if isinstance(result.scenario.get("transactional"), bool):
        return bool(result.scenario["transactional"])
    return bool(result.transaction_phases)


# --------------------------------------------------------------------------------------------------
# Grouping for per-workload charts


def is_rate_sweep_point(result: Result) -> bool:
    """A point of a producerRate sweep: charted against rate in the sweep section."""
    sweep = result.sweep
    return sweep is not None and sweep.parameter == "producerRate" and isinstance(sweep.value, float)


def run_key(result: Result) -> tuple[str, str, str, str, str]:
    """What makes two files the same run repeated: workload, driver, sweep point, broker version and system (runs on
    two broker releases or two systems are a comparison, not a repetition)."""
    sweep_point = "" if result.sweep is None else str(result.sweep.value)
    return result.workload, result.driver, sweep_point, broker_version(result), systems.told(result) or ""


def _version_key(result: Result) -> tuple[int, ...]:
    return tuple(int(part) for part in re.findall(r"\d+", broker_version(result)))


def _system_key(result: Result) -> tuple[str, tuple[int, ...]]:
    """Runs in order of system (as told by its cluster), then release: Kafka 2.8.2, Kafka 4.1.1, Tansu 0.6.0."""
    return systems.told(result) or "", _version_key(result)


def broker_version(result: Result) -> str:
    """The broker release the run measured (``versions.broker``); "" when the result does not say (stock OMB)."""
    value = result.versions.get("broker") if result.versions else None
    return str(value) if value else ""


def broker_setup(result: Result) -> tuple[str, str]:
    """(system as its cluster told it, "" when not known; broker release): what two runs of one workload and driver
    are compared on, Kafka 2.8.2 against 4.1.1 or Kafka against Tansu."""
    return systems.told(result) or "", broker_version(result)


def per_workload(results: Iterable[Result]) -> dict[str, list[Result]]:
    """Workload -> newest result per driver (drivers in name order), for one chart per workload."""
    newest, _ = newest_per_key(results, run_key)
    grouped: dict[str, list[Result]] = defaultdict(list)
    for result in sorted(newest.values(),
                         key=lambda r: (r.driver, _system_key(r), str(r.sweep.value) if r.sweep else "")):
        grouped[result.workload].append(result)
    return dict(sorted(grouped.items()))
