"""Every seed finding against the results: the seed's figure, the measured median with a 95% interval over
repetitions, and a verdict by the rule in ``RULE`` (printed in the report).

A finding is measured separately for each system (Kafka, Redpanda, ...), broker release (with its transaction
protocol) and order of calls, so what changed between Kafka 2.8 and 4.1, or between the two orders, shows as
rows side by side. Ratios are taken per repetition: the runs of an interleaved comparison (one
``repetition.group``) are paired by repetition index, other runs by start time; the median and the interval are
then over those per-repetition ratios.
"""

from __future__ import annotations

import math
import statistics
from collections import defaultdict
from dataclasses import dataclass
from typing import Callable, Iterable, Sequence

from . import analysis, intervals, seeds
from .formatting import format_ms, format_rate
from .intervals import Estimate
from .model import Result
from .tables import Table
from .seeds import SeedFigure

REPRODUCED = "reproduced"
NOT_REPRODUCED = "not reproduced"
REVERSED = "reversed"
NOT_MEASURED = "not measured"
VERDICTS = (REPRODUCED, NOT_REPRODUCED, REVERSED, NOT_MEASURED)

# The seeds' own figures for one benchmark differ by up to 1.5× between their two topologies (seed 001:
# TxSendBench 39 vs 25.5 ms), so on other hardware agreement is looked for within that factor.
TOLERANCE = 1.5
KNEE_FACTOR = 10.0  # a knee: the end-to-end p50 reaches this multiple of its value at the lowest rate

RULE = (
    "Verdict rule. Each seed figure is a value or a range (seed 001: the range between its single-node and "
    f"3-node medians); it is widened by {TOLERANCE:g}× each way, the spread the seeds' own figures for one "
    "benchmark show between their two set-ups. The measured interval is the 95% interval of the median over "
    "repetitions (the sources table names the method); with fewer than 3 repetitions there is none, and the "
    "median alone stands in for it, so such a verdict is marked provisional. "
    "Reversed: the seed's figure lies on one side of 1× (a ratio with a direction: tx slower than base, default "
    "back-off slower than none, tx bulk faster than acks=all; seed 002's own runs lie on both sides) and the "
    "whole measured interval lies on the other side. Reproduced: the interval lies on the seed's side of 1× (when the figure "
    "has a direction) and overlaps the widened seed figure. Not reproduced: anything else (the interval "
    "straddles 1×, or lies on the seed's side but outside the widened figure). Not measured: no complete result "
    "for it in the inputs (failed and partial runs are left out), or only sweeps that stop, without a knee, below "
    "the rate the seed's knee lies at (they cannot tell, and are left out). The knee (seed 004) is the lowest "
    "target rate at which the end-to-end p50 is "
    f"{KNEE_FACTOR:g}× or more its value at the lowest rate swept; it is a swept rate, not a continuous value, "
    "so its interval is the range of the repetitions' knees."
)


# --------------------------------------------------------------------------------------------------
# What a run is


def system(result: Result) -> str:
    """The broker family a driver talks to, as the seeds name systems."""
    text = f"{result.driver} {result.driver_config.get('driverClass', '')}".lower()
    for needle, name in (("redpanda", "Redpanda"), ("aeron", "Aeron"), ("kafka", "Kafka")):
        if needle in text:
            return name
    return result.driver


def retry_backoff(result: Result) -> str:
    """"zero" when the producer ran with retry.backoff.ms=0, else "default"."""
    for block in ("producerConfig", "commonConfig"):
        value = analysis.read_config_property(result.driver_config.get(block), "retry.backoff.ms")
        if value is not None:
            return "zero" if value.strip() == "0" else "default"
    return "default"


def broker_label(result: Result) -> str:
    if result.broker_count == 0:
        return "no broker"  # a brokerless transport (Aeron)
    version = result.versions.get("broker") or "?"
    if result.transaction_version is None:
        return version
    return f"{version} (tv {result.transaction_version})"


def order_label(result: Result) -> str:
    await_acks = result.scenario.get("awaitAcks")
    return await_acks if isinstance(await_acks, str) else "—"


def _usable(result: Result) -> bool:
    return result.is_omb_tx and not result.is_failed and not result.is_partial


# --------------------------------------------------------------------------------------------------
# What a finding measures


def operation_p50_ms(result: Result) -> float | None:
    return result.operation_latency.get("p50") if result.operation_latency else None


def end_to_end_p50_ms(result: Result) -> float | None:
    """End-to-end p50; for tx-fetch that is write-to-visible (publish until a read_committed consumer sees it)."""
    return analysis.percentile_value_ms(result, analysis.END_TO_END, 50.0)


def messages_per_second(result: Result) -> float | None:
    return result.summary.messages_per_second if result.summary else None


@dataclass(frozen=True)
class Side:
    """The runs on one side of a comparison: these workloads, with this retry.backoff.ms (None: any)."""

    workload: str
    backoff: str | None = "default"

    def accepts(self, result: Result) -> bool:
        if result.workload != self.workload or analysis.is_rate_sweep_point(result):
            return False
        return self.backoff is None or retry_backoff(result) == self.backoff

    def describe(self) -> str:
        return self.workload + {"zero": " (retry.backoff.ms=0)", "default": "", None: ""}[self.backoff]


@dataclass(frozen=True)
class FindingSpec:
    key: str  # seeds.FIGURES keys are "<key>/<system>"
    seed: str
    title: str
    quantity: str  # what is compared, in words
    metric: Callable[[Result], float | None]
    unit: str  # "×", "ms", "msg/s"
    comparisons: tuple[tuple[Side, Side | None], ...] = ()  # (numerator, denominator or None for a single value)
    reference: float | None = None  # 1.0 for ratios whose figure has a direction
    fallback_system: str | None = None  # compare other systems with this one's figure (noted)
    knee: bool = False


SPECS: tuple[FindingSpec, ...] = (
    FindingSpec("000-writes", "000", "Transactional writes overhead",
                "tx-writes p50 ÷ base-writes p50 (operation latency)", operation_p50_ms, "×",
                ((Side("tx-writes"), Side("base-writes")), (Side("tx-writes-ack-first"), Side("base-writes"))),
                reference=1.0),
    FindingSpec("000-streaming", "000", "Transactional streaming overhead",
                "tx-streaming p50 ÷ base-streaming p50 (operation latency), each order with its base",
                operation_p50_ms, "×",
                ((Side("tx-streaming"), Side("base-streaming")),
                 (Side("tx-streaming-ack-first"), Side("base-streaming-ack-first"))),
                reference=1.0),
    FindingSpec("001-txsend", "001", "TxSendBench median", "tx-writes operation p50", operation_p50_ms, "ms",
                ((Side("tx-writes"), None), (Side("tx-writes-ack-first"), None))),
    FindingSpec("001-sendoffsets", "001", "TxSendOffsetsBench median", "tx-send-offsets operation p50",
                operation_p50_ms, "ms", ((Side("tx-send-offsets"), None),)),
    FindingSpec("001-fetch", "001", "FetchBench median (write-to-visible)",
                "tx-fetch end-to-end p50: publish until a read_committed consumer sees it (not the transaction "
                "time)", end_to_end_p50_ms, "ms", ((Side("tx-fetch"), None),)),
    FindingSpec("001-stream", "001", "StreamBench median", "tx-streaming operation p50", operation_p50_ms, "ms",
                ((Side("tx-streaming"), None), (Side("tx-streaming-ack-first"), None))),
    FindingSpec("002-ordering", "002", "Acks SLA profile ordering",
                "acks-sla-durable msg/s ÷ acks-sla-yolo msg/s (RF 3, min ISR 2, acks=all against RF 2, min ISR 1, "
                "acks=1)", messages_per_second, "×",
                ((Side("acks-sla-durable", None), Side("acks-sla-yolo", None)),), reference=1.0),
    FindingSpec("003-streaming", "003", "Transactional streaming overhead, tuned",
                "tx-streaming p50 with retry.backoff.ms=0 ÷ base-streaming p50", operation_p50_ms, "×",
                ((Side("tx-streaming", "zero"), Side("base-streaming", None)),
                 (Side("tx-streaming-ack-first", "zero"), Side("base-streaming-ack-first", None))),
                reference=1.0),
    FindingSpec("003-backoff", "003", "Back-off collision",
                "p50 with the default retry.backoff.ms ÷ p50 with retry.backoff.ms=0 (operation latency)",
                operation_p50_ms, "×",
                ((Side("tx-writes"), Side("tx-writes", "zero")),
                 (Side("tx-streaming"), Side("tx-streaming", "zero")),
                 (Side("tx-streaming-ack-first"), Side("tx-streaming-ack-first", "zero"))),
                reference=1.0),
    FindingSpec("003-bulk", "003", "Transactional vs naive bulk insert",
                "bulk-tx msg/s ÷ bulk-acks-all msg/s (1000 sends per transaction against 1000 sends with acks=all)",
                messages_per_second, "×", ((Side("bulk-tx", None), Side("bulk-acks-all", None)),),
                reference=1.0, fallback_system="Redpanda"),
    FindingSpec("004-knee", "004", "Latency knee of the RPS sweep",
                f"lowest target rate whose end-to-end p50 is ≥ {KNEE_FACTOR:g}× the p50 at the lowest rate",
                end_to_end_p50_ms, "msg/s", knee=True),
)


# --------------------------------------------------------------------------------------------------
# Rows


@dataclass(frozen=True)
class FindingRow:
    spec: FindingSpec
    figure: SeedFigure | None
    system: str
    broker: str  # "2.8.2 (tv 0)", or "—" when not measured
    order: str  # the tx side's awaitAcks, "—" when it does not apply
    compared: str  # which workloads, e.g. "tx-writes ÷ base-writes"
    estimate: Estimate | None  # None when not measured
    verdict: str
    files: tuple[str, ...]
    notes: tuple[str, ...]
    knee_shown: str = ""  # the knee's measured value in words ("25K msg/s", "none ≤ 5K msg/s")
    scenario: str = ""  # the workload measured (the numerator's), "" when not measured

    @property
    def title(self) -> str:
        """The finding, with the workload when the finding covers several (back-off: tx-writes, tx-streaming)."""
        workloads = {pair[0].workload.removesuffix("-ack-first") for pair in self.spec.comparisons}
        return f"{self.spec.title}: {self.scenario}" if len(workloads) > 1 and self.scenario else self.spec.title


def findings(results: Iterable[Result]) -> list[FindingRow]:
    usable = [r for r in results if _usable(r)]
    rows: list[FindingRow] = []
    for spec in SPECS:
        found = _knee_rows(spec, usable) if spec.knee else _comparison_rows(spec, usable)
        measured_systems = {row.system for row in found}
        for figure in (f for f in seeds.FIGURES if f.key.startswith(spec.key + "/")):
            covered = figure.system in measured_systems or (
                spec.fallback_system == figure.system and measured_systems
            )
            if not covered:
                found.append(_not_measured(spec, figure))
        rows += found
    return rows


def _figure_for(spec: FindingSpec, system_name: str) -> tuple[SeedFigure | None, list[str]]:
    figure = seeds.figure(f"{spec.key}/{system_name}")
    if figure is None and spec.fallback_system:
        figure = seeds.figure(f"{spec.key}/{spec.fallback_system}")
        if figure is not None:
            return figure, [f"the seed measured {figure.system}, not {system_name}"]
    return figure, []


def _not_measured(spec: FindingSpec, figure: SeedFigure) -> FindingRow:
    wanted = " or ".join(dict.fromkeys(side.describe() for pair in spec.comparisons for side in pair if side))
    return FindingRow(spec, figure, figure.system, "—", "—", "—", None, NOT_MEASURED, (),
                      (f"no complete {figure.system} result of {wanted or 'an rps-sweep'} in the inputs",))


def _setup(result: Result) -> tuple[str, str]:
    return system(result), broker_label(result)


def _comparison_rows(spec: FindingSpec, results: Sequence[Result]) -> list[FindingRow]:
    rows = []
    for numerator, denominator in spec.comparisons:
        by_setup: dict[tuple[str, str], list[Result]] = defaultdict(list)
        for result in results:
            if numerator.accepts(result) and spec.metric(result) is not None:
                by_setup[_setup(result)].append(result)
        for (system_name, broker), tops in sorted(by_setup.items()):
            figure, notes = _figure_for(spec, system_name)
            if figure is None:
                continue  # the seed says nothing about this system
            if denominator is None:
                values = [spec.metric(r) for r in tops]
                used = tops
                compared = numerator.describe()
            else:
                bottoms = [r for r in results if denominator.accepts(r) and _setup(r) == (system_name, broker)
                           and spec.metric(r)]
                pairs = pair_runs(tops, bottoms)
                if not pairs:
                    continue
                values = [spec.metric(top) / spec.metric(bottom) for top, bottom in pairs]  # type: ignore[operator]
                used = [r for pair in pairs for r in pair]
                compared = f"{numerator.describe()} ÷ {denominator.describe()}"
                if len(pairs) < max(len(tops), len(bottoms)):
                    notes.append(f"{len(tops)} vs {len(bottoms)} runs: {len(pairs)} pair(s)")
            estimate = intervals.estimate([v for v in values if v is not None])
            verdict = judge(estimate.bounds(), figure, spec.reference)
            notes += _context_notes(spec, figure, used, estimate, verdict)
            rows.append(FindingRow(spec, figure, system_name, broker, order_label(tops[0]), compared, estimate,
                                   verdict, tuple(sorted(r.path.name for r in used)), tuple(notes),
                                   scenario=numerator.workload))
    return sorted(rows, key=lambda row: (row.system, _version_key(row.broker)))


def _version_key(label: str) -> tuple[int, ...]:
    numbers = []
    for part in label.split(" ")[0].split("."):
        numbers.append(int(part) if part.isdigit() else -1)
    return tuple(numbers)


def pair_runs(tops: Sequence[Result], bottoms: Sequence[Result]) -> list[tuple[Result, Result]]:
    """Pairs for per-repetition ratios: same repetition group and index first (the runs of an interleaved
    comparison, which alternated), then what is left in start-time order."""
    pairs: list[tuple[Result, Result]] = []
    by_slot = {(r.repetition.group, r.repetition.index): r for r in bottoms if r.repetition is not None}
    left_tops, taken = [], set()
    for top in tops:
        slot = (top.repetition.group, top.repetition.index) if top.repetition is not None else None
        bottom = by_slot.get(slot) if slot is not None else None
        if bottom is not None and id(bottom) not in taken:
            pairs.append((top, bottom))
            taken.add(id(bottom))
        else:
            left_tops.append(top)
    left_bottoms = [r for r in bottoms if id(r) not in taken]
    in_time = lambda r: (r.start_time or "", r.path.name)  # noqa: E731
    pairs += zip(sorted(left_tops, key=in_time), sorted(left_bottoms, key=in_time))
    return pairs


def judge(bounds: tuple[float, float], figure: SeedFigure, reference: float | None) -> str:
    """The verdict rule (RULE) for a measured interval (or a lone median) against a seed figure."""
    low, high = bounds
    if reference is not None:
        seed_above = figure.low >= reference and figure.high > reference
        seed_below = figure.high < reference
        if seed_above:
            if high < reference:
                return REVERSED
            if low <= reference:
                return NOT_REPRODUCED
        elif seed_below:
            if low > reference:
                return REVERSED
            if high >= reference:
                return NOT_REPRODUCED
    widened_low, widened_high = figure.low / TOLERANCE, figure.high * TOLERANCE
    return REPRODUCED if low <= widened_high and high >= widened_low else NOT_REPRODUCED


def _context_notes(spec: FindingSpec, figure: SeedFigure, used: Sequence[Result], estimate: Estimate,
                   verdict: str) -> list[str]:
    notes = []
    if not estimate.has_interval:
        notes.append(f"n = {estimate.n}: no interval, verdict provisional")
    if verdict == NOT_REPRODUCED and spec.reference is not None and figure.low >= spec.reference:
        low, _ = estimate.bounds()
        if low > spec.reference:
            notes.append("direction holds, size differs")
    if spec.key == "003-streaming":
        brokers = {r.broker_count for r in used if r.broker_count is not None}
        if brokers and max(brokers) < 3:
            notes.append("the seed also ran RF 3, min ISR 2 and fsync per message on 3 brokers; these runs had "
                         f"{'/'.join(str(b) for b in sorted(brokers))} broker(s)")
    if spec.key == "002-ordering":
        notes.append("each profile here runs on a fresh cluster; the seed ran them one after another on one")
    return notes


# --------------------------------------------------------------------------------------------------
# Seed 004's knee


def _knee_rows(spec: FindingSpec, results: Sequence[Result]) -> list[FindingRow]:
    points = {setup: sweep_repetitions(runs) for setup, runs in _by_setup(
        r for r in results
        if analysis.is_rate_sweep_point(r) and r.sweep.name.startswith("rps-sweep")  # type: ignore[union-attr]
    ).items()}
    rows = []
    for (system_name, broker), repetitions in sorted(points.items()):
        figure = seeds.figure(f"{spec.key}/{system_name}")
        if figure is None:
            continue
        # A sweep that found no knee below the rate the seed's knee is at (for a seed without a knee: its highest
        # rate) cannot tell; it is left out.
        needed = figure.low if not math.isinf(figure.low) else max(seeds.SWEEP_P50_MS.get(system_name, {0: 0}))
        knees, tops, files, curves, short, short_top = [], [], [], [], 0, 0.0
        for by_rate in repetitions:
            curve = {rate: spec.metric(r) for rate, r in sorted(by_rate.items())}
            files += [r.path.name for r in by_rate.values()]
            curves.append(", ".join(f"{format_rate(rate)} {format_value(p50, 'ms')}" for rate, p50 in curve.items()))
            knee, top = knee_rate(curve), max(by_rate)
            if math.isinf(knee) and top < needed:
                short += 1
                short_top = max(short_top, top)
                continue
            knees.append(knee)
            tops.append(top)
        notes = ["end-to-end p50 by target rate: " + "; ".join(curves)]
        if short:
            notes.append(f"{short} sweep(s) stop below {format_rate(needed)} msg/s without a knee: left out")
        if not knees:
            estimate, verdict = None, NOT_MEASURED
            shown = f"none ≤ {format_rate(short_top)} msg/s"
        else:
            ordered = tuple(sorted(knees))
            median = statistics.median(ordered) if len(ordered) % 2 or not any(map(math.isinf, ordered)) \
                else ordered[len(ordered) // 2]
            low, high = (ordered[0], ordered[-1]) if len(ordered) >= 3 else (None, None)
            method = "range of repetitions" if low is not None else intervals.TOO_FEW
            estimate = Estimate(ordered, median, low, high, method)
            verdict = _judge_knee(estimate.bounds(), figure)
            shown = _knee_text(median, min(tops))
            if estimate.low is None:
                notes.append(f"n = {estimate.n}: no interval, verdict provisional")
        rows.append(FindingRow(spec, figure, system_name, broker, "—", "rps-sweep end-to-end p50 per rate",
                               estimate, verdict, tuple(sorted(files)), tuple(notes), knee_shown=shown))
    return rows


def _by_setup(results: Iterable[Result]) -> dict[tuple[str, str], list[Result]]:
    grouped: dict[tuple[str, str], list[Result]] = defaultdict(list)
    for result in results:
        grouped[_setup(result)].append(result)
    return grouped


def sweep_repetitions(runs: Iterable[Result]) -> list[dict[float, Result]]:
    """The sweeps among these points: each is one run per rate. The runner gives each point of a non-interleaved
    sweep its own repetition group, so the group cannot tie points together; the repetition index and the order
    of the runs do: among the runs with one index, in start-time order, a rate seen again starts the next sweep.
    Sweeps of fewer than two rates are left out (no knee can be read from one point)."""
    by_index: dict[int, list[Result]] = defaultdict(list)
    for run in runs:
        by_index[run.repetition.index if run.repetition else 1].append(run)
    found: list[dict[float, Result]] = []
    for index in sorted(by_index):
        current: dict[float, Result] = {}
        for run in sorted(by_index[index], key=lambda r: (r.start_time or "", r.path.name)):
            rate = float(run.sweep.value)  # type: ignore[union-attr, arg-type]
            if rate in current:
                found.append(current)
                current = {}
            current[rate] = run
        found.append(current)
    return [sweep for sweep in found if len(sweep) >= 2]


def knee_rate(p50_by_rate: dict[float, float | None]) -> float:
    """The lowest rate whose p50 is KNEE_FACTOR × the p50 at the lowest rate; inf when there is none."""
    rates = sorted(rate for rate, value in p50_by_rate.items() if value)
    if not rates:
        return math.inf
    base = p50_by_rate[rates[0]]
    return next((rate for rate in rates[1:] if p50_by_rate[rate] >= KNEE_FACTOR * base), math.inf)  # type: ignore[operator]


def _judge_knee(bounds: tuple[float, float], figure: SeedFigure) -> str:
    low, high = bounds
    if math.isinf(figure.low):  # the seed saw no knee
        return REPRODUCED if math.isinf(high) else NOT_REPRODUCED
    return REPRODUCED if low <= figure.high * TOLERANCE and high >= figure.low / TOLERANCE else NOT_REPRODUCED


def _knee_text(rate: float, top_rate: float) -> str:
    return f"none ≤ {format_rate(top_rate)} msg/s" if math.isinf(rate) else f"{format_rate(rate)} msg/s"


# --------------------------------------------------------------------------------------------------
# Formatting


def format_value(value: float | None, unit: str) -> str:
    if value is None:
        return "—"
    if unit == "×":
        if value < 1:
            return f"{value:.2f}×"
        return f"{value:.1f}×" if value < 100 else f"{value:.0f}×"
    if unit == "ms":
        return f"{format_ms(value)} ms"
    if unit == "msg/s":
        return "none" if math.isinf(value) else f"{format_rate(value)} msg/s"
    return f"{value:g} {unit}"


def measured_text(row: FindingRow) -> str:
    if row.estimate is None:
        return row.knee_shown or "—"
    if row.spec.knee:
        return row.knee_shown
    return format_value(row.estimate.median, row.spec.unit)


def interval_text(row: FindingRow) -> str:
    if row.estimate is None:
        return "—"
    if not row.estimate.has_interval:
        return intervals.TOO_FEW
    low, high = row.estimate.bounds()
    low_text, high_text = format_value(low, row.spec.unit), format_value(high, row.spec.unit)
    unit = "×" if row.spec.unit == "×" else f" {row.spec.unit}"
    return f"{low_text.removesuffix(unit)}–{high_text}"  # 5.4–23.8×, 4.9–20.8 ms


# --------------------------------------------------------------------------------------------------
# Tables


def row_ids(rows: Sequence[FindingRow]) -> list[str]:
    return [f"F{index}" for index in range(1, len(rows) + 1)]


def findings_table(rows: Sequence[FindingRow]) -> Table:
    body = []
    for row_id, row in zip(row_ids(rows), rows):
        body.append((
            f"{row_id} · seed {row.spec.seed}: {row.title}",
            row.system,
            row.broker,
            row.order,
            row.figure.shown if row.figure else "—",
            measured_text(row),
            interval_text(row),
            "—" if row.estimate is None else str(row.estimate.n),
            row.verdict + (" (provisional)" if row.estimate is not None and not row.estimate.has_interval else ""),
        ))
    return Table(
        title="Seed findings",
        header=("Finding", "System", "Broker (tv)", "Order (awaitAcks)", "Seed's figure", "Measured median",
                "95% interval", "n", "Verdict"),
        rows=tuple(body),
        align="lllllrrrl",
        note="n = repetitions (pairs of runs for a ratio); tv = the broker's transaction.version (0: pre-KIP-890). "
             "How each interval was computed, what each row compares, notes and its result files are in the next "
             "table.",
    )


def sources_table(rows: Sequence[FindingRow]) -> Table:
    body = []
    for row_id, row in zip(row_ids(rows), rows):
        values = ""
        if row.estimate is not None and not row.spec.knee:
            values = "; values " + ", ".join(format_value(v, row.spec.unit) for v in row.estimate.values)
        if row.estimate is not None and row.estimate.has_interval:
            values += f"; interval by {row.estimate.method}"
        body.append((
            row_id,
            f"{row.spec.quantity}. Compared: {row.compared}{values}",
            "; ".join(row.notes) or "—",
            ", ".join(row.files) or "—",
        ))
    return Table(
        title="Where each finding's numbers come from",
        header=("#", "What is compared", "Notes", "Result files"),
        rows=tuple(body),
        wrap=True,
    )


def seed_figures_table() -> Table:
    body = []
    for figure in seeds.FIGURES:
        seed = seeds.SEEDS[figure.seed]
        body.append((f"{figure.seed}: {seed.title}", figure.section, figure.system, figure.setup, figure.shown))
    return Table(
        title="The seeds' published figures",
        header=("Seed", "Where in the seed", "System", "Seed's set-up", "Figure"),
        rows=tuple(body),
        wrap=True,
        note="Their figures, on their hardware; the seeds: "
             + "; ".join(f"{s.number} {s.title} ({s.description})" for s in seeds.SEEDS.values()),
    )
