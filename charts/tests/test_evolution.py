""""Since the seeds": the transaction scenarios release by release, the toggles on 4.1 and the attribution of
each step, on real quick runs of suites/kafka-evolution.yaml's entries (fixtures/evolution/, see its README).

Expected numbers are read from the raw JSON of those files, never typed in.
"""

from __future__ import annotations

import dataclasses
import json
import math
import re
import statistics
from pathlib import Path
from typing import Any

import pytest
from conftest import FIXTURES, run_charts

from omb_tx_charts import intervals
from omb_tx_charts.formatting import format_ms
from omb_tx_charts.loader import find_result_files, load_result
from omb_tx_charts.model import LatencySummary, Repetition, Result
from omb_tx_charts.study import evolution

EVOLUTION = FIXTURES / "evolution"


def _raw(path: Path) -> dict[str, Any]:
    return json.loads(path.read_text(encoding="utf-8"))


def _files(workload: str, broker: str) -> list[Path]:
    return sorted(p for p in EVOLUTION.glob("*.json")
                  if _raw(p)["workload"] == workload and _raw(p)["broker"]["version"] == broker)


def _p50(path: Path) -> float:
    return _raw(path)["operationLatency"]["p50"]


@pytest.fixture(scope="module")
def results() -> list[Result]:
    return [load_result(path) for path in find_result_files([str(EVOLUTION)])]


def test_the_fixtures_span_at_least_three_releases_each_with_its_own_client(results):
    releases = {r.versions["broker"] for r in results if r.versions["broker"] == r.versions["kafkaClients"]}
    assert len(releases) >= 3, releases
    assert {"2.8.2", "4.1.1"} <= releases


def test_dimensions_are_what_the_broker_and_client_reported(results):
    for result in results:
        raw = _raw(result.path)
        found = evolution.dimensions(result)
        assert found.release == raw["broker"]["version"]
        assert found.client == raw["versions"]["kafkaClients"]
        assert found.transaction_version == raw["broker"]["transactionVersion"]
        read_back = raw["environment"]["brokerSettings"]
        assert found.verification == read_back.get("transaction.partition.verification.enable")
        producer = raw["environment"]["producerSettings"]
        expected_max = producer.get("retry.backoff.max.ms")
        assert found.backoff_max_ms == (int(expected_max) if expected_max is not None else None)
        if raw["broker"]["version"] >= "4":
            assert found.coordinator_linger_ms == int(read_back["group.coordinator.append.linger.ms"])
        else:
            assert found.coordinator_linger_ms is None, "before 4.0 the old group coordinator does not linger"
        groups = raw["environment"].get("consumerGroupProtocols")
        if groups:
            assert found.group_protocol == "/".join(sorted(set(groups.values())))


def test_a_toggle_run_is_told_apart_from_its_releases_defaults(results):
    toggled = {r.workload for r in results if evolution.is_toggle(r)}
    assert toggled == {"tx-writes-no-verification", "base-streaming-linger-0", "tx-streaming-linger-0",
                       "tx-send-offsets-tv1"}
    assert evolution.scenario(next(r for r in results if r.workload == "tx-streaming-linger-0")) == "tx-streaming"


def test_each_release_point_is_the_runs_p50_p99_and_tx_over_base(results):
    points = {(p.scenario, p.release, p.client): p for p in evolution.points(results)}
    for release in ("2.8.2", "3.3.2", "4.1.1"):
        point = points[("tx-writes", release, release)]
        tx_runs, base_runs = _files("tx-writes", release), _files("base-writes", release)
        tx_runs = [p for p in tx_runs if _raw(p)["versions"]["kafkaClients"] == release]
        base_runs = [p for p in base_runs if _raw(p)["versions"]["kafkaClients"] == release]
        assert point.p50 is not None and point.p99 is not None and point.ratio is not None
        assert point.p50.median == pytest.approx(intervals.estimate([_p50(p) for p in tx_runs]).median)
        assert point.p99.median == pytest.approx(
            intervals.estimate([_raw(p)["operationLatency"]["p99"] for p in tx_runs]).median)
        if len(tx_runs) == 1 and len(base_runs) == 1:
            assert point.ratio.median == pytest.approx(_p50(tx_runs[0]) / _p50(base_runs[0]))
            assert not point.ratio.has_interval, "one run: no interval"
    assert points[("tx-fetch", "2.8.2", "2.8.2")].ratio is None, "tx-fetch has no plain baseline"


def test_the_verification_toggle_is_on_over_off_on_41(results):
    found = [t for t in evolution.toggles(results) if t.dimension == "verification"]
    assert [(t.scenario, t.release, t.before, t.after) for t in found] == [("tx-writes", "4.1.1", "false", "true")]
    (off,) = _files("tx-writes-no-verification", "4.1.1")
    on = [p for p in _files("tx-writes", "4.1.1") if _raw(p)["repetition"]["comparison"] == "toggle-verification"]
    assert found[0].effect is not None
    assert found[0].effect.median == pytest.approx(_p50(on[0]) / _p50(off))
    assert _raw(off)["environment"]["brokerSettings"]["transaction.partition.verification.enable"] == "false"


def test_the_coordinator_linger_toggle_and_its_bias_on_tx_over_naive(results):
    linger = {t.scenario: t for t in evolution.toggles(results) if t.dimension == "coordinator_linger_ms"}
    assert set(linger) == {"base-streaming", "tx-streaming"}
    assert (linger["base-streaming"].before, linger["base-streaming"].after) == (0, 5)
    (bias,) = evolution.linger_bias(results)
    assert (bias.scenario, bias.release, bias.linger_ms) == ("tx-streaming", "4.1.1", 5)
    (zero,) = _files("base-streaming-linger-0", "4.1.1")
    group = _raw(zero)["repetition"]["group"]
    (tx,) = [p for p in _files("tx-streaming", "4.1.1") if _raw(p)["repetition"]["group"] == group]
    assert bias.ratio_corrected is not None
    assert bias.ratio_corrected.median == pytest.approx(_p50(tx) / _p50(zero))


def test_each_step_between_releases_is_attributed_by_the_rule(results):
    points = evolution.points(results)
    steps = [s for s in evolution.steps(points, evolution.toggles(results)) if s.scenario == "tx-writes"]
    own = sorted({p.release for p in points if p.scenario == "tx-writes" and evolution.own_client(p)},
                 key=evolution.release_key)
    assert [(s.before, s.after) for s in steps] == list(zip(own, own[1:]))
    for step in steps:
        assert step.own is not None
        moved = abs(math.log(step.own.median)) > math.log(evolution.NO_CHANGE_WITHOUT_INTERVAL)
        if not moved:
            assert step.explanation == "no change (provisional: no interval)"
        elif not step.candidates:
            assert step.explanation.startswith(evolution.UNEXPLAINED)
        else:
            names = [c.name for c in step.candidates]
            assert any(name in step.explanation for name in names), step.explanation
    kip_890 = next(s for s in steps if s.after == "3.6.2")
    assert [c.release for c in kip_890.candidates] == [(3, 6)], "3.3 → 3.6 brought partition verification"


def test_the_transaction_version_toggle_explains_the_send_offsets_step(results):
    """tx-send-offsets on 2.8.2 waits out the client's back-off on AddOffsetsToTxn; on 4.1.1 the toggle to
    transaction.version 1 brings the wait back, so KIP-890 part 2 is the explanation the rule gives (a single run:
    provisional)."""
    (toggle,) = [t for t in evolution.toggles(results) if t.dimension == "transaction_version"]
    (tv1,) = _files("tx-send-offsets-tv1", "4.1.1")
    (tv2,) = [p for p in _files("tx-send-offsets", "4.1.1")
              if _raw(p)["repetition"] and _raw(p)["repetition"]["group"] == _raw(tv1)["repetition"]["group"]]
    assert (toggle.scenario, toggle.before, toggle.after) == ("tx-send-offsets", 1, 2)
    assert _raw(tv1)["broker"]["transactionVersion"] == 1 and _raw(tv2)["broker"]["transactionVersion"] == 2
    assert toggle.effect is not None
    assert toggle.effect.median == pytest.approx(_p50(tv2) / _p50(tv1))
    steps = evolution.steps(evolution.points(results), evolution.toggles(results))
    (step,) = [s for s in steps if s.scenario == "tx-send-offsets"]
    (before,) = _files("tx-send-offsets", "2.8.2")
    after = [_p50(p) / _p50(before) for p in _files("tx-send-offsets", "4.1.1")]  # two runs on 4.1.1
    assert step.own is not None and step.own.median == pytest.approx(statistics.median(after))
    assert step.explanation == (
        f"{evolution.CHANGES[3].name} (toggle on 4.1.1: {toggle.effect.median:.2f}×) (provisional: no interval)")


def _scaled(result: Result, factor: float, index: int, group: str) -> Result:
    """A real run with its latencies scaled: a stand-in for one more repetition."""
    assert result.operation_latency is not None
    latency = LatencySummary(result.operation_latency.count,
                             {k: v * factor for k, v in result.operation_latency.values_ms.items()},
                             result.operation_latency.total_millis)
    return dataclasses.replace(result, operation_latency=latency, _decoded={},
                               repetition=Repetition(index, 5, group, True, "writes"))


def test_with_repetitions_a_step_has_an_interval_and_a_toggle_explains_it(results):
    """Five repetitions per side (real runs scaled by a few per cent): the step 3.3 → 3.6 moves beyond its interval
    and the verification toggle on 4.1 moves tx-writes the same way, so it is the explanation."""
    base = next(r for r in results if r.workload == "tx-writes" and r.versions["broker"] == "3.3.2")
    later = next(r for r in results if r.workload == "tx-writes" and r.versions["broker"] == "3.6.2"
                 and r.versions["kafkaClients"] == "3.6.2")
    jitter = (0.97, 0.99, 1.0, 1.01, 1.03)
    step_factor = 1.5 * _p50(base.path) / _p50(later.path)  # 3.6 made 1.5× slower than 3.3
    runs = [_scaled(base, j, i, "g") for i, j in enumerate(jitter)]
    runs += [_scaled(later, step_factor * j, i, "g") for i, j in enumerate(jitter)]
    toggle = [r for r in results if r.workload.startswith("tx-writes") and r.versions["broker"] == "4.1.1"
              and r.repetition is not None and r.repetition.comparison == "toggle-verification"]
    off = next(r for r in toggle if r.workload == "tx-writes-no-verification")
    on = next(r for r in toggle if r.workload == "tx-writes")
    on_factor = 1.4 * _p50(off.path) / _p50(on.path)  # verification on: 1.4× off
    runs += [_scaled(off, j, i, "t") for i, j in enumerate(jitter)]
    runs += [_scaled(on, on_factor * j, i, "t") for i, j in enumerate(jitter)]
    (step,) = [s for s in evolution.steps(evolution.points(runs), evolution.toggles(runs)) if s.after == "3.6.2"]
    assert step.own is not None and step.own.has_interval
    assert step.own.median == pytest.approx(1.5)
    assert step.explanation.startswith("KIP-890 part 1: partition verification")
    assert "toggle on 4.1.1: 1.40×" in step.explanation


def test_the_section_renders_in_the_seed_study_after_the_findings(tmp_path):
    completed = run_charts(EVOLUTION, "--out", tmp_path)
    assert completed.returncode == 0, completed.stderr
    markdown = (tmp_path / "report.md").read_text(encoding="utf-8")
    # the seed study is the report's last section (on by default: these inputs hold tx/base pairs and two
    # releases); "Since the seeds" is its subsection after the findings
    assert re.findall(r"^## .*$", markdown, flags=re.M)[-1] == "## Seed study"
    assert re.findall(r"^### (?:Findings|Since the seeds)$", markdown, flags=re.M) == ["### Findings",
                                                                                     "### Since the seeds"]
    section = re.search(r"^### Since the seeds$.*?(?=^#{1,3} |\Z)", markdown, flags=re.M | re.S).group(0)
    for title in ("Transaction scenarios by release", "What explains each step between releases",
                  "One dimension at a time", "The coordinator linger's bias"):
        assert title in section, title
    (off,) = _files("tx-writes-no-verification", "4.1.1")
    assert f"| partition verification | tx-writes | 4.1.1 | false → true | {format_ms(_p50(off))} (n = 1" \
        in section


def test_inputs_without_two_releases_or_a_toggle_leave_the_section_out(results):
    one_release = [r for r in results if r.versions["broker"] == "2.8.2"]
    assert not evolution.applies(one_release)
