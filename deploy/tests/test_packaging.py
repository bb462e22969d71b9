"""The worker distribution tarball, packed by the omb_tx_worker role's own tasks from a checkout laid
out as `mvn package` leaves it, holds what the bin/ scripts and the embedded broker's launcher look
for, in the same places: broker-lib/ stays beside the kafka-broker jar."""

from __future__ import annotations

import subprocess
import tarfile
from pathlib import Path

from conftest import TEST_PLAYBOOKS_DIR, run, tool

BUILT = [
    "bin/benchmark",
    "bin/lib/common.sh",
    "workloads/tx-writes.yaml",
    "suites/kafka-seeds.yaml",
    "driver-kafka-tx/kafka-tx.yaml",
    "runner/target/runner-0.1.0-SNAPSHOT.jar",
    "runner/target/lib/jackson-databind-2.19.0.jar",
    "runner-kafka/target/runner-kafka-0.1.0-SNAPSHOT.jar",
    "runner-kafka/target/lib/kafka-clients-4.1.1.jar",
    "kafka-broker/target/kafka-broker-0.1.0-SNAPSHOT.jar",
    "driver-kafka-tx/target/driver-kafka-tx-0.1.0-SNAPSHOT.jar",
    "driver-kafka-tx/target/lib/jackson-databind-2.19.0.jar",
]
BROKER_LIB = [
    "kafka-broker/target/broker-lib/kafka_2.13-4.1.1.jar",
    "kafka-broker/target/broker-lib/scala-library-2.13.16.jar",
]
NOT_SHIPPED = [
    "runner/src/main/java/io/ombtx/runner/Main.java",
    "kafka-broker/target/classes/io/ombtx/broker/ChildKafkaMain.class",
]


def checkout(root: Path, files: list[str]) -> Path:
    for relative in files:
        (root / relative).parent.mkdir(parents=True, exist_ok=True)
        (root / relative).write_text(relative)
    return root


def pack(tmp_path: Path, env: dict[str, str], inventory: Path, source: Path) -> tuple[subprocess.CompletedProcess[str], Path]:
    archive = tmp_path / "dist" / "omb-tx-dist.tar"
    argv = [
        tool("ansible-playbook"), "-i", str(inventory), "package.yml",
        "-e", f"omb_tx_worker_source_dir={source}", "-e", f"omb_tx_worker_archive={archive}",
    ]
    return run(argv, env=env, cwd=TEST_PLAYBOOKS_DIR), archive


def test_the_tarball_keeps_broker_lib_beside_the_launcher_jar(
    tmp_path: Path, ansible_env: dict[str, str], sample_inventory: Path
) -> None:
    source = checkout(tmp_path / "checkout", BUILT + BROKER_LIB + NOT_SHIPPED)
    result, archive = pack(tmp_path, ansible_env, sample_inventory, source)
    assert result.returncode == 0, result.stdout + result.stderr
    with tarfile.open(archive) as tar:
        names = {name.removeprefix("./") for name in tar.getnames()}
    for relative in BUILT + BROKER_LIB:
        assert relative in names, f"{relative} missing from the tarball: {sorted(names)}"
    for relative in NOT_SHIPPED:
        assert relative not in names, f"{relative} should not be shipped"


def test_packing_a_checkout_without_the_broker_class_path_fails_saying_so(
    tmp_path: Path, ansible_env: dict[str, str], sample_inventory: Path
) -> None:
    source = checkout(tmp_path / "checkout", BUILT)
    result, archive = pack(tmp_path, ansible_env, sample_inventory, source)
    assert result.returncode != 0
    assert "No kafka-broker jar with broker-lib/ beside it" in result.stdout + result.stderr, result.stdout
    assert not archive.exists()
