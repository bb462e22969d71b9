"""Two systems side by side, on real runs (fixtures/kafka-vs-tansu: suites/kafka-vs-tansu.yaml on an embedded Kafka
4.1.1 and an embedded Tansu 0.6.0, the same driver kafka-tx, every pair twice, interleaved). Each system is named from
its results' broker.system, never from the driver's name; the seeds' statistics stand in a column per system; the
rest of the report names the same variants. Expected numbers are read from the raw JSON."""

from __future__ import annotations

import json
import statistics
from pathlib import Path

import pytest
from conftest import FIXTURES, run_charts

from omb_tx_charts import analysis, compare, report, systems
from omb_tx_charts.formatting import format_ms, format_ratio
from omb_tx_charts.loader import find_result_files, load_result

PAIR = FIXTURES / "kafka-vs-tansu"
SYSTEMS = {"kafka": "Kafka 4.1.1", "tansu": "Tansu 0.6.0"}


def _raw(workload: str, system: str) -> list[dict]:
    """The raw JSON of ``workload``'s repetitions on ``system``, by repetition index."""
    found = [data for path in sorted(PAIR.glob(f"{workload}-rep*.json"))
             if (data := json.loads(path.read_text()))["workload"] == workload and data["broker"]["system"] == system]
    assert len(found) == 2, (workload, system)
    return sorted(found, key=lambda d: d["repetition"]["index"])


def _spread(values: list[float], fmt) -> str:
    """As the report writes a value over repetitions: median [min–max] n = N."""
    return f"{fmt(statistics.median(values))} [{fmt(min(values))}–{fmt(max(values))}] n = {len(values)}"


def _ratio(value: float) -> str:
    return format_ratio(value) if value >= 1 else f"{value:.2g}×"


@pytest.fixture(scope="module")
def results() -> list:
    return [load_result(path) for path in find_result_files([str(PAIR)])]


@pytest.fixture(scope="module")
def rendered(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("kafka-vs-tansu")
    completed = run_charts(PAIR, "--out", out, "--no-findings")
    assert completed.returncode == 0, completed.stderr
    return out


@pytest.fixture(scope="module")
def side_by_side(rendered: Path) -> dict[str, dict[str, str]]:
    """The side-by-side table of report.md: statistic -> column -> cell."""
    page = (rendered / "report.md").read_text(encoding="utf-8")
    table = page[page.index("### The seeds' statistics, system by system"):].split("\n\n")[1]
    lines = table.splitlines()
    header = [cell.strip() for cell in lines[0].strip("|").split("|")]
    return {cells[0]: dict(zip(header, cells)) for line in lines[2:]
            if (cells := [cell.strip() for cell in line.strip("|").split("|")])}


def test_each_system_is_named_from_broker_system_not_from_the_driver(results) -> None:
    assert {r.driver for r in results} == {"kafka-tx"}
    for result in results:
        raw = json.loads(result.path.read_text())
        assert systems.system(result) == (raw["broker"]["system"].capitalize(), "broker.system")
        assert systems.setup(result) == SYSTEMS[raw["broker"]["system"]]
    variants = compare.Variants(results)
    assert variants.many_systems and not variants.many_versions  # one release per system: no "· broker" labels
    assert variants.keys(results) == ["Kafka 4.1.1 · kafka-tx", "Tansu 0.6.0 · kafka-tx"]


def test_repetitions_of_one_system_are_not_mixed_with_the_other(results) -> None:
    pairs = analysis.overheads(results)
    assert [(p.label, systems.told(p.tx), systems.told(p.base)) for p in pairs] == [
        ("writes", "Kafka", "Kafka"), ("writes", "Tansu", "Tansu"),
        ("streaming", "Kafka", "Kafka"), ("streaming", "Tansu", "Tansu")]
    groups = analysis.closed_loop_groups(results)
    assert {w: [systems.setup(r) for r in g] for w, g in groups.items()} == {
        w: ["Kafka 4.1.1", "Tansu 0.6.0"] for w in ("base-streaming", "base-writes", "bulk-acks-all", "bulk-tx",
                                                     "tx-fetch", "tx-send-offsets", "tx-streaming", "tx-writes")}


def test_the_table_has_a_column_per_system(side_by_side, rendered: Path) -> None:
    page = (rendered / "report.md").read_text(encoding="utf-8")
    assert "## Systems side by side: Kafka 4.1.1 vs Tansu 0.6.0 (driver kafka-tx)" in page
    assert list(next(iter(side_by_side.values()))) == ["Statistic", "Kafka 4.1.1", "Tansu 0.6.0", "Tansu ÷ Kafka"]
    assert list(side_by_side) == [
        "writes: tx ÷ base, p50", "streaming: tx ÷ base, p50",
        "tx-writes: transaction p50", "tx-writes: transaction p99",
        "tx-streaming: transaction p50", "tx-streaming: transaction p99",
        "tx-send-offsets: transaction p50", "tx-send-offsets: transaction p99",
        "tx-fetch: write-to-visible p50", "tx-fetch: write-to-visible p99",
        "bulk-tx: transaction p50", "bulk-tx: transaction p99",
        "bulk insert: bulk-tx ÷ bulk-acks-all, msg/s"]


@pytest.mark.parametrize("family", ["writes", "streaming"])
def test_overhead_ratios_per_system_are_tx_over_base_per_repetition(side_by_side, family) -> None:
    row = side_by_side[f"{family}: tx ÷ base, p50"]
    for system, column in SYSTEMS.items():
        tx, base = _raw(f"tx-{family}", system), _raw(f"base-{family}", system)
        ratios = [t["operationLatency"]["p50"] / b["operationLatency"]["p50"] for t, b in zip(tx, base)]
        assert row[column] == _spread(ratios, _ratio)
    assert row["Tansu ÷ Kafka"] == ""  # a ratio of ratios is not a statistic the seeds draw


@pytest.mark.parametrize("workload", ["tx-writes", "tx-streaming", "tx-send-offsets", "bulk-tx"])
def test_whole_transaction_latency_per_system(side_by_side, workload) -> None:
    for key in ("p50", "p99"):
        row = side_by_side[f"{workload}: transaction {key}"]
        medians = {}
        for system, column in SYSTEMS.items():
            values = [run["operationLatency"][key] for run in _raw(workload, system)]
            assert row[column] == f"{format_ms(statistics.median(values))} ms [{format_ms(min(values))}–" \
                                  f"{format_ms(max(values))}] n = 2"
            medians[system] = statistics.median(values)
        assert row["Tansu ÷ Kafka"] == _ratio(medians["tansu"] / medians["kafka"])


def test_write_to_visible_is_the_end_to_end_latency(side_by_side) -> None:
    for percentile, key in (("p50", "50.0"), ("p99", "99.0")):
        row = side_by_side[f"tx-fetch: write-to-visible {percentile}"]
        for system, column in SYSTEMS.items():
            values = [run["aggregatedEndToEndLatencyQuantiles"][key] for run in _raw("tx-fetch", system)]
            assert row[column] == f"{format_ms(statistics.median(values))} ms [{format_ms(min(values))}–" \
                                  f"{format_ms(max(values))}] n = 2"
    # Tansu's read_committed consumer sees a committed write a quarter of a second later; Kafka's within tens of ms
    tansu = [run["aggregatedEndToEndLatencyQuantiles"]["50.0"] for run in _raw("tx-fetch", "tansu")]
    kafka = [run["aggregatedEndToEndLatencyQuantiles"]["50.0"] for run in _raw("tx-fetch", "kafka")]
    assert min(tansu) > 200 and max(kafka) < 50


def test_bulk_insert_ratio_per_system(side_by_side) -> None:
    row = side_by_side["bulk insert: bulk-tx ÷ bulk-acks-all, msg/s"]
    for system, column in SYSTEMS.items():
        tx, plain = _raw("bulk-tx", system), _raw("bulk-acks-all", system)
        ratios = [t["summary"]["messagesPerSecond"] / p["summary"]["messagesPerSecond"] for t, p in zip(tx, plain)]
        assert row[column] == _spread(ratios, _ratio)


def test_phase_figure_puts_the_systems_side_by_side(results, tmp_path: Path, captured_figures) -> None:
    report.build_report(results, tmp_path, findings=False)
    assert (tmp_path / "systems-phases.png").exists()
    (figure,) = [f for f in captured_figures
                 if f.texts and f.texts[0].get_text() == "Transaction phases, system beside system"]
    panels = [a for a in figure.axes if a.get_visible()]
    assert [a.get_title() for a in panels] == ["tx-writes", "tx-streaming", "tx-send-offsets", "tx-fetch", "bulk-tx"]
    for axes in panels:
        workload = axes.get_title()
        kafka, tansu = axes.containers  # one bar container per system
        phases = [t.get_text() for t in axes.get_xticklabels()]
        assert phases[-1] == "transaction"
        for container, system in ((kafka, "kafka"), (tansu, "tansu")):
            assert container.get_label() == f"{SYSTEMS[system]} · kafka-tx (n = 2)"
            # the transaction bar: the median of the repetitions' whole-transaction p50
            expected = statistics.median(run["transactionPhases"]["transaction"]["p50"]
                                         for run in _raw(workload, system))
            assert container[-1].get_height() == pytest.approx(expected)


def test_the_report_names_the_systems_throughout(rendered: Path) -> None:
    page = (rendered / "report.md").read_text(encoding="utf-8")
    for family in ("writes", "streaming", "bulk"):
        for system in SYSTEMS.values():
            assert f"### {family}, {system}: p50 / p99 per phase" in page  # one phase panel per system
    overhead = page[page.index("### Transactional overhead: tx / base"):]
    assert "| writes | Kafka 4.1.1 · kafka-tx |" in overhead and "| writes | Tansu 0.6.0 · kafka-tx |" in overhead
    closed = page[page.index("## Closed-loop scenarios"):]
    tx_writes = closed[closed.index("### tx-writes"):]
    assert "| Kafka 4.1.1 · kafka-tx |" in tx_writes and "| Tansu 0.6.0 · kafka-tx |" in tx_writes
    assert "1 embedded broker, Tansu 0.6.0, kafka-clients 4.1.1; complete" in page  # provenance names the system


def test_one_system_gets_no_side_by_side_section() -> None:
    results = [load_result(path) for path in find_result_files([str(FIXTURES / "real-versions")])]
    computed = report.compute_report(results, findings=False)
    assert not [s for s in computed.sections if s.title.startswith("Systems side by side")]
