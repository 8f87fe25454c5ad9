"""Fields a request names itself ("with the price and an expiry date", "记一下价格和过期日期").

Each library field lists the words that ask for it; English words match on word boundaries with their plurals,
Chinese words as substrings. The fields come back in the order the request names them.
"""

from __future__ import annotations

import json
import re
from functools import cache
from itertools import islice

from toolgen.knowledge.base import DATA, FieldDef, library
from toolgen.knowledge.loading import read_json
from toolgen.reading import reader

# The type the knowledge base's subjects give the fields of each English label, where four in five of them agree on
# one ("Width (cm)", "Width": a number): computed by `make subjects` (python -m toolgen.knowledge.fields) and shipped,
# since computing it reads all 2,050 subjects (about 450 ms of a cold process); tests/unit/test_requested.py holds
# that the shipped file is what the knowledge base gives.
FIELD_TYPES = DATA / "field_types.json"


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
    hits: list[tuple[int, int, str, str]] = []
    lower = text.lower()
    for probe, pattern, name in _index():
        if probe not in lower:
            continue
        # its first few places, so that a word said again on its own counts, and a long text costs no more
        hits += [(m.start(), m.end(), name, m.group(0)) for m in islice(_compiled(pattern).finditer(text), 3)]
    said: dict[str, str] = {}
    for start, end, name, word in sorted(hits):
        # words inside a longer field's words are that field ("几点开始": when it started, not a time besides)
        if not any(s <= start and end <= e and e - s > end - start for s, e, _, _ in hits):
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


def computed_field_types() -> dict[str, str]:
    """Each English label (without its unit) -> the type four in five or more of the subjects' fields so labelled
    have, integers counted as numbers."""
    counts: dict[str, dict[str, int]] = {}
    lib = library()
    for subject in lib.subjects.values():
        for f in lib.fields_of(subject):
            label = re.sub(r"\s*[(（].*$", "", f.label.en).strip().lower()
            kind = "number" if f.type in ("number", "integer") else str(f.type)
            counts.setdefault(label, {}).setdefault(kind, 0)
            counts[label][kind] += 1
    typed: dict[str, str] = {}
    for label, kinds in sorted(counts.items()):
        most, n = max(kinds.items(), key=lambda pair: (pair[1], pair[0]))
        if label and n * 5 >= sum(kinds.values()) * 4:
            typed[label] = most
    return typed


@cache
def _field_types() -> dict[str, str]:
    types: dict[str, str] = read_json(FIELD_TYPES)["types"]
    return types


def known_type(english_name: str) -> str | None:
    """The type the knowledge base gives fields labelled so ("width": number), if its subjects agree on one."""
    return _field_types().get(english_name.strip().lower())


def render_field_types(types: dict[str, str]) -> str:
    about = "English field label -> the type the knowledge base's subjects agree on; built by make subjects"
    return json.dumps({"about": about, "types": types}, ensure_ascii=False, indent=0, sort_keys=True) + "\n"


if __name__ == "__main__":
    import sys

    text = render_field_types(computed_field_types())
    if "--check" in sys.argv[1:]:
        current = FIELD_TYPES.exists() and FIELD_TYPES.read_text(encoding="utf-8") == text
        print(f"{FIELD_TYPES}: {'up to date' if current else 'out of date: run make subjects'}")
        sys.exit(0 if current else 1)
    FIELD_TYPES.write_text(text, encoding="utf-8")
    print(f"{FIELD_TYPES}: {text.count(chr(10)) - 4} labels")
