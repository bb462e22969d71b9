"""deploy/README.md, read as a new user would follow it: every command it gives works with the files
and defaults it names."""

from __future__ import annotations

import re
from pathlib import Path

import yaml

from conftest import ANSIBLE_DIR, DEPLOY_DIR, TERRAFORM_DIR
from test_terraform_rules import blocks, load, unquote

README = (DEPLOY_DIR / "README.md").read_text()
REPO_DIR = DEPLOY_DIR.parent


def code_lines() -> list[str]:
    """The lines of the README's shell blocks, in order."""
    lines: list[str] = []
    for block in re.findall(r"```bash\n(.*?)```", README, flags=re.S):
        lines += [line.strip() for line in block.splitlines() if line.strip()]
    return lines


def variable_default(name: str) -> str:
    variables = blocks([load(TERRAFORM_DIR / "variables.tf")], "variable")
    assert name in variables, sorted(variables)
    return unquote(variables[name]["default"])


def test_the_ssh_key_it_creates_is_the_one_terraform_uploads_by_default() -> None:
    created = re.findall(r"ssh-keygen\b[^\n]*?-f (\S+)", README)
    assert created, "the README should say how to create the key"
    assert {path + ".pub" for path in created} == {variable_default("public_key_path")}
    assert set(created) == {variable_default("ssh_private_key_path")}


def test_the_folder_for_the_key_exists_before_ssh_keygen_writes_there() -> None:
    # ssh-keygen -f fails with "No such file or directory" when the folder is missing (a fresh account has no ~/.ssh).
    lines = code_lines()
    keygen = next(i for i, line in enumerate(lines) if line.startswith("ssh-keygen"))
    folder = str(Path(re.search(r"-f (\S+)", lines[keygen]).group(1)).parent)
    assert any(line.startswith("mkdir -p") and folder in line.split() for line in lines[:keygen]), lines[:keygen]


def test_ansible_commands_come_after_the_virtualenv_is_activated() -> None:
    lines = code_lines()
    activate = [i for i, line in enumerate(lines) if re.match(r"(\.|source) \S*\.venv-ansible/bin/activate", line)]
    ansible = [i for i, line in enumerate(lines) if re.match(r"(cd \S+ && )?ansible(-playbook)? ", line)]
    assert activate, "the virtualenv holding Ansible is never activated"
    assert ansible and min(ansible) > min(activate)
    install = [i for i, line in enumerate(lines) if line.startswith("pip install -r ")]
    assert install and min(activate) < min(install), "pip must install into the activated virtualenv"
    for line in (lines[i] for i in install):
        assert (REPO_DIR / line.split()[-1]).is_file(), line


def test_every_playbook_it_runs_exists() -> None:
    named = set(re.findall(r"ansible-playbook (\S+\.yml)", README))
    assert named
    for playbook in named:
        assert (ANSIBLE_DIR / playbook).is_file(), playbook


def test_every_driver_it_runs_on_the_three_broker_cluster_replicates_three_times() -> None:
    # Comparing Kafka at replication factor 3 with Redpanda at 1 would measure replication, not transactions.
    for block in re.findall(r"ansible-playbook (?:run-suite|run-experiments)\.yml(.*?)(?:```|ansible-playbook)", README, flags=re.S):
        for driver in re.findall(r"driver-[\w-]+/[\w.-]+\.yaml", block):
            assert yaml.safe_load((REPO_DIR / driver).read_text())["replicationFactor"] == 3, driver


def test_the_terraform_version_it_asks_for_is_the_one_the_configuration_needs() -> None:
    asked = re.search(r"Terraform (\d+\.\d+) or newer", README)
    required = re.search(r'required_version\s*=\s*">=\s*(\d+\.\d+)', (TERRAFORM_DIR / "versions.tf").read_text())
    assert asked and required
    assert asked.group(1) == required.group(1)
