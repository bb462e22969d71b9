"""How a run was obtained, in one line: the provenance every figure's caption lists for each run in it."""

from __future__ import annotations

from collections.abc import Mapping

from . import harness, systems
from .formatting import format_count
from .model import Result


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
    """How a run was obtained, in one line: loop, amounts, rate, brokers, the system and versions, status."""
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
        system = systems.told(result)  # the broker the cluster said it is, else just "broker"
        parts.append(f"{system or 'broker'} {broker_version or '?'}, kafka-clients {client_version or '?'};")
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
