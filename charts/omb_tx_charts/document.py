"""The report model's parts: sections of tables, paragraphs and figures, a section's subsections, and the report
that holds them. report.py computes them from results, the seed study (study/) adds its section of them, and
writers.py writes them out. A figure holds what it shows — its data bound to the plots function that draws it — and
is drawn to a PNG only by ``report.render``."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field

from . import plots
from .model import Result
from .provenance import provenance
from .tables import Table


@dataclass(frozen=True)
class Drawing:
    """A figure's content as computed: a plots function with its data bound, called with ``path=`` to draw it."""

    file: str  # the PNG's name, unique in the report
    draw: Callable[..., plots.Rendered]


@dataclass(frozen=True)
class Figure:
    title: str
    description: str  # what is plotted and where the numbers come from
    runs: tuple[str, ...]  # how each run in it was obtained
    partial: bool
    drawing: Drawing
    rendered: plots.Rendered | None = None  # set by render()


@dataclass(frozen=True)
class Paragraph:
    text: str
    kind: str = ""  # "summary": set apart, led by "Summary:"


Block = Table | Figure | Paragraph


@dataclass
class Section:
    title: str
    intro: str
    blocks: list[Block] = field(default_factory=list)
    subsections: list[Section] = field(default_factory=list)  # headed one level below, after the blocks

    def walk(self) -> Iterator[Section]:
        """This section, then each subsection (and theirs) in order."""
        yield self
        for subsection in self.subsections:
            yield from subsection.walk()


@dataclass(frozen=True)
class Report:
    sections: tuple[Section, ...]
    warnings: tuple[str, ...]
    notes: tuple[str, ...] = ()  # one line each, under the title (e.g. that the seed study was left out)

    @property
    def all_sections(self) -> list[Section]:
        return [s for section in self.sections for s in section.walk()]

    @property
    def figures(self) -> list[Figure]:
        return [b for s in self.all_sections for b in s.blocks if isinstance(b, Figure)]

    @property
    def tables(self) -> list[Table]:
        return [b for s in self.all_sections for b in s.blocks if isinstance(b, Table)]


class FileNames:
    """Readable, unique PNG names derived from workload and driver names."""

    def __init__(self) -> None:
        self._used: set[str] = set()

    def __call__(self, *parts: str) -> str:
        stem = "-".join(re.sub(r"[^a-z0-9._]+", "-", part.lower()).strip("-.") for part in parts if part)
        name, counter = f"{stem}.png", 2
        while name in self._used:
            name, counter = f"{stem}-{counter}.png", counter + 1
        self._used.add(name)
        return name


def figure(title: str, description: str, results: Sequence[Result], drawing: Drawing) -> Figure:
    """A figure captioned with how each of ``results`` was obtained."""
    return Figure(
        title=title,
        description=description,
        runs=tuple(provenance(r) for r in results),
        partial=any(r.is_partial for r in results),
        drawing=drawing,
    )
