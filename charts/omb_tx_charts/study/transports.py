"""Seed 004's transport comparison: the measured RPS sweeps of every driver (Kafka on the embedded broker, Aeron
over IPC and UDP) side by side, beside the three tables seed 004 published (Kafka 2.8.0, Redpanda 21.7.6 and
Aeron 1.34.0, one host, 1 producer, 1 consumer, ~78-byte messages, end-to-end latency in ms)."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import partial
from pathlib import Path

import matplotlib.pyplot as plt

from .. import analysis, plots
from ..formatting import MISSING, format_ms, format_rate
from ..model import Result
from ..tables import Table
from .seeds import SEED_004

SEED_SOURCE = "seed 004 (Kafka 2.8.0 and ZooKeeper, Redpanda 21.7.6, Aeron 1.34.0; i7-4770, one host)"
COMPARED_PERCENTILES: tuple[float, ...] = (50.0, 99.0)
_HEADER = {25.0: "25th", 50.0: "50th", 90.0: "90th", 99.0: "99th", 99.9: "99.9th"}


@dataclass(frozen=True)
class Comparison:
    """What the report shows for one sweep: the side-by-side table, the seed's tables and the figure."""

    sweep: str
    measured: Mapping[str, Sequence[analysis.SweepPoint]]  # driver -> points by rate
    tables: tuple[Table, ...]
    draw: Callable[..., plots.Rendered]  # the figure, drawn when called with path=
    runs: tuple[Result, ...]


def rps_sweeps(results: Sequence[Result]) -> dict[str, dict[str, list[analysis.SweepPoint]]]:
    """The seed-004 sweeps among the results: producerRate sweeps of the rps-sweep workload."""
    return {name: drivers for name, drivers in analysis.sweeps(results).items() if name.startswith("rps-sweep")}


def seed_tables() -> list[Table]:
    """Seed 004's three tables as published."""
    tables = []
    for system, rows in SEED_004.items():
        body = tuple(
            (format_rate(rate),) + (tuple(MISSING for _ in analysis.SWEEP_PERCENTILES) if values is None
                                    else tuple(format_ms(v) for v in values))
            for rate, values in rows.items()
        )
        tables.append(Table(
            title=f"seed 004: {system}",
            header=("RPS/Latency",) + tuple(_HEADER[p] for p in analysis.SWEEP_PERCENTILES),
            rows=body,
            align="lrrrrr",
            note=f"end-to-end ms as published by {SEED_SOURCE}",
        ))
    return tables


def side_by_side_table(sweep: str, measured: Mapping[str, Sequence[analysis.SweepPoint]]) -> Table:
    """One row per target rate: p50 and p99 of every measured driver, then of every seed system."""
    seed_rates = {float(r) for r in SEED_004["Kafka 2.8.0"]}
    rates = sorted({p.rate for points in measured.values() for p in points} | seed_rates)
    header: list[str] = ["RPS"]
    for driver in measured:
        header += [f"{driver} p{p:g}" for p in COMPARED_PERCENTILES]
    for system in SEED_004:
        header += [f"seed {system} p{p:g}" for p in COMPARED_PERCENTILES]
    rows = []
    for rate in rates:
        row = [format_rate(rate)]
        for points in measured.values():
            point = next((p for p in points if p.rate == rate), None)
            for percentile in COMPARED_PERCENTILES:
                value = None if point is None else point.latencies_ms.get(percentile)
                row.append(format_ms(value) + (" (partial)" if point is not None and point.result.is_partial else ""))
        for system in SEED_004.values():
            seeded = system.get(int(rate))
            for percentile in COMPARED_PERCENTILES:
                column = analysis.SWEEP_PERCENTILES.index(percentile)
                row.append(MISSING if seeded is None else format_ms(seeded[column]))
        rows.append(tuple(row))
    return Table(
        title=f"{sweep}: measured here beside seed 004",
        header=tuple(header),
        rows=tuple(rows),
        align="l" + "r" * (len(header) - 1),
        note="end-to-end latency in ms; measured columns from this report's results, seed columns as published"
             f" by {SEED_SOURCE}; '{MISSING}' where a rate was not run",
    )


def comparison_figure(sweep: str, measured: Mapping[str, Sequence[analysis.SweepPoint]], palette: plots.Palette,
                      path: Path) -> plots.Rendered:
    """p50 and p99 against target rate, log-log: measured drivers in their colours (solid), the seed's systems grey
    (dashed)."""
    seed_styles = dict(zip(SEED_004, (("#6f6f6f", "s"), ("#a8a8a8", "^"), ("#303030", "D"))))
    with plt.rc_context(plots._STYLE):
        figure, panels = plt.subplots(1, len(COMPARED_PERCENTILES), figsize=plots.WIDE_SIZE_INCHES,
                                      layout="constrained", sharey=True)
        values: list[float] = []
        rates: set[float] = set()
        for axes, percentile in zip(panels, COMPARED_PERCENTILES):
            index = analysis.SWEEP_PERCENTILES.index(percentile)
            for driver, points in measured.items():
                xy = [(p.rate, p.latencies_ms[percentile]) for p in points if (p.latencies_ms.get(percentile) or 0) > 0]
                if xy:
                    axes.plot(*zip(*xy), marker="o", color=palette(driver), linewidth=2, label=f"{driver} (here)")
                    values += [v for _, v in xy]
                    rates |= {r for r, _ in xy}
            for system, rows in SEED_004.items():
                xy = [(float(rate), row[index]) for rate, row in rows.items() if row is not None]
                colour, marker = seed_styles[system]
                axes.plot(*zip(*xy), marker=marker, linestyle="--", color=colour, linewidth=1.3,
                          markersize=4, label=f"seed 004: {system}")
                values += [v for _, v in xy]
                rates |= {r for r, _ in xy}
            axes.set_xscale("log")
            axes.set_yscale("log")
            axes.set_title(f"p{percentile:g} end-to-end", fontsize=11)
            axes.set_xlabel("target rate (msg/s, log scale)")
            axes.set_xticks(sorted(rates), [format_rate(r) for r in sorted(rates)])
            axes.minorticks_off()
        panels[0].set_ylabel("end-to-end latency (ms, log scale)")
        panels[-1].legend(loc="upper left", bbox_to_anchor=(1.01, 1.0), fontsize=8)
        figure.suptitle(f"{sweep}: transports measured here beside seed 004", fontsize=13, fontweight="bold")
        return plots._save(figure, path)


def comparisons(results: Sequence[Result], palette: plots.Palette) -> list[Comparison]:
    """One comparison per rps-sweep in the results; none when there is no such sweep. Nothing is drawn here."""
    out = []
    for sweep, measured in rps_sweeps(results).items():
        runs = tuple(point.result for points in measured.values() for point in points)
        draw = partial(comparison_figure, sweep, measured, palette)
        out.append(Comparison(sweep, measured, (side_by_side_table(sweep, measured), *seed_tables()), draw, runs))
    return out
