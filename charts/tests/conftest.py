"""Shared paths, a helper that runs the real bin/charts entry point, and fixtures the tests share."""

from __future__ import annotations

import subprocess
from pathlib import Path
from typing import Any

import pytest

TESTS = Path(__file__).resolve().parent
FIXTURES = TESTS / "fixtures"
RESULTS = FIXTURES / "result-json"
INVALID = FIXTURES / "invalid"
REAL = FIXTURES / "real"  # unedited output of real runs; see its README
REPO = TESTS.parent.parent
BIN_CHARTS = REPO / "bin" / "charts"


def run_charts(*args: str | Path, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(BIN_CHARTS), *map(str, args)], capture_output=True, text=True, cwd=cwd or REPO, timeout=300
    )


def result_file(prefix: str) -> Path:
    """The single fixture whose file name starts with ``prefix``."""
    matches = sorted(RESULTS.glob(f"{prefix}*.json"))
    assert len(matches) == 1, f"{prefix}: {matches}"
    return matches[0]


@pytest.fixture(scope="session")
def all_results():
    from omb_tx_charts.loader import find_result_files, load_result

    return [load_result(path) for path in find_result_files([str(RESULTS)])]


@pytest.fixture
def captured_figures(monkeypatch: pytest.MonkeyPatch) -> list[Any]:
    """Figures as drawn, kept when plots saves them, so their data can be read back."""
    from omb_tx_charts import plots

    figures: list[Any] = []
    original = plots._save

    def keep(figure: Any, path: Path) -> plots.Rendered:
        figures.append(figure)
        return original(figure, path)

    monkeypatch.setattr(plots, "_save", keep)
    return figures
