"""The Helm chart (deploy/kubernetes/helm/omb-tx), checked without a cluster.

`helm lint --strict` and `helm template` with the pinned helm; every rendered object decoded strictly into
Kubernetes' own Go types by k8scheck (an unknown or misspelt field fails); the objects fit together (the headless
Service selects the worker pods, every mount names a volume and every volume a rendered ConfigMap, Secret or claim);
and the coordinator Job's command is the one that runs: the test starts two bin/benchmark-worker processes with the
StatefulSet's own command line, and runs the Job's bin/benchmark command line against them and a local Kafka broker,
with only the pods' paths and the workers' addresses mapped to this machine's.
"""

from __future__ import annotations

import base64
import json
import os
import socket
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
import yaml

from conftest import DEPLOY_DIR
from k8s_tools import ToolError, helm, k8scheck

REPO_DIR = DEPLOY_DIR.parent
CHART = DEPLOY_DIR / "kubernetes" / "helm" / "omb-tx"
EXAMPLES = {"default": [], "strimzi": ["-f", str(CHART / "values-strimzi.yaml")]}
NAMESPACE = "bench"
TOKEN = "k8s-chart-test-token-4d1f9a"
IMAGE_HOME = "/opt/omb-tx"


@pytest.fixture(scope="module")
def tools() -> tuple[Path, Path]:
    try:
        return helm(), k8scheck()
    except ToolError as e:
        pytest.fail(str(e))


def render(tools: tuple[Path, Path], *args: str, release: str = "omb-tx") -> list[dict]:
    done = subprocess.run([str(tools[0]), "template", release, str(CHART), "--namespace", NAMESPACE, *args],
                          capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    return [doc for doc in yaml.safe_load_all(done.stdout) if doc]


def strictly_decoded(tools: tuple[Path, Path], objects: list[dict]) -> list[str]:
    text = "\n---\n".join(yaml.safe_dump(obj, sort_keys=False) for obj in objects)
    done = subprocess.run([str(tools[1])], input=text, capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 0, done.stderr
    return done.stdout.split()


def by_kind(objects: list[dict], kind: str) -> list[dict]:
    return [obj for obj in objects if obj["kind"] == kind]


def one(objects: list[dict], kind: str) -> dict:
    found = by_kind(objects, kind)
    assert len(found) == 1, f"{len(found)} {kind} objects"
    return found[0]


@pytest.mark.parametrize("example", EXAMPLES)
def test_the_chart_lints_strictly(tools: tuple[Path, Path], example: str) -> None:
    done = subprocess.run([str(tools[0]), "lint", "--strict", str(CHART), *EXAMPLES[example]],
                          capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0, done.stdout + done.stderr


@pytest.mark.parametrize("example", EXAMPLES)
def test_every_rendered_object_decodes_strictly_into_kubernetes_types(tools: tuple[Path, Path], example: str) -> None:
    objects = render(tools, *EXAMPLES[example])
    checked = strictly_decoded(tools, objects)
    assert sorted(checked) == sorted([
        "Secret/omb-tx-token", "ConfigMap/omb-tx-driver", "ConfigMap/omb-tx-workload",
        "PersistentVolumeClaim/omb-tx-results", "Service/omb-tx-worker", "StatefulSet/omb-tx-worker",
        "Job/omb-tx-coordinator-1",
    ])


def test_the_checker_rejects_a_field_kubernetes_does_not_know(tools: tuple[Path, Path]) -> None:
    objects = render(tools)
    one(objects, "StatefulSet")["spec"]["template"]["spec"]["containers"][0]["resource"] = {}
    text = "\n---\n".join(yaml.safe_dump(obj) for obj in objects)
    done = subprocess.run([str(tools[1])], input=text, capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 1
    assert 'unknown field "spec.template.spec.containers[0].resource"' in done.stderr, done.stderr


def test_the_optional_objects_decode_strictly_too(tools: tuple[Path, Path], tmp_path: Path) -> None:
    # Metrics with a ServiceMonitor, the results reader, a Secret and a claim of one's own, and Strimzi's TLS
    # listener's CA mounted as values-strimzi.yaml describes it.
    ca = {"extraVolumes": [{"name": "kafka-ca", "secret": {"secretName": "my-cluster-cluster-ca-cert"}}],
          "extraVolumeMounts": [{"name": "kafka-ca", "mountPath": "/etc/omb-tx/kafka-ca", "readOnly": True}]}
    values = tmp_path / "values.yaml"
    values.write_text(yaml.safe_dump({
        "metrics": {"enabled": True, "serviceMonitor": {"enabled": True, "labels": {"release": "prometheus"}}},
        "results": {"reader": {"enabled": True}, "persistence": {"existingClaim": "my-results"}},
        "token": {"existingSecret": "my-token", "key": "worker-token"},
        "workers": ca, "coordinator": {**ca, "ttlSecondsAfterFinished": 3600, "extraArgs": ["--repeat", "2"]},
    }))
    objects = render(tools, "-f", str(CHART / "values-strimzi.yaml"), "-f", str(values))
    checked = strictly_decoded(tools, objects)
    assert "ServiceMonitor/omb-tx-worker" in checked and "Pod/omb-tx-results" in checked
    assert not by_kind(objects, "Secret") and not by_kind(objects, "PersistentVolumeClaim")
    monitor = one(objects, "ServiceMonitor")["spec"]["endpoints"][0]
    assert monitor["authorization"]["credentials"] == {"name": "my-token", "key": "worker-token"}
    worker = one(objects, "StatefulSet")["spec"]["template"]["spec"]
    assert worker["containers"][0]["args"][-2:] == ["--metrics-port", "8081"]
    assert {"name": "metrics", "containerPort": 8081} in worker["containers"][0]["ports"]
    assert one(objects, "Service")["spec"]["ports"][1]["name"] == "metrics"
    job = one(objects, "Job")["spec"]["template"]["spec"]
    assert [v["persistentVolumeClaim"]["claimName"] for v in job["volumes"] if "persistentVolumeClaim" in v] == [
        "my-results"]


def test_a_misspelt_value_is_refused(tools: tuple[Path, Path]) -> None:
    done = subprocess.run([str(tools[0]), "template", "omb-tx", str(CHART), "--set", "workers.replica=3"],
                          capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode != 0
    assert "additional properties 'replica' not allowed" in done.stderr, done.stderr


def test_a_short_token_is_refused(tools: tuple[Path, Path]) -> None:
    done = subprocess.run([str(tools[0]), "template", "omb-tx", str(CHART), "--set", "token.value=too-short"],
                          capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode != 0
    assert "token.value must be at least 16 printable characters" in done.stderr, done.stderr


def test_a_long_release_name_still_gives_valid_names(tools: tuple[Path, Path]) -> None:
    # Helm's longest release name (53): names are cut so that a worker's host name (NAME-worker-NN) stays a DNS label.
    release = "a-release-name-long-enough-to-need-cutting-" + "x" * 10
    objects = render(tools, "--set", "workers.replicas=12", release=release)
    checked = strictly_decoded(tools, objects)
    assert "StatefulSet/a-release-name-long-enough-to-need-cutti-worker" in checked
    job = one(objects, "Job")["spec"]["template"]["spec"]["containers"][0]["args"]
    urls = job[job.index("--workers") + 1].split(",")
    assert len(urls) == 12 and all(len(url.split("//")[1].split(".")[0]) <= 63 for url in urls)


@pytest.mark.parametrize("example", EXAMPLES)
def test_the_objects_fit_together(tools: tuple[Path, Path], example: str) -> None:
    objects = render(tools, *EXAMPLES[example])
    service, workers, job = one(objects, "Service"), one(objects, "StatefulSet"), one(objects, "Job")
    assert service["spec"]["clusterIP"] == "None"
    assert workers["spec"]["serviceName"] == service["metadata"]["name"]
    pod_labels = workers["spec"]["template"]["metadata"]["labels"]
    assert service["spec"]["selector"].items() <= pod_labels.items()
    assert workers["spec"]["selector"]["matchLabels"].items() <= pod_labels.items()
    names = {(obj["kind"], obj["metadata"]["name"]) for obj in objects}
    for pod in (workers["spec"]["template"]["spec"], job["spec"]["template"]["spec"]):
        volumes = {volume["name"]: volume for volume in pod["volumes"]}
        for container in pod.get("initContainers", []) + pod["containers"]:
            for mount in container.get("volumeMounts", []):
                assert mount["name"] in volumes, mount
        for volume in volumes.values():
            if "configMap" in volume:
                assert ("ConfigMap", volume["configMap"]["name"]) in names
            if "secret" in volume:
                assert ("Secret", volume["secret"]["secretName"]) in names
            if "persistentVolumeClaim" in volume:
                assert ("PersistentVolumeClaim", volume["persistentVolumeClaim"]["claimName"]) in names
        assert pod["securityContext"]["runAsNonRoot"] is True
    # The workers listen beyond loopback only because they have a token.
    args = workers["spec"]["template"]["spec"]["containers"][0]["args"]
    assert args[args.index("--bind-address") + 1] == "0.0.0.0" and "--token-file" in args


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def env_of(container: dict) -> dict[str, str]:
    return {item["name"]: item["value"] for item in container.get("env", [])}


def wait_for_port(port: int, process: subprocess.Popen, log: Path, seconds: float = 90) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        assert process.poll() is None, f"the worker exited: {log.read_text()[-2000:]}"
        with socket.socket() as s:
            if s.connect_ex(("127.0.0.1", port)) == 0:
                return
        time.sleep(0.2)
    pytest.fail(f"no worker on port {port} after {seconds} s: {log.read_text()[-2000:]}")


@pytest.fixture()
def kafka(tmp_path: Path) -> Iterator[str]:
    """A real Kafka broker on loopback (bin/kafka-local), stopped afterwards."""
    env = {**os.environ, "OMBTX_STATE_DIR": str(tmp_path / "kafka-local")}
    started = subprocess.run([str(REPO_DIR / "bin" / "kafka-local"), "start"], env=env, capture_output=True,
                             text=True, timeout=600, check=False)
    assert started.returncode == 0, started.stdout + started.stderr
    try:
        state = json.loads((tmp_path / "kafka-local" / "kafka-local.json").read_text())
        yield state["bootstrapServers"]
    finally:
        subprocess.run([str(REPO_DIR / "bin" / "kafka-local"), "stop"], env=env, capture_output=True, timeout=120,
                       check=False)


def test_the_job_command_runs_against_two_workers_started_as_the_statefulset_starts_them(
    tools: tuple[Path, Path], kafka: str, tmp_path: Path
) -> None:
    # The chart's defaults but for the cluster, a token, smaller heaps and the quick profile.
    values = tmp_path / "values.yaml"
    values.write_text(yaml.safe_dump({
        "kafka": {"bootstrapServers": kafka}, "token": {"value": TOKEN},
        "workers": {"javaOpts": "-Xms128m -Xmx384m -XX:+UseSerialGC"},
        "coordinator": {"javaOpts": "-Xms128m -Xmx384m -XX:+UseSerialGC", "extraArgs": ["--profile", "quick"]},
    }))
    objects = render(tools, "-f", str(values))
    strictly_decoded(tools, objects)
    workers = one(objects, "StatefulSet")
    job = one(objects, "Job")["spec"]["template"]
    replicas = workers["spec"]["replicas"]
    assert replicas == 2

    # The pods' files, written where the test's processes read them: each mounted ConfigMap key and the Secret.
    pod_dir = tmp_path / "pod"
    paths: dict[str, str] = {}
    for config_map in by_kind(objects, "ConfigMap"):
        for key, text in config_map["data"].items():
            local = pod_dir / config_map["metadata"]["name"] / key
            local.parent.mkdir(parents=True, exist_ok=True)
            local.write_text(text)
            mount = next(m for c in job["spec"]["containers"] for m in c["volumeMounts"]
                         if any(v["name"] == m["name"] and v.get("configMap", {}).get("name") ==
                                config_map["metadata"]["name"] for v in job["spec"]["volumes"]))
            paths[f"{mount['mountPath']}/{key}"] = str(local)
    secret = one(objects, "Secret")
    token_file = pod_dir / "token"
    token_file.write_text(base64.b64decode(secret["data"]["token"]).decode())
    paths["/var/run/secrets/omb-tx/token"] = str(token_file)
    results = tmp_path / "results"
    paths["/results"] = str(results)

    def local(word: str) -> str:
        """A word of a pod's command line as this machine needs it: image paths → the checkout, mounts → files."""
        if word in paths:
            return paths[word]
        if word.startswith(IMAGE_HOME + "/"):
            return str(REPO_DIR / word.removeprefix(IMAGE_HOME + "/"))
        return word

    # Two workers, each with the StatefulSet's command line; its port and bind address mapped to loopback ports.
    container = workers["spec"]["template"]["spec"]["containers"][0]
    stable_urls = [f"http://omb-tx-worker-{i}.omb-tx-worker.{NAMESPACE}.svc.cluster.local:8080"
                   for i in range(replicas)]
    ports = [free_port() for _ in range(replicas)]
    processes: list[subprocess.Popen] = []
    try:
        for i, port in enumerate(ports):
            argv = [local(word) for word in container["command"] + container["args"]]
            argv[argv.index("--port") + 1] = str(port)
            argv[argv.index("--bind-address") + 1] = "127.0.0.1"
            log = tmp_path / f"worker-{i}.log"
            with log.open("w") as out:
                processes.append(subprocess.Popen(argv, env={**os.environ, **env_of(container), "HOME": str(tmp_path)},
                                                  stdout=out, stderr=subprocess.STDOUT))
        for port, process, i in zip(ports, processes, range(replicas)):
            wait_for_port(port, process, tmp_path / f"worker-{i}.log")

        # The init container's wait, as the Job runs it, for the first worker.
        wait = job["spec"]["initContainers"][0]
        done = subprocess.run(wait["command"], env={**os.environ, "WORKER_HOSTS": "127.0.0.1",
                                                    "WORKER_PORT": str(ports[0])},
                              capture_output=True, text=True, timeout=60, check=False)
        assert done.returncode == 0 and f"worker 127.0.0.1:{ports[0]} is up" in done.stdout, done.stderr

        # The coordinator: the Job's command line, the workers' stable names mapped to the local ones.
        coordinator = job["spec"]["containers"][0]
        argv = coordinator["command"] + coordinator["args"]
        assert argv[argv.index("--workers") + 1] == ",".join(stable_urls)
        argv[argv.index("--workers") + 1] = ",".join(f"http://127.0.0.1:{port}" for port in ports)
        argv = [local(word) for word in argv]
        assert argv[0] == str(REPO_DIR / "bin" / "benchmark")
        run = subprocess.run(argv, env={**os.environ, **env_of(coordinator), "HOME": str(tmp_path)},
                             capture_output=True, text=True, timeout=600, check=False)
        assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-3000:]
    finally:
        for process in processes:
            process.terminate()
        for process in processes:
            try:
                process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                process.kill()

    written = sorted(results.glob("*.json"))
    assert len(written) == 1, written
    result = json.loads(written[0].read_text())
    assert (result["workload"], result["driver"], result["status"]) == ("tx-writes", "kafka-tx", "complete")
    assert result["counts"]["operations"] == 300 and result["counts"]["committed"] == 300
    assert result["counts"]["fatalErrors"] == 0
