"""The seed study's one section of the report: its findings, Kafka since the seeds and the transports beside seed
004, as subsections of "Seed study". report.py calls ``seed_study`` and nothing else of study/.

Whether it is shown: ``include`` True or False when the reader chose (bin/charts --findings, --no-findings); by
default only when the results hold something the study compares — both sides of one of the seeds' comparisons (a
tx run with its base run, default back-off with 0, durable with yolo, bulk-tx with bulk-acks-all, Kafka with
Redpanda, a rate sweep's knee) or a scenario on two Kafka releases or a toggle (``evolution.applies``). A lone run
judged against a seed's absolute figure, measured on other hardware, does not switch it on; the report then says in
one line that the study was left out and how to include it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .. import plots
from ..document import Drawing, FileNames, Paragraph, Section, figure
from ..model import Result
from ..tables import Table
from . import evolution, finding_tables, findings, judge, transports
from .findings import FindingRow

TITLE = "Seed study"
INCLUDE = "--findings"
EXCLUDE = "--no-findings"


@dataclass(frozen=True)
class SeedStudy:
    """The study's part of a report: its section, or the one line saying it was left out."""

    section: Section | None
    note: str = ""


def seed_study(results: Sequence[Result], current: Sequence[Result], charted: Sequence[Result],
               palette: plots.Palette, names: FileNames, include: bool | None = None) -> SeedStudy:
    """``results``: every input (the findings take every repetition, superseded runs included); ``current``: all but
    the superseded; ``charted``: one run per repetition group, as the figures draw them."""
    rows = findings.findings(results)
    compared = comparisons(rows)
    releases = evolution.applies(current)
    if include is None:
        include = bool(compared) or releases
    if not include:
        return SeedStudy(None, _left_out(rows))
    if compared or releases:
        why = (f"Shown because these results hold {_what(compared, releases)}; bin/charts {EXCLUDE} leaves it out.")
    else:
        why = f"Shown because bin/charts was run with {INCLUDE}."
    section = Section(
        TITLE,
        "This repository's own study, on top of the report above: each figure the seed benchmarks published "
        "(docs/findings.md) judged against these results, Kafka's transaction paths release by release since the "
        "seeds, and the transports beside seed 004. " + why,
        [Paragraph(finding_tables.summary(rows), kind="summary")],
    )
    section.subsections.append(_findings_section(rows, finding_tables.seed_004_table(results)))
    since = _since_the_seeds_section(current)
    if since.blocks:
        section.subsections.append(since)
    beside = _transports_section(charted, palette, names)
    if beside.blocks:
        section.subsections.append(beside)
    return SeedStudy(section)


def comparisons(rows: Sequence[FindingRow]) -> list[FindingRow]:
    """The rows of findings that compare two sides (or a sweep's rates, or two systems) and are measured here."""
    return [row for row in rows if row.verdict != findings.NOT_MEASURED
            and (row.spec.knee or row.spec.cross_system or not row.spec.denominator_free)]


def _what(compared: Sequence[FindingRow], releases: bool) -> str:
    parts = []
    if compared:
        specs = list(dict.fromkeys(row.spec for row in compared))
        parts.append(f"{len(specs)} of the seeds' comparisons ("
                     + "; ".join(f"seed {spec.seed}: {spec.title}" for spec in specs) + ")")
    if releases:
        parts.append("a scenario on two Kafka releases or a toggle")
    return " and ".join(parts)


def _left_out(rows: Sequence[FindingRow]) -> str:
    measured = sum(1 for row in rows if row.verdict != findings.NOT_MEASURED)
    lone = (f" ({measured} of its {len(rows)} findings would each rest on a lone run judged against a seed's absolute "
            "figure)") if measured else ""
    return (f"Seed study left out: these results hold none of the seeds' comparisons{lone}; bin/charts {INCLUDE} "
            "adds it.")


def _findings_section(rows: Sequence[FindingRow], seed_004: Table) -> Section:
    return Section(
        "Findings",
        "Each finding the seed benchmarks publish, against these results: the seed's figure (widened by its own "
        "spread), the measured median over repetitions with its 95% interval on the finding's own statistic, the "
        "set-up measured beside the seed's, and a verdict. Kafka releases (with their transaction protocol, tv), "
        "set-ups and orders of calls are separate rows, so what changed between them reads across.",
        [finding_tables.findings_table(rows), Paragraph(findings.RULE),
         Paragraph(judge.HARNESS_RULE), finding_tables.sources_table(rows), seed_004,
         finding_tables.seed_figures_table()],
    )


def _since_the_seeds_section(results: Sequence[Result]) -> Section:
    """Kafka's transaction dimensions release by release (suites/kafka-evolution.yaml); empty (left out) when the
    inputs hold no scenario on two releases and no toggle."""
    section = Section(
        "Since the seeds",
        "The seeds measured Kafka 2.7 and 2.8. Since then Kafka changed the paths a transaction takes "
        "(docs/kafka-evolution.md): partition verification (KIP-890 part 1, 3.6), exponential client back-off "
        "(KIP-580, 3.7), transaction.version 2 (KIP-890 part 2, 4.0) and the new group coordinator with its append "
        "linger (KIP-848, 4.0). Each run's release, client and dimensions are as the broker and the client reported "
        "them. The toggles change one dimension on one release; they are the evidence for the attribution.",
    )
    if not evolution.applies(results):
        return section
    found_points = evolution.points(results)
    found_toggles = evolution.toggles(results)
    if found_points:
        section.blocks.append(evolution.release_table(found_points))
        section.blocks.append(evolution.attribution_table(evolution.steps(found_points, found_toggles)))
    if found_toggles:
        section.blocks.append(evolution.toggle_table(found_toggles))
    bias = evolution.linger_bias(results)
    if bias:
        section.blocks.append(evolution.linger_table(bias))
    return section


def _transports_section(results: Sequence[Result], palette: plots.Palette, names: FileNames) -> Section:
    """Every driver's rps-sweep beside seed 004's three tables; empty (left out) without an rps-sweep."""
    section = Section(
        "Transports beside seed 004",
        "The rps-sweep results of every driver here (Kafka on the embedded broker, Aeron over IPC and UDP) "
        "next to the three tables seed 004 published; see study/transports.py.",
    )
    for comparison in transports.comparisons(results, palette):
        section.blocks.append(figure(f"{comparison.sweep}: transports beside seed 004",
                                     "p50 and p99 end-to-end latency against target rate, log-log; solid: "
                                     "measured here, dashed grey: seed 004 as published.",
                                     comparison.runs, Drawing(names("transports", comparison.sweep), comparison.draw)))
        section.blocks += list(comparison.tables)
    return section

