"""Which runs are repetitions of one another and which are superseded duplicates.

Runs of one (workload, driver, sweep point, broker release) that share a ``repetition.group`` were made as
repetitions of one comparison (``--repeat``, a suite's ``repeat``/``interleave``): together they are a spread, none
replaces another. A run outside the newest run's group (an earlier invocation, or a file without repetition data)
is superseded. Runs on different broker releases, transaction versions or client releases never supersede each other
(suites/kafka-evolution.yaml runs one broker release on its own client and on a fixed one).
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable

from . import analysis
from .model import Result


def run_key(result: Result) -> Hashable:
    """What makes two files the same run repeated: workload, driver, sweep point, broker release, protocol and
    client release."""
    return analysis.run_key(result) + (result.versions.get("broker"), result.transaction_version,
                                       result.versions.get("kafkaClients"))


def superseded(results: Iterable[Result]) -> list[Result]:
    ordered = sorted(results, key=lambda r: (r.start_time or "", r.path.name))
    newest, _ = analysis.newest_per_key(ordered, run_key)
    older = []
    for result in ordered:
        latest = newest[run_key(result)]
        if result is latest:
            continue
        if result.repetition is not None and latest.repetition is not None \
                and result.repetition.group == latest.repetition.group:
            continue
        older.append(result)
    return older
