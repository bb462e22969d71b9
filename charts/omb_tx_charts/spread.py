"""Repetitions drawn as a spread: the runs of one repetition group are one variant, charted by their median
repetition with the others' range around it.

The convention, used in every figure and table of the report (and written in their captions and in
charts/README.md): a value over n > 1 repetitions is the median of the repetitions' values, shown with the
range [min–max] and "n = N"; a curve or bar is drawn from the *median repetition* — the run whose operation p50
(publish p50 when it has no operation latency, msg/s when it has neither) is the median, the lower of the two
middle ones when n is even — and the other repetitions appear as a shaded min–max band or as a range whisker.
A variant run once is drawn and tabled as before.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Callable, Hashable, Iterable, Sequence
from dataclasses import dataclass

from . import analysis, repetitions
from .formatting import format_ms
from .model import Result


def group_key(result: Result) -> Hashable:
    """Runs with this key are repetitions of one variant: same run (repetitions.run_key) and repetition group."""
    group = result.repetition.group if result.repetition is not None else None
    return repetitions.run_key(result), group or ("file", str(result.path))


def _ranking_value(result: Result) -> float:
    value = analysis.percentile_value_ms(result, analysis.OPERATION, 50.0)
    if value is None:
        value = analysis.percentile_value_ms(result, analysis.PUBLISH, 50.0)
    if value is None and result.summary is not None:
        value = result.summary.messages_per_second
    return value if value is not None else math.inf


class Repetitions:
    """The repetition groups among a report's current results."""

    def __init__(self, results: Iterable[Result]) -> None:
        groups: dict[Hashable, list[Result]] = {}
        for result in results:
            groups.setdefault(group_key(result), []).append(result)
        self._groups = groups
        self._median: dict[int, Result] = {}
        for members in groups.values():
            ranked = sorted(members, key=lambda r: (_ranking_value(r), r.path.name))
            representative = ranked[(len(ranked) - 1) // 2]
            for member in members:
                self._median[id(member)] = representative

    def representatives(self, results: Iterable[Result]) -> list[Result]:
        """``results`` with each repetition group replaced by its median repetition (order kept, once each)."""
        seen: set[int] = set()
        chosen = []
        for result in results:
            representative = self._median.get(id(result), result)
            if id(representative) not in seen:
                seen.add(id(representative))
                chosen.append(representative)
        return chosen

    def of(self, result: Result) -> list[Result]:
        """All repetitions of ``result``'s variant (itself included), by repetition index then file name."""
        members = self._groups.get(group_key(result), [result])
        return sorted(members, key=lambda r: (r.repetition.index if r.repetition else 0, r.path.name))

    def count(self, result: Result) -> int:
        return len(self.of(result))

    def label(self, label: str, result: Result) -> str:
        """A legend label with "(n = N)" when the variant was repeated."""
        n = self.count(result)
        return f"{label} (n = {n})" if n > 1 else label


SINGLE = Repetitions(())  # no repetitions known: every run stands alone (figures drawn outside a report)


@dataclass(frozen=True)
class Spread:
    """One quantity over the repetitions of a variant."""

    values: tuple[float, ...]

    @property
    def n(self) -> int:
        return len(self.values)

    @property
    def median(self) -> float:
        return statistics.median(self.values)

    @property
    def low(self) -> float:
        return min(self.values)

    @property
    def high(self) -> float:
        return max(self.values)


def spread(runs: Sequence[Result], value: Callable[[Result], float | None]) -> Spread | None:
    """``value`` of each run that has one; None when none has."""
    values = tuple(v for r in runs if (v := value(r)) is not None)
    return Spread(values) if values else None


def format_spread(found: Spread | None, fmt: Callable[[float], str], unit: str = "") -> str:
    """"12.3 ms" for one run; "12.3 ms [11.9–13.0] n = 3" (median, range, count) for several."""
    if found is None:
        return "-"
    text = f"{fmt(found.median)}{unit}"
    if found.n > 1:
        text += f" [{fmt(found.low)}–{fmt(found.high)}] n = {found.n}"
    return text


def ms_spread(found: Spread | None) -> str:
    return format_spread(found, format_ms, " ms")


CONVENTION = (
    "Repetitions (runs of one repetition group: --repeat, a suite's repeat or interleave) are shown as a spread: "
    "a value is the median over the n repetitions with its range, median [min–max] n = N; a curve or bar is the "
    "median repetition (the run whose median latency is the median, the lower middle one when n is even) with "
    "the other repetitions as a shaded min–max band or a range whisker. A variant run once is shown as it is."
)


def ratio_spread(tx_runs: Sequence[Result], base_runs: Sequence[Result],
                 value: Callable[[Result], float | None]) -> Spread | None:
    """tx ÷ base over repetitions: repetition i of tx with repetition i of base when both were repeated with the
    same indices (interleaved runs: A B A B ...), otherwise every tx run with every base run."""
    def index(run: Result) -> int | None:
        return run.repetition.index if run.repetition is not None else None

    tx_by_index = {index(r): r for r in tx_runs}
    base_by_index = {index(r): r for r in base_runs}
    if len(tx_by_index) == len(tx_runs) and tx_by_index.keys() == base_by_index.keys():
        pairs = [(tx_by_index[i], base_by_index[i]) for i in tx_by_index]
    else:
        pairs = [(t, b) for t in tx_runs for b in base_runs]
    ratios = []
    for tx, base in pairs:
        numerator, denominator = value(tx), value(base)
        if numerator is not None and denominator:
            ratios.append(numerator / denominator)
    return Spread(tuple(ratios)) if ratios else None
