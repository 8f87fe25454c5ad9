"""A short form of `make load` (bench/load.py): a second process loads a platform of its own on loopback."""

from __future__ import annotations

import json
import subprocess
import sys

from tests.e2e.conftest import ROOT


def test_load_past_reserved_concurrency_loses_nothing_and_times_nothing_out():
    done = subprocess.run(
        [
            sys.executable,
            "bench/load.py",
            "--people",
            "8",
            "--callers",
            "20",
            "--writes",
            "8",
            "--no-results",
            "--json",
        ],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=600,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    figures = json.loads(done.stdout.strip().splitlines()[-1])
    assert figures["load_generate_failures"] == 0
    assert figures["load_writes_acknowledged"] == 20 * 8 and figures["load_writes_lost"] == 0
    assert figures["load_timeouts"] == 0 and figures["load_errors"] == 0
    assert figures["load_throttled_without_retry_after"] == 0
    assert figures["load_requests"] >= figures["load_writes_acknowledged"]
