"""bin/charts as a user meets it: help, and clear errors with exit status 2 for bad input."""

from __future__ import annotations

import shutil
from pathlib import Path

from conftest import INVALID, RESULTS, result_file, run_charts


def _assert_clean_failure(completed, *fragments: str) -> None:
    assert completed.returncode == 2, completed.stderr
    assert "Traceback" not in completed.stderr
    for fragment in fragments:
        assert fragment in completed.stderr


def test_help_explains_every_flag() -> None:
    completed = run_charts("--help")
    assert completed.returncode == 0
    for flag in ("RESULTS", "--out", "--skip-invalid", "--help", "exit status"):
        assert flag in completed.stdout


def test_malformed_json_exits_2_naming_the_file(tmp_path: Path) -> None:
    completed = run_charts(INVALID / "truncated.json", "--out", tmp_path / "out")
    _assert_clean_failure(completed, "truncated.json: not valid JSON")
    assert not (tmp_path / "out").exists()


def test_unrelated_json_exits_2_saying_what_is_missing(tmp_path: Path) -> None:
    completed = run_charts(INVALID / "unrelated.json", "--out", tmp_path / "out")
    _assert_clean_failure(completed, "unrelated.json: not an OMB/omb-tx result: missing 'workload'")


def test_a_result_that_breaks_the_schema_exits_2_naming_the_file_and_the_json_path(tmp_path: Path) -> None:
    completed = run_charts(INVALID / "schema-violation.json", "--out", tmp_path / "out")
    _assert_clean_failure(
        completed, "schema-violation.json: not valid against docs/result.schema.json at $.runMode.loop: 'ajar'")


def test_relative_paths_are_named_as_given(tmp_path: Path) -> None:
    (tmp_path / "results").mkdir()
    shutil.copy(INVALID / "unrelated.json", tmp_path / "results" / "x.json")
    completed = run_charts("results/", "--out", "report", cwd=tmp_path)
    _assert_clean_failure(completed, "results/x.json: not an OMB/omb-tx result: missing 'workload'")


def test_empty_folder_exits_2(tmp_path: Path) -> None:
    (tmp_path / "empty").mkdir()
    completed = run_charts(tmp_path / "empty", "--out", tmp_path / "out")
    _assert_clean_failure(completed, "no result files (*.json) found in", str(tmp_path / "empty"))


def test_missing_path_exits_2(tmp_path: Path) -> None:
    completed = run_charts(tmp_path / "nowhere", "--out", tmp_path / "out")
    _assert_clean_failure(completed, "nowhere: no such file or folder")


def test_one_invalid_file_among_valid_ones_fails_by_default(tmp_path: Path) -> None:
    completed = run_charts(result_file("base-writes-kafka-tx"), INVALID, "--out", tmp_path / "out")
    _assert_clean_failure(completed, "truncated.json", "unrelated.json", "--skip-invalid")


def test_skip_invalid_charts_the_valid_files_and_reports_the_others(tmp_path: Path) -> None:
    out = tmp_path / "out"
    completed = run_charts(result_file("tx-writes-kafka-tx"), result_file("base-writes-kafka-tx"), INVALID,
                           "--out", out, "--skip-invalid")
    assert completed.returncode == 0, completed.stderr
    assert "skipping" in completed.stderr and "unrelated.json" in completed.stderr
    report = (out / "report.md").read_text()
    assert "**Skipped:**" in report and "unrelated.json: not an OMB/omb-tx result: missing 'workload'" in report
    assert (out / "overhead-ratios.png").is_file()


def test_skip_invalid_with_nothing_valid_still_exits_2(tmp_path: Path) -> None:
    completed = run_charts(INVALID, "--out", tmp_path / "out", "--skip-invalid")
    _assert_clean_failure(completed, "no valid results to chart")


def test_missing_out_is_a_usage_error() -> None:
    completed = run_charts(RESULTS)
    _assert_clean_failure(completed, "--out")


def test_results_with_only_the_required_fields_still_give_a_report(tmp_path: Path) -> None:
    (tmp_path / "in").mkdir()
    (tmp_path / "in" / "bare.json").write_text('{"workload": "tx-writes", "driver": "kafka-tx", "extra": true}')
    completed = run_charts(tmp_path / "in", "--out", tmp_path / "out")
    assert completed.returncode == 0, completed.stderr
    report = (tmp_path / "out" / "report.md").read_text()
    assert "No results with transactionPhases in the inputs." in report
    assert "No sweep results" in report and "No acks-sla-* results in the inputs." in report
    assert list((tmp_path / "out").glob("*.png")) == []
