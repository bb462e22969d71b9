"""The roles' templates, rendered by Ansible with the roles' real defaults, hold the settings the
scenarios need: Kafka's two profiles, Redpanda's transaction settings, the workers file."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml

from conftest import TEST_PLAYBOOKS_DIR, run, tool

BROKER_IPS = {"broker-1": "10.42.1.11", "broker-2": "10.42.1.12", "broker-3": "10.42.1.13"}
VOTERS = "1@10.42.1.11:9093,2@10.42.1.12:9093,3@10.42.1.13:9093"


def render(tmp_path: Path, env: dict[str, str], inventory: Path, *extra_vars: str) -> Path:
    """Runs playbooks/render.yml and lays its output out as <out>/<host>/<file name>."""
    out = tmp_path / "rendered"
    out.mkdir()
    argv = [tool("ansible-playbook"), "-i", str(inventory), "render.yml", "-e", f"render_dir={out}"]
    for assignment in extra_vars:
        argv += ["-e", assignment]
    result = run(argv, env=env, cwd=TEST_PLAYBOOKS_DIR)
    assert result.returncode == 0, result.stdout + result.stderr
    for entry in json.loads((out / "rendered.json").read_text()):
        host_dir = out / entry["host"]
        host_dir.mkdir()
        for name, text in entry["files"].items():
            (host_dir / name).write_text(text)
    return out


def properties(path: Path) -> dict[str, str]:
    parsed: dict[str, str] = {}
    for line in path.read_text().splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        key, _, value = line.partition("=")
        assert key not in parsed, f"{key} appears twice in {path}"
        parsed[key] = value
    return parsed


@pytest.fixture(scope="module")
def default_render(tmp_path_factory: pytest.TempPathFactory, ansible_env: dict[str, str], sample_inventory: Path) -> Path:
    return render(tmp_path_factory.mktemp("default"), ansible_env, sample_inventory)


@pytest.fixture(scope="module")
def max_consistency_render(
    tmp_path_factory: pytest.TempPathFactory, ansible_env: dict[str, str], sample_inventory: Path
) -> Path:
    return render(
        tmp_path_factory.mktemp("max"),
        ansible_env,
        sample_inventory,
        "kafka_profile=max_consistency",
        "kafka_group_coordinator_append_linger_ms=0",
    )


class TestKafkaServerProperties:
    def test_each_broker_is_a_kraft_broker_and_controller_on_its_private_address(self, default_render: Path) -> None:
        for node_id, (host, address) in enumerate(BROKER_IPS.items(), start=1):
            config = properties(default_render / host / "server.properties")
            assert config["process.roles"] == "broker,controller"
            assert config["node.id"] == str(node_id)
            assert config["controller.quorum.voters"] == VOTERS
            assert config["listeners"] == f"PLAINTEXT://{address}:9092,CONTROLLER://{address}:9093"
            assert config["advertised.listeners"] == f"PLAINTEXT://{address}:9092"
            assert config["controller.listener.names"] == "CONTROLLER"
            assert config["log.dirs"] == "/mnt/data/kafka"

    def test_default_profile_keeps_kafkas_defaults(self, default_render: Path) -> None:
        config = properties(default_render / "broker-1" / "server.properties")
        assert config["min.insync.replicas"] == "1"
        assert config["offsets.topic.replication.factor"] == "3"
        assert config["transaction.state.log.replication.factor"] == "3"
        assert config["transaction.state.log.min.isr"] == "2"
        assert config["group.coordinator.append.linger.ms"] == "5"
        assert "log.flush.interval.messages" not in config
        assert "log.flush.interval.ms" not in config

    def test_max_consistency_profile_has_seed_003_settings(self, max_consistency_render: Path) -> None:
        config = properties(max_consistency_render / "broker-2" / "server.properties")
        assert config["min.insync.replicas"] == "2"
        assert config["transaction.state.log.replication.factor"] == "3"
        assert config["transaction.state.log.min.isr"] == "2"
        assert config["offsets.topic.replication.factor"] == "3"
        assert config["log.flush.interval.messages"] == "1"
        assert config["log.flush.interval.ms"] == "0"
        assert "# Apache Kafka 4.1.1, KRaft, combined broker and controller. omb-tx profile: max_consistency" in (
            max_consistency_render / "broker-2" / "server.properties"
        ).read_text()

    def test_group_coordinator_linger_is_selectable(self, max_consistency_render: Path) -> None:
        config = properties(max_consistency_render / "broker-1" / "server.properties")
        assert config["group.coordinator.append.linger.ms"] == "0"

    def test_extra_settings_override_the_profile(
        self, tmp_path: Path, ansible_env: dict[str, str], sample_inventory: Path
    ) -> None:
        out = render(
            tmp_path,
            ansible_env,
            sample_inventory,
            "kafka_profile=max_consistency",
            json.dumps({"kafka_extra_settings": {"log.flush.interval.messages": 100, "auto.create.topics.enable": False}}),
        )
        config = properties(out / "broker-3" / "server.properties")
        assert config["log.flush.interval.messages"] == "100"
        assert config["auto.create.topics.enable"] == "false"
        assert config["min.insync.replicas"] == "2"

    def test_systemd_unit_quotes_the_heap_options(self, default_render: Path) -> None:
        unit = (default_render / "broker-1" / "kafka.service").read_text()
        assert 'Environment="KAFKA_HEAP_OPTS=-Xms4g -Xmx4g"' in unit
        assert "ExecStart=/opt/kafka/bin/kafka-server-start.sh /etc/kafka/server.properties" in unit
        assert "RequiresMountsFor=/mnt/data/kafka" in unit


class TestRedpanda:
    def test_node_config_lists_every_broker_as_seed_and_binds_the_private_address(self, default_render: Path) -> None:
        config = yaml.safe_load((default_render / "broker-2" / "redpanda.yaml").read_text())
        node = config["redpanda"]
        assert [seed["host"]["address"] for seed in node["seed_servers"]] == list(BROKER_IPS.values())
        assert {seed["host"]["port"] for seed in node["seed_servers"]} == {33145}
        assert node["kafka_api"] == [{"address": "10.42.1.12", "port": 9092}]
        assert node["advertised_kafka_api"] == [{"address": "10.42.1.12", "port": 9092}]
        assert node["rpc_server"] == {"address": "10.42.1.12", "port": 33145}
        assert node["admin"] == [{"address": "10.42.1.12", "port": 9644}]
        assert node["data_directory"] == "/mnt/data/redpanda"
        assert node["developer_mode"] is False
        assert node["empty_seed_starts_cluster"] is False
        # The HTTP proxy and schema registry stay off; the latter's default port is the workers' 8081.
        assert "pandaproxy" not in config and "schema_registry" not in config

    def test_cluster_properties_enable_replicated_transactions(self, default_render: Path) -> None:
        cluster = yaml.safe_load((default_render / "broker-1" / ".bootstrap.yaml").read_text())
        assert cluster["enable_idempotence"] is True
        assert cluster["enable_transactions"] is True
        assert cluster["id_allocator_replication"] == 3
        assert cluster["transaction_coordinator_replication"] == 3
        assert cluster["transactional_id_expiration_ms"] == 604800000
        assert cluster["transaction_coordinator_delete_retention_ms"] >= cluster["transactional_id_expiration_ms"]

    def test_every_broker_gets_the_same_cluster_properties(self, default_render: Path) -> None:
        files = {(default_render / host / ".bootstrap.yaml").read_text() for host in BROKER_IPS}
        assert len(files) == 1


class TestValidation:
    def playbook(self, env: dict[str, str], inventory: Path, *extra_vars: str) -> tuple[int, str]:
        argv = [tool("ansible-playbook"), "-i", str(inventory), "validate.yml"]
        for assignment in extra_vars:
            argv += ["-e", assignment]
        result = run(argv, env=env, cwd=TEST_PLAYBOOKS_DIR)
        return result.returncode, result.stdout + result.stderr

    def test_the_defaults_pass(self, ansible_env: dict[str, str], sample_inventory: Path) -> None:
        code, output = self.playbook(ansible_env, sample_inventory)
        assert code == 0, output

    def test_an_unknown_kafka_profile_is_refused(self, ansible_env: dict[str, str], sample_inventory: Path) -> None:
        code, output = self.playbook(ansible_env, sample_inventory, "kafka_profile=fastest")
        assert code != 0
        assert "kafka_profile must be one of default, max_consistency (got 'fastest')" in output

    def test_coordinator_retention_shorter_than_id_expiration_is_refused(
        self, ansible_env: dict[str, str], sample_inventory: Path
    ) -> None:
        code, output = self.playbook(
            ansible_env,
            sample_inventory,
            json.dumps({"redpanda_extra_cluster_config": {"transaction_coordinator_delete_retention_ms": 3600000}}),
        )
        assert code != 0
        assert "transaction_coordinator_delete_retention_ms (3600000) must be at least" in output


class TestClientFiles:
    def test_workers_file_lists_every_client_worker(self, default_render: Path) -> None:
        workers = yaml.safe_load((default_render / "client" / "workers.yaml").read_text())
        assert workers == {"workers": ["http://10.42.1.21:8080", "http://10.42.1.22:8080"]}

    def test_worker_unit_starts_benchmark_worker_on_the_omb_ports(self, default_render: Path) -> None:
        unit = (default_render / "client" / "omb-tx-worker.service").read_text()
        assert "ExecStart=/opt/omb-tx/bin/benchmark-worker --port 8080 --stats-port 8081" in unit
        assert "WorkingDirectory=/opt/omb-tx" in unit
        assert "Environment=OMBTX_HOME=/opt/omb-tx" in unit

    def test_driver_yaml_is_pointed_at_the_brokers(self, default_render: Path) -> None:
        driver = yaml.safe_load((default_render / "client" / "driver.yaml").read_text())
        assert driver["commonConfig"].splitlines() == [
            "bootstrap.servers=10.42.1.11:9092,10.42.1.12:9092,10.42.1.13:9092",
            "request.timeout.ms=30000",
        ]

    def test_two_clients_run_benchmark_through_the_workers_file(self, default_render: Path) -> None:
        run_suite = json.loads((default_render / "client" / "run-suite.json").read_text())
        assert run_suite["bootstrap_servers"] == "10.42.1.11:9092,10.42.1.12:9092,10.42.1.13:9092"
        # No drivers or workloads were given to this render, so the lists are empty.
        assert run_suite["command"] == ["bin/benchmark", "--workers-file", "workers.yaml", "--drivers", ""]

    def test_benchmark_command_line(self, tmp_path: Path, ansible_env: dict[str, str], sample_inventory: Path) -> None:
        out = render(
            tmp_path,
            ansible_env,
            sample_inventory,
            json.dumps(
                {
                    "run_suite_drivers": ["driver-kafka-tx/kafka-tx.yaml", "driver-redpanda-tx/redpanda-tx.yaml"],
                    "run_suite_workloads": ["workloads/tx-writes.yaml", "workloads/base-writes.yaml"],
                    "run_suite_use_workers": False,
                }
            ),
        )
        command = json.loads((out / "client" / "run-suite.json").read_text())["command"]
        assert command == [
            "bin/benchmark",
            "--drivers",
            "driver-kafka-tx/kafka-tx.yaml,driver-redpanda-tx/redpanda-tx.yaml",
            "workloads/tx-writes.yaml",
            "workloads/base-writes.yaml",
        ]

    def test_suite_command_line(self, tmp_path: Path, ansible_env: dict[str, str], sample_inventory: Path) -> None:
        out = render(tmp_path, ansible_env, sample_inventory, "run_suite_file=workloads/suites/seeds.yaml")
        command = json.loads((out / "client" / "run-suite.json").read_text())["command"]
        assert command == ["bin/benchmark-suite", "workloads/suites/seeds.yaml", "--workers-file", "workers.yaml"]


def test_chrony_uses_the_amazon_time_sync_service(default_render: Path) -> None:
    sources = (default_render / "broker-1" / "chrony.sources").read_text()
    assert "server 169.254.169.123 prefer iburst minpoll 4 maxpoll 4" in sources
