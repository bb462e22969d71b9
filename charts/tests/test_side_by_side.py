"""The side-by-side report on real runs on two broker versions (fixtures/real-versions): both versions charted,
tx and naive phases on one axis, seed 003's bulk table, write-to-visible, and the fixed defects (img height,
curves that end at the max, no transaction bar for naive runs, time series only with enough periods)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from conftest import FIXTURES, run_charts

from omb_tx_charts import analysis, compare, loader, plots, report
from omb_tx_charts.formatting import format_count, format_ms

VERSIONS = FIXTURES / "real-versions"


def _raw(workload: str, version: str) -> dict:
    """The raw JSON of the one fixture of ``workload`` on broker ``version``."""
    found = [
        data for path in sorted(VERSIONS.glob(f"{workload}-*.json"))
        if (data := json.loads(path.read_text()))["workload"] == workload and data["versions"]["broker"] == version
    ]
    assert len(found) == 1, (workload, version)
    return found[0]


@pytest.fixture(scope="module")
def results() -> list:
    return [loader.load_result(path) for path in loader.find_result_files([str(VERSIONS)])]


@pytest.fixture(scope="module")
def rendered(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("versions")
    completed = run_charts(VERSIONS, "--out", out)
    assert completed.returncode == 0, completed.stderr
    return out


def test_both_broker_versions_are_charted_not_superseded(results) -> None:
    variants = compare.Variants(results)
    assert variants.keys(results) == ["kafka-tx · broker 2.8.2", "kafka-tx · broker 4.1.1"]
    per_workload = analysis.per_workload(results)
    assert [analysis.broker_version(r) for r in per_workload["tx-writes"]] == ["2.8.2", "4.1.1"]
    pairs = analysis.overheads(results)
    assert sorted((p.label, analysis.broker_version(p.tx)) for p in pairs) == [
        ("streaming", "2.8.2"), ("streaming", "4.1.1"), ("streaming-ack-first", "2.8.2"),
        ("streaming-ack-first", "4.1.1"), ("writes", "2.8.2"), ("writes", "4.1.1")]


def test_tx_and_naive_phases_share_one_figure_per_family(results) -> None:
    comparisons = {c.family: c for c in compare.phase_comparisons(results)}
    assert list(comparisons) == ["writes", "streaming", "bulk"]
    streaming = comparisons["streaming"].results
    # transactional runs first; both call orders of both kinds; both versions
    assert [r.workload for r in streaming[:4]] == ["tx-streaming"] * 2 + ["tx-streaming-ack-first"] * 2
    assert {(r.workload, compare.await_acks(r)) for r in streaming} == {
        ("tx-streaming", "after-commit"), ("tx-streaming-ack-first", "before-send-offsets"),
        ("base-streaming", "after-commit"), ("base-streaming-ack-first", "before-commit")}
    assert {analysis.broker_version(r) for r in streaming} == {"2.8.2", "4.1.1"}


def test_naive_runs_get_no_transaction_bar_nor_row(results, captured_figures, tmp_path: Path) -> None:
    base = next(r for r in results if r.workload == "base-writes")
    tx = next(r for r in results if r.workload == "tx-writes")
    assert "transaction" not in analysis.charted_phases(base) and "transaction" in analysis.charted_phases(tx)
    bars = [plots.PhaseBar(r.workload, "#1f77b4", r, analysis.charted_phases(r)) for r in (tx, base)]
    plots.phase_comparison_figure("writes", [("", bars)], tmp_path / "p.png")
    (figure,) = captured_figures
    (axes,) = [a for a in figure.axes if a.get_visible()]
    ticks = [t.get_text() for t in axes.get_xticklabels()]
    assert ticks == ["begin", "send", "resolve", "commit", "transaction"]
    # one bar container per run: the naive run's bars sit only over send and resolve
    tx_bars, base_bars = axes.containers
    assert len(tx_bars) == 5 and len(base_bars) == 2
    table = report.tables.phases_table("writes", [tx, base], lambda r: r.workload)
    rows = {row[0]: dict(zip(table.header, row)) for row in table.rows}
    assert rows["base-writes"]["transaction"] == "-"  # a naive run has no transaction cell
    tx_phases = _raw("tx-writes", tx.versions["broker"])["transactionPhases"]
    assert rows["tx-writes"]["transaction"] == (f"{format_ms(tx_phases['transaction']['p50'])} ms / "
                                                f"{format_ms(tx_phases['transaction']['p99'])} ms")


def test_bulk_table_shows_both_sides_per_version_from_the_raw_numbers(rendered: Path) -> None:
    page = (rendered / "report.md").read_text(encoding="utf-8")
    for version in ("2.8.2", "4.1.1"):
        tx, plain = _raw("bulk-tx", version), _raw("bulk-acks-all", version)
        tx_rate, plain_rate = tx["summary"]["messagesPerSecond"], plain["summary"]["messagesPerSecond"]
        row = (f"| kafka-tx · broker {version} | {format_count(tx['counts']['messagesSent'])} | "
               f"{format_count(tx_rate)} | {format_count(plain_rate)} | {tx_rate / plain_rate:.2f}× |")
        assert row in page
    assert (rendered / "bulk-throughput.png").exists()


def test_write_to_visible_is_in_the_fetch_table(rendered: Path) -> None:
    page = (rendered / "report.md").read_text(encoding="utf-8")
    assert "### tx-fetch: write-to-visible" in page
    for version in ("2.8.2", "4.1.1"):
        raw = _raw("tx-fetch", version)
        visible = raw["aggregatedEndToEndLatencyQuantiles"]
        cells = [f"{format_ms(visible[p])} ms" for p in ("50.0", "99.0", "100.0")]
        row = (f"| kafka-tx · broker {version} | {raw['operationLatency']['count']} | " + " | ".join(cells)
               + f" | {format_ms(raw['operationLatency']['p50'])} ms |")
        assert row in page


def test_images_keep_their_aspect_ratio_in_html(rendered: Path) -> None:
    page = (rendered / "index.html").read_text(encoding="utf-8")
    rule = re.search(r"figure img \{([^}]*)\}", page)
    assert rule is not None and "max-width: 100%" in rule[1] and "height: auto" in rule[1]


def test_percentile_curves_end_at_the_slowest_sample(results, captured_figures, tmp_path: Path) -> None:
    tx = next(r for r in results if r.workload == "tx-writes" and analysis.broker_version(r) == "2.8.2")
    curve = analysis.latency_curve(tx, analysis.OPERATION)
    raw_max = _raw("tx-writes", "2.8.2")["operationLatency"]["max"]
    assert curve is not None and curve.source == "HdrHistogram"
    # the histogram's highest equivalent value, within its 3 significant digits of the summary's max
    assert curve.max_ms == pytest.approx(raw_max, rel=1e-3) and curve.max_ms >= max(curve.values_ms)
    assert curve.count == _raw("tx-writes", "2.8.2")["operationLatency"]["count"]
    plots.percentile_figure("t", [("op", [plots.CurveLine("kafka-tx", "#1f77b4", curve)])], tmp_path / "c.png")
    (figure,) = captured_figures
    line = figure.axes[0].get_lines()[0]
    assert line.get_ydata()[-1] == curve.max_ms
    assert line.get_xdata()[-1] == curve.count  # drawn at 1/(1-p) = N
    legend = [t.get_text() for t in figure.axes[0].get_legend().get_texts()]
    assert legend == ["kafka-tx", "max (slowest sample)"]


def test_acks_sla_figure_explains_the_burst_and_drops_the_repeated_panel(results, rendered: Path) -> None:
    page = (rendered / "report.md").read_text(encoding="utf-8")
    section = page[page.index("### acks-sla-durable: latency percentiles"):]
    section = section[: section.index("How it was obtained")]
    assert "producerRate 50,000,000 msg/s" in section and "queued behind the earlier messages" in section
    durable = [r for r in results if r.workload == "acks-sla-durable"]
    assert all(report._operation_is_publish(r) for r in durable)


def test_short_runs_get_no_time_series_and_no_empty_section(results, rendered: Path) -> None:
    assert not [p for p in rendered.glob("timeseries-*.png")]
    assert all(len(r.series("publishRate")) < plots.MIN_TREND_PERIODS for r in results)
    page = (rendered / "report.md").read_text(encoding="utf-8")
    assert "## Time series per run" not in page and "No time series for" not in page


def test_phase_figures_title_naive_runs_honestly(rendered: Path) -> None:
    page = (rendered / "report.md").read_text(encoding="utf-8")
    assert "base-writes: time per transaction phase" not in page
    assert "### writes: phases, transactional vs naive" in page


# --------------------------------------------------------------------------------------------------
# Time-series x axis: seconds since the measured phase started


def test_time_series_axis_counts_from_the_measured_phase(captured_figures, tmp_path: Path) -> None:
    from conftest import RESULTS

    result = loader.load_result(RESULTS / "tx-writes-kafka-tx-20251122-080900.json")
    raw = json.loads((RESULTS / "tx-writes-kafka-tx-20251122-080900.json").read_text())
    assert len(raw["periods"]["elapsedSeconds"]) >= plots.MIN_TREND_PERIODS and plots.has_time_series(result)
    plots.time_series_figure(result, "t", tmp_path / "t.png")
    (figure,) = captured_figures
    rate_axes, latency_axes = figure.axes[:2]
    assert latency_axes.get_xlabel() == "time since the measured phase started (s)"
    line = next(drawn for drawn in rate_axes.get_lines() if drawn.get_label() == "operation rate (ops/s)")
    assert list(line.get_xdata()) == raw["periods"]["elapsedSeconds"]


def test_periods_counted_from_the_warm_up_are_shifted_back_and_the_warm_up_left_out() -> None:
    # A real result from a runner that counted elapsedSeconds from the start of the warm-up: its last period
    # ends at 15.37 s but the measured phase lasted 10.94 s.
    path = FIXTURES / "real" / "tx-streaming-kafka-tx-20261122-032916.json"
    raw = json.loads(path.read_text())
    elapsed, duration = raw["periods"]["elapsedSeconds"], raw["summary"]["durationSeconds"]
    xs, label = plots._elapsed(loader.load_result(path), len(elapsed))
    assert label == "time since the measured phase started (s), warm-up left out"
    assert xs == pytest.approx([v - (elapsed[-1] - duration) for v in elapsed])
    assert xs[-1] == pytest.approx(duration)


def test_omb_lists_on_ten_second_periods_end_where_their_last_merged_period_ended() -> None:
    import dataclasses

    path = VERSIONS / "tx-writes-kafka-tx-20261123-025120.json"
    base = loader.load_result(path)
    elapsed = (4.9, 9.95, 15.0, 20.0, 22.5)  # five 5-s reporting periods
    result = dataclasses.replace(
        base,
        run_mode=dataclasses.replace(base.run_mode, reporting_interval_seconds=5.0, omb_period_seconds=10.0),
        summary=dataclasses.replace(base.summary, duration_seconds=22.5),
        period_series={"periods.elapsedSeconds": elapsed, "publishRate": (10.0, 12.0, 11.0)},
    )
    xs, label = plots._elapsed(result, 3, "publishRate")
    assert xs == [9.95, 20.0, 22.5] and label == "time since the measured phase started (s)"


def test_acks_profiles_are_grouped_by_broker_version(results, captured_figures, tmp_path: Path) -> None:
    groups = analysis.acks_rows(results)
    labelled = {f"{driver}, {messages:,} messages": rows for (driver, messages), rows in groups.items()}
    assert list(labelled) == ["kafka-tx · broker 2.8.2, 20,000 messages", "kafka-tx · broker 4.1.1, 20,000 messages"]
    plots.acks_figure(labelled, tmp_path / "a.png")
    (figure,) = captured_figures
    heights = [bar.get_height() for container in figure.axes[0].containers for bar in container]
    assert heights == [_raw("acks-sla-durable", v)["summary"]["messagesPerSecond"] for v in ("2.8.2", "4.1.1")]


def test_two_drivers_share_one_panel_per_phase_family(all_results) -> None:
    # The hand-made fixtures hold kafka-tx (broker 4.1.1) and redpanda-tx (its own release): no driver runs on two
    # versions, so no version panels; both drivers' runs are bars of one panel, with distinct labels.
    variants = compare.Variants(all_results)
    assert not variants.many_versions
    writes = next(c for c in compare.phase_comparisons(all_results) if c.family == "writes")
    assert {(r.workload, r.driver) for r in writes.results} == {("tx-writes", "kafka-tx"), ("tx-writes", "redpanda-tx")}
    assert {variants.label(r) for r in writes.results} == {"kafka-tx", "redpanda-tx"}
