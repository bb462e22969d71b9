"""The numbers the report shows, computed from the fixtures, equal the expected values."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from omb_tx_charts import analysis, tables
from omb_tx_charts.formatting import format_ms, format_rate
from omb_tx_charts.loader import parse_result


def _pair(pairs, driver: str, label: str) -> analysis.Overhead:
    return next(p for p in pairs if p.driver == driver and p.label == label)


def test_writes_overhead_is_tx_p50_over_base_p50_per_driver(all_results) -> None:
    pairs = analysis.overheads(all_results)
    kafka = _pair(pairs, "kafka-tx", "writes")
    assert kafka.p50_ratio == pytest.approx(24.175 / 0.805)  # 30.03×
    assert kafka.total_ratio == pytest.approx(25700.203 / 857.93)
    redpanda = _pair(pairs, "redpanda-tx", "writes")
    assert redpanda.p50_ratio == pytest.approx(3.741 / 0.707)


def test_streaming_pairs_match_on_scenario_prefix_with_same_suffix(all_results) -> None:
    pairs = analysis.overheads(all_results)
    assert [(p.driver, p.label) for p in pairs] == [
        ("kafka-tx", "writes"),
        ("redpanda-tx", "writes"),
        ("kafka-tx", "streaming-quick"),
        ("redpanda-tx", "streaming-quick"),
    ]
    kafka = _pair(pairs, "kafka-tx", "streaming-quick")
    assert kafka.tx.workload == "tx-streaming-quick" and kafka.base.workload == "base-streaming-quick"
    assert kafka.p50_ratio == pytest.approx(30.607 / 1.105)


def test_total_time_ratio_is_per_operation_when_counts_differ(all_results) -> None:
    partial = _pair(analysis.overheads(all_results), "redpanda-tx", "streaming-quick")
    assert partial.counts_differ
    assert partial.total_ratio == pytest.approx((1937.869 / 640) / (649.118 / 1000))


def test_no_pair_across_different_suffixes(all_results) -> None:
    base_writes = [r for r in all_results if r.workload == "base-writes"]
    tx_quick = [replace(r, workload="tx-writes-quick") for r in all_results if r.workload == "tx-writes"]
    assert analysis.overheads(base_writes + tx_quick) == []


def test_paired_scenario_parses_names() -> None:
    assert analysis.paired_scenario("tx-writes") == ("tx", "writes", "")
    assert analysis.paired_scenario("base-streaming-quick") == ("base", "streaming", "-quick")
    assert analysis.paired_scenario("tx-writesX") is None
    assert analysis.paired_scenario("tx-send-offsets") is None


def test_overhead_table_rows(all_results) -> None:
    table = tables.overhead_table(analysis.overheads(all_results))
    assert table.rows[0] == ("writes", "kafka-tx", "0.81 ms", "24.2 ms", "30.0×", "858 ms", "25700 ms", "30.0×")
    assert table.rows[3][1] == "redpanda-tx [PARTIAL]"
    assert table.rows[3][-1] == "4.7× (per op)"


def test_sweep_table_has_one_row_per_rate_in_seed_004_form(all_results) -> None:
    sweeps = analysis.sweeps(all_results)
    assert list(sweeps) == ["rps-sweep-quick"]
    assert list(sweeps["rps-sweep-quick"]) == ["kafka-tx", "redpanda-tx"]
    table = tables.sweep_table("rps-sweep-quick", "kafka-tx", sweeps["rps-sweep-quick"]["kafka-tx"])
    assert tables.to_markdown(table).splitlines() == [
        "| RPS/Latency | 25th | 50th | 90th | 99th | 99.9th |",
        "|---|---:|---:|---:|---:|---:|",
        "| 1K | 4.7 | 6.9 | 14.2 | 28 | 57.7 |",
        "| 5K | 5 | 7.3 | 15.1 | 28.3 | 58.3 |",
        "| 10K | 6.9 | 10 | 20.6 | 40.7 | 80.1 |",
    ]
    redpanda = sweeps["rps-sweep-quick"]["redpanda-tx"]
    assert [p.rate for p in redpanda] == [1000, 5000, 10000]
    assert redpanda[1].latencies_ms[99.9] == 103.871


def test_sweep_uses_the_histogram_when_the_quantile_map_is_missing(all_results) -> None:
    point = analysis.sweeps(all_results)["rps-sweep-quick"]["kafka-tx"][0].result
    without_map = replace(point, end_to_end_latency_quantiles={}, _decoded={})
    # Same HdrHistogram, so the same value as the runner's map: 6.891 ms.
    assert analysis.percentile_value_ms(without_map, analysis.END_TO_END, 50.0) == pytest.approx(6.891)


@pytest.mark.parametrize(
    ("rate", "text"), [(1000, "1K"), (5000, "5K"), (100_000, "100K"), (2500, "2.5K"), (1_000_000, "1M"), (500, "500")]
)
def test_rates_are_shown_like_seed_004(rate: float, text: str) -> None:
    assert format_rate(rate) == text


@pytest.mark.parametrize(("ms", "text"),
                         [(3.7, "3.7"), (59.94, "59.9"), (763.2, "763"), (25.0, "25"), (0.345, "0.34"), (None, "-")])
def test_latencies_are_shown_like_the_seeds(ms: float | None, text: str) -> None:
    assert format_ms(ms) == text


def test_acks_table_reproduces_seed_002_columns(all_results) -> None:
    groups = analysis.acks_rows(all_results)
    assert list(groups) == [("kafka-tx", 100_000)]
    table = tables.acks_table("kafka-tx", 100_000, groups[("kafka-tx", 100_000)])
    assert table.header == ("Topic/profile", "Partitions", "Replication", "ISR", "ACKS", "Duration", "Msg Latency",
                            "m/s")
    assert table.rows == (
        ("acks-sla-yolo", "2", "2", "1", "1", "5682ms", "0.05682ms", "17,599"),
        ("acks-sla-throughput", "2", "3", "1", "1", "3391ms", "0.03391ms", "29,490"),
        ("acks-sla-durable", "2", "3", "2", "all", "2989ms", "0.02989ms", "33,456"),
    )
    assert table.title == "kafka-tx, 100,000 messages"


def test_acks_settings_absent_from_driver_config_show_a_question_mark() -> None:
    result = parse_result(
        Path("a.json"),
        {"workload": "acks-sla-yolo", "driver": "d", "partitions": 2, "driverConfig": {"name": "d"},
         "summary": {"durationSeconds": 2.0, "messagesPerSecond": 50000.0, "averageLatencyMillisPerMessage": 0.02}},
    )
    (rows,) = analysis.acks_rows([result]).values()
    assert (rows[0].replication, rows[0].min_insync_replicas, rows[0].acks) == ("?", "?", "?")
    assert tables.acks_table("d", None, rows).rows[0][5:] == ("2000ms", "0.02ms", "50,000")


def test_properties_text_is_read_like_java_properties() -> None:
    text = "# comment\n! other comment\nacks = 1\nlinger.ms: 5\n  min.insync.replicas=2\nacks=all\n"
    assert analysis.read_config_property(text, "acks") == "all"
    assert analysis.read_config_property(text, "linger.ms") == "5"
    assert analysis.read_config_property(text, "min.insync.replicas") == "2"
    assert analysis.read_config_property(text, "absent") is None
    assert analysis.read_config_property({"acks": "all"}, "acks") == "all"


def test_closed_loop_table_in_seed_001_form(all_results) -> None:
    groups = analysis.closed_loop_groups(all_results)
    assert list(groups) == ["base-streaming-quick", "base-writes", "tx-streaming-quick", "tx-writes"]
    table = tables.closed_loop_table("tx-writes", groups["tx-writes"])
    assert tables.to_markdown(table).splitlines() == [
        "| System | 1000 txes | min | median | max |",
        "|---|---:|---:|---:|---:|",
        "| kafka-tx | 25700 ms | 8.5 ms | 24.2 ms | 114 ms |",
        "| redpanda-tx | 3993 ms | 1.7 ms | 3.7 ms | 19.4 ms |",
    ]
    assert tables.closed_loop_table("base-writes", groups["base-writes"]).header[1] == "1000 ops"


def test_closed_loop_table_spells_out_n_when_drivers_measured_different_counts(all_results) -> None:
    groups = analysis.closed_loop_groups(all_results)
    table = tables.closed_loop_table("tx-streaming-quick", groups["tx-streaming-quick"])
    assert table.header[1] == "txes (N in total)"
    assert table.rows[1][:2] == ("redpanda-tx [PARTIAL]", "640 in 1938 ms")


def test_newest_run_wins_when_a_workload_was_run_twice(all_results) -> None:
    original = next(r for r in all_results if r.workload == "tx-writes" and r.driver == "kafka-tx")
    rerun = replace(original, start_time="2030-01-01T00:00:00Z", path=Path("rerun.json"))
    kept, superseded = analysis.newest_per_key([original, rerun], lambda r: (r.workload, r.driver))
    assert kept[("tx-writes", "kafka-tx")] is rerun and superseded == [original]


def test_histogram_curve_stops_where_one_sample_decides(all_results) -> None:
    result = next(r for r in all_results if r.workload == "tx-writes" and r.driver == "kafka-tx")
    curve = analysis.latency_curve(result, analysis.OPERATION)
    assert curve is not None and curve.source == "HdrHistogram"
    assert curve.percentiles[0] == 0.0
    assert curve.percentiles[-1] == pytest.approx(99.9)  # 1000 samples
    # The last point is the 999th of 1000 values: the runner's own p999 (104.511 ms), not the max.
    assert curve.values_ms[-1] == pytest.approx(104.511)
    assert result.operation_latency is not None and result.operation_latency.get("p999") == 104.511


def test_stock_omb_curve_comes_from_quantile_map_without_the_100th(all_results) -> None:
    stock = next(r for r in all_results if not r.is_omb_tx)
    curve = analysis.latency_curve(stock, analysis.PUBLISH)
    assert curve is not None and curve.source == "quantile map"
    assert curve.percentiles[-1] == 99.999
    assert analysis.latency_curve(stock, analysis.OPERATION) is None


def test_empty_operation_summary_written_by_the_runner_is_not_a_table_row() -> None:
    # ResultBuilder writes {"unit": "ms", "count": 0} when a run measured no operations.
    empty = parse_result(Path("e.json"), {"workload": "w", "driver": "d", "schemaVersion": 1,
                                          "runMode": {"loop": "closed"},
                                          "operationLatency": {"unit": "ms", "count": 0}})
    assert analysis.closed_loop_groups([empty]) == {}


def test_only_numeric_producer_rate_sweeps_are_charted_against_rate() -> None:
    def point(parameter: str, value: object) -> object:
        return parse_result(Path("p.json"), {"workload": f"s-{value}", "driver": "d",
                                             "sweep": {"name": "s", "parameter": parameter, "value": value}})

    assert analysis.is_rate_sweep_point(point("producerRate", 1000))
    assert not analysis.is_rate_sweep_point(point("messageSize", 100))
    assert not analysis.is_rate_sweep_point(point("producerRate,messageSize", "1000,100"))
    assert analysis.sweeps([point("messageSize", 100)]) == {}


def test_latency_of_idle_periods_is_not_drawn_as_zero() -> None:
    from omb_tx_charts.plots import idle_periods

    result = parse_result(Path("t.json"), {
        "workload": "w", "driver": "d",
        "publishRate": [0.0, 0.0, 46.4, 93.7], "consumeRate": [0.0, 0.0, 0.0, 0.0],
        "publishLatency50pct": [0.0, 0.0, 15.2, 15.4],
    })
    assert idle_periods(result) == {0, 1}


def test_a_system_column_names_the_system_that_answered_not_only_the_driver(all_results) -> None:
    """A Redpanda driver run on Kafka (broker.system read back) is not shown as if it were Redpanda."""
    groups = analysis.closed_loop_groups(all_results)
    on_kafka = [replace(r, broker_system="kafka") for r in groups["tx-writes"]]
    assert [row[0] for row in tables.closed_loop_table("tx-writes", on_kafka).rows] == [
        "kafka-tx",
        "redpanda-tx on Kafka",
    ]
    on_tansu = [replace(r, broker_system="tansu") for r in groups["tx-writes"]]
    assert [row[0] for row in tables.closed_loop_table("tx-writes", on_tansu).rows] == [
        "kafka-tx on Tansu",
        "redpanda-tx on Tansu",
    ]
    unknown = [replace(r, broker_system=None) for r in groups["tx-writes"]]
    assert [row[0] for row in tables.closed_loop_table("tx-writes", unknown).rows] == ["kafka-tx", "redpanda-tx"]
