"""Real result files (fixtures/real/, unedited runner and stock OMB output) through the whole package.

Every expected number is read here from the raw JSON with ``json.load``, not typed in, so the tests state
"the report shows what the file says" and keep holding when the real set is refreshed.
"""

from __future__ import annotations

import json
import math
import re
from pathlib import Path
from typing import Any

import pytest
from conftest import REAL, run_charts
from PIL import Image

from omb_tx_charts import analysis, hdr, plots, tables
from omb_tx_charts.formatting import format_ms, format_rate
from omb_tx_charts.loader import find_result_files, load_result
from omb_tx_charts.model import Result

STOCK_FILES = ("stock-kafka-driver.json", "E-kafka-tx-transactional.json")


def _raw_file(prefix: str) -> Path:
    matches = sorted(p for p in REAL.glob(f"{prefix}*.json") if p.name not in STOCK_FILES)
    assert len(matches) == 1, f"{prefix}: {matches}"
    return matches[0]


def _raw(prefix: str) -> dict[str, Any]:
    return json.loads(_raw_file(prefix).read_text(encoding="utf-8"))


def _runner_files() -> list[Path]:
    return sorted(p for p in REAL.glob("*.json") if p.name not in STOCK_FILES)


@pytest.fixture(scope="module")
def real_results() -> list[Result]:
    return [load_result(path) for path in find_result_files([str(REAL)])]


def _loaded(results: list[Result], prefix: str) -> Result:
    path = _raw_file(prefix)
    return next(r for r in results if r.path.name == path.name)


def _raw_quantile(quantiles: dict[str, float], percentile: float) -> float:
    (value,) = [v for k, v in quantiles.items() if math.isclose(float(k), percentile, abs_tol=1e-9)]
    return value


def _shown_close_to(cell: str, value: float) -> bool:
    """The cell is ``value`` rounded: 3 significant figures or one decimal, as format_ms prints."""
    tolerance = 0.5 if value >= 100 else 0.05 if value >= 1 else 0.01 * value
    return abs(float(cell) - value) <= tolerance + 1e-12


# --------------------------------------------------------------------------------------------------
# The set itself


def test_the_real_set_is_thirteen_runner_files_and_two_stock_omb_files(real_results) -> None:
    assert len(_runner_files()) == 13
    assert all((REAL / name).is_file() for name in STOCK_FILES)
    assert len(real_results) == 15
    for result in real_results:
        raw = json.loads(result.path.read_text(encoding="utf-8"))
        assert result.workload == raw["workload"] and result.driver == raw["driver"]
        assert result.is_omb_tx == ("schemaVersion" in raw)
        if result.is_omb_tx:
            assert raw["schemaVersion"] == 1 and result.status == raw["status"] == "complete"
            assert result.versions == {k: str(v) for k, v in raw["versions"].items()}
    assert sum(r.is_omb_tx for r in real_results) == 13


# --------------------------------------------------------------------------------------------------
# Overhead, closed-loop, sweep and acks tables against the raw fields


@pytest.mark.parametrize("family", ["writes", "streaming"])
def test_overhead_ratios_equal_the_raw_operation_latency_ratios(real_results, family: str) -> None:
    tx, base = _raw(f"tx-{family}-"), _raw(f"base-{family}-")
    (pair,) = [p for p in analysis.overheads(real_results) if p.label == family]
    assert (pair.driver, pair.tx.path.name, pair.base.path.name) == (
        tx["driver"], _raw_file(f"tx-{family}-").name, _raw_file(f"base-{family}-").name
    )
    expected_p50_ratio = tx["operationLatency"]["p50"] / base["operationLatency"]["p50"]
    assert pair.p50_ratio == pytest.approx(expected_p50_ratio, abs=1e-9)
    tx_total, base_total = tx["operationLatency"]["totalMillis"], base["operationLatency"]["totalMillis"]
    tx_n, base_n = tx["operationLatency"]["count"], base["operationLatency"]["count"]
    expected_total_ratio = (tx_total / tx_n) / (base_total / base_n) if tx_n != base_n else tx_total / base_total
    assert pair.total_ratio == pytest.approx(expected_total_ratio, abs=1e-9)

    (row,) = [r for r in tables.overhead_table([pair]).rows]
    assert row[0] == family and row[1] == tx["driver"]
    assert row[2:5] == (
        f"{format_ms(base['operationLatency']['p50'])} ms",
        f"{format_ms(tx['operationLatency']['p50'])} ms",
        f"{expected_p50_ratio:.1f}×",
    )


def test_overhead_section_pairs_every_tx_base_family_in_the_real_set(real_results) -> None:
    assert [(p.driver, p.label) for p in analysis.overheads(real_results)] == [
        ("kafka-tx", "writes"),
        ("kafka-tx", "streaming"),
    ]


@pytest.mark.parametrize(
    "prefix", ["tx-writes-", "base-writes-", "tx-streaming-", "base-streaming-", "tx-send-offsets-", "tx-fetch-"]
)
def test_closed_loop_table_row_equals_the_raw_operation_latency(real_results, prefix: str) -> None:
    raw = _raw(prefix)
    summary = raw["operationLatency"]
    (group,) = [g for w, g in analysis.closed_loop_groups(real_results).items() if w == raw["workload"]]
    table = tables.closed_loop_table(raw["workload"], group)
    noun = "txes" if raw["scenario"]["transactional"] else "ops"
    assert table.header == ("System", f"{summary['count']} {noun}", "min", "median", "max")
    assert table.rows == (
        (
            raw["driver"],
            f"{format_ms(summary['totalMillis'])} ms",
            f"{format_ms(summary['min'])} ms",
            f"{format_ms(summary['p50'])} ms",
            f"{format_ms(summary['max'])} ms",
        ),
    )


def test_seed_004_sweep_rows_equal_the_raw_end_to_end_quantiles(real_results) -> None:
    raws = [_raw("rps-sweep-1000-"), _raw("rps-sweep-5000-")]
    (name,) = {raw["sweep"]["name"] for raw in raws}
    (driver,) = {raw["driver"] for raw in raws}
    sweeps = analysis.sweeps(real_results)
    assert list(sweeps) == [name] and list(sweeps[name]) == [driver]
    table = tables.sweep_table(name, driver, sweeps[name][driver])
    assert table.header == ("RPS/Latency", "25th", "50th", "90th", "99th", "99.9th")
    expected_rows = []
    for raw in sorted(raws, key=lambda r: r["sweep"]["value"]):
        quantiles = raw["aggregatedEndToEndLatencyQuantiles"]
        values = [_raw_quantile(quantiles, p) for p in (25.0, 50.0, 90.0, 99.0, 99.9)]
        # The harness check flags a rate whose load generator fell behind (publish delay p99 over 50 ms).
        delay_ms = raw["aggregatedPublishDelayLatency99pct"] / 1000
        flag = f" ⚠ harness behind (publish delay p99 {delay_ms:.0f} ms)" if delay_ms > 50 else ""
        expected_rows.append((format_rate(raw["sweep"]["value"]) + flag,) + tuple(format_ms(v) for v in values))
        row = next(r for r in table.rows if r[0].startswith(format_rate(raw["sweep"]["value"])))
        assert all(_shown_close_to(cell, value) for cell, value in zip(row[1:], values)), (row, values)
    assert table.rows == tuple(expected_rows)
    assert [row[0] for row in table.rows] == ["1K ⚠ harness behind (publish delay p99 75 ms)", "5K"]


def test_seed_002_acks_rows_equal_the_raw_summary(real_results) -> None:
    raws = [_raw(f"acks-sla-{profile}-") for profile in ("yolo", "throughput", "durable")]
    (messages,) = {raw["counts"]["messagesSent"] for raw in raws}
    groups = analysis.acks_rows(real_results)
    assert list(groups) == [("kafka-tx", messages)]
    table = tables.acks_table("kafka-tx", messages, groups[("kafka-tx", messages)])
    assert table.title == f"kafka-tx, {messages:,} messages"
    assert [row[0] for row in table.rows] == [raw["workload"] for raw in raws]  # seed 002's order
    for raw, row in zip(raws, table.rows):
        config = raw["driverConfig"]
        # The last acks= line wins, as in java.util.Properties (acks-sla-yolo has acks=all, then acks=1).
        acks = re.findall(r"^\s*acks\s*=\s*(\S+)\s*$", config["producerConfig"], flags=re.M)[-1]
        isr = re.findall(r"^\s*min\.insync\.replicas\s*=\s*(\S+)\s*$", config["topicConfig"], flags=re.M)[-1]
        summary = raw["summary"]
        assert row == (
            raw["workload"],
            str(raw["partitions"]),
            str(config["replicationFactor"]),
            isr,
            acks,
            f"{summary['durationSeconds'] * 1000:.0f}ms",
            f"{summary['averageLatencyMillisPerMessage']:.4g}ms",
            f"{summary['messagesPerSecond']:,.0f}",
        )
    assert table.rows[0][4] == "1" and table.rows[2][4] == "all"


# --------------------------------------------------------------------------------------------------
# Transaction phases


def test_tx_writes_phases_chart_draws_the_raw_p50_bars_and_p99_whiskers(
    real_results, captured_figures, tmp_path: Path
) -> None:
    raw_phases = _raw("tx-writes-")["transactionPhases"]
    result = _loaded(real_results, "tx-writes-")
    plots.phases_figure("tx-writes", [result], plots.Palette([result.driver]), tmp_path / "phases.png")
    (figure,) = captured_figures
    axes = figure.axes[0]
    labels = [tick.get_text() for tick in axes.get_xticklabels()]
    assert labels == ["begin", "send", "resolve", "commit", "transaction"]
    (bars,) = axes.containers
    heights = dict(zip(labels, (bar.get_height() for bar in bars)))
    for phase in ("begin", "send", "resolve", "commit", "transaction"):
        assert heights[phase] == raw_phases[phase]["p50"], phase
    whisker_tops = sorted(max(segment[:, 1]) for segment in axes.collections[0].get_segments())
    assert whisker_tops == sorted(raw_phases[p]["p99"] for p in labels)
    low, high = axes.get_ylim()
    assert low < min(s["p50"] for s in raw_phases.values()) and high > max(s["p99"] for s in raw_phases.values())
    assert (tmp_path / "phases.png").stat().st_size > 10_000

    table = tables.phases_table("tx-writes", [result])
    # one row per run, a column per phase holding "p50 / p99"
    assert table.header == ("Run", *labels)
    assert table.rows == ((result.driver,) + tuple(
        f"{format_ms(raw_phases[phase]['p50'])} ms / {format_ms(raw_phases[phase]['p99'])} ms" for phase in labels
    ),)


def test_a_lone_transaction_phase_of_a_plain_publish_run_is_not_charted_as_a_breakdown(real_results) -> None:
    for prefix in ("acks-sla-yolo-", "acks-sla-durable-", "rps-sweep-1000-"):
        raw = _raw(prefix)
        assert raw["scenario"]["transactional"] is False and list(raw["transactionPhases"]) == ["transaction"]
        assert not analysis.has_phase_breakdown(_loaded(real_results, prefix))
    # Plain runs that do break their operation down (send / resolve / commit) keep their chart.
    assert analysis.has_phase_breakdown(_loaded(real_results, "base-streaming-"))
    assert analysis.has_phase_breakdown(_loaded(real_results, "tx-writes-"))


# --------------------------------------------------------------------------------------------------
# HdrHistogram decoder on histograms the runner wrote


@pytest.mark.parametrize("path", _runner_files(), ids=lambda p: p.name.split("-kafka-tx-")[0])
def test_decoder_on_real_operation_histogram_matches_the_runners_summary(path: Path) -> None:
    raw = json.loads(path.read_text(encoding="utf-8"))
    summary = raw["operationLatency"]
    histogram = hdr.decode_base64(raw["histograms"]["operationLatencyMicros"])
    assert histogram.total_count == summary["count"]
    # Within one bucket of a 3-significant-digit histogram (the runner's own numbers come from it).
    assert histogram.significant_digits == 3
    for name, percentile in (("p50", 50.0), ("p99", 99.0)):
        assert histogram.value_at_percentile(percentile) == pytest.approx(summary[name] * 1000, rel=2e-3), name
    assert histogram.max_value() == pytest.approx(summary["max"] * 1000, rel=2e-3)
    for key, text in raw["histograms"].items():
        if key.startswith("phase."):
            phase = raw["transactionPhases"][key.removeprefix("phase.")]
            decoded = hdr.decode_base64(text)
            assert decoded.total_count == phase["count"], key
            assert decoded.value_at_percentile(50.0) == pytest.approx(phase["p50"] * 1000, rel=2e-3), key


def test_real_histograms_drive_the_curves_and_the_curve_ends_where_one_sample_decides(real_results) -> None:
    raw = _raw("tx-writes-")
    curve = analysis.latency_curve(_loaded(real_results, "tx-writes-"), analysis.OPERATION)
    assert curve is not None and curve.source == "HdrHistogram"
    count = raw["operationLatency"]["count"]
    assert 1.0 / (1.0 - curve.percentiles[-1] / 100.0) <= count + 1e-6
    p50 = raw["operationLatency"]["p50"]
    assert all(v <= p50 for p, v in zip(curve.percentiles, curve.values_ms) if p <= 50.0)
    assert all(v >= p50 for p, v in zip(curve.percentiles, curve.values_ms) if p >= 50.0)
    assert curve.values_ms == tuple(sorted(curve.values_ms))
    assert curve.values_ms[0] == pytest.approx(raw["operationLatency"]["min"], rel=2e-3)


# --------------------------------------------------------------------------------------------------
# Stock OMB files


@pytest.mark.parametrize("name", STOCK_FILES)
def test_stock_omb_files_load_as_stock_and_not_partial(real_results, name: str) -> None:
    raw = json.loads((REAL / name).read_text(encoding="utf-8"))
    result = next(r for r in real_results if r.path.name == name)
    assert not result.is_omb_tx and not result.is_partial
    assert result.status != "partial" and result.label == raw["driver"]
    assert result.run_mode is None and result.operation_latency is None and not result.encoded_histograms
    assert result.series("publishRate") == tuple(raw["publishRate"])
    row = next(r for r in tables.inputs_table(real_results, []).rows if r[0] == str(result.path))
    assert row[3] == "stock OMB" and "PARTIAL" not in row[8]


@pytest.mark.parametrize("name", STOCK_FILES)
def test_stock_omb_latency_curves_come_from_the_raw_quantile_maps(real_results, name: str) -> None:
    raw = json.loads((REAL / name).read_text(encoding="utf-8"))
    result = next(r for r in real_results if r.path.name == name)
    for metric, key in ((analysis.PUBLISH, "aggregatedPublishLatencyQuantiles"),
                        (analysis.END_TO_END, "aggregatedEndToEndLatencyQuantiles")):
        curve = analysis.latency_curve(result, metric)
        assert curve is not None and curve.source == "quantile map"
        expected = sorted((float(p), v) for p, v in raw[key].items() if v > 0 and float(p) < 100.0)
        assert list(zip(curve.percentiles, curve.values_ms)) == expected
    assert analysis.latency_curve(result, analysis.OPERATION) is None


def test_both_stock_omb_runs_share_one_latency_chart(real_results, captured_figures, tmp_path: Path) -> None:
    stock = [r for r in real_results if not r.is_omb_tx]
    (workload,) = {r.workload for r in stock}
    palette = plots.Palette([r.driver for r in stock])
    panels = [
        (metric.title, [plots.CurveLine(r.label, palette(r.driver), c) for r in stock
                         if (c := analysis.latency_curve(r, metric)) is not None])
        for metric in (analysis.PUBLISH, analysis.END_TO_END)
    ]
    rendered = plots.percentile_figure(workload, panels, tmp_path / "stock.png")
    (figure,) = captured_figures
    for axes in figure.axes:
        assert sorted(text.get_text() for text in axes.get_legend().get_texts()) == sorted(
            [r.driver for r in stock] + ["max (slowest sample)"]
        )
    with Image.open(rendered.path) as image:
        assert image.size == (rendered.width_px, rendered.height_px) == (1280, 480)


# --------------------------------------------------------------------------------------------------
# Axes drawn from the real numbers


def test_a_narrow_latency_range_still_gets_at_least_three_labelled_ticks() -> None:
    summary = _raw("acks-sla-durable-")["operationLatency"]  # about 743..1183 ms: 1-2-5 ticks leave only 1000
    ticks = plots._log_ticks(summary["min"] / 1.4, summary["max"] * 1.4)
    assert len(ticks) >= 3 and 1000.0 in ticks
    assert all(summary["min"] / 1.4 <= t <= summary["max"] * 1.4 for t in ticks)


def test_time_series_of_a_one_period_run_starts_at_zero(real_results, captured_figures, tmp_path: Path) -> None:
    raw = _raw("acks-sla-durable-")
    assert len(raw["periods"]["elapsedSeconds"]) == 1
    plots.time_series_figure(_loaded(real_results, "acks-sla-durable-"), "t", tmp_path / "t.png")
    (figure,) = captured_figures
    low, high = figure.axes[0].get_xlim()
    assert low == 0 and high > raw["periods"]["elapsedSeconds"][0]


# --------------------------------------------------------------------------------------------------
# The whole report through the real command line


@pytest.fixture(scope="module")
def real_report(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("real-report")
    completed = run_charts(REAL, "--out", out)
    assert completed.returncode == 0, completed.stderr
    assert "15 result(s)" in completed.stdout
    return out


def test_real_report_every_png_opens_and_is_over_10_kb(real_report: Path) -> None:
    pngs = sorted(real_report.glob("*.png"))
    assert len(pngs) >= 20  # 25: time series only for the two stock OMB runs (5+ periods)
    for path in pngs:
        assert path.stat().st_size > 10_000, path.name
        with Image.open(path) as image:
            image.verify()
        with Image.open(path) as image:
            assert image.format == "PNG" and image.size[0] >= 600 and image.size[1] >= 400, path.name


def test_real_report_has_the_expected_figures(real_report: Path) -> None:
    names = {p.name for p in real_report.glob("*.png")}
    expected = {
        "latency-tx-writes.png",
        "latency-1-topic-1-partition-100b-1k-msg-s.png",  # both stock OMB runs
        "phases-writes.png",  # tx-writes beside base-writes
        "phases-streaming.png",
        "phases-bulk.png",
        "bulk-throughput.png",
        "overhead-ratios.png",
        "overhead-curves-writes.png",
        "overhead-curves-streaming.png",
        "sweep-rps-sweep.png",
        "sweep-percentiles-rps-sweep.png",
        "timeseries-stock-kafka-driver.png",
        "timeseries-e-kafka-tx-transactional.png",
    }
    assert expected <= names
    # Only the two stock OMB runs have 5+ reporting periods (6 each); the omb-tx runs have 1 to 4.
    assert {n for n in names if n.startswith("timeseries-")} == {
        "timeseries-stock-kafka-driver.png", "timeseries-e-kafka-tx-transactional.png"}
    assert not [n for n in names if n.startswith("phases-acks-sla-")]


def test_real_report_index_html_references_every_png(real_report: Path) -> None:
    page = (real_report / "index.html").read_text(encoding="utf-8")
    sources = re.findall(r'<img src="([^"]+)"', page)
    assert set(sources) == {p.name for p in real_report.glob("*.png")}
    assert len(sources) == len(set(sources))
    report = (real_report / "report.md").read_text(encoding="utf-8")
    assert set(re.findall(r"!\[[^\]]*\]\(([^)]+\.png)\)", report)) == set(sources)


def test_real_report_tables_show_the_raw_numbers(real_report: Path) -> None:
    report = (real_report / "report.md").read_text(encoding="utf-8")
    for prefix in ("rps-sweep-1000-", "rps-sweep-5000-"):
        raw = _raw(prefix)
        quantiles = raw["aggregatedEndToEndLatencyQuantiles"]
        cells = [format_ms(_raw_quantile(quantiles, p)) for p in (25.0, 50.0, 90.0, 99.0, 99.9)]
        rate = format_rate(raw["sweep"]["value"])
        # a rate whose load generator fell behind carries the harness flag after its rate
        assert re.search(rf"^\| {rate}( ⚠ harness behind \([^)]*\))? \| " + re.escape(" | ".join(cells)) + r" \|$",
                         report, flags=re.M), rate
    durable = _raw("acks-sla-durable-")["summary"]
    assert f"| {durable['durationSeconds'] * 1000:.0f}ms | " in report
    assert f"| {durable['messagesPerSecond']:,.0f} |" in report
    tx, base = _raw("tx-writes-"), _raw("base-writes-")
    ratio = tx["operationLatency"]["p50"] / base["operationLatency"]["p50"]
    assert f"| writes | kafka-tx | {format_ms(base['operationLatency']['p50'])} ms | " in report
    assert f" | {ratio:.1f}× | " in report
    assert "stock OMB result (loop mode, broker count and versions not recorded); 6 reporting periods; " \
           "stock-kafka-driver.json" in report
