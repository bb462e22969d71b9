"""Rendering every fixture through bin/charts: the PNGs are real images and the report says how each was made."""

from __future__ import annotations

import re
from pathlib import Path

import matplotlib.image
import pytest
from conftest import RESULTS, run_charts
from PIL import Image

EXPECTED_SIZES = {
    "latency-tx-writes.png": (1280, 480),  # two panels: operation, publish
    "latency-1-topic-16-partitions-1kb.png": (1280, 480),  # stock OMB: publish, end-to-end
    "latency-acks-sla-yolo.png": (640, 480),
    "phases-writes.png": (1100, 560),  # tx and base runs of both drivers on one axis
    "phases-streaming.png": (1100, 560),
    "overhead-ratios.png": (1100, 560),
    "overhead-curves-writes.png": (1280, 480),
    "overhead-curves-streaming-quick.png": (1280, 480),
    "sweep-rps-sweep-quick.png": (1100, 560),
    "sweep-percentiles-rps-sweep-quick.png": (1280, 960),  # 3 panels, 2 per row
    "timeseries-tx-writes-kafka-tx-20251122-080900.png": (1100, 700),
    "timeseries-omb-stock-1-topic-16-partitions-1kb-kafka.png": (1100, 700),
}


@pytest.fixture(scope="module")
def report_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("report")
    completed = run_charts(RESULTS, "--out", out)
    assert completed.returncode == 0, completed.stderr
    assert "18 result(s)" in completed.stdout
    return out


def test_every_kind_of_figure_is_written(report_dir: Path) -> None:
    names = {p.name for p in report_dir.glob("*.png")}
    assert set(EXPECTED_SIZES) <= names
    # one per result file with 5 or more reporting periods (9 of the 18)
    assert len([n for n in names if n.startswith("timeseries-")]) == 9
    assert len([n for n in names if n.startswith("latency-")]) == 8  # one per non-sweep workload


def test_pngs_open_and_have_the_size_set(report_dir: Path) -> None:
    for name, size in EXPECTED_SIZES.items():
        with Image.open(report_dir / name) as image:
            assert image.format == "PNG"
            assert image.size == size, name


def test_every_png_is_a_sane_size_and_readable_by_matplotlib(report_dir: Path) -> None:
    for path in report_dir.glob("*.png"):
        assert 10_000 < path.stat().st_size < 5_000_000, path.name
        pixels = matplotlib.image.imread(path)
        assert pixels.shape[0] >= 400 and pixels.shape[1] >= 600, path.name
        assert pixels.std() > 0.01, f"{path.name} looks blank"


def test_report_md_holds_every_table_in_seed_form(report_dir: Path) -> None:
    report = (report_dir / "report.md").read_text()
    assert "| System | 1000 txes | min | median | max |" in report
    assert "| kafka-tx | 25700 ms | 8.5 ms | 24.2 ms | 114 ms |" in report
    assert "| RPS/Latency | 25th | 50th | 90th | 99th | 99.9th |" in report
    assert "| 10K | 6.9 | 10 | 20.6 | 40.7 | 80.1 |" in report
    assert "| Topic/profile | Partitions | Replication | ISR | ACKS | Duration | Msg Latency | m/s |" in report
    assert "| acks-sla-durable | 2 | 3 | 2 | all | 2989ms | 0.02989ms | 33,456 |" in report
    assert "| writes | kafka-tx | 0.81 ms | 24.2 ms | 30.0× | 858 ms | 25700 ms | 30.0× |" in report


def test_report_md_links_every_png_and_captions_how_it_was_obtained(report_dir: Path) -> None:
    report = (report_dir / "report.md").read_text()
    linked = set(re.findall(r"!\[[^\]]*\]\(([^)]+\.png)\)", report))
    assert linked == {p.name for p in report_dir.glob("*.png")}
    assert "kafka-tx: closed loop; warm-up 100 operations; measured 1,000 operations in 26.5 s" in report
    assert "target rate 1,000 msg/s" in report
    assert "1 embedded broker, Kafka 4.1.1, kafka-clients 4.1.1; complete" in report
    assert "stock OMB result (loop mode, broker count and versions not recorded)" in report


def test_partial_results_are_flagged_in_the_report(report_dir: Path) -> None:
    report = (report_dir / "report.md").read_text()
    assert "**⚠ Some runs are PARTIAL**" in report
    assert "measured 1,000 operations (640 done)" in report
    assert "PARTIAL (interrupted (SIGINT) after 640 of 1000 operations)" in report
    assert "**⚠ PARTIAL RESULT INCLUDED.**" in report


def test_index_html_is_self_contained_and_references_every_png(report_dir: Path) -> None:
    page = (report_dir / "index.html").read_text()
    sources = re.findall(r'<img src="([^"]+)"', page)
    assert set(sources) == {p.name for p in report_dir.glob("*.png")}
    assert all((report_dir / source).is_file() for source in sources)
    assert not re.search(r'(src|href)="(https?:)?//', page), "no external resources"
    markdown_tables = re.findall(r"^\|(?::?-+:?\|)+$", (report_dir / "report.md").read_text(), flags=re.M)
    # the runs, 4 findings (findings, their sources, seed 004 at every rate, the seeds' figures), inputs, the
    # exactly-once verdicts (the tx-streaming fixtures are checked), 4 closed-loop, overhead, 2 phases, 2 sweep, acks,
    # and the transports section (side by side + seed 004's 3)
    assert len(re.findall(r"<table[ >]", page)) == len(markdown_tables) == 21
    assert '<span class="partial">PARTIAL</span>' in page


def test_html_image_dimensions_match_the_files(report_dir: Path) -> None:
    page = (report_dir / "index.html").read_text()
    for source, width, height in re.findall(r'<img src="([^"]+)" alt="[^"]*" width="(\d+)" height="(\d+)"', page):
        with Image.open(report_dir / source) as image:
            assert image.size == (int(width), int(height)), source
