"""Matplotlib figures (Agg backend). Each function draws one PNG and returns its pixel size."""

from __future__ import annotations

import math
import statistics
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402  (the backend must be chosen first)
from matplotlib.axes import Axes  # noqa: E402
from matplotlib.lines import Line2D  # noqa: E402
from matplotlib.patches import Patch  # noqa: E402
from matplotlib.ticker import FixedLocator, FuncFormatter, NullFormatter, NullLocator  # noqa: E402

from . import analysis  # noqa: E402
from .formatting import format_rate, format_ratio  # noqa: E402
from .model import PHASE_ORDER, Result  # noqa: E402

DPI = 100
PANEL_SIZE_INCHES = (6.4, 4.8)
WIDE_SIZE_INCHES = (11.0, 5.6)
TIME_SERIES_SIZE_INCHES = (11.0, 7.0)
MAX_PANELS_PER_ROW = 2  # 2 × 640 px: a figure shown at (nearly) its own size on a 1280-px screen
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


def series_colour(index: int) -> str:
    """The index-th colour of matplotlib's default cycle, for series that are not drivers."""
    return _TAB10[index % len(_TAB10)]


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
    band: tuple[analysis.Curve, ...] = ()  # the other repetitions' curves: drawn as a shaded min–max band


def band_bounds(line: CurveLine) -> tuple[list[float], list[float], list[float]]:
    """(percentiles, lows, highs): the min and max over the line's curve and its band's curves at the line's
    percentiles, where every curve reaches (a curve is interpolated on the 1/(1-p) axis between its points)."""
    curves = (line.curve,) + tuple(line.band)
    reach = min(c.percentiles[-1] for c in curves)
    percentiles, lows, highs = [], [], []
    for percentile in line.curve.percentiles:
        if percentile > reach + 1e-9:
            break
        values = [_curve_value(c, percentile) for c in curves]
        percentiles.append(percentile)
        lows.append(min(values))
        highs.append(max(values))
    return percentiles, lows, highs


def _curve_value(curve: analysis.Curve, percentile: float) -> float:
    xs = [math.log(_inverse_tail(p)) for p in curve.percentiles]
    x = math.log(_inverse_tail(percentile))
    for index in range(1, len(xs)):
        if x <= xs[index] + 1e-12:
            left, right = xs[index - 1], xs[index]
            share = 0.0 if right == left else max(0.0, (x - left) / (right - left))
            return curve.values_ms[index - 1] + share * (curve.values_ms[index] - curve.values_ms[index - 1])
    return curve.values_ms[-1]


def _inverse_tail(percentile: float) -> float:
    return 1.0 / (1.0 - percentile / 100.0)


def _percentile_label(inverse_tail: float) -> str:
    percentile = 100.0 * (1.0 - 1.0 / inverse_tail)
    return f"{percentile:.10g}%"


def _draw_percentiles(axes: Axes, lines: Sequence[CurveLine], title: str, shared_values: Sequence[float] = ()) -> None:
    all_values: list[float] = []
    widest = 10.0
    any_max = False
    any_band = False
    for line in lines:
        xs = [_inverse_tail(p) for p in line.curve.percentiles]
        ys = list(line.curve.values_ms)
        # Quantile maps and summaries are sparse in the tail: mark their points so straight segments
        # between 99% and 99.9% are not read as measured.
        sparse = [i for i, p in enumerate(line.curve.percentiles) if p >= 90.0]
        is_sparse = line.curve.source != "HdrHistogram" and len(sparse) <= 20
        markers: dict[str, Any] = {"marker": "o", "markersize": 3.5, "markevery": sparse} if is_sparse else {}
        if line.curve.max_ms is not None:
            # The curve runs on to the slowest sample, so the tail is as long as the tables' max.
            xs.append(max_position(line.curve))
            ys.append(line.curve.max_ms)
            any_max = True
        axes.plot(xs, ys, line.style, color=line.colour, label=line.label, linewidth=1.8, **markers)
        if line.band:
            levels, lows, highs = band_bounds(line)
            axes.fill_between([_inverse_tail(p) for p in levels], lows, highs, color=line.colour, alpha=0.2,
                              linewidth=0)
            all_values.extend(lows + highs)
            any_band = True
        if line.curve.max_ms is not None:
            axes.plot([xs[-1]], [ys[-1]], "^", color=line.colour, markersize=7, markeredgecolor="#222222",
                      markeredgewidth=0.6, zorder=5)
        all_values.extend(ys)
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
    handles, labels = axes.get_legend_handles_labels()
    if any_max:
        handles.append(Line2D([], [], marker="^", linestyle="", color="#777777", markeredgecolor="#222222"))
        labels.append("max (slowest sample)")
    if any_band:
        handles.append(Patch(facecolor="#999999", alpha=0.35))
        labels.append("min–max over repetitions")
    axes.legend(handles, labels, loc="best")  # rising curves: "best" keeps the legend off them


def max_position(curve: analysis.Curve) -> float:
    """Where the slowest sample is drawn on the 1/(1-p) axis: at the sample count N (the last of N samples sits
    beyond the 100(1-1/N)th percentile), or one step past the last percentile when N is unknown."""
    last = _inverse_tail(curve.percentiles[-1])
    return max(float(curve.count), last) if curve.count else last * 2.0


def percentile_figure(
    title: str, panels: Sequence[tuple[str, Sequence[CurveLine]]], path: Path, share_y: bool = False
) -> Rendered:
    """One panel per entry; ``share_y`` gives every panel the same latency range, for comparing them."""
    rows, columns = _grid(len(panels))
    shared = [v for _, lines in panels for line in lines for curve in (line.curve,) + tuple(line.band)
              for v in curve.values_ms] if share_y else []
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


@dataclass(frozen=True)
class PhaseBar:
    label: str
    colour: str
    result: Result
    phases: Sequence[str]  # the phases this run's bars show
    hatch: str | None = None
    repetitions: tuple[Result, ...] = ()  # all repetitions of the run's variant (itself included), when n > 1


def phase_values(bar: PhaseBar, phase: str, key: str) -> list[float]:
    """``key`` (p50, p99) of ``phase`` in each repetition of the bar's run (only the run itself when it was not
    repeated)."""
    values = []
    for run in bar.repetitions or (bar.result,):
        summary = run.transaction_phases.get(phase) if phase in bar.phases else None
        value = summary.get(key) if summary else None
        if value is not None and value > 0:
            values.append(value)
    return values


def phases_figure(title: str, results: Sequence[Result], palette: Palette, path: Path) -> Rendered:
    """Grouped bars: one group per phase, one bar per driver; bar = p50, whisker up to p99. A non-transactional
    run has no "transaction" bar (its whole operation is not a transaction)."""
    bars = [PhaseBar(r.label, palette(r.driver), r, analysis.charted_phases(r), "//" if r.is_partial else None)
            for r in results]
    return phase_comparison_figure(title, [("", bars)], path)


def _phase_order(bars: Sequence[PhaseBar]) -> list[str]:
    present = {p for bar in bars for p in bar.phases}
    return [p for p in PHASE_ORDER if p in present] + sorted(present - set(PHASE_ORDER))


def phase_comparison_figure(title: str, panels: Sequence[tuple[str, Sequence[PhaseBar]]], path: Path) -> Rendered:
    """One panel per entry, sharing one latency axis: groups per phase, one bar per run (p50, whisker to p99)."""
    values = [
        v
        for _, bars in panels
        for bar in bars
        for phase in bar.phases
        for key in ("p50", "p99")
        for v in phase_values(bar, phase, key)
    ]
    columns = min(len(panels), 2)
    rows = math.ceil(len(panels) / columns)
    width = WIDE_SIZE_INCHES[0] if columns == 1 else 7.0 * columns
    with plt.rc_context(_STYLE):
        figure, axes_grid = plt.subplots(rows, columns, figsize=(width, WIDE_SIZE_INCHES[1] * rows), squeeze=False,
                                         layout="constrained")
        flat = [axes for row in axes_grid for axes in row]
        for axes, (panel_title, bars) in zip(flat, panels):
            _draw_phase_bars(axes, bars, values)
            if panel_title:
                axes.set_title(panel_title)
        for axes in flat[len(panels):]:
            axes.set_visible(False)
        # One legend for all panels, under them: inside a panel it would cover the bars.
        legend: dict[str, Any] = {}
        for axes in flat[: len(panels)]:
            for handle, label in zip(*axes.get_legend_handles_labels()):
                legend.setdefault(label, handle)
        figure.legend(list(legend.values()), list(legend), loc="outside lower center",
                      ncols=min(3, max(1, len(legend))), fontsize=9)
        figure.suptitle(title, fontsize=13, fontweight="bold")
        return _save(figure, path)


def _draw_phase_bars(axes: Axes, bars: Sequence[PhaseBar], shared_values: Sequence[float]) -> None:
    phases = _phase_order(bars)
    width = 0.8 / max(len(bars), 1)
    any_repeated = False
    for index, bar in enumerate(bars):
        xs, p50s, p99s, dots_x, dots_y = [], [], [], [], []
        for position, phase in enumerate(phases):
            medians = phase_values(bar, phase, "p50")
            if not medians:
                continue
            p50 = statistics.median(medians)
            tails = phase_values(bar, phase, "p99")
            p99 = statistics.median(tails) if tails else p50
            x = position - 0.4 + width * (index + 0.5)
            xs.append(x)
            p50s.append(p50)
            p99s.append(max(p99, p50))
            if len(medians) > 1:
                dots_x += [x] * len(medians)
                dots_y += medians
        if not xs:
            continue
        axes.bar(xs, p50s, width * 0.92, color=bar.colour, label=bar.label, edgecolor="white", linewidth=0.5,
                 hatch=bar.hatch)
        axes.vlines(xs, p50s, p99s, color="#333333", linewidth=1.1)
        axes.plot(xs, p99s, "_", color="#333333", markersize=9, markeredgewidth=1.1)
        if dots_x:
            any_repeated = True
            axes.plot(dots_x, dots_y, "o", color="white", markeredgecolor="#111111", markersize=3.6,
                      markeredgewidth=0.8, zorder=4, label="p50 of each repetition")
    axes.set_xticks(range(len(phases)), phases)
    axes.set_xlim(-0.6, len(phases) - 0.4)
    if shared_values:
        # Bars need a floor on a log axis; start them a little below the smallest value.
        _set_log_ms_axis(axes, shared_values, below=3.0, above=1.6)
    axes.set_ylabel("latency (ms, log scale) — bar: p50, whisker: p99"
                    + ("\n(medians over repetitions; dots: each repetition's p50)" if any_repeated else ""))
    axes.set_xlabel("phase")
    axes.grid(axis="x", visible=False)


# --------------------------------------------------------------------------------------------------
# Seed 003's bulk insert: throughput side by side


def _spread_whiskers(axes: Axes, xs: Sequence[float], spreads: Sequence[Any]) -> bool:
    """Min–max whiskers over repetitions where a bar stands for more than one run; True when any was drawn."""
    repeated = [(x, s) for x, s in zip(xs, spreads) if s is not None and s.n > 1]
    if repeated:
        axes.errorbar([x for x, _ in repeated], [s.median for _, s in repeated],
                      yerr=[[s.median - s.low for _, s in repeated], [s.high - s.median for _, s in repeated]],
                      fmt="none", ecolor="#222222", elinewidth=1.2, capsize=4)
    return bool(repeated)


def _label_bars(axes: Axes, bars: Any, heights: Sequence[float], spreads: Sequence[Any], labels: Sequence[str]) -> None:
    """Each bar's text above the bar, or above its whisker when it has one, so neither hides the other."""
    for bar, height, found, text in zip(bars, heights, spreads, labels):
        top = max(height, found.high) if found is not None else height
        axes.annotate(text, (bar.get_x() + bar.get_width() / 2, top), xytext=(0, 3), textcoords="offset points",
                      ha="center", va="bottom", fontsize=9)


def _bar_text(text: str, found: Any) -> str:
    return f"{text}\nn = {found.n}" if found is not None and found.n > 1 else text


def bulk_figure(pairs: Sequence[Any], path: Path, rates: Callable[[Result], Any] | None = None) -> Rendered:
    """Two bars per variant (bulk-tx, bulk-acks-all): msg/s from summary.messagesPerSecond, values on the bars.
    ``rates`` gives a run's msg/s over its repetitions (a spread.Spread): the bar is then their median and a
    whisker spans their min–max."""
    sides = (("bulk-tx (one transaction)", "tx", "#1f77b4"), ("bulk-acks-all (acks=all, no transaction)",
                                                              "acks_all", "#ff7f0e"))
    with plt.rc_context(_STYLE):
        figure, axes = plt.subplots(figsize=(max(6.4, 2.4 * len(pairs) + 2.0), 4.8), layout="constrained")
        tallest = 0.0
        for index, (label, attribute, colour) in enumerate(sides):
            xs, heights, found = [], [], []
            for position, pair in enumerate(pairs):
                run = getattr(pair, attribute)
                over = rates(run) if rates is not None and run is not None else None
                rate = over.median if over is not None else pair.rate(run)
                if rate:
                    xs.append(position - 0.2 + 0.4 * index)
                    heights.append(rate)
                    found.append(over)
            bars = axes.bar(xs, heights, 0.38, color=colour, label=label)
            _spread_whiskers(axes, xs, found)
            _label_bars(axes, bars, heights, found, [_bar_text(f"{h:,.0f}", f) for h, f in zip(heights, found)])
            tallest = max([tallest] + heights + [f.high for f in found if f is not None])
        axes.set_xticks(range(len(pairs)), [pair.variant for pair in pairs])
        axes.set_ylim(0, tallest * 1.2 if tallest else 1)
        axes.yaxis.set_major_formatter(FuncFormatter(lambda value, _: f"{value:,.0f}"))
        axes.set_ylabel("throughput (msg/s)")
        axes.grid(axis="x", visible=False)
        # Under the axes: inside, it would cover the values written above the bars and whiskers.
        figure.legend(loc="outside lower center", ncols=2, fontsize=9)
        figure.suptitle("Seed 003: transactional vs naive bulk insert", fontsize=13, fontweight="bold")
        return _save(figure, path)


def acks_figure(groups: Mapping[str, Sequence[analysis.AcksRow]], path: Path,
                rates: Callable[[Result], Any] | None = None) -> Rendered:
    """Seed 002's profiles side by side: msg/s (summary.messagesPerSecond) per profile, one bar per group
    (driver, broker version, message count), values on the bars. ``rates`` gives a run's msg/s over its
    repetitions (a spread.Spread): the bar is then their median, a whisker their min–max."""
    profiles = list(dict.fromkeys(row.profile for rows in groups.values() for row in rows))
    width = 0.8 / max(len(groups), 1)
    with plt.rc_context(_STYLE):
        figure, axes = plt.subplots(figsize=(max(6.4, 2.2 * len(profiles) * max(1, len(groups)) / 2 + 2), 4.8),
                                    layout="constrained")
        tallest = 0.0
        for index, (label, rows) in enumerate(groups.items()):
            xs, heights, found = [], [], []
            for row in rows:
                over = rates(row.result) if rates is not None else None
                if row.messages_per_second:
                    xs.append(profiles.index(row.profile) - 0.4 + width * (index + 0.5))
                    heights.append(over.median if over is not None else row.messages_per_second)
                    found.append(over)
            bars = axes.bar(xs, heights, width * 0.92, color=series_colour(index), label=label,
                            hatch=["//" if r.result.is_partial else None for r in rows if r.messages_per_second])
            _spread_whiskers(axes, xs, found)
            _label_bars(axes, bars, heights, found, [_bar_text(f"{h:,.0f}", f) for h, f in zip(heights, found)])
            tallest = max([tallest] + heights + [f.high for f in found if f is not None])
        axes.set_xticks(range(len(profiles)), profiles)
        axes.set_ylim(0, tallest * 1.2 if tallest else 1)
        axes.yaxis.set_major_formatter(FuncFormatter(lambda value, _: f"{value:,.0f}"))
        axes.set_ylabel("throughput (msg/s)")
        axes.grid(axis="x", visible=False)
        axes.legend(loc="upper right", fontsize=8)
        figure.suptitle("Seed 002: msg/s per SLA profile", fontsize=13, fontweight="bold")
        return _save(figure, path)


# --------------------------------------------------------------------------------------------------
# Overhead ratios


def overhead_figure(pairs: Sequence[analysis.Overhead], palette: Palette, path: Path,
                    key: Callable[[Result], str] | None = None,
                    ratios: Callable[[analysis.Overhead, str], Any] | None = None) -> Rendered:
    """Bars of tx ÷ base per scenario, one per driver (or per ``key`` of the tx run, e.g. driver and broker).
    ``ratios(pair, "p50" | "total")`` gives the ratio over repetitions (a spread.Spread): the bar is then the
    median and a whisker spans min–max."""
    scenarios = list(dict.fromkeys(pair.label for pair in pairs))
    variant = (lambda pair: key(pair.tx)) if key is not None else (lambda pair: pair.driver)
    drivers = list(dict.fromkeys(variant(pair) for pair in sorted(pairs, key=lambda o: (o.driver, variant(o)))))
    width = 0.8 / len(drivers)
    with plt.rc_context(_STYLE):
        figure, axes_pair = plt.subplots(1, 2, figsize=WIDE_SIZE_INCHES, layout="constrained", sharey=False)
        for axes, (metric, which, getter) in zip(
            axes_pair,
            (("median (p50) latency", "p50", lambda o: o.p50_ratio),
             ("total time for N operations", "total", lambda o: o.total_ratio)),
        ):
            tallest = 1.0
            for index, driver in enumerate(drivers):
                xs, heights, labels, found = [], [], [], []
                for position, scenario in enumerate(scenarios):
                    pair = next((o for o in pairs if variant(o) == driver and o.label == scenario), None)
                    over = ratios(pair, which) if pair and ratios is not None else None
                    ratio = over.median if over is not None else (getter(pair) if pair else None)
                    if ratio is None:
                        continue
                    xs.append(position - 0.4 + width * (index + 0.5))
                    heights.append(ratio)
                    found.append(over)
                    partial = pair is not None and (pair.tx.is_partial or pair.base.is_partial)
                    labels.append(_bar_text(format_ratio(ratio), over) + ("\npartial" if partial else ""))
                bars = axes.bar(xs, heights, width * 0.92, color=palette(driver), label=driver)
                _spread_whiskers(axes, xs, found)
                _label_bars(axes, bars, heights, found, labels)
                tallest = max([tallest] + heights + [f.high for f in found if f is not None])
            axes.axhline(1.0, color="#555555", linewidth=0.8, linestyle="--")
            axes.set_xticks(range(len(scenarios)), scenarios)
            axes.set_ylim(0, tallest * 1.18)
            axes.set_xlabel("scenario (tx-X ÷ base-X)")
            axes.set_ylabel("overhead: transactional ÷ base (×)")
            axes.set_title(f"Ratio of {metric}")
            axes.grid(axis="x", visible=False)
            axes.legend(loc="upper right")
        figure.suptitle("What transactions cost: tx ÷ base, per system and driver", fontsize=13, fontweight="bold")
        return _save(figure, path)


# --------------------------------------------------------------------------------------------------
# RPS sweep (seed 004)


# Seed 004's rates: a line joins two measured rates only when no rate of this grid lies between them, so a sweep
# that skipped rates (1K, then 25K) is not drawn as a gradual rise where the seed found a knee.
SWEEP_GRID = (1_000.0, 5_000.0, 10_000.0, 25_000.0, 50_000.0, 100_000.0)


def grid_segments(points: Sequence[tuple[float, float]]) -> list[list[tuple[float, float]]]:
    """Consecutive (rate, value) points split wherever a rate of SWEEP_GRID was not run between two of them."""
    segments: list[list[tuple[float, float]]] = []
    for point in sorted(points):
        if segments and not any(segments[-1][-1][0] < rate < point[0] for rate in SWEEP_GRID):
            segments[-1].append(point)
        else:
            segments.append([point])
    return segments


def sweep_figure(name: str, by_driver: Mapping[str, Sequence[analysis.SweepPoint]], path: Path,
                 spreads: Callable[[analysis.SweepPoint, float], Any] | None = None) -> Rendered:
    """Percentiles against target rate. ``spreads(point, percentile)`` gives the value over the point's
    repetitions (a spread.Spread): the line then runs through their medians, a whisker spans min–max."""
    percentile_colours = plt.get_cmap("viridis")([0.0, 0.25, 0.5, 0.7, 0.86])
    rates = sorted({point.rate for points in by_driver.values() for point in points})
    values: list[float] = []
    with plt.rc_context(_STYLE):
        figure, axes = plt.subplots(figsize=WIDE_SIZE_INCHES, layout="constrained")
        for driver_index, (driver, points) in enumerate(by_driver.items()):
            style = _LINE_STYLES[driver_index % len(_LINE_STYLES)]
            marker = _MARKERS[driver_index % len(_MARKERS)]
            for colour, percentile in zip(percentile_colours, analysis.SWEEP_PERCENTILES):
                present = [p for p in points if (p.latencies_ms.get(percentile) or 0) > 0]
                if not present:
                    continue
                over = [spreads(p, percentile) if spreads is not None else None for p in present]
                xy = [(p.rate, f.median if f is not None else p.latencies_ms[percentile])
                      for p, f in zip(present, over)]
                for segment in grid_segments(xy):
                    axes.plot(*zip(*segment), linestyle=style, marker=marker, color=colour, linewidth=1.6,
                              markersize=5)
                repeated = [(x, f) for (x, _), f in zip(xy, over) if f is not None and f.n > 1]
                if repeated:
                    axes.errorbar([x for x, _ in repeated], [f.median for _, f in repeated],
                                  yerr=[[f.median - f.low for _, f in repeated],
                                        [f.high - f.median for _, f in repeated]],
                                  fmt="none", ecolor=colour, elinewidth=1.0, capsize=3)
                    values += [f.low for _, f in repeated] + [f.high for _, f in repeated]
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


MIN_TREND_PERIODS = 5


def has_time_series(result: Result) -> bool:
    """Whether a run has enough reporting periods for a trend: one or two points show no trend, and their
    figures only repeat the run's summary."""
    drawable = [name for name, _ in _RATE_SERIES + _LATENCY_SERIES if _drawable(result.series(name))]
    return bool(drawable) and max(len(result.series(name)) for name in drawable) >= MIN_TREND_PERIODS


def _drawable(values: Sequence[float | None]) -> bool:
    return any(v for v in values if v is not None)


MEASURED_AXIS_LABEL = "time since the measured phase started (s)"
WARM_UP_SHIFT_MIN_SECONDS = 0.5


def _elapsed(result: Result, length: int, name: str = "periods.elapsedSeconds") -> tuple[list[float], str]:
    """Where each period of series ``name`` ended, in seconds since the measured phase started. OMB's lists
    (publishRate, …) may have longer periods than omb-tx's ``periods`` (runMode.ombPeriodSeconds: the runner
    merges short reporting periods into OMB's 10-s ones); each then ends where its last merged period ended.
    Files from runners that counted from the start of the warm-up (the last period then ends well after the
    measured duration: by more than 0.5 s and 10% of it, beyond the teardown's slack) are shifted back by the
    difference, so periods that ended before the measurement began fall below 0 and are left out."""
    elapsed = [float(v) for v in result.series("periods.elapsedSeconds") if v is not None]
    run_mode = result.run_mode
    interval = run_mode.reporting_interval_seconds if run_mode else None
    if len(elapsed) != len(result.series("periods.elapsedSeconds")):
        elapsed = []
    if elapsed and len(elapsed) != length and not name.startswith("periods."):
        omb = run_mode.omb_period_seconds if run_mode else None
        per_group = round(omb / interval) if omb and interval else 0
        if per_group > 1 and math.ceil(len(elapsed) / per_group) == length:
            elapsed = [elapsed[min(len(elapsed), (i + 1) * per_group) - 1] for i in range(length)]
    if elapsed and len(elapsed) == length:
        duration = result.summary.duration_seconds if result.summary else None
        if duration and elapsed[-1] - duration > max(WARM_UP_SHIFT_MIN_SECONDS, 0.1 * duration):
            shift = elapsed[-1] - duration
            return [v - shift for v in elapsed], MEASURED_AXIS_LABEL + ", warm-up left out"
        return elapsed, MEASURED_AXIS_LABEL
    period = (run_mode.omb_period_seconds or interval) if run_mode else None
    if period:
        return [period * (i + 1) for i in range(length)], MEASURED_AXIS_LABEL
    return (
        [OMB_DEFAULT_REPORTING_SECONDS * (i + 1) for i in range(length)],
        "time since the measured phase started (s, assuming OMB's 10 s reporting period)",
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
                xs, x_label = _elapsed(result, len(values), name)
                points = [
                    (x, v)
                    for index, (x, v) in enumerate(zip(xs, values))
                    if v is not None and x > 0 and not (axes is latency_axes and index in idle)
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


def capacity_figure(name: str, axis_label: str, series: Mapping[str, Sequence[Any]], path: Path) -> Rendered:
    """Capacity curves (capacity.Point series): achieved against asked rate (a point not held is hollow), and the
    publish p99, against the swept value (offered rate or producers)."""
    xs = sorted({p.x for points in series.values() for p in points})
    with plt.rc_context(_STYLE):
        fig, (rate_axes, latency_axes) = plt.subplots(1, 2, figsize=WIDE_SIZE_INCHES, layout="constrained")
        targets = sorted({(p.x, p.target) for points in series.values() for p in points})
        rate_axes.plot([x for x, _ in targets], [t for _, t in targets], linestyle="--", color="#888888",
                       linewidth=1.0, label="target")
        for index, (label, points) in enumerate(series.items()):
            colour = series_colour(index)
            rate_axes.plot([p.x for p in points], [p.achieved for p in points], color=colour, linewidth=1.6,
                           label=label)
            for p in points:
                rate_axes.plot([p.x], [p.achieved], marker="o", markersize=7, color=colour,
                               markerfacecolor=colour if p.held else "white")
            latency = [p for p in points if p.p99_ms is not None and p.p99_ms > 0]
            latency_axes.plot([p.x for p in latency], [p.p99_ms for p in latency], color=colour, marker="o",
                              linewidth=1.6, label=label)
        for axes in (rate_axes, latency_axes):
            axes.set_xscale("log")
            axes.xaxis.set_major_locator(FixedLocator(xs))
            axes.xaxis.set_major_formatter(FuncFormatter(lambda value, _: format_rate(value)))
            axes.xaxis.set_minor_locator(NullLocator())
            axes.set_xlabel(axis_label)
        rate_axes.set_ylim(bottom=0)  # linear from 0: a shortfall reads as the share it is
        rate_axes.yaxis.set_major_formatter(FuncFormatter(lambda value, _: format_rate(value)))
        rate_axes.set_ylabel("achieved rate (msg/s)")
        rate_axes.set_title(f"{name}: rate (hollow: not held)")
        rate_axes.legend(loc="best")
        latency_axes.set_yscale("log")
        latency_axes.yaxis.set_major_formatter(FuncFormatter(lambda value, _: f"{value:g}"))
        latency_axes.set_ylabel("publish latency p99 (ms, log scale)")
        latency_axes.set_title(f"{name}: publish p99 (to the ack, or to the commit)")
        latency_axes.legend(loc="best")
        return _save(fig, path)
