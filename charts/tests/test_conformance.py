"""The "Broker conformance" section on a recorded pass of suites/broker-conformance.yaml's quick profile
(fixtures/conformance/: the seven guarantees on the embedded Kafka 4.1.1 and on the embedded Tansu 0.6.0).

Every expected value is read from the raw JSON here, so the tests say "the table shows what the files say": a
column per broker as its results name it (broker.system and its version), a row per guarantee, each cell the
verdict with its counts and a link to the run.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest
from conftest import FIXTURES, RESULTS

from omb_tx_charts import conformance, report, tables, writers
from omb_tx_charts.loader import find_result_files, load_result
from omb_tx_charts.model import Result

CONFORMANCE = FIXTURES / "conformance"


def _raw(path: Path) -> dict[str, Any]:
    return json.loads(path.read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def recorded() -> list[Result]:
    return [load_result(path) for path in find_result_files([str(CONFORMANCE)])]


def _column(raw: dict[str, Any]) -> str:
    broker = raw["broker"]
    system = broker["system"].capitalize()
    if broker["system"] == "kafka":
        return f"{system} {broker['version']} (tv {broker['transactionVersion']})"
    return f"{system} {broker['version']}"


def test_the_recorded_runs_are_the_quick_suite_on_two_brokers(recorded: list[Result]) -> None:
    raws = [_raw(p) for p in sorted(CONFORMANCE.glob("*.json"))]
    assert len(recorded) == len(raws) == 14
    assert {(r["broker"]["system"], r["broker"]["version"]) for r in raws} == {("kafka", "4.1.1"), ("tansu", "0.6.0")}
    for system in ("kafka", "tansu"):
        assert sorted(r["conformance"]["guarantee"] for r in raws if r["broker"]["system"] == system) == sorted(
            conformance.GUARANTEES)


def test_the_loader_reads_each_verdict_as_its_file_writes_it(recorded: list[Result]) -> None:
    for result in recorded:
        raw = _raw(result.path)["conformance"]
        c = result.conformance
        assert c is not None
        assert (c.guarantee, c.title, c.verdict, dict(c.counts), c.first_violation, c.note) == (
            raw["guarantee"], raw["title"], raw["verdict"], raw["counts"], raw.get("firstViolation"), raw.get("note"))


def test_a_row_per_guarantee_a_column_per_broker_each_cell_its_verdict_counts_and_run(recorded: list[Result]) -> None:
    table = conformance.table(recorded)
    assert table is not None
    raws = {p.resolve(): _raw(p) for p in CONFORMANCE.glob("*.json")}
    columns = sorted({_column(r) for r in raws.values()}, key=lambda c: (not c.startswith("Kafka"), c))
    assert table.header == ("Guarantee", *columns) == ("Guarantee", "Kafka 4.1.1 (tv 2)", "Tansu 0.6.0")
    assert [row[0].split(": ")[0] for row in table.rows] == [
        f"{n}. {g}" for n, g in enumerate(conformance.GUARANTEES, start=1)]
    for i, row in enumerate(table.rows):
        guarantee = conformance.GUARANTEES[i]
        for j, column in enumerate(columns, start=1):
            path, raw = next((p, r) for p, r in raws.items()
                             if r["conformance"]["guarantee"] == guarantee and _column(r) == column)
            c = raw["conformance"]
            counts = ", ".join(f"{k} {v}" for k, v in c["counts"].items())
            assert row[j] == f"{c['verdict'].upper()} · {counts}"
            assert table.links[i][j] == str(path)
            assert table.classes[i][j] == c["verdict"]
        title = next(r["conformance"]["title"] for r in raws.values() if r["conformance"]["guarantee"] == guarantee)
        assert row[0] == f"{i + 1}. {guarantee}: {title}"


def test_kafka_keeps_every_guarantee_and_tansu_shows_what_it_does(recorded: list[Result]) -> None:
    table = conformance.table(recorded)
    assert table is not None
    kafka = [row[1] for row in table.rows]
    assert all(cell.startswith("PASS · ") for cell in kafka), kafka
    tansu = {conformance.GUARANTEES[i]: row[2] for i, row in enumerate(table.rows)}
    # Tansu 0.6.0 hands read_committed consumers records of aborted transactions: the first row says so, with counts.
    aborted = next(r for r in recorded if r.conformance and r.conformance.guarantee == "aborted-invisible"
                   and r.broker_system == "tansu")
    assert aborted.conformance is not None and aborted.conformance.verdict == "fail"
    assert aborted.conformance.counts["abortedSeen"] > 0 and aborted.conformance.counts["abortedOnPurpose"] > 0
    assert tansu["aborted-invisible"].startswith("FAIL · ")
    assert f"abortedSeen {aborted.conformance.counts['abortedSeen']}" in tansu["aborted-invisible"]


def test_every_verdict_that_is_not_a_pass_is_listed_with_its_first_violation(recorded: list[Result]) -> None:
    broken = conformance.violations_table(recorded)
    assert broken is not None
    expected = sorted(
        (_column(raw), raw["conformance"]["guarantee"], raw["conformance"]["verdict"].upper(),
         raw["conformance"].get("firstViolation") or "—", raw["conformance"].get("note") or "", path.name)
        for path in CONFORMANCE.glob("*.json")
        for raw in [_raw(path)]
        if raw["conformance"]["verdict"] != "pass")
    assert sorted(broken.rows) == expected
    assert all(row[0] == "Tansu 0.6.0" for row in broken.rows)


def test_the_report_links_each_cell_to_its_run(recorded: list[Result], tmp_path: Path) -> None:
    built = report.build_report(recorded, tmp_path)
    titles = [s.title for s in built.sections]
    assert titles.index("Broker conformance") < titles.index("Exactly-once")
    section = next(s for s in built.sections if s.title == "Broker conformance")
    assert [b.title for b in section.blocks if isinstance(b, tables.Table)] == [
        "Broker conformance", "Broken guarantees: the first violation"]
    out = tmp_path / "out"
    out.mkdir()
    writers.write_html(built, out / "index.html")
    writers.write_markdown(built, out / "report.md")
    html_text = (out / "index.html").read_text(encoding="utf-8")
    markdown = (out / "report.md").read_text(encoding="utf-8")
    for path in CONFORMANCE.glob("*.json"):
        relative = os.path.relpath(path.resolve(), out)
        assert f'<a href="{relative}">' in html_text, relative
        assert f"]({relative})" in markdown, relative
    verdicts = [_raw(p)["conformance"]["verdict"] for p in CONFORMANCE.glob("*.json")]
    assert html_text.count('<td class="fail"') == verdicts.count("fail") > 0
    assert html_text.count('<td class="pass"') == verdicts.count("pass") > 0


def test_results_without_a_verdict_leave_the_section_out(tmp_path: Path) -> None:
    plain = [load_result(p) for p in find_result_files([str(RESULTS)])]
    assert conformance.table(plain) is None
    assert all(s.title != "Broker conformance" for s in report.compute_report(plain).sections)
