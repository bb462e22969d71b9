"""The Kubernetes tools the chart's tests use, built from the Go module proxy on first use and cached under
~/.cache/omb-tx/k8s-tools (OMBTX_K8S_TOOLS=DIR: another folder):

- helm, at the pinned release below, with the version information its own Makefile links in (without it `helm
  template` would take the cluster for Kubernetes 1.20);
- k8scheck (deploy/kubernetes/tests/k8scheck), which decodes rendered objects strictly into Kubernetes' Go types,
  at the module versions its go.mod and go.sum pin.

Each is built once per version (and, for k8scheck, per content of its sources) with the Go toolchain on PATH.
Run as a script it prints their paths: python3 deploy/tests/k8s_tools.py
"""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import sys
from pathlib import Path

REPO_DIR = Path(__file__).resolve().parent.parent.parent
CHECKER_DIR = REPO_DIR / "deploy" / "kubernetes" / "tests" / "k8scheck"

HELM_MODULE = "helm.sh/helm/v3"
HELM_VERSION = "v3.21.4"
# The Kubernetes release helm v3.21.4's client-go (v0.36) belongs to: what `helm template` and `helm lint` assume.
HELM_KUBE_MAJOR, HELM_KUBE_MINOR = "1", "36"


class ToolError(RuntimeError):
    """A tool could not be built; the message says why and what to install."""


def cache_dir() -> Path:
    configured = os.environ.get("OMBTX_K8S_TOOLS")
    return Path(configured) if configured else Path.home() / ".cache" / "omb-tx" / "k8s-tools"


def go() -> str:
    found = shutil.which("go")
    if found is None:
        raise ToolError("the chart's tests build helm and k8scheck with Go (1.24 or newer), which is not on PATH")
    return found


def build(argv: list[str], *, cwd: Path, env: dict[str, str]) -> None:
    done = subprocess.run(argv, cwd=cwd, env=env, capture_output=True, text=True, timeout=1200, check=False)
    if done.returncode != 0:
        raise ToolError(f"{' '.join(argv)} failed:\n{done.stdout[-2000:]}{done.stderr[-4000:]}")


def go_env(**extra: str) -> dict[str, str]:
    env = dict(os.environ)
    env.update({"CGO_ENABLED": "0", **extra})
    env.pop("GOFLAGS", None)
    return env


def helm() -> Path:
    """The pinned helm, built now if it is not cached."""
    target = cache_dir() / f"helm-{HELM_VERSION}" / "helm"
    if target.is_file():
        return target
    target.parent.mkdir(parents=True, exist_ok=True)
    stamp = [
        f"-X {HELM_MODULE}/internal/version.version={HELM_VERSION}",
        f"-X {HELM_MODULE}/pkg/chartutil.k8sVersionMajor={HELM_KUBE_MAJOR}",
        f"-X {HELM_MODULE}/pkg/chartutil.k8sVersionMinor={HELM_KUBE_MINOR}",
        f"-X {HELM_MODULE}/pkg/lint/rules.k8sVersionMajor={HELM_KUBE_MAJOR}",
        f"-X {HELM_MODULE}/pkg/lint/rules.k8sVersionMinor={HELM_KUBE_MINOR}",
    ]
    # go install with a version resolves helm's own go.mod and go.sum, checked against the checksum database.
    build([go(), "install", "-trimpath", "-ldflags", " ".join(["-s", "-w", *stamp]),
           f"{HELM_MODULE}/cmd/helm@{HELM_VERSION}"],
          cwd=cache_dir(), env=go_env(GOBIN=str(target.parent), GOFLAGS="-mod=mod"))
    return target


def k8scheck() -> Path:
    """k8scheck built from this checkout's sources, if these exact sources have not been built before."""
    digest = hashlib.sha256()
    for name in ("go.mod", "go.sum", "main.go"):
        digest.update((CHECKER_DIR / name).read_bytes())
    target = cache_dir() / f"k8scheck-{digest.hexdigest()[:16]}" / "k8scheck"
    if target.is_file():
        return target
    target.parent.mkdir(parents=True, exist_ok=True)
    build([go(), "build", "-trimpath", "-mod=readonly", "-o", str(target), "."], cwd=CHECKER_DIR, env=go_env())
    return target


if __name__ == "__main__":
    try:
        print(helm())
        print(k8scheck())
    except ToolError as e:
        sys.exit(f"k8s_tools: {e}")
