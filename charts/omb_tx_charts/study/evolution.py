""""Since the seeds": the transaction scenarios release by release, and each step between releases attributed to
the change that explains it, with the single-dimension toggles (suites/kafka-evolution.yaml) as the evidence.

Every dimension is read from what the result says the broker and the client reported, never from a file name:
``versions`` (broker and client releases), ``broker.transactionVersion``, ``environment.brokerSettings`` (read back
with Admin describeConfigs: partition verification, the group coordinator's append linger), ``environment.
consumerGroupProtocols`` / ``consumerSettings`` (the consumers' group protocol) and ``producerSettings``
(``retry.backoff.max.ms``: exponential back-off, KIP-580). A run is a toggle run when one of these differs from
what its release does by default; the release series uses only runs at their release's defaults.

Statistics: per run, the operation latency's p50 and p99 (closed loop: one operation at a time). Over repetitions,
the median with its 95% interval (``intervals.estimate``; none below 3 repetitions, so a quick pass is provisional).
A step between releases is B ÷ A of the p50; it counts as a change when its interval excludes 1, or, without an
interval, when it is beyond ×1.25 either way (provisional).
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass

from .. import intervals, systems
from ..formatting import MISSING, format_ms
from ..model import Result
from ..tables import Table
from . import setup

# Transactional scenario -> its plain baseline (None: the scenario has no plain counterpart).
SCENARIOS: dict[str, str | None] = {
    "tx-writes": "base-writes",
    "tx-streaming": "base-streaming",
    "tx-streaming-ack-first": "base-streaming-ack-first",
    "tx-send-offsets": None,
    "tx-fetch": None,
}
BASELINES = {base for base in SCENARIOS.values() if base}
_NAMES = sorted(set(SCENARIOS) | BASELINES | {"tx-writes-ack-first"}, key=len, reverse=True)

NO_CHANGE_WITHOUT_INTERVAL = 1.25  # a step or effect beyond ×1.25 either way counts when n is too small
UNEXPLAINED = "unexplained"

# The dimensions a toggle run changes, in the order the tables list them.
DIMENSIONS = ("transaction_version", "verification", "group_protocol", "coordinator_linger_ms")
DIMENSION_NAMES = {
    "transaction_version": "transaction.version",
    "verification": "partition verification",
    "group_protocol": "group protocol",
    "coordinator_linger_ms": "coordinator linger (ms)",
}


@dataclass(frozen=True)
class Change:
    """A change one release brought to a transaction's path (docs/kafka-evolution.md)."""

    release: tuple[int, int]  # the first release line with it
    name: str
    side: str  # "broker" or "client"
    scenarios: frozenset[str]  # the scenarios (tx and plain) it can move
    dimension: str | None = None  # the toggle that isolates it on 4.1, if any
    new: object = None  # the dimension's value with the change (the toggle's "after" side)
    old: object = None  # and without it


_TX = frozenset(SCENARIOS)
_STREAMING_PLAIN = frozenset({"base-streaming", "base-streaming-ack-first"})
CHANGES: tuple[Change, ...] = (
    Change((3, 3), "KRaft instead of ZooKeeper (metadata; the transaction path is unchanged)", "broker",
           _TX | BASELINES),
    Change((3, 6), "KIP-890 part 1: partition verification (the leader asks the coordinator before a transactional "
           "append)", "broker", _TX - {"tx-send-offsets"}, "verification", "true", "false"),
    Change((3, 7), "KIP-580: exponential client back-off (retry.backoff.max.ms) for CONCURRENT_TRANSACTIONS retries",
           "client", _TX),
    Change((4, 0), "KIP-890 part 2: transaction.version 2 (epoch bump per transaction, no AddPartitionsToTxn)",
           "broker", _TX, "transaction_version", 2, 1),
    Change((4, 0), "KIP-848: the new group coordinator, whose append linger delays plain offset commits",
           "broker", _STREAMING_PLAIN, "coordinator_linger_ms", 5, 0),
)
# Toggles measured on 4.1 that no release switches on by default (reported, never a step's explanation).
OPT_IN = {"group_protocol": ("classic", "consumer")}


@dataclass(frozen=True)
class Dimensions:
    release: str | None
    client: str | None
    transaction_version: int | None
    verification: str | None  # "true" / "false"; None: the release has no such setting
    group_protocol: str | None  # "classic" / "consumer"; None: no consumers
    coordinator_linger_ms: int | None  # None: not defined, or the old coordinator (before 4.0)
    backoff_max_ms: int | None  # None: the client has no exponential back-off (before 3.7)


def release_key(version: str | None) -> tuple[int, ...]:
    parts = []
    for part in (version or "").split("-")[0].split("."):
        parts.append(int(part) if part.isdigit() else 0)
    return tuple(parts)


def scenario(result: Result) -> str | None:
    """The shipped scenario a run measures (a toggle variant is named after it: tx-writes-tv1 → tx-writes)."""
    for name in _NAMES:
        if result.workload == name or result.workload.startswith(name + "-"):
            return name
    return None


def _int(text: object) -> int | None:
    try:
        return int(str(text))
    except (TypeError, ValueError):
        return None


def dimensions(result: Result) -> Dimensions:
    release = result.versions.get("broker")
    consumers = result.environment.get("consumerGroupProtocols")
    protocol: str | None = None
    if isinstance(consumers, Mapping) and consumers:
        protocol = "/".join(sorted({str(v) for v in consumers.values()}))
    elif result.scenario.get("kind") == "STREAM":
        settings = result.environment.get("consumerSettings")
        protocol = str(settings.get("group.protocol", "classic")) if isinstance(settings, Mapping) else "classic"
    linger = _int(setup.broker_setting(result, "group.coordinator.append.linger.ms"))
    if release_key(release) < (4, 0):
        linger = None  # before 4.0 the old group coordinator serves groups by default: no append linger
    producer = result.environment.get("producerSettings")
    backoff_max = _int(producer.get("retry.backoff.max.ms")) if isinstance(producer, Mapping) else None
    return Dimensions(
        release=release,
        client=result.versions.get("kafkaClients"),
        transaction_version=result.transaction_version,
        verification=setup.broker_setting(result, "transaction.partition.verification.enable"),
        group_protocol=protocol,
        coordinator_linger_ms=linger,
        backoff_max_ms=backoff_max,
    )


def _default(release: str | None, dimension: str) -> object:
    """What ``release`` does when nothing is set (the release's own definitions; docs/kafka-evolution.md)."""
    key = release_key(release)
    if dimension == "transaction_version":
        return 2 if key >= (4, 0) else 0
    if dimension == "verification":
        return "true" if key >= (3, 6) else None
    if dimension == "group_protocol":
        return "classic"
    if dimension == "coordinator_linger_ms":
        return 5 if key >= (4, 0) else None
    raise ValueError(dimension)


def is_toggle(result: Result) -> bool:
    """Whether a dimension of the run differs from its release's default (a toggle run, not a release point)."""
    found = dimensions(result)
    for name in DIMENSIONS:
        value = getattr(found, name)
        if value is not None and value != _default(found.release, name):
            return True
    return False


def _measured(result: Result) -> bool:
    """A Kafka run (an embedded broker, or a cluster that said it is Kafka) with an operation latency to compare."""
    return (not result.is_failed and result.operation_latency is not None
            and systems.system(result)[0] == "Kafka" and bool(result.versions.get("broker")))


def _p(result: Result, name: str) -> float | None:
    return result.operation_latency.get(name) if result.operation_latency else None


def _estimate(values: Sequence[float]) -> intervals.Estimate | None:
    positive = [v for v in values if v is not None and v > 0]
    return intervals.estimate(positive) if positive else None


def _ratios(numerators: Sequence[Result], denominators: Sequence[Result],
            value: Callable[[Result], float | None]) -> list[float]:
    """Paired by repetition group and index where both sides share one (interleaved A B A B), else all pairs."""
    def key(run: Result) -> tuple[str, int] | None:
        return (run.repetition.group, run.repetition.index) if run.repetition else None

    below = {key(r): r for r in denominators if key(r) is not None}
    paired = [(n, below[key(n)]) for n in numerators if key(n) in below]
    pairs = paired if paired else [(n, d) for n in numerators for d in denominators]
    ratios = []
    for top, bottom in pairs:
        a, b = value(top), value(bottom)
        if a is not None and b:
            ratios.append(a / b)
    return ratios


def changed(found: intervals.Estimate | None) -> bool | None:
    """True/False: the ratio moved or not; None: nothing to judge."""
    if found is None:
        return None
    if found.has_interval:
        low, high = found.bounds()
        return not (low <= 1.0 <= high)
    return abs(math.log(found.median)) > math.log(NO_CHANGE_WITHOUT_INTERVAL)


def format_estimate(found: intervals.Estimate | None, fmt: Callable[[float], str]) -> str:
    """"12.3 [11.9–13.0] n = 5", or "12.3 (n = 1, no interval)"."""
    if found is None:
        return MISSING
    if found.has_interval:
        low, high = found.bounds()
        return f"{fmt(found.median)} [{fmt(low)}–{fmt(high)}] n = {found.n}"
    return f"{fmt(found.median)} (n = {found.n}, no interval)"


def _times(value: float) -> str:
    return f"{value:.2f}×"


@dataclass(frozen=True)
class Point:
    """One scenario on one release and client, over its repetitions."""

    scenario: str
    release: str
    client: str
    p50: intervals.Estimate | None
    p99: intervals.Estimate | None
    ratio: intervals.Estimate | None  # tx ÷ base of the p50, None without a baseline
    runs: tuple[Result, ...]


def _release_runs(results: Iterable[Result]) -> dict[tuple[str, str, str], list[Result]]:
    grouped: dict[tuple[str, str, str], list[Result]] = defaultdict(list)
    for result in results:
        name = scenario(result)
        if name is None or not _measured(result) or is_toggle(result):
            continue
        if result.workload != name:
            continue  # a variant left at its defaults is still not the shipped scenario
        found = dimensions(result)
        if found.release and found.client:
            grouped[(name, found.release, found.client)].append(result)
    return grouped


def points(results: Sequence[Result]) -> list[Point]:
    grouped = _release_runs(results)
    found = []
    for (name, release, client), runs in grouped.items():
        if name not in SCENARIOS:
            continue
        base = SCENARIOS[name]
        base_runs = grouped.get((base, release, client), []) if base else []
        found.append(Point(
            name, release, client,
            _estimate([v for r in runs if (v := _p(r, "p50")) is not None]),
            _estimate([v for r in runs if (v := _p(r, "p99")) is not None]),
            _estimate(_ratios(runs, base_runs, lambda r: _p(r, "p50"))) if base_runs else None,
            tuple(runs),
        ))
    return sorted(found, key=lambda p: (list(SCENARIOS).index(p.scenario), release_key(p.release),
                                        release_key(p.client)))


def own_client(point: Point) -> bool:
    return point.release == point.client


@dataclass(frozen=True)
class Toggle:
    """One dimension changed alone: ``after`` ÷ ``before`` of the p50 on one release, client and scenario."""

    scenario: str
    release: str
    dimension: str
    before: object
    after: object
    effect: intervals.Estimate | None
    before_p50: intervals.Estimate | None
    after_p50: intervals.Estimate | None


def toggles(results: Sequence[Result]) -> list[Toggle]:
    """Runs of one scenario, release and client that differ in exactly one dimension, side against side."""
    by_setup: dict[tuple[str, str | None, str | None], list[tuple[Dimensions, Result]]] = defaultdict(list)
    for result in results:
        name = scenario(result)
        if name is None or not _measured(result):
            continue
        found = dimensions(result)
        by_setup[(name, found.release, found.client)].append((found, result))
    out = []
    for (name, release, _client), runs in by_setup.items():
        for dimension in DIMENSIONS:
            sides: dict[tuple[object, tuple[object, ...]], list[Result]] = defaultdict(list)
            for found, result in runs:
                others = tuple(getattr(found, d) for d in DIMENSIONS if d != dimension)
                sides[(getattr(found, dimension), others)].append(result)
            values = sorted({value for value, _ in sides if value is not None}, key=str)
            if len(values) != 2:
                continue
            before, after = _toggle_order(dimension, values, release)
            for (value, others), after_runs in sides.items():
                before_runs = sides.get((before, others))
                if value != after or not before_runs:
                    continue
                out.append(Toggle(
                    name, release or "?", dimension, before, after,
                    _estimate(_ratios(after_runs, before_runs, lambda r: _p(r, "p50"))),
                    _estimate([v for r in before_runs if (v := _p(r, "p50")) is not None]),
                    _estimate([v for r in after_runs if (v := _p(r, "p50")) is not None]),
                ))
    return sorted(out, key=lambda t: (DIMENSIONS.index(t.dimension), t.scenario, release_key(t.release)))


def _toggle_order(dimension: str, values: list[object], release: str | None) -> tuple[object, object]:
    """(before, after): the state without the change first, so an effect reads as what the change does."""
    for change in CHANGES:
        if change.dimension == dimension and set(values) == {change.old, change.new}:
            return change.old, change.new
    if dimension in OPT_IN and set(values) == set(OPT_IN[dimension]):
        return OPT_IN[dimension]
    default = _default(release, dimension)
    other = next(v for v in values if v != default) if default in values else values[1]
    return (default, other) if default in values else (values[0], values[1])


@dataclass(frozen=True)
class Step:
    scenario: str
    before: str
    after: str
    own: intervals.Estimate | None  # after ÷ before, each release on its own client
    fixed: intervals.Estimate | None  # the same on one fixed client (the broker's share), if measured
    fixed_client: str | None
    candidates: tuple[Change, ...]
    explanation: str


def steps(all_points: Sequence[Point], found_toggles: Sequence[Toggle]) -> list[Step]:
    out = []
    for name in SCENARIOS:
        own = [p for p in all_points if p.scenario == name and own_client(p)]
        own.sort(key=lambda p: release_key(p.release))
        for before, after in zip(own, own[1:]):
            ratio = _estimate(_ratios(list(after.runs), list(before.runs), lambda r: _p(r, "p50")))
            fixed, fixed_client = _fixed_step(all_points, name, before.release, after.release)
            candidates = tuple(c for c in CHANGES if name in c.scenarios
                               and release_key(before.release)[:2] < c.release <= release_key(after.release)[:2])
            out.append(Step(name, before.release, after.release, ratio, fixed, fixed_client, candidates,
                            _explain(name, ratio, candidates, found_toggles)))
    return out


def _fixed_step(all_points: Sequence[Point], name: str, before: str,
                after: str) -> tuple[intervals.Estimate | None, str | None]:
    clients_before = {p.client: p for p in all_points if p.scenario == name and p.release == before}
    clients_after = {p.client: p for p in all_points if p.scenario == name and p.release == after}
    # One client on both sides: the step with the client held still, i.e. the broker's share of it.
    for client in sorted(set(clients_before) & set(clients_after), key=release_key, reverse=True):
        runs_after, runs_before = clients_after[client].runs, clients_before[client].runs
        return _estimate(_ratios(list(runs_after), list(runs_before), lambda r: _p(r, "p50"))), client
    return None, None


def _explain(name: str, ratio: intervals.Estimate | None, candidates: Sequence[Change],
             found_toggles: Sequence[Toggle]) -> str:
    moved = changed(ratio)
    if moved is None:
        return MISSING
    provisional = "" if ratio is not None and ratio.has_interval else " (provisional: no interval)"
    if not moved:
        return "no change" + provisional
    assert ratio is not None
    direction = ratio.median > 1
    explained, against, untested = [], [], []
    for change in candidates:
        evidence = [t for t in found_toggles if t.dimension == change.dimension and t.scenario == name
                    and t.before == change.old and t.after == change.new and t.effect is not None]
        if change.dimension is None or not evidence:
            untested.append(change.name)
            continue
        agreeing = [t for t in evidence if changed(t.effect) and (t.effect.median > 1) == direction]
        toggle = agreeing[0] if agreeing else evidence[0]
        assert toggle.effect is not None
        shown = f"{change.name} (toggle on {toggle.release}: {_times(toggle.effect.median)})"
        (explained if agreeing else against).append(shown)
    if explained:
        return "; ".join(explained) + provisional
    parts = []
    if against:
        parts.append("its toggle does not account for it (too small, or the other way): " + "; ".join(against))
    if untested:
        parts.append("candidates without a toggle: " + "; ".join(untested))
    return UNEXPLAINED + ("; " + "; ".join(parts) if parts else "") + provisional


@dataclass(frozen=True)
class LingerBias:
    """tx ÷ naive streaming on one release, with the naive side at the default linger and at 0."""

    scenario: str
    release: str
    linger_ms: int
    ratio_default: intervals.Estimate | None
    ratio_corrected: intervals.Estimate | None


def linger_bias(results: Sequence[Result]) -> list[LingerBias]:
    """The coordinator linger delays naive streaming's plain commit but not the transactional one: the tx ÷ naive
    ratio with the naive side at linger 0 removes that bias."""
    out = []
    for tx_name, base_name in SCENARIOS.items():
        if base_name not in _STREAMING_PLAIN:
            continue
        by_release: dict[str, dict[str, list[Result]]] = defaultdict(lambda: defaultdict(list))
        for result in results:
            name = scenario(result)
            if name not in (tx_name, base_name) or not _measured(result):
                continue
            found = dimensions(result)
            if found.coordinator_linger_ms is None or found.release is None or found.release != found.client:
                continue
            if any(getattr(found, d) != _default(found.release, d)
                   for d in DIMENSIONS if d != "coordinator_linger_ms"):
                continue
            side = "tx" if name == tx_name else "base"
            by_release[found.release][f"{side}-{found.coordinator_linger_ms}"].append(result)
        for release, sides in by_release.items():
            default = _default(release, "coordinator_linger_ms")
            tx, base, base_zero = sides.get(f"tx-{default}"), sides.get(f"base-{default}"), sides.get("base-0")
            if not (tx and base and base_zero):
                continue
            out.append(LingerBias(
                tx_name, release, int(str(default)),
                _estimate(_ratios(tx, base, lambda r: _p(r, "p50"))),
                _estimate(_ratios(tx, base_zero, lambda r: _p(r, "p50"))),
            ))
    return sorted(out, key=lambda b: (b.scenario, release_key(b.release)))


def applies(results: Sequence[Result]) -> bool:
    """Whether the inputs hold what the section needs: a scenario on two releases, or a toggle."""
    releases = {p.release for p in points(results)}
    return len(releases) >= 2 or bool(toggles(results))


# --- tables ---

def release_table(all_points: Sequence[Point]) -> Table:
    rows = []
    for p in all_points:
        rows.append((
            p.scenario, p.release, p.client + ("" if own_client(p) else " (fixed)"),
            format_estimate(p.p50, format_ms), format_estimate(p.p99, format_ms),
            format_estimate(p.ratio, _times) if SCENARIOS[p.scenario] else "no baseline",
        ))
    return Table(
        "Transaction scenarios by release (closed loop, operation latency in ms)",
        ("scenario", "broker", "client", "p50 ms", "p99 ms", "tx ÷ base (p50)"),
        tuple(rows), "lllrrr",
        "Each release on its own client, and on a fixed client where the suite ran one (marked): a step seen on "
        "both is the broker's. A value is the median over repetitions [95% interval] n; a single run has none.",
    )


def attribution_table(found_steps: Sequence[Step]) -> Table:
    rows = []
    for s in found_steps:
        rows.append((
            s.scenario, f"{s.before} → {s.after}", format_estimate(s.own, _times),
            format_estimate(s.fixed, _times) + (f" (client {s.fixed_client})" if s.fixed_client else "")
            if s.fixed is not None else MISSING,
            s.explanation,
        ))
    return Table(
        "What explains each step between releases",
        ("scenario", "step", "p50 after ÷ before (own clients)", "same on a fixed client", "explained by"),
        tuple(rows), "llrrl",
        "A step is a change when its interval excludes 1 (without an interval: beyond ×1.25 either way, "
        "provisional). It is explained by a change the later release brought when the toggle isolating that change "
        "on 4.1 moves the same scenario the same way; a change without a toggle is named as a candidate only.",
        wrap=True,
    )


def toggle_table(found: Sequence[Toggle]) -> Table:
    rows = []
    for t in found:
        rows.append((
            DIMENSION_NAMES[t.dimension], t.scenario, t.release, f"{t.before} → {t.after}",
            format_estimate(t.before_p50, format_ms), format_estimate(t.after_p50, format_ms),
            format_estimate(t.effect, _times),
        ))
    return Table(
        "One dimension at a time (the attribution's evidence)",
        ("dimension", "scenario", "broker", "before → after", "p50 before (ms)", "p50 after (ms)", "after ÷ before"),
        tuple(rows), "llllrrr",
        "Runs of one scenario, release and client that differ in this dimension alone, each as the broker and "
        "client reported it (read back, not the workload's wish).",
    )


def linger_table(found: Sequence[LingerBias]) -> Table:
    rows = [(b.scenario, b.release, f"{b.linger_ms} ms", format_estimate(b.ratio_default, _times),
             format_estimate(b.ratio_corrected, _times)) for b in found]
    return Table(
        "The coordinator linger's bias on tx ÷ naive streaming",
        ("scenario", "broker", "linger (default)", "tx ÷ naive", "tx ÷ naive at linger 0 (corrected)"),
        tuple(rows), "lllrr",
        "group.coordinator.append.linger.ms holds a plain offset commit (naive streaming's commitSync) for up to "
        "the linger but not a transactional one, so at low load it makes transactions look cheaper than they are; "
        "the corrected ratio divides by naive streaming at linger 0.",
    )
