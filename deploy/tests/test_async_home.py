"""Async tasks work whatever $HOME says (the rehearsal starts its brokers with one)."""

import subprocess
import sys
from pathlib import Path

from conftest import tool


def test_an_async_task_finds_its_job_when_home_is_not_the_users_home(
    tmp_path: Path, ansible_env: dict[str, str]
) -> None:
    env = dict(ansible_env)
    env["HOME"] = str(tmp_path / "not-the-password-files-home")
    Path(env["HOME"]).mkdir()
    result = subprocess.run(
        [
            tool("ansible"),
            "-i", "localhost,",
            "-c", "local",
            "-e", f"ansible_python_interpreter={sys.executable}",
            "localhost",
            "-m", "command",
            "-a", "echo async-done",
            "-B", "60",
            "-P", "1",
        ],
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "async-done" in result.stdout
