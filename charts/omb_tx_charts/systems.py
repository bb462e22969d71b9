"""Which system a run measured and on which release, as the report names them: the system is ``broker.system`` read
back from the cluster, never the driver file's name; an embedded broker is Kafka, a run without a broker
(``broker.brokers`` 0) is its driver's transport (Aeron)."""

from __future__ import annotations

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


def label(result: Result) -> str:
    """The broker release with its transaction protocol, as the report names a run's release."""
    if result.broker_count == 0:
        return "no broker"
    version = result.versions.get("broker") or "?"
    return version if result.transaction_version is None else f"{version} (tv {result.transaction_version})"
