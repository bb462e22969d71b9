"""A run's set-up as the findings compare it with a seed's: system, releases, topology and durability settings.

The machine is what the result's ``host`` and ``broker.dataDisk`` recorded (hardware, the embedded brokers' disk,
loopback or a network between client and brokers): on one machine it always differs from a seed's cluster, and the
report marks it on every row so a verdict on other hardware reads as one.

The system is ``broker.system`` read back from the cluster, never the driver file's name (``systems.system``).
Settings are taken from what the driver read back (``environment.brokerSettings``,
``environment.producerSettings``) before the driver YAML, so a value the cluster or the client overrode shows as it
was in force.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields

from .. import analysis
from ..model import Result
from ..systems import system

KAFKA_DEFAULT_BACKOFF_MS = 100  # kafka-clients' retry.backoff.ms default


@dataclass(frozen=True)
class Setup:
    """What a finding may depend on. None: not known (not recorded, or the seed does not say)."""

    system: str | None = None  # "Kafka", "Redpanda", "Aeron"
    release: str | None = None  # broker release, e.g. "2.8.2"
    client: str | None = None  # kafka-clients release
    brokers: int | None = None
    replication: int | None = None  # topics' replication factor
    min_isr: int | None = None  # min.insync.replicas
    flush_per_message: bool | None = None  # log.flush.interval.messages=1 (fsync per message)
    backoff_ms: int | None = None  # the producer's retry.backoff.ms ("backoff" in the report)
    operations: int | None = None  # measured operations
    hardware: str | None = None  # the machines: "3 × i3.large", "1 machine (2 CPUs, AMD EPYC)"
    disk: str | None = None  # what the brokers wrote to: "NVMe", "SSD", "rotational", "virtual", "memory"
    network: str | None = None  # between clients and brokers: "loopback" (one machine) or "between machines"
    system_source: str = "broker.system"  # where ``system`` came from

    def text(self) -> str:
        parts = [self.system or "?"]
        if self.release:
            parts[0] += f" {self.release}"
        if self.client:
            parts.append(f"client {self.client}")
        if self.brokers is not None:
            parts.append("no broker" if self.brokers == 0 else f"{self.brokers} broker{'s' * (self.brokers != 1)}")
        if self.replication is not None:
            parts.append(f"RF {self.replication}")
        if self.min_isr is not None:
            parts.append(f"ISR {self.min_isr}")
        if self.flush_per_message is not None:
            parts.append("fsync/msg" if self.flush_per_message else "no fsync")
        if self.backoff_ms is not None:
            parts.append(f"backoff {self.backoff_ms}")
        if self.operations is not None:
            parts.append(f"{self.operations:,} ops")
        parts += [text for text in (self.hardware, self.disk and f"disk {self.disk}", self.network) if text]
        return " · ".join(parts)


# Field name -> how a difference is named in the report.
FIELD_NAMES = {
    "system": "system",
    "release": "release",
    "client": "client",
    "brokers": "brokers",
    "replication": "RF",
    "min_isr": "ISR",
    "flush_per_message": "fsync/msg",
    "backoff_ms": "backoff",
    "operations": "operations",
    "hardware": "hardware",
    "disk": "disk",
    "network": "network",
}

# The machine's fields: a suite cannot make them equal to a seed's on one machine, so the report shows them apart
# from the settings a run chooses (``finding_tables``).
MACHINE_FIELDS = ("hardware", "disk", "network")


def differences(run: Setup, seed: Setup) -> dict[str, str]:
    """Field -> "run ≠ seed" for every field both know and that differs."""
    found = {}
    for item in fields(Setup):
        if item.name == "system_source":
            continue
        mine, theirs = getattr(run, item.name), getattr(seed, item.name)
        if mine is None or theirs is None or mine == theirs:
            continue
        if item.name == "release" and str(mine).startswith(str(theirs) + "."):
            continue  # the seed names a line ("2.8"), the run a release in it
        found[item.name] = f"{FIELD_NAMES[item.name]} {_shown(mine)} ≠ {_shown(theirs)}"
    return found


def machine_differences(run: Setup | None, seed: Setup | None) -> list[str]:
    """The differences of ``differences`` in the machine (hardware, disk, network)."""
    if run is None or seed is None:
        return []
    return [text for name, text in differences(run, seed).items() if name in MACHINE_FIELDS]


def _shown(value: object) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    return f"{value:,}" if isinstance(value, int) else str(value)


def broker_setting(result: Result, key: str) -> str | None:
    """A broker setting as the driver read it back (``environment.brokerSettings``), else as the run asked for it."""
    read_back = result.environment.get("brokerSettings")
    if isinstance(read_back, Mapping) and read_back.get(key) is not None:
        return str(read_back[key])
    value = result.broker_settings.get(key)
    return None if value is None else str(value)


def _int(text: str | None) -> int | None:
    try:
        return int(text) if text is not None else None
    except ValueError:
        return None


def backoff_ms(result: Result) -> int | None:
    """retry.backoff.ms in force: as the driver read it back, else the driver YAML, else the client's default."""
    producer = result.environment.get("producerSettings")
    if isinstance(producer, dict) and producer.get("retry.backoff.ms") is not None:
        return _int(str(producer["retry.backoff.ms"]))
    for block in ("producerConfig", "commonConfig"):
        value = analysis.read_config_property(result.driver_config.get(block), "retry.backoff.ms")
        if value is not None:
            return _int(value.strip())
    if result.broker_count == 0:
        return None  # no Kafka client
    return KAFKA_DEFAULT_BACKOFF_MS


NETWORK = "network"  # host.network when a broker is on another machine (else "loopback")
BETWEEN_MACHINES = "between machines"  # how a set-up names it


def hardware(result: Result) -> str | None:
    """The machine from the result's ``host``: one machine for brokers and clients when the brokers were on
    loopback, else the runner's machine with the brokers elsewhere; None when not recorded."""
    cpus = result.host.get("cpus")
    if not isinstance(cpus, int) or cpus <= 0:
        return None
    model = result.host.get("cpuModel")
    what = f"{cpus} CPU{'s' * (cpus != 1)}" + (f", {model}" if isinstance(model, str) and model else "")
    if result.host.get("network") == NETWORK:
        return f"runner on {what}; brokers elsewhere"
    return f"1 machine ({what})"


def disk(result: Result) -> str | None:
    """The embedded brokers' disk kind (``broker.dataDisk.kind``), None when not known (an external cluster)."""
    kind = result.broker_disk.get("kind")
    return kind.removesuffix(" disk") if isinstance(kind, str) and kind else None


def network(result: Result) -> str | None:
    value = result.host.get("network")
    return BETWEEN_MACHINES if value == NETWORK else value if isinstance(value, str) and value else None


def of(result: Result) -> Setup:
    name, source = system(result)
    release = result.versions.get("broker")
    topic_isr = analysis.read_config_property(result.driver_config.get("topicConfig"), "min.insync.replicas")
    flush = broker_setting(result, "log.flush.interval.messages")
    replication = result.driver_config.get("replicationFactor")
    no_broker = result.broker_count == 0
    return Setup(
        system=name,
        release=release,
        client=None if no_broker else result.versions.get("kafkaClients"),
        brokers=result.broker_count,
        replication=None if no_broker else (replication if isinstance(replication, int) else None),
        min_isr=None if no_broker else _int(topic_isr if topic_isr is not None else broker_setting(result,
                                                                                           "min.insync.replicas")),
        flush_per_message=None if no_broker or flush is None else flush.strip() == "1",
        backoff_ms=backoff_ms(result),
        operations=result.counts.get("operations"),
        hardware=hardware(result),
        disk=None if no_broker else disk(result),
        network=None if no_broker else network(result),
        system_source=source,
    )
