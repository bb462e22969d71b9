"""Systems side by side: the seeds' Kafka-against-Redpanda comparison drawn for whichever systems the results hold
(suites/kafka-vs-tansu.yaml: Kafka and Tansu; suites/kafka-vs-redpanda.yaml: Kafka and Redpanda). Each system is
named from its results' broker.system (systems.told), never from a driver's name. One table puts the seeds'
statistics in a column per system — the tx ÷ base overheads (seed 000, 003), the whole transaction's p50 and p99
(seed 001's medians, seed 003's "whole transaction"), write-to-visible (seed 001's FetchBench) and the bulk insert's
throughput ratio (seed 003) — and one figure each transaction's phases, system beside system (seed 003's "phase:
redpanda vs kafka"). The rest of the report names the same variants (compare.Variants), so its overhead, phase,
percentile and closed-loop figures show the systems side by side too."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from functools import partial

from . import analysis, compare, plots, spread
from .document import Drawing, FileNames, Section, figure
from .formatting import format_count, format_ratio
from .model import Result
from .tables import Table

# The seeds' transactional scenarios, in the order the seeds report them; other transactional workloads follow.
SEED_ORDER = ("tx-writes", "tx-streaming", "tx-send-offsets", "tx-fetch", "bulk-tx")


def section(results: Sequence[Result], palette: plots.Palette, variants: compare.Variants, files: FileNames,
            reps: spread.Repetitions = spread.SINGLE) -> Section:
    """The side-by-side section of ``results`` (one run per repetition group); empty (left out of the report) unless
    they hold runs on more than one system."""
    columns = sorted({variants.key(r) for r in results}) if variants.many_systems else []
    drivers = sorted({r.driver for r in results})
    # One driver on every system (suites/kafka-vs-tansu.yaml): the systems alone name the columns.
    names = {column: column.rsplit(" · ", 1)[0] if len(drivers) == 1 else column for column in columns}
    title = "Systems side by side" + (": " + " vs ".join(names.values()) + (
        f" (driver {drivers[0]})" if len(drivers) == 1 else "") if columns else "")
    section = Section(
        title,
        "The seeds compare Kafka against Redpanda statistic by statistic; here the same statistics for each system "
        "in these results, named from what its cluster answered (broker.system). Ratios are tx ÷ base of the same "
        "system and driver (the runs of a pair interleaved, a ratio per repetition index); latencies are each "
        "run's own percentiles. The overhead, phase, latency-percentile and closed-loop sections below name the "
        "same variants, system beside system. " + spread.CONVENTION,
    )
    if not columns:
        return section
    rows = _overhead_rows(results, variants, reps) + _latency_rows(results, variants, reps) \
        + _bulk_rows(results, variants, reps)
    if rows:
        section.blocks.append(_table(columns, names, rows, any(reps.count(r) > 1 for r in results)))
    phases = _phase_figure(results, palette, variants, files, reps)
    if phases is not None:
        section.blocks.append(phases)
    return section


# One row: the statistic's name, then per column a Spread (or None), and how to format it.
_Row = tuple[str, dict[str, spread.Spread | None], Callable[[spread.Spread | None], str], bool]


def _overhead_rows(results: Sequence[Result], variants: compare.Variants,
                   reps: spread.Repetitions) -> list[_Row]:
    cells: dict[str, dict[str, spread.Spread | None]] = {}
    for pair in analysis.overheads(results):
        name = f"{pair.label}: tx ÷ base, p50"
        cells.setdefault(name, {})[variants.key(pair.tx)] = spread.ratio_spread(
            reps.of(pair.tx), reps.of(pair.base), analysis.operation_p50_ms)
    return [(name, found, _ratio_spread, False) for name, found in cells.items()]


def _bulk_rows(results: Sequence[Result], variants: compare.Variants,
               reps: spread.Repetitions) -> list[_Row]:
    cells: dict[str, spread.Spread | None] = {}
    for pair in compare.bulk_pairs(results, variants):
        if pair.tx is not None and pair.acks_all is not None:
            cells[variants.key(pair.tx)] = spread.ratio_spread(reps.of(pair.tx), reps.of(pair.acks_all),
                                                               compare.BulkPair.rate)
    if not cells:
        return []
    return [("bulk insert: bulk-tx ÷ bulk-acks-all, msg/s", cells, _ratio_spread, False)]


def _latency_rows(results: Sequence[Result], variants: compare.Variants,
                  reps: spread.Repetitions) -> list[_Row]:
    """Per transactional closed-loop workload, the whole transaction's p50 and p99 (tx-fetch: write-to-visible)."""
    groups = {w: g for w, g in analysis.closed_loop_groups(results).items()
              if any(analysis.is_transactional(r) for r in g)}
    ordered = [w for w in SEED_ORDER if w in groups] + sorted(w for w in groups if w not in SEED_ORDER)
    rows: list[_Row] = []
    for workload in ordered:
        fetch = compare.is_fetch(groups[workload][0])
        metric = analysis.END_TO_END if fetch else analysis.OPERATION
        what = "write-to-visible" if fetch else "transaction"
        for percentile in (50.0, 99.0):
            cells = {
                variants.key(r): spread.spread(
                    reps.of(r), lambda run, p=percentile, m=metric: analysis.percentile_value_ms(run, m, p))
                for r in groups[workload]
            }
            rows.append((f"{workload}: {what} p{percentile:g}", cells, spread.ms_spread, True))
    return rows


def _table(columns: Sequence[str], names: Mapping[str, str], rows: Sequence[_Row], repeated: bool) -> Table:
    two = len(columns) == 2
    header = ("Statistic", *(names[c] for c in columns)) + (
        (f"{_system_of(columns[1])} ÷ {_system_of(columns[0])}",) if two else ())
    body = []
    for name, cells, fmt, latency in rows:
        row = [name] + [fmt(cells.get(column)) for column in columns]
        if two:
            first, second = cells.get(columns[0]), cells.get(columns[1])
            row.append(_ratio(second.median / first.median)
                       if latency and first is not None and second is not None and first.median else "")
        body.append(tuple(row))
    note = ("ratios: tx ÷ base of one system (bulk: msg/s of bulk-tx ÷ bulk-acks-all); latencies in ms, each run's "
            "own percentiles (operationLatency; tx-fetch: end-to-end, from the send to a read_committed consumer "
            "returning it)")
    if two:
        note += f"; the last column divides the medians of a latency, {_system_of(columns[1])} over " \
                f"{_system_of(columns[0])}"
    if repeated:
        note += "; a repeated run's cells: median over its repetitions [min–max] n = repetitions"
    return Table(title="The seeds' statistics, system by system", header=header, rows=tuple(body),
                 align="l" + "r" * (len(header) - 1), note=note)


def _ratio(value: float) -> str:
    """A ratio as the overhead table writes it ("16.3×"), with two significant digits below 1 ("0.084×")."""
    return format_ratio(value) if value >= 1 else f"{value:.2g}×"


def _ratio_spread(found: spread.Spread | None) -> str:
    return spread.format_spread(found, _ratio)


def _system_of(column: str) -> str:
    """The system of a column ("Tansu 0.6.0 · kafka-tx" -> "Tansu")."""
    return column.split(" ", 1)[0]


def _phase_figure(results: Sequence[Result], palette: plots.Palette, variants: compare.Variants, names: FileNames,
                  reps: spread.Repetitions):
    """Each transactional workload's phases, one panel per workload, one bar per system (seed 003's form)."""
    chosen = [r for r in compare.newest_variants(results)
              if analysis.is_transactional(r) and analysis.has_phase_breakdown(r)
              and not analysis.is_rate_sweep_point(r)]
    by_workload: dict[str, list[Result]] = {}
    for result in sorted(chosen, key=variants.key):
        by_workload.setdefault(result.workload, []).append(result)
    ordered = [w for w in SEED_ORDER if w in by_workload] + sorted(w for w in by_workload if w not in SEED_ORDER)
    panels = [
        (workload, [plots.PhaseBar(reps.label(variants.label(r), r), palette(variants.key(r)), r,
                                   analysis.charted_phases(r), "//" if r.is_partial else None, tuple(reps.of(r)))
                    for r in by_workload[workload]])
        for workload in ordered
        if len({variants.key(r) for r in by_workload[workload]}) > 1
    ]
    if not panels:
        return None
    runs = [run for _, bars in panels for bar in bars for run in reps.of(bar.result)]
    drawing = Drawing(names("systems-phases"), partial(
        plots.phase_comparison_figure, "Transaction phases, system beside system", panels))
    counts = ", ".join(f"{w}: {format_count(_operations(bars))}" for w, bars in panels)
    return figure(
        "Transaction phases, system beside system",
        "One panel per transactional workload, one bar per system: the phase's median (p50), the whisker to its "
        "p99 (transactionPhases), log scale, every panel on the same scale; \"transaction\" is the whole of it, as "
        f"in seed 003's figures. Operations per bar: {counts}."
        + (" A run repeated n > 1 times: the bar is the median of its repetitions' p50s, the whisker the median of "
           "their p99s, and a dot marks each repetition's p50." if any(reps.count(r) > 1 for r in runs) else ""),
        runs, drawing)


def _operations(bars: Sequence[plots.PhaseBar]) -> float:
    counts = [bar.result.operation_latency.count for bar in bars if bar.result.operation_latency]
    return max(counts) if counts else 0

