"""The Findings section: seed figures, medians with 95% intervals over repetitions, verdicts by the stated rule.

The real results in fixtures/findings/ (see its README) come from Kafka 2.8.2 and 4.1.1; expected numbers are read
from their raw JSON here, the verdicts are what the rule gives for those numbers (worked out in each test).
"""

from __future__ import annotations

import json
import math
import re
import statistics
from pathlib import Path
from typing import Any

import pytest

from omb_tx_charts import findings, intervals, repetitions, seeds, tables
from omb_tx_charts.findings import NOT_MEASURED, NOT_REPRODUCED, REPRODUCED, REVERSED
from omb_tx_charts.loader import find_result_files, load_result
from omb_tx_charts.model import Result

from conftest import FIXTURES, run_charts

FINDINGS = FIXTURES / "findings"


def _raw(path: Path) -> dict[str, Any]:
    return json.loads(path.read_text(encoding="utf-8"))


def _files(pattern: str, broker: str) -> list[Path]:
    return sorted(p for p in FINDINGS.glob(pattern) if _raw(p)["broker"]["version"] == broker)


def _p50(path: Path) -> float:
    return _raw(path)["operationLatency"]["p50"]


@pytest.fixture(scope="module")
def results() -> list[Result]:
    return [load_result(path) for path in find_result_files([str(FINDINGS)])]


@pytest.fixture(scope="module")
def rows(results) -> list[findings.FindingRow]:
    return findings.findings(results)


def _row(rows, key: str, system: str = "Kafka", broker: str = "", scenario: str = "") -> findings.FindingRow:
    chosen = [r for r in rows if r.spec.key == key and r.system == system and r.broker.startswith(broker)
              and r.scenario.startswith(scenario)]
    assert len(chosen) == 1, [(r.spec.key, r.system, r.broker, r.scenario) for r in chosen]
    return chosen[0]


# --------------------------------------------------------------------------------------------------
# The seeds' figures


def test_every_seed_figure_names_its_seed_and_section_and_every_finding_has_one() -> None:
    for figure in seeds.FIGURES:
        assert figure.seed in seeds.SEEDS and figure.section and figure.setup and figure.shown
        assert figure.low <= figure.high
    keys = {f.key.split("/")[0] for f in seeds.FIGURES}
    assert keys == {spec.key for spec in findings.SPECS}
    assert len(seeds.SEEDS) == 5 and all(s.title and s.description for s in seeds.SEEDS.values())


def test_the_knees_follow_from_seed_004s_published_p50s_by_the_reports_rule() -> None:
    for system, curve in seeds.SWEEP_P50_MS.items():
        figure = seeds.figure(f"004-knee/{system}")
        assert figure is not None
        assert findings.knee_rate(curve) == figure.low == figure.high
    assert findings.knee_rate(seeds.SWEEP_P50_MS["Kafka"]) == 25000  # 763 ms ≥ 10 × 6.8 ms; 9.9 ms at 10K is not


# --------------------------------------------------------------------------------------------------
# Intervals


def test_order_statistics_cover_the_median_with_at_least_95_percent_from_six_values() -> None:
    assert [intervals.order_statistic_rank(n) for n in (6, 8, 9, 12, 17, 20)] == [1, 1, 2, 3, 5, 6]
    for n in range(6, 60):
        j = intervals.order_statistic_rank(n)
        assert intervals.order_statistic_coverage(n, j) >= 0.95 > intervals.order_statistic_coverage(n, j + 1)
    estimate = intervals.estimate([7, 1, 3, 2, 6, 4, 5, 9, 8])
    assert (estimate.median, estimate.low, estimate.high, estimate.method) == (5, 2, 8, intervals.ORDER_STATISTICS)


def test_three_to_five_values_get_a_t_interval_on_their_logarithms() -> None:
    estimate = intervals.estimate([1.0, 2.0, 4.0])
    half = 4.302653 * math.log(2) / math.sqrt(3)  # logs 0, ln 2, 2 ln 2: mean ln 2, standard deviation ln 2
    assert estimate.method == intervals.T_ON_LOGS and estimate.median == 2.0
    assert estimate.low == pytest.approx(2 * math.exp(-half)) and estimate.high == pytest.approx(2 * math.exp(half))


def test_fewer_than_three_values_get_no_interval() -> None:
    for values in ([5.0], [5.0, 7.0]):
        estimate = intervals.estimate(values)
        assert not estimate.has_interval and estimate.method == intervals.TOO_FEW
        assert estimate.bounds() == (statistics.median(values),) * 2


# --------------------------------------------------------------------------------------------------
# The verdict rule


@pytest.mark.parametrize(
    ("bounds", "key", "reference", "verdict"),
    [
        ((25.0, 60.0), "000-writes/Kafka", 1.0, REPRODUCED),  # overlaps 30–50
        ((21.0, 22.0), "000-writes/Kafka", 1.0, REPRODUCED),  # inside the widened 20–75
        ((5.0, 12.0), "000-writes/Kafka", 1.0, NOT_REPRODUCED),  # right direction, too small
        ((0.5, 3.0), "000-writes/Kafka", 1.0, NOT_REPRODUCED),  # straddles 1×
        ((0.2, 0.9), "000-writes/Kafka", 1.0, REVERSED),  # tx faster than base
        ((1.2, 1.4), "003-bulk/Redpanda", 1.0, REPRODUCED),  # direction only: above 1×
        ((0.9, 1.4), "003-bulk/Redpanda", 1.0, NOT_REPRODUCED),
        ((0.1, 0.2), "003-bulk/Redpanda", 1.0, REVERSED),
        ((58.0, 58.0), "001-txsend/Kafka", None, REPRODUCED),  # 25.5–39 ms widened to 17–58.5, a lone median
        ((59.0, 90.0), "001-txsend/Kafka", None, NOT_REPRODUCED),
    ],
)
def test_the_verdict_rule(bounds, key, reference, verdict) -> None:
    figure = seeds.figure(key)
    assert figure is not None
    assert findings.judge(bounds, figure, reference) == verdict


# --------------------------------------------------------------------------------------------------
# Verdicts on the real results


def _ratios(tops: list[Path], bottoms: list[Path]) -> list[float]:
    """Per repetition: the runs of one group with the same index, as the report pairs them."""
    by_slot = {(_raw(p)["repetition"]["group"], _raw(p)["repetition"]["index"]): p for p in bottoms}
    ratios = []
    for top in tops:
        repetition = _raw(top)["repetition"]
        bottom = by_slot[(repetition["group"], repetition["index"])]
        ratios.append(_p50(top) / _p50(bottom))
    return ratios


def test_writes_overhead_on_2_8_is_a_median_of_four_paired_repetitions_with_a_t_interval(rows) -> None:
    tops = _files("tx-writes-*kafka-tx-2026*.json", "2.8.2")
    ratios = _ratios(tops, _files("base-writes-*.json", "2.8.2"))
    assert len(ratios) == 4  # 3 interleaved repetitions and the suite's run, each paired within its group
    row = _row(rows, "000-writes", broker="2.8.2")
    expected = intervals.estimate(ratios)
    assert row.estimate is not None and row.estimate.n == 4
    assert row.estimate.median == pytest.approx(statistics.median(ratios))
    assert (row.estimate.low, row.estimate.high) == (pytest.approx(expected.low), pytest.approx(expected.high))
    assert row.estimate.method == intervals.T_ON_LOGS
    # 10.5× (5.4–23.8×): above 1× and reaching the seed's 30–50× widened to 20–75×.
    assert row.estimate.low > 1 and row.estimate.high >= 30 / 1.5 and row.estimate.median < 30
    assert row.verdict == REPRODUCED
    assert set(row.files) == {p.name for p in tops + _files("base-writes-*.json", "2.8.2")}


def test_writes_overhead_on_4_1_straddles_one_and_is_not_reproduced(rows) -> None:
    ratios = _ratios(_files("tx-writes-*.json", "4.1.1"), _files("base-writes-*.json", "4.1.1"))
    row = _row(rows, "000-writes", broker="4.1.1")
    assert row.broker == "4.1.1 (tv 2)" and row.order == "after-commit"
    assert row.estimate is not None and sorted(row.estimate.values) == pytest.approx(sorted(ratios))
    assert row.estimate.low < 1 < row.estimate.high  # one repetition's base run was slow on the shared machine
    assert row.verdict == NOT_REPRODUCED


def test_fetch_is_judged_on_write_to_visible_not_on_the_transaction_time(rows) -> None:
    for broker, n in (("2.8.2", 1), ("4.1.1", 3)):
        files = _files("tx-fetch-*.json", broker)
        visible = [_raw(p)["aggregatedEndToEndLatencyQuantiles"]["50.0"] for p in files]
        transaction = [_p50(p) for p in files]
        row = _row(rows, "001-fetch", broker=broker)
        assert row.estimate is not None and row.estimate.n == n
        assert row.estimate.median == pytest.approx(statistics.median(visible))
        assert row.estimate.median != pytest.approx(statistics.median(transaction))
    # 2.8: one run, 6.6 ms, below 41 / 27.5 ms widened to 18.3–61.5 ms; 4.1: 24.2 ms (11.6–40.1 ms) overlaps it.
    assert _row(rows, "001-fetch", broker="2.8.2").verdict == NOT_REPRODUCED
    assert _row(rows, "001-fetch", broker="2.8.2").estimate.has_interval is False
    assert _row(rows, "001-fetch", broker="4.1.1").verdict == REPRODUCED


def test_single_runs_get_provisional_verdicts_and_each_broker_release_its_own_row(rows) -> None:
    stream_28, stream_41 = _row(rows, "001-stream", broker="2.8.2"), _row(rows, "001-stream", broker="4.1.1")
    assert stream_28.estimate.median == _p50(_files("tx-streaming-kafka-tx-2026*.json", "2.8.2")[0])  # 127 ms
    assert stream_41.estimate.median == _p50(_files("tx-streaming-kafka-tx-2026*.json", "4.1.1")[0])  # 32 ms
    assert (stream_28.verdict, stream_41.verdict) == (REPRODUCED, NOT_REPRODUCED)  # seed: 132–150 ms
    assert "n = 1: no interval, verdict provisional" in stream_28.notes
    overhead_28, overhead_41 = _row(rows, "000-streaming", broker="2.8.2"), _row(rows, "000-streaming", broker="4.1.1")
    assert overhead_28.verdict == REPRODUCED and overhead_41.verdict == NOT_REPRODUCED  # 104× and 5.0× vs 40–120×
    assert "direction holds, size differs" in overhead_41.notes


def test_backoff_tuned_streaming_bulk_and_ordering(rows) -> None:
    default = _p50(_files("tx-streaming-kafka-tx-2026*.json", "2.8.2")[0])
    zero = _p50(_files("tx-streaming-kafka-tx-backoff-0-*.json", "2.8.2")[0])
    backoff = _row(rows, "003-backoff", broker="2.8.2", scenario="tx-streaming")
    assert backoff.estimate.median == pytest.approx(default / zero)  # 18.7×: slower, not a hundredfold
    assert backoff.verdict == NOT_REPRODUCED and backoff.title == "Back-off collision: tx-streaming"
    tuned = _row(rows, "003-streaming", broker="2.8.2")
    base = _p50(_files("base-streaming-*.json", "2.8.2")[0])
    assert tuned.estimate.median == pytest.approx(zero / base) and tuned.verdict == REPRODUCED  # 5.6× vs 6.3×
    assert any("RF 3" in note for note in tuned.notes)
    bulk = _row(rows, "003-bulk", broker="2.8.2")
    tx, acks_all = (_raw(_files(f"{w}-*.json", "2.8.2")[0])["summary"]["messagesPerSecond"]
                    for w in ("bulk-tx", "bulk-acks-all"))
    assert bulk.estimate.median == pytest.approx(tx / acks_all) and bulk.verdict == REVERSED  # 0.15×
    assert "the seed measured Redpanda, not Kafka" in bulk.notes
    ordering = _row(rows, "002-ordering", broker="2.8.2")
    durable, yolo = (_raw(_files(f"acks-sla-{p}-*.json", "2.8.2")[0])["summary"]["messagesPerSecond"]
                     for p in ("durable", "yolo"))
    # the seed's own runs range from 0.46× to 1.9× (its order of runs decides), widened 1.5×: 0.31–2.9×
    assert ordering.estimate.median == pytest.approx(durable / yolo) and ordering.verdict == NOT_REPRODUCED  # 0.22×


def test_what_was_not_run_is_not_measured(rows) -> None:
    knee = _row(rows, "004-knee", broker="2.8.2")
    assert knee.verdict == NOT_MEASURED and knee.estimate is None  # the suite's sweep stopped at 5K, the knee is at 25K
    assert findings.measured_text(knee) == "none ≤ 5K msg/s"
    assert "1 sweep(s) stop below 25K msg/s without a knee: left out" in knee.notes
    assert _row(rows, "001-sendoffsets").verdict == NOT_MEASURED  # no tx-send-offsets file in this set
    redpanda = [r for r in rows if r.system == "Redpanda"]
    assert redpanda and all(r.verdict == NOT_MEASURED for r in redpanda)
    assert {r.verdict for r in rows} <= set(findings.VERDICTS)


def test_every_measured_row_cites_files_that_exist_in_the_inputs(rows) -> None:
    names = {p.name for p in FINDINGS.glob("*.json")}
    for row in rows:
        assert set(row.files) <= names
        assert bool(row.files) == (row.estimate is not None or row.broker != "—")
    sources = findings.sources_table(rows)
    for (row_id, *_, cited), row in zip(sources.rows, rows):
        assert all(name in cited for name in row.files), row_id


# --------------------------------------------------------------------------------------------------
# Repetitions are a spread, not superseded


def test_runs_of_one_repetition_group_are_not_superseded_but_an_older_invocation_is(results) -> None:
    older = {r.path.name for r in repetitions.superseded(results)}
    suite_run = _files("tx-writes-kafka-tx-2026*.json", "2.8.2")[0].name  # the suite's run, before the --repeat 3
    assert suite_run in older
    assert not any("-rep" in name for name in older)
    table = tables.inputs_table(results, repetitions.superseded(results))
    statuses = {row[0].rsplit("/", 1)[-1]: row[-1] for row in table.rows}
    assert statuses[suite_run] == "complete (superseded by a newer run)"
    assert statuses[_files("tx-writes-rep2-*.json", "4.1.1")[0].name] == "complete (repetition 2 of 3)"


# --------------------------------------------------------------------------------------------------
# The report opens with them


def test_the_report_opens_with_the_findings_table(tmp_path: Path) -> None:
    inputs = _files("tx-fetch-*.json", "2.8.2") + _files("tx-fetch-*.json", "4.1.1")
    completed = run_charts(*inputs, "--out", tmp_path)
    assert completed.returncode == 0, completed.stderr
    markdown = (tmp_path / "report.md").read_text(encoding="utf-8")
    assert re.findall(r"^## .*$", markdown, flags=re.M)[0] == "## Findings"
    first_table = markdown.index("| Finding | System | Broker (tv) |")
    assert first_table < markdown.index("## Inputs")
    visible = intervals.estimate([_raw(p)["aggregatedEndToEndLatencyQuantiles"]["50.0"]
                                  for p in _files("tx-fetch-*.json", "4.1.1")])
    shown = [findings.format_value(v, "ms") for v in (visible.median, visible.low, visible.high)]
    assert shown == ["24.2 ms", "11.6 ms", "40.1 ms"]
    row = (f"· seed 001: FetchBench median (write-to-visible) | Kafka | 4.1.1 (tv 2) | after-commit | 27.5–41 ms "
           f"| {shown[0]} | {shown[1].removesuffix(' ms')}–{shown[2]} | 3 | reproduced |")
    assert re.search(r"^\| F\d+ " + re.escape(row) + "$", markdown, flags=re.M), markdown[first_table:][:3000]
    assert "Verdict rule." in markdown
    assert re.search(r"^\| F\d+ · seed 001: FetchBench median \(write-to-visible\) \| Kafka \| 2\.8\.2 \(tv 0\) .*"
                     r"\| n too small \| 1 \| not reproduced \(provisional\) \|$", markdown, flags=re.M)
    page = (tmp_path / "index.html").read_text(encoding="utf-8")
    assert re.findall(r"<h2>(.*?)</h2>", page)[0] == "Findings"
    assert page.index("<th style=\"text-align:left\">Verdict</th>") < page.index("<h2>Inputs</h2>")
    for path in inputs:
        assert path.name in page


def test_a_sweep_reaching_25k_gets_a_knee_verdict_from_its_end_to_end_p50s(rows) -> None:
    files = _files("rps-sweep-*.json", "4.1.1")
    p50 = {_raw(p)["sweep"]["value"]: _raw(p)["aggregatedEndToEndLatencyQuantiles"]["50.0"] for p in files}
    assert sorted(p50) == [1000, 25000]
    knee = _row(rows, "004-knee", broker="4.1.1")
    assert findings.knee_rate(p50) == (25000 if p50[25000] >= 10 * p50[1000] else math.inf)
    # On the loaded machine 1K already took 142 ms and 25K 273 ms: under 10×, so no knee up to 25K.
    assert p50[25000] < 10 * p50[1000] and knee.verdict == NOT_REPRODUCED
    assert findings.measured_text(knee) == "none ≤ 25K msg/s"
    assert f"end-to-end p50 by target rate: 1K {findings.format_value(p50[1000], 'ms')}, " \
           f"25K {findings.format_value(p50[25000], 'ms')}" in knee.notes
    assert set(knee.files) == {p.name for p in files}


def test_a_sweep_is_the_runs_of_one_repetition_index_until_a_rate_comes_again(results) -> None:
    sweeps = findings.sweep_repetitions(r for r in results if r.sweep is not None)
    by_broker = sorted((next(iter(s.values())).versions["broker"], sorted(s)) for s in sweeps)
    assert by_broker == [("2.8.2", [1000.0, 5000.0]), ("4.1.1", [1000.0, 25000.0])]
