"""The report as a reader of their own runs meets it: the seed study (study/) is one section, added when the results
hold one of the seeds' comparisons or when asked (--findings), left out otherwise (--no-findings) with one line
saying how to add it."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import RESULTS, result_file, run_charts

from omb_tx_charts.loader import load_result
from omb_tx_charts.report import compute_report
from omb_tx_charts.study.section import TITLE

# Two runs of a new user's own: tx-writes on Kafka, tx-streaming through the Redpanda driver. No tx run has its base
# run here, so none of the seeds' comparisons is measured (only findings on a lone run).
TWO_RUNS = ("tx-writes-kafka-tx", "tx-streaming-quick-redpanda-tx")


@pytest.fixture(scope="module")
def two_runs():
    return [load_result(result_file(prefix)) for prefix in TWO_RUNS]


def _titles(report) -> list[str]:
    return [section.title for section in report.sections]


def test_two_lone_runs_leave_the_seed_study_out_and_say_how_to_add_it(two_runs) -> None:
    report = compute_report(two_runs)
    assert TITLE not in _titles(report)
    assert all(s.title not in ("Findings", "Since the seeds") for s in report.all_sections)
    (note,) = report.notes
    assert note.startswith("Seed study left out: these results hold none of the seeds' comparisons")
    assert "bin/charts --findings adds it" in note


def test_findings_true_adds_the_study_as_one_section_last(two_runs) -> None:
    report = compute_report(two_runs, findings=True)
    assert _titles(report)[-1] == TITLE and _titles(report).count(TITLE) == 1
    study = report.sections[-1]
    assert [s.title for s in study.subsections] == ["Findings"]  # no release pair, no rps-sweep
    assert "Shown because bin/charts was run with --findings." in study.intro
    assert report.notes == ()


def test_results_with_a_comparison_add_the_study_unless_told_not_to(all_results) -> None:
    shown = compute_report(all_results)
    assert _titles(shown)[-1] == TITLE
    study = shown.sections[-1]
    assert ("Shown because these results hold 2 of the seeds' comparisons (seed 002: Acks SLA profile ordering: "
            "durable msg/s ÷ yolo msg/s; seed 003: Resolve phase: Kafka ÷ Redpanda)") in study.intro
    assert [s.title for s in study.subsections] == ["Findings", "Transports beside seed 004"]
    hidden = compute_report(all_results, findings=False)
    assert TITLE not in _titles(hidden) and hidden.notes
    assert len(hidden.sections) == len(shown.sections) - 1


def test_bin_charts_switches(tmp_path: Path) -> None:
    inputs = [result_file(prefix) for prefix in TWO_RUNS]
    for flag, shown in (("--findings", True), ("--no-findings", False)):
        out = tmp_path / flag
        completed = run_charts(*inputs, "--out", out, flag)
        assert completed.returncode == 0, completed.stderr
        page = (out / "index.html").read_text(encoding="utf-8")
        assert ("<h2>Seed study</h2>" in page) is shown, flag
        assert ("Seed study left out" in page) is not shown, flag
    assert "--findings" in run_charts("--help").stdout and RESULTS.is_dir()
