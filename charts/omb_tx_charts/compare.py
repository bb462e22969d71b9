"""Side-by-side comparisons: which variant of a run a result is (driver, broker version, call order), and the
comparisons the seeds draw between runs (tx vs naive phases, seed 003's bulk insert, write-to-visible)."""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from . import analysis, systems
from .model import Result

# --------------------------------------------------------------------------------------------------
# Variants: what tells two runs of one workload apart in a chart


broker_version = analysis.broker_version


def await_acks(result: Result) -> str | None:
    """The call order (``scenario.awaitAcks``): when the operation waits for its send acknowledgements."""
    value = result.scenario.get("awaitAcks") if result.scenario else None
    return str(value) if value else None


class Variants:
    """Names and colours for the runs of one report. When the report holds runs on more than one system (each told
    by its cluster, broker.system: Kafka and Tansu, Kafka and Redpanda), every label leads with its system and
    release; otherwise the broker version enters a label only for a driver whose runs in the report are on more
    than one version, so a single-system, single-version report reads as before."""

    def __init__(self, results: Iterable[Result]) -> None:
        results = list(results)
        self._compared = {r.driver for r in results if analysis.compares_versions(r.driver, results)}
        self.many_versions = bool(self._compared)
        self.many_systems = systems.compared(results)

    @property
    def qualified(self) -> bool:
        """Whether a label says more than the driver (a system, or a broker version)."""
        return self.many_systems or self.many_versions

    def key(self, result: Result) -> str:
        """The colour key: analysis.variant_name."""
        return analysis.variant_name(result, self.many_systems, result.driver in self._compared)

    def panel(self, result: Result) -> str:
        """The panel a run's bars go in when a figure splits by set-up: its system and release when the report
        compares systems, "broker VERSION" when it compares releases, else "" (one panel)."""
        if self.many_systems:
            return systems.setup(result)
        version = broker_version(result)
        return f"broker {version}" if self.many_versions and version else ""

    def label(self, result: Result) -> str:
        """Legend label: the variant, flagged when the run was cut short or failed."""
        key = self.key(result)
        if result.is_failed:
            return f"{key} [FAILED]"
        return f"{key} [PARTIAL]" if result.is_partial else key

    def keys(self, results: Iterable[Result]) -> list[str]:
        return sorted({self.key(r) for r in results}, key=self._key_order)

    def _key_order(self, key: str) -> tuple[str, tuple[int, ...]]:
        driver, _, version = key.partition(" · broker ")
        return driver, _version_order(version)


def _version_order(version: str) -> tuple[int, ...]:
    return tuple(int(part) for part in re.findall(r"\d+", version))


def newest_variants(results: Iterable[Result]) -> list[Result]:
    """The newest result per (workload, driver, sweep point, broker version): analysis.run_key."""
    newest, _ = analysis.newest_per_key(results, analysis.run_key)
    return list(newest.values())


# --------------------------------------------------------------------------------------------------
# Transactional vs naive phases on one axis (seed 003's streaming and bulk comparisons)

_FAMILY = re.compile(r"^(?P<kind>tx|base|bulk)-(?P<family>writes|streaming|tx|acks-all)(?P<suffix>-.*)?$")


@dataclass(frozen=True)
class PhaseComparison:
    family: str  # "writes", "streaming", "bulk"
    results: tuple[Result, ...]  # transactional runs first, then the naive ones


def phase_family(workload: str) -> str | None:
    """tx-writes, base-writes -> "writes"; tx-streaming(-ack-first), base-streaming(-ack-first) -> "streaming";
    bulk-tx, bulk-acks-all -> "bulk"; the order suffix (-ack-first) stays in the same family."""
    match = _FAMILY.match(workload)
    if not match:
        return None
    if match["kind"] == "bulk":
        return "bulk" if match["family"] in ("tx", "acks-all") else None
    if match["family"] not in ("writes", "streaming"):
        return None
    return match["family"]


def phase_comparisons(results: Iterable[Result]) -> list[PhaseComparison]:
    """Families with at least one run carrying a phase breakdown, transactional runs first."""
    chosen = [
        r for r in newest_variants(results) if not analysis.is_rate_sweep_point(r) and analysis.has_phase_breakdown(r)
    ]
    families: dict[str, list[Result]] = {}
    for result in chosen:
        family = phase_family(result.workload)
        if family is not None:
            families.setdefault(family, []).append(result)
    order = {"writes": 0, "streaming": 1, "bulk": 2}
    return [
        PhaseComparison(family, tuple(sorted(group, key=_comparison_order)))
        for family, group in sorted(families.items(), key=lambda item: order[item[0]])
    ]


def _comparison_order(result: Result) -> tuple[int, str, str, str, tuple[int, ...]]:
    return (
        0 if analysis.is_transactional(result) else 1,
        result.workload,
        result.driver,
        systems.told(result) or "",
        _version_order(broker_version(result)),
    )


def run_title(result: Result, variants: Variants) -> str:
    """Workload, call order when it has one, and the variant: one bar or line of a side-by-side figure."""
    order = await_acks(result)
    order_text = f" (acks {order})" if order and analysis.is_transactional(result) else ""
    return f"{result.workload}{order_text} — {variants.label(result)}"


# --------------------------------------------------------------------------------------------------
# Seed 003: transactional bulk insert vs 1000 sends with acks=all


@dataclass(frozen=True)
class BulkPair:
    variant: str
    tx: Result | None
    acks_all: Result | None

    @staticmethod
    def rate(result: Result | None) -> float | None:
        return result.summary.messages_per_second if result is not None and result.summary else None

    @property
    def ratio(self) -> float | None:
        """bulk-tx msg/s ÷ bulk-acks-all msg/s (seed 003 found > 1 on Redpanda)."""
        tx, plain = self.rate(self.tx), self.rate(self.acks_all)
        return tx / plain if tx and plain else None


def bulk_pairs(results: Iterable[Result], variants: Variants) -> list[BulkPair]:
    """bulk-tx with bulk-acks-all of the same driver, broker version and name suffix."""
    found: dict[tuple[str, str], dict[str, Result]] = {}
    for result in newest_variants(r for r in results if not analysis.is_rate_sweep_point(r)):
        match = re.match(r"^bulk-(tx|acks-all)(-.*)?$", result.workload)
        if match:
            found.setdefault((variants.key(result), match[2] or ""), {})[match[1]] = result
    return [
        BulkPair(key + suffix, sides.get("tx"), sides.get("acks-all"))
        for (key, suffix), sides in sorted(found.items(), key=lambda item: variants._key_order(item[0][0]))
    ]


# --------------------------------------------------------------------------------------------------
# Seed 001's FetchBench: write-to-visible


def write_to_visible_ms(result: Result, percentile: float) -> float | None:
    """tx-fetch's end-to-end latency: from the transactional send to the moment a read_committed consumer sees
    the message (the runner records it as end-to-end latency)."""
    return analysis.percentile_value_ms(result, analysis.END_TO_END, percentile)


def is_fetch(result: Result) -> bool:
    return result.workload.startswith("tx-fetch")


def fetch_results(results: Sequence[Result]) -> list[Result]:
    return [r for r in results if is_fetch(r) and write_to_visible_ms(r, 50.0)]
