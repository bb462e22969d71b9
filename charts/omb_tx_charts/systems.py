"""Which system a run measured and on which release, as the report names them: the system is ``broker.system`` read
back from the cluster, never the driver file's name; an embedded broker is Kafka, a run without a broker
(``broker.brokers`` 0) is its driver's transport (Aeron)."""

from __future__ import annotations

from collections.abc import Iterable

from .model import Result


def system(result: Result) -> tuple[str, str]:
    """(system, where it came from)."""
    if result.broker_system:
        return result.broker_system.capitalize() if result.broker_system.islower() else result.broker_system, \
            "broker.system"
    if result.broker_embedded:
        return "Kafka", "embedded broker"
    text = f"{result.driver} {result.driver_config.get('driverClass', '')}".lower()
    if result.broker_count == 0 and "aeron" in text:
        return "Aeron", "no broker: the driver's transport"
    for needle, name in (("redpanda", "Redpanda"), ("aeron", "Aeron"), ("kafka", "Kafka")):
        if needle in text:
            return name, "the driver's name (broker.system not recorded)"
    return result.driver, "the driver's name (broker.system not recorded)"


def told(result: Result) -> str | None:
    """The system as the cluster told it (``broker.system``; Kafka for an embedded broker of a result written before
    that was recorded), None when only the driver's name could say: what tells two systems apart in a comparison."""
    name, source = system(result)
    return name if source in ("broker.system", "embedded broker") else None


def compared(results: Iterable[Result]) -> bool:
    """Whether ``results`` hold runs on more than one system, each told by its cluster (Kafka and Tansu)."""
    return len({name for r in results if (name := told(r)) is not None}) > 1


def setup(result: Result) -> str:
    """The system that answered and its release, "Kafka 4.1.1", "Tansu 0.6.0" (the release when recorded)."""
    name = told(result) or system(result)[0]
    version = result.versions.get("broker") if result.versions else None
    return f"{name} {version}" if version and result.broker_count != 0 else name


def label(result: Result) -> str:
    """The broker release with its transaction protocol, as the report names a run's release."""
    if result.broker_count == 0:
        return "no broker"
    version = result.versions.get("broker") or "?"
    return version if result.transaction_version is None else f"{version} (tv {result.transaction_version})"
