"""Did the load generator keep up? A run whose harness fell behind measured the harness, not the broker: every table
and caption using it flags it (and the seed study, study/, does not judge it).

The thresholds are the ones the runner's own maximum-rate search uses to call a rate sustained
(docs/result-format.md, ``runMode.maxRateSearch``): at least 95% of the target rate achieved and a publish-delay
p99 of at most 50 ms. A run with a target rate of 10M msg/s or more is an unthrottled burst (the acks-sla-*
workloads hand all N messages to the producer at once), which has no rate to keep: only its drain is checked.
"""

from __future__ import annotations

from .formatting import format_count
from .model import Result

MIN_ACHIEVED_SHARE = 0.95
MAX_PUBLISH_DELAY_P99_MS = 50.0
BURST_RATE = 10_000_000.0

CRITERIA = (
    f"an open-loop run that achieved under {MIN_ACHIEVED_SHARE:.0%} of its target rate (summary.messagesPerSecond ÷ "
    f"runMode.targetRate) or whose publish delay p99 exceeded {MAX_PUBLISH_DELAY_P99_MS:g} ms "
    "(aggregatedPublishDelayLatency99pct: sends started that late after their scheduled time), and any run whose "
    "drain did not complete (drain.completed: messages sent were never received). These are the runner's own "
    f"criteria for a sustained rate. A target of {format_count(BURST_RATE)} msg/s or more is an unthrottled burst "
    "(acks-sla-*): no rate to keep."
)
RULE = "Harness check: a run whose load generator fell behind is flagged (⚠) in every table that uses it: " + CRITERIA


def problems(result: Result) -> tuple[str, ...]:
    """Why this run's load generator fell behind, in words; empty when it kept up (or the result cannot say)."""
    found = []
    run_mode = result.run_mode
    target = run_mode.target_rate if run_mode is not None else None
    if run_mode is not None and run_mode.loop == "open" and target and target < BURST_RATE:
        achieved = result.summary.messages_per_second if result.summary else None
        if achieved is not None and achieved < MIN_ACHIEVED_SHARE * target:
            found.append(f"achieved {format_count(achieved)} of {format_count(target)} msg/s "
                         f"({achieved / target:.0%})")
        delay = result.publish_delay_p99_micros
        if delay is not None and delay / 1000 > MAX_PUBLISH_DELAY_P99_MS:
            found.append(f"publish delay p99 {delay / 1000:.0f} ms")
    if result.drain is not None and not result.drain.completed:
        missing = result.drain.not_received
        found.append("drain incomplete" + (f": {format_count(missing)} message(s) never received"
                                           if missing is not None else ""))
    return tuple(found)


def fell_behind(result: Result) -> bool:
    return bool(problems(result))


def flag(result: Result) -> str:
    """" ⚠ harness behind (…)" for a table cell beside the run, "" when it kept up."""
    found = problems(result)
    return f" ⚠ harness behind ({'; '.join(found)})" if found else ""
