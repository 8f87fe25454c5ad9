"""`toolgen eval`: how well the classifier does on a labelled set of requests.

Reports accuracy over everything (out-of-scope requests count as right when refused), per-archetype precision
and recall, the confusion between archetypes, and the out-of-scope rejection rate.
"""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from toolgen.intent.archetypes import ARCHETYPES
from toolgen.intent.classify import classify

NONE = "(none)"


@dataclass
class Report:
    total: int = 0
    correct: int = 0
    confusion: Counter[tuple[str, str]] = field(default_factory=Counter)
    errors: list[dict[str, Any]] = field(default_factory=list)

    def _count(self, *, truth: str | None = None, predicted: str | None = None) -> int:
        return sum(
            n
            for (t, p), n in self.confusion.items()
            if (truth is None or t == truth) and (predicted is None or p == predicted)
        )

    @property
    def accuracy(self) -> float:
        return self.correct / self.total if self.total else 0.0

    @property
    def rejection_rate(self) -> float:
        """Out-of-scope requests refused, of all out-of-scope requests."""
        out = self._count(truth=NONE)
        return self.confusion[(NONE, NONE)] / out if out else 0.0

    @property
    def false_rejection_rate(self) -> float:
        """In-scope requests refused, of all in-scope requests."""
        in_scope = self.total - self._count(truth=NONE)
        return (self._count(predicted=NONE) - self.confusion[(NONE, NONE)]) / in_scope if in_scope else 0.0

    def per_archetype(self) -> dict[str, dict[str, float]]:
        result = {}
        for name in [a.name for a in ARCHETYPES]:
            support = self._count(truth=name)
            predicted = self._count(predicted=name)
            hit = self.confusion[(name, name)]
            result[name] = {
                "support": support,
                "precision": hit / predicted if predicted else 0.0,
                "recall": hit / support if support else 0.0,
            }
        return result

    def as_dict(self) -> dict[str, Any]:
        return {
            "total": self.total,
            "accuracy": round(self.accuracy, 4),
            "out_of_scope_rejection_rate": round(self.rejection_rate, 4),
            "false_rejection_rate": round(self.false_rejection_rate, 4),
            "per_archetype": {k: {m: round(v, 4) for m, v in d.items()} for k, d in self.per_archetype().items()},
            "confusion": [
                {"truth": t, "predicted": p, "count": n} for (t, p), n in sorted(self.confusion.items()) if t != p
            ],
            "errors": self.errors,
        }


def load(path: Path) -> list[dict[str, Any]]:
    """Labelled requests from a JSON Lines file of {"text", "archetype" (null when out of scope)}."""
    rows = []
    for number, line in enumerate(path.read_text().splitlines(), 1):
        if line.strip():
            row = json.loads(line)
            if "text" not in row or "archetype" not in row:
                raise ValueError(f"{path}:{number}: each line needs 'text' and 'archetype'")
            rows.append(row)
    return rows


def evaluate(rows: list[dict[str, Any]]) -> Report:
    report = Report()
    for row in rows:
        intent = classify(row["text"])
        truth, predicted = row["archetype"] or NONE, intent.archetype or NONE
        report.total += 1
        report.correct += truth == predicted
        report.confusion[(truth, predicted)] += 1
        if truth != predicted:
            report.errors.append(
                {"text": row["text"], "truth": truth, "predicted": predicted, "candidates": intent.candidates}
            )
    return report


def render(report: Report, *, show_errors: bool = False) -> str:
    lines = [
        f"requests: {report.total}   accuracy: {report.accuracy:.1%}   "
        f"out-of-scope rejected: {report.rejection_rate:.1%}   in-scope refused: {report.false_rejection_rate:.1%}",
        "",
        f"{'archetype':<20}{'n':>4}{'precision':>11}{'recall':>8}   confused with",
    ]
    for name, m in report.per_archetype().items():
        confused = ", ".join(f"{p} x{n}" for (t, p), n in report.confusion.most_common() if t == name and p != name)
        lines.append(f"{name:<20}{m['support']:>4}{m['precision']:>11.0%}{m['recall']:>8.0%}   {confused}")
    out_confused = ", ".join(f"{p} x{n}" for (t, p), n in report.confusion.most_common() if t == NONE and p != NONE)
    lines.append(
        f"{'out of scope':<20}{report._count(truth=NONE):>4}{'':>11}{report.rejection_rate:>8.0%}   {out_confused}"
    )
    if show_errors and report.errors:
        lines += ["", "misclassified:"] + [
            f"  {e['truth']:<18} -> {e['predicted']:<18} {e['text']}" for e in report.errors
        ]
    return "\n".join(lines)
