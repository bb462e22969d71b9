"""Command line: bin/charts RESULTS... --out DIR."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

from .loader import ResultError, find_result_files, load_result
from .model import Result

EXIT_OK = 0
EXIT_BAD_INPUT = 2

_DESCRIPTION = """\
Render charts and a report from benchmark result JSON: omb-tx's (docs/result-format.md) and
stock OpenMessaging Benchmark's (only OMB's fields: its latency and time-series charts are drawn,
and the sections that need omb-tx's fields say that the inputs have none).

Writes into --out (the report opens with a table of the runs, then their latency charts):
  latency-*.png             latency by percentile (HdrHistogram style), one chart per workload
  phases-*.png              transaction phases (begin/send/resolve/sendOffsets/commit), drivers side by side
  overhead-*.png            tx ÷ base ratios (tx-writes/base-writes, tx-streaming/base-streaming) per driver
  sweep-*.png               rate sweeps: end-to-end p25..p99.9 against target rate, log-log
  timeseries-*.png          rates and latency per reporting period, one per result file
  report.md, index.html     every table (seed 001/002/004 forms) and figure, captioned with how
                            each run was obtained (loop mode, counts, rate, brokers, versions, status);
                            last, the seed study (see --findings)
"""

_EPILOG = """\
exit status: 0 on success; 2 when an input is missing, is not valid JSON, is not a result
(e.g. "results/x.json: not an OMB/omb-tx result: missing 'workload'"), or no results were found.

examples:
  bin/charts results/ --out report/
  bin/charts results/tx-writes-*.json results/base-writes-*.json --out report/writes
  bin/charts results/ --out report/ --skip-invalid
  bin/charts results/findings/ --out report/ --findings
"""


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="bin/charts",
        description=_DESCRIPTION,
        epilog=_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument(
        "results",
        nargs="+",
        metavar="RESULTS",
        help="result JSON files, and/or folders searched recursively for *.json",
    )
    parser.add_argument(
        "-o",
        "--out",
        required=True,
        metavar="DIR",
        type=Path,
        help="folder to write the PNGs, report.md and index.html into (created if missing; "
        "files of the same name are replaced)",
    )
    parser.add_argument(
        "--findings",
        action=argparse.BooleanOptionalAction,
        default=None,
        help="add (--findings) or leave out (--no-findings) the seed study: the seeds' published figures judged "
        "against these results, Kafka since the seeds, the transports beside seed 004, as the report's last "
        "section. Default: added only when the results hold one of the seeds' comparisons (a tx run with its base "
        "run, back-off default with 0, durable with yolo, bulk-tx with bulk-acks-all, Kafka with Redpanda, an "
        "rps-sweep) or a scenario on two Kafka releases; else the report says in one line that it was left out",
    )
    parser.add_argument(
        "--skip-invalid",
        action="store_true",
        help="report files that are not results as warnings and chart the valid ones "
        "(default: any invalid file stops the run with exit status 2)",
    )
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        paths = find_result_files(args.results)
    except ResultError as error:
        return _fail([str(error)])
    if not paths:
        return _fail([f"no result files (*.json) found in: {', '.join(args.results)}"])

    results: list[Result] = []
    problems: list[str] = []
    for path in paths:
        try:
            results.append(load_result(path))
        except ResultError as error:
            problems.append(str(error))
    if problems and not args.skip_invalid:
        return _fail(problems + ["(use --skip-invalid to chart the valid files anyway)"])
    for problem in problems:
        print(f"bin/charts: skipping {problem}", file=sys.stderr)
    if not results:
        return _fail(["no valid results to chart"])

    # Imported here so that argument and input errors are reported without loading matplotlib.
    from .report import build_report
    from .writers import write_html, write_markdown

    report = build_report(results, args.out, warnings=problems, findings=args.findings)
    write_markdown(report, args.out / "report.md")
    write_html(report, args.out / "index.html")
    print(
        f"bin/charts: {len(results)} result(s) -> {len(report.figures)} figure(s), "
        f"{len(report.tables)} table(s) in {args.out}/ (report.md, index.html)"
    )
    return EXIT_OK


def _fail(messages: Sequence[str]) -> int:
    for message in messages:
        print(f"bin/charts: {message}", file=sys.stderr)
    return EXIT_BAD_INPUT
