"""Number formats of the seeds' tables and the one-line provenance of a run used in captions."""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from .model import Result

MISSING = "-"


def format_ms(value: float | None) -> str:
    """Latency the way the seeds print it: 3.7, 59.9, 763, 0.35 (trailing zeros dropped)."""
    if value is None:
        return MISSING
    if abs(value) >= 100:
        text = f"{value:.0f}"
    elif abs(value) >= 1:
        text = f"{value:.1f}"
    else:
        text = f"{value:.2g}" if value else "0"
    return text.rstrip("0").rstrip(".") if "." in text else text


def format_rate(rate: float) -> str:
    """Target rates as in seed 004: 1K, 5K, 100K, 2.5K, 1M, 500."""
    for divisor, unit in ((1_000_000, "M"), (1_000, "K")):
        if abs(rate) >= divisor:
            scaled = f"{rate / divisor:.1f}".rstrip("0").rstrip(".")
            return f"{scaled}{unit}"
    return f"{rate:.0f}"


def format_count(value: float | None) -> str:
    return MISSING if value is None else f"{value:,.0f}"


def format_ratio(value: float | None) -> str:
    if value is None:
        return MISSING
    return f"{value:.1f}×" if value < 100 else f"{value:.0f}×"


def _amount(amounts: Mapping[str, float]) -> str:
    return ", ".join(f"{format_count(n)} {unit}" for unit, n in amounts.items()) or "?"


def _shortfall(result: Result) -> str:
    """" (640 done)" when a run counted fewer operations or messages than it set out to measure."""
    assert result.run_mode is not None
    # A STREAM run writes what it consumed: its messages are the records processed (messagesSent stays 0).
    sent = "messagesProcessed" if result.scenario.get("kind") == "STREAM" else "messagesSent"
    for unit, counter in (("operations", "operations"), ("messages", sent)):
        planned, done = result.run_mode.measure.get(unit), result.counts.get(counter)
        if planned is not None and done is not None and done < planned:
            return f" ({format_count(done)} done)"
    return ""


def provenance(result: Result) -> str:
    """How a run was obtained, in one line: loop, amounts, rate, brokers, versions, status."""
    if not result.is_omb_tx:
        periods = len(result.series("publishRate"))
        return (
            f"{result.driver}: stock OMB result (loop mode, broker count and versions not recorded); "
            f"{periods} reporting periods; {result.path.name}"
        )
    parts = [f"{result.driver}:"]
    run_mode = result.run_mode
    if run_mode is not None:
        parts.append(f"{run_mode.loop or '?'} loop;")
        parts.append(f"warm-up {_amount(run_mode.warmup)}; measured {_amount(run_mode.measure)}{_shortfall(result)}")
        duration = result.summary.duration_seconds if result.summary else None
        parts[-1] += f" in {duration:.1f} s;" if duration is not None else ";"
        rate = run_mode.target_rate
        parts.append(f"target rate {format_count(rate)} msg/s;" if rate else "no target rate;")
    else:
        parts.append("run mode not recorded;")
    if result.broker_count == 0 and not result.broker_embedded:
        # a driver with a transport of its own (driver-aeron): no broker, no Kafka client
        parts.append("no broker;")
    else:
        if result.broker_count is not None:
            where = {True: " embedded", False: "", None: ""}[result.broker_embedded]
            parts.append(f"{result.broker_count}{where} broker{'s' if result.broker_count != 1 else ''},")
        broker_version = result.versions.get("broker")
        client_version = result.versions.get("kafkaClients")
        parts.append(f"broker {broker_version or '?'}, kafka-clients {client_version or '?'};")
    from . import harness  # here: harness formats with this module

    behind = harness.problems(result)
    if behind:
        parts.append(f"⚠ harness behind ({'; '.join(behind)});")
    if result.is_failed:
        parts.append(f"FAILED ({result.failure_reason or 'no reason given'});")
    elif result.is_partial:
        parts.append(f"PARTIAL ({result.partial_reason or 'no reason given'});")
    else:
        parts.append(f"{result.status};")
    parts.append(result.path.name)
    return " ".join(parts)


def provenance_lines(results: Iterable[Result]) -> list[str]:
    return [provenance(result) for result in results]
