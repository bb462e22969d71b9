"""Loading result files: tolerant of extra and missing optional fields, precise about broken ones."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import FIXTURES, INVALID, REPO, RESULTS, result_file

from omb_tx_charts.loader import (
    SCHEMA_PATH,
    ResultError,
    find_result_files,
    first_violation,
    load_result,
    parse_result,
)


def test_stock_omb_result_loads_with_omb_fields_only() -> None:
    result = load_result(result_file("omb-stock-"))
    assert not result.is_omb_tx
    assert result.status == "unknown"
    assert result.run_mode is None and result.operation_latency is None
    assert result.workload == "1 topic / 16 partitions / 1Kb" and result.driver == "Kafka"
    # OMB writes Double keys ("50.0"); they read as percentiles.
    assert result.publish_latency_quantiles[50.0] == 3.211
    assert result.publish_latency_quantiles[99.9] == 35.647
    assert len(result.series("publishRate")) == 6


def test_omb_tx_result_exposes_run_mode_summaries_and_phases() -> None:
    result = load_result(result_file("tx-writes-kafka-tx"))
    assert result.is_omb_tx and result.status == "complete"
    assert result.run_mode is not None and result.run_mode.loop == "closed"
    assert result.run_mode.measure == {"operations": 1000.0}
    assert result.operation_latency is not None
    assert result.operation_latency.count == 1000
    assert result.operation_latency.get("p50") == 24.175
    assert result.operation_latency.total_millis == 25700.203
    assert list(result.transaction_phases) == ["begin", "send", "resolve", "commit", "transaction"]
    assert result.versions["broker"] == "4.1.1" and result.broker_count == 1
    assert result.histogram("operationLatencyMicros") is not None


def test_partial_result_is_flagged() -> None:
    result = load_result(result_file("tx-streaming-quick-redpanda-tx"))
    assert result.is_partial
    assert result.partial_reason == "interrupted (SIGINT) after 640 of 1000 operations"
    assert result.label == "redpanda-tx [PARTIAL]"


def test_failed_result_loads_and_is_flagged() -> None:
    from omb_tx_charts.provenance import provenance

    reason = "every measured operation failed: 30 failed operation(s)"
    result = parse_result(Path("failed.json"), {"workload": "w", "driver": "kafka-tx", "schemaVersion": 1,
                                                "status": "failed", "failureReason": reason,
                                                "counts": {"committed": 0, "failed": 30}})
    assert result.is_failed and not result.is_partial
    assert result.failure_reason == reason
    assert result.label == "kafka-tx [FAILED]"
    assert f"FAILED ({reason});" in provenance(result)


def test_millis_per_message_is_read_by_its_name_else_by_its_deprecated_first_name() -> None:
    def summary(**fields: float | None) -> dict[str, object]:
        return {"workload": "w", "driver": "d", "schemaVersion": 1,
                "summary": {"durationSeconds": 2.0, "messagesPerSecond": 500.0, **fields}}

    both = parse_result(Path("both.json"), summary(millisPerMessage=2.0, averageLatencyMillisPerMessage=9.0))
    assert both.summary is not None and both.summary.millis_per_message == 2.0
    new_only = parse_result(Path("new.json"), summary(millisPerMessage=4.0))
    assert new_only.summary is not None and new_only.summary.millis_per_message == 4.0
    old_only = parse_result(Path("old.json"), summary(averageLatencyMillisPerMessage=0.5))
    assert old_only.summary is not None and old_only.summary.millis_per_message == 0.5
    no_messages = parse_result(Path("none.json"), summary(millisPerMessage=None, averageLatencyMillisPerMessage=None))
    assert no_messages.summary is not None and no_messages.summary.millis_per_message is None


def test_only_workload_and_driver_are_required() -> None:
    result = parse_result(Path("minimal.json"), {"workload": "w", "driver": "d", "somethingNew": {"x": 1}})
    assert (result.workload, result.driver, result.status) == ("w", "d", "unknown")
    assert result.transaction_phases == {} and result.encoded_histograms == {}


def test_nan_and_null_values_count_as_missing() -> None:
    document = {
        "workload": "w",
        "driver": "d",
        "schemaVersion": 1,
        "publishRate": [1.0, "NaN", None],
        "aggregatedEndToEndLatencyQuantiles": {"50.0": "NaN", "99.0": 4.5},
        "operationLatency": {"unit": "ms", "count": 3, "p50": float("nan"), "p99": 2.0},
        "runMode": {"loop": "open", "targetRate": None},
    }
    result = parse_result(Path("nan.json"), document)
    assert result.series("publishRate") == (1.0, None, None)
    assert result.end_to_end_latency_quantiles == {99.0: 4.5}
    assert result.operation_latency is not None and result.operation_latency.get("p50") is None
    assert result.run_mode is not None and result.run_mode.target_rate is None


def test_undecodable_histogram_falls_back_to_none() -> None:
    result = parse_result(Path("h.json"), {"workload": "w", "driver": "d", "histograms": {"x": "bm90IGEgaGlzdG9ncmFt"}})
    assert result.histogram("x") is None


@pytest.mark.parametrize(
    ("document", "message"),
    [
        ({"driver": "d"}, "not an OMB/omb-tx result: missing 'workload'"),
        ({"workload": "w"}, "not an OMB/omb-tx result: missing 'driver'"),
        ([1, 2], "not an OMB/omb-tx result: the top level is a list, expected an object"),
        ({"workload": 3, "driver": "d"}, "'workload' should be a non-empty string, got a number"),
        ({"workload": "w", "driver": "d", "publishRate": "fast"},
         "'publishRate' should be a list of numbers, got a string"),
        ({"workload": "w", "driver": "d", "publishRate": [1, "x"]},
         "'publishRate[1]' should be a number, got a string"),
        ({"workload": "w", "driver": "d", "operationLatency": {"unit": "us"}}, "only \"ms\" summaries"),
        ({"workload": "w", "driver": "d", "aggregatedPublishLatencyQuantiles": {"p50": 1}}, "expected a percentile"),
        ({"workload": "w", "driver": "d", "sweep": {"name": "s"}}, "'sweep' should hold"),
    ],
)
def test_broken_documents_are_rejected_with_the_reason(tmp_path: Path, document: object, message: str) -> None:
    path = tmp_path / "x.json"
    path.write_text(json.dumps(document))
    with pytest.raises(ResultError) as error:
        load_result(path)
    assert str(error.value).startswith(f"{path}: ")
    assert message in str(error.value)


def test_malformed_json_names_file_and_position() -> None:
    with pytest.raises(ResultError, match=r"truncated\.json: not valid JSON: .* at line \d+ column \d+"):
        load_result(INVALID / "truncated.json")


def test_folders_are_searched_recursively_and_files_deduplicated(tmp_path: Path) -> None:
    (tmp_path / "a" / "b").mkdir(parents=True)
    (tmp_path / "a" / "b" / "deep.json").write_text("{}")
    (tmp_path / "top.json").write_text("{}")
    (tmp_path / "notes.txt").write_text("not json")
    found = find_result_files([str(tmp_path), str(tmp_path / "top.json")])
    assert sorted(p.name for p in found) == ["deep.json", "top.json"]


def test_missing_input_path_is_an_error(tmp_path: Path) -> None:
    with pytest.raises(ResultError, match="no such file or folder"):
        find_result_files([str(tmp_path / "nope")])


def test_every_fixture_loads() -> None:
    paths = find_result_files([str(RESULTS)])
    assert len(paths) == 18
    for path in paths:
        load_result(path)


def test_sweep_value_may_be_text_as_the_runner_writes_for_multi_parameter_sweeps() -> None:
    numeric = parse_result(Path("a.json"), {"workload": "s-1000", "driver": "d",
                                            "sweep": {"name": "s", "parameter": "producerRate", "value": 1000}})
    text = parse_result(Path("b.json"), {"workload": "s-1000-100", "driver": "d",
                                         "sweep": {"name": "s", "parameter": "producerRate,messageSize",
                                                   "value": "1000,100"}})
    assert numeric.sweep is not None and numeric.sweep.value == 1000.0
    assert text.sweep is not None and text.sweep.value == "1000,100"


def test_an_omb_tx_result_is_checked_against_the_schema_and_its_first_violation_named() -> None:
    path = INVALID / "schema-violation.json"
    with pytest.raises(ResultError) as error:
        load_result(path)
    message = str(error.value)
    assert message.startswith(f"{path}: not valid against docs/result.schema.json at $.runMode.loop: ")
    assert "'ajar' is not one of ['open', 'closed']" in message
    assert "counts" not in message, "only the first violation in the file's order: runMode comes before counts"


@pytest.mark.parametrize(
    ("change", "where"),
    [
        (lambda d: d.update(surprise=1), "$: Additional properties are not allowed ('surprise' was unexpected)"),
        (lambda d: d.pop("counts"), "$: 'counts' is a required property"),
        (lambda d: d["transactionPhases"].update(lunch={"unit": "ms", "count": 0}), "$.transactionPhases: "),
        (lambda d: d.update(schemaVersion=2), "$.schemaVersion: 1 was expected"),
        (lambda d: d["summary"].update(durationSeconds="NaN"), "$.summary.durationSeconds: 'NaN' is not of type"),
        (lambda d: d["broker"].update(capabilities={"apis": {"EndTxn": "5"}}), "$.broker.capabilities.apis.EndTxn: "),
        (lambda d: d["broker"].update(capabilities={"apis": {"Produce": "0-11"}}), "$.broker.capabilities.apis: "),
    ],
)
def test_a_broken_omb_tx_result_names_the_json_path(tmp_path: Path, change, where: str) -> None:
    document = json.loads(result_file("tx-writes-kafka-tx").read_text())
    change(document)
    path = tmp_path / "broken.json"
    path.write_text(json.dumps(document))
    with pytest.raises(ResultError) as error:
        load_result(path)
    assert str(error.value).startswith(f"{path}: not valid against docs/result.schema.json at {where}")


def test_the_broker_capabilities_a_run_probed_are_valid(tmp_path: Path) -> None:
    document = json.loads(result_file("tx-writes-kafka-tx").read_text())
    ranges = ["0-4", "0-3", "0-3", "0-3", "0-3", "none", "none", "none"]  # Kafka 2.8.2's, as the probe read them
    names = ["InitProducerId", "AddPartitionsToTxn", "AddOffsetsToTxn", "TxnOffsetCommit", "EndTxn",
             "DescribeTransactions", "ListTransactions", "ConsumerGroupHeartbeat"]
    document["broker"]["capabilities"] = {
        "apis": dict(zip(names, ranges)), "groupMetadata": True, "transactionV2": False,
        "consumerGroupProtocol": False, "idempotentProducer": "allowed", "transactionalProducer": "allowed"}
    path = tmp_path / "probed.json"
    path.write_text(json.dumps(document))
    assert load_result(path).broker_system == document["broker"].get("system")
    document["broker"]["capabilities"] = {"problem": "ApiVersions: not asked: security.protocol SSL"}
    path.write_text(json.dumps(document))
    load_result(path)


def test_a_stock_omb_result_is_not_held_to_the_schema(tmp_path: Path) -> None:
    stock = json.loads(result_file("omb-stock-").read_text())
    assert "schemaVersion" not in stock and first_violation(stock) is not None, "it is no omb-tx result"
    path = tmp_path / "stock.json"
    path.write_text(json.dumps({**stock, "somethingNew": True}))
    assert load_result(path).workload == stock["workload"]


def test_every_omb_tx_result_fixture_is_valid_against_the_schema() -> None:
    assert SCHEMA_PATH == REPO / "docs" / "result.schema.json" and SCHEMA_PATH.is_file()
    checked = 0
    for folder in (FIXTURES, REPO / "runner" / "src" / "test" / "resources"):
        for path in sorted(folder.rglob("*.json")):
            if INVALID in path.parents:
                continue
            document = json.loads(path.read_text(encoding="utf-8"))
            if isinstance(document, dict) and "schemaVersion" in document:
                assert first_violation(document) is None, path
                checked += 1
    assert checked >= 150
