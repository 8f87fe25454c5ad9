"""Small helpers the offline plans share: typed field and operation dicts with labels in the request's language."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from toolgen.models import Intent
from toolgen.planner.labels import text

Fact = Callable[[str], str | None]
Builder = Callable[[Intent, Fact], dict[str, Any]]


def field(kind: str, label: str, lang: str, **options: Any) -> dict[str, Any]:
    """A field spec labelled by the text key ``label``."""
    return {"type": kind, "label": text(label, lang), **options}


def op(op_id: str, kind: str, path: str, summary: str, lang: str, **options: Any) -> dict[str, Any]:
    """An operation summarised by the text key ``summary``."""
    return {"id": op_id, "kind": kind, "path": path, "summary": text(summary, lang), **options}


def number(value: Any, default: float) -> float:
    """A positive number from a slot or a memory value, else ``default``."""
    try:
        parsed = float(value)
    except (TypeError, ValueError):
        return default
    return parsed if parsed > 0 else default


def choose(options: list[str], lang: str, en: str, zh: str) -> str:
    return zh if lang == "zh" and zh in options else en
