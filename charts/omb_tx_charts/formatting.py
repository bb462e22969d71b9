"""Number formats, as the seeds' tables print them. A run's one-line provenance is in provenance.py."""

from __future__ import annotations

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
