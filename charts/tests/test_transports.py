"""Seed 004's transport comparison (transports.py) on real results: the RPS sweep, quick profile, run here by
``bin/benchmark-suite --profile quick suites/transports.yaml`` on Kafka (embedded broker) and Aeron over IPC and UDP
(fixtures/transports/, unedited). Expected numbers are read from the raw JSON, not typed in."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import FIXTURES, run_charts
from PIL import Image

from omb_tx_charts import analysis
from omb_tx_charts.formatting import format_ms
from omb_tx_charts.loader import find_result_files, load_result
from omb_tx_charts.report import Figure, build_report, compute_report, render
from omb_tx_charts.study import transports
from omb_tx_charts.writers import write_markdown

TRANSPORTS = FIXTURES / "transports"
DRIVERS = ("aeron-ipc", "aeron-udp", "kafka-tx")


@pytest.fixture(scope="module")
def results():
    return [load_result(path) for path in find_result_files([str(TRANSPORTS)])]


def _raw_p(driver: str, rate: int, percentile: float) -> float:
    [path] = TRANSPORTS.glob(f"rps-sweep-{rate}-{driver}-*.json")
    quantiles = json.loads(path.read_text(encoding="utf-8"))["aggregatedEndToEndLatencyQuantiles"]
    return float(quantiles[min(quantiles, key=lambda key: abs(float(key) - percentile))])


def test_the_fixtures_are_the_three_transports_at_the_quick_rates(results):
    sweeps = transports.rps_sweeps(results)
    assert list(sweeps) == ["rps-sweep"]
    assert sorted(sweeps["rps-sweep"]) == sorted(DRIVERS)
    for points in sweeps["rps-sweep"].values():
        assert [p.rate for p in points] == [1000.0, 5000.0]
        assert all(not p.result.is_partial for p in points)


def test_the_side_by_side_table_holds_every_measured_driver_and_the_seeds_figures(results):
    measured = transports.rps_sweeps(results)["rps-sweep"]
    table = transports.side_by_side_table("rps-sweep", measured)
    assert table.header[0] == "RPS"
    assert table.header[1:3] == ("aeron-ipc p50", "aeron-ipc p99")
    assert "seed Aeron 1.34.0 p99" in table.header
    rows = {row[0]: row for row in table.rows}
    assert list(rows) == ["1K", "5K", "10K", "25K", "50K", "100K"]
    for index, driver in enumerate(sorted(DRIVERS)):
        for column, percentile in ((1 + 2 * index, 50.0), (2 + 2 * index, 99.0)):
            for rate in (1000, 5000):
                label = f"{rate // 1000}K"
                assert rows[label][column] == format_ms(analysis.percentile_value_ms(
                    next(p.result for p in measured[driver] if p.rate == rate), analysis.END_TO_END, percentile))
                # the report's value is the file's quantile (HdrHistogram's, in ms)
                assert rows[label][column] == format_ms(_raw_p(driver, rate, percentile))
            assert rows["25K"][column] == "-"  # not run in the quick profile
    kafka_seed_p50 = table.header.index("seed Kafka 2.8.0 p50")
    assert [rows[r][kafka_seed_p50] for r in ("1K", "10K", "25K")] == ["6.8", "9.9", "763"]
    redpanda_seed_p99 = table.header.index("seed Redpanda 21.7.6 p99")
    assert rows["1K"][redpanda_seed_p99] == "-" and rows["5K"][redpanda_seed_p99] == "50.8"


def test_seed_004s_three_tables_are_shown_as_published():
    tables = transports.seed_tables()
    assert [t.title for t in tables] == ["seed 004: Kafka 2.8.0", "seed 004: Redpanda 21.7.6", "seed 004: Aeron 1.34.0"]
    aeron = {row[0]: row[1:] for row in tables[2].rows}
    assert aeron["100K"] == ("1.1", "2.4", "5.8", "9", "9.9")
    redpanda = {row[0]: row[1:] for row in tables[1].rows}
    assert redpanda["1K"] == ("-",) * 5


def test_the_report_has_the_comparison_figure_and_tables(results, tmp_path: Path):
    report = build_report(results, tmp_path)
    [section] = [s for s in report.all_sections if s.title == "Transports beside seed 004"]
    [figure] = [b for b in section.blocks if hasattr(b, "rendered")]
    with Image.open(figure.rendered.path) as image:
        assert image.size == (figure.rendered.width_px, figure.rendered.height_px)
        # not blank: a rendered plot has many colours
        assert len(image.convert("RGB").getcolors(maxcolors=1 << 16) or []) > 50
    assert len(figure.runs) == 6
    titles = [b.title for b in section.blocks if hasattr(b, "header")]
    assert titles == ["rps-sweep: measured here beside seed 004", "seed 004: Kafka 2.8.0",
                      "seed 004: Redpanda 21.7.6", "seed 004: Aeron 1.34.0"]
    write_markdown(report, tmp_path / "report.md")
    text = (tmp_path / "report.md").read_text(encoding="utf-8")
    assert "Transports beside seed 004" in text
    assert "| 1K |" in text


def test_bin_charts_renders_the_transport_comparison(tmp_path: Path):
    done = run_charts(TRANSPORTS, "--out", tmp_path / "report")
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "report" / "transports-rps-sweep.png").is_file()
    assert "seed 004: Aeron 1.34.0" in (tmp_path / "report" / "report.md").read_text(encoding="utf-8")


def test_the_model_is_computed_without_drawing_and_each_figure_is_drawn_once_by_render(results, tmp_path: Path):
    model = compute_report(results)
    figures = model.figures
    assert figures, "the transports fixtures give figures"
    assert all(f.rendered is None for f in figures)
    assert len({f.drawing.file for f in figures}) == len(figures), "one PNG name per figure"
    out = tmp_path / "out"
    assert not out.exists()
    drawn = render(model, out)
    assert sorted(p.name for p in out.iterdir()) == sorted(f.drawing.file for f in figures)
    assert [f.title for f in drawn.figures] == [f.title for f in figures]
    assert all(isinstance(f, Figure) and f.rendered is not None and f.rendered.path.parent == out
               for f in drawn.figures)
    assert all(f.rendered is None for f in model.figures), "the model itself is left as it was"
    assert [t.rows for t in drawn.tables] == [t.rows for t in model.tables]

