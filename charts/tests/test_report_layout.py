"""The report as a reader of their own runs meets it: their runs first (a table, then their charts), the comparisons
after, and the seed study (study/) as one section, last, added when the results hold one of the seeds' comparisons
or when asked (--findings), left out otherwise (--no-findings) with one line saying how to add it."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from conftest import result_file, run_charts

from omb_tx_charts import tables
from omb_tx_charts.formatting import format_ms
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


@pytest.fixture(scope="module")
def two_run_page(tmp_path_factory: pytest.TempPathFactory) -> str:
    out = tmp_path_factory.mktemp("two-runs")
    completed = run_charts(*(result_file(prefix) for prefix in TWO_RUNS), "--out", out)
    assert completed.returncode == 0, completed.stderr
    return (out / "index.html").read_text(encoding="utf-8")


def test_two_runs_open_with_their_table_then_their_charts_and_hold_no_findings(two_run_page: str) -> None:
    page = two_run_page
    headings = re.findall(r"<h2>(.*?)</h2>", page)
    assert headings[:2] == ["Runs", "Latency by percentile"]
    assert headings[-1] == "Inputs"
    assert "Seed study" not in headings and "Findings" not in headings and "Since the seeds" not in headings
    assert "<h3>Findings</h3>" not in page and "| Finding |" not in page and "seed findings:" not in page
    first_image = page.index("<img ")
    runs_table = page.index("<table>", page.index("<h2>Runs</h2>"))
    assert page.index("<h2>Runs</h2>") < runs_table < page.index("<h2>Latency by percentile</h2>") < first_image
    # the one line saying the study was left out stands under the title, before the runs
    assert page.index("Seed study left out") < page.index("<h2>Runs</h2>")


def test_the_runs_table_holds_each_run_s_own_numbers(two_runs) -> None:
    table = tables.runs_table(two_runs)
    assert table.header[:6] == ("Workload", "Driver", "System", "Loop", "Measured", "msg/s")
    rows = {row[0]: row for row in table.rows}
    assert list(rows) == ["tx-streaming-quick", "tx-writes"]
    writes = json.loads(result_file("tx-writes-kafka-tx").read_text(encoding="utf-8"))
    operation = writes["operationLatency"]
    assert rows["tx-writes"][6] == f"{format_ms(operation['p50'])} / {format_ms(operation['p99'])}"
    assert rows["tx-writes"][2] == "Kafka " + writes["versions"]["broker"]
    assert rows["tx-writes"][3] == "closed" and rows["tx-writes"][-1] == "complete"
    assert rows["tx-writes"][5] == f"{writes['summary']['messagesPerSecond']:,.0f}"
    assert rows["tx-streaming-quick"][4] == "1,000 operations (640 done) in 2.0 s"
    assert rows["tx-streaming-quick"][-1] == "PARTIAL"
    # neither closed loop consumed what it wrote: no end-to-end latency, no column of dashes
    assert table.header[6:] == ("operation ms p50 / p99", "publish ms p50 / p99", "Status")


def test_the_runs_table_has_one_row_per_charted_run(all_results) -> None:
    report = compute_report(all_results)
    (runs,) = report.sections[0].blocks
    assert report.sections[0].title == "Runs" and runs.title == "Runs"
    assert len(runs.rows) == len(all_results) == 18  # no repetitions, nothing superseded in these fixtures
    assert "end-to-end ms p50 / p99" in runs.header  # the sweeps and streaming runs have one


def test_bin_charts_switches(tmp_path: Path) -> None:
    inputs = [result_file(prefix) for prefix in TWO_RUNS]
    for flag, shown in (("--findings", True), ("--no-findings", False)):
        out = tmp_path / flag
        completed = run_charts(*inputs, "--out", out, flag)
        assert completed.returncode == 0, completed.stderr
        page = (out / "index.html").read_text(encoding="utf-8")
        assert ("<h2>Seed study</h2>" in page) is shown, flag
        assert ("Seed study left out" in page) is not shown, flag
        if shown:  # asked for, the study comes after the reader's charts, last
            assert page.index("<img ") < page.index("<h2>Inputs</h2>") < page.index("<h2>Seed study</h2>")
            assert re.findall(r"<h2>(.*?)</h2>", page)[-1] == "Seed study"
    assert "--findings" in run_charts("--help").stdout
