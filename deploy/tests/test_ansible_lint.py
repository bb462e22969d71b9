"""ansible-lint's production profile passes over deploy/ansible, with no rule skipped."""

from __future__ import annotations

import yaml

from conftest import ANSIBLE_DIR, run, tool


def test_lint_config_asks_for_the_production_profile_and_skips_no_rule() -> None:
    config = yaml.safe_load((ANSIBLE_DIR / ".ansible-lint").read_text())
    assert config["profile"] == "production"
    assert config["offline"] is True
    assert not config.get("skip_list")
    assert not config.get("warn_list")


def test_ansible_lint_passes_at_production_profile(ansible_env: dict[str, str]) -> None:
    result = run([tool("ansible-lint"), "--nocolor"], env=ansible_env, cwd=ANSIBLE_DIR, timeout=600)
    output = result.stdout + result.stderr
    assert result.returncode == 0, output
    assert "Profile 'production' was required, and it passed" in output
    assert "0 failure(s), 0 warning(s)" in output
