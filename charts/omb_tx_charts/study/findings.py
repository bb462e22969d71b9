"""Every seed finding against the results: rows computed from the catalogue (``catalogue.SPECS``) and the seeds'
figures (``seeds.FIGURES``), judged by ``judge``; the tables the report prints are in ``finding_tables``.

A row is one seed figure against the runs of one set-up (``setup.Setup``: system read back, releases, brokers,
replication, durability, back-off, operations): the set-up is printed beside the verdict with the seed's, and
differences are marked. Runs whose load generator fell behind (``harness``) are not judged. Ratios are taken per
repetition: the runs of an interleaved comparison (one ``repetition.group``) are paired by repetition index, other
runs by start time; the median and the interval are then over those per-repetition values.
"""

from __future__ import annotations

import math
import statistics
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace

from .. import analysis, harness, intervals
from ..formatting import format_count, format_ms, format_rate
from ..intervals import Estimate
from ..model import Result
from . import seeds, setup
from .catalogue import DIFFERENCE, KNEE_FACTOR, SPECS, FindingSpec, Side
from .judge import (
    HARNESS_BEHIND,
    NOT_APPLICABLE,
    NOT_MEASURED,
    NOT_REPRODUCED,
    REPRODUCED,
    REVERSED,
    RULE,
    UNINFORMATIVE,
    VERDICTS,
    judge,
    judge_knee,
    uninformative,
)
from .seeds import SeedFigure
from .setup import Setup

__all__ = ["FindingRow", "findings", "format_value", "RULE",
           "REPRODUCED", "NOT_REPRODUCED", "REVERSED", "UNINFORMATIVE", "NOT_APPLICABLE", "HARNESS_BEHIND",
           "NOT_MEASURED", "VERDICTS"]


@dataclass(frozen=True)
class FindingRow:
    spec: FindingSpec
    figure: SeedFigure | None
    system: str  # the system of the results ("—" when not measured)
    setup: Setup | None  # the runs' set-up (the numerator's), None when not measured
    order: str  # the tx side's awaitAcks, "—" when it does not apply
    compared: str  # which workloads, e.g. "tx-writes ÷ base-writes"
    estimate: Estimate | None  # None when not measured or not judged
    verdict: str
    files: tuple[str, ...]
    notes: tuple[str, ...]
    differences: tuple[str, ...] = ()  # every set-up field that differs from the seed's, "brokers 1 ≠ 3"
    depends: tuple[str, ...] = ()  # those the finding depends on
    harness: tuple[str, ...] = ()  # runs left out because their load generator fell behind: "file: why"
    measured_also: str = ""  # min, max, total beside the median (seed 001)
    knee_shown: str = ""  # the knee's measured value in words ("25K msg/s", "none ≤ 5K msg/s")
    scenario: str = ""  # the workload measured (the numerator's), "" when not measured

    @property
    def title(self) -> str:
        """The finding, with the workload when the finding covers several (back-off: tx-writes, tx-streaming)."""
        workloads = {pair[0].workload.removesuffix("-ack-first") for pair in self.spec.comparisons}
        title = self.spec.title
        if self.figure is not None and self.figure.key.count("/") == 2:
            title += " (single node)" if self.figure.key.endswith("/1") else " (3 nodes)"
        return f"{title}: {self.scenario}" if len(workloads) > 1 and self.scenario else title

    @property
    def provisional(self) -> bool:
        return self.estimate is not None and not self.estimate.has_interval and self.verdict in (
            REPRODUCED, NOT_REPRODUCED, REVERSED)

    @property
    def setup_differs(self) -> bool:
        return bool(self.depends) and self.verdict in (REPRODUCED, NOT_REPRODUCED, REVERSED, UNINFORMATIVE)

    @property
    def verdict_text(self) -> str:
        text = self.verdict
        if self.provisional:
            text += " (provisional)"
        if self.setup_differs:
            text += " · set-up differs"
        return text


def _usable(result: Result) -> bool:
    return result.is_omb_tx and not result.is_failed and not result.is_partial


def order_label(result: Result) -> str:
    await_acks = result.scenario.get("awaitAcks")
    return await_acks if isinstance(await_acks, str) else "—"


def _pair_key(run: Setup, spec: FindingSpec) -> Setup:
    """What both sides of a comparison share: the set-up but for what the finding varies by design and the
    operation count. The back-off matters to transactional runs only: a naive side is taken with any."""
    cleared = {name: None for name in ("operations", "backoff_ms", *spec.varies)}
    return replace(run, system_source="", **cleared)


# --------------------------------------------------------------------------------------------------
# Measurements: one per set-up of the numerator's runs


@dataclass(frozen=True)
class _Measured:
    setup: Setup
    numerator: Side
    compared: str
    values: tuple[float, ...]
    used: tuple[Result, ...]
    behind: tuple[str, ...]
    notes: tuple[str, ...]
    also: str


def _measure(spec: FindingSpec, results: Sequence[Result]) -> list[_Measured]:
    measured = []
    for numerator, denominator in spec.comparisons:
        by_setup: dict[Setup, list[Result]] = defaultdict(list)
        for result in results:
            if numerator.accepts(result, setup.backoff_ms(result)):
                by_setup[setup.of(result)].append(result)
        for run_setup, tops in sorted(by_setup.items(), key=lambda item: _setup_order(item[0])):
            behind = [f"{r.path.name}: {'; '.join(harness.problems(r))}" for r in tops if harness.fell_behind(r)]
            tops = [r for r in tops if not harness.fell_behind(r) and spec.statistic.of(r) is not None]
            notes: list[str] = []
            if denominator is None:
                values = [spec.statistic.of(r) for r in tops]
                used = tops
                compared = numerator.describe()
            else:
                candidates = [r for r in results if denominator.accepts(r, setup.backoff_ms(r))
                              and _pair_key(setup.of(r), spec) == _pair_key(run_setup, spec)]
                behind += [f"{r.path.name}: {'; '.join(harness.problems(r))}" for r in candidates
                           if harness.fell_behind(r)]
                bottoms = [r for r in candidates if not harness.fell_behind(r) and spec.statistic.of(r) is not None]
                pairs = pair_runs(tops, bottoms)
                values = [_combine(spec, top, bottom) for top, bottom in pairs]
                used = [r for pair in pairs for r in pair]
                compared = f"{numerator.describe()} ÷ {denominator.describe()}"
                if spec.combine == DIFFERENCE:
                    compared = f"{numerator.describe()} − {denominator.describe()}"
                if pairs and len(pairs) < max(len(tops), len(bottoms)):
                    notes.append(f"{len(tops)} vs {len(bottoms)} runs: {len(pairs)} pair(s)")
                if pairs:
                    notes += _pair_notes(spec, pairs)
                if not pairs and not behind:
                    continue  # nothing to compare with
            measured.append(_Measured(run_setup, numerator, compared, tuple(v for v in values if v is not None),
                                      tuple(used), tuple(behind), tuple(notes), _also(spec, used)))
    return measured


def _setup_order(run: Setup) -> tuple:
    return (run.system or "", _version_key(run.release or ""), run.brokers or 0, run.backoff_ms or 0,
            run.operations or 0, run.client or "")


def _version_key(label: str) -> tuple[int, ...]:
    return tuple(int(part) if part.isdigit() else -1 for part in label.split(" ")[0].split("."))


def _combine(spec: FindingSpec, top: Result, bottom: Result) -> float | None:
    a, b = spec.statistic.of(top), spec.statistic.of(bottom)
    if a is None or b is None:
        return None
    if spec.combine == DIFFERENCE:
        return 100 * (a - b)
    return a / b if b else None


def _pair_notes(spec: FindingSpec, pairs: Sequence[tuple[Result, Result]]) -> list[str]:
    tops, bottoms = [p[0] for p in pairs], [p[1] for p in pairs]
    if spec.combine == DIFFERENCE:
        shares = [statistics.median(v for r in side if (v := spec.statistic.of(r)) is not None) for side in
                  (tops, bottoms)]
        return [f"share past {_threshold(spec)}: {shares[0]:.0%} with the default back-off vs {shares[1]:.0%} "
                "with 0"]
    if spec.key == "003-backoff":
        totals = [statistics.median(r.operation_latency.total_millis for r in side  # type: ignore[union-attr]
                                    if r.operation_latency and r.operation_latency.total_millis)
                  for side in (tops, bottoms)]
        means = [statistics.median(r.operation_latency.get("avg") for r in side  # type: ignore[union-attr, misc]
                                   if r.operation_latency and r.operation_latency.get("avg")) for side in
                 (tops, bottoms)]
        p50s = [statistics.median(r.operation_latency.get("p50") for r in side  # type: ignore[union-attr, misc]
                                  if r.operation_latency and r.operation_latency.get("p50")) for side in
                (tops, bottoms)]
        return [f"mean {format_ms(means[0])} vs {format_ms(means[1])} ms; total time {totals[0]:,.0f} vs "
                f"{totals[1]:,.0f} ms ({totals[0] / totals[1]:.2f}×); p50 {format_ms(p50s[0])} vs "
                f"{format_ms(p50s[1])} ms"]
    return []


def _threshold(spec: FindingSpec) -> str:
    return "100 ms"


def _also(spec: FindingSpec, used: Sequence[Result]) -> str:
    """Seed 001 prints min, max and total beside the median: the same for the runs here."""
    if not spec.key.startswith("001-") or not used or spec.key == "001-fetch":
        return ""
    summaries = [r.operation_latency for r in used if r.operation_latency]
    if not summaries:
        return ""

    def median(key: str) -> float | None:
        values = [s.get(key) for s in summaries if s.get(key) is not None]
        return statistics.median(values) if values else None  # type: ignore[type-var]

    totals = [s.total_millis for s in summaries if s.total_millis is not None]
    counts = [s.count for s in summaries if s.count]
    text = f"here: min {format_ms(median('min'))} ms, max {format_ms(median('max'))} ms"
    if totals and counts:
        total, count = statistics.median(totals), statistics.median(counts)
        text += f", {count:,.0f} txes in {total:,.0f} ms (mean {total / count:.3g} ms)"
    return text


# --------------------------------------------------------------------------------------------------
# Rows


def findings(results: Iterable[Result]) -> list[FindingRow]:
    usable = [r for r in results if _usable(r)]
    rows: list[FindingRow] = []
    for spec in SPECS:
        figures = seeds.figures_of(spec.key)
        if spec.knee:
            rows += _knee_rows(spec, figures, usable)
            continue
        measured = _measure(spec, usable)
        if spec.cross_system:
            rows += _cross_system_rows(spec, figures, measured)
            continue
        figure_systems = {f.system for f in figures}
        found: list[FindingRow] = []
        for figure in figures:
            for measurement in measured:
                if measurement.setup.system == figure.system:
                    found.append(_judged_row(spec, figure, measurement))
        for measurement in measured:
            if measurement.setup.system not in figure_systems:
                found += [_not_applicable(spec, figure, measurement) for figure in figures]
        covered = {row.figure.key for row in found if row.figure is not None}
        found += [_not_measured(spec, f) for f in figures if f.key not in covered]
        order = {f.key: i for i, f in enumerate(figures)}
        rows += sorted(found, key=lambda row: order[row.figure.key] if row.figure else 0)
    return rows


def _setup_fields(spec: FindingSpec, figure: SeedFigure, run: Setup) -> tuple[tuple[str, ...], tuple[str, ...]]:
    found = setup.differences(run, figure.seed_setup)
    return tuple(found.values()), tuple(text for name, text in found.items() if name in spec.depends_on)


def _judged_row(spec: FindingSpec, figure: SeedFigure, measured: _Measured) -> FindingRow:
    differences, depends = _setup_fields(spec, figure, measured.setup)
    notes = list(measured.notes)
    tops = [r for r in measured.used if measured.numerator.accepts(r, setup.backoff_ms(r))]
    order = order_label(tops[0]) if tops else "—"
    if not measured.values:
        return FindingRow(spec, figure, measured.setup.system or "?", measured.setup, order, measured.compared, None,
                          HARNESS_BEHIND, (), tuple(notes), differences, depends, measured.behind,
                          scenario=measured.numerator.workload)
    estimate = (intervals.estimate(measured.values) if spec.combine != DIFFERENCE
                else intervals.estimate_signed(measured.values))
    verdict = judge(estimate.bounds(), figure, spec.reference)
    if not estimate.has_interval:
        notes.append(f"n = {estimate.n}: no interval, verdict provisional")
    if verdict == NOT_REPRODUCED and spec.reference is not None and figure.low >= spec.reference:
        low, _ = estimate.bounds()
        if low > spec.reference:
            notes.append("direction holds, size differs")
    if verdict == UNINFORMATIVE:
        notes.append("cannot fail: " + uninformative(figure, spec.reference))
    if measured.behind:
        notes.append(f"{len(measured.behind)} run(s) left out: harness behind")
    if spec.key == "003-begin":
        notes.append(_phase_breakdown(tops))
    if spec.key == "002-ordering":
        notes.append("each profile here runs on a fresh cluster; the seed ran them one after another on one")
    if measured.setup.system_source.startswith("the driver's name"):
        notes.append("system from the driver's name: the results do not record broker.system")
    return FindingRow(spec, figure, measured.setup.system or "?", measured.setup, order, measured.compared, estimate,
                      verdict, tuple(sorted(r.path.name for r in measured.used)), tuple(notes), differences, depends,
                      measured.behind, measured.also, scenario=measured.numerator.workload)


def _phase_breakdown(runs: Sequence[Result]) -> str:
    """Seed 003's question, which phase the transaction's time goes to: each phase's p50 (median over the runs)."""
    phases = [p for p in ("begin", "send", "resolve", "sendOffsets", "commit")
              if any(p in r.transaction_phases for r in runs)]
    p50s = {p: statistics.median(r.transaction_phases[p].get("p50") or 0.0 for r in runs if p in r.transaction_phases)
            for p in phases}
    if not p50s:
        return "no phases recorded"
    largest = max(p50s, key=lambda p: p50s[p])
    return ("phase p50s: " + ", ".join(f"{p} {format_ms(v)} ms" for p, v in p50s.items())
            + f"; the largest: {largest}")


def _not_applicable(spec: FindingSpec, figure: SeedFigure, measured: _Measured) -> FindingRow:
    shown = ""
    if measured.values:
        shown = f"; measured on {measured.setup.system}: {format_value(statistics.median(measured.values), spec.unit)}"
    note = (f"the seed's claim is about {figure.system}, these results are {measured.setup.system}: not judged "
            f"until {figure.system} results are in the inputs{shown}")
    return FindingRow(spec, figure, measured.setup.system or "?", measured.setup, "—", measured.compared, None,
                      NOT_APPLICABLE, tuple(sorted(r.path.name for r in measured.used)), (note,),
                      harness=measured.behind, scenario=measured.numerator.workload)


def _not_measured(spec: FindingSpec, figure: SeedFigure) -> FindingRow:
    wanted = " or ".join(dict.fromkeys(side.describe() for pair in spec.comparisons for side in pair if side))
    return FindingRow(spec, figure, figure.system, None, "—", "—", None, NOT_MEASURED, (),
                      (f"no complete {figure.system} result of {wanted or 'an rps-sweep'} in the inputs",))


def _cross_system_rows(spec: FindingSpec, figures: Sequence[SeedFigure],
                       measured: Sequence[_Measured]) -> list[FindingRow]:
    """A claim comparing two systems (Kafka ÷ Redpanda): judged only when both are in the inputs."""
    rows = []
    for figure in figures:
        by_system: dict[str, list[_Measured]] = defaultdict(list)
        for m in measured:
            if m.values:
                by_system[m.setup.system or "?"].append(m)
        if "Kafka" in by_system and figure.system in by_system:
            kafka, other = by_system["Kafka"][0], by_system[figure.system][0]
            value = statistics.median(kafka.values) / statistics.median(other.values)
            estimate = Estimate((value,), value, None, None, intervals.TOO_FEW)
            rows.append(FindingRow(spec, figure, f"Kafka ÷ {figure.system}", kafka.setup, "—",
                                   f"{kafka.compared} (Kafka) ÷ (Redpanda)", estimate,
                                   judge(estimate.bounds(), figure, spec.reference),
                                   tuple(sorted(r.path.name for r in kafka.used + other.used)),
                                   ("medians of each system's runs; no interval across systems",)))
        else:
            have = ", ".join(sorted(by_system)) or "none"
            rows.append(FindingRow(spec, figure, figure.system, None, "—", "—", None, NOT_MEASURED, (),
                                   (f"needs Kafka and {figure.system} results side by side; systems in the inputs: "
                                    f"{have}",)))
    return rows


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

    def in_time(r: Result) -> tuple[str, str]:
        return r.start_time or "", r.path.name

    pairs += zip(sorted(left_tops, key=in_time), sorted(left_bottoms, key=in_time))
    return pairs


# --------------------------------------------------------------------------------------------------
# Seed 004's knee


def _knee_rows(spec: FindingSpec, figures: Sequence[SeedFigure], results: Sequence[Result]) -> list[FindingRow]:
    points: dict[Setup, list[Result]] = defaultdict(list)
    for r in results:
        if analysis.is_rate_sweep_point(r) and r.sweep is not None and r.sweep.name.startswith("rps-sweep"):
            points[replace(setup.of(r), operations=None)].append(r)
    rows = []
    by_system = {f.system: f for f in figures}
    for run_setup, runs in sorted(points.items(), key=lambda item: _setup_order(item[0])):
        figure = by_system.get(run_setup.system or "")
        if figure is None:
            continue
        behind = tuple(f"{r.path.name} ({format_rate(float(r.sweep.value))} msg/s): "  # type: ignore[union-attr, arg-type]
                       f"{'; '.join(harness.problems(r))}" for r in runs if harness.fell_behind(r))
        kept = [r for r in runs if not harness.fell_behind(r)]
        repetitions = sweep_repetitions(kept)
        needed = figure.low if not math.isinf(figure.low) else max(seeds.SWEEP_P50_MS.get(figure.system, {0: 0}))
        knees, tops, files, curves, short, short_top = [], [], [], [], 0, 0.0
        for by_rate in repetitions:
            curve = {rate: spec.statistic.of(r) for rate, r in sorted(by_rate.items())}
            files += [r.path.name for r in by_rate.values()]
            curves.append(", ".join(f"{format_rate(rate)} {format_value(p50, 'ms')}" for rate, p50 in curve.items()))
            knee, top = knee_rate(curve), max(by_rate)
            if math.isinf(knee) and top < needed:
                short += 1
                short_top = max(short_top, top)
                continue
            knees.append(knee)
            tops.append(top)
        notes = ["end-to-end p50 by target rate: " + "; ".join(curves)] if curves else []
        if behind:
            notes.append(f"{len(behind)} point(s) left out: harness behind")
        if short:
            notes.append(f"{short} sweep(s) stop below {format_rate(needed)} msg/s without a knee: left out")
        differences, depends = _setup_fields(spec, figure, run_setup)
        if not knees:
            estimate = None
            verdict = HARNESS_BEHIND if behind and not short else NOT_MEASURED
            shown = f"none ≤ {format_rate(short_top)} msg/s" if short else "—"
        else:
            ordered = tuple(sorted(knees))
            median = statistics.median(ordered) if len(ordered) % 2 or not any(map(math.isinf, ordered)) \
                else ordered[len(ordered) // 2]
            low, high = (ordered[0], ordered[-1]) if len(ordered) >= 3 else (None, None)
            method = "range of repetitions" if low is not None else intervals.TOO_FEW
            estimate = Estimate(ordered, median, low, high, method)
            verdict = judge_knee(estimate.bounds(), figure)
            shown = _knee_text(median, min(tops))
            if estimate.low is None:
                notes.append(f"n = {estimate.n}: no interval, verdict provisional")
        rows.append(FindingRow(spec, figure, run_setup.system or "?", run_setup, "—",
                               "rps-sweep end-to-end p50 per rate", estimate, verdict, tuple(sorted(files)),
                               tuple(notes), differences, depends, behind, knee_shown=shown))
    covered = {row.figure.key for row in rows if row.figure is not None}
    rows += [_not_measured(spec, f) for f in figures if f.key not in covered]
    return rows


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


def _knee_text(rate: float, top_rate: float) -> str:
    return f"none ≤ {format_rate(top_rate)} msg/s" if math.isinf(rate) else f"{format_rate(rate)} msg/s"


# --------------------------------------------------------------------------------------------------
# Values in words


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
        return "none" if math.isinf(value) else f"{format_count(value)} msg/s" if value < 1000 or value % 1000 \
            else f"{format_rate(value)} msg/s"
    if unit == "pp":
        return f"{value:+.0f} pp"
    if unit == "share":
        return f"{value:.1%}"
    return f"{value:g} {unit}"
