"""A comparison runs each system's drivers while that system is deployed: the experiments planned from a
suite say which system each driver is for, run-suite.yml refuses a driver for the other system, and
run-experiments.yml wipes the cluster before each experiment (seed 000)."""

from __future__ import annotations

import json
from pathlib import Path

import yaml

from conftest import ANSIBLE_DIR, DEPLOY_DIR, TEST_PLAYBOOKS_DIR, run, tool

REPO_DIR = DEPLOY_DIR.parent


def plan(tmp_path: Path, env: dict[str, str], inventory: Path, settings: dict[str, object]) -> dict[str, object]:
    out = tmp_path / "plan.json"
    argv = [tool("ansible-playbook"), "-i", str(inventory), "plan_experiments.yml",
            "-e", json.dumps({**settings, "plan_out": str(out)})]
    result = run(argv, env=env, cwd=TEST_PLAYBOOKS_DIR)
    assert result.returncode == 0, result.stdout + result.stderr
    return json.loads(out.read_text())


def test_the_kafka_vs_redpanda_suite_plans_each_workload_on_each_system(
    tmp_path: Path, ansible_env: dict[str, str], sample_inventory: Path
) -> None:
    planned = plan(tmp_path, ansible_env, sample_inventory, {"run_suite_file": "suites/kafka-vs-redpanda.yaml"})
    experiments = planned["experiments"]
    suite = yaml.safe_load((REPO_DIR / "suites" / "kafka-vs-redpanda.yaml").read_text())
    by_system = {system: [e["workload"] for e in experiments if e["system"] == system] for system in ("kafka", "redpanda")}
    assert by_system["kafka"] == suite["runs"][0]["workloads"]
    assert by_system["redpanda"] == suite["runs"][1]["workloads"]
    assert {e["driver"] for e in experiments if e["system"] == "redpanda"} == {"driver-redpanda-tx/redpanda-tx-rf3.yaml"}
    assert planned["profile_args"] == ["--profile", "full"]


def test_named_drivers_and_workloads_plan_one_experiment_each_and_a_given_profile_wins(
    tmp_path: Path, ansible_env: dict[str, str], sample_inventory: Path
) -> None:
    planned = plan(tmp_path, ansible_env, sample_inventory, {
        "run_suite_drivers": ["driver-kafka-tx/kafka-tx-tuned.yaml", "driver-redpanda-tx/redpanda-tx-rf3.yaml"],
        "run_suite_workloads": ["workloads/tx-writes.yaml"],
        "run_suite_extra_args": ["--profile", "quick"],
    })
    assert [(e["driver"], e["system"]) for e in planned["experiments"]] == [
        ("driver-kafka-tx/kafka-tx-tuned.yaml", "kafka"), ("driver-redpanda-tx/redpanda-tx-rf3.yaml", "redpanda")]
    assert planned["profile_args"] == []


def test_every_driver_of_the_comparison_replicates_three_times() -> None:
    # Kafka at RF 3 against Redpanda at RF 1 would compare replication, not transactions.
    suite = yaml.safe_load((REPO_DIR / "suites" / "kafka-vs-redpanda.yaml").read_text())
    for entry in suite["runs"]:
        for driver in entry.get("drivers", [entry.get("driver")]):
            assert yaml.safe_load((REPO_DIR / driver).read_text())["replicationFactor"] == 3, driver


def run_suite(env: dict[str, str], inventory: Path, settings: dict[str, object]) -> tuple[int, str]:
    argv = [tool("ansible-playbook"), "-i", str(inventory), "run-suite.yml", "-e", json.dumps(settings)]
    result = run(argv, env=env, cwd=ANSIBLE_DIR)
    # Ansible wraps long messages; words are what count.
    return result.returncode, " ".join((result.stdout + result.stderr).split())


def test_run_suite_refuses_a_redpanda_driver_while_kafka_is_deployed(
    ansible_env: dict[str, str], sample_inventory: Path
) -> None:
    # Nothing recorded on this machine's brokers: Kafka, as deploy.yml's default.
    code, output = run_suite(ansible_env, sample_inventory, {
        "run_suite_drivers": ["driver-redpanda-tx/redpanda-tx-rf3.yaml"],
        "run_suite_workloads": ["workloads/tx-writes.yaml"],
    })
    assert code != 0
    assert "driver-redpanda-tx/redpanda-tx-rf3.yaml is for redpanda, but the brokers run kafka" in output, output


def test_run_suite_refuses_a_suite_mixing_both_systems(ansible_env: dict[str, str], sample_inventory: Path) -> None:
    code, output = run_suite(ansible_env, sample_inventory, {"run_suite_file": "suites/kafka-vs-redpanda.yaml"})
    assert code != 0
    assert "compare systems with run-experiments.yml" in output, output


def test_run_experiments_wipes_before_every_experiment() -> None:
    tasks = yaml.safe_load((ANSIBLE_DIR / "tasks" / "experiment.yml").read_text())
    names = [task["name"] for task in tasks]
    wipes = [i for i, task in enumerate(tasks) if task.get("ansible.builtin.include_role", {}).get("tasks_from") == "wipe.yml"]
    runs = [i for i, task in enumerate(tasks) if "ansible.builtin.command" in task]
    assert len(wipes) == 2 and len(runs) == 1, names
    assert max(wipes) < runs[0], names
    play = yaml.safe_load((ANSIBLE_DIR / "run-experiments.yml").read_text())[0]
    loop = [task for task in play["tasks"] if task.get("ansible.builtin.include_tasks") == "tasks/experiment.yml"]
    assert loop and loop[0]["loop"] == "{{ run_experiments_here }}"


def test_run_experiments_says_when_nothing_asked_for_suits_the_deployed_system(
    ansible_env: dict[str, str], sample_inventory: Path
) -> None:
    # Runs the playbook for real up to its plan: nothing is recorded on this machine, so Kafka is deployed.
    argv = [tool("ansible-playbook"), "-i", str(sample_inventory), "run-experiments.yml", "-e", json.dumps({
        "run_suite_drivers": ["driver-redpanda-tx/redpanda-tx-rf3.yaml"],
        "run_suite_workloads": ["workloads/tx-writes.yaml", "workloads/base-writes.yaml"],
        "ansible_become": False,
    })]
    result = run(argv, env=ansible_env, cwd=ANSIBLE_DIR)
    output = " ".join((result.stdout + result.stderr).split())
    assert result.returncode != 0
    assert "None of the 2 experiment(s) asked for uses a driver for kafka" in output, output
    assert "deploy.yml -e broker_system=redpanda" in output, output
