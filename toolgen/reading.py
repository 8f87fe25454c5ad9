"""A request is read once: each reader reads a text once, and every later step shares what it found.

A *reader* is a function of one text and of the knowledge base's data alone: the places a text names
(``find_places``), its amounts, its date, the fields it lists (``listed``), the questions it asks of each row
(``asked``), its subject (``read``). Many steps ask the same reader of the same text: the classifier's rules, the
slots of the kind they choose, the details any tool takes, the facts memory learns. Marked ``@reader``, a reader's
answer is kept in the text's ``Reading``, so the second step to ask gets the answer the first one read; a reader
that reads a part of the request (a list's item, the clause before a colon) keeps that part's answer in the part's
own reading. A reading holds every kind of span found in its text, by reader: ``reading_of(text).spans``.

Readings are kept for the last ``KEPT`` texts read, so one request (with the parts its readers look at) is read in
full while the process lives, and a process reads a text again only after hundreds of others. A reader's answer
is handed out as a copy when it is a list, dict or set, so a step that edits what it was given (reorders a list of
units) changes nothing another step reads.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache, wraps
from typing import Any, TypeVar, cast

T = TypeVar("T")

KEPT = 512  # texts whose readings are kept: one request reads itself and a few dozen of its parts


class Reading:
    """What every reader that read ``text`` found in it, under the reader's name."""

    __slots__ = ("spans", "text")

    def __init__(self, text: str) -> None:
        self.text = text
        self.spans: dict[str, Any] = {}

    def __repr__(self) -> str:
        return f"Reading({self.text!r}, {sorted(self.spans)})"


@lru_cache(maxsize=KEPT)
def reading_of(text: str) -> Reading:
    """The reading of ``text``: made on first asking, then the same one for as long as it is kept."""
    return Reading(text)


READERS: dict[str, Callable[..., Any]] = {}  # every reader, by the name its answers are kept under


def reader(read: Callable[[str], T]) -> Callable[[str], T]:
    """Mark ``read`` a reader: asked of a text it has read already, it answers from the text's reading."""
    name = f"{read.__module__}.{read.__qualname__}"
    READERS[name] = read

    @wraps(read)
    def answer(text: str) -> T:
        spans = reading_of(text).spans
        if name not in spans:
            spans[name] = read(text)
        found: T = spans[name]
        return cast(T, type(found)(found)) if isinstance(found, list | dict | set) else found

    answer.reader = name  # type: ignore[attr-defined]
    return answer


def forget() -> None:
    """Drop every reading (the knowledge base changed under the readers, as a test may make it)."""
    reading_of.cache_clear()
