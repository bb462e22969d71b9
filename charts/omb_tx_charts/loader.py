"""Finds result files and turns them into ``Result`` values, or says precisely why a file is not one.

An omb-tx result file (one with ``schemaVersion``) must be valid against the format's definition,
``docs/result.schema.json``; the first violation is reported with its JSON path. A stock OMB result
has no schema here: for it, unknown fields are ignored and every field but ``workload`` and
``driver`` is optional. Either way, a field that is present with the wrong shape is an error, because
charting it silently would show something false.
"""

from __future__ import annotations

import contextlib
import functools
import json
import math
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from jsonschema import Draft202012Validator
from jsonschema.exceptions import ValidationError

from .model import (
    Conformance,
    Coordinators,
    Drain,
    ExactlyOnce,
    Fault,
    LatencySummary,
    LiveCheck,
    LiveViolation,
    RateVerdict,
    Repetition,
    Result,
    RunMode,
    RunSummary,
    Sweep,
)

# OMB's per-period lists (ms unless noted) and omb-tx's `periods` lists that the time series use.
_PERIOD_LISTS = (
    "publishRate",
    "consumeRate",
    "publishErrorRate",
    "backlog",
    "publishLatency50pct",
    "publishLatency99pct",
    "endToEndLatency50pct",
    "endToEndLatency99pct",
)
_SUMMARY_VALUE_KEYS = ("min", "avg", "p25", "p50", "p75", "p90", "p95", "p99", "p999", "p9999", "max")

# The result format's definition, shared with the runner (charts/omb_tx_charts/ -> the repository's docs/).
SCHEMA_PATH = Path(__file__).resolve().parents[2] / "docs" / "result.schema.json"


class ResultError(Exception):
    """A file that cannot be charted; ``str()`` names the file and the problem."""

    def __init__(self, path: Path | str, problem: str) -> None:
        super().__init__(f"{path}: {problem}")
        self.path = Path(path)
        self.problem = problem


class _FieldError(Exception):
    pass


def find_result_files(inputs: Iterable[str]) -> list[Path]:
    """Files named directly plus every *.json under named folders (sorted, no duplicates)."""
    found: list[Path] = []
    for text in inputs:
        path = Path(text)
        if path.is_dir():
            found.extend(sorted(p for p in path.rglob("*.json") if p.is_file()))
        elif path.is_file():
            found.append(path)
        else:
            raise ResultError(path, "no such file or folder")
    unique: dict[Path, Path] = {}
    for path in found:
        unique.setdefault(path.resolve(), path)
    return list(unique.values())


def load_result(path: Path) -> Result:
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        raise ResultError(path, f"cannot read: {error}") from None
    try:
        document = json.loads(text)
    except json.JSONDecodeError as error:
        raise ResultError(path, f"not valid JSON: {error.msg} at line {error.lineno} column {error.colno}") from None
    if isinstance(document, dict) and "schemaVersion" in document:
        violation = first_violation(document)
        if violation is not None:
            raise ResultError(path, violation)
    try:
        return parse_result(path, document)
    except _FieldError as error:
        raise ResultError(path, str(error)) from None


@functools.cache
def _validator() -> Draft202012Validator:
    try:
        schema = json.loads(SCHEMA_PATH.read_text(encoding="utf-8"))
    except OSError as error:
        raise RuntimeError(f"cannot read the result schema {SCHEMA_PATH}: {error}") from None
    Draft202012Validator.check_schema(schema)
    return Draft202012Validator(schema)


def guarantees() -> tuple[str, ...]:
    """The broker guarantees a result's ``conformance`` may name, in the order the schema lists them (as
    docs/conformance.md numbers them)."""
    enum = _validator().schema["properties"]["conformance"]["properties"]["guarantee"]["enum"]
    return tuple(enum)


def first_violation(document: Any) -> str | None:
    """Why ``document`` is not a valid omb-tx result, naming the JSON path of its first violation; None if valid.

    "First" is in the file's order: the violation whose path comes first, the outer one at a tie.
    """
    errors = list(_validator().iter_errors(document))
    if not errors:
        return None
    error = min(errors, key=lambda e: _position(document, e))
    return f"not valid against docs/result.schema.json at {error.json_path}: {error.message}"


def _position(document: Any, error: ValidationError) -> tuple[int, ...]:
    """Where ``error`` is in ``document``: the index of each key or item on its path."""
    position: list[int] = []
    node = document
    for step in error.absolute_path:
        if isinstance(node, dict):
            position.append(list(node).index(step))
        elif isinstance(node, list) and isinstance(step, int):
            position.append(step)
        node = node[step]
    return tuple(position)


def parse_result(path: Path, document: Any) -> Result:
    if not isinstance(document, dict):
        raise _FieldError(f"not an OMB/omb-tx result: the top level is {_kind(document)}, expected an object")
    for required in ("workload", "driver"):
        if required not in document:
            raise _FieldError(f"not an OMB/omb-tx result: missing '{required}'")
        if not isinstance(document[required], str) or not document[required].strip():
            raise _FieldError(f"'{required}' should be a non-empty string, got {_kind(document[required])}")

    is_omb_tx = "schemaVersion" in document
    status = _string(document, "status") or ("complete" if is_omb_tx else "unknown")
    broker = _object(document, "broker")
    summary = _object(document, "summary")
    return Result(
        path=path,
        workload=document["workload"],
        driver=document["driver"],
        is_omb_tx=is_omb_tx,
        status=status,
        partial_reason=_string(document, "partialReason"),
        failure_reason=_string(document, "failureReason"),
        start_time=_string(document, "startTime"),
        run_mode=_run_mode(document),
        sweep=_sweep(document),
        scenario=_object(document, "scenario"),
        versions={str(k): str(v) for k, v in _object(document, "versions").items() if v is not None},
        broker_embedded=broker.get("embedded") if isinstance(broker.get("embedded"), bool) else None,
        broker_count=_int(broker.get("brokers"), "broker.brokers"),
        broker_settings=_object(broker, "settings", "broker.settings"),
        driver_config=_object(document, "driverConfig"),
        counts={k: n for k, v in _object(document, "counts").items() if (n := _int(v, f"counts.{k}")) is not None},
        summary=RunSummary(
            duration_seconds=_number(summary.get("durationSeconds"), "summary.durationSeconds"),
            messages_per_second=_number(summary.get("messagesPerSecond"), "summary.messagesPerSecond"),
            operations_per_second=_number(summary.get("operationsPerSecond"), "summary.operationsPerSecond"),
            millis_per_message=_millis_per_message(summary),
        )
        if summary
        else None,
        operation_latency=_summary(document.get("operationLatency"), "operationLatency"),
        transaction_phases=_phases(document),
        partitions=_int(document.get("partitions"), "partitions"),
        message_size=_int(document.get("messageSize"), "messageSize"),
        publish_latency_quantiles=_quantile_map(document, "aggregatedPublishLatencyQuantiles"),
        end_to_end_latency_quantiles=_quantile_map(document, "aggregatedEndToEndLatencyQuantiles"),
        encoded_histograms=_histograms(document),
        period_series=_period_series(document),
        repetition=_repetition(document),
        transaction_version=_int(broker.get("transactionVersion"), "broker.transactionVersion"),
        broker_system=_string(broker, "system"),
        environment=_object(document, "environment"),
        drain=_drain(document),
        publish_delay_p99_micros=_number(document.get("aggregatedPublishDelayLatency99pct"),
                                         "aggregatedPublishDelayLatency99pct"),
        exactly_once=_exactly_once(document),
        faults=_faults(document),
        host=_object(document, "host"),
        broker_disk=_object(broker, "dataDisk", "broker.dataDisk"),
        rate=_rate(document),
        coordinators=_coordinators(document),
        conformance=_conformance(document),
    )


def _kind(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, (int, float)):
        return "a number"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, list):
        return "a list"
    return "an object"


def _number(value: Any, where: str) -> float | None:
    """A finite number, or None for null/NaN/Infinity (Jackson may write those as strings)."""
    if value is None:
        return None
    if isinstance(value, bool):
        raise _FieldError(f"'{where}' should be a number, got a boolean")
    if isinstance(value, (int, float)):
        return float(value) if math.isfinite(value) else None
    if isinstance(value, str) and value in ("NaN", "Infinity", "-Infinity"):
        return None
    raise _FieldError(f"'{where}' should be a number, got {_kind(value)}")


def _millis_per_message(summary: dict[str, Any]) -> float | None:
    """``summary.millisPerMessage``; files written before it existed have it only under its deprecated first name."""
    value = _number(summary.get("millisPerMessage"), "summary.millisPerMessage")
    if value is None:
        value = _number(summary.get("averageLatencyMillisPerMessage"), "summary.averageLatencyMillisPerMessage")
    return value


def _int(value: Any, where: str) -> int | None:
    number = _number(value, where)
    return None if number is None else int(number)


def _string(document: Mapping[str, Any], key: str) -> str | None:
    value = document.get(key)
    if value is None:
        return None
    if not isinstance(value, str):
        raise _FieldError(f"'{key}' should be a string, got {_kind(value)}")
    return value


def _object(document: Mapping[str, Any], key: str, where: str | None = None) -> dict[str, Any]:
    value = document.get(key)
    if value is None:
        return {}
    if not isinstance(value, dict):
        raise _FieldError(f"'{where or key}' should be an object, got {_kind(value)}")
    return value


def _number_list(value: Any, where: str) -> tuple[float | None, ...]:
    if value is None:
        return ()
    if not isinstance(value, list):
        raise _FieldError(f"'{where}' should be a list of numbers, got {_kind(value)}")
    return tuple(_number(item, f"{where}[{index}]") for index, item in enumerate(value))


def _summary(value: Any, where: str) -> LatencySummary | None:
    if value is None:
        return None
    if not isinstance(value, dict):
        raise _FieldError(f"'{where}' should be a latency summary object, got {_kind(value)}")
    unit = value.get("unit", "ms")
    if unit != "ms":
        raise _FieldError(f"'{where}.unit' is {unit!r}; only \"ms\" summaries are understood")
    values = {k: n for k in _SUMMARY_VALUE_KEYS if (n := _number(value.get(k), f"{where}.{k}")) is not None}
    return LatencySummary(
        count=_int(value.get("count"), f"{where}.count"),
        values_ms=values,
        total_millis=_number(value.get("totalMillis"), f"{where}.totalMillis"),
    )


def _phases(document: Mapping[str, Any]) -> dict[str, LatencySummary]:
    phases = _object(document, "transactionPhases")
    parsed = {name: _summary(value, f"transactionPhases.{name}") for name, value in phases.items()}
    return {name: summary for name, summary in parsed.items() if summary is not None}


def _quantile_map(document: Mapping[str, Any], key: str) -> dict[float, float]:
    """OMB writes percentile keys as "99.9" or "99.9" from a Double ("50.0"); both parse."""
    raw = _object(document, key)
    quantiles: dict[float, float] = {}
    for percentile_text, value in raw.items():
        try:
            percentile = float(percentile_text)
        except ValueError:
            raise _FieldError(f"'{key}' has key {percentile_text!r}, expected a percentile such as \"99.9\"") from None
        if not 0.0 <= percentile <= 100.0:
            raise _FieldError(f"'{key}' has key {percentile_text!r}, outside 0..100")
        number = _number(value, f"{key}.{percentile_text}")
        if number is not None:
            quantiles[percentile] = number
    return dict(sorted(quantiles.items()))


def _histograms(document: Mapping[str, Any]) -> dict[str, str]:
    histograms = _object(document, "histograms")
    for name, value in histograms.items():
        if value is not None and not isinstance(value, str):
            raise _FieldError(f"'histograms.{name}' should be base64 text, got {_kind(value)}")
    return {name: value for name, value in histograms.items() if value}


def _period_series(document: Mapping[str, Any]) -> dict[str, tuple[float | None, ...]]:
    series = {name: _number_list(document.get(name), name) for name in _PERIOD_LISTS}
    periods = _object(document, "periods")
    for name, value in periods.items():
        series[f"periods.{name}"] = _number_list(value, f"periods.{name}")
    return {name: values for name, values in series.items() if values}


def _run_mode(document: Mapping[str, Any]) -> RunMode | None:
    raw = _object(document, "runMode")
    if not raw:
        return None
    loop = _string(raw, "loop")
    return RunMode(
        loop=loop,
        target_rate=_number(raw.get("targetRate"), "runMode.targetRate"),
        warmup=_amounts(raw, "warmup"),
        measure=_amounts(raw, "measure"),
        reporting_interval_seconds=_number(raw.get("reportingIntervalSeconds"), "runMode.reportingIntervalSeconds"),
        omb_period_seconds=_number(raw.get("ombPeriodSeconds"), "runMode.ombPeriodSeconds"),
    )


def _amounts(run_mode: Mapping[str, Any], key: str) -> dict[str, float]:
    raw = _object(run_mode, key, f"runMode.{key}")
    return {unit: n for unit, v in raw.items() if (n := _number(v, f"runMode.{key}.{unit}")) is not None}


def _repetition(document: Mapping[str, Any]) -> Repetition | None:
    raw = _object(document, "repetition")
    if not raw:
        return None
    index, count = _int(raw.get("index"), "repetition.index"), _int(raw.get("count"), "repetition.count")
    group, interleaved = raw.get("group"), raw.get("interleaved", False)
    if index is None or count is None or not isinstance(group, str) or not group or not isinstance(interleaved, bool):
        raise _FieldError("'repetition' should hold numbers 'index' and 'count', a string 'group' and a boolean "
                          "'interleaved'")
    return Repetition(index=index, count=count, group=group, interleaved=interleaved,
                      comparison=_string(raw, "comparison"))


def _sweep(document: Mapping[str, Any]) -> Sweep | None:
    raw = _object(document, "sweep")
    if not raw:
        return None
    name, parameter, value = raw.get("name"), raw.get("parameter"), raw.get("value")
    if isinstance(value, str):
        with contextlib.suppress(ValueError):  # a swept value that is not a number stays text
            value = float(value)
    elif isinstance(value, (int, float)) and not isinstance(value, bool):
        value = float(value)
    else:
        value = None
    if value is None or not isinstance(name, str) or not isinstance(parameter, str):
        raise _FieldError("'sweep' should hold a string 'name', a string 'parameter' and a 'value'")
    return Sweep(name=name, parameter=parameter, value=value)


def _drain(document: Mapping[str, Any]) -> Drain | None:
    raw = _object(document, "drain")
    if not raw:
        return None
    completed = raw.get("completed")
    if not isinstance(completed, bool):
        raise _FieldError("'drain.completed' should be a boolean")
    return Drain(completed=completed, not_received=_int(raw.get("notReceived"), "drain.notReceived"),
                 seconds=_number(raw.get("seconds"), "drain.seconds"))


def _rate(document: Mapping[str, Any]) -> RateVerdict | None:
    raw = _object(document, "rate")
    if not raw:
        return None
    target = _number(raw.get("target"), "rate.target")
    achieved = _number(raw.get("achieved"), "rate.achieved")
    if target is None or achieved is None:
        raise _FieldError("'rate.target' and 'rate.achieved' should be numbers")
    return RateVerdict(target=target, achieved=achieved, held=_flag(raw, "held", "rate"),
                       publish_delay_p99_ms=_number(raw.get("publishDelayP99Millis"), "rate.publishDelayP99Millis"),
                       limited_by=_string(raw, "limitedBy"), evidence=_string(raw, "evidence"))


def _coordinators(document: Mapping[str, Any]) -> Coordinators | None:
    raw = _object(document, "coordinators")
    if not raw:
        return None
    by_broker = {}
    for i, entry in enumerate(raw.get("byBroker") or []):
        where = f"coordinators.byBroker[{i}]"
        if not isinstance(entry, Mapping):
            raise _FieldError(f"'{where}' should be an object")
        by_broker[_count(entry, "broker", where)] = _count(entry, "committed", where) + _count(entry, "aborted", where)
    return Coordinators(committed=_count(raw, "committed", "coordinators"),
                        aborted=_count(raw, "aborted", "coordinators"),
                        partitions_used=_count(raw, "partitionsUsed", "coordinators"),
                        partitions=_count(raw, "partitions", "coordinators"), ended_by_broker=by_broker)


def _count(raw: Mapping[str, Any], key: str, where: str) -> int:
    value = _int(raw.get(key), f"{where}.{key}")
    if value is None:
        raise _FieldError(f"'{where}.{key}' should be a number")
    return value


def _flag(raw: Mapping[str, Any], key: str, where: str) -> bool:
    value = raw.get(key)
    if not isinstance(value, bool):
        raise _FieldError(f"'{where}.{key}' should be a boolean")
    return value


def _exactly_once(document: Mapping[str, Any]) -> ExactlyOnce | None:
    raw = _object(document, "exactlyOnce")
    if not raw:
        return None
    return ExactlyOnce(
        checked=_count(raw, "checked", "exactlyOnce"),
        duplicated=_count(raw, "duplicated", "exactlyOnce"),
        missing=_count(raw, "missing", "exactlyOnce"),
        unexpected=_count(raw, "unexpected", "exactlyOnce"),
        aborted_seen=_int(raw.get("abortedSeen"), "exactlyOnce.abortedSeen"),
        passed=_flag(raw, "passed", "exactlyOnce"),
        live=_live(raw),
    )


def _conformance(document: Mapping[str, Any]) -> Conformance | None:
    raw = _object(document, "conformance")
    if not raw:
        return None
    counts = _object(raw, "counts", "conformance.counts")
    return Conformance(
        guarantee=_string(raw, "guarantee") or "",
        title=_string(raw, "title") or "",
        verdict=_string(raw, "verdict") or "",
        counts={k: _int(v, f"conformance.counts.{k}") or 0 for k, v in counts.items()},
        first_violation=_string(raw, "firstViolation"),
        note=_string(raw, "note"),
    )


def _live(exactly_once: Mapping[str, Any]) -> LiveCheck | None:
    where = "exactlyOnce.live"
    raw = _object(exactly_once, "live", where)
    if not raw:
        return None
    violations = raw.get("violations", [])
    if not isinstance(violations, list):
        raise _FieldError(f"'{where}.violations' should be a list, got {_kind(violations)}")
    return LiveCheck(
        outputs_read=_count(raw, "outputsRead", where),
        duplicates=_count(raw, "duplicates", where),
        aborted_seen=_count(raw, "abortedSeen", where),
        uncommitted=_count(raw, "uncommitted", where),
        out_of_order=_count(raw, "outOfOrder", where),
        unknown_source=_count(raw, "unknownSource", where),
        read_to_end=_flag(raw, "readToEnd", where),
        passed=_flag(raw, "passed", where),
        violations=tuple(_violation(v, f"{where}.violations[{i}]") for i, v in enumerate(violations)),
    )


def _violation(raw: Any, where: str) -> LiveViolation:
    if not isinstance(raw, dict):
        raise _FieldError(f"'{where}' should be an object, got {_kind(raw)}")
    kind, topic, detail = raw.get("kind"), raw.get("topic"), raw.get("detail", "")
    if not isinstance(kind, str) or not isinstance(topic, str) or not isinstance(detail, str):
        raise _FieldError(f"'{where}' should hold strings 'kind', 'topic' and 'detail'")
    return LiveViolation(
        kind=kind,
        topic=topic,
        partition=_count(raw, "partition", where),
        offset=_count(raw, "offset", where),
        source_partition=_int(raw.get("sourcePartition"), f"{where}.sourcePartition"),
        source_offset=_int(raw.get("sourceOffset"), f"{where}.sourceOffset"),
        seen_at_seconds=_number(raw.get("seenAtSeconds"), f"{where}.seenAtSeconds"),
        detail=detail,
    )


def _faults(document: Mapping[str, Any]) -> tuple[Fault, ...]:
    raw = document.get("faults")
    if raw is None:
        return ()
    if not isinstance(raw, list):
        raise _FieldError(f"'faults' should be a list, got {_kind(raw)}")
    faults = []
    for index, fault in enumerate(raw):
        where = f"faults[{index}]"
        if not isinstance(fault, dict):
            raise _FieldError(f"'{where}' should be an object, got {_kind(fault)}")
        action, target = fault.get("action"), fault.get("target")
        if not isinstance(action, str) or not isinstance(target, str):
            raise _FieldError(f"'{where}' should hold strings 'action' and 'target'")
        faults.append(Fault(action=action, target=target,
                            injected_at_seconds=_number(fault.get("injectedAtSeconds"), f"{where}.injectedAtSeconds"),
                            error=_string(fault, "error")))
    return tuple(faults)
