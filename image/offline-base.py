#!/usr/bin/env python3
"""Builds a JRE base image from Debian packages, for building omb-tx's image where no container registry is reachable.

The image's real base is a pinned eclipse-temurin JRE, pulled from Docker Hub by Jib (image/pom.xml). A machine that
reaches only package registries cannot pull it, so this script makes a stand-in from Debian's own packages, fetched
with apt-get download (Debian's archive is a package registry): OpenJDK 17's headless JRE, the C and C++ runtimes it
links against, and bash, coreutils and findutils, which bin/'s scripts need. Each package's files are copied from
its .deb (dpkg-deb --fsys-tarfile) into one layer, as root-owned files with a fixed time; no maintainer script runs,
so what those would make is added here: /usr/bin/java, /tmp, a passwd and group file with the image's user (65532),
and the JRE's trust store left out (its cacerts link points at a file no package ships; TLS to a broker needs a
trust store of its own, which a driver YAML names). The result is a `docker save` tarball that Jib reads as
`tar://PATH`; the packages' versions are in its labels.

Usage: image/offline-base.py [--output FILE] [--print-packages]
Prints the tarball's path. Without --output it is kept under ~/.cache/omb-tx/image-base/, named after the exact
.deb files apt would fetch, so it is built once per Debian update.
"""

from __future__ import annotations

import argparse
import hashlib
import io
import json
import os
import shutil
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path

# The headless JRE and what its JVM and bin/'s scripts load (ldd of libjvm.so, java, bash, ls, find): nothing for
# AWT, sound or printing, which a benchmark never touches.
PACKAGES = [
    "openjdk-17-jre-headless",
    "libc6",
    "libgcc-s1",
    "libstdc++6",
    "zlib1g",
    "bash",
    "libtinfo6",
    "coreutils",
    "libacl1",
    "libattr1",
    "libgmp10",
    "libselinux1",
    "libpcre2-8-0",
    "findutils",
]
JAVA_HOME = "/usr/lib/jvm/java-17-openjdk-amd64"
USER_ID = 65532
# Files of the packages a container never reads.
SKIPPED_PREFIXES = ("./usr/share/doc/", "./usr/share/man/", "./usr/share/info/", "./usr/share/lintian/",
                    "./usr/share/locale/")
FIXED_TIME = 0


def uris() -> list[tuple[str, str, int, str]]:
    """What apt-get would download: (uri, file name, size, checksum) per package, without downloading."""
    done = subprocess.run(["apt-get", "download", "--print-uris", *PACKAGES], capture_output=True, text=True,
                          check=False)
    if done.returncode != 0:
        sys.exit(f"offline-base: apt-get download --print-uris failed (run apt-get update?): {done.stderr.strip()}")
    found = []
    for line in done.stdout.splitlines():
        uri, name, size, checksum = line.split()
        found.append((uri.strip("'"), name, int(size), checksum))
    if len(found) != len(PACKAGES):
        sys.exit(f"offline-base: apt found {len(found)} of the {len(PACKAGES)} packages: {done.stdout}")
    return found


def normalised(member: tarfile.TarInfo) -> tarfile.TarInfo:
    member.uid = member.gid = 0
    member.uname = member.gname = "root"
    member.mtime = FIXED_TIME
    return member


def add_file(layer: tarfile.TarFile, name: str, text: str, mode: int = 0o644) -> None:
    data = text.encode()
    info = normalised(tarfile.TarInfo(name))
    info.size, info.mode = len(data), mode
    layer.addfile(info, io.BytesIO(data))


def add_special(layer: tarfile.TarFile, name: str, kind: bytes, mode: int, target: str = "") -> None:
    info = normalised(tarfile.TarInfo(name))
    info.type, info.mode, info.linkname = kind, mode, target
    layer.addfile(info)


def write_layer(debs: list[Path], layer_path: Path) -> None:
    """One layer holding every package's files; a folder shared by several packages appears once."""
    seen: set[str] = set()
    with tarfile.open(layer_path, "w", format=tarfile.GNU_FORMAT) as layer:
        for deb in debs:
            fsys = subprocess.run(["dpkg-deb", "--fsys-tarfile", str(deb)], capture_output=True, check=True).stdout
            with tarfile.open(fileobj=io.BytesIO(fsys)) as source:
                for member in source:
                    name = member.name if member.name.startswith("./") else "./" + member.name
                    if name.startswith(SKIPPED_PREFIXES) or name.rstrip("/") in seen:
                        continue
                    seen.add(name.rstrip("/"))
                    member.name = name
                    if member.islnk() and not member.linkname.startswith("./"):
                        member.linkname = "./" + member.linkname
                    data = source.extractfile(member) if member.isfile() else None
                    layer.addfile(normalised(member), data)
        # What the packages' maintainer scripts would have made.
        add_special(layer, "./usr/bin/java", tarfile.SYMTYPE, 0o777, f"..{JAVA_HOME.removeprefix('/usr')}/bin/java")
        if "./tmp" not in seen:
            add_special(layer, "./tmp", tarfile.DIRTYPE, 0o1777)
        add_file(layer, "./etc/passwd",
                 f"root:x:0:0:root:/root:/bin/bash\nombtx:x:{USER_ID}:{USER_ID}:omb-tx:/tmp:/usr/sbin/nologin\n")
        add_file(layer, "./etc/group", f"root:x:0:\nombtx:x:{USER_ID}:\n")
        add_file(layer, "./etc/nsswitch.conf", "passwd: files\ngroup: files\nhosts: files dns\n")


def sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            digest.update(chunk)
    return digest.hexdigest()


def build(output: Path, found: list[tuple[str, str, int, str]]) -> None:
    with tempfile.TemporaryDirectory(prefix="omb-tx-base-") as scratch:
        work = Path(scratch)
        subprocess.run(["apt-get", "download", "-q", *PACKAGES], cwd=work, check=True, stdout=subprocess.DEVNULL)
        debs = [work / name for _, name, _, _ in found]
        layer = work / "layer.tar"
        write_layer(debs, layer)
        diff_id = sha256(layer)
        config = {
            "architecture": "amd64",
            "os": "linux",
            "created": "1970-01-01T00:00:00Z",
            "config": {
                "Env": [
                    "PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin",
                    f"JAVA_HOME={JAVA_HOME}",
                    "LANG=C.UTF-8",
                ],
                "Labels": {
                    "io.ombtx.base": "Debian packages, built by image/offline-base.py",
                    "io.ombtx.base.packages": " ".join(name.removesuffix(".deb") for _, name, _, _ in found),
                },
            },
            "rootfs": {"type": "layers", "diff_ids": [f"sha256:{diff_id}"]},
            "history": [{"created": "1970-01-01T00:00:00Z", "created_by": "image/offline-base.py"}],
        }
        config_bytes = json.dumps(config, sort_keys=True).encode()
        config_name = hashlib.sha256(config_bytes).hexdigest() + ".json"
        manifest = [{"Config": config_name, "RepoTags": ["omb-tx-offline-base:latest"],
                     "Layers": [f"{diff_id}/layer.tar"]}]
        partial = output.with_name(output.name + ".partial")
        with tarfile.open(partial, "w", format=tarfile.GNU_FORMAT) as image:
            image.add(layer, arcname=f"{diff_id}/layer.tar", filter=normalised)
            for name, data in ((config_name, config_bytes), ("manifest.json", json.dumps(manifest).encode())):
                info = normalised(tarfile.TarInfo(name))
                info.size, info.mode = len(data), 0o644
                image.addfile(info, io.BytesIO(data))
        os.replace(partial, output)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--output", type=Path, help="the tarball to write (default: a cached one, reused)")
    parser.add_argument("--print-packages", action="store_true", help="list the .deb files it would use and exit")
    args = parser.parse_args()
    if shutil.which("apt-get") is None or shutil.which("dpkg-deb") is None:
        sys.exit("offline-base: needs apt-get and dpkg-deb (Debian or Ubuntu)")
    found = uris()
    if args.print_packages:
        print("\n".join(name for _, name, _, _ in found))
        return
    output = args.output
    if output is None:
        key = hashlib.sha256("\n".join(f"{name} {checksum}" for _, name, _, checksum in found).encode()).hexdigest()
        cache = Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache")) / "omb-tx" / "image-base"
        cache.mkdir(parents=True, exist_ok=True)
        output = cache / f"debian-openjdk17-{key[:16]}.tar"
        if output.exists():
            print(output)
            return
    output.parent.mkdir(parents=True, exist_ok=True)
    build(output, found)
    print(output)


if __name__ == "__main__":
    main()
