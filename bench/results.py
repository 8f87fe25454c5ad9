"""bench/results.json: each benchmark merges its figures in; `make bench` starts it empty, report.py reads it."""

from __future__ import annotations

import json
from pathlib import Path

RESULTS = Path(__file__).with_name("results.json")


def save(figures: dict) -> Path:
    """Merge ``figures`` into the results file (a benchmark's keys replace its earlier run's); its path."""
    merged = json.loads(RESULTS.read_text()) if RESULTS.exists() else {}
    merged.update(figures)
    RESULTS.write_text(json.dumps(merged, indent=2) + "\n")
    return RESULTS
