"""The OCI image (image/pom.xml), built here by Maven and Jib with no Docker engine, and read back from its tarball.

This machine reaches package registries only, not Docker Hub, so the image is built on the stand-in base that
image/offline-base.py makes from Debian's packages (the real build's base is the pinned Temurin JRE, pulled by Jib):
`mvn -Pimage -Dombtx.image.base=tar://BASE package -pl image -am`. The test then reads target/omb-tx-image.tar as
a container runtime would: its manifest, its config (entrypoint, working folder, user, ports, environment) and its
layers (the base's, unchanged, then bin/ and the jars where bin/'s scripts look for them, and nothing else); what the
chart runs in the image is there; and, when the test runs as root, the image's file system is unpacked and its
entrypoint run in it (chroot, as the image's user) to show that the JVM and bin/'s scripts work there.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import tarfile
from pathlib import Path

import pytest

from conftest import DEPLOY_DIR

REPO_DIR = DEPLOY_DIR.parent
HOME = "/opt/omb-tx"
VERSION = "0.1.0-SNAPSHOT"


@pytest.fixture(scope="module")
def base() -> Path:
    if shutil.which("apt-get") is None or shutil.which("dpkg-deb") is None:
        pytest.skip("the offline base is made from Debian packages: apt-get and dpkg-deb are needed")
    done = subprocess.run(["python3", str(REPO_DIR / "image" / "offline-base.py")], capture_output=True, text=True,
                          timeout=900, check=False)
    assert done.returncode == 0, done.stderr
    return Path(done.stdout.strip())


@pytest.fixture(scope="module")
def image(base: Path) -> Path:
    mvn = shutil.which("mvn") or str(REPO_DIR / "mvnw")
    done = subprocess.run([mvn, "-B", "-q", "-ntp", "-Pimage", "-DskipTests", f"-Dombtx.image.base=tar://{base}",
                           "package", "-pl", "image", "-am"], cwd=REPO_DIR, capture_output=True, text=True,
                          timeout=1200, check=False)
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-2000:]
    return REPO_DIR / "image" / "target" / "omb-tx-image.tar"


def read_json(tar: tarfile.TarFile, name: str) -> dict | list:
    member = tar.extractfile(name)
    assert member is not None, name
    return json.load(member)


@pytest.fixture(scope="module")
def contents(image: Path) -> tuple[dict, dict, list[dict[str, tarfile.TarInfo]]]:
    """The manifest, the config, and each layer's entries by path (without a leading ./ or /)."""
    with tarfile.open(image) as tar:
        manifests = read_json(tar, "manifest.json")
        assert isinstance(manifests, list) and len(manifests) == 1
        manifest = manifests[0]
        config = read_json(tar, manifest["Config"])
        layers = []
        for name in manifest["Layers"]:
            layer_file = tar.extractfile(name)
            assert layer_file is not None
            with tarfile.open(fileobj=layer_file) as layer:
                layers.append({m.name.removeprefix("./").removeprefix("/").rstrip("/"): m for m in layer})
    return manifest, config, layers


def test_the_manifest_names_the_image_and_one_config_and_its_layers(contents) -> None:
    manifest, config, layers = contents
    assert manifest["RepoTags"] == [f"omb-tx:{VERSION}"]
    assert config["os"] == "linux" and config["architecture"] == "amd64"
    assert len(config["rootfs"]["diff_ids"]) == len(manifest["Layers"]) == len(layers)


def test_the_config_runs_the_worker_from_the_distribution_as_a_user_without_privileges(contents) -> None:
    _, config, _ = contents
    settings = config["config"]
    assert settings["Entrypoint"] == [f"{HOME}/bin/benchmark-worker"]
    assert not settings.get("Cmd")
    assert settings["WorkingDir"] == HOME
    assert settings["User"] == "65532"
    assert set(settings["ExposedPorts"]) == {"8080/tcp", "8081/tcp"}
    env = dict(item.split("=", 1) for item in settings["Env"])
    assert env["OMBTX_HOME"] == HOME
    assert env["JAVA_HOME"]  # the base's, kept
    assert settings["Labels"]["org.opencontainers.image.version"] == VERSION


def sha256_of_layer(tarball: Path) -> str:
    with tarfile.open(tarball) as tar:
        manifest = read_json(tar, "manifest.json")[0]
        layer = tar.extractfile(manifest["Layers"][0])
        assert layer is not None
        digest = hashlib.sha256()
        for chunk in iter(lambda: layer.read(1 << 20), b""):
            digest.update(chunk)
    return "sha256:" + digest.hexdigest()


def test_the_base_layer_is_the_base_unchanged(contents, base: Path) -> None:
    _, config, _ = contents
    assert config["rootfs"]["diff_ids"][0] == sha256_of_layer(base)
    assert config["config"]["Labels"]["org.opencontainers.image.base.name"] == f"tar://{base}"


def test_the_layers_hold_bin_and_the_jars_where_bins_scripts_look_for_them(contents) -> None:
    _, _, layers = contents
    files = {path: member for layer in layers[1:] for path, member in layer.items()}
    home = HOME.lstrip("/")
    for script in ("benchmark", "benchmark-worker", "benchmark-suite", "kafka-local", "lib/common.sh"):
        member = files[f"{home}/bin/{script}"]
        assert member.mode & 0o755 == 0o755, f"bin/{script} is {oct(member.mode)}"
        assert member.uid == 0, f"bin/{script} belongs to {member.uid}: the user could change it"
    wanted = [
        f"runner/target/runner-{VERSION}.jar", "runner/target/lib/jackson-databind-2.19.0.jar",
        f"runner-kafka/target/runner-kafka-{VERSION}.jar", "runner-kafka/target/lib/kafka-clients-4.1.1.jar",
        f"kafka-broker/target/kafka-broker-{VERSION}.jar", "kafka-broker/target/broker-lib/kafka_2.13-4.1.1.jar",
        f"driver-kafka-tx/target/driver-kafka-tx-{VERSION}.jar", "driver-kafka-tx/kafka-tx.yaml",
        f"driver-redpanda-tx/target/driver-redpanda-tx-{VERSION}.jar", "driver-redpanda-tx/redpanda-tx.yaml",
        f"driver-aeron/target/driver-aeron-{VERSION}.jar", "workloads/tx-writes.yaml", "suites/kafka-seeds.yaml",
    ]
    missing = [path for path in wanted if f"{home}/{path}" not in files]
    assert not missing, missing
    unwanted = [path for path in files if path.endswith(("-tests.jar", "-sources.jar", ".java"))
                or "/src/" in path or path.endswith("pom.xml")]
    assert not unwanted, unwanted


def test_what_the_chart_runs_is_in_the_image(contents) -> None:
    _, _, layers = contents
    paths = {path for layer in layers for path in layer}
    # The worker and coordinator commands, the init container's bash and the results reader's sleep.
    for program in (f"{HOME}/bin/benchmark-worker", f"{HOME}/bin/benchmark", "/bin/bash", "/bin/sleep",
                    "/usr/bin/env"):
        assert program.lstrip("/") in paths, program


@pytest.mark.skipif(os.geteuid() != 0 or shutil.which("unshare") is None,
                    reason="running the image's file system needs root (chroot) and unshare")
def test_the_entrypoint_runs_in_the_images_file_system(image: Path, contents, tmp_path: Path) -> None:
    manifest, config, _ = contents
    root = tmp_path / "rootfs"
    root.mkdir()
    with tarfile.open(image) as tar:
        for name in manifest["Layers"]:
            layer = tar.extractfile(name)
            assert layer is not None
            with tarfile.open(fileobj=layer) as contents_of_layer:
                contents_of_layer.extractall(root, filter="fully_trusted")
    for mount_point in ("proc", "dev"):
        (root / mount_point).mkdir(exist_ok=True)
    settings = config["config"]
    env = ["/usr/bin/env", "-i", *settings["Env"]]
    user = settings["User"]
    command = " ".join([*env, *settings["Entrypoint"], "--help"])
    # What a runtime does: a fresh mount namespace with /proc and /dev, the working folder, the image's user.
    inside = f"cd {settings['WorkingDir']} && exec {command}"
    script = (f"mount -t proc proc {root}/proc && mount --bind /dev {root}/dev && "
              f"exec chroot --userspec={user}:{user} {root} /bin/bash -c '{inside}'")
    done = subprocess.run(["unshare", "--mount", "--fork", "sh", "-c", script], capture_output=True, text=True,
                          timeout=120, check=False)
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.startswith("Usage: bin/benchmark-worker"), done.stdout
