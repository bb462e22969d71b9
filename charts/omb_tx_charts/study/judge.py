"""The verdict rule: a measured interval against a seed figure, widened by that figure's own spread.

Order of the checks (each is printed in the report as ``RULE``): a claim about another system is not applicable;
a figure that cannot fail is uninformative; a direction is read against the no-effect value; then the interval is
compared with the widened figure. The harness check (``harness.py``, ``HARNESS_RULE``) comes before all of them and
the set-up comparison (``setup.py``) labels whatever verdict results.
"""

from __future__ import annotations

import math

from .. import harness
from .seeds import SeedFigure

REPRODUCED = "reproduced"
NOT_REPRODUCED = "not reproduced"
REVERSED = "reversed"
UNINFORMATIVE = "uninformative"
NOT_APPLICABLE = "not applicable"
HARNESS_BEHIND = "not judged: harness behind"
NOT_MEASURED = "not measured"
VERDICTS = (REPRODUCED, NOT_REPRODUCED, REVERSED, UNINFORMATIVE, NOT_APPLICABLE, HARNESS_BEHIND, NOT_MEASURED)

# A widened absolute figure spanning more than this factor (an order of magnitude) admits any plausible result.
MAX_INFORMATIVE_SPAN = 10.0
# A difference of shares (percentage points) is read with this resolution each way: 3 operations in a quick run of
# 300, so a difference of a stray operation or two counts as none.
SHARE_RESOLUTION_PP = 1.0

HARNESS_RULE = ("Harness check, before any judgement: a run whose load generator fell behind is flagged (⚠) in every "
                "table that uses it and is not judged: " + harness.CRITERIA)

RULE = (
    "Verdict rule, in order. (1) Not applicable: the seed's claim is about another system than the results' "
    "(broker.system read back; e.g. seed 003's bulk insert is a Redpanda claim explained by Redpanda's protocol), "
    "until that system's results are in the inputs. (2) Uninformative: the figure cannot fail, so agreeing with it "
    "says nothing: a ratio whose seed range itself spans 1× (seed 002's run orders put durable ÷ yolo at 0.46× "
    "and 1.9×), or an absolute figure whose widened range spans more than "
    f"{MAX_INFORMATIVE_SPAN:g}× (seed 001's FetchBench on Kafka: its table says 41 ms, its own raw log 4.75 ms). "
    "(3) Each figure is widened each way by its own factor, derived from the seed's own spread for it (the "
    "widening column; a published range is used as it is, seed 001's table against its raw log where it prints "
    "one, else the seeds' run-to-run spread of 1.25×). (4) Reversed: the seed's figure lies on one side of the "
    "no-effect value (1× for a ratio, 0 for a difference) and the whole measured interval on the other (a "
    f"difference of shares is read ±{SHARE_RESOLUTION_PP:g} percentage point, 3 operations in 300). "
    "Reproduced: the interval lies on the seed's side (when the figure has a direction) and overlaps the widened "
    "figure. Not reproduced: anything else. The measured interval is the 95% interval of the median over "
    "repetitions; with fewer than 3 there is none, the median stands in for it and the verdict is provisional. "
    "Not measured: no complete result for it. A verdict whose set-up differs from the seed's in a field the "
    "finding depends on (the ≠ in the set-up column) is labelled \"set-up differs\": it is a verdict on another "
    "set-up than the seed's."
)


def uninformative(figure: SeedFigure, reference: float | None) -> str:
    """Why the figure cannot fail ("" when it can)."""
    if figure.direction_only or math.isinf(figure.low):
        return ""
    if reference is not None and figure.low < reference < figure.high:
        return (f"the seed's own figures lie on both sides of {reference:g}{figure.unit if figure.unit == '×' else ''}"
                " (no direction): any result near or around it agrees")
    low, high = figure.widened
    if reference is None and low > 0 and high / low > MAX_INFORMATIVE_SPAN:
        return (f"widened by the seed's own spread ({figure.widening:.2g}×) the figure spans "
                f"{high / low:.0f}× ({low:.3g}–{high:.3g} {figure.unit}): any plausible result agrees")
    return ""


def judge(bounds: tuple[float, float], figure: SeedFigure, reference: float | None) -> str:
    """The verdict for a measured interval (or a lone median) against a figure of the results' own system."""
    if uninformative(figure, reference):
        return UNINFORMATIVE
    low, high = bounds
    if figure.unit == "pp":
        low, high = low - SHARE_RESOLUTION_PP, high + SHARE_RESOLUTION_PP
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
    widened_low, widened_high = figure.widened
    return REPRODUCED if low <= widened_high and high >= widened_low else NOT_REPRODUCED


def judge_knee(bounds: tuple[float, float], figure: SeedFigure) -> str:
    low, high = bounds
    if math.isinf(figure.low):  # the seed saw no knee
        return REPRODUCED if math.isinf(high) else NOT_REPRODUCED
    widened_low, widened_high = figure.widened
    return REPRODUCED if low <= widened_high and high >= widened_low else NOT_REPRODUCED
