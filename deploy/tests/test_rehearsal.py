"""The rehearsal: the client side of deploy.yml, run-suite.yml and collect.yml done for real on this machine.

The omb_tx_worker role's own tasks pack this checkout into the worker tarball and unpack it into a temporary
omb_tx_home; the rendered systemd unit's command line starts bin/benchmark-worker from there with Maven absent
from PATH; three KRaft brokers start on loopback (127.0.0.2-4) from the Kafka role's server.properties
(max-consistency profile), using the broker class path the tarball carries; run-suite.yml runs a short
transactional benchmark through the worker; collect.yml brings the result and the broker configs home, and
bin/charts turns them into a report. It needs the Java build (bin/test builds it first); without jars it builds
them when Maven is installed, and is skipped, saying why, only when Maven is not.
"""

from __future__ import annotations

import grp
import json
import os
import pwd
import shutil
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from conftest import ANSIBLE_DIR, DEPLOY_DIR, TEST_PLAYBOOKS_DIR, run, tool
from test_rendering import properties

REPO_DIR = DEPLOY_DIR.parent
BROKER_IPS = ["127.0.0.2", "127.0.0.3", "127.0.0.4"]
CLIENT_IP = "127.0.0.1"
USER = pwd.getpwuid(os.geteuid()).pw_name
GROUP = grp.getgrgid(os.getegid()).gr_name
JAVA_OPTS = "-Xms128m -Xmx512m -XX:+UseSerialGC"
MEASURED_TRANSACTIONS = 100
# The rehearsal's worker token: the worker refuses any request without it, so the run proves it is sent.
WORKER_TOKEN = "5e2f0a7c91d34b68a0c4e6f8b1d3a5c7"

# workloads/tx-writes.yaml's transaction, with few enough of them for a test on a busy machine.
WORKLOAD = f"""\
name: rehearsal-tx-writes
topics: 1
partitionsPerTopic: 2
messageSize: 6
producersPerTopic: 1
subscriptionsPerTopic: 0
loop: closed
operation:
  kind: WRITE
  transactional: true
  messagesPerOperation: 2
  partitionsPerOperation: 2
  awaitAcks: after-commit
warmupOperations: 10
measureOperations: {MEASURED_TRANSACTIONS}
"""

INVENTORY = """\
[brokers]
broker-1 ansible_host=127.0.0.1 private_ip={b1} node_id=1
broker-2 ansible_host=127.0.0.1 private_ip={b2} node_id=2
broker-3 ansible_host=127.0.0.1 private_ip={b3} node_id=3

[clients]
client-1 ansible_host=127.0.0.1 private_ip={client}

[all:vars]
ansible_connection=local
ansible_python_interpreter={python}
"""


def built_checkout() -> None:
    """The Java build the tarball is packed from: present, built now, or a clear skip."""
    wanted = [
        *REPO_DIR.glob("runner/target/runner-*.jar"),
        *REPO_DIR.glob("kafka-broker/target/broker-lib/kafka_2.13-*.jar"),
    ]
    if len(wanted) >= 2:
        return
    if shutil.which("mvn") is None:
        pytest.skip("the Java modules are not built and Maven is not installed (mvn -DskipTests package builds them)")
    subprocess.run(["mvn", "-q", "-B", "-DskipTests", "package"], cwd=REPO_DIR, check=True, timeout=1200)


def free_port(*hosts: str) -> int:
    """A port nothing listens on at any of the hosts."""
    for _ in range(50):
        with socket.socket() as probe:
            probe.bind((hosts[0], 0))
            port = probe.getsockname()[1]
        try:
            for host in hosts:
                with socket.socket() as other:
                    other.bind((host, port))
            return port
        except OSError:
            continue
    raise AssertionError(f"no port free on all of {hosts}")


def wait_for_port(host: str, port: int, process: subprocess.Popen[bytes], log: Path, timeout: float) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise AssertionError(f"{process.args} exited with {process.returncode}:\n{log.read_text()[-4000:]}")
        try:
            with socket.create_connection((host, port), timeout=1):
                return
        except OSError:
            time.sleep(0.5)
    raise AssertionError(f"nothing listened on {host}:{port} within {timeout:.0f} s:\n{log.read_text()[-4000:]}")


def path_without_maven(tmp_path: Path) -> str:
    """A PATH with the system's commands but no mvn, as on the nodes."""
    folder = tmp_path / "path-without-maven"
    folder.mkdir()
    for directory in ("/usr/local/bin", "/usr/bin", "/usr/sbin"):
        for command in Path(directory).iterdir() if Path(directory).is_dir() else []:
            target = folder / command.name
            if command.name.startswith("mvn") or target.exists():
                continue
            target.symlink_to(command)
    path = str(folder)
    assert shutil.which("mvn", path=path) is None
    return path


def unit_command(unit: Path) -> tuple[list[str], dict[str, str], Path]:
    """ExecStart, Environment and WorkingDirectory of the rendered systemd unit."""
    command: list[str] = []
    env: dict[str, str] = {}
    workdir = Path("/")
    for line in unit.read_text().splitlines():
        key, _, value = line.partition("=")
        if key == "ExecStart":
            command = value.split()
        elif key == "Environment":
            name, _, setting = value.strip('"').partition("=")
            env[name] = setting
        elif key == "WorkingDirectory":
            workdir = Path(value)
    assert command, unit.read_text()
    return command, env, workdir


class Rehearsal:
    def __init__(self, tmp_path: Path, env: dict[str, str]) -> None:
        self.root = tmp_path
        self.home = tmp_path / "opt" / "omb-tx"
        self.kafka_port = free_port(*BROKER_IPS)
        self.controller_port = free_port(*BROKER_IPS)
        self.worker_port = free_port(CLIENT_IP)
        self.stats_port = free_port(CLIENT_IP)
        self.unit = tmp_path / "omb-tx-worker.service"
        self.collected = tmp_path / "collected"
        self.inventory = tmp_path / "inventory.ini"
        self.inventory.write_text(
            INVENTORY.format(b1=BROKER_IPS[0], b2=BROKER_IPS[1], b3=BROKER_IPS[2], client=CLIENT_IP, python=sys.executable)
        )
        self.path = path_without_maven(tmp_path)
        self.env = dict(env, PATH=self.path)
        self.processes: list[subprocess.Popen[bytes]] = []
        self.extra_vars = {
            "omb_tx_home": str(self.home),
            "omb_tx_worker_source_dir": str(REPO_DIR),
            "omb_tx_worker_archive": str(tmp_path / "dist" / "omb-tx-dist.tar"),
            "omb_tx_worker_remote_archive": str(tmp_path / "node" / "omb-tx-dist.tar"),
            "omb_tx_worker_port": self.worker_port,
            "omb_tx_worker_stats_port": self.stats_port,
            "omb_tx_worker_java_opts": JAVA_OPTS,
            # A token of the test's own, in place of the one group_vars would make in credentials/.
            "omb_tx_worker_token": WORKER_TOKEN,
            # Everything runs as whoever runs the test: no become (it overrides the playbooks' become: true).
            "ansible_become": False,
            "run_suite_user": USER,
            "omb_tx_worker_user": USER,
            "omb_tx_worker_group": GROUP,
            "rehearsal_unit_file": str(self.unit),
            "broker_kafka_port": self.kafka_port,
            "kafka_controller_port": self.controller_port,
            "kafka_profile": "max_consistency",
            "kafka_config_dir": str(tmp_path / "etc" / "{{ inventory_hostname }}" / "kafka"),
            "kafka_data_dir": str(tmp_path / "data" / "{{ inventory_hostname }}" / "kafka"),
            "hoststats_file": str(tmp_path / "hoststats" / "{{ inventory_hostname }}.jsonl"),
        }

    def playbook(self, playbook: Path, **more: object) -> subprocess.CompletedProcess[str]:
        (self.root / "node").mkdir(exist_ok=True)
        argv = [tool("ansible-playbook"), "-i", str(self.inventory), str(playbook),
                "-e", json.dumps({**self.extra_vars, **more})]
        started = time.monotonic()
        result = run(argv, env=self.env, cwd=ANSIBLE_DIR, timeout=600)
        print(f"{playbook.name}: {time.monotonic() - started:.1f} s")
        assert result.returncode == 0, f"{playbook.name} failed:\n{result.stdout[-6000:]}\n{result.stderr[-3000:]}"
        return result

    def start(self, argv: list[str], log: Path, env: dict[str, str], cwd: Path) -> subprocess.Popen[bytes]:
        with log.open("wb") as out:
            process = subprocess.Popen(argv, stdout=out, stderr=subprocess.STDOUT, env=env, cwd=cwd,
                                       start_new_session=True)
        self.processes.append(process)
        return process

    def start_brokers(self) -> None:
        """Formats and starts each broker as kafka.service would, from the tarball's broker class path."""
        class_path = str(self.home / "kafka-broker" / "target" / "broker-lib" / "*")
        java = ["java", "-Xms128m", "-Xmx384m", "-XX:+UseSerialGC", "-cp", class_path]
        env = dict(self.env)
        started = []
        for number, ip in enumerate(BROKER_IPS, start=1):
            config = self.root / "etc" / f"broker-{number}" / "kafka" / "server.properties"
            settings = properties(config)
            format_log = self.root / f"format-{number}.log"
            formatted = subprocess.run(
                [*java, "kafka.tools.StorageTool", "format", "--cluster-id", "b21iLXR4LWJlbmNobWFyaw",
                 "--config", str(config), "--ignore-formatted"],
                env=env, capture_output=True, text=True, timeout=120, check=False)
            format_log.write_text(formatted.stdout + formatted.stderr)
            assert formatted.returncode == 0, formatted.stdout + formatted.stderr
            assert Path(settings["log.dirs"], "meta.properties").exists()
            log = self.root / f"broker-{number}.log"
            started.append((ip, self.start([*java, "kafka.Kafka", str(config)], log, env, self.root), log))
        for ip, process, log in started:
            wait_for_port(ip, self.kafka_port, process, log, timeout=120)

    def start_host_samplers(self) -> list[subprocess.Popen[bytes]]:
        """The hoststats role's sampler, one per inventory host (all of them this machine), every 0.2 s."""
        sampler = ANSIBLE_DIR / "roles" / "hoststats" / "files" / "omb-tx-hoststats"
        return [
            self.start([sys.executable, str(sampler), "--out", str(self.root / "hoststats" / f"{host}.jsonl"),
                        "--interval", "0.2", "--host", host], self.root / f"hoststats-{host}.log", self.env, self.root)
            for host in ("broker-1", "broker-2", "broker-3", "client-1")
        ]

    def stop(self) -> None:
        for process in self.processes:
            if process.poll() is None:
                process.terminate()
        for process in self.processes:
            try:
                process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()


@pytest.fixture(scope="module")
def rehearsal(tmp_path_factory: pytest.TempPathFactory, ansible_env: dict[str, str]) -> Iterator[Rehearsal]:
    built_checkout()
    rehearsal = Rehearsal(tmp_path_factory.mktemp("rehearsal"), ansible_env)
    try:
        yield rehearsal
    finally:
        rehearsal.stop()


def test_a_benchmark_runs_through_the_deployed_worker_and_its_result_becomes_a_report(rehearsal: Rehearsal) -> None:
    # deploy.yml's client side: the tarball, packed by the role and unpacked as on a node.
    rehearsal.playbook(TEST_PLAYBOOKS_DIR / "rehearsal.yml")
    home = rehearsal.home
    assert not (home / "pom.xml").exists(), "the nodes get no sources"
    assert list(home.glob("kafka-broker/target/broker-lib/kafka_2.13-*.jar")), sorted(p.name for p in home.iterdir())

    # The brokers, from the Kafka role's server.properties with the max-consistency profile.
    server = properties(rehearsal.root / "etc" / "broker-1" / "kafka" / "server.properties")
    assert server["log.flush.interval.messages"] == "1"
    assert server["min.insync.replicas"] == "2"
    assert server["controller.quorum.voters"] == ",".join(
        f"{n}@{ip}:{rehearsal.controller_port}" for n, ip in enumerate(BROKER_IPS, start=1))
    rehearsal.start_brokers()

    # The worker, started by the systemd unit's own command line, where Maven is not on PATH.
    command, unit_env, workdir = unit_command(rehearsal.unit)
    assert command[0] == str(home / "bin" / "benchmark-worker")
    worker_log = rehearsal.root / "worker.log"
    worker = rehearsal.start(command, worker_log, dict(rehearsal.env, **unit_env), workdir)
    wait_for_port(CLIENT_IP, rehearsal.worker_port, worker, worker_log, timeout=120)
    token_file = Path(command[command.index("--token-file") + 1])
    assert token_file.read_text() == WORKER_TOKEN + "\n"
    assert token_file.stat().st_mode & 0o777 == 0o600

    samplers = rehearsal.start_host_samplers()
    workload = rehearsal.root / "rehearsal-tx-writes.yaml"
    workload.write_text(WORKLOAD)
    # run-suite.yml on client-1: drivers pointed at the brokers, a workers file, bin/benchmark through the worker.
    run = rehearsal.playbook(
        ANSIBLE_DIR / "run-suite.yml",
        run_suite_drivers=["driver-kafka-tx/kafka-tx-tuned.yaml"],
        run_suite_workloads=[str(workload)],
        run_suite_use_workers=True,
        run_suite_timeout_seconds=600,
        run_suite_poll_seconds=2,
    )
    assert "Building omb-tx" not in run.stdout
    workers_file = (home / "workers.yaml").read_text()
    assert f"http://{CLIENT_IP}:{rehearsal.worker_port}" in workers_file
    assert worker.poll() is None, worker_log.read_text()[-3000:]

    for sampler in samplers:
        sampler.terminate()
        sampler.wait(timeout=30)

    # collect.yml: the result with its folders, the brokers' configuration and each node's figures beside it.
    rehearsal.playbook(ANSIBLE_DIR / "collect.yml", collect_results_dir=str(rehearsal.collected))
    results = list(rehearsal.collected.rglob("*.json"))
    assert len(results) == 1, results
    result = json.loads(results[0].read_text())
    assert result["workload"] == "rehearsal-tx-writes"
    assert result["status"] == "complete", result.get("failureReason")
    assert result["broker"]["embedded"] is False
    assert result["broker"]["brokers"] == 3
    assert result["broker"]["bootstrapServers"] == ",".join(f"{ip}:{rehearsal.kafka_port}" for ip in BROKER_IPS)
    assert result["broker"]["system"] == "kafka", result["broker"]
    assert result["counts"]["committed"] == MEASURED_TRANSACTIONS, result["counts"]
    for number in (1, 2, 3):
        collected = rehearsal.collected / "broker-config" / "kafka" / f"broker-{number}" / "server.properties"
        assert properties(collected)["log.flush.interval.messages"] == "1"

    hosts = [json.loads(line) for line in results[0].with_name(results[0].stem + ".hosts.jsonl").read_text().splitlines()]
    assert [(h["group"], h["host"]) for h in hosts] == [
        ("brokers", "broker-1"), ("brokers", "broker-2"), ("brokers", "broker-3"), ("clients", "client-1")]
    for host in hosts:
        assert host["samples"] >= 1, host
        assert 0 < host["cpuBusyPercent"]["max"] <= 100, host
        assert host["cpuBusyPercent"]["mean"] <= host["cpuBusyPercent"]["max"], host

    # bin/charts on what collect.yml brought home (host figures and broker configs alongside).
    report = rehearsal.root / "report"
    charts = subprocess.run([str(REPO_DIR / "bin" / "charts"), str(rehearsal.collected), "--out", str(report)],
                            capture_output=True, text=True, timeout=600, check=False)
    assert charts.returncode == 0, charts.stdout + charts.stderr
    assert "rehearsal-tx-writes" in (report / "report.md").read_text()
