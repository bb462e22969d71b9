"""The findings as the report prints them: the summary under the title, the findings table, where each row's
numbers come from, seed 004 at every rate, and the seeds' published figures. Rows come from ``findings``."""

from __future__ import annotations

import math
import statistics
from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence

from .. import analysis, harness, intervals, systems
from ..formatting import format_ms, format_rate
from ..model import Result
from ..tables import Table
from . import seeds, setup
from .findings import UNINFORMATIVE, VERDICTS, FindingRow, _usable, _version_key, format_value
from .seeds import SeedFigure
from .setup import Setup


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


def figure_text(figure: SeedFigure | None) -> str:
    if figure is None:
        return "—"
    if figure.direction_only or figure.widening == 1.0 or math.isinf(figure.low):
        return figure.shown
    low, high = figure.widened
    return f"{figure.shown} (widened {format_value(low, figure.unit)}–{format_value(high, figure.unit)})"


# --------------------------------------------------------------------------------------------------
# Tables


def row_ids(rows: Sequence[FindingRow]) -> list[str]:
    return [f"F{index}" for index in range(1, len(rows) + 1)]


def summary(rows: Sequence[FindingRow]) -> str:
    """The first screen's line: counts by verdict, repetitions, set-ups."""
    counts = Counter(row.verdict for row in rows)
    parts = [f"{counts[v]} {v}" for v in VERDICTS if counts[v]]
    differing = sum(1 for row in rows if row.setup_differs and row.verdict != UNINFORMATIVE)
    provisional = sum(1 for row in rows if row.provisional)
    judged = [row for row in rows if row.estimate is not None]
    ns = Counter(row.estimate.n for row in judged if row.estimate is not None)
    setups = [row.setup for row in rows if row.setup is not None and row.estimate is not None]
    text = f"{len(rows)} seed findings: " + ", ".join(parts) + "."
    if judged:
        text += (f" Of the verdicts, {differing} stand on a set-up that differs from the seed's where the finding "
                 f"depends on it, {provisional} are provisional (fewer than 3 repetitions). Repetitions per "
                 "measured row: " + ", ".join(f"n = {n}: {c} row(s)" for n, c in sorted(ns.items())) + ".")
    machine = sum(1 for row in judged if setup.machine_differences(row.setup, row.figure.seed_setup if row.figure
                                                                      else None))
    if machine:
        text += (f" {machine} of {len(judged)} verdicts were measured on another machine than the seed's (hardware, "
                 "disk or network: \"machine ≠\" in the set-up column).")
    behind = {entry.split(":")[0] for row in rows for entry in row.harness}
    if behind:
        text += f" {len(behind)} run(s) not judged because the load generator fell behind."
    if setups:
        text += " Set-ups measured: " + setups_in_brief(setups) + "."
    return text


def setups_in_brief(setups: Sequence[Setup]) -> str:
    """Each set-up field with the values it took: "Kafka 2.8.2, 4.1.1 · brokers 1, 3 · RF 1, 2, 3 · …"."""

    def values(name: str) -> list[str]:
        found = {getattr(s, name) for s in setups} - {None}
        return [("yes" if v else "no") if isinstance(v, bool) else f"{v:,}" if isinstance(v, int) else str(v)
                for v in sorted(found, key=lambda v: (str(type(v)), v))]

    parts = []
    for system_name in sorted({s.system for s in setups if s.system}):
        releases = sorted({s.release for s in setups if s.system == system_name and s.release}, key=_version_key)
        parts.append(f"{system_name} {', '.join(releases)}".strip())
    for name in ("client", "brokers", "replication", "min_isr", "flush_per_message", "backoff_ms", "operations",
                 *setup.MACHINE_FIELDS):
        if values(name):
            parts.append(f"{setup.FIELD_NAMES[name]} {', '.join(values(name))}")
    return " · ".join(parts)


def findings_table(rows: Sequence[FindingRow]) -> Table:
    body = []
    for row_id, row in zip(row_ids(rows), rows):
        here = row.setup.text() if row.setup is not None else "—"
        if row.depends:
            here += " — ≠ where it matters: " + "; ".join(row.depends)
        machine = setup.machine_differences(row.setup, row.figure.seed_setup if row.figure else None)
        others = [d for d in row.differences if d not in row.depends and d not in machine]
        if others:
            here += " — also ≠: " + "; ".join(others)
        if machine:
            here += " — machine ≠: " + "; ".join(machine)
        body.append((
            f"{row_id} · seed {row.spec.seed}: {row.title}",
            f"{row.figure.system if row.figure else '—'} / {row.system}",
            figure_text(row.figure),
            measured_text(row),
            interval_text(row),
            "—" if row.estimate is None else str(row.estimate.n),
            row.order,
            here,
            row.figure.seed_setup.text() if row.figure else "—",
            row.verdict_text,
        ))
    return Table(
        title="Seed findings",
        header=("Finding", "Claim about / results", "Seed's figure", "Measured median", "95% interval", "n",
                "Order (awaitAcks)", "Set-up here (≠: differs from the seed's)",
                "Seed's set-up", "Verdict"),
        rows=tuple(body),
        align="llrrrrllll",
        wrap=True,
        note="Claim about: the system the seed's figure is about; results: the system the runs measured "
             "(broker.system read back). Set-up: ISR = min.insync.replicas, fsync/msg = "
             "log.flush.interval.messages=1, backoff = the producer's retry.backoff.ms (ms), as read back; "
             "\"≠ where it matters\": differences in what the finding depends on (the verdict is then labelled "
             "\"set-up differs\"); \"machine ≠\": the machines, the brokers' disk and the network between client "
             "and brokers, as the result's host and broker.dataDisk recorded them, against what the seed says of its "
             "own (a part the seed does not name is not compared). n = repetitions (pairs of runs for a ratio). "
             "What each row's statistic is, how its figure was widened, notes and its result files are in the next "
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
        widening = ""
        if row.figure is not None and row.figure.widening_reason:
            widening = f"Widening {row.figure.widening:.3g}×: {row.figure.widening_reason}."
        notes = list(row.notes)
        if row.figure is not None and row.figure.also:
            notes.append(row.figure.also + (f"; {row.measured_also}" if row.measured_also else ""))
        if row.figure is not None and row.figure.inconsistency:
            notes.append("seed inconsistent: " + row.figure.inconsistency)
        notes += [f"left out, harness behind: {entry}" for entry in row.harness]
        body.append((
            row_id,
            f"Statistic: {row.spec.quantity}. Compared: {row.compared}{values}",
            widening or "—",
            "; ".join(notes) or "—",
            ", ".join(row.files) or "—",
        ))
    return Table(
        title="What each finding measures and where its numbers come from",
        header=("#", "Statistic and what is compared", "Widening of the seed's figure", "Notes", "Result files"),
        rows=tuple(body),
        wrap=True,
    )


def seed_figures_table() -> Table:
    body = []
    for figure in seeds.FIGURES:
        seed = seeds.SEEDS[figure.seed]
        body.append((f"{figure.seed}: {seed.title}", figure.section, figure.system, figure.setup, figure.shown,
                     figure.also or "—", figure.inconsistency or "—"))
    return Table(
        title="The seeds' published figures",
        header=("Seed", "Where in the seed", "Claim about", "Seed's set-up", "Figure", "Also published",
                "The seed's own inconsistency"),
        rows=tuple(body),
        wrap=True,
        note="Their figures, on their hardware; the seeds: "
             + "; ".join(f"{s.number} {s.title} ({s.description})" for s in seeds.SEEDS.values()),
    )


def seed_004_table(results: Iterable[Result]) -> Table:
    """Seed 004's p25, p50, p90, p99 and p99.9 at every rate it publishes, beside the end-to-end percentiles measured
    at that rate on the same system (the median over the runs of one set-up; ⚠ where the load generator fell
    behind). Shown, not judged percentile by percentile: the seed ran each rate once, so it has no spread to widen
    by; the knee row judges the shape."""
    points: dict[tuple[str, float], list[Result]] = defaultdict(list)
    for r in results:
        if _usable(r) and analysis.is_rate_sweep_point(r) and r.sweep is not None \
                and r.sweep.name.startswith("rps-sweep"):
            points[(systems.system(r)[0], float(r.sweep.value))].append(r)  # type: ignore[arg-type]
    body = []
    for name, table in seeds.SEED_004.items():
        system_name = name.split()[0]
        for rate, published in table.items():
            seed_text = "not run" if published is None else " / ".join(format_ms(v) for v in published)
            runs = points.get((system_name, float(rate)), [])
            by_release: dict[str, list[Result]] = defaultdict(list)
            for r in runs:
                if not harness.fell_behind(r):
                    by_release[r.driver if r.broker_count == 0 else systems.label(r)].append(r)
            cells = []
            for release, kept in sorted(by_release.items(), key=lambda item: _version_key(item[0])):
                values = [statistics.median(v for r in kept if (v := analysis.percentile_value_ms(
                    r, analysis.END_TO_END, p)) is not None) for p in analysis.SWEEP_PERCENTILES]
                cells.append(f"{release}: " + " / ".join(format_ms(v) for v in values) + f" (n = {len(kept)})")
            measured = "; ".join(cells) or "—"
            behind = [f"{r.path.name}: {'; '.join(harness.problems(r))}" for r in runs if harness.fell_behind(r)]
            if behind:
                measured += " ⚠ left out, harness behind: " + "; ".join(behind)
            body.append((name, format_rate(rate), seed_text, measured))
    return Table(
        title="Seed 004 at every published rate: end-to-end p25 / p50 / p90 / p99 / p99.9 (ms)",
        header=("Seed's system", "Rate (msg/s)", "Seed", "Measured here (same system)"),
        rows=tuple(body),
        wrap=True,
        note="Shown side by side, not judged percentile by percentile: seed 004 ran each rate once, so it gives no "
             "spread to widen its figures by; the knee row above judges the shape. Measured: the median over the "
             "complete runs at that rate on that system (broker.system read back; Aeron: no broker).",
    )
