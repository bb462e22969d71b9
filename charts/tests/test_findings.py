"""The Findings section: each seed finding on its own statistic, against the seed's figure widened by its own
spread, on a set-up printed beside the seed's, with a harness check before any judgement.

Expected numbers are read from the raw JSON of real, unedited results: fixtures/findings/ (repeated runs on Kafka
2.8.2 and 4.1.1) and fixtures/findings-readback/ (one quick pass of the findings suite on Kafka 2.8.2 by a runner
that records broker.system and drain; see the READMEs). The verdicts are what the rule gives for those numbers.
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

from omb_tx_charts import harness, hdr, intervals, repetitions, systems, tables
from omb_tx_charts.formatting import format_ms
from omb_tx_charts.loader import find_result_files, load_result
from omb_tx_charts.model import Result
from omb_tx_charts.provenance import provenance
from omb_tx_charts.study import catalogue, finding_tables, findings, judge, seeds, setup
from omb_tx_charts.study.findings import (
    HARNESS_BEHIND,
    NOT_APPLICABLE,
    NOT_MEASURED,
    NOT_REPRODUCED,
    REPRODUCED,
    REVERSED,
    UNINFORMATIVE,
)

FINDINGS = FIXTURES / "findings"
READBACK = FIXTURES / "findings-readback"
HOST = FIXTURES / "findings-host"


def _raw(path: Path) -> dict[str, Any]:
    return json.loads(path.read_text(encoding="utf-8"))


def _files(pattern: str, broker: str, folder: Path = FINDINGS) -> list[Path]:
    return sorted(p for p in folder.glob(pattern) if _raw(p)["broker"]["version"] == broker)


def _one(pattern: str) -> Path:
    (path,) = READBACK.glob(pattern)
    return path


def _p50(path: Path) -> float:
    return _raw(path)["operationLatency"]["p50"]


@pytest.fixture(scope="module")
def results() -> list[Result]:
    return [load_result(path) for path in find_result_files([str(FINDINGS)])]


@pytest.fixture(scope="module")
def rows(results) -> list[findings.FindingRow]:
    return findings.findings(results)


@pytest.fixture(scope="module")
def readback() -> list[Result]:
    return [load_result(path) for path in find_result_files([str(READBACK)])]


@pytest.fixture(scope="module")
def readback_rows(readback) -> list[findings.FindingRow]:
    return findings.findings(readback)


def _row(rows, figure: str, broker: str = "", scenario: str = "", backoff: int | None = None) -> findings.FindingRow:
    chosen = [r for r in rows if r.figure is not None and r.figure.key == figure
              and (r.setup is None or (r.setup.release or "").startswith(broker))
              and r.scenario.startswith(scenario)
              and (backoff is None or (r.setup is not None and r.setup.backoff_ms == backoff))]
    assert len(chosen) == 1, [(r.figure.key if r.figure else None, r.setup, r.scenario) for r in chosen]
    return chosen[0]


# --------------------------------------------------------------------------------------------------
# The seeds' figures


def test_every_seed_figure_names_its_seed_section_system_setup_and_widening() -> None:
    for figure in seeds.FIGURES:
        assert figure.seed in seeds.SEEDS and figure.section and figure.setup and figure.shown
        assert figure.system in ("Kafka", "Redpanda", "Aeron") and figure.seed_setup.system == figure.system
        assert figure.low <= figure.high and figure.widening >= 1 and figure.widening_reason
    assert {f.finding for f in seeds.FIGURES} == {spec.key for spec in catalogue.SPECS}
    assert len(seeds.SEEDS) == 5 and all(s.title and s.description for s in seeds.SEEDS.values())


def test_every_finding_names_its_statistic() -> None:
    assert catalogue.spec("003-backoff").statistic is catalogue.OPERATION_MEAN
    assert catalogue.spec("003-backoff-share").statistic is catalogue.PAST_BACKOFF
    assert catalogue.spec("001-txsend").statistic is catalogue.OPERATION_P50
    assert catalogue.spec("002-rate-durable").statistic is catalogue.MESSAGES_PER_SECOND
    assert "share of operations slower than the back-off (100 ms)" in catalogue.spec("003-backoff-share").quantity
    assert all(spec.statistic.name for spec in catalogue.SPECS)


def test_seed_001_single_node_and_three_nodes_are_figures_of_their_own_with_min_max_and_total() -> None:
    txsend = {f.key: f for f in seeds.figures_of("001-txsend")}
    assert set(txsend) == {"001-txsend/Kafka/1", "001-txsend/Kafka/3", "001-txsend/Redpanda/1",
                           "001-txsend/Redpanda/3"}
    assert (txsend["001-txsend/Kafka/1"].low, txsend["001-txsend/Kafka/3"].low) == (39, 25.5)
    assert (txsend["001-txsend/Kafka/1"].seed_setup.brokers, txsend["001-txsend/Kafka/3"].seed_setup.brokers) == (1, 3)
    assert txsend["001-txsend/Kafka/1"].also == "seed: min 32 ms, max 79 ms, 1,000 txes in 39,027 ms (mean 39 ms)"


def test_seed_001s_raw_logs_against_its_own_tables_are_its_inconsistency_and_its_spread() -> None:
    fetch = seeds.figure("001-fetch/Kafka/1")
    assert fetch is not None and "4.75" in fetch.inconsistency and "41 ms" in fetch.inconsistency
    assert fetch.widening == pytest.approx(41 / 4.753218)
    txsend = seeds.figure("001-txsend/Kafka/1")  # table 39 ms, log 23.2 ms
    assert txsend is not None and txsend.widening == pytest.approx(39 / 23.204628) and txsend.inconsistency
    stream = seeds.figure("001-stream/Kafka/3")  # table 132 ms, log 136 ms: they agree
    assert stream is not None and stream.widening == seeds.SEED_RUN_SPREAD and not stream.inconsistency


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


def test_a_difference_of_three_to_five_values_gets_a_t_interval_on_the_values() -> None:
    # Percentage points can be 0 or negative (the back-off share, default minus zero): no logarithms.
    estimate = intervals.estimate_signed([-2.0, 0.0, 1.0, 3.0, 8.0])
    mean, sd = 2.0, statistics.stdev([-2.0, 0.0, 1.0, 3.0, 8.0])
    half = 2.776445 * sd / math.sqrt(5)
    assert estimate.method == intervals.T_ON_VALUES and estimate.median == 1.0
    assert estimate.low == pytest.approx(mean - half) and estimate.high == pytest.approx(mean + half)
    assert intervals.estimate_signed([-1.0, 2.0]).method == intervals.TOO_FEW
    assert intervals.estimate_signed(range(-3, 6)).method == intervals.ORDER_STATISTICS


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
        ((25.0, 60.0), "000-writes/Kafka", 1.0, REPRODUCED),  # overlaps 30–50 (a range: used as it is)
        ((21.0, 22.0), "000-writes/Kafka", 1.0, NOT_REPRODUCED),  # right direction, below 30
        ((0.5, 3.0), "000-writes/Kafka", 1.0, NOT_REPRODUCED),  # straddles 1×
        ((0.2, 0.9), "000-writes/Kafka", 1.0, REVERSED),  # tx faster than base
        ((1.2, 1.4), "003-bulk/Redpanda", 1.0, REPRODUCED),  # direction only: above 1×
        ((0.9, 1.4), "003-bulk/Redpanda", 1.0, NOT_REPRODUCED),
        ((0.1, 0.2), "003-bulk/Redpanda", 1.0, REVERSED),
        ((65.0, 65.0), "001-txsend/Kafka/1", None, REPRODUCED),  # 39 ms widened by 39/23.2 to 23.2–65.5 ms
        ((66.0, 90.0), "001-txsend/Kafka/1", None, NOT_REPRODUCED),
        ((0.2, 0.3), "002-ordering/Kafka", 1.0, UNINFORMATIVE),  # 0.46–1.9× spans 1×: cannot fail
        ((3.0, 4.0), "002-ordering/Kafka", 1.0, UNINFORMATIVE),
        ((9.0, 9.0), "001-fetch/Kafka/1", None, UNINFORMATIVE),  # 41 ms vs its own log's 4.75 ms
        ((13.5, 13.5), "003-backoff/Kafka", 1.0, NOT_REPRODUCED),  # ≈100× widened 3× each way: 33–300×
        ((40.0, 40.0), "003-backoff/Kafka", 1.0, REPRODUCED),
        ((5.0, 20.0), "003-backoff-share/Kafka", 0.0, REPRODUCED),  # more operations past the back-off
        ((-20.0, -5.0), "003-backoff-share/Kafka", 0.0, REVERSED),
        ((-0.4, -0.4), "003-backoff-share/Kafka", 0.0, NOT_REPRODUCED),  # one operation in 300: no difference
    ],
)
def test_the_verdict_rule(bounds, key, reference, verdict) -> None:
    figure = seeds.figure(key)
    assert figure is not None
    assert judge.judge(bounds, figure, reference) == verdict


def test_a_figure_that_cannot_fail_says_why() -> None:
    ordering = seeds.figure("002-ordering/Kafka")
    assert ordering is not None and "both sides of 1×" in judge.uninformative(ordering, 1.0)
    fetch = seeds.figure("001-fetch/Kafka/1")
    assert fetch is not None and "spans 74×" in judge.uninformative(fetch, None)
    writes = seeds.figure("000-writes/Kafka")
    assert writes is not None and judge.uninformative(writes, 1.0) == ""


# --------------------------------------------------------------------------------------------------
# Category errors of the earlier report, each on recorded results


def _share_past(path: Path, limit_micros: int) -> float:
    histogram = hdr.decode_base64(_raw(path)["histograms"]["operationLatencyMicros"])
    past = sum(c for i, c in enumerate(histogram.counts) if c and histogram.lowest_value_at_index(i) > limit_micros)
    return past / histogram.total_count


def test_the_backoff_collision_is_judged_on_the_share_past_the_backoff_and_on_the_mean_not_on_p50(
        readback_rows) -> None:
    default, zero = _one("tx-streaming-kafka-tx-2026*.json"), _one("tx-streaming-kafka-tx-backoff-0-*.json")
    assert _raw(default)["environment"]["producerSettings"]["retry.backoff.ms"] == "100"  # read back
    assert _raw(zero)["environment"]["producerSettings"]["retry.backoff.ms"] == "0"
    share = _row(readback_rows, "003-backoff-share/Kafka", scenario="tx-streaming")
    default_share, zero_share = _share_past(default, 100_000), _share_past(zero, 100_000)
    assert default_share > 0.8 and zero_share < 0.05  # 85% of default-back-off transactions waited past 100 ms
    assert share.estimate.median == pytest.approx(100 * (default_share - zero_share))
    assert share.verdict == REPRODUCED and share.provisional  # one run each
    assert f"{default_share:.0%} with the default back-off vs {zero_share:.0%} with 0" in share.notes[0]
    mean = _row(readback_rows, "003-backoff/Kafka", scenario="tx-streaming")
    means = [_raw(p)["operationLatency"]["avg"] for p in (default, zero)]
    totals = [_raw(p)["operationLatency"]["totalMillis"] for p in (default, zero)]
    assert mean.estimate.median == pytest.approx(means[0] / means[1])  # 13.5×, the total time's ratio too
    assert means[0] / means[1] == pytest.approx(totals[0] / totals[1])
    assert mean.estimate.median != pytest.approx(_p50(default) / _p50(zero))  # not the p50 ratio
    assert mean.verdict == NOT_REPRODUCED and "direction holds, size differs" in mean.notes  # 13.5× vs ≈100×
    assert f"total time {totals[0]:,.0f} vs {totals[1]:,.0f} ms" in mean.notes[0]


def test_tuned_streaming_on_an_untuned_set_up_is_labelled_as_set_up_differs(readback_rows) -> None:
    zero = _raw(_one("tx-streaming-kafka-tx-backoff-0-*.json"))
    assert zero["broker"]["brokers"] == 1 and zero["driverConfig"]["replicationFactor"] == 1
    assert zero["environment"]["brokerSettings"]["log.flush.interval.messages"] != "1"
    tuned = _row(readback_rows, "003-streaming/Kafka", backoff=0)
    base = _p50(_one("base-streaming-*.json"))
    assert tuned.estimate.median == pytest.approx(zero["operationLatency"]["p50"] / base)
    assert set(tuned.depends) == {"brokers 1 ≠ 3", "RF 1 ≠ 3", "ISR 1 ≠ 2", "fsync/msg no ≠ yes"}
    assert tuned.verdict_text.endswith("· set-up differs")
    default = _row(readback_rows, "003-streaming/Kafka", backoff=100)  # the default back-off: one more difference
    assert "backoff 100 ≠ 0" in default.depends


_THIS_MACHINE = {"cpus": 2, "cpuModel": "AMD EPYC", "memoryMiB": 24105, "os": "Linux 6.1 amd64", "network": "loopback"}
_VIRTIO = {"device": "vda", "fileSystem": "ext4", "kind": "virtual disk"}


def test_the_machine_is_compared_with_each_seeds_own_and_a_file_without_it_with_none(readback) -> None:
    recorded = _raw(_one("tx-writes-*.json"))
    assert "host" not in recorded and "dataDisk" not in recorded["broker"]  # written before the runner recorded them
    older = setup.of(next(r for r in readback if r.workload == recorded["workload"]))
    assert (older.hardware, older.disk, older.network) == (None, None, None)
    assert setup.machine_differences(older, seeds.figure("000-writes/Kafka").seed_setup) == []
    here = dataclasses.replace(next(r for r in readback if r.workload == recorded["workload"]), host=_THIS_MACHINE,
                               broker_disk=_VIRTIO)
    run = setup.of(here)
    assert (run.hardware, run.disk, run.network) == ("1 machine (2 CPUs, AMD EPYC)", "virtual", "loopback")
    assert setup.machine_differences(run, seeds.figure("000-writes/Kafka").seed_setup) == [
        "hardware 1 machine (2 CPUs, AMD EPYC) ≠ 3 × i3.large", "disk virtual ≠ NVMe",
        "network loopback ≠ between machines"]
    # Seed 001's laptop names no disk, and its single node was on loopback as here: only the hardware differs.
    assert setup.machine_differences(run, seeds.figure("001-txsend/Kafka/1").seed_setup) == [
        "hardware 1 machine (2 CPUs, AMD EPYC) ≠ 1 laptop (ThinkPad P53, Core i9 9th gen)"]
    elsewhere = setup.of(dataclasses.replace(here, host={**_THIS_MACHINE, "network": "network"}))
    assert (elsewhere.hardware, elsewhere.network) == ("runner on 2 CPUs, AMD EPYC; brokers elsewhere",
                                                       "between machines")


def test_a_result_that_recorded_its_machine_has_it_marked_against_the_seeds_on_its_row() -> None:
    raw = _raw(next(HOST.glob("tx-writes-*.json")))
    host, disk = raw["host"], raw["broker"]["dataDisk"]
    assert (host["network"], disk["kind"]) == ("loopback", "virtual disk")
    row = _row(findings.findings([load_result(p) for p in find_result_files([str(HOST)])]), "000-writes/Kafka")
    hardware = f"1 machine ({host['cpus']} CPUs, {host['cpuModel']})"
    assert row.setup is not None and row.setup.hardware == hardware
    assert setup.machine_differences(row.setup, row.figure.seed_setup) == [
        f"hardware {hardware} ≠ 3 × i3.large", "disk virtual ≠ NVMe", "network loopback ≠ between machines"]
    assert not any(d.startswith(("hardware", "disk", "network")) for d in row.depends)


def test_every_row_marks_its_machine_apart_from_its_settings_and_the_summary_counts_them(readback) -> None:
    here = [dataclasses.replace(r, host=_THIS_MACHINE, broker_disk=_VIRTIO) for r in readback]
    rows = findings.findings(here)
    tuned = _row(rows, "003-streaming/Kafka", backoff=0)
    assert "hardware 1 machine (2 CPUs, AMD EPYC) ≠ 3 × i3.large" in tuned.differences
    assert set(tuned.depends) == {"brokers 1 ≠ 3", "RF 1 ≠ 3", "ISR 1 ≠ 2", "fsync/msg no ≠ yes"}  # as without it
    table = finding_tables.findings_table(rows)
    cell = next(body[7] for body, row in zip(table.rows, rows) if row is tuned)
    assert cell.endswith(" — machine ≠: hardware 1 machine (2 CPUs, AMD EPYC) ≠ 3 × i3.large; disk virtual ≠ NVMe; "
                         "network loopback ≠ between machines"), cell
    assert "1 machine (2 CPUs, AMD EPYC) · disk virtual · loopback" in cell
    judged = [row for row in rows if row.estimate is not None]
    text = finding_tables.summary(rows)
    assert f" {len(judged)} of {len(judged)} verdicts were measured on another machine than the seed's" in text
    assert "hardware 1 machine (2 CPUs, AMD EPYC)" in text and "network loopback" in text


def test_a_redpanda_claim_judged_on_kafka_results_is_not_applicable_not_reversed(readback_rows) -> None:
    bulk = _row(readback_rows, "003-bulk/Redpanda")
    tx, acks_all = (_raw(_one(f"{w}-*.json"))["summary"]["messagesPerSecond"] for w in ("bulk-tx", "bulk-acks-all"))
    assert tx < acks_all  # 0.21×: the earlier report called this "reversed"
    assert bulk.verdict == NOT_APPLICABLE and bulk.system == "Kafka" and bulk.estimate is None
    assert f"measured on Kafka: {findings.format_value(tx / acks_all, '×')}" in bulk.notes[0]
    assert "the seed's claim is about Redpanda" in bulk.notes[0]
    absolute = [r for r in readback_rows if r.figure is not None and r.figure.key == "003-stream-tx/Redpanda"]
    assert absolute and all(r.verdict == NOT_APPLICABLE for r in absolute)


def test_a_run_whose_load_generator_fell_behind_is_flagged_everywhere_and_not_judged(readback,
                                                                                     readback_rows) -> None:
    fast = _raw(_one("rps-sweep-25000-*.json"))
    achieved = fast["summary"]["messagesPerSecond"]
    assert achieved < 0.95 * fast["runMode"]["targetRate"]  # 12,479 of 25,000 msg/s
    behind = next(r for r in readback if r.path.name.startswith("rps-sweep-25000-"))
    assert harness.problems(behind) == (f"achieved {achieved:,.0f} of 25,000 msg/s ({achieved / 25000:.0%})",)
    knee = _row(readback_rows, "004-knee/Kafka")
    assert knee.verdict == HARNESS_BEHIND and knee.estimate is None
    assert knee.harness and knee.harness[0].startswith(behind.path.name)
    inputs = tables.inputs_table(readback, [])
    assert dict((row[0].rsplit("/", 1)[-1], row[-1]) for row in inputs.rows)[behind.path.name].startswith("achieved")
    assert "⚠ harness behind" in provenance(behind)
    kept = next(r for r in readback if r.path.name.startswith("rps-sweep-1000-"))
    assert _raw(kept.path)["drain"]["completed"] and not harness.problems(kept)  # delay p99 41 ms, rate held


def test_the_system_is_read_back_from_the_cluster_not_taken_from_the_driver_name(readback) -> None:
    run = next(r for r in readback if r.workload == "tx-writes")
    assert _raw(run.path)["broker"]["system"] == "kafka"
    assert systems.system(dataclasses.replace(run, driver="redpanda-tx")) == ("Kafka", "broker.system")
    assert systems.system(dataclasses.replace(run, broker_system="redpanda"))[0] == "Redpanda"


def test_redpanda_runs_with_the_shipped_back_off_of_zero_count_for_seed_001(readback) -> None:
    # No Redpanda broker runs on this machine: a recorded Kafka run stands in, read back as Redpanda and with
    # the shipped Redpanda driver's retry.backoff.ms=0 (driver-redpanda-tx/redpanda-tx.yaml).
    run = next(r for r in readback if r.workload == "tx-writes")
    environment = dict(run.environment, producerSettings={"retry.backoff.ms": "0"})
    redpanda = dataclasses.replace(run, broker_system="redpanda", driver="redpanda-tx", environment=environment)
    rows = findings.findings([redpanda])
    single = _row(rows, "001-txsend/Redpanda/1")
    assert single.verdict != NOT_MEASURED and single.setup.backoff_ms == 0
    assert single.estimate.median == run.operation_latency.get("p50")


def test_a_streaming_caption_counts_the_records_processed_not_messages_sent(readback) -> None:
    stream = next(r for r in readback if r.workload == "tx-streaming" and r.driver == "kafka-tx")
    assert stream.counts["messagesSent"] == 0 and stream.counts["messagesProcessed"] == 300
    assert "(0 done)" not in provenance(stream) and "measured 300 operations, 300 messages" in provenance(stream)


# --------------------------------------------------------------------------------------------------
# Verdicts on repeated runs


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
    row = _row(rows, "000-writes/Kafka", broker="2.8.2")
    expected = intervals.estimate(ratios)
    assert row.estimate is not None and row.estimate.n == 4
    assert row.estimate.median == pytest.approx(statistics.median(ratios))
    assert (row.estimate.low, row.estimate.high) == (pytest.approx(expected.low), pytest.approx(expected.high))
    assert row.estimate.method == intervals.T_ON_LOGS
    # 10.5× (5.4–23.8×): above 1×, below the seed's 30–50× (its range is its spread: not widened further)
    assert row.estimate.low > 1 and row.estimate.high < 30
    assert row.verdict == NOT_REPRODUCED and "direction holds, size differs" in row.notes
    assert set(row.depends) == {"brokers 1 ≠ 3", "RF 1 ≠ 3"} and row.verdict_text.endswith("set-up differs")
    assert set(row.files) == {p.name for p in tops + _files("base-writes-*.json", "2.8.2")}


def test_fetch_is_judged_on_write_to_visible_and_the_seeds_contradiction_makes_it_uninformative(rows) -> None:
    for broker, n in (("2.8.2", 1), ("4.1.1", 3)):
        files = _files("tx-fetch-*.json", broker)
        visible = [_raw(p)["aggregatedEndToEndLatencyQuantiles"]["50.0"] for p in files]
        transaction = [_p50(p) for p in files]
        row = _row(rows, "001-fetch/Kafka/1", broker=broker)
        assert row.estimate is not None and row.estimate.n == n
        assert row.estimate.median == pytest.approx(statistics.median(visible))
        assert row.estimate.median != pytest.approx(statistics.median(transaction))
        assert row.verdict == UNINFORMATIVE  # 41 ms in the seed's table, 4.75 ms in its own log


def test_single_runs_get_provisional_verdicts_and_each_broker_release_its_own_row(rows) -> None:
    stream_28 = _row(rows, "001-stream/Kafka/1", broker="2.8.2", backoff=100)
    stream_41 = _row(rows, "001-stream/Kafka/1", broker="4.1.1", backoff=100)
    assert stream_28.estimate.median == _p50(_files("tx-streaming-kafka-tx-2026*.json", "2.8.2")[0])  # 127 ms
    assert stream_41.estimate.median == _p50(_files("tx-streaming-kafka-tx-2026*.json", "4.1.1")[0])  # 32 ms
    assert (stream_28.verdict, stream_41.verdict) == (REPRODUCED, NOT_REPRODUCED)  # seed: 150 ms, 120–188
    assert "n = 1: no interval, verdict provisional" in stream_28.notes
    three_nodes = _row(rows, "001-stream/Kafka/3", broker="2.8.2", backoff=100)  # 132 ms on 3 nodes
    assert three_nodes.depends == ("brokers 1 ≠ 3",) and three_nodes.setup_differs


def test_what_was_not_run_is_not_measured(rows) -> None:
    knee = _row(rows, "004-knee/Kafka", broker="2.8.2")
    assert knee.verdict == NOT_MEASURED and knee.estimate is None  # the suite's sweep stopped at 5K, the knee is at 25K
    assert finding_tables.measured_text(knee) == "none ≤ 5K msg/s"
    assert "1 sweep(s) stop below 25K msg/s without a knee: left out" in knee.notes
    assert all(r.verdict == NOT_MEASURED for r in rows if r.figure is not None
               and r.figure.key.startswith("001-sendoffsets"))  # no tx-send-offsets file in this set
    redpanda = [r for r in rows if r.figure is not None and r.figure.system == "Redpanda"]
    assert redpanda and all(r.verdict in (NOT_MEASURED, NOT_APPLICABLE) for r in redpanda)
    assert {r.verdict for r in rows} <= set(findings.VERDICTS)


def test_every_measured_row_cites_files_that_exist_in_the_inputs(rows) -> None:
    names = {p.name for p in FINDINGS.glob("*.json")}
    for row in rows:
        assert set(row.files) <= names
        if row.estimate is not None:
            assert row.files
        if row.setup is None:  # nothing of this set-up in the inputs
            assert not row.files and row.verdict == NOT_MEASURED
    sources = finding_tables.sources_table(rows)
    for (row_id, *_, cited), row in zip(sources.rows, rows):
        assert all(name in cited for name in row.files), row_id


def test_the_summary_counts_the_verdicts_the_table_shows(rows) -> None:
    text = finding_tables.summary(rows)
    counts = {v: sum(1 for r in rows if r.verdict == v) for v in findings.VERDICTS}
    assert text.startswith(f"{len(rows)} seed findings: ")
    for verdict, count in counts.items():
        assert (f"{count} {verdict}" in text) == bool(count)
    assert "Set-ups measured: Kafka 2.8.2, 4.1.1" in text and "brokers 1, 3" in text


# --------------------------------------------------------------------------------------------------
# Repetitions are a spread, not superseded


def test_runs_of_one_repetition_group_are_not_superseded_but_an_older_invocation_is(results) -> None:
    older = {r.path.name for r in repetitions.superseded(results)}
    suite_run = _files("tx-writes-kafka-tx-2026*.json", "2.8.2")[0].name  # the suite's run, before the --repeat 3
    assert suite_run in older
    assert not any("-rep" in name for name in older)
    table = tables.inputs_table(results, repetitions.superseded(results))
    statuses = {row[0].rsplit("/", 1)[-1]: row[-2] for row in table.rows}
    assert statuses[suite_run] == "complete (superseded by a newer run)"
    assert statuses[_files("tx-writes-rep2-*.json", "4.1.1")[0].name] == "complete (repetition 2 of 3)"


# --------------------------------------------------------------------------------------------------
# The report ends with them: one section, the seed study, its summary first


def test_the_seed_study_is_the_last_section_opening_with_the_summary_and_the_findings_table(tmp_path: Path) -> None:
    inputs = _files("tx-fetch-*.json", "2.8.2") + _files("tx-fetch-*.json", "4.1.1")
    completed = run_charts(*inputs, "--out", tmp_path)  # a scenario on two releases: the study is on by default
    assert completed.returncode == 0, completed.stderr
    markdown = (tmp_path / "report.md").read_text(encoding="utf-8")
    assert re.findall(r"^## .*$", markdown, flags=re.M)[-1] == "## Seed study"
    study = markdown.index("## Seed study")
    summary = markdown.index("**Summary:** ")
    first_table = markdown.index("| Finding | Claim about / results | Seed's figure |")
    assert markdown.index("## Inputs") < study < summary < markdown.index("### Findings") < first_table
    visible = intervals.estimate([_raw(p)["aggregatedEndToEndLatencyQuantiles"]["50.0"]
                                  for p in _files("tx-fetch-*.json", "4.1.1")])
    shown = [findings.format_value(v, "ms") for v in (visible.median, visible.low, visible.high)]
    assert shown == ["24.2 ms", "11.6 ms", "40.1 ms"]
    row = (f"· seed 001: FetchBench median (write-to-visible) (single node) | Kafka / Kafka | 41 ms (widened "
           f"4.8 ms–354 ms) | {shown[0]} | {shown[1].removesuffix(' ms')}–{shown[2]} | 3 | after-commit | Kafka "
           "4.1.1 · client 4.1.1 · 1 broker · RF 1 · ISR 1 · no fsync · backoff 100 · 200 ops — also ≠: "
           "operations 200 ≠ 1,000 | Kafka · 1 broker · 1,000 ops · 1 laptop (ThinkPad P53, Core i9 9th gen) · "
           "loopback | uninformative |")
    assert re.search(r"^\| F\d+ " + re.escape(row) + "$", markdown, flags=re.M), markdown[first_table:][:3000]
    assert "Verdict rule, in order." in markdown and "Harness check, before any judgement" in markdown
    page = (tmp_path / "index.html").read_text(encoding="utf-8")
    assert re.findall(r"<h2>(.*?)</h2>", page)[-1] == "Seed study"
    assert page.index("<h2>Inputs</h2>") < page.index('<p class="summary">') < page.index("<h3>Findings</h3>") \
        < page.index("<th style=\"text-align:left\">Verdict</th>")
    for path in inputs:
        assert path.name in page


def test_a_sweep_whose_1k_point_had_a_starved_load_generator_is_not_judged(rows) -> None:
    files = _files("rps-sweep-*.json", "4.1.1")
    delays = {_raw(p)["sweep"]["value"]: _raw(p)["aggregatedPublishDelayLatency99pct"] / 1000 for p in files}
    assert delays[1000] > harness.MAX_PUBLISH_DELAY_P99_MS  # 62 ms: the sends started late
    knee = _row(rows, "004-knee/Kafka", broker="4.1.1")
    assert knee.verdict == HARNESS_BEHIND and knee.estimate is None
    assert len(knee.harness) == 2  # 1K by its publish delay, 25K by its achieved rate


def test_a_sweep_is_the_runs_of_one_repetition_index_until_a_rate_comes_again(results) -> None:
    sweeps = findings.sweep_repetitions(r for r in results if r.sweep is not None)
    by_broker = sorted((next(iter(s.values())).versions["broker"], sorted(s)) for s in sweeps)
    assert by_broker == [("2.8.2", [1000.0, 5000.0]), ("4.1.1", [1000.0, 25000.0])]


def test_seed_004_gets_every_published_percentile_at_every_rate_beside_the_measured_ones(readback) -> None:
    table = finding_tables.seed_004_table(readback)
    assert len(table.rows) == sum(len(rates) for rates in seeds.SEED_004.values())  # 18: every rate of 3 systems
    rows = {(row[0], row[1]): row for row in table.rows}
    assert rows[("Kafka 2.8.0", "25K")][2] == "438 / 763 / 1372 / 1452 / 1456"
    assert rows[("Redpanda 21.7.6", "1K")][2] == "not run"
    one_k = _raw(_one("rps-sweep-1000-*.json"))["aggregatedEndToEndLatencyQuantiles"]
    expected = " / ".join(format_ms(one_k[key]) for key in ("25.0", "50.0", "90.0", "99.0", "99.9"))
    assert rows[("Kafka 2.8.0", "1K")][3] == f"2.8.2 (tv 0): {expected} (n = 1)"
    assert rows[("Kafka 2.8.0", "25K")][3].startswith("— ⚠ left out, harness behind: rps-sweep-25000-")


def test_the_begin_phase_row_says_which_phase_the_transaction_spends_its_time_in(readback_rows) -> None:
    (row,) = [r for r in readback_rows if r.figure is not None and r.figure.key == "003-begin/Kafka"]
    phases = _raw(_one("tx-writes-kafka-tx-*.json"))["transactionPhases"]
    assert row.estimate.median == pytest.approx(phases["begin"]["p50"] / phases["transaction"]["p50"])
    largest = max(("begin", "send", "resolve", "commit"), key=lambda p: phases[p]["p50"])
    assert any(note.startswith("phase p50s: begin ") and note.endswith(f"the largest: {largest}") for note in row.notes)
