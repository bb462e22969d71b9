"""Tables as values, built in the seeds' forms, rendered to Markdown or HTML."""

from __future__ import annotations

import html
import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from . import analysis, harness, spread, systems
from .formatting import MISSING, format_count, format_ms, format_rate, format_ratio
from .model import PHASE_ORDER, Result

if TYPE_CHECKING:
    from .compare import BulkPair


@dataclass(frozen=True)
class Table:
    title: str
    header: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]
    align: str = ""  # one of "l", "c", "r" per column; left when shorter
    note: str = ""
    wrap: bool = False  # HTML: let cells wrap (wide tables of prose); by default only the first column does
    # Per row, per cell: the file a cell links to (a result), or None; empty: no links. Written relative to the
    # report's folder.
    links: tuple[tuple[str | None, ...], ...] = ()
    # Per row, per cell: an HTML class for the cell (e.g. a verdict's "pass", "fail"), or None; empty: none.
    classes: tuple[tuple[str | None, ...], ...] = ()


def _link(table: Table, row: int, column: int, base: Path | None) -> str | None:
    if row >= len(table.links) or column >= len(table.links[row]) or table.links[row][column] is None:
        return None
    target = table.links[row][column]
    return os.path.relpath(target, base) if base is not None else target


def to_markdown(table: Table, base: Path | None = None) -> str:
    """``base``: the report's folder, from which a cell's link is written."""
    rule = {"l": "---", "c": ":---:", "r": "---:"}
    aligns = table.align.ljust(len(table.header), "l")
    lines = [
        "| " + " | ".join(table.header) + " |",
        "|" + "|".join(rule[a] for a in aligns) + "|",
    ]
    for i, row in enumerate(table.rows):
        cells = []
        for j, cell in enumerate(row):
            link = _link(table, i, j, base)
            cells.append(_md_cell(cell) if link is None else f"[{_md_cell(cell)}]({link})")
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


def _md_cell(cell: str) -> str:
    return cell.replace("|", "\\|")


def to_html(table: Table, base: Path | None = None) -> str:
    """``base``: the report's folder, from which a cell's link is written."""
    css = {"l": "left", "c": "center", "r": "right"}
    aligns = table.align.ljust(len(table.header), "l")
    head = "".join(f'<th style="text-align:{css[a]}">{html.escape(h)}</th>' for h, a in zip(table.header, aligns))

    def cell(i: int, j: int, text: str) -> str:
        link = _link(table, i, j, base)
        return html.escape(text) if link is None else f'<a href="{html.escape(link)}">{html.escape(text)}</a>'

    def td(i: int, j: int) -> str:
        kind = table.classes[i][j] if i < len(table.classes) and j < len(table.classes[i]) else None
        return f'<td class="{html.escape(kind)}"' if kind else "<td"

    body = "".join(
        "<tr>" + "".join(f'{td(i, j)} style="text-align:{css[a]}">{cell(i, j, c)}</td>'
                         for j, (c, a) in enumerate(zip(row, aligns)))
        + "</tr>"
        for i, row in enumerate(table.rows)
    )
    opening = '<table class="wrap">' if table.wrap else "<table>"
    return f"{opening}<thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"


def _system(result: Result) -> str:
    return result.label


def _on_system(result: Result, text: str) -> str:
    """A run's label in a System column, with the system that answered when the label does not name it: a Redpanda
    driver's run on Kafka is "redpanda-tx on Kafka", a Kafka driver's on Tansu "kafka-tx on Tansu". Only the system
    the result read back from the cluster (broker.system) is added, never one guessed from a name."""
    name, source = systems.system(result)
    if source != "broker.system" or name.lower() in text.lower():
        return text
    return f"{text} on {name}"


def closed_loop_table(workload: str, results: Sequence[Result], label: Callable[[Result], str] = _system,
                      reps: spread.Repetitions = spread.SINGLE) -> Table:
    """Seed 001's form: | System | 1000 txes | min | median | max |, the middle cell being total time. A repeated
    run's cells are median [min–max] n = N over its repetitions."""
    noun = "txes" if any(analysis.is_transactional(r) for r in results) else "ops"
    counts = {r.operation_latency.count for r in results if r.operation_latency}
    same_count = len(counts) == 1 and None not in counts
    header_count = f"{next(iter(counts))} {noun}" if same_count else f"{noun} (N in total)"
    rows = []
    for result in results:
        summary = result.operation_latency
        assert summary is not None
        runs = reps.of(result)

        def over(key: str, runs: Sequence[Result] = runs) -> str:
            return spread.ms_spread(spread.spread(
                runs, lambda r: r.operation_latency.get(key) if r.operation_latency else None))

        totals = spread.spread(runs, lambda r: r.operation_latency.total_millis if r.operation_latency else None)
        total = spread.ms_spread(totals)
        if not same_count:
            total = f"{format_count(summary.count)} in {total}"
        rows.append((_on_system(result, label(result)), total, over("min"), over("p50"), over("max")))
    repeated = any(reps.count(r) > 1 for r in results)
    return Table(
        title=workload,
        header=("System", header_count, "min", "median", "max"),
        rows=tuple(rows),
        align="lrrrr",
        note=_REPEATED_NOTE if repeated else "",
    )


_REPEATED_NOTE = "a repeated run's cells: median over its repetitions [min–max] n = repetitions"


def _ms(value: float | None) -> str:
    return "-" if value is None else f"{format_ms(value)} ms"


def overhead_table(pairs: Sequence[analysis.Overhead], label: Callable[[Result], str] | None = None,
                   reps: spread.Repetitions = spread.SINGLE) -> Table:
    rows = []
    for pair in pairs:
        system = pair.tx.label if pair.tx.is_partial or pair.base.is_partial else pair.driver
        tx_runs, base_runs = reps.of(pair.tx), reps.of(pair.base)
        total_ratio = spread.ratio_spread(tx_runs, base_runs, total_per_operation) if pair.total_ratio else None
        rows.append(
            (
                pair.label,
                _on_system(pair.tx, label(pair.tx) if label is not None else system),
                spread.ms_spread(spread.spread(base_runs, analysis.operation_p50_ms)),
                spread.ms_spread(spread.spread(tx_runs, analysis.operation_p50_ms)),
                spread.format_spread(spread.ratio_spread(tx_runs, base_runs, analysis.operation_p50_ms),
                                     format_ratio),
                spread.ms_spread(spread.spread(base_runs, _total_ms)),
                spread.ms_spread(spread.spread(tx_runs, _total_ms)),
                spread.format_spread(total_ratio, format_ratio)
                + (" (per op)" if pair.counts_differ and pair.total_ratio else ""),
            )
        )
    note = "total = sum of operation latencies over the measured N; the ratio is per operation when N differs"
    if any(reps.count(r) > 1 for pair in pairs for r in (pair.tx, pair.base)):
        note += ("; " + _REPEATED_NOTE + " (a ratio's: of tx ÷ base per repetition index, as the runs were "
                 "interleaved)")
    return Table(
        title="Transactional overhead: tx / base",
        header=("Scenario", "System", "base p50", "tx p50", "p50 ratio", "base total", "tx total", "total ratio"),
        rows=tuple(rows),
        align="llrrrrrr",
        note=note,
    )


def _total_ms(result: Result) -> float | None:
    return result.operation_latency.total_millis if result.operation_latency else None


def total_per_operation(result: Result) -> float | None:
    """Total operation time ÷ N: the ratio of these is the total-time ratio, per operation when N differs."""
    total, count = _total_ms(result), result.operation_latency.count if result.operation_latency else None
    return total / count if total is not None and count else None


_PERCENTILE_HEADER = {25.0: "25th", 50.0: "50th", 90.0: "90th", 99.0: "99th", 99.9: "99.9th"}


def sweep_table(sweep_name: str, driver: str, points: Sequence[analysis.SweepPoint],
                reps: spread.Repetitions = spread.SINGLE) -> Table:
    """Seed 004's form: | RPS/Latency | 25th | 50th | 90th | 99th | 99.9th |, end-to-end ms. A repeated point's
    cells are median [min–max] n = N over its repetitions."""
    rows = []
    for point in points:
        flag = (" (partial)" if point.result.is_partial else "") + harness.flag(point.result)
        runs = reps.of(point.result)
        rows.append(
            (format_rate(point.rate) + flag,)
            + tuple(spread.format_spread(
                spread.spread(runs, lambda r, p=p: analysis.percentile_value_ms(r, analysis.END_TO_END, p)), format_ms)
                for p in analysis.SWEEP_PERCENTILES)
        )
    repeated = "; " + _REPEATED_NOTE if any(reps.count(point.result) > 1 for point in points) else ""
    return Table(
        title=f"{sweep_name}: {driver}",
        header=("RPS/Latency",) + tuple(_PERCENTILE_HEADER[p] for p in analysis.SWEEP_PERCENTILES),
        rows=tuple(rows),
        align="lrrrrr",
        note="end-to-end latency in ms at each target rate" + repeated,
    )


def acks_table(driver: str, messages: int | None, rows: Sequence[analysis.AcksRow],
               reps: spread.Repetitions = spread.SINGLE) -> Table:
    """Seed 002's form: | Topic/profile | Partitions | Replication | ISR | ACKS | Duration | Msg Latency | m/s |.
    A repeated profile's cells are median [min–max] n = N over its repetitions."""
    body = []
    for row in rows:
        runs = [analysis.acks_row(r) for r in reps.of(row.result)]
        duration = spread.format_spread(spread.spread(runs, lambda r: r.duration_ms), lambda v: f"{v:.0f}", "ms")
        latency = spread.format_spread(spread.spread(runs, lambda r: r.message_latency_ms), lambda v: f"{v:.4g}",
                                       "ms")
        rate = spread.format_spread(spread.spread(runs, lambda r: r.messages_per_second), format_count)
        body.append(
            (
                row.profile + (" (partial)" if row.result.is_partial else "") + harness.flag(row.result),
                "?" if row.partitions is None else str(row.partitions),
                row.replication,
                row.min_insync_replicas,
                row.acks,
                duration,
                latency,
                rate,
            )
        )
    amount = f"{format_count(messages)} messages" if messages is not None else "message count not recorded"
    return Table(
        title=f"{driver}, {amount}",
        header=("Topic/profile", "Partitions", "Replication", "ISR", "ACKS", "Duration", "Msg Latency", "m/s"),
        rows=tuple(body),
        align="lcccccrr",
        note="Msg Latency is duration ÷ messages, as in seed 002; ISR is min.insync.replicas"
        + ("; " + _REPEATED_NOTE if any(reps.count(row.result) > 1 for row in rows) else ""),
    )


def runs_table(results: Sequence[Result], label: Callable[[Result], str] = _system,
               reps: spread.Repetitions = spread.SINGLE) -> Table:
    """The reader's runs at a glance, one row per run charted (a repeated run is one row, its numbers the medians
    over its repetitions): what ran, on what, how much, how fast, its latency and whether it is whole."""
    rows = []
    for result in sorted(results, key=lambda r: (r.workload, label(r), r.path.name)):
        runs = reps.of(result)

        def median(value: Callable[[Result], float | None], runs: Sequence[Result] = runs) -> float | None:
            found = spread.spread(runs, value)
            return found.median if found is not None else None

        def latency(metric: analysis.Metric) -> str:
            p50, p99 = (median(lambda r, p=p: analysis.percentile_value_ms(r, metric, p)) for p in (50.0, 99.0))
            return MISSING_PAIR if p50 is None and p99 is None else f"{format_ms(p50)} / {format_ms(p99)}"

        rate = median(lambda r: r.summary.messages_per_second if r.summary else None)
        status = "PARTIAL" if result.is_partial else "FAILED" if result.is_failed else result.status
        if len(runs) > 1:
            status += f", n = {len(runs)}"
        rows.append((
            result.workload,
            label(result),
            _system_and_release(result),
            (result.run_mode.loop or "?") if result.run_mode else "?",
            _measured(result),
            MISSING if rate is None else format_count(rate),
            latency(analysis.OPERATION),
            latency(analysis.PUBLISH),
            latency(analysis.END_TO_END),
            status + harness.flag(result),
        ))
    header = ("Workload", "Driver", "System", "Loop", "Measured", "msg/s", "operation ms p50 / p99",
              "publish ms p50 / p99", "end-to-end ms p50 / p99", "Status")
    align = "lllllrrrrl"
    # a latency no run here has (end-to-end of closed loops that consume nothing) is left out, not a column of dashes
    kept = [i for i in range(len(header)) if not (6 <= i <= 8 and rows and all(row[i] == MISSING_PAIR for row in rows))]
    return Table(
        title="Runs",
        header=tuple(header[i] for i in kept),
        rows=tuple(tuple(row[i] for i in kept) for row in rows),
        align="".join(align[i] for i in kept),
        note="msg/s: summary.messagesPerSecond. Latency: the run's own percentiles (operationLatency, OMB's "
             "aggregated quantiles), else from its histograms. A run repeated n times is one row (n in Status), its "
             "numbers the medians over its repetitions."
             + (" ⚠: the load generator fell behind (harness check: " + harness.CRITERIA + ")"
                if any(harness.fell_behind(r) for r in results) else ""),
    )


MISSING_PAIR = f"{MISSING} / {MISSING}"


def _system_and_release(result: Result) -> str:
    if not result.is_omb_tx:
        return "stock OMB"
    name, _ = systems.system(result)
    release = systems.label(result)
    return name if release == "no broker" or name == release else f"{name} {release}"


def _measured(result: Result) -> str:
    """What the run set out to measure and how long it took: "1,000 operations in 26.5 s (640 done)"."""
    amounts = result.run_mode.measure if result.run_mode else {}
    text = ", ".join(f"{format_count(n)} {unit}" for unit, n in amounts.items())
    operations = result.counts.get("operations")
    planned = amounts.get("operations")
    if planned is not None and operations is not None and operations < planned:
        text += f" ({format_count(operations)} done)"
    duration = result.summary.duration_seconds if result.summary else None
    if duration is not None:
        text += f" in {duration:.1f} s" if text else f"{duration:.1f} s"
    return text or "?"


def inputs_table(results: Sequence[Result], superseded: Sequence[Result]) -> Table:
    older = {id(r) for r in superseded}
    rows = []
    for result in sorted(results, key=lambda r: (r.workload, r.driver, r.start_time or "", r.path.name)):
        loop = result.run_mode.loop if result.run_mode and result.run_mode.loop else "?"
        status = "PARTIAL" if result.is_partial else result.status
        if id(result) in older:
            status += " (superseded by a newer run)"
        elif result.repetition is not None and result.repetition.count > 1:
            status += f" (repetition {result.repetition.index} of {result.repetition.count})"
        system_name, source = systems.system(result)
        if source.startswith("the driver's name"):
            system_name += " (from the driver's name)"
        brokers = "—" if result.broker_count is None else str(result.broker_count)
        rows.append(
            (
                str(result.path),
                result.workload,
                result.driver,
                system_name if result.is_omb_tx else "stock OMB",
                systems.label(result) if result.is_omb_tx else "?",
                brokers,
                loop,
                result.start_time or "?",
                status,
                "; ".join(harness.problems(result)) or "ok",
            )
        )
    return Table(
        title="Inputs",
        header=("File", "Workload", "Driver", "System", "Broker (tv)", "Brokers", "Loop", "Start (UTC)", "Status",
                "Harness"),
        rows=tuple(rows),
        wrap=True,
        note="System: broker.system read back from the cluster (an embedded broker is Kafka). Harness: whether the "
             "load generator kept up; ⚠ flags " + harness.CRITERIA,
    )


def phases_table(workload: str, results: Sequence[Result], label: Callable[[Result], str] = _system,
                 reps: spread.Repetitions = spread.SINGLE) -> Table:
    """One row per run, one column per phase holding "p50 / p99" (at most eight columns, so it fits the page); a
    non-transactional run has no "transaction" cell. A repeated run's values are medians over its repetitions."""
    present = {p for r in results for p in analysis.charted_phases(r)}
    phases = [p for p in PHASE_ORDER if p in present] + sorted(present - set(PHASE_ORDER))
    rows = []
    repeated = any(reps.count(r) > 1 for r in results)
    for result in results:
        row: tuple[str, ...] = (_on_system(result, label(result)) + harness.flag(result),)
        for phase in phases:
            if phase not in analysis.charted_phases(result):
                row += ("-",)
                continue
            cells = []
            for key in ("p50", "p99"):
                found = spread.spread(reps.of(result), lambda r, k=key, p=phase: _phase_value(r, p, k))
                cells.append(spread.ms_spread(found) if repeated else _ms(found.median if found else None))
            row += (" / ".join(cells),)
        rows.append(row)
    return Table(
        title=f"{workload}: p50 / p99 per phase", header=("Run",) + tuple(phases), rows=tuple(rows),
        align="l" + "r" * len(phases), wrap=True,
        note="each cell: the phase's p50 / p99" + ("; " + _REPEATED_NOTE if repeated else ""),
    )


def _phase_value(result: Result, phase: str, key: str) -> float | None:
    summary = result.transaction_phases.get(phase)
    return summary.get(key) if summary else None


def bulk_table(pairs: Sequence[BulkPair], reps: spread.Repetitions = spread.SINGLE) -> Table:
    """Seed 003's bulk insert: msg/s of one transaction of N messages vs N sends with acks=all, and their ratio.
    A repeated run's cells are median [min–max] n = N over its repetitions."""
    rows = []
    for pair in pairs:
        tx, plain = pair.tx, pair.acks_all
        tx_runs = reps.of(tx) if tx is not None else []
        plain_runs = reps.of(plain) if plain is not None else []
        ratio = spread.ratio_spread(tx_runs, plain_runs, pair.rate)
        rows.append(
            (
                pair.variant,
                _count_of(tx),
                spread.format_spread(spread.spread(tx_runs, pair.rate), format_count)
                + (" (partial)" if tx is not None and tx.is_partial else ""),
                spread.format_spread(spread.spread(plain_runs, pair.rate), format_count)
                + (" (partial)" if plain is not None and plain.is_partial else ""),
                spread.format_spread(ratio, _fine_ratio),
            )
        )
    note = ("msg/s = summary.messagesPerSecond (measured messages ÷ measured duration; bulk-tx commits one "
            "transaction per messagesPerOperation messages); seed 003 found the "
            "transactional bulk insert faster than acks=all sends on Redpanda (a ratio above 1×)")
    if any(len(reps.of(r)) > 1 for pair in pairs for r in (pair.tx, pair.acks_all) if r is not None):
        note += "; " + _REPEATED_NOTE
    return Table(
        title="Bulk insert: bulk-tx vs bulk-acks-all",
        header=("System", "measured messages", "bulk-tx msg/s", "bulk-acks-all msg/s", "tx ÷ acks=all"),
        rows=tuple(rows),
        align="lrrrr",
        note=note,
    )


def _fine_ratio(ratio: float | None) -> str:
    """Two decimals below 1× (0.15×, not 0.2×), the usual format above."""
    return f"{ratio:.2f}×" if ratio is not None and ratio < 1 else format_ratio(ratio)


def _count_of(result: Result | None) -> str:
    return "-" if result is None else format_count(result.counts.get("messagesSent"))


def fetch_table(results: Sequence[Result], label: Callable[[Result], str] = _system,
                reps: spread.Repetitions = spread.SINGLE) -> Table:
    """Seed 001's FetchBench figure: write-to-visible (send to read_committed visibility), beside the transaction.
    A repeated run's cells are median [min–max] n = N over its repetitions."""
    rows = []
    for result in results:
        runs = reps.of(result)
        visible = [spread.spread(runs, lambda r, p=p: analysis.percentile_value_ms(r, analysis.END_TO_END, p))
                   for p in (50.0, 99.0, 100.0)]
        summary = result.operation_latency
        transaction = spread.spread(runs, lambda r: r.operation_latency.get("p50") if r.operation_latency else None)
        rows.append(
            (_on_system(result, label(result)), format_count(summary.count if summary else None))
            + tuple(spread.ms_spread(v) for v in visible)
            + (spread.ms_spread(transaction),)
        )
    repeated = "; " + _REPEATED_NOTE if any(reps.count(r) > 1 for r in results) else ""
    return Table(
        title="tx-fetch: write-to-visible",
        header=("System", "N", "visible p50", "visible p99", "visible max", "transaction p50"),
        rows=tuple(rows),
        align="lrrrrr",
        note="write-to-visible = end-to-end latency of tx-fetch: from the transactional send until a read_committed "
        "consumer returns the message (what seed 001's FetchBench measures); the transaction column is the "
        "operation (begin … commit) alone" + repeated,
    )
