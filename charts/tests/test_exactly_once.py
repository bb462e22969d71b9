"""The "Exactly-once" section on recorded runs of suites/eos-matrix.yaml's quick profile (fixtures/eos-matrix/).

Every expected value is read from the raw JSON here, so the tests say "the report shows what the file says". The
violations table is shown on a copy of a recorded result with a live check that saw violations written into it (a
real run of the matrix has none), marked as such below.
"""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest
from conftest import FIXTURES, RESULTS

from omb_tx_charts import exactly_once, report, systems, tables
from omb_tx_charts.loader import find_result_files, load_result, parse_result
from omb_tx_charts.model import Result

EOS = FIXTURES / "eos-matrix"


def _files() -> list[Path]:
    return sorted(EOS.glob("*.json"))


def _raw(path: Path) -> dict[str, Any]:
    return json.loads(path.read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def recorded() -> list[Result]:
    return [load_result(path) for path in find_result_files([str(EOS)])]


def test_the_recorded_runs_are_the_quick_matrix(recorded: list[Result]) -> None:
    assert len(recorded) == 3
    assert {r.workload for r in recorded} == {_raw(p)["workload"] for p in _files()}
    assert all(r.workload.startswith("tx-streaming-broker-") for r in recorded)


def test_the_loader_reads_both_verdicts_and_the_faults(recorded: list[Result]) -> None:
    for path in _files():
        raw = _raw(path)
        result = next(r for r in recorded if r.path.name == path.name)
        eo, live = result.exactly_once, result.exactly_once.live if result.exactly_once else None
        assert eo is not None and live is not None
        assert (eo.checked, eo.duplicated, eo.missing, eo.passed) == (
            raw["exactlyOnce"]["checked"], raw["exactlyOnce"]["duplicated"], raw["exactlyOnce"]["missing"],
            raw["exactlyOnce"]["passed"])
        raw_live = raw["exactlyOnce"]["live"]
        assert (live.outputs_read, live.duplicates, live.uncommitted, live.passed, len(live.violations)) == (
            raw_live["outputsRead"], raw_live["duplicates"], raw_live["uncommitted"], raw_live["passed"],
            len(raw_live["violations"]))
        assert [(f.action, f.target) for f in result.faults] == [(f["action"], f["target"]) for f in raw["faults"]]


def test_the_verdict_table_has_a_row_per_run_with_what_its_file_says(recorded: list[Result]) -> None:
    table = exactly_once.verdict_table(recorded)
    assert len(table.rows) == 3
    for path in _files():
        raw = _raw(path)
        row = next(r for r in table.rows if r[0] == raw["workload"])
        cells = dict(zip(table.header, row))
        eo, live = raw["exactlyOnce"], raw["exactlyOnce"]["live"]
        assert cells["After the run"].startswith("PASS" if eo["passed"] else "FAIL")
        assert f"{eo['checked']:,} checked" in cells["After the run"]
        assert f"{eo['duplicated']:,} duplicated" in cells["After the run"]
        assert f"{eo['missing']:,} missing" in cells["After the run"]
        assert cells["Live check"].startswith("PASS" if live["passed"] else "FAIL")
        assert f"{live['outputsRead']:,} read" in cells["Live check"]
        assert cells["Faults"] == "; ".join(f"{f['action']} {f['target']}" for f in raw["faults"])
        assert cells["Fenced"] == f"{raw['counts']['fenced']:,}"
        assert cells["Broker (tv)"].startswith(raw["broker"]["version"])
        stall = max(v for v in raw["periods"]["operationLatencyMaxMillis"] if v is not None)
        assert float(cells["Stall (ms)"]) == pytest.approx(stall, rel=0.01, abs=0.05)


def test_the_report_has_an_exactly_once_section_and_no_violations_when_none_were_seen(
        recorded: list[Result], tmp_path: Path) -> None:
    built = report.build_report(recorded, tmp_path)
    section = next(s for s in built.sections if s.title == "Exactly-once")
    titles = [b.title for b in section.blocks if isinstance(b, tables.Table)]
    assert titles == ["Exactly-once verdicts"]
    assert any(isinstance(b, report.Paragraph) and "No live check saw a violation" in b.text for b in section.blocks)


def test_violations_are_listed_with_their_offsets_and_the_time_seen(tmp_path: Path) -> None:
    # A copy of a recorded result whose live check is given two violations (not a real run's: the matrix saw none).
    path = _files()[0]
    document = copy.deepcopy(_raw(path))
    live = document["exactlyOnce"]["live"]
    live.update({"duplicates": 1, "outOfOrder": 1, "passed": False, "violations": [
        {"kind": "duplicate", "topic": "t-out", "partition": 2, "offset": 417, "sourcePartition": 2,
         "sourceOffset": 133, "seenEpochMillis": 1, "seenAtSeconds": 12.345, "detail": "source record 2:133 again"},
        {"kind": "outOfOrder", "topic": "t-out", "partition": 0, "offset": 9, "sourcePartition": 0,
         "sourceOffset": 3, "seenEpochMillis": 2, "seenAtSeconds": -0.5, "detail": "after source offset 4"},
    ]})
    broken = parse_result(tmp_path / "broken.json", document)
    table = exactly_once.violations_table([broken])
    assert table is not None
    assert table.rows == (
        (document["workload"], systems.label(broken), "duplicate", "t-out-2@417", "2:133", "12.345",
         "source record 2:133 again"),
        (document["workload"], systems.label(broken), "outOfOrder", "t-out-0@9", "0:3", "-0.500",
         "after source offset 4"),
    )
    verdicts = exactly_once.verdict_table([broken])
    assert dict(zip(verdicts.header, verdicts.rows[0]))["Live check"].startswith("FAIL")
    assert "1 duplicate, 1 out of order" in dict(zip(verdicts.header, verdicts.rows[0]))["Live check"]
    markdown = tables.to_markdown(table)
    assert "t-out-2@417" in markdown


def test_runs_without_a_verdict_leave_the_section_out(tmp_path: Path) -> None:
    plain = [load_result(p) for p in find_result_files([str(RESULTS)]) if "exactlyOnce" not in _raw(p)]
    built = report.build_report(plain, tmp_path)
    assert all(s.title != "Exactly-once" for s in built.sections)
