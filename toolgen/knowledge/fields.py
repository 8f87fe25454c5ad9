"""Fields a request names itself ("with the price and an expiry date", "记一下价格和过期日期").

Each library field lists the words that ask for it; English words match on word boundaries with their plurals,
Chinese words as substrings. The fields come back in the order the request names them.
"""

from __future__ import annotations

import re
from functools import cache

from toolgen.knowledge.base import FieldDef, library
from toolgen.reading import reader


@cache
def _index() -> list[tuple[str, str, str]]:
    """(a piece of the word the text must hold, the word's pattern, the field) for every field word. Patterns are
    compiled only for words whose first piece a request holds: compiling all 1,500 took 0.2 s of a cold start."""
    entries: list[tuple[str, str, str]] = []
    for name, f in library().fields.items():
        for word in f.words:
            if re.search(r"[\u4e00-\u9fff]", word):
                entries.append((word, re.escape(word), name))
                continue
            if re.search(r"[^s]s$", word):  # a word given in the plural ("pages") asks in the singular too
                word = word[:-1]
            body = re.escape(word).replace(r"\ ", r"[\s-]+")
            entries.append((word.lower().split(" ")[0], rf"(?ai)(?<![a-z]){body}(s|es)?(?![a-z])", name))
    return entries


@cache
def _compiled(pattern: str) -> re.Pattern[str]:
    return re.compile(pattern)


@reader
def requested_words(text: str) -> dict[str, str]:
    """The library fields the text asks for, in the order it names them, each with the words it names it by
    ("deadline" for the due date)."""
    hits: list[tuple[int, str, str]] = []
    lower = text.lower()
    for probe, pattern, name in _index():
        if probe not in lower:
            continue
        m = _compiled(pattern).search(text)
        if m:
            hits.append((m.start(), name, m.group(0)))
    said: dict[str, str] = {}
    for _, name, word in sorted(hits):
        said.setdefault(name, word)
    return said


@reader
def requested_fields(text: str) -> list[FieldDef]:
    """Library fields the text asks for, in the order it names them, each once."""
    fields = library().fields
    return [fields[n] for n in requested_words(text)]


def duplicates(f: FieldDef, names: set[str]) -> bool:
    """Whether a field of the same meaning is already among ``names`` ("cost" where there is an "amount", "mood
    score" where there is a "mood")."""
    words = {w.replace(" ", "_") for w in f.words}
    return f.name in names or bool(names & (words | set(f.same_as)))
