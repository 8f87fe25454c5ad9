"""Small helpers the offline plans share: typed field and operation dicts with labels in the request's language."""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

from toolgen.models import Intent
from toolgen.planner.labels import figure, text

Fact = Callable[[str], str | None]
Builder = Callable[[Intent, Fact], dict[str, Any]]
FIGURES = ("metrics", "outputs", "computed")  # an operation's named figures, which the page shows by name


def field(kind: str, label: str, lang: str, **options: Any) -> dict[str, Any]:
    """A field spec labelled by the text key ``label``."""
    return {"type": kind, "label": text(label, lang), **options}


def op(op_id: str, kind: str, path: str, summary: str, lang: str, **options: Any) -> dict[str, Any]:
    """An operation summarised by the text key ``summary``."""
    return {"id": op_id, "kind": kind, "path": path, "summary": text(summary, lang), **options}


def figure_labels(archetype: str, operations: list[dict[str, Any]], lang: str) -> dict[str, str]:
    """Display names, in ``lang``, of the figures the operations name (those the text table knows; the page names
    any other itself, and tests/unit/test_chinese_parity.py holds every plan to having none)."""
    names = dict.fromkeys(name for o in operations for attribute in FIGURES for name in o.get(attribute) or {})
    labels = {name: figure(archetype, name, lang) for name in names}
    return {name: label for name, label in labels.items() if label is not None}


def labelled(archetype: str) -> Callable[[Builder], Builder]:
    """A builder whose program also carries the display names of its figures, in the request's language."""

    def wrap(build: Builder) -> Builder:
        @functools.wraps(build)
        def built(intent: Intent, fact: Fact) -> dict[str, Any]:
            program = build(intent, fact)
            own = program.get("labels") or {}  # figures a builder names itself (one per person it splits among)
            program["labels"] = {**figure_labels(archetype, program["operations"], intent.lang), **own}
            return program

        return built

    return wrap


def number(value: Any, default: float) -> float:
    """A positive number from a slot or a memory value, else ``default``."""
    try:
        parsed = float(value)
    except (TypeError, ValueError):
        return default
    return parsed if parsed > 0 else default


def choose(options: list[str], lang: str, en: str, zh: str) -> str:
    return zh if lang == "zh" and zh in options else en
