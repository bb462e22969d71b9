"""Terraform: formatting, variable validation, and the inventory the configuration writes.

Provider plugins cannot be downloaded here, so nothing below needs the AWS provider: the
formatting check is offline, the variable file and the inventory module have no provider, and
they are exercised with real `terraform plan`/`apply` in scratch directories.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

from conftest import TERRAFORM_DIR, run, tool

TERRAFORM = shutil.which("terraform")
needs_terraform = pytest.mark.skipif(TERRAFORM is None, reason="terraform is not installed on this machine")


@pytest.fixture()
def tf_env(tmp_path: Path) -> dict[str, str]:
    cli_config = tmp_path / "terraformrc"
    cli_config.write_text("")
    return {
        "PATH": "/usr/local/bin:/usr/bin:/bin",
        "HOME": str(tmp_path),
        "TF_CLI_CONFIG_FILE": str(cli_config),
        "TF_IN_AUTOMATION": "1",
        "TF_INPUT": "0",
        "CHECKPOINT_DISABLE": "1",
    }


def terraform(args: list[str], *, cwd: Path, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    assert TERRAFORM is not None
    return run([TERRAFORM, *args, "-no-color"], env=env, cwd=cwd, timeout=120)


@needs_terraform
def test_terraform_files_are_formatted(tf_env: dict[str, str]) -> None:
    result = run([str(TERRAFORM), "fmt", "-check", "-recursive", "-diff"], env=tf_env, cwd=TERRAFORM_DIR)
    assert result.returncode == 0, "terraform fmt would change:\n" + result.stdout + result.stderr


@pytest.fixture()
def variables_only(tmp_path: Path, tf_env: dict[str, str]) -> Path:
    """A scratch root module holding only variables.tf, initialised (it needs no provider)."""
    workdir = tmp_path / "variables"
    workdir.mkdir()
    shutil.copy(TERRAFORM_DIR / "variables.tf", workdir / "variables.tf")
    init = terraform(["init", "-input=false"], cwd=workdir, env=tf_env)
    assert init.returncode == 0, init.stdout + init.stderr
    return workdir


@needs_terraform
def test_admin_cidr_is_required(variables_only: Path, tf_env: dict[str, str]) -> None:
    result = terraform(["plan", "-input=false"], cwd=variables_only, env=tf_env)
    assert result.returncode != 0
    assert 'No value for required variable' in result.stderr
    assert '"admin_cidr"' in result.stderr


@needs_terraform
@pytest.mark.parametrize("cidr", ["0.0.0.0/0", "10.0.0.0/7", "not-a-cidr"])
def test_admin_cidr_rejects_the_internet_and_garbage(cidr: str, variables_only: Path, tf_env: dict[str, str]) -> None:
    result = terraform(["plan", "-input=false", f"-var=admin_cidr={cidr}"], cwd=variables_only, env=tf_env)
    assert result.returncode != 0
    assert "admin_cidr must be an IPv4 CIDR" in result.stderr


@needs_terraform
def test_a_workstation_address_is_accepted(variables_only: Path, tf_env: dict[str, str]) -> None:
    result = terraform(["plan", "-input=false", "-var=admin_cidr=203.0.113.7/32"], cwd=variables_only, env=tf_env)
    assert result.returncode == 0, result.stdout + result.stderr


@needs_terraform
def test_an_even_broker_count_is_rejected(variables_only: Path, tf_env: dict[str, str]) -> None:
    result = terraform(
        ["plan", "-input=false", "-var=admin_cidr=203.0.113.7/32", "-var=broker_count=2"],
        cwd=variables_only,
        env=tf_env,
    )
    assert result.returncode != 0
    assert "broker_count must be an odd number" in result.stderr


@needs_terraform
def test_inventory_module_renders_brokers_and_clients_for_ansible(
    tmp_path: Path, tf_env: dict[str, str], ansible_env: dict[str, str]
) -> None:
    workdir = tmp_path / "inventory"
    workdir.mkdir()
    module_source = (TERRAFORM_DIR / "modules" / "inventory").as_posix()
    (workdir / "main.tf").write_text(
        f"""
module "inventory" {{
  source = "{module_source}"
  brokers = [
    {{ name = "broker-1", public_ip = "198.51.100.11", private_ip = "10.42.1.11", node_id = 1 }},
    {{ name = "broker-2", public_ip = "198.51.100.12", private_ip = "10.42.1.12", node_id = 2 }},
    {{ name = "broker-3", public_ip = "198.51.100.13", private_ip = "10.42.1.13", node_id = 3 }},
  ]
  clients = [
    {{ name = "client-1", public_ip = "198.51.100.21", private_ip = "10.42.1.21" }},
  ]
  ssh_user             = "ubuntu"
  ssh_private_key_path = "~/.ssh/omb-tx"
}}

output "content" {{
  value = module.inventory.content
}}
"""
    )
    for step in (["init", "-input=false"], ["apply", "-auto-approve", "-input=false"]):
        result = terraform(step, cwd=workdir, env=tf_env)
        assert result.returncode == 0, result.stdout + result.stderr
    rendered = terraform(["output", "-raw", "content"], cwd=workdir, env=tf_env)
    assert rendered.returncode == 0, rendered.stderr
    inventory_file = tmp_path / "inventory.ini"
    inventory_file.write_text(rendered.stdout)

    listed = run([tool("ansible-inventory"), "-i", str(inventory_file), "--list"], env=ansible_env, cwd=tmp_path)
    assert listed.returncode == 0, listed.stderr
    inventory = json.loads(listed.stdout)
    assert inventory["brokers"]["hosts"] == ["broker-1", "broker-2", "broker-3"]
    assert inventory["clients"]["hosts"] == ["client-1"]
    hostvars = inventory["_meta"]["hostvars"]
    assert hostvars["broker-2"]["ansible_host"] == "198.51.100.12"
    assert hostvars["broker-2"]["private_ip"] == "10.42.1.12"
    assert hostvars["broker-2"]["node_id"] == 2
    assert hostvars["client-1"]["private_ip"] == "10.42.1.21"
    assert hostvars["client-1"]["ansible_user"] == "ubuntu"
    assert hostvars["client-1"]["ansible_ssh_private_key_file"] == "~/.ssh/omb-tx"


@needs_terraform
def test_a_spread_placement_group_refuses_more_than_seven_nodes(variables_only: Path, tf_env: dict[str, str]) -> None:
    too_many = terraform(["plan", "-input=false", "-var=admin_cidr=203.0.113.7/32", "-var=placement_strategy=spread",
                          "-var=client_count=5"], cwd=variables_only, env=tf_env)
    assert too_many.returncode != 0
    assert "at most 7 instances per availability zone" in too_many.stderr
    seven = terraform(["plan", "-input=false", "-var=admin_cidr=203.0.113.7/32", "-var=placement_strategy=spread",
                       "-var=client_count=4"], cwd=variables_only, env=tf_env)
    assert seven.returncode == 0, seven.stdout + seven.stderr


@needs_terraform
def test_a_cluster_placement_group_takes_sixteen_clients(variables_only: Path, tf_env: dict[str, str]) -> None:
    result = terraform(["plan", "-input=false", "-var=admin_cidr=203.0.113.7/32", "-var=client_count=16"],
                       cwd=variables_only, env=tf_env)
    assert result.returncode == 0, result.stdout + result.stderr
