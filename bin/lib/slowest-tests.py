#!/usr/bin/env python3
"""The slowest test classes of the last Java build, read from the surefire and failsafe XML reports.

Usage: bin/lib/slowest-tests.py [-n COUNT] [--since EPOCH_SECONDS] [ROOT]

Reads MODULE/target/surefire-reports/TEST-*.xml and MODULE/target/failsafe-reports/TEST-*.xml under ROOT (the
checkout by default) and prints the COUNT (15) test classes that took longest, with their module and their tests'
count; a class with a failed or broken test is marked FAILED. bin/test prints this after its java and unit parts,
with --since the part's start, so that only the reports that run wrote count. Python 3 standard library only.
"""

from __future__ import annotations

import argparse
import sys
import xml.etree.ElementTree as ElementTree
from dataclasses import dataclass
from pathlib import Path

REPORT_GLOBS = ("target/surefire-reports/TEST-*.xml", "target/failsafe-reports/TEST-*.xml")


@dataclass(frozen=True)
class TestClass:
    module: str
    name: str
    seconds: float
    tests: int
    failed: bool


def number(text: str | None) -> float:
    """A report's figure; surefire writes "1234.5", older versions sometimes "1,234.5"."""
    try:
        return float((text or "0").replace(",", ""))
    except ValueError:
        return 0.0


def read_report(path: Path, module: str) -> TestClass | None:
    """The class a report is about, from its <testsuite> element alone (the rest may be long test output)."""
    try:
        for _, element in ElementTree.iterparse(path, events=("start",)):
            if element.tag != "testsuite":
                return None
            a = element.attrib
            return TestClass(
                module=module,
                name=a.get("name", path.stem.removeprefix("TEST-")),
                seconds=number(a.get("time")),
                tests=int(number(a.get("tests"))),
                failed=number(a.get("failures")) > 0 or number(a.get("errors")) > 0,
            )
    except (ElementTree.ParseError, OSError):
        return None  # a report being written, or cut short by a killed build
    return None


def find_classes(root: Path, since: float | None) -> list[TestClass]:
    classes: list[TestClass] = []
    # The modules sit one level down (pom.xml's <modules>); a report of the root project itself is taken too.
    for base in [root, *sorted(p for p in root.iterdir() if p.is_dir() and not p.name.startswith("."))]:
        for pattern in REPORT_GLOBS:
            for report in sorted(base.glob(pattern)):
                if since is not None and report.stat().st_mtime < since:
                    continue
                found = read_report(report, base.name if base != root else ".")
                if found is not None:
                    classes.append(found)
    return classes


def duration(seconds: float) -> str:
    return f"{seconds:6.1f} s" if seconds < 600 else f"{int(seconds // 60):3d} min {int(seconds % 60):02d} s"


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(
        prog="bin/lib/slowest-tests.py",
        description="The slowest test classes of the last Java build, from the surefire/failsafe XML reports.",
    )
    parser.add_argument("root", nargs="?", default=str(Path(__file__).resolve().parents[2]),
                        help="the checkout (default: this script's)")
    parser.add_argument("-n", "--count", type=int, default=15, help="how many classes to list (default 15)")
    parser.add_argument("--since", type=float, metavar="EPOCH_SECONDS",
                        help="only reports written at or after this time (bin/test: the part's start)")
    args = parser.parse_args(argv)
    root = Path(args.root)
    if not root.is_dir():
        print(f"slowest-tests: {root} is not a folder", file=sys.stderr)
        return 2
    classes = find_classes(root, args.since)
    if not classes:
        if args.since is not None:
            print("No test reports written by this run (the build stopped before the tests?)")
        else:
            print(f"No test reports under {root}/*/target/surefire-reports: run the Java tests first (bin/test unit)")
        return 0
    classes.sort(key=lambda c: c.seconds, reverse=True)
    total = sum(c.seconds for c in classes)
    shown = classes[: max(args.count, 0)]
    if len(classes) == 1:
        heading = "The one test class"
    elif len(shown) == len(classes):
        heading = f"All {len(classes)} test classes, slowest first"
    elif len(shown) == 1:
        heading = f"The slowest test class of {len(classes)}"
    else:
        heading = f"The {len(shown)} slowest test classes of {len(classes)}"
    print(f"{heading} ({duration(total).strip()} in all, from the test reports):")
    module_width = max(len(c.module) for c in shown) if shown else 0
    for c in shown:
        marks = f"{c.tests} test{'' if c.tests == 1 else 's'}" + (", FAILED" if c.failed else "")
        print(f"  {duration(c.seconds):>10}  {c.module:<{module_width}}  {c.name.rsplit('.', 1)[-1]} ({marks})")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
