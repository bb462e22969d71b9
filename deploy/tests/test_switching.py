"""Switching systems on the same hosts: Redpanda never starts untuned, and Kafka never runs on a host Redpanda
tuned (the tuner is disabled and a host that last ran Redpanda is rebooted before Kafka is deployed)."""

from __future__ import annotations

from typing import Any

import yaml

from conftest import ANSIBLE_DIR


def tasks_of(path: str) -> list[dict[str, Any]]:
    return yaml.safe_load((ANSIBLE_DIR / path).read_text())


def index(tasks: list[dict[str, Any]], predicate: Any, what: str) -> int:
    found = [i for i, task in enumerate(tasks) if predicate(task)]
    assert found, f"no task that {what}: {[task.get('name') for task in tasks]}"
    return found[0]


def systemd(task: dict[str, Any]) -> dict[str, Any]:
    return task.get("ansible.builtin.systemd_service") or {}


def conditions(task: dict[str, Any]) -> str:
    when = task.get("when", [])
    return " and ".join(when) if isinstance(when, list) else str(when)


def test_redpandas_tuners_run_before_its_first_start() -> None:
    tasks = tasks_of("roles/redpanda/tasks/main.yml")
    tuners = index(tasks, lambda t: systemd(t).get("name") == "redpanda-tuner" and systemd(t).get("state") == "started",
                   "starts redpanda-tuner")
    start = index(tasks, lambda t: systemd(t).get("name") == "redpanda" and systemd(t).get("state") == "started",
                  "starts redpanda")
    assert tuners < start
    # A handler would run only at the next flush, after Redpanda has started.
    assert "notify" not in tasks[tuners]


def test_going_back_to_kafka_undoes_redpandas_tuning_first() -> None:
    play = next(p for p in yaml.safe_load((ANSIBLE_DIR / "deploy.yml").read_text()) if p["name"] == "Deploy the broker system")
    tasks = play["tasks"]
    disable = index(tasks, lambda t: systemd(t).get("name") == "redpanda-tuner" and systemd(t).get("enabled") is False,
                    "disables redpanda-tuner")
    reboot = index(tasks, lambda t: "ansible.builtin.reboot" in t, "reboots")
    kafka = index(tasks, lambda t: (t.get("ansible.builtin.include_role") or {}).get("name") == "kafka",
                  "deploys Kafka")
    assert disable < reboot < kafka
    assert "broker_system == 'kafka'" in conditions(tasks[disable])
    reboot_when = conditions(tasks[reboot])
    assert "broker_system == 'kafka'" in reboot_when
    assert "ansible_local.omb_tx.broker_system" in reboot_when and "'redpanda'" in reboot_when
