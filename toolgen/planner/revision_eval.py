"""`toolgen eval --revisions`: how many follow-ups to a tool are read as the changes a person would expect.

Each row of tests/data/revisions.jsonl gives the request a tool was made from, a follow-up, and what it should do:
the changes (op, and the field, new name, label, value, period or grouping where they matter), or the 422 it should
get (``unclear_revision``, ``revision_not_possible``). A row is right when the changes read are exactly those
expected (in any order) and apply to the tool, or when the expected error is raised. The rows were written before
the reader; the ``held`` part is read once, at the end, so its figure says how the reader does on sentences it was
not tuned to.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

from toolgen.changes import Change
from toolgen.errors import ToolgenError
from toolgen.intent import classify
from toolgen.planner.offline import OfflinePlanner
from toolgen.planner.revise import apply, read
from toolgen.planner.revision_words import bare
from toolgen.program import ToolProgram

DATA = Path(__file__).resolve().parents[2] / "tests" / "data" / "revisions.jsonl"
PARTS = ("tuned", "held", "fresh")  # fresh: written after the reader, worded unlike the brief


@dataclass
class RevisionReport:
    part: str
    right: int = 0
    misses: list[dict[str, Any]] = field(default_factory=list)

    @property
    def total(self) -> int:
        return self.right + len(self.misses)

    def as_dict(self) -> dict[str, Any]:
        pct = round(100 * self.right / self.total, 1) if self.total else 0.0
        return {"part": self.part, "total": self.total, "right": self.right, "pct": pct, "misses": self.misses}


@cache
def tool(request: str) -> ToolProgram:
    """The tool a request gets (planned once per request)."""
    return OfflinePlanner().plan(request, classify(request), []).program


def _matches(expected: dict[str, Any], change: Change) -> bool:
    if expected["op"] != change.op:
        return False
    operation = change.operation or {}
    for key, want in expected.items():
        if key == "op":
            continue
        if key in ("period", "series", "group_by", "kind"):
            got: Any = operation.get(key)
        elif key == "label":
            got = bare(change.label or (change.spec or {}).get("label") or "")
        else:
            got = getattr(change, key)
        if isinstance(want, int | float) and isinstance(got, int | float):
            if abs(want - got) > 1e-6:
                return False
        elif got != want:
            return False
    return True


def judge(row: dict[str, Any]) -> str | None:
    """Why one row is wrong, or None when it is right."""
    program = tool(row["request"])
    try:
        changes = read(row["prompt"], program)
        apply(program, changes, program.revision + 1)
    except ToolgenError as e:
        if row.get("error") == e.code:
            return None
        return f"{e.code}: {e.message}"[:200]
    if "error" in row:
        return f"expected {row['error']}, read {[c.op + ':' + str(c.field) for c in changes]}"
    left = list(changes)
    for expected in row["expect"]:
        found = next((c for c in left if _matches(expected, c)), None)
        if found is None:
            got = [c.model_dump(exclude_none=True, exclude={"spec", "operation", "labels"}) for c in changes]
            return f"missing {expected}; read {got}"[:300]
        left.remove(found)
    return f"also read {[c.op + ':' + str(c.field) for c in left]}" if left else None


def load(data: Path = DATA) -> list[dict[str, Any]]:
    return [json.loads(line) for line in data.read_text().splitlines() if line.strip()]


def evaluate(part: str, rows: list[dict[str, Any]] | None = None) -> RevisionReport:
    """How the rows of ``part`` ('tuned' or 'held') are read."""
    report = RevisionReport(part=part)
    for row in rows if rows is not None else load():
        if row["part"] != part:
            continue
        why = judge(row)
        if why is None:
            report.right += 1
        else:
            report.misses.append({"id": row["id"], "prompt": row["prompt"], "why": why})
    return report


def render(report: RevisionReport, *, show_misses: bool = False) -> str:
    data = report.as_dict()
    lines = [f"revisions, {report.part}: {data['right']}/{data['total']} read as expected ({data['pct']}%)"]
    if show_misses:
        lines += [f"  {m['id']} {m['prompt'][:50]:<50}  {m['why']}" for m in report.misses]
    return "\n".join(lines)
