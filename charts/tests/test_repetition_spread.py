"""Repetitions drawn as a spread, on the real runs in fixtures/findings: tx-writes and base-writes were run three
times, interleaved, on Kafka 2.8.2 and 4.1.1 (one repetition group per broker). Expected numbers are read from the
raw JSON, never from the code under test."""

from __future__ import annotations

import json
import statistics
from pathlib import Path

import pytest
from conftest import FIXTURES

from omb_tx_charts import analysis, hdr, plots, report, spread, tables
from omb_tx_charts.formatting import format_ms, format_ratio
from omb_tx_charts.loader import find_result_files, load_result

FINDINGS = FIXTURES / "findings"


def _raw(path: Path) -> dict:
    return json.loads(path.read_text())


def _group_files(workload: str, broker: str) -> list[Path]:
    """The files of ``workload`` on ``broker`` in a repetition group of more than one run."""
    chosen = []
    for path in sorted(FINDINGS.glob(f"{workload}-*.json")):
        document = _raw(path)
        if document["workload"] == workload and document["versions"]["broker"] == broker \
                and document["repetition"]["count"] > 1:
            chosen.append(path)
    return chosen


@pytest.fixture(scope="module")
def results():
    return [load_result(path) for path in find_result_files([str(FINDINGS)])]


@pytest.fixture(scope="module")
def reps(results):
    return spread.Repetitions(results)


def _by_file(results, path: Path):
    return next(r for r in results if r.path.name == path.name)


@pytest.mark.parametrize("broker", ["2.8.2", "4.1.1"])
def test_the_median_repetition_is_charted(results, reps, broker):
    files = _group_files("tx-writes", broker)
    assert len(files) == 3
    p50s = {path.name: _raw(path)["operationLatency"]["p50"] for path in files}
    representative = reps.representatives([_by_file(results, files[0])])[0]
    assert p50s[representative.path.name] == statistics.median(p50s.values())
    assert sorted(r.path.name for r in reps.of(representative)) == sorted(p50s)


@pytest.mark.parametrize("broker", ["2.8.2", "4.1.1"])
def test_band_spans_the_repetitions_curves(results, reps, broker):
    files = _group_files("tx-writes", broker)
    representative = reps.representatives([_by_file(results, files[0])])[0]
    curve = analysis.latency_curve(representative, analysis.OPERATION)
    line = plots.CurveLine("x", "#000", curve, band=report._band(representative, analysis.OPERATION, reps))
    assert len(line.band) == 2
    levels, lows, highs = plots.band_bounds(line)
    assert len(levels) > 20
    histograms = [hdr.decode_base64(_raw(path)["histograms"]["operationLatencyMicros"]) for path in files]
    for level, low, high in zip(levels, lows, highs):
        values = [h.value_at_percentile(level) / 1000.0 for h in histograms]
        assert low == pytest.approx(min(values)) and high == pytest.approx(max(values)), level
    assert any(high > low * 1.2 for low, high in zip(lows, highs))  # a real spread, not one curve three times


def test_closed_loop_table_shows_median_range_and_n(results, reps):
    files = _group_files("tx-writes", "2.8.2")
    representative = reps.representatives([_by_file(results, files[0])])[0]
    table = tables.closed_loop_table("tx-writes", [representative], reps=reps)
    p50s = [_raw(path)["operationLatency"]["p50"] for path in files]
    maxima = [_raw(path)["operationLatency"]["max"] for path in files]
    row = table.rows[0]
    assert row[3] == f"{format_ms(statistics.median(p50s))} ms [{format_ms(min(p50s))}–{format_ms(max(p50s))}] n = 3"
    assert row[4] == (f"{format_ms(statistics.median(maxima))} ms [{format_ms(min(maxima))}–{format_ms(max(maxima))}]"
                      " n = 3")
    assert "median over its repetitions" in table.note


def test_single_runs_read_as_before(results, reps):
    single = next(r for r in results if r.workload == "tx-streaming" and analysis.broker_version(r) == "2.8.2")
    assert reps.of(single) == [single] and reps.label("kafka-tx", single) == "kafka-tx"
    row = tables.closed_loop_table("tx-streaming", [single], reps=reps).rows[0]
    assert row[3] == f"{format_ms(_raw(single.path)['operationLatency']['p50'])} ms"
    assert not tables.closed_loop_table("tx-streaming", [single], reps=reps).note


def test_overhead_ratio_is_the_median_of_interleaved_pairs(results, reps):
    charted = reps.representatives(results)
    pair = next(p for p in analysis.overheads(charted)
                if p.family == "writes" and analysis.broker_version(p.tx) == "2.8.2")
    tx = {_raw(p)["repetition"]["index"]: _raw(p)["operationLatency"]["p50"]
          for p in _group_files("tx-writes", "2.8.2")}
    base = {_raw(p)["repetition"]["index"]: _raw(p)["operationLatency"]["p50"]
            for p in _group_files("base-writes", "2.8.2")}
    ratios = [tx[i] / base[i] for i in sorted(tx)]
    found = spread.ratio_spread(reps.of(pair.tx), reps.of(pair.base), analysis.operation_p50_ms)
    assert found.n == 3 and found.median == pytest.approx(statistics.median(ratios))
    assert (found.low, found.high) == (pytest.approx(min(ratios)), pytest.approx(max(ratios)))
    row = tables.overhead_table([pair], reps=reps).rows[0]
    assert row[4] == (f"{format_ratio(statistics.median(ratios))} [{format_ratio(min(ratios))}–"
                      f"{format_ratio(max(ratios))}] n = 3")


def test_report_draws_each_variant_once_with_its_repetitions(results, tmp_path):
    built = report.build_report(results, tmp_path)
    figures = {block.title: block for section in built.sections for block in section.blocks
               if isinstance(block, report.Figure)}
    latency = figures["tx-writes: latency percentiles"]
    assert len(latency.runs) == 6  # three repetitions on each broker, all named as sources
    assert "shaded band" in latency.description
    phases = figures["writes: phases, transactional vs naive"]
    assert "each repetition's p50" in phases.description
    tables_md = [tables.to_markdown(block) for section in built.sections for block in section.blocks
                 if isinstance(block, tables.Table)]
    assert any("n = 3" in text and "begin" in text for text in tables_md)  # the phases table
    # Single runs keep their captions.
    assert "band" not in figures["tx-streaming: latency percentiles"].description


# fixtures/repeated: bulk-tx, bulk-acks-all and acks-sla-yolo, each run twice, interleaved (see its README).
REPEATED = FIXTURES / "repeated"


@pytest.fixture(scope="module")
def repeated():
    loaded = [load_result(path) for path in find_result_files([str(REPEATED)])]
    return loaded, spread.Repetitions(loaded)


def _rates(workload: str) -> list[float]:
    files = sorted(REPEATED.glob(f"{workload}-rep*.json"))
    assert len(files) == 2
    return [_raw(path)["summary"]["messagesPerSecond"] for path in files]


def _cell(values: list[float], fmt) -> str:
    return f"{fmt(statistics.median(values))} [{fmt(min(values))}–{fmt(max(values))}] n = {len(values)}"


def test_bulk_table_and_figure_show_the_spread(repeated, tmp_path):
    from omb_tx_charts import compare
    from omb_tx_charts.formatting import format_count

    loaded, reps = repeated
    charted = reps.representatives(loaded)
    pairs = compare.bulk_pairs(charted, compare.Variants(charted))
    assert len(pairs) == 1
    row = tables.bulk_table(pairs, reps).rows[0]
    tx, plain = _rates("bulk-tx"), _rates("bulk-acks-all")
    assert row[2] == _cell(tx, format_count) and row[3] == _cell(plain, format_count)
    tx_by_index = {_raw(p)["repetition"]["index"]: _raw(p)["summary"]["messagesPerSecond"]
                   for p in REPEATED.glob("bulk-tx-rep*.json")}
    plain_by_index = {_raw(p)["repetition"]["index"]: _raw(p)["summary"]["messagesPerSecond"]
                      for p in REPEATED.glob("bulk-acks-all-rep*.json")}
    ratios = [tx_by_index[i] / plain_by_index[i] for i in sorted(tx_by_index)]
    assert row[4] == _cell(ratios, tables._fine_ratio)
    rendered = plots.bulk_figure(pairs, tmp_path / "bulk.png", lambda run: spread.spread(reps.of(run),
                                                                                         compare.BulkPair.rate))
    assert rendered.path.exists()


def test_acks_table_shows_the_spread(repeated):
    from omb_tx_charts.formatting import format_count

    loaded, reps = repeated
    groups = analysis.acks_rows(reps.representatives(loaded))
    (driver, messages), rows = next(iter(groups.items()))
    table = tables.acks_table(driver, messages, rows, reps)
    assert table.rows[0][-1] == _cell(_rates("acks-sla-yolo"), format_count)
    assert "median over its repetitions" in table.note
