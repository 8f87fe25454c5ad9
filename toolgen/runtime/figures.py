"""Figures (aggregate operations) kept between writes, so that asking again costs two item reads.

A cache checked against a version sits in front of every figure: the partition's version (rows.py's summary)
moves with every write, and a kept figure is used only while the version, the operation's query, the day and the
program's revision are those it was computed for (a revision writes no row, so moves no version, yet may change the
operation or the unit its rows read in). Right by construction, whatever the figure: any expression over columns,
filtered by conditions that move with the day (``where``, ``period``) and by the caller's own query. What a figure
costs after a write:
- an all-time figure the entity's digest answers (sums, means, counts, extremes, first and last, counts of a value,
  streaks, settle: runtime/running.py, which every write keeps): one read, exact over every row;
- any other, one recomputation over the newest ``bounds.FIGURE_ROWS`` rows (2,000, read a page at a time, newest
  first): bounded by that, not by the rows a person keeps; an answer over fewer than every row says so
  (``newest``), and while a digest is being built such an answer is not kept, so that asking again builds on.
A figure that draws at random (``pick``) is never kept: asking again must be able to draw again.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import json
from collections.abc import Callable
from typing import Any

from toolgen.runtime.rows import RowStore

MAX_KEPT = 64 * 1024  # characters of JSON: a larger answer (many groups) is recomputed rather than stored


def _question(op: Any, wanted: dict[str, Any], inputs: dict[str, Any], today: dt.date, revision: int) -> str:
    """What the figures answer: the operation, the caller's filters and inputs, the day (periods and dates move
    with it) and the program's revision (a revision may change the operation under the same id, or the unit its
    rows read in)."""
    question = [op.id, sorted(wanted.items()), today.isoformat(), revision]
    if inputs:  # an operation without inputs asks what it always asked
        question.append(sorted(inputs.items()))
    text = json.dumps(question, default=str, ensure_ascii=False)
    return hashlib.sha256(text.encode()).hexdigest()


def _random(op: Any) -> bool:
    return any("pick(" in expr for expr in [*op.metrics.values(), op.where or ""])


def kept_or_computed(
    rows: RowStore,
    op: Any,
    wanted: dict[str, Any],
    today: dt.date,
    compute: Callable[[], dict[str, Any]],
    *,
    inputs: dict[str, Any] | None = None,
    keep: Callable[[dict[str, Any]], bool] = lambda answer: True,
) -> dict[str, Any]:
    """The operation's figures: as kept, when nothing was written since and the question (``wanted``: the filters,
    ``inputs``: the values typed in) is the same; else ``compute()``, kept for next time where ``keep`` says."""
    if _random(op):
        return compute()
    version = rows.summary().get("version", 0)  # read before the rows: a write after it makes what we keep stale
    question = _question(op, wanted, inputs or {}, today, rows.revision)
    kept = rows.kept(op.id)
    if kept and kept.get("version") == version and kept.get("question") == question:
        answer: dict[str, Any] = json.loads(kept["answer"])
        return answer
    answer = compute()
    text = json.dumps(answer, ensure_ascii=False)
    if len(text) <= MAX_KEPT and keep(answer):
        rows.keep(op.id, {"version": version, "question": question, "answer": text})
    return answer


MAX_KEPT_ROWS = 300 * 1024  # the previous row's values for a window of rows: under DynamoDB's 400 KB an item


def kept_value(
    rows: RowStore, name: str, question: list[Any], compute: Callable[[], Any], *, most: int = MAX_KEPT_ROWS
) -> Any:
    """``compute()``'s answer, kept under ``name`` until the next write (or another ``question``, day or revision):
    what a list reads of the rows before its own (prev), worked out once a write, not once a call."""
    version = rows.summary().get("version", 0)
    text = json.dumps([name, question, rows.revision], default=str, ensure_ascii=False)
    digest = hashlib.sha256(text.encode()).hexdigest()
    kept = rows.kept(name)
    if kept and kept.get("version") == version and kept.get("question") == digest:
        return json.loads(kept["answer"])
    answer = compute()
    written = json.dumps(answer, ensure_ascii=False)
    if len(written) <= most:
        rows.keep(name, {"version": version, "question": digest, "answer": written})
    return answer
