"""The report's writers: a rendered ``document.Report`` (sections of tables, figures and paragraphs, a section's
subsections one heading level below it; its figures drawn by ``report.render``) to report.md and index.html.
Nothing here computes or draws: every number is in the report model already."""

from __future__ import annotations

import html
from datetime import UTC, datetime
from pathlib import Path

from . import plots, tables
from .document import Figure, Paragraph, Report, Section
from .tables import Table


def write_markdown(report: Report, path: Path, generated: datetime | None = None) -> None:
    stamp = (generated or datetime.now(UTC)).strftime("%Y-%m-%d %H:%M:%S UTC")
    lines = ["# omb-tx results", "", f"Generated {stamp} by bin/charts.", ""]
    for warning in report.warnings:
        lines.append(f"> **Skipped:** {warning}")
    if report.warnings:
        lines.append("")
    if any(f.partial for f in report.figures):
        lines += ["> **⚠ Some runs are PARTIAL** (interrupted); they are marked wherever they appear.", ""]
    lines += [line for note in report.notes for line in (f"_{note}_", "")]
    for section in report.sections:
        lines += _markdown_section(section, 2, path.parent)
    path.write_text("\n".join(lines), encoding="utf-8")


def _markdown_section(section: Section, level: int, base: Path | None = None) -> list[str]:
    heading, inner = "#" * level, "#" * (level + 1)
    lines = [f"{heading} {section.title}", "", section.intro, ""]
    for block in section.blocks:
        if isinstance(block, Table):
            if block.title and block.title != section.title:
                lines += [f"{inner} {block.title}", ""]
            lines += [tables.to_markdown(block, base), ""]
            if block.note:
                lines += [f"_{block.note}_", ""]
        elif isinstance(block, Figure):
            lines += [f"{inner} {block.title}", "", f"![{block.title}]({_drawn(block).path.name})", ""]
            flag = "**⚠ PARTIAL RESULT INCLUDED.** " if block.partial else ""
            lines += [f"{flag}{block.description}", "", "How it was obtained:", ""]
            lines += [f"- {run}" for run in block.runs]
            lines.append("")
        elif block.kind == "summary":
            lines += [f"**Summary:** {block.text}", ""]
        else:
            lines += [block.text, ""]
    for subsection in section.subsections:
        lines += _markdown_section(subsection, level + 1, base)
    return lines


_CSS = """
body { font-family: system-ui, sans-serif; max-width: 1800px; margin: 2em auto; padding: 0 1em; color: #222; }
h1 { border-bottom: 2px solid #ddd; } h2 { margin-top: 2em; border-bottom: 1px solid #eee; }
table { border-collapse: collapse; margin: 0.5em 0 1em; font-size: 0.92em; }
th, td { border: 1px solid #ccc; padding: 0.25em 0.6em; } th { background: #f4f4f4; }
td:not(:first-child) { white-space: nowrap; }
figure { margin: 1em 0 2em; } figure img { max-width: 100%; height: auto; border: 1px solid #eee; }
figcaption { font-size: 0.9em; color: #444; } figcaption ul { margin: 0.3em 0; }
.partial { color: #fff; background: #c0392b; padding: 0.1em 0.4em; border-radius: 3px; font-weight: bold; }
.note { font-size: 0.85em; color: #666; font-style: italic; } .warning { background: #fff3cd; padding: 0.5em; }
table.wrap td { white-space: normal; }
.summary { background: #eef4fb; border-left: 4px solid #3b6ea5; padding: 0.5em 0.8em; }
td.pass { background: #e6f4ea; } td.fail { background: #fce8e6; } td.not-judged { background: #fff3cd; }
"""


def write_html(report: Report, path: Path, generated: datetime | None = None) -> None:
    stamp = (generated or datetime.now(UTC)).strftime("%Y-%m-%d %H:%M:%S UTC")
    parts = [
        "<!DOCTYPE html>",
        '<html lang="en"><head><meta charset="utf-8"><title>omb-tx results</title>',
        f"<style>{_CSS}</style></head><body>",
        "<h1>omb-tx results</h1>",
        f"<p>Generated {html.escape(stamp)} by bin/charts.</p>",
    ]
    for warning in report.warnings:
        parts.append(f'<p class="warning"><b>Skipped:</b> {html.escape(warning)}</p>')
    if any(f.partial for f in report.figures):
        parts.append('<p><span class="partial">PARTIAL</span> Some runs were interrupted; they are marked.</p>')
    parts += [f'<p class="note">{html.escape(note)}</p>' for note in report.notes]
    for section in report.sections:
        parts += _html_section(section, 2, path.parent)
    parts.append("</body></html>")
    path.write_text("\n".join(parts) + "\n", encoding="utf-8")


def _html_section(section: Section, level: int, base: Path | None = None) -> list[str]:
    inner = level + 1
    parts = [f"<h{level}>{html.escape(section.title)}</h{level}>", f"<p>{html.escape(section.intro)}</p>"]
    for block in section.blocks:
        if isinstance(block, Table):
            if block.title and block.title != section.title:
                parts.append(f"<h{inner}>{html.escape(block.title)}</h{inner}>")
            parts.append(tables.to_html(block, base))
            if block.note:
                parts.append(f'<p class="note">{html.escape(block.note)}</p>')
        elif isinstance(block, Figure):
            flag = '<span class="partial">PARTIAL RESULT INCLUDED</span> ' if block.partial else ""
            runs = "".join(f"<li>{_html_run(run)}</li>" for run in block.runs)
            drawn = _drawn(block)
            name = html.escape(drawn.path.name)
            parts.append(
                f"<figure><h{inner}>{html.escape(block.title)}</h{inner}>"
                f'<img src="{name}" alt="{html.escape(block.title)}" '
                f'width="{drawn.width_px}" height="{drawn.height_px}">'
                f"<figcaption>{flag}{html.escape(block.description)}<br>How it was obtained:<ul>{runs}</ul>"
                "</figcaption></figure>"
            )
        elif isinstance(block, Paragraph) and block.kind == "summary":
            parts.append(f'<p class="summary"><b>Summary:</b> {html.escape(block.text)}</p>')
        else:
            parts.append(f"<p>{html.escape(block.text)}</p>")
    for subsection in section.subsections:
        parts += _html_section(subsection, level + 1, base)
    return parts


def _html_run(run: str) -> str:
    escaped = html.escape(run)
    return escaped.replace("PARTIAL (", '<span class="partial">PARTIAL</span> (', 1)


def _drawn(figure: Figure) -> plots.Rendered:
    if figure.rendered is None:
        raise ValueError(f"figure '{figure.title}' was not drawn: write a report after report.render")
    return figure.rendered
