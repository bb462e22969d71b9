"""Capacity curves (OMB's question at scale): achieved rate and p99 against the offered rate, and against the number
of producers, transactional beside plain, from open-loop sweeps whose results carry a rate verdict (``rate``)."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from . import analysis
from .formatting import format_rate
from .model import Result
from .tables import Table

# The swept parameters a capacity curve is drawn against, and how its axis is named.
PARAMETERS = {"producerRate": "offered rate (msg/s, log scale)", "producersPerTopic": "producers (log scale)"}


@dataclass(frozen=True)
class Point:
    x: float  # the swept value
    target: float  # msg/s asked
    achieved: float  # msg/s sent in the measured phase
    held: bool
    limited_by: str | None
    p99_ms: float | None  # publish latency p99: to the ack, or to the commit of the message's transaction
    result: Result


def family(sweep_name: str) -> str:
    """The curve family a sweep belongs to: tx-rate and base-rate are one comparison, ``rate``."""
    for prefix in ("tx-", "base-"):
        if sweep_name.startswith(prefix):
            return sweep_name[len(prefix):]
    return sweep_name


def series_label(result: Result, drivers: int, cluster_sizes: int = 1) -> str:
    kind = "transactional" if result.scenario.get("transactional") else "plain"
    churn = result.scenario.get("transactionsPerProducer")
    if churn:
        kind += f", a new producer every {churn} tx"
    label = f"{result.driver}, {kind}" if drivers > 1 else kind
    if cluster_sizes > 1:
        label += f", {result.broker_count} broker(s)"
    return label


def curves(results: Sequence[Result]) -> dict[tuple[str, str], dict[str, list[Point]]]:
    """(family, parameter) -> series (transactional / plain, per driver) -> points sorted by the swept value."""
    swept = [r for r in results
             if r.sweep is not None and r.sweep.parameter in PARAMETERS and r.rate is not None
             and isinstance(r.sweep.value, (int, float))]
    drivers = len({r.driver for r in swept})
    cluster_sizes = len({r.broker_count for r in swept})
    grouped: dict[tuple[str, str], dict[str, list[Point]]] = defaultdict(lambda: defaultdict(list))
    for r in swept:
        assert r.sweep is not None and r.rate is not None
        grouped[(family(r.sweep.name), r.sweep.parameter)][series_label(r, drivers, cluster_sizes)].append(Point(
            x=float(r.sweep.value), target=r.rate.target, achieved=r.rate.achieved, held=r.rate.held,
            limited_by=r.rate.limited_by, p99_ms=analysis.percentile_value_ms(r, analysis.PUBLISH, 99.0), result=r))
    return {key: {label: sorted(points, key=lambda p: p.x) for label, points in sorted(series.items())}
            for key, series in sorted(grouped.items())}


def table(name: str, parameter: str, series: Mapping[str, Sequence[Point]]) -> Table:
    rows = []
    for label, points in series.items():
        for p in points:
            rows.append((
                label,
                format_rate(p.x),
                f"{p.target:,.0f}",
                f"{p.achieved:,.0f}",
                f"{p.achieved / p.target:.1%}" if p.target > 0 else "—",
                "held" if p.held else f"NOT held ({p.limited_by or 'cause unknown'})",
                "—" if p.p99_ms is None else f"{p.p99_ms:,.1f}",
                busiest_coordinator(p.result),
                p.result.path.name,
            ))
    return Table(
        f"{name}: capacity by {parameter}",
        ("series", parameter, "target msg/s", "achieved msg/s", "of target", "verdict", "publish p99 ms",
         "busiest coordinator", "result"),
        tuple(rows),
        align="llrrrlrll",
        note="Achieved: the messages sent in the measured phase, over its length (rate.achieved); held: at least 95% "
             "of the target with a publish-delay p99 within 1 s. A transactional message's publish latency runs to "
             "its transaction's commit. Busiest coordinator: the broker whose __transaction_state partitions ended the "
             "most of the run's transactions, and its share (coordinators, read from the broker's log).",
    )


def busiest_coordinator(result: Result) -> str:
    """The broker that coordinated the largest share of a run's transactions, e.g. "broker 2: 41% of 3"."""
    c = result.coordinators
    busiest = c.busiest_broker if c is not None else None
    if c is None or busiest is None:
        return "—"
    broker, share = busiest
    return f"broker {broker}: {share:.0%} of {len(c.ended_by_broker)}"
