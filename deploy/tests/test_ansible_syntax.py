"""Every playbook parses, with its roles, as ansible-playbook --syntax-check sees it."""

from __future__ import annotations

from pathlib import Path

import pytest

from conftest import ANSIBLE_DIR, PLAYBOOKS, run, tool


def test_the_five_playbooks_exist_and_nothing_else_is_a_playbook() -> None:
    top_level_yaml = sorted(path.name for path in ANSIBLE_DIR.glob("*.yml") if path.name != "requirements.yml")
    assert top_level_yaml == sorted(PLAYBOOKS)


@pytest.mark.parametrize("playbook", PLAYBOOKS)
def test_playbook_passes_syntax_check(playbook: str, ansible_env: dict[str, str], sample_inventory: Path) -> None:
    result = run(
        [tool("ansible-playbook"), "--syntax-check", "-i", str(sample_inventory), playbook],
        env=ansible_env,
        cwd=ANSIBLE_DIR,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert f"playbook: {playbook}" in result.stdout
