"""The table of `make bench`: every figure bench/results.json must hold, beside its target where it has one.

Figures, not pass/fail: the "target" column says whether today's figure meets the issue's target, and the
command exits 1 only when a figure is missing (a benchmark did not run), never because one is slow.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from pathlib import Path

RESULTS = Path(__file__).with_name("results.json")


def _ratio(r: dict) -> float:
    return float(r["tool_cold_start_ms_p50"]) / float(r["baseline_cold_start_ms_p50"])


def _under(value: object, limit: float) -> bool:
    """A time under ``limit`` (bench/rows.py writes "timeout" for a call that ran out of time)."""
    return isinstance(value, int | float) and value < limit


def _second(key: str) -> tuple[str, Callable[[dict], bool]]:
    return ("< 1000", lambda r: _under(r[key], 1000))


# key, unit, description, target (text, check) or None
FIGURES: list[tuple[str, str, str, tuple[str, Callable[[dict], bool]] | None]] = [
    (
        "generate_first_ms_p50",
        "ms",
        "a new person's first tool, POST to succeeded",
        ("< 500", lambda r: r["generate_first_ms_p50"] < 500),
    ),
    ("generate_repeat_ms_p50", "ms", "the same request again (the tool is reused)", None),
    ("repeat_speedup_pct", "%", "how much faster the repeat is", ("> 90", lambda r: r["repeat_speedup_pct"] > 90)),
    ("stage_ms", "ms", "per stage of a first request, p50", None),
    ("recall_p95_ms_1k", "ms", "recall over 1,000 memories, p95", None),
    ("recall_p95_ms_10k", "ms", "recall over 10,000 memories, p95", ("< 2", lambda r: r["recall_p95_ms_10k"] < 2)),
    ("recall_p95_ms_100k", "ms", "recall over 100,000 memories, p95", None),
    (
        "served_recall_p95_ms_10k",
        "ms",
        "GET /v1/recall over HTTP, 10,000 memories, warm, p95",
        ("< 50", lambda r: r["served_recall_p95_ms_10k"] < 50),
    ),
    ("served_recall_cold_ms_10k", "ms", "GET /v1/recall, 10,000 memories, a new API process", None),
    ("served_recall_after_write_p95_ms_10k", "ms", "GET /v1/recall right after a write, 10,000 memories, p95", None),
    (
        "recall_bm25_p95_ms_10k",
        "ms",
        "rank-bm25 on the same 10,000, same run, p95",
        ("ours faster", lambda r: r["recall_p95_ms_10k"] < r["recall_bm25_p95_ms_10k"]),
    ),
    ("memory_update_p95_ms", "ms", "a memory written (learn, edit, credit), p95", None),
    (
        "tool_cold_start_ms_p50",
        "ms",
        "fresh python3.12 process to a tool's first create",
        ("< 150 and < 1/4 of baseline", lambda r: r["tool_cold_start_ms_p50"] < 150 and _ratio(r) < 0.25),
    ),
    ("baseline_cold_start_ms_p50", "ms", "the same create as a Powertools + pydantic + boto3 handler", None),
    ("tool_warm_invoke_ms_p50", "ms", "the tool's later calls, same process", None),
    ("leased_cold_start_ms_p50", "ms", "the same first create, its limit kept by leases", None),
    ("token_check_ms_p50", "ms", "a fresh process's first token check with the public key (in the cold start)", None),
    ("lease_cost_ms_p50", "ms", "what the lease adds to a warm call (take and give back a slot)", None),
    ("load_rps", "req/s", "calls to one tool by many callers past its concurrency", None),
    ("load_p99_ms", "ms", "their p99", None),
    ("load_timeouts", "", "timeouts among them", ("0", lambda r: r["load_timeouts"] == 0)),
    (
        "rows_list_first_p95_ms_100k",
        "ms",
        "a tool's list, first page, 100,000 rows, p95",
        _second("rows_list_first_p95_ms_100k"),
    ),
    ("rows_list_later_p95_ms_100k", "ms", "the same list, 5th page, p95", _second("rows_list_later_p95_ms_100k")),
    (
        "rows_stats_p95_ms_100k",
        "ms",
        "its figures (/stats) asked again, 100,000 rows, p95",
        _second("rows_stats_p95_ms_100k"),
    ),
    ("rows_week_p95_ms_100k", "ms", "this week's figures (/week) asked again, p95", _second("rows_week_p95_ms_100k")),
    (
        "rows_stats_after_write_p95_ms_100k",
        "ms",
        "/stats right after a write (a delete or a create), over every row from the digest, p95",
        ("< 200", lambda r: _under(r["rows_stats_after_write_p95_ms_100k"], 200)),
    ),
    (
        "rows_counted_100k",
        "rows",
        "the rows /stats counts after those writes (every one: 100,000)",
        ("100000", lambda r: r["rows_counted_100k"] == 100_000),
    ),
    ("rows_digest_build_calls_100k", "calls", "/stats calls that built the digest of 100,000 rows made without", None),
    ("rows_digest_build_s_100k", "s", "the seconds they took (each answering over the newest rows meanwhile)", None),
    ("base_layer_mb", "MB", "the shared base layer, unzipped", ("< 30", lambda r: r["base_layer_mb"] < 30)),
    ("tool_package_kb", "KB", "a tool's own package, zipped", ("< 10", lambda r: r["tool_package_kb"] < 10)),
    ("persist_write_journaled_p50_ms", "ms", "a served write (POST a row), state kept by the journal, p50", None),
    ("persist_write_ephemeral_p50_ms", "ms", "the same write with serve --ephemeral, p50", None),
    ("persist_restart_10000_s", "s", "serve's restart after kill -9, a tool and 10,000 rows journaled", None),
    ("growth_revision_job_p50_ms_5k", "ms", "a revision, POST to its job's end, a tool of 5,000 rows, p50", None),
    ("growth_suggestions_after_write_p95_ms_5k", "ms", "GET /v1/suggestions right after a write (mined), p95", None),
    ("growth_suggestions_again_p95_ms_5k", "ms", "GET /v1/suggestions with nothing written since, p95", None),
    ("growth_list_migrated_p95_ms_5k", "ms", "a list's first page read through a rename, 5,000 rows, p95", None),
    ("prompt_static_tokens", "tokens", "the model's prompt, static part (cacheable; cl100k)", None),
    ("prompt_schema_tokens", "tokens", "the answer's JSON schema the model is given", None),
    ("prompt_request_tokens_p50", "tokens", "the request's own part (reading, draft, request), p50 of 6", None),
    ("prompt_request_tokens_max", "tokens", "the request's own part, the largest of 6", None),
    ("answer_check_and_trial_ms_p50", "ms", "reading and trying a model's program before it is accepted, p50", None),
    (
        "classify_cold_first_ms_p50",
        "ms",
        "a cold process reading its first request (python start, imports, models loaded), p50",
        ("< 600", lambda r: r["classify_cold_first_ms_p50"] < 600),
    ),
    (
        "classify_warm_ms_p50",
        "ms",
        "reading a request in a warm process, p50",
        ("< 20", lambda r: r["classify_warm_ms_p50"] < 20),
    ),
    ("classify_warm_ms_p95", "ms", "the same, p95", None),
]


def render(results: dict) -> tuple[str, list[str]]:
    lines = [f"{'figure':<28}{'value':>12}  {'target':<30}  what", "-" * 110]
    missing = []
    for key, unit, what, target in FIGURES:
        if key not in results:
            missing.append(key)
            lines.append(f"{key:<28}{'MISSING':>12}  {'':<30}  {what}")
            continue
        value = results[key]
        shown = (
            ", ".join(f"{k} {v}" for k, v in value.items()) if isinstance(value, dict) else f"{value} {unit}".strip()
        )
        verdict = ""
        if target:
            try:
                verdict = f"{target[0]}: {'met' if target[1](results) else 'NOT met'}"
            except KeyError as e:
                verdict = f"{target[0]}: needs {e}"
        if isinstance(value, dict):
            lines.append(f"{key:<28}{'':>12}  {verdict:<30}  {what}")
            lines.append(f"{'':<4}{shown}")
        else:
            lines.append(f"{key:<28}{shown:>12}  {verdict:<30}  {what}")
    if "machine" in results:
        lines.append(f"machine: {results['machine']}")
    return "\n".join(lines), missing


def main() -> int:
    if not RESULTS.exists():
        print(f"no {RESULTS}: run `make bench`")
        return 1
    table, missing = render(json.loads(RESULTS.read_text()))
    print(table)
    if missing:
        print(f"missing: {', '.join(missing)}", file=sys.stderr)
    return 1 if missing else 0


if __name__ == "__main__":
    raise SystemExit(main())
