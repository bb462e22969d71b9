"""The report model: loaded results turned, once, into sections of tables, paragraphs and figures
(``compute_report``; the parts are in document.py). A figure holds what it shows — its data bound to the plots
function that draws it — and is drawn to a PNG only by ``render``; writers.py writes report.md and index.html from
the rendered model. The seed study (study/) adds its one section, at one place in ``compute_report``."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from functools import partial
from pathlib import Path

from . import (
    analysis,
    capacity,
    compare,
    conformance,
    exactly_once,
    harness,
    plots,
    repetitions,
    side_by_side,
    spread,
    tables,
)
from .document import Block, Drawing, Figure, FileNames, Paragraph, Report, Section, figure
from .formatting import format_rate
from .model import Result
from .study.section import seed_study

__all__ = ["Block", "Drawing", "Figure", "Paragraph", "Report", "Section", "build_report", "compute_report", "render"]


def build_report(results: Sequence[Result], out_dir: Path, warnings: Sequence[str] = (),
                 findings: bool | None = None) -> Report:
    """The report of ``results``, its figures drawn into ``out_dir``; ``findings`` as in ``compute_report``."""
    return render(compute_report(results, warnings, findings), out_dir)


def render(report: Report, out_dir: Path) -> Report:
    """``report`` with each figure drawn once, as a PNG in ``out_dir``; nothing else is computed here."""
    out_dir.mkdir(parents=True, exist_ok=True)

    def drawn(block: Block) -> Block:
        if isinstance(block, Figure):
            return replace(block, rendered=block.drawing.draw(path=out_dir / block.drawing.file))
        return block

    def section_drawn(section: Section) -> Section:
        return Section(section.title, section.intro, [drawn(b) for b in section.blocks],
                       [section_drawn(s) for s in section.subsections])

    return replace(report, sections=tuple(section_drawn(s) for s in report.sections))


def compute_report(results: Sequence[Result], warnings: Sequence[str] = (), findings: bool | None = None) -> Report:
    """The report model of ``results``: every table, paragraph and figure's data; no file is written.

    ``findings``: whether to add the seed study's section (study/): True or False as the reader chose, None (the
    default) to add it only when the results hold one of the seeds' comparisons (``study.section.seed_study``)."""
    superseded = repetitions.superseded(results)
    variants = compare.Variants(results)
    palette = plots.Palette(variants.keys(results) + sorted({r.driver for r in results}))
    names = FileNames()
    current = [r for r in results if all(r is not s for s in superseded)]
    reps = spread.Repetitions(current)
    charted = reps.representatives(current)  # one run per repetition group: its median repetition
    runs = Section(
        "Runs",
        "The runs in these results, one row each (a run repeated n times is one row, its numbers the medians over "
        "its repetitions); their latency charts follow, then the comparisons between them. Every file read, "
        "superseded runs included, is listed under Inputs near the end.",
        [tables.runs_table(charted, variants.label, reps)],
    )
    inputs = Section(
        "Inputs",
        "Each result file read. Runs sharing a repetition group (repetition.group: --repeat, a suite's repeat "
        "or interleave) are repetitions: the figures and tables show them as a spread (median, min–max, n) and the "
        "seed study's findings use them all. Where a workload and driver were run more "
        "than once otherwise, the newest run (by startTime) is charted and the older ones outside its "
        "repetition group are listed as superseded.",
        [tables.inputs_table(results, superseded)],
    )
    # The reader's own runs first: their table, then their charts; then the comparisons between them, sweeps,
    # capacity, time series and the files read; the seed study, when shown, last.
    sections = [
        runs,
        _percentiles_section(charted, palette, variants, names, reps),
        _conformance_section(results),
        _exactly_once_section(results),
        side_by_side.section(charted, palette, variants, names, reps),
        _overhead_section(charted, palette, variants, names, reps),
        _phases_section(charted, palette, variants, names, reps),
        _closed_loop_section(charted, variants, reps),
        _bulk_section(charted, variants, names, reps),
        _sweep_section(charted, palette, names, reps),
        _capacity_section(charted, names),
        _acks_section(charted, names, reps),
        _time_series_section(results, variants, names),
        inputs,
    ]
    # The one place the seed study (study/) enters the report: its section, last, or a line saying it was left out.
    study = seed_study(results, current, charted, palette, names, findings)
    if study.section is not None:
        sections.append(study.section)
    # A section with nothing in it (time series of runs too short to show a trend) is left out, not printed empty.
    return Report(tuple(s for s in sections if s.blocks), tuple(warnings), (study.note,) if study.note else ())


def _harness_note(results: Sequence[Result]) -> str:
    behind = [r for r in results if harness.fell_behind(r)]
    if not behind:
        return ""
    return (f" ⚠ {len(behind)} run(s) here had a load generator that fell behind (harness check; the seed study "
            "does not judge them): " + "; ".join(f"{r.path.name}{harness.flag(r)}" for r in behind) + ".")


def _conformance_section(results: Sequence[Result]) -> Section:
    """The guarantees judged, by broker (suites/broker-conformance.yaml); empty (left out) when no run judged one."""
    section = Section(
        "Broker conformance",
        "The transactional guarantees a Kafka-API broker promises, each judged by a run of its own (the workload's "
        "conformance): one row per guarantee, one column per broker as the cluster named itself on the wire.",
    )
    judged = conformance.table(results)
    if judged is not None:
        section.blocks.append(judged)
        broken = conformance.violations_table(results)
        section.blocks.append(broken if broken is not None else Paragraph("Every guarantee judged held."))
    return section


def _exactly_once_section(results: Sequence[Result]) -> Section:
    """Each checked run's verdicts (suites/eos-matrix.yaml); empty (left out) when no run was checked."""
    section = Section(
        "Exactly-once",
        "Runs of a stream processor checked for exactly-once delivery: after the run (the committed output holds "
        "each processed source record once) and, with operation.liveCheck, during it, by a read_committed consumer "
        "that flags violations as it reads them. The faults' cost in the same run stands beside each verdict.",
    )
    if exactly_once.checked(results):
        section.blocks.append(exactly_once.verdict_table(results))
        violations = exactly_once.violations_table(results)
        section.blocks.append(violations if violations is not None
                              else Paragraph("No live check saw a violation."))
    return section


def _closed_loop_section(results: Sequence[Result], variants: compare.Variants,
                         reps: spread.Repetitions = spread.SINGLE) -> Section:
    section = Section(
        "Closed-loop scenarios (seed 001 form)",
        "One operation after another in isolation (the seeds' method for protocol cost). "
        "The second column is the sum of all operation latencies (operationLatency.totalMillis); "
        "min, median and max are per operation. " + spread.CONVENTION,
    )
    groups = analysis.closed_loop_groups(results)
    section.blocks += [tables.closed_loop_table(workload, group, variants.label, reps)
                       for workload, group in groups.items()]
    if not groups:
        section.blocks.append(Paragraph("No closed-loop results with an operation latency summary in the inputs."))
    fetched = compare.fetch_results(compare.newest_variants(results))
    if fetched:
        section.blocks.append(tables.fetch_table(fetched, variants.label, reps))
    return section


def _overhead_section(results: Sequence[Result], palette: plots.Palette, variants: compare.Variants,
                      names: FileNames, reps: spread.Repetitions = spread.SINGLE) -> Section:
    section = Section(
        "Overhead of transactions: tx ÷ base",
        "tx-writes is paired with base-writes and tx-streaming with base-streaming, per driver and with the "
        "same name suffix (e.g. -quick). p50 is the median operation latency; total is the sum of operation "
        "latencies over the measured N (compared per operation when N differs). " + spread.CONVENTION,
    )
    pairs = analysis.overheads(results)
    if not pairs:
        section.blocks.append(Paragraph("No tx/base pairs (tx-writes + base-writes, tx-streaming + base-streaming)."))
        return section
    section.blocks.append(tables.overhead_table(pairs, variants.label if variants.qualified else None, reps))
    involved = [r for pair in pairs for side in (pair.base, pair.tx) for r in reps.of(side)]

    def ratios(pair: analysis.Overhead, which: str) -> spread.Spread | None:
        value = analysis.operation_p50_ms if which == "p50" else tables.total_per_operation
        return spread.ratio_spread(reps.of(pair.tx), reps.of(pair.base), value)

    drawing = Drawing(names("overhead-ratios"),
                       partial(plots.overhead_figure, pairs, palette, key=variants.key, ratios=ratios))
    section.blocks.append(
        figure("Transactional overhead ratios", "Bars: tx ÷ base for each driver; dashed line: no overhead (1×)."
                + _if_repeated(" Repeated runs: the bar is the median of the ratios of tx and base runs of the same "
                               "repetition index, the whisker their min–max, and n the number of ratios.",
                               involved, reps),
                involved, drawing)
    )
    families = list(dict.fromkeys(pair.label for pair in pairs))
    for family in families:
        chosen = [pair for pair in pairs if pair.label == family]
        panels = []
        for pair in chosen:
            lines = []
            for result, style in ((pair.base, "--"), (pair.tx, "-")):
                curve = analysis.latency_curve(result, analysis.OPERATION)
                if curve is not None:
                    lines.append(plots.CurveLine(
                        reps.label(result.workload + (" [PARTIAL]" if result.is_partial else ""), result),
                        palette(variants.key(result)), curve, style, _band(result, analysis.OPERATION, reps)))
            if lines:
                panels.append((variants.key(pair.tx), lines))
        if not panels:
            continue
        runs = [r for pair in chosen for side in (pair.base, pair.tx) for r in reps.of(side)]
        drawing = Drawing(names("overhead-curves", family), partial(
            plots.percentile_figure, f"{family}: transactional vs base operation latency", panels, share_y=True))
        section.blocks.append(
            figure(f"{family}: tx vs base latency distribution",
                    f"Operation latency by percentile, base (dashed) and transactional (solid); {_sources(runs)}. "
                    + _MAX_NOTE + _if_repeated(_BAND_NOTE, runs, reps),
                    runs, drawing)
        )
    return section


def _sources(results: Sequence[Result], metric: analysis.Metric = analysis.OPERATION) -> str:
    found = {c.source for r in results if (c := analysis.latency_curve(r, metric)) is not None}
    return "points from " + (" and ".join(sorted(found)) if found else "no data")


_MAX_NOTE = "Each curve ends at its slowest sample (▲), drawn at 1/(1-p) = N, the run's sample count."
_BAND_NOTE = (" A variant run n > 1 times (label \"n = N\") is drawn as its median repetition (the run whose p50 is "
              "the median, the lower middle one when n is even), with the shaded band spanning the lowest to the "
              "highest of its repetitions' curves at each percentile.")


def _if_repeated(note: str, results: Sequence[Result], reps: spread.Repetitions) -> str:
    """``note`` when one of ``results`` stands for more than one repetition: single runs' captions read as before."""
    return note if any(reps.count(r) > 1 for r in results) else ""


def _band(result: Result, metric: analysis.Metric, reps: spread.Repetitions) -> tuple[analysis.Curve, ...]:
    """The other repetitions' curves of ``result``'s variant, for a min–max band around its own."""
    return tuple(curve for r in reps.of(result) if r is not result
                 if (curve := analysis.latency_curve(r, metric)) is not None)


def _phases_section(results: Sequence[Result], palette: plots.Palette, variants: compare.Variants,
                    names: FileNames, reps: spread.Repetitions = spread.SINGLE) -> Section:
    section = Section(
        "Transaction phases: transactional vs naive, side by side",
        "Where an operation's time goes: begin, send, resolve (waiting for the send acks), sendOffsets, "
        "commit, and the whole transaction. Each figure puts the transactional runs and their naive counterparts "
        "(base-*, bulk-acks-all) on one latency axis, as seed 003 compares them; one panel per system "
        "or broker version (when the inputs hold several), all panels on the same scale. A naive run has no "
        "\"transaction\" bar: its whole operation is not a transaction (a naive streaming run's commit is a consumer "
        "offset commit). "
        + spread.CONVENTION,
    )
    comparisons = compare.phase_comparisons(results)
    for comparison in comparisons:
        drivers = {r.driver for r in comparison.results}
        panels: dict[str, list[plots.PhaseBar]] = {}
        colours: dict[tuple[str, str], str] = {}
        for result in comparison.results:
            order = compare.await_acks(result)
            label = result.workload + (f" (acks {order})" if order else "")
            label += f" — {result.driver}" if len(drivers) > 1 else ""
            label += " [PARTIAL]" if result.is_partial else ""
            label = reps.label(label, result)
            colour = colours.setdefault((result.workload, result.driver), plots.series_colour(len(colours)))
            panel = variants.panel(result)
            panels.setdefault(panel, []).append(
                plots.PhaseBar(label, colour, result, analysis.charted_phases(result),
                               None if analysis.is_transactional(result) else "//", tuple(reps.of(result)))
            )
        drawing = Drawing(names("phases", comparison.family), partial(
            plots.phase_comparison_figure,
            f"{comparison.family}: time per phase, transactional (solid) vs naive (hatched)", list(panels.items())))
        section.blocks.append(
            figure(f"{comparison.family}: phases, transactional vs naive",
                    "Bar height is the phase's median (p50), the whisker reaches its p99 (transactionPhases); "
                    "hatched bars are naive (non-transactional) runs; log scale, because begin takes microseconds "
                    "and commit milliseconds. \"acks after-commit\" / \"before-send-offsets\" is the call order "
                    "(scenario.awaitAcks)." + _if_repeated(_PHASE_REPEATS_NOTE, comparison.results, reps),
                    [r for result in comparison.results for r in reps.of(result)], drawing)
        )
        for key, bars in panels.items():
            title = f"{comparison.family}" + (f", {key}" if key else "")
            section.blocks.append(tables.phases_table(title, [bar.result for bar in bars],
                                                      partial(_run_name, with_driver=len(drivers) > 1), reps))
    others = analysis.per_workload(
        r for r in results
        if analysis.has_phase_breakdown(r) and not analysis.is_rate_sweep_point(r)
        and compare.phase_family(r.workload) is None
    )
    for workload, group in others.items():
        transactional = any(analysis.is_transactional(r) for r in group)
        kind = "transaction phase" if transactional else "phase"
        bars = [plots.PhaseBar(reps.label(variants.label(r), r), palette(variants.key(r)), r,
                               analysis.charted_phases(r), "//" if r.is_partial else None, tuple(reps.of(r)))
                for r in group]
        drawing = Drawing(names("phases", workload),
                           partial(plots.phase_comparison_figure, f"{workload}: time per {kind}", [("", bars)]))
        section.blocks.append(
            figure(f"{workload}: {kind}s",
                    "Bar height is the phase's median (p50), the whisker reaches its p99 (transactionPhases); "
                    "log scale." + _if_repeated(_PHASE_REPEATS_NOTE, group, reps),
                    [r for result in group for r in reps.of(result)], drawing)
        )
        section.blocks.append(tables.phases_table(workload, group, variants.label, reps))
    if not comparisons and not others:
        section.blocks.append(Paragraph("No results with transactionPhases in the inputs."))
    return section


_PHASE_REPEATS_NOTE = (
    " A run repeated n > 1 times (label \"n = N\"): the bar is the median of its repetitions' p50s, the whisker "
    "the median of their p99s, and a dot marks each repetition's p50."
)


def _run_name(result: Result, with_driver: bool) -> str:
    name = result.workload + (f" — {result.driver}" if with_driver else "")
    return name + (" [PARTIAL]" if result.is_partial else "")


def _bulk_section(results: Sequence[Result], variants: compare.Variants, names: FileNames,
                  reps: spread.Repetitions = spread.SINGLE) -> Section:
    section = Section(
        "Bulk insert: transactional vs naive throughput (seed 003)",
        "bulk-tx sends N messages in one transaction and commits; bulk-acks-all sends the same N messages with "
        "acks=all and no transaction, waiting for every acknowledgement. Seed 003 reports throughput; so does "
        "this table, per driver and broker version.",
    )
    pairs = compare.bulk_pairs(results, variants)
    if not pairs:
        section.blocks.append(Paragraph("No bulk-tx / bulk-acks-all results in the inputs."))
        return section
    section.blocks.append(tables.bulk_table(pairs, reps))
    runs = [r for pair in pairs for side in (pair.tx, pair.acks_all) if side is not None for r in reps.of(side)]
    drawing = Drawing(names("bulk-throughput"), partial(
        plots.bulk_figure, pairs, rates=lambda run: spread.spread(reps.of(run), compare.BulkPair.rate)))
    section.blocks.append(
        figure("Bulk insert throughput", "Bars: summary.messagesPerSecond of each run; the number on a bar is its "
                "value." + _if_repeated(" A run repeated n > 1 times: the bar is the median of its repetitions, the "
                                       "whisker their min–max, and the bar says n.", runs, reps), runs, drawing)
    )
    return section


def _percentiles_section(results: Sequence[Result], palette: plots.Palette, variants: compare.Variants,
                         names: FileNames, reps: spread.Repetitions = spread.SINGLE) -> Section:
    section = Section(
        "Latency by percentile",
        "HdrHistogram-style curves: the x axis spreads the tail (1/(1-p), log scale), one line per driver, "
        "one chart per workload. Full histograms are used where the result carries them, otherwise OMB's "
        "quantile maps or omb-tx's latency summary.",
    )
    for workload, group in analysis.per_workload(r for r in results if not analysis.is_rate_sweep_point(r)).items():
        panels = []
        for metric in analysis.METRICS:
            if metric is analysis.OPERATION and all(_operation_is_publish(r) for r in group):
                continue  # one plain send per operation: the operation panel would repeat the publish panel
            lines = [
                plots.CurveLine(reps.label(variants.label(result), result), palette(variants.key(result)), curve,
                                band=_band(result, metric, reps))
                for result in group
                if (curve := analysis.latency_curve(result, metric)) is not None
            ]
            if lines:
                panels.append((metric.title, lines))
        if not panels:
            continue
        drawing = Drawing(names("latency", workload),
                           partial(plots.percentile_figure, f"{workload}: latency by percentile", panels))
        sources = "; ".join(f"{title.split(' (')[0].lower()}: {_sources(group, metric)}"
                            for metric in analysis.METRICS for title, _ in panels if title == metric.title)
        description = sources[:1].upper() + sources[1:] + ". " + _MAX_NOTE + _if_repeated(_BAND_NOTE, group, reps)
        if workload.startswith("acks-sla-"):
            description += " " + _ACKS_BURST_NOTE
        section.blocks.append(figure(f"{workload}: latency percentiles", description,
                                      [r for result in group for r in reps.of(result)], drawing))
    return section


_ACKS_BURST_NOTE = (
    "What this measures: like seed 002's loop, an acks-sla run hands all N messages to one producer as fast as "
    "send() takes them (producerRate 50,000,000 msg/s is only a schedule far ahead of any producer), then waits "
    "for every acknowledgement. A message's publish latency runs from its send() call to its acknowledgement, so "
    "it includes the time it queued behind the earlier messages in the producer's buffer and in flight: it grows "
    "with the message's place in the burst, and medians of hundreds of milliseconds are that queue, not the "
    "broker's acknowledgement time for one request. Seed 002's own figure is duration ÷ N (the table in the acks "
    "section)."
)


def _operation_is_publish(result: Result) -> bool:
    """A non-transactional PUBLISH operation is one send: its operation latency is its publish latency."""
    return result.scenario.get("kind") == "PUBLISH" and not analysis.is_transactional(result)


def _end_to_end_ms(result: Result, percentile: float) -> float | None:
    return analysis.percentile_value_ms(result, analysis.END_TO_END, percentile)


def _sweep_section(results: Sequence[Result], palette: plots.Palette, names: FileNames,
                   reps: spread.Repetitions = spread.SINGLE) -> Section:
    section = Section(
        "Rate sweep: end-to-end latency against target rate (seed 004 form)",
        "Open-loop runs at increasing target rates (sweep parameter producerRate); end-to-end latency "
        "percentiles in milliseconds.",
    )
    all_sweeps = analysis.sweeps(results)
    for name, by_driver in all_sweeps.items():
        runs = [r for points in by_driver.values() for point in points for r in reps.of(point.result)]

        def over(point: analysis.SweepPoint, percentile: float) -> spread.Spread | None:
            return spread.spread(reps.of(point.result),
                                 partial(_end_to_end_ms, percentile=percentile))

        drawing = Drawing(names("sweep", name), partial(plots.sweep_figure, name, by_driver, spreads=over))
        section.blocks.append(
            figure(f"{name}: latency against rate",
                    "Log-log; colour = percentile, line style and marker = driver; values from "
                    "aggregatedEndToEndLatencyQuantiles (or the end-to-end histogram when the map lacks them). A line "
                    "joins two rates only when no rate of seed 004's grid (1K, 5K, 10K, 25K, 50K, 100K) lies between "
                    "them: a rate not run leaves a gap, not a guessed slope."
                    + _harness_note(runs)
                    + _if_repeated(" A rate run n > 1 times: the line passes through the median of its repetitions, "
                                   "the whisker spans their min–max.", runs, reps),
                    runs, drawing)
        )
        section.blocks += [tables.sweep_table(name, driver, points, reps) for driver, points in by_driver.items()]
        rates = sorted({point.rate for points in by_driver.values() for point in points})
        panels = []
        for rate in rates:
            lines = [
                plots.CurveLine(reps.label(driver + point.result.label[len(point.result.driver):], point.result),
                                palette(driver), curve, band=_band(point.result, analysis.END_TO_END, reps))
                for driver, points in by_driver.items()
                for point in points
                if point.rate == rate and (curve := analysis.latency_curve(point.result, analysis.END_TO_END))
            ]
            if lines:
                panels.append((f"{format_rate(rate)} msg/s", lines))
        if panels:
            drawing = Drawing(names("sweep-percentiles", name), partial(
                plots.percentile_figure, f"{name}: end-to-end latency by percentile at each rate", panels,
                share_y=True))
            section.blocks.append(
                figure(f"{name}: end-to-end percentiles per rate",
                        f"One panel per target rate, one line per driver; {_sources(runs, analysis.END_TO_END)}."
                        + _if_repeated(_BAND_NOTE, runs, reps),
                        runs, drawing)
            )
    if not all_sweeps:
        section.blocks.append(Paragraph("No sweep results (results carrying sweep.parameter = producerRate)."))
    return section


def _capacity_section(results: Sequence[Result], names: FileNames) -> Section:
    section = Section(
        "Capacity: achieved rate and p99 against offered rate and producers",
        "Open-loop sweeps of producerRate or producersPerTopic whose results carry a rate verdict (suites/"
        "tx-capacity.yaml): what each point achieved against what it was asked, transactional beside plain.",
    )
    for (name, parameter), series in capacity.curves(results).items():
        runs = [point.result for points in series.values() for point in points]
        drawing = Drawing(names("capacity", name, parameter), partial(
            plots.capacity_figure, name, capacity.PARAMETERS[parameter], series))
        section.blocks.append(figure(
            f"{name}: capacity by {parameter}",
            "Left: achieved msg/s (the messages sent in the measured phase) against the target (dashed); a hollow "
            "point did not hold it (under 95%, or a publish-delay p99 over 1 s). Right: publish latency p99, to the "
            "ack or, for a transactional message, to its transaction's commit." + _harness_note(runs),
            runs, drawing))
        section.blocks.append(capacity.table(name, parameter, series))
    return section


def _acks_section(results: Sequence[Result], names: FileNames,
                  reps: spread.Repetitions = spread.SINGLE) -> Section:
    section = Section(
        "Acks and durability profiles (seed 002 form)",
        "Workloads named acks-sla-*. Replication, ISR (min.insync.replicas) and ACKS are read from the "
        "driver config in the result ('?' when it does not say); duration and msg/s from summary.",
    )
    groups = analysis.acks_rows(results)
    section.blocks += [tables.acks_table(driver, messages, rows, reps) for (driver, messages), rows in groups.items()]
    if groups:
        labelled = {f"{driver}, {messages:,} messages" if messages else driver: rows
                    for (driver, messages), rows in groups.items()}
        runs = [r for rows in groups.values() for row in rows for r in reps.of(row.result)]
        drawing = Drawing(names("acks-sla-profiles"), partial(
            plots.acks_figure, labelled,
            rates=lambda run: spread.spread(reps.of(run), lambda r: r.summary.messages_per_second
                                            if r.summary else None)))
        section.blocks.append(figure("SLA profiles side by side", "Bars: summary.messagesPerSecond of each profile "
                                      "(N messages ÷ the time from the first send to the last acknowledgement), one "
                                      "colour per driver, broker version and message count."
                                      + _if_repeated(" A profile run n > 1 times: the bar is the median of its "
                                                     "repetitions, the whisker their min–max, and the bar says n.",
                                                     runs, reps), runs, drawing))
    if not groups:
        section.blocks.append(Paragraph("No acks-sla-* results in the inputs."))
    return section


def _time_series_section(results: Sequence[Result], variants: compare.Variants, names: FileNames) -> Section:
    section = Section(
        "Time series per run",
        f"Rates and latency per reporting period over the measured phase (x: seconds since it started; warm-up "
        f"left out), one figure per result file with at least {plots.MIN_TREND_PERIODS} periods: fewer points show "
        "no trend, only the run's summary again.",
    )
    short = []
    for result in sorted(results, key=lambda r: (r.workload, r.driver, r.start_time or "", r.path.name)):
        if not plots.has_time_series(result):
            short.append(result)
            continue
        rate = ""
        if result.sweep is not None and isinstance(result.sweep.value, float) and analysis.is_rate_sweep_point(result):
            rate = f" (target {format_rate(result.sweep.value)} msg/s)"
        title = f"{result.workload} — {variants.key(result)}{rate}"
        drawing = Drawing(names("timeseries", result.path.stem), partial(plots.time_series_figure, result, title))
        section.blocks.append(
            figure(title, "Per-period publishRate/consumeRate and latency lists of the result.", [result], drawing)
        )
    if short and section.blocks:
        section.blocks.append(Paragraph(
            f"No time series for {len(short)} other run(s) with fewer than {plots.MIN_TREND_PERIODS} reporting "
            "periods (or none recorded)."
        ))
    return section
