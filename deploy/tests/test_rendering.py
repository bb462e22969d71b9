"""The roles' templates, rendered by Ansible with the roles' real defaults, hold the settings the
scenarios need: Kafka's two profiles, Redpanda's transaction settings, the workers file."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest
import yaml

from conftest import DEPLOY_DIR, TEST_PLAYBOOKS_DIR, run, tool

BROKER_IPS = {"broker-1": "10.42.1.11", "broker-2": "10.42.1.12", "broker-3": "10.42.1.13"}
VOTERS = "1@10.42.1.11:9093,2@10.42.1.12:9093,3@10.42.1.13:9093"
BOOTSTRAP = "10.42.1.11:9092,10.42.1.12:9092,10.42.1.13:9092"
REPO_DIR = DEPLOY_DIR.parent


SAMPLE_FILES = {
    # As the driver modules ship them: no bootstrap.servers, so the runner would embed a broker.
    "driver-kafka-tx/kafka-tx.yaml": """\
# a comment the deployed copy may lose
name: kafka-tx
driverClass: org.example.SampleKafkaDriver
replicationFactor: 3
commonConfig: |
  request.timeout.ms=30000
producerConfig: |
  acks=all
transactions:
  enabled: true
  messagesPerTransaction: 2
""",
    # Pointed at some other cluster before: the old address must go.
    "driver-kafka-tx/elsewhere.yaml": """\
name: elsewhere
driverClass: org.example.SampleKafkaDriver
commonConfig: |
  bootstrap.servers=localhost:9092
  client.id=x
""",
    # The same with Java properties' other separator, a space: dropped too (kafka-clients would refuse it twice).
    "driver-kafka-tx/spaced.yaml": """\
name: spaced
driverClass: org.example.SampleKafkaDriver
commonConfig: |
  bootstrap.servers localhost:9092
  client.id=y
""",
    "driver-redpanda-tx/no-common.yaml": "name: bare\ndriverClass: org.example.SampleRedpandaDriver\n",
    # commonConfig as a quoted scalar: not editable as text, so the file is re-serialised.
    "driver-redpanda-tx/quoted.yaml": 'name: quoted\ndriverClass: org.example.SampleRedpandaDriver\ncommonConfig: "linger.ms=0"\n',
    # Not a driver: left alone.
    "workloads/tx-writes.yaml": "name: tx-writes\ntopics: 2\ncommonConfig: |\n  keep=me\n",
}


def render(
    tmp_path: Path, env: dict[str, str], inventory: Path, *extra_vars: str, dist_files: dict[str, str] | None = None
) -> Path:
    """Runs playbooks/render.yml and lays its output out as <out>/<host>/<file name>; dist_files are
    placed under <out>/dist/ first, where the run points the driver YAMLs at the sample cluster."""
    out = tmp_path / "rendered"
    out.mkdir()
    for relative, text in (dist_files or {}).items():
        (out / "dist" / relative).parent.mkdir(parents=True, exist_ok=True)
        (out / "dist" / relative).write_text(text)
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
    return render(tmp_path_factory.mktemp("default"), ansible_env, sample_inventory, dist_files=SAMPLE_FILES)


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

    def test_default_profile_leaves_topics_at_kafkas_replication_factor_of_one(self, default_render: Path) -> None:
        assert properties(default_render / "broker-1" / "server.properties")["default.replication.factor"] == "1"

    def test_max_consistency_profile_has_seed_003_settings(self, max_consistency_render: Path) -> None:
        config = properties(max_consistency_render / "broker-2" / "server.properties")
        assert config["default.replication.factor"] == "3"
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
        assert (
            "ExecStart=/opt/omb-tx/bin/benchmark-worker --port 8080 --stats-port 8081"
            " --token-file /opt/omb-tx/worker.token"
        ) in unit
        assert "WorkingDirectory=/opt/omb-tx" in unit
        assert "Environment=OMBTX_HOME=/opt/omb-tx" in unit

    def test_driver_yaml_without_bootstrap_servers_gets_the_brokers(self, default_render: Path) -> None:
        driver = yaml.safe_load((default_render / "dist" / "driver-kafka-tx" / "kafka-tx.yaml").read_text())
        assert driver["commonConfig"].splitlines() == [f"bootstrap.servers={BOOTSTRAP}", "request.timeout.ms=30000"]
        assert driver["name"] == "kafka-tx"
        assert driver["driverClass"] == "org.example.SampleKafkaDriver"
        assert driver["replicationFactor"] == 3
        assert driver["producerConfig"] == "acks=all\n"
        assert driver["transactions"] == {"enabled": True, "messagesPerTransaction": 2}

    def test_the_edit_keeps_comments_and_block_layout(self, default_render: Path) -> None:
        text = (default_render / "dist" / "driver-kafka-tx" / "kafka-tx.yaml").read_text()
        assert text == SAMPLE_FILES["driver-kafka-tx/kafka-tx.yaml"].replace(
            "commonConfig: |\n", f"commonConfig: |\n  bootstrap.servers={BOOTSTRAP}\n"
        )

    def test_a_quoted_common_config_is_rewritten_as_yaml(self, default_render: Path) -> None:
        driver = yaml.safe_load((default_render / "dist" / "driver-redpanda-tx" / "quoted.yaml").read_text())
        assert driver["commonConfig"] == f"bootstrap.servers={BOOTSTRAP}\nlinger.ms=0\n"
        assert driver["name"] == "quoted"

    def test_an_old_bootstrap_address_is_replaced(self, default_render: Path) -> None:
        driver = yaml.safe_load((default_render / "dist" / "driver-kafka-tx" / "elsewhere.yaml").read_text())
        assert driver["commonConfig"].splitlines() == [f"bootstrap.servers={BOOTSTRAP}", "client.id=x"]

    def test_an_old_address_after_a_space_is_replaced_too(self, default_render: Path) -> None:
        driver = yaml.safe_load((default_render / "dist" / "driver-kafka-tx" / "spaced.yaml").read_text())
        assert driver["commonConfig"].splitlines() == [f"bootstrap.servers={BOOTSTRAP}", "client.id=y"]

    def test_a_driver_without_common_config_gets_one(self, default_render: Path) -> None:
        driver = yaml.safe_load((default_render / "dist" / "driver-redpanda-tx" / "no-common.yaml").read_text())
        assert driver == {
            "name": "bare",
            "driverClass": "org.example.SampleRedpandaDriver",
            "commonConfig": f"bootstrap.servers={BOOTSTRAP}\n",
        }

    def test_files_that_are_not_drivers_are_left_alone(self, default_render: Path) -> None:
        text = (default_render / "dist" / "workloads" / "tx-writes.yaml").read_text()
        assert text == SAMPLE_FILES["workloads/tx-writes.yaml"]

    def test_the_repositorys_driver_yamls_keep_every_key_and_gain_the_brokers(
        self, tmp_path: Path, ansible_env: dict[str, str], sample_inventory: Path
    ) -> None:
        originals = {
            str(path.relative_to(REPO_DIR)): path.read_text() for path in sorted(REPO_DIR.glob("driver-*/*.yaml"))
        }
        if not originals:
            pytest.skip("the checkout has no driver-*/*.yaml yet")
        out = render(tmp_path, ansible_env, sample_inventory, dist_files=originals)
        for relative, text in originals.items():
            before = yaml.safe_load(text)
            after = yaml.safe_load((out / "dist" / relative).read_text())
            assert set(after) == set(before) | {"commonConfig"}, relative
            assert {key: value for key, value in after.items() if key != "commonConfig"} == {
                key: value for key, value in before.items() if key != "commonConfig"
            }, relative
            lines = after["commonConfig"].splitlines()
            assert [line for line in lines if line.startswith("bootstrap.servers")] == [f"bootstrap.servers={BOOTSTRAP}"]
            kept = [
                line
                for line in (before.get("commonConfig") or "").splitlines()
                if line.strip() and not line.startswith("bootstrap.servers")
            ]
            assert [line for line in lines if not line.startswith("bootstrap.servers")] == kept, relative
            # Comments outside the YAML values survive the edit.
            comments = [line for line in text.splitlines() if line.startswith("#")]
            assert [line for line in (out / "dist" / relative).read_text().splitlines() if line.startswith("#")] == comments

    def test_redpanda_drivers_get_the_admin_api_and_kafka_drivers_do_not(
        self, tmp_path: Path, ansible_env: dict[str, str], sample_inventory: Path
    ) -> None:
        admin = "http://10.42.1.11:9644"
        originals = {
            str(path.relative_to(REPO_DIR)): path.read_text() for path in sorted(REPO_DIR.glob("driver-*/*.yaml"))
        }
        out = render(tmp_path, ansible_env, sample_inventory, f"render_admin_api_url={admin}", dist_files=originals)
        redpanda = [relative for relative in originals if relative.startswith("driver-redpanda-tx/")]
        assert redpanda, sorted(originals)
        for relative, text in originals.items():
            after_text = (out / "dist" / relative).read_text()
            after = yaml.safe_load(after_text)
            if relative in redpanda:
                assert after["adminApiUrl"] == admin, relative
                assert after_text.count("\nadminApiUrl:") == 1, after_text
                # The edit is textual: the comments stay.
                assert [line for line in after_text.splitlines() if line.startswith("#")] == [
                    line for line in text.splitlines() if line.startswith("#")], relative
            else:
                assert "adminApiUrl" not in after, relative

    def test_two_clients_run_benchmark_through_the_workers_file(self, default_render: Path) -> None:
        run_suite = json.loads((default_render / "client" / "run-suite.json").read_text())
        assert run_suite["bootstrap_servers"] == BOOTSTRAP
        # No drivers or workloads were given to this render, so the lists are empty.
        assert run_suite["command"] == [
            "bin/benchmark", "--workers-file", "workers.yaml", "--token-file", "/opt/omb-tx/worker.token", "--drivers", ""]

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
        out = render(
            tmp_path,
            ansible_env,
            sample_inventory,
            json.dumps({"run_suite_file": "suites/kafka-tuned-seeds.yaml", "run_suite_extra_args": ["--profile", "full"]}),
        )
        command = json.loads((out / "client" / "run-suite.json").read_text())["command"]
        # bin/benchmark-suite has no --workers-file: suites run on the coordinating client.
        assert command == ["bin/benchmark-suite", "--profile", "full", "suites/kafka-tuned-seeds.yaml"]


def test_chrony_uses_the_amazon_time_sync_service(default_render: Path) -> None:
    sources = (default_render / "broker-1" / "chrony.sources").read_text()
    assert "server 169.254.169.123 prefer iburst minpoll 4 maxpoll 4" in sources


@pytest.mark.parametrize(
    ("extra_vars", "expected"),
    [
        ([], "kafka"),
        (["fact_broker_system=redpanda"], "redpanda"),
        (["fact_broker_system=redpanda", "broker_system=kafka"], "kafka"),
    ],
    ids=["nothing-deployed", "follows-what-deploy-recorded", "command-line-wins"],
)
def test_broker_system_resolution(
    extra_vars: list[str], expected: str, ansible_env: dict[str, str], sample_inventory: Path
) -> None:
    argv = [tool("ansible-playbook"), "-i", str(sample_inventory), "broker_system.yml"]
    for assignment in extra_vars:
        argv += ["-e", assignment]
    result = run(argv, env=ansible_env, cwd=TEST_PLAYBOOKS_DIR)
    assert result.returncode == 0, result.stdout + result.stderr
    assert f'"msg": "broker_system={expected}"' in result.stdout


class TestFaultHelper:
    """omb-tx-fault, what bin/benchmark --fault-command runs on a broker: each action as systemctl calls, a killed or
    stopped broker held down (no restart-on-failure) until "restart"."""

    @staticmethod
    def run_helper(tmp_path: Path, script: Path, action: str) -> tuple[subprocess.CompletedProcess[str], list[str]]:
        bin_dir = tmp_path / "bin"
        bin_dir.mkdir(exist_ok=True)
        calls = tmp_path / "calls"
        fake = bin_dir / "systemctl"
        fake.write_text(f'#!/bin/sh\necho "$*" >> {calls}\n')
        fake.chmod(0o755)
        script.chmod(0o755)
        env = {"PATH": f"{bin_dir}:/usr/bin:/bin", "OMB_TX_FAULT_RUNTIME_DIR": str(tmp_path / "run")}
        result = subprocess.run(["/bin/sh", str(script), action], env=env, capture_output=True, text=True, check=False)
        return result, calls.read_text().splitlines() if calls.exists() else []

    def test_kill_holds_off_systemds_restart_until_restart(self, default_render: Path, tmp_path: Path) -> None:
        script = default_render / "broker-1" / "omb-tx-fault"
        assert "service=kafka" in script.read_text()
        result, calls = self.run_helper(tmp_path, script, "kill")
        assert result.returncode == 0, result.stderr
        assert calls == ["daemon-reload", "kill --signal=KILL kafka"]
        dropin = tmp_path / "run" / "kafka.service.d" / "omb-tx-fault.conf"
        assert dropin.read_text() == "[Service]\nRestart=no\n"
        result, calls = self.run_helper(tmp_path, script, "restart")
        assert result.returncode == 0, result.stderr
        assert calls[2:] == ["daemon-reload", "reset-failed kafka", "start kafka"]
        assert not dropin.exists()

    @pytest.mark.parametrize(
        ("action", "call"),
        [("pause", "kill --signal=STOP kafka"), ("resume", "kill --signal=CONT kafka"), ("stop", "stop kafka")],
    )
    def test_each_action_is_one_systemctl_call(self, default_render: Path, tmp_path: Path, action: str, call: str) -> None:
        result, calls = self.run_helper(tmp_path, default_render / "broker-2" / "omb-tx-fault", action)
        assert result.returncode == 0, result.stderr
        assert calls[-1] == call

    def test_an_unknown_action_is_refused(self, default_render: Path, tmp_path: Path) -> None:
        result, calls = self.run_helper(tmp_path, default_render / "broker-3" / "omb-tx-fault", "explode")
        assert result.returncode == 2
        assert "usage: omb-tx-fault" in result.stderr
        assert calls == []


def remember(tmp_path: Path, env: dict[str, str], inventory: Path, *extra_vars: str) -> dict[str, str]:
    """One deploy.yml visit as far as the broker's memory goes; returns the server.properties it would write."""
    argv = [tool("ansible-playbook"), "-i", str(inventory), "profile_memory.yml", "-e", f"memory_dir={tmp_path}"]
    for assignment in extra_vars:
        argv += ["-e", assignment]
    result = run(argv, env=env, cwd=TEST_PLAYBOOKS_DIR)
    assert result.returncode == 0, result.stdout + result.stderr
    return properties(tmp_path / "server.properties")


def test_kafkas_profile_survives_a_visit_to_redpanda(
    tmp_path: Path, ansible_env: dict[str, str], sample_inventory: Path
) -> None:
    first = remember(tmp_path, ansible_env, sample_inventory, "broker_system=kafka", "kafka_profile=max_consistency")
    assert first["log.flush.interval.messages"] == "1"
    remember(tmp_path, ansible_env, sample_inventory, "broker_system=redpanda")
    assert json.loads((tmp_path / "omb_tx.fact").read_text()) == {
        "broker_system": "redpanda", "kafka_profile": "max_consistency"}
    # README's "back to Kafka": deploy.yml -e broker_system=kafka, without the profile.
    back = remember(tmp_path, ansible_env, sample_inventory, "broker_system=kafka")
    assert back["log.flush.interval.messages"] == "1"
    assert back["min.insync.replicas"] == "2"


def test_a_broker_never_deployed_gets_the_default_profile(
    tmp_path: Path, ansible_env: dict[str, str], sample_inventory: Path
) -> None:
    config = remember(tmp_path, ansible_env, sample_inventory, "broker_system=kafka")
    assert "log.flush.interval.messages" not in config
    assert json.loads((tmp_path / "omb_tx.fact").read_text())["kafka_profile"] == "default"
