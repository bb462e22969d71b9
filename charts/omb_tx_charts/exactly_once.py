"""Exactly-once verdicts per run (``exactlyOnce`` and its ``live`` part), beside what the run's faults cost.

One row per run that was checked: the faults it declared, the check after the run (duplicated, missing, aborted
records seen), the live check during it (outputs read, violations by kind), and the cost of the faults in the same
run (fencings, aborts, the longest operation, p50 and p99), so a verdict is read next to what it cost. The live
check's first violations follow, with the output record (topic-partition@offset), the source record its key names
and when it was seen.
"""

from __future__ import annotations

from collections.abc import Sequence

from . import systems
from .formatting import MISSING, format_count, format_ms
from .model import ExactlyOnce, Result
from .tables import Table

SHOWN_VIOLATIONS = 20  # per run, as many as a result keeps (exactlyOnce.live.violations)


def checked(results: Sequence[Result]) -> list[Result]:
    """The runs with an exactly-once verdict, in workload, release and start order."""
    found = [r for r in results if r.exactly_once is not None]
    return sorted(found, key=lambda r: (r.workload, systems.label(r), r.start_time or "", r.path.name))


def _faults(result: Result) -> str:
    if not result.faults:
        return "none"
    return "; ".join(f"{f.action} {f.target}" + (" (failed)" if f.error else "") for f in result.faults)


def _after(eo: ExactlyOnce) -> str:
    aborted = "" if eo.aborted_seen is None else f", {format_count(eo.aborted_seen)} aborted seen"
    verdict = "PASS" if eo.passed else "FAIL"
    return (f"{verdict}: {format_count(eo.checked)} checked, {format_count(eo.duplicated)} duplicated, "
            f"{format_count(eo.missing)} missing{aborted}")


def _live(eo: ExactlyOnce) -> str:
    live = eo.live
    if live is None:
        return "not run"
    verdict = "PASS" if live.passed else "FAIL"
    counts = [(live.duplicates, "duplicate"), (live.aborted_seen, "aborted"), (live.uncommitted, "uncommitted"),
              (live.out_of_order, "out of order"), (live.unknown_source, "unknown source")]
    found = ", ".join(f"{format_count(n)} {name}" for n, name in counts if n) or "no violation"
    end = "" if live.read_to_end else " (stopped before the output's end)"
    return f"{verdict}: {format_count(live.outputs_read)} read, {found}{end}"


def _stall_ms(result: Result) -> float | None:
    """The longest operation of any period (periods.operationLatencyMaxMillis): a fault's stall shows there."""
    values = [v for v in result.series("periods.operationLatencyMaxMillis") if v is not None]
    return max(values) if values else None


def _aborts(result: Result) -> str:
    on_purpose = result.counts.get("abortedOnPurpose")
    failed = result.counts.get("aborted")
    text = format_count(failed)
    return text if on_purpose is None else f"{text} + {format_count(on_purpose)} on purpose"


def verdict_table(results: Sequence[Result]) -> Table:
    rows = []
    for result in checked(results):
        eo = result.exactly_once
        assert eo is not None
        ops = result.operation_latency
        rows.append((
            result.workload,
            systems.label(result),
            _faults(result),
            _after(eo),
            _live(eo),
            format_count(result.counts.get("fenced")),
            _aborts(result),
            format_ms(_stall_ms(result)),
            format_ms(ops.get("p50")) if ops else MISSING,
            format_ms(ops.get("p99")) if ops else MISSING,
            result.status if not result.is_partial else "PARTIAL",
        ))
    return Table(
        title="Exactly-once verdicts",
        header=("Workload", "Broker (tv)", "Faults", "After the run", "Live check", "Fenced",
                "Aborted (failures + on purpose)", "Stall (ms)", "p50 (ms)", "p99 (ms)", "Status"),
        rows=tuple(rows),
        align="lllllrrrrrl",
        wrap=True,
        note="After the run: the output read with read_committed holds each processed source record exactly once "
             "(exactlyOnce). Live check: a read_committed consumer of the output during the whole run "
             "(exactlyOnce.live): duplicates, records of aborted or uncommitted transactions and source-order "
             "violations, as they were read. Fenced and aborted: counts over the measured phase. Stall: the longest "
             "operation of any period (periods.operationLatencyMaxMillis). p50/p99: operation latency.",
    )


def violations_table(results: Sequence[Result]) -> Table | None:
    """The live check's first violations per run, or None when no run had one."""
    rows = []
    for result in checked(results):
        live = result.exactly_once.live if result.exactly_once else None
        if live is None:
            continue
        for v in live.violations[:SHOWN_VIOLATIONS]:
            source = MISSING if v.source_partition is None else f"{v.source_partition}:{v.source_offset}"
            seen = MISSING if v.seen_at_seconds is None else f"{v.seen_at_seconds:.3f}"
            rows.append((result.workload, systems.label(result), v.kind, f"{v.topic}-{v.partition}@{v.offset}",
                         source, seen, v.detail))
    if not rows:
        return None
    return Table(
        title="Live check violations",
        header=("Workload", "Broker (tv)", "Kind", "Output record", "Source record", "Seen at (s)", "What"),
        rows=tuple(rows),
        align="lllllrl",
        wrap=True,
        note="The first violations each live check recorded (its counts cover them all). Output record: "
             "topic-partition@offset; source record: partition:offset named by the output's key; seen at: seconds "
             "from the start of the measurement, negative during the warm-up.",
    )
