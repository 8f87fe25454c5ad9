"""Reading a request, as the API pays for it: a cold process's first request (python started, toolgen imported, the
knowledge base and the learned refusal loaded, one request classified; the two requests timed name two subjects, so
the learned choice of subject is loaded too) and a warm process's classify (p50 over 360 requests in both languages,
each read once).
Each cold run is its own process, timed from its start to its answer."""

from __future__ import annotations

import json
import statistics
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.results import save

ROOT = Path(__file__).resolve().parents[1]
BREADTH = ROOT / "tests" / "data" / "breadth"
PARTS = ("dev", "holdout", "dev2")  # 360 requests of both languages, none of them in REQUESTS
REQUESTS = [
    "I want to log my morning runs",
    "我想记录每天晨跑",
    "keep track of board games I own, how many players, and who I lent one to",
    "装修要买的家具家电列个单子，每样预算多少、买了没",
    "mortgage calculator: 300k at 4.1% over 30 years",
    "每周三倒垃圾，帮我做个提醒",
    "rank the hottest cities this week",
    "passport and visa expiry dates for the family",
]
COLD = (
    "import time; t = time.perf_counter()\n"
    "from toolgen.intent import classify\n"
    "classify({request!r})\n"
    "print((time.perf_counter() - t) * 1000, flush=True)\n"
)


def cold(request: str) -> float:
    """From starting the process to its answer: the interpreter's start and every import included, the process's
    exit not (freeing a heap of the knowledge base's objects takes it about 100 ms after the answer is out, which
    no one waits for; this figure included it until December 2026)."""
    started = time.perf_counter()
    command = [sys.executable, "-c", COLD.format(request=request)]
    with subprocess.Popen(command, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) as process:
        assert process.stdout is not None
        answered = (time.perf_counter() - started) * 1000 if process.stdout.readline() else None
        _, errors = process.communicate()
    if process.returncode or answered is None:
        raise RuntimeError(f"the cold process failed ({process.returncode}): {errors[-2000:]}")
    return answered


def main(runs: int = 5) -> None:
    from toolgen.intent import classify

    # English and Chinese in turn, each naming a subject (so the learned choice is loaded), process start included
    colds = [cold(REQUESTS[2 + i % 2]) for i in range(runs * 2)]
    for request in REQUESTS:
        classify(request)
    # each timed request a text this process has not read (a reader may keep what it read of one text for the
    # next step of the same request; a repeat would time that, not a person's new request)
    unseen = [
        json.loads(line)["text"] for part in PARTS for line in (BREADTH / f"{part}.jsonl").read_text().splitlines()
    ]
    warm = []
    for request in dict.fromkeys(unseen):
        started = time.perf_counter()
        classify(request)
        warm.append((time.perf_counter() - started) * 1000)
    figures = {
        "classify_cold_first_ms_p50": round(statistics.median(colds), 1),
        "classify_warm_ms_p50": round(statistics.median(warm), 2),
        "classify_warm_ms_p95": round(sorted(warm)[int(len(warm) * 0.95)], 2),
    }
    print(json.dumps(figures, indent=1))
    save(figures)


if __name__ == "__main__":
    main()
