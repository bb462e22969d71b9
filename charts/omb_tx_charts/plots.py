"""Matplotlib figures (Agg backend). Each function draws one PNG and returns its pixel size."""

from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Mapping, Sequence

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402  (the backend must be chosen first)
from matplotlib.axes import Axes  # noqa: E402
from matplotlib.lines import Line2D  # noqa: E402
from matplotlib.ticker import FixedLocator, FuncFormatter, NullFormatter, NullLocator  # noqa: E402

from . import analysis  # noqa: E402
from .formatting import format_rate, format_ratio  # noqa: E402
from .model import PHASE_ORDER, Result  # noqa: E402

DPI = 100
PANEL_SIZE_INCHES = (6.4, 4.8)
WIDE_SIZE_INCHES = (11.0, 5.6)
TIME_SERIES_SIZE_INCHES = (11.0, 7.0)
MAX_PANELS_PER_ROW = 3
PARTIAL_COLOUR = "#c0392b"

_STYLE: dict[Any, Any] = {
    "font.size": 10,
    "axes.titlesize": 11,
    "axes.labelsize": 10,
    "legend.fontsize": 9,
    "axes.grid": True,
    "grid.alpha": 0.3,
    "grid.linestyle": "-",
    "axes.spines.top": False,
    "axes.spines.right": False,
}
_LINE_STYLES: tuple[Any, ...] = ("-", "--", ":", "-.")
_TAB10: list[str] = list(matplotlib.rcParams["axes.prop_cycle"].by_key()["color"])
_MARKERS = ("o", "s", "^", "D", "v", "P")


@dataclass(frozen=True)
class Rendered:
    path: Path
    width_px: int
    height_px: int


class Palette:
    """One colour per driver, the same in every figure of a report."""

    def __init__(self, drivers: Sequence[str]) -> None:
        self._colours = {driver: _TAB10[index % len(_TAB10)] for index, driver in enumerate(sorted(set(drivers)))}

    def __call__(self, driver: str) -> str:
        return self._colours.get(driver, "#555555")


def _save(figure: plt.Figure, path: Path) -> Rendered:
    figure.savefig(path, dpi=DPI)
    width, height = figure.get_size_inches()
    plt.close(figure)
    return Rendered(path, round(width * DPI), round(height * DPI))


def _grid(panels: int) -> tuple[int, int]:
    columns = min(panels, MAX_PANELS_PER_ROW)
    return math.ceil(panels / columns), columns


def _ms_formatter() -> FuncFormatter:
    return FuncFormatter(lambda value, _: f"{value:g}")


_TICK_MANTISSAS: tuple[tuple[float, ...], ...] = ((1, 2, 5), (1, 1.5, 2, 3, 4, 5, 6, 7, 8, 9))


def _log_ticks(axis_min: float, axis_max: float) -> list[float]:
    """1-2-5 ticks inside the range, so a log axis reads as plain milliseconds; finer steps when the
    range is too narrow for three of them (e.g. 650..1650 ms, where 1-2-5 leaves only 1000)."""
    ticks: list[float] = []
    for mantissas in _TICK_MANTISSAS:
        ticks = []
        for exponent in range(math.floor(math.log10(axis_min)) - 1, math.ceil(math.log10(axis_max)) + 1):
            for mantissa in mantissas:
                value = float(f"{mantissa * 10.0**exponent:.12g}")
                if axis_min <= value <= axis_max:
                    ticks.append(value)
        if len(ticks) >= 3:
            break
    return ticks


def _set_log_ms_axis(axes: Axes, values: Sequence[float], below: float = 1.4, above: float = 1.4) -> None:
    """Log latency axis from min(values) / below to max(values) * above, labelled in plain ms."""
    low, high = min(values), max(values)
    axes.set_yscale("log")
    axes.set_ylim(low / below, high * above)
    ticks = _log_ticks(low / below, high * above)
    if len(ticks) >= 2:
        axes.yaxis.set_major_locator(FixedLocator(ticks))
        axes.yaxis.set_minor_locator(NullLocator())
    axes.yaxis.set_major_formatter(_ms_formatter())
    axes.yaxis.set_minor_formatter(NullFormatter())


# --------------------------------------------------------------------------------------------------
# Percentile curves, HdrHistogram style


@dataclass(frozen=True)
class CurveLine:
    label: str
    colour: str
    curve: analysis.Curve
    style: str = "-"


def _inverse_tail(percentile: float) -> float:
    return 1.0 / (1.0 - percentile / 100.0)


def _percentile_label(inverse_tail: float) -> str:
    percentile = 100.0 * (1.0 - 1.0 / inverse_tail)
    return f"{percentile:.10g}%"


def _draw_percentiles(axes: Axes, lines: Sequence[CurveLine], title: str, shared_values: Sequence[float] = ()) -> None:
    all_values: list[float] = []
    widest = 10.0
    for line in lines:
        xs = [_inverse_tail(p) for p in line.curve.percentiles]
        # Quantile maps and summaries are sparse in the tail: mark their points so straight segments
        # between 99% and 99.9% are not read as measured.
        sparse = [i for i, p in enumerate(line.curve.percentiles) if p >= 90.0]
        is_sparse = line.curve.source != "HdrHistogram" and len(sparse) <= 20
        markers: dict[str, Any] = {"marker": "o", "markersize": 3.5, "markevery": sparse} if is_sparse else {}
        axes.plot(xs, line.curve.values_ms, line.style, color=line.colour, label=line.label, linewidth=1.8, **markers)
        all_values.extend(line.curve.values_ms)
        widest = max(widest, max(xs))
    axes.set_xscale("log")
    decades = math.ceil(math.log10(widest) - 1e-9)
    ticks = [1.0, 2.0] + [10.0**k for k in range(1, decades + 1)]
    axes.set_xlim(1.0, 10.0**decades)
    axes.xaxis.set_major_locator(FixedLocator(ticks))
    axes.xaxis.set_major_formatter(FuncFormatter(lambda value, _: _percentile_label(value)))
    axes.xaxis.set_minor_locator(NullLocator())
    _set_log_ms_axis(axes, shared_values or all_values)
    axes.set_xlabel("percentile")
    axes.set_ylabel("latency (ms)")
    axes.set_title(title)
    axes.legend(loc="upper left")


def percentile_figure(
    title: str, panels: Sequence[tuple[str, Sequence[CurveLine]]], path: Path, share_y: bool = False
) -> Rendered:
    """One panel per entry; ``share_y`` gives every panel the same latency range, for comparing them."""
    rows, columns = _grid(len(panels))
    shared = [v for _, lines in panels for line in lines for v in line.curve.values_ms] if share_y else []
    with plt.rc_context(_STYLE):
        figure, axes_grid = plt.subplots(
            rows,
            columns,
            figsize=(PANEL_SIZE_INCHES[0] * columns, PANEL_SIZE_INCHES[1] * rows),
            squeeze=False,
            layout="constrained",
        )
        flat = [axes for row in axes_grid for axes in row]
        for axes, (panel_title, lines) in zip(flat, panels):
            _draw_percentiles(axes, lines, panel_title, shared)
        for axes in flat[len(panels) :]:
            axes.set_visible(False)
        figure.suptitle(title, fontsize=13, fontweight="bold")
        return _save(figure, path)


# --------------------------------------------------------------------------------------------------
# Transaction phases


def phases_figure(title: str, results: Sequence[Result], palette: Palette, path: Path) -> Rendered:
    """Grouped bars: one group per phase, one bar per driver; bar = p50, whisker up to p99."""
    phases = [p for p in PHASE_ORDER if any(p in r.transaction_phases for r in results)]
    phases += sorted({p for r in results for p in r.transaction_phases} - set(phases))
    width = 0.8 / max(len(results), 1)
    values: list[float] = []
    with plt.rc_context(_STYLE):
        figure, axes = plt.subplots(figsize=WIDE_SIZE_INCHES, layout="constrained")
        for index, result in enumerate(results):
            xs, p50s, p99s = [], [], []
            for position, phase in enumerate(phases):
                summary = result.transaction_phases.get(phase)
                p50 = summary.get("p50") if summary else None
                if p50 is None or p50 <= 0:
                    continue
                p99 = summary.get("p99") if summary else None
                xs.append(position - 0.4 + width * (index + 0.5))
                p50s.append(p50)
                p99s.append(max(p99 if p99 is not None else p50, p50))
            if not xs:
                continue
            colour = palette(result.driver)
            axes.bar(xs, p50s, width * 0.92, color=colour, label=result.label, edgecolor="white", linewidth=0.5,
                     hatch="//" if result.is_partial else None)
            axes.vlines(xs, p50s, p99s, color="#333333", linewidth=1.1)
            axes.plot(xs, p99s, "_", color="#333333", markersize=9, markeredgewidth=1.1)
            values += p50s + p99s
        axes.set_xticks(range(len(phases)), phases)
        axes.set_xlim(-0.6, len(phases) - 0.4)
        if values:
            # Bars need a floor on a log axis; start them a little below the smallest value.
            _set_log_ms_axis(axes, values, below=3.0, above=1.6)
        axes.set_ylabel("latency (ms, log scale) — bar: p50, whisker: p99")
        axes.set_xlabel("transaction phase")
        axes.grid(axis="x", visible=False)
        axes.legend(loc="upper left")
        figure.suptitle(title, fontsize=13, fontweight="bold")
        return _save(figure, path)


# --------------------------------------------------------------------------------------------------
# Overhead ratios


def overhead_figure(pairs: Sequence[analysis.Overhead], palette: Palette, path: Path) -> Rendered:
    scenarios = list(dict.fromkeys(pair.label for pair in pairs))
    drivers = sorted({pair.driver for pair in pairs})
    width = 0.8 / len(drivers)
    with plt.rc_context(_STYLE):
        figure, axes_pair = plt.subplots(1, 2, figsize=WIDE_SIZE_INCHES, layout="constrained", sharey=False)
        for axes, (metric, getter) in zip(
            axes_pair,
            (("median (p50) latency", lambda o: o.p50_ratio), ("total time for N operations", lambda o: o.total_ratio)),
        ):
            tallest = 1.0
            for index, driver in enumerate(drivers):
                xs, heights, labels = [], [], []
                for position, scenario in enumerate(scenarios):
                    pair = next((o for o in pairs if o.driver == driver and o.label == scenario), None)
                    ratio = getter(pair) if pair else None
                    if ratio is None:
                        continue
                    xs.append(position - 0.4 + width * (index + 0.5))
                    heights.append(ratio)
                    partial = pair is not None and (pair.tx.is_partial or pair.base.is_partial)
                    labels.append(format_ratio(ratio) + ("\npartial" if partial else ""))
                bars = axes.bar(xs, heights, width * 0.92, color=palette(driver), label=driver)
                axes.bar_label(bars, labels=labels, padding=2, fontsize=9)
                tallest = max([tallest] + heights)
            axes.axhline(1.0, color="#555555", linewidth=0.8, linestyle="--")
            axes.set_xticks(range(len(scenarios)), scenarios)
            axes.set_ylim(0, tallest * 1.18)
            axes.set_xlabel("scenario (tx-X ÷ base-X)")
            axes.set_ylabel("overhead: transactional ÷ base (×)")
            axes.set_title(f"Ratio of {metric}")
            axes.grid(axis="x", visible=False)
            axes.legend(loc="upper right")
        figure.suptitle("What transactions cost: tx ÷ base, per driver", fontsize=13, fontweight="bold")
        return _save(figure, path)


# --------------------------------------------------------------------------------------------------
# RPS sweep (seed 004)


def sweep_figure(name: str, by_driver: Mapping[str, Sequence[analysis.SweepPoint]], path: Path) -> Rendered:
    percentile_colours = plt.get_cmap("viridis")([0.0, 0.25, 0.5, 0.7, 0.86])
    rates = sorted({point.rate for points in by_driver.values() for point in points})
    values: list[float] = []
    with plt.rc_context(_STYLE):
        figure, axes = plt.subplots(figsize=WIDE_SIZE_INCHES, layout="constrained")
        for driver_index, (driver, points) in enumerate(by_driver.items()):
            style = _LINE_STYLES[driver_index % len(_LINE_STYLES)]
            marker = _MARKERS[driver_index % len(_MARKERS)]
            for colour, percentile in zip(percentile_colours, analysis.SWEEP_PERCENTILES):
                xy = [(p.rate, p.latencies_ms[percentile]) for p in points if (p.latencies_ms.get(percentile) or 0) > 0]
                if not xy:
                    continue
                axes.plot(*zip(*xy), linestyle=style, marker=marker, color=colour, linewidth=1.6, markersize=5)
                values += [v for _, v in xy]  # type: ignore[misc]
            missing = [p.rate for p in points if not any((v or 0) > 0 for v in p.latencies_ms.values())]
            for rate in missing:
                # A rate that produced no end-to-end samples stays on the axis, marked, rather than vanishing.
                axes.annotate(f"{driver}: no end-to-end data", (rate, 0.02 + 0.05 * driver_index),
                              xycoords=axes.get_xaxis_transform(), ha="center", fontsize=8, color="#777777")
            partial = [p for p in points if p.result.is_partial]
            for point in partial:
                axes.annotate("partial", (point.rate, point.latencies_ms.get(50.0) or 1.0), color=PARTIAL_COLOUR,
                              textcoords="offset points", xytext=(4, 4), fontsize=8)
        axes.set_xscale("log")
        axes.xaxis.set_major_locator(FixedLocator(rates))
        axes.xaxis.set_major_formatter(FuncFormatter(lambda value, _: format_rate(value)))
        axes.xaxis.set_minor_locator(NullLocator())
        if rates:
            axes.set_xlim(min(rates) / 1.6, max(rates) * 1.6)
        if values:
            _set_log_ms_axis(axes, values)
        axes.set_xlabel("target rate (msg/s, log scale)")
        axes.set_ylabel("end-to-end latency (ms, log scale)")
        percentile_legend = axes.legend(
            [Line2D([], [], color=c, linewidth=3) for c in percentile_colours],
            [f"p{p:g}" for p in analysis.SWEEP_PERCENTILES],
            title="percentile",
            loc="upper left",
            bbox_to_anchor=(1.01, 1.0),
        )
        axes.add_artist(percentile_legend)
        axes.legend(
            [
                Line2D([], [], color="#444444", linestyle=_LINE_STYLES[i % 4], marker=_MARKERS[i % 6])
                for i in range(len(by_driver))
            ],
            list(by_driver),
            title="driver",
            loc="upper left",
            bbox_to_anchor=(1.01, 0.55),
        )
        figure.suptitle(f"{name}: end-to-end latency against target rate", fontsize=13, fontweight="bold")
        return _save(figure, path)


# --------------------------------------------------------------------------------------------------
# Time series of one run

_RATE_SERIES = (
    ("publishRate", "publish rate (msg/s)"),
    ("consumeRate", "consume rate (msg/s)"),
    ("periods.operationRate", "operation rate (ops/s)"),
)
_LATENCY_SERIES = (
    ("publishLatency50pct", "publish p50"),
    ("publishLatency99pct", "publish p99"),
    ("endToEndLatency50pct", "end-to-end p50"),
    ("endToEndLatency99pct", "end-to-end p99"),
    ("periods.operationLatency50pctMillis", "operation p50"),
    ("periods.operationLatency99pctMillis", "operation p99"),
)
OMB_DEFAULT_REPORTING_SECONDS = 10.0


def has_time_series(result: Result) -> bool:
    return any(_drawable(result.series(name)) for name, _ in _RATE_SERIES + _LATENCY_SERIES)


def _drawable(values: Sequence[float | None]) -> bool:
    return any(v for v in values if v is not None)


def _elapsed(result: Result, length: int) -> tuple[list[float], str]:
    elapsed = result.series("periods.elapsedSeconds")
    if len(elapsed) == length and all(v is not None for v in elapsed):
        return [float(v) for v in elapsed if v is not None], "elapsed time in the measured phase (s)"
    interval = result.run_mode.reporting_interval_seconds if result.run_mode else None
    if interval:
        return [interval * (i + 1) for i in range(length)], "elapsed time in the measured phase (s)"
    return (
        [OMB_DEFAULT_REPORTING_SECONDS * (i + 1) for i in range(length)],
        "elapsed time (s, assuming OMB's 10 s reporting period)",
    )


def idle_periods(result: Result) -> set[int]:
    """Periods in which nothing was sent, received or completed: their latency lists hold 0, not a measurement."""
    rates = [result.series(name) for name, _ in _RATE_SERIES if result.series(name)]
    if not rates:
        return set()
    length = max(len(values) for values in rates)
    return {
        index
        for index in range(length)
        if all(index >= len(values) or not values[index] for values in rates)
    }


def time_series_figure(result: Result, title: str, path: Path) -> Rendered:
    idle = idle_periods(result)
    with plt.rc_context(_STYLE):
        figure, (rate_axes, latency_axes) = plt.subplots(
            2, 1, figsize=TIME_SERIES_SIZE_INCHES, sharex=True, layout="constrained"
        )
        x_label = "elapsed time (s)"
        for axes, series, y_label in (
            (rate_axes, _RATE_SERIES, "rate (msg/s or ops/s)"),
            (latency_axes, _LATENCY_SERIES, "latency (ms)"),
        ):
            drawn: list[float] = []
            for index, (name, label) in enumerate(series):
                values = result.series(name)
                if not _drawable(values):
                    continue
                xs, x_label = _elapsed(result, len(values))
                points = [
                    (x, v)
                    for index, (x, v) in enumerate(zip(xs, values))
                    if v is not None and not (axes is latency_axes and index in idle)
                ]
                if not points:
                    continue
                style = "--" if "99" in name else "-"
                axes.plot(*zip(*points), style, marker="o", markersize=3, label=label, linewidth=1.5,
                          color=_TAB10[index // 2 * 2 if axes is latency_axes else index])
                drawn += [v for _, v in points]
            axes.set_ylabel(y_label)
            if drawn:
                axes.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0))
                if axes is latency_axes and min(drawn) > 0 and max(drawn) / min(drawn) > 30:
                    _set_log_ms_axis(axes, drawn)
                    axes.set_ylabel("latency (ms, log scale)")
                elif axes is rate_axes:
                    axes.set_ylim(0, max(drawn) * 1.15)
                    axes.yaxis.set_major_formatter(FuncFormatter(lambda value, _: f"{value:,.0f}"))
                else:
                    axes.set_ylim(0, max(drawn) * 1.15)
            else:
                axes.text(0.5, 0.5, "not recorded in this result", transform=axes.transAxes, ha="center",
                          color="#777777")
        latency_axes.set_xlabel(x_label)
        # Elapsed time starts at 0, so that a run with one or two reporting periods is not drawn
        # on an axis zoomed in around them (e.g. 1.32..1.46 s).
        rate_axes.set_xlim(left=0)
        rate_axes.set_title("rates per reporting period")
        latency_axes.set_title("latency per reporting period")
        colour = PARTIAL_COLOUR if result.is_partial else "black"
        figure.suptitle(title + ("  [PARTIAL RESULT]" if result.is_partial else ""), fontsize=13,
                        fontweight="bold", color=colour)
        return _save(figure, path)
