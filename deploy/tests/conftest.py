"""Shared paths and helpers for the deploy/ tests.

The tests run the real tools (ansible-playbook, ansible-lint, terraform) as subprocesses, with
Ansible pointed at throw-away directories so nothing touches the home directory or the network.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

DEPLOY_DIR = Path(__file__).resolve().parent.parent
ANSIBLE_DIR = DEPLOY_DIR / "ansible"
TERRAFORM_DIR = DEPLOY_DIR / "terraform"
TEST_PLAYBOOKS_DIR = Path(__file__).resolve().parent / "playbooks"

PLAYBOOKS = ["deploy.yml", "run-suite.yml", "run-experiments.yml", "collect.yml", "wipe-restart.yml", "teardown.yml"]

# Three brokers and two clients, as Terraform would write them, but every host is this machine
# reached without SSH. Addresses are from the default VPC CIDR and the documentation range.
SAMPLE_INVENTORY = """\
[brokers]
broker-1 ansible_host=198.51.100.11 private_ip=10.42.1.11 node_id=1
broker-2 ansible_host=198.51.100.12 private_ip=10.42.1.12 node_id=2
broker-3 ansible_host=198.51.100.13 private_ip=10.42.1.13 node_id=3

[clients]
client-1 ansible_host=198.51.100.21 private_ip=10.42.1.21
client-2 ansible_host=198.51.100.22 private_ip=10.42.1.22

[all:vars]
ansible_connection=local
ansible_python_interpreter={python}
"""


def tool(name: str) -> str:
    """Path of a command-line tool, preferring the one installed beside this Python."""
    beside = Path(sys.executable).parent / name
    if beside.exists():
        return str(beside)
    found = shutil.which(name)
    if found is None:
        pytest.fail(f"{name} is not installed; run the tests through bin/deploy-test")
    return found


@pytest.fixture(scope="session")
def ansible_env(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    """Environment for Ansible commands: private temp and home dirs, repository roles, no colour."""
    home = tmp_path_factory.mktemp("ansible-home")
    env = dict(os.environ)
    env.update(
        {
            "ANSIBLE_HOME": os.environ.get("ANSIBLE_HOME", str(home)),
            "ANSIBLE_LOCAL_TEMP": str(home / "tmp"),
            "ANSIBLE_REMOTE_TEMP": str(home / "remote-tmp"),
            # Async tasks' job files (the rehearsal's broker start): Ansible writes them under $HOME and its
            # async_status looks under the user's home from the password file; the two differ when $HOME is not that
            # home (CI, sudo -E, containers), and every async task then fails with "could not find job".
            "ANSIBLE_ASYNC_DIR": str(home / "async"),
            "ANSIBLE_ROLES_PATH": str(ANSIBLE_DIR / "roles"),
            "ANSIBLE_NOCOLOR": "1",
            "ANSIBLE_FORCE_COLOR": "0",
            "ANSIBLE_RETRY_FILES_ENABLED": "0",
            "ANSIBLE_DEPRECATION_WARNINGS": "0",
            "PY_COLORS": "0",
        }
    )
    env.pop("ANSIBLE_CONFIG", None)
    return env


@pytest.fixture(scope="session")
def sample_inventory(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("inventory") / "inventory.ini"
    path.write_text(SAMPLE_INVENTORY.format(python=sys.executable))
    return path


def run(argv: list[str], *, env: dict[str, str], cwd: Path, timeout: int = 300) -> subprocess.CompletedProcess[str]:
    return subprocess.run(argv, env=env, cwd=cwd, capture_output=True, text=True, timeout=timeout, check=False)
