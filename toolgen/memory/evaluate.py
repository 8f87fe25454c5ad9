"""How well memory reads people: `toolgen eval --memory --part P` over tests/data/memory.

Two kinds of case, each run for a new person on the real store (over an in-memory table, the rule reader):
- reading (``dev``, ``heldout``): statements said one after another; afterwards the facts named ``current`` must
  be held by an active memory and those named ``not_current`` by none;
- recall (``recall_dev``): statements, then a request; the memories whose text holds each ``recalled`` fragment
  must be recalled for it and those holding a ``not_recalled`` fragment must not.

``heldout`` was written blind, by someone who saw no code, and is read only to report.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from toolgen.intent import classify
from toolgen.memory.recall import Recaller
from toolgen.memory.scoring import MemoryConfig
from toolgen.memory.store import DynamoMemoryStore
from toolgen.paths import ROOT
from toolgen.table import MemoryTable

DATA = ROOT / "tests" / "data" / "memory"
PARTS = ("dev", "heldout", "recall_dev")


@dataclass
class Report:
    part: str
    by_lang: dict[str, list[int]] = field(default_factory=dict)  # lang -> [passed, total]
    misses: list[dict[str, Any]] = field(default_factory=list)

    @property
    def passed(self) -> int:
        return sum(p for p, _ in self.by_lang.values())

    @property
    def total(self) -> int:
        return sum(t for _, t in self.by_lang.values())

    def as_dict(self) -> dict[str, Any]:
        return {"part": self.part, "passed": self.passed, "total": self.total, "by_lang": self.by_lang}


def load(part: str) -> list[dict[str, Any]]:
    path = Path(DATA / f"{part}.jsonl")
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def _reading(case: dict[str, Any], store: DynamoMemoryStore, user: str) -> dict[str, Any] | None:
    for text in case["said"]:
        store.learn(user, text)
    held = {(m.key, m.value) for m in store.list(user) if m.key}
    missing = [f"{k}={v}" for k, v in case.get("current", {}).items() if (k, v) not in held]
    wrong = [f"{k}={v}" for k, v in case.get("not_current", {}).items() if (k, v) in held]
    if missing or wrong:
        return {"missing": missing, "wrong": wrong, "held": sorted(f"{k}={v}" for k, v in held)}
    return None


def _recall(case: dict[str, Any], store: DynamoMemoryStore, user: str) -> dict[str, Any] | None:
    for text in case["said"]:
        store.learn(user, text)
    recalled = Recaller(store, MemoryConfig(), seed=1).recall(user, case["request"], classify(case["request"]))
    texts = [m.text for m in recalled]
    missing = [f for f in case.get("recalled", []) if not any(f in t for t in texts)]
    wrong = [f for f in case.get("not_recalled", []) if any(f in t for t in texts)]
    if missing or wrong:
        return {"missing": missing, "wrong": wrong, "recalled": texts}
    return None


def evaluate(part: str) -> Report:
    report = Report(part)
    store = DynamoMemoryStore(MemoryTable())
    for n, case in enumerate(load(part)):
        user = f"eval-{n}"
        miss = _recall(case, store, user) if "request" in case else _reading(case, store, user)
        counts = report.by_lang.setdefault(case["lang"], [0, 0])
        counts[1] += 1
        if miss is None:
            counts[0] += 1
        else:
            report.misses.append({"id": case["id"], "said": case["said"], **miss})
    return report


def render(report: Report, *, show_misses: bool = False) -> str:
    lines = [f"memory {report.part}: {report.passed}/{report.total}"]
    lines += [f"  {lang}: {p}/{t}" for lang, (p, t) in sorted(report.by_lang.items())]
    if show_misses:
        lines += [f"  miss {json.dumps(m, ensure_ascii=False)}" for m in report.misses]
    return "\n".join(lines)


__all__ = ["PARTS", "Report", "evaluate", "load", "render"]
