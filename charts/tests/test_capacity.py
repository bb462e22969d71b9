"""Capacity curves from the real quick pass of suites/tx-capacity.yaml (fixtures/capacity, see its README)."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import FIXTURES, run_charts
from PIL import Image

from omb_tx_charts import capacity
from omb_tx_charts.loader import find_result_files, load_result

CAPACITY = FIXTURES / "capacity"


@pytest.fixture(scope="module")
def results():
    return [load_result(path) for path in find_result_files([str(CAPACITY)])]


def test_the_rate_verdict_is_read_from_each_result(results) -> None:
    by_name = {r.path.name.split("-kafka-tx")[0]: r for r in results}
    verdict = by_name["tx-producers-100"].rate
    assert verdict is not None
    assert verdict.target == 5000.0
    assert round(verdict.achieved) == 5817  # caught up, after a warm-up behind its schedule
    assert verdict.held is True
    assert verdict.limited_by is None
    assert round(verdict.publish_delay_p99_ms) == 576


def test_transactional_and_plain_share_a_curve_per_swept_parameter(results) -> None:
    curves = capacity.curves(results)
    assert set(curves) == {("producers", "producersPerTopic"), ("rate", "producerRate")}
    producers = curves[("producers", "producersPerTopic")]
    assert list(producers) == ["plain", "transactional"]
    assert [p.x for p in producers["transactional"]] == [1.0, 10.0, 100.0]
    assert [round(p.achieved) for p in producers["plain"]] == [5005, 5009, 5005]
    # Publish p99 to the commit: a transaction is open for 100 ms, and under 100 producers commits queue.
    assert [round(p.p99_ms) for p in producers["transactional"]] == [202, 441, 3584]
    rate = curves[("rate", "producerRate")]
    assert [p.x for p in rate["plain"]] == [1000.0, 10000.0]
    assert all(p.target == p.x for p in rate["transactional"])


def test_the_report_draws_and_tabulates_each_curve(tmp_path: Path) -> None:
    completed = run_charts(CAPACITY, "--out", tmp_path)
    assert completed.returncode == 0, completed.stderr
    for name in ("capacity-producers-producerspertopic.png", "capacity-rate-producerrate.png"):
        with Image.open(tmp_path / name) as image:
            assert image.format == "PNG"
            assert image.size == (1100, 560)
    report = (tmp_path / "report.md").read_text(encoding="utf-8")
    assert "## Capacity: achieved rate and p99 against offered rate and producers" in report
    assert "producers: capacity by producersPerTopic" in report
    assert "| transactional | 100 | 5,000 | 5,817 | 116.3% | held | 3,584.0 |" in report


COORDINATORS = FIXTURES / "capacity-coordinators"


def test_the_busiest_coordinator_is_named_from_each_results_log_counts() -> None:
    import json

    results = [load_result(path) for path in find_result_files([str(COORDINATORS)])]
    assert len(results) == 3
    for r in results:
        raw = json.loads(r.path.read_text(encoding="utf-8"))["coordinators"]
        ended = {b["broker"]: b["committed"] + b["aborted"] for b in raw["byBroker"]}
        total = raw["committed"] + raw["aborted"]
        assert total > 0 and sum(ended.values()) == total
        top = max(ended, key=lambda b: (ended[b], -b))
        assert capacity.busiest_coordinator(r) == f"broker {top}: {ended[top] / total:.0%} of 3"
    # A plain run has no transaction log to read.
    plain = [load_result(p) for p in find_result_files([str(CAPACITY)]) if p.name.startswith("base-")]
    assert plain and all(capacity.busiest_coordinator(r) == "—" for r in plain)


def test_runs_on_one_and_three_brokers_are_separate_series() -> None:
    results = [load_result(p) for p in find_result_files([str(CAPACITY), str(COORDINATORS)])]
    producers = capacity.curves(results)[("producers", "producersPerTopic")]
    assert list(producers) == [
        "kafka-tx, plain, 1 broker(s)",
        "kafka-tx, transactional, 1 broker(s)",
        "kafka-tx-rf3, transactional, 3 broker(s)",
    ]
    assert [p.x for p in producers["kafka-tx-rf3, transactional, 3 broker(s)"]] == [1.0, 10.0, 100.0]


CHURN = FIXTURES / "capacity-churn"


def test_a_churn_series_says_how_often_its_producers_are_renewed() -> None:
    churned = [load_result(path) for path in find_result_files([str(CHURN)])]
    curves = capacity.curves(churned)
    assert list(curves) == [("churn", "producersPerTopic")]
    (label,) = curves[("churn", "producersPerTopic")]
    assert label == "transactional, a new producer every 1 tx"


def test_a_churn_run_tabulates_its_init_phase_first(tmp_path: Path) -> None:
    completed = run_charts(CHURN, "--out", tmp_path)
    assert completed.returncode == 0, completed.stderr
    report = (tmp_path / "report.md").read_text(encoding="utf-8")
    assert "| Run | init | begin | send | resolve | commit | transaction |" in report
    assert "| transactional, a new producer every 1 tx | 10 | 5,000 | 5,008 | 100.2% | held |" in report
