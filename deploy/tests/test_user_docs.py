"""The user guide (README.md) and docs/*.md, read as a new user would follow them: every `bin/benchmark` and
`bin/benchmark-suite` command in their shell blocks plans without error (run with --dry-run, which touches no
broker), every other bin/ command they show exists, and every link between the Markdown files reaches a file and,
where it names one, a heading."""

from __future__ import annotations

import glob
import os
import re
import shlex
import subprocess
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from conftest import DEPLOY_DIR

REPO_DIR = DEPLOY_DIR.parent
GUIDES = [REPO_DIR / "README.md", *sorted((REPO_DIR / "docs").glob("*.md"))]
LINKED = GUIDES + sorted(REPO_DIR.glob("*/README.md"))
DRY_RUN = {"bin/benchmark", "bin/benchmark-suite"}


def commands(doc: Path) -> list[list[str]]:
    """The bin/ commands of a Markdown file's bash blocks, continuation lines joined and comments dropped; a
    planning command without its --dry-run, which the test adds (so a command shown both ways is planned once)."""
    found: list[list[str]] = []
    for block in re.findall(r"```bash\n(.*?)```", doc.read_text(), flags=re.S):
        for line in block.replace("\\\n", " ").splitlines():
            words = shlex.split(line, comments=True)
            if words and words[0] in DRY_RUN:
                words = [word for word in words if word != "--dry-run"]
            if words and words[0].startswith("bin/"):
                found.append(words)
    return found


def expanded(words: list[str]) -> list[str]:
    """The words as the shell would pass them from the repository's folder: globs expanded."""
    out: list[str] = []
    for word in words:
        matches = sorted(glob.glob(word, root_dir=REPO_DIR)) if any(c in word for c in "*?[") else []
        out += matches or [word]
    return out


ALL = sorted({(doc.relative_to(REPO_DIR).as_posix(), shlex.join(words)) for doc in GUIDES for words in commands(doc)})
PLANNED = [(doc, line) for doc, line in ALL if shlex.split(line)[0] in DRY_RUN]
OTHERS = [(doc, line) for doc, line in ALL if shlex.split(line)[0] not in DRY_RUN]


def test_the_guides_show_commands_of_both_kinds() -> None:
    assert len(PLANNED) >= 10 and OTHERS, ALL
    readme = [line for doc, line in ALL if doc == "README.md"]
    assert "bin/test" in readme
    assert any(line.startswith("bin/benchmark --drivers driver-kafka-tx/kafka-tx.yaml") for line in readme), readme


def test_every_benchmark_command_plans_without_error() -> None:
    # The same command shown twice is planned once; two at a time, since each is a JVM start (about 2 s).
    lines = sorted({line for _, line in PLANNED})

    def plan(line: str) -> tuple[str, subprocess.CompletedProcess[str]]:
        words = expanded(shlex.split(line))
        argv = [str(REPO_DIR / words[0]), "--dry-run", *words[1:]]
        return line, subprocess.run(argv, cwd=REPO_DIR, capture_output=True, text=True, timeout=600, check=False)

    with ThreadPoolExecutor(max_workers=2) as pool:
        results = list(pool.map(plan, lines))
    failed = [f"{line}\n  exit {done.returncode}: {(done.stderr or done.stdout)[-600:]}"
              for line, done in results if done.returncode != 0]
    assert not failed, "\n".join(failed)


@pytest.mark.parametrize(("doc", "line"), OTHERS, ids=[f"{doc}: {line}" for doc, line in OTHERS])
def test_every_other_bin_command_is_an_executable_of_the_repository(doc: str, line: str) -> None:
    program = REPO_DIR / shlex.split(line)[0]
    assert program.is_file() and os.access(program, os.X_OK), f"{doc}: {line}"


def slug(heading: str) -> str:
    """GitHub's anchor for a heading: lower case, punctuation dropped but hyphens, spaces as hyphens."""
    text = re.sub(r"[`*_]|\[([^\]]*)\]\([^)]*\)", lambda m: m.group(1) or "", heading.strip().lower())
    return re.sub(r"[^\w\- ]", "", text).replace(" ", "-")


def anchors(doc: Path) -> set[str]:
    prose = re.sub(r"```.*?```", "", doc.read_text(), flags=re.S)
    return {slug(m) for m in re.findall(r"^#+ (.+)$", prose, flags=re.M)}


def links(doc: Path) -> list[str]:
    prose = re.sub(r"```.*?```", "", doc.read_text(), flags=re.S)
    return [target for target in re.findall(r"\]\(([^)\s]+)\)", prose) if not re.match(r"[a-z]+:", target)]


@pytest.mark.parametrize("doc", LINKED, ids=[doc.relative_to(REPO_DIR).as_posix() for doc in LINKED])
def test_every_link_reaches_its_file_and_heading(doc: Path) -> None:
    broken = []
    for target in links(doc):
        path, _, anchor = target.partition("#")
        file = (doc.parent / path).resolve() if path else doc
        if not file.exists():
            broken.append(f"{target}: no such file")
        elif anchor and file.suffix == ".md" and anchor not in anchors(file):
            broken.append(f"{target}: no heading '{anchor}' in {file.relative_to(REPO_DIR)}")
    assert not broken, broken
