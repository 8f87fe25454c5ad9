"""One reading of a request: intent/ has no circle of imports, every reader of a text is marked and reads a text once,
and what it hands out can be edited without changing what the next step reads."""

from __future__ import annotations

import ast
import importlib
import inspect
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from types import FrameType

import pytest

from toolgen.intent.classify import classify
from toolgen.intent.slots import find_units
from toolgen.memory.extract import RuleReader
from toolgen.reading import READERS, forget, reading_of

ROOT = Path(__file__).resolve().parents[2]
INTENT = ROOT / "toolgen" / "intent"
# Modules whose functions of a request's text are readers. Each public function there whose one parameter is `text`
# must be one: a reader left unmarked reads the text again each time a step asks (the check below fails).
READER_MODULES = [
    "toolgen.intent.slots",
    "toolgen.intent.details",
    "toolgen.intent.attributes",
    "toolgen.intent.asked",
    "toolgen.intent.read",
    "toolgen.intent.subjects",
    "toolgen.intent.spelling",
    "toolgen.intent.actions",
    "toolgen.knowledge.fields",
    "toolgen.knowledge.places",
]
NOT_READERS = {
    "toolgen.intent.classify.classify",  # composes the readers into an Intent, a new one for each caller to keep
    "toolgen.intent.classify.by_rules",
}


def _imports(path: Path) -> set[str]:
    """The intent modules ``path`` imports, at its top or inside a function."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("toolgen.intent"):
            parts = node.module.split(".")
            found |= {parts[2]} if len(parts) > 2 else {a.name for a in node.names}
        elif isinstance(node, ast.Import):
            found |= {a.name.split(".")[2] for a in node.names if a.name.startswith("toolgen.intent.")}
    return found - {path.stem}


def test_intent_has_no_circle_of_imports():
    graph = {path.stem: _imports(path) for path in INTENT.glob("*.py")}
    assert graph["classify"] and graph["named"] >= {"details", "slots"}  # the graph is read (not vacuously empty)

    def circle(start: str) -> list[str] | None:
        stack = [(start, [start])]
        while stack:
            node, path = stack.pop()
            for nxt in graph.get(node, ()):
                if nxt == start:
                    return [*path, nxt]
                if nxt not in path:
                    stack.append((nxt, [*path, nxt]))
        return None

    circles = [c for c in map(circle, sorted(graph)) if c]
    assert circles == [], " -> ".join(circles[0]) if circles else ""


def test_every_function_of_a_text_in_the_reader_modules_is_a_reader():
    unmarked = []
    for name in READER_MODULES:
        module = importlib.import_module(name)
        for fname, fn in vars(module).items():
            if fname.startswith("_") or not inspect.isfunction(fn) or fn.__module__ != name:
                continue
            if list(inspect.signature(fn).parameters) == ["text"] and not hasattr(fn, "reader"):
                unmarked.append(f"{name}.{fname}")
    assert unmarked == []
    assert len(READERS) >= 60  # slots' finders, details, attributes, the subject reader, places, fields...


@contextmanager
def counting() -> Iterator[dict[tuple[str, str], int]]:
    """How many times each reader's own body is entered for each text, while the block runs."""
    codes = {read.__code__: name for name, read in READERS.items()}
    entered: dict[tuple[str, str], int] = {}

    def profile(frame: FrameType, event: str, arg: object) -> None:
        if event == "call" and frame.f_code in codes:
            key = (codes[frame.f_code], frame.f_locals[frame.f_code.co_varnames[0]])  # the text it reads
            entered[key] = entered.get(key, 0) + 1

    sys.setprofile(profile)
    try:
        yield entered
    finally:
        sys.setprofile(None)


REQUESTS = [
    "rank Tokyo, Osaka and Kyoto by rain this weekend",
    "钓鱼记录：钓点、天气、用的什么饵、钓了几条",
    "split the $1,200 rent between me and 3 roommates by room size",
    "我住在上海，每周三和周六晨跑5公里，想记录配速",
    "a reading list of the books I want to read this year, tagged by genre, rated 1-10",
]


def test_a_request_is_read_once_by_each_reader_however_many_steps_ask():
    """The classifier's rules, the named kind's slots, the details and memory's fact reader all ask for the places,
    the list, the date of one request: each reader reads each text once."""
    forget()
    with counting() as entered:
        for text in REQUESTS:
            classify(text)
            RuleReader().mine(text)
            classify(text)  # a second step asking again (the API reads a request before the job does)
    assert entered, "no reader was entered: the count is not where readers read"
    twice = {key: n for key, n in entered.items() if n > 1}
    assert twice == {}
    whole = {name for name, text in entered if text in REQUESTS}
    assert {
        "toolgen.knowledge.places.find_places",
        "toolgen.intent.details.listed",
        "toolgen.intent.read.read",
    } <= whole


def test_a_reading_dropped_between_two_steps_is_counted_as_a_second_reading():
    """The count above can fail: with the readings forgotten between two steps, the text is read again."""
    forget()
    with counting() as entered:
        classify(REQUESTS[0])
        forget()
        classify(REQUESTS[0])
    assert entered[("toolgen.knowledge.places.find_places", REQUESTS[0])] == 2


def test_an_answer_edited_by_one_step_is_unchanged_for_the_next():
    forget()
    text = "how many miles is 10 km"
    units = find_units(text)
    assert sorted(units) == ["km", "mi"]
    before = list(units)
    units.reverse()
    units.append("edited")
    assert find_units(text) == before
    assert reading_of(text).spans["toolgen.intent.slots.find_units"] == before


@pytest.mark.parametrize("name", sorted(NOT_READERS))
def test_the_composers_are_not_readers(name):
    module, fname = name.rsplit(".", 1)
    assert not hasattr(getattr(importlib.import_module(module), fname), "reader")
