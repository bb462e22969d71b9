"""Broker conformance (``conformance``, suites/broker-conformance.yaml): the transactional guarantees a Kafka-API
broker promises, one row each, one column per broker — its system and release as the cluster showed them
(``broker.system``, the broker's version) — each cell the verdict with the counts it was judged from, linked to the
run's result file. The first violation of every broken guarantee follows in a table of its own.
"""

from __future__ import annotations

from collections.abc import Sequence

from . import loader, systems
from .model import Result
from .tables import Table

# The guarantees in the order docs/conformance.md numbers them (the result schema's list); one a result names beyond
# these is shown after them.
GUARANTEES = loader.guarantees()


def judged(results: Sequence[Result]) -> list[Result]:
    """The runs that judged a guarantee."""
    return [r for r in results if r.conformance is not None]


def broker(result: Result) -> str:
    """The column a run belongs to: the system the cluster showed and its release (Kafka with its transaction
    protocol), e.g. ``Kafka 4.1.1 (tv 2)``, ``Tansu 0.6.0``."""
    system = systems.system(result)[0]
    if system == "Kafka":
        return f"{system} {systems.label(result)}"
    return f"{system} {result.versions.get('broker') or '?'}"


def _verdict(result: Result) -> str:
    c = result.conformance
    assert c is not None
    counts = ", ".join(f"{name} {value}" for name, value in c.counts.items())
    return c.verdict.upper() + (f" · {counts}" if counts else "")


def _guarantees(runs: Sequence[Result]) -> list[str]:
    named = {r.conformance.guarantee for r in runs if r.conformance}
    return [g for g in GUARANTEES if g in named] + sorted(named - set(GUARANTEES))


def _newest(runs: Sequence[Result]) -> Result:
    return max(runs, key=lambda r: (r.start_time or "", r.path.name))


def table(results: Sequence[Result]) -> Table | None:
    """Guarantee by broker; None when no run judged one. Where a guarantee was judged more than once on a broker the
    newest run is shown, and the cell says how many of the runs passed."""
    runs = judged(results)
    if not runs:
        return None
    brokers = sorted({broker(r) for r in runs}, key=lambda b: (not b.startswith("Kafka"), b))
    rows, links, classes = [], [], []
    for n, guarantee in enumerate(_guarantees(runs), start=1):
        mine = [r for r in runs if r.conformance and r.conformance.guarantee == guarantee]
        title = mine[0].conformance.title if mine[0].conformance else guarantee
        row, row_links, row_classes = [f"{n}. {guarantee}: {title}"], [None], [None]
        for b in brokers:
            cell = [r for r in mine if broker(r) == b]
            if not cell:
                row.append("not run")
                row_links.append(None)
                row_classes.append(None)
                continue
            shown = _newest(cell)
            text = _verdict(shown)
            if len(cell) > 1:
                passed = sum(1 for r in cell if r.conformance and r.conformance.verdict == "pass")
                text += f" ({passed} of {len(cell)} runs passed; the newest shown)"
            row.append(text)
            row_links.append(str(shown.path.resolve()))
            row_classes.append(shown.conformance.verdict if shown.conformance else None)
        rows.append(tuple(row))
        links.append(tuple(row_links))
        classes.append(tuple(row_classes))
    return Table(
        title="Broker conformance",
        header=("Guarantee", *brokers),
        rows=tuple(rows),
        align="l" * (1 + len(brokers)),
        wrap=True,
        note="Each cell: the verdict (PASS, FAIL, or NOT-JUDGED when a check it needs did not run) and the counts it "
             "was judged from (conformance.counts), linked to the run's result file. Columns: the broker system the "
             "cluster showed (broker.system) and its release. A FAIL is a verdict on the broker, not a failed run; "
             "docs/conformance.md says how each guarantee is put to the test.",
        links=tuple(links),
        classes=tuple(classes),
    )


def violations_table(results: Sequence[Result]) -> Table | None:
    """The first violation (or the note) of every verdict that is not a pass; None when every guarantee held."""
    rows, links = [], []
    for r in sorted(judged(results), key=lambda r: (broker(r), r.conformance.guarantee if r.conformance else "")):
        c = r.conformance
        if c is None or c.verdict == "pass":
            continue
        rows.append((broker(r), c.guarantee, c.verdict.upper(), c.first_violation or "—", c.note or "", r.path.name))
        links.append((None, None, None, None, None, str(r.path.resolve())))
    if not rows:
        return None
    return Table(
        title="Broken guarantees: the first violation",
        header=("Broker", "Guarantee", "Verdict", "First violation", "Note", "Run"),
        rows=tuple(rows),
        align="llllll",
        wrap=True,
        note="The first thing each run saw break its guarantee (conformance.firstViolation): where "
             "(topic-partition@offset) and when; the note says how it was judged (e.g. how a late commit was "
             "answered) or why it was not.",
        links=tuple(links),
    )
