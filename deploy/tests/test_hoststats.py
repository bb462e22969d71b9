"""Host figures: the sampler's lines from this machine's /proc, and each result's share of them written beside it."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path

from conftest import ANSIBLE_DIR

SAMPLER = ANSIBLE_DIR / "roles" / "hoststats" / "files" / "omb-tx-hoststats"
SUMMARY = ANSIBLE_DIR / "files" / "hoststats-summary"


def sample(time: str, busy: float, util: float) -> str:
    return json.dumps({"time": time, "host": "broker-1", "seconds": 5.0, "cpuBusyPercent": busy,
                       "cpuIowaitPercent": 1.0, "disks": {"nvme0n1": {"utilPercent": util, "readMBps": 0.0,
                                                                      "writeMBps": 10.0}},
                       "nics": {"ens5": {"rxMBps": 2.0, "txMBps": 4.0}}}) + "\n"


def test_a_result_gets_the_figures_of_the_samples_taken_while_it_ran(tmp_path: Path) -> None:
    results = tmp_path / "results"
    (results / "suite-run").mkdir(parents=True)
    (results / "host-stats" / "brokers").mkdir(parents=True)
    (results / "host-stats" / "brokers" / "broker-1.jsonl").write_text(
        sample("2026-11-23T03:00:02.000Z", 90.0, 99.0)      # middle 03:00:59.5 before the run
        + sample("2026-11-23T03:01:05.000Z", 40.0, 50.0)    # middle 03:01:02.5: in
        + sample("2026-11-23T03:01:10.000Z", 60.0, 70.0)    # middle 03:01:07.5: in
        + sample("2026-11-23T03:01:20.000Z", 95.0, 99.0)    # after
        + '{"time": "2026-11-23T03:01:2'                   # cut short while fetched
    )
    result = results / "suite-run" / "tx-writes-kafka.json"
    result.write_text(json.dumps({"workload": "tx-writes", "driver": "kafka-tx",
                                  "startTime": "2026-11-23T03:01:00.123456789Z",
                                  "endTime": "2026-11-23T03:01:10.000000001Z"}))
    (results / "suite-run" / "not-a-result.json").write_text("[]")
    done = subprocess.run([sys.executable, str(SUMMARY), str(results)], capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    lines = [json.loads(line) for line in (results / "suite-run" / "tx-writes-kafka.hosts.jsonl").read_text().splitlines()]
    assert lines == [{
        "host": "broker-1", "group": "brokers", "samples": 2,
        "cpuBusyPercent": {"mean": 50.0, "max": 60.0}, "cpuIowaitPercent": {"mean": 1.0, "max": 1.0},
        "disks": {"nvme0n1": {"utilPercent": {"mean": 60.0, "max": 70.0}, "readMBps": {"mean": 0.0, "max": 0.0},
                              "writeMBps": {"mean": 10.0, "max": 10.0}}},
        "nics": {"ens5": {"rxMBps": {"mean": 2.0, "max": 2.0}, "txMBps": {"mean": 4.0, "max": 4.0}}},
    }]
    assert not (results / "suite-run" / "not-a-result.hosts.jsonl").exists()


def test_the_sampler_writes_a_line_per_interval_from_proc(tmp_path: Path) -> None:
    out = tmp_path / "hoststats.jsonl"
    sampler = subprocess.Popen([sys.executable, str(SAMPLER), "--out", str(out), "--interval", "0.2", "--host", "h1"])
    try:
        for _ in range(100):
            if out.exists() and len(out.read_text().splitlines()) >= 2:
                break
            time.sleep(0.1)
    finally:
        sampler.terminate()
        sampler.wait(timeout=10)
    first = json.loads(out.read_text().splitlines()[0])
    assert first["host"] == "h1"
    assert 0 <= first["cpuBusyPercent"] <= 100 and 0 <= first["cpuIowaitPercent"] <= 100
    assert 0.1 < first["seconds"] < 5
    assert all(0 <= d["utilPercent"] <= 100 for d in first["disks"].values())
    assert "lo" not in first["nics"]
