"""Builds toolgen/knowledge/data/spans_model.json.gz, the tagger spans.py reads the attributes a request names with.

Run by `make spans` (``python -m toolgen.intent.build_spans``; ``--check`` only says whether the shipped file is what
the data gives, ``--folds`` prints the held-out figures). Pure Python and deterministic: the same data gives the
same bytes.

The data: tests/data/attributes/*.jsonl, requests written for training only by helpers who saw no code and no
evaluation set, each with the attribute phrases it names, as written ("attributes": [] where it names none, and
where what it lists are values, rows, tasks, places or people). Rows near a breadth request (character-trigram
Jaccard of NEAR or more) are left out, so no evaluation request is read by a tagger that learnt its paraphrase: every
breadth part is opened for that, the blind ones too (unlike build_actions, which never opens them), and only to leave
rows out; a new part may so change the shipped model. The requests of the Chinese column names' evaluation set
(tests/data/names/) are kept apart the same way.

The lexicon the tagger reads is the knowledge base's: every field's labels (without their units) and words, in
both languages, and the Chinese glossaries' headings and questions; it is shipped in the model so that the weights
and the lexicon they were trained with go together.
"""

from __future__ import annotations

import argparse
import gzip
import json
import random
import re
import sys
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

from toolgen.intent.actions import normal
from toolgen.intent.build_actions import BREADTH, NEAR, _jsonl
from toolgen.intent.spans import MODEL, TAGS, Model, Token, context, features, lexicon_marks, tokens
from toolgen.knowledge.base import library
from toolgen.knowledge.gloss import field_gloss, question_gloss
from toolgen.paths import ROOT

DATA = ROOT / "tests" / "data" / "attributes"
NAMES = ROOT / "tests" / "data" / "names"  # evaluation sets of the names columns get (tests/functional/test_names.py)
EPOCHS = 8
UNIT = 100  # weights shipped in hundredths; one that rounds to 0 is not shipped
FOLDS = 5
SEED = 7
ORDERS = 16  # perceptrons averaged, each over orders of its own
_HAN = re.compile(r"[\u4e00-\u9fff]")
_UNIT = re.compile(r"\s*[（(][^）)]*[）)]\s*")


def lexicon() -> list[str]:
    """The phrases that name a field somewhere in the knowledge base, as lexicon_marks joins tokens."""
    lib = library()
    said: set[str] = set(field_gloss()) | set(question_gloss())
    fields = [f for s in lib.subjects.values() for f in lib.fields_of(s)] + list(lib.fields.values())
    for f in fields:
        said.update([f.label.en, f.label.zh, *f.words])
    phrases = set()
    for phrase in said:
        plain = _UNIT.sub("", phrase).strip()
        words = [t.text for t in tokens(plain)]
        if not words or not all(re.match(r"[a-z0-9\u4e00-\u9fff]", w) for w in words):
            continue
        han = [_HAN.match(w) for w in words]
        if all(han) and len(words) >= 2:
            phrases.add("".join(words))
        elif not any(han) and len("".join(words)) >= 3:
            phrases.add(" ".join(words))
    return sorted(phrases)


def rows() -> list[dict[str, Any]]:
    """The training rows, those near an evaluation request left out."""
    found = [row for path in sorted(DATA.glob("*.jsonl")) for row in _jsonl(path)]
    held = [row["text"] for path in sorted(BREADTH.glob("*.jsonl")) for row in _jsonl(path)]
    held += sorted({row["request"] for path in sorted(NAMES.glob("*.jsonl")) for row in _jsonl(path)})
    return kept_apart(found, held)


def kept_apart(found: list[dict[str, Any]], held: list[str]) -> list[dict[str, Any]]:
    """The rows no held-out text is near (character-trigram Jaccard of NEAR or more)."""
    theirs = [_grams(text) for text in held]
    index: dict[str, list[int]] = {}
    for n, grams in enumerate(theirs):
        for gram in grams:
            index.setdefault(gram, []).append(n)
    kept = []
    for row in found:
        mine = _grams(row["text"])
        shared: dict[int, int] = {}
        for gram in mine:
            for n in index.get(gram, ()):
                shared[n] = shared.get(n, 0) + 1
        if not any(k / (len(mine) + len(theirs[n]) - k) >= NEAR for n, k in shared.items()):
            kept.append(row)
    return kept


def _grams(text: str) -> set[str]:
    """Character trigrams of the text as the features and the action corpora's near-duplicate guard read it."""
    t = normal(text)
    return {t[i : i + 3] for i in range(max(len(t) - 2, 1))}


def gold(text: str, attributes: Sequence[str]) -> tuple[list[Token], list[str]]:
    """The tokens of a row and their tags: each attribute (without punctuation at its end, which no attribute runs
    over) found whole, on tokens' bounds, after the one before it."""
    toks = tokens(text)
    tags = ["O"] * len(toks)
    starts = {t.start: k for k, t in enumerate(toks)}
    ends = {t.end: k for k, t in enumerate(toks)}
    at = 0
    for said in attributes:
        phrase = said.rstrip(" ?？!！.。,，;；:：")
        start = text.find(phrase, at)
        while start >= 0 and not (start in starts and start + len(phrase) in ends):
            start = text.find(phrase, start + 1)
        if not phrase or start < 0:
            raise ValueError(f"{said!r} is not a phrase of {text!r} after its attributes before it")
        first, last = starts[start], ends[start + len(phrase)]
        tags[first] = "B"
        for k in range(first + 1, last + 1):
            tags[k] = "I"
        at = start + len(phrase)
    return toks, tags


def train(data: Sequence[dict[str, Any]], lex: frozenset[str], orders: int = ORDERS) -> dict[str, list[float]]:
    """The mean of ORDERS averaged perceptrons, each learning the rows in orders of its own: one order's model turns
    on which rows it met last, so a few rows more or fewer changed what it read of requests far from them; the
    mean of several is steadier."""
    runs = [_train_once(data, lex, SEED + 1000 * k) for k in range(orders)]
    mean: dict[str, list[float]] = {}
    for run in runs:
        for f, w in run.items():
            m = mean.setdefault(f, [0.0, 0.0, 0.0])
            for k in range(3):
                m[k] += w[k] / orders
    return mean


def _train_once(data: Sequence[dict[str, Any]], lex: frozenset[str], seed: int) -> dict[str, list[float]]:
    """An averaged perceptron over the rows, trained with the gold tag before each token."""
    weights: dict[str, list[float]] = {}
    totals: dict[str, list[float]] = {}
    stamps: dict[str, list[int]] = {}
    prepared = []
    for row in data:
        toks, tags = gold(row["text"], row["attributes"])
        prepared.append((toks, tags, lex_marks(toks, lex), context(toks)))
    order = list(range(len(prepared)))
    clock = 0
    for epoch in range(EPOCHS):
        random.Random(seed + epoch).shuffle(order)  # noqa: S311 (a fixed order to learn in, not a secret)
        for n in order:
            toks, tags, marks, seen = prepared[n]
            previous = "<s>"
            for i, truth in enumerate(tags):
                clock += 1
                feats = features(toks, marks, i, previous, seen)
                score = [0.0, 0.0, 0.0]
                for f in feats:
                    w = weights.get(f)
                    if w:
                        for k in range(3):
                            score[k] += w[k]
                guess = max(range(3), key=lambda k: (score[k], -k))
                want = TAGS.index(truth)
                if guess != want:
                    for f in feats:
                        w = weights.setdefault(f, [0.0, 0.0, 0.0])
                        total = totals.setdefault(f, [0.0, 0.0, 0.0])
                        stamp = stamps.setdefault(f, [0, 0, 0])
                        for k, delta in ((want, 1.0), (guess, -1.0)):
                            total[k] += (clock - stamp[k]) * w[k]
                            stamp[k] = clock
                            w[k] += delta
                previous = truth
    averaged = {}
    for f, w in weights.items():
        total, stamp = totals[f], stamps[f]
        averaged[f] = [(total[k] + (clock - stamp[k]) * w[k]) / clock for k in range(3)]
    return averaged


def lex_marks(toks: Sequence[Token], lex: frozenset[str]) -> list[str]:
    return lexicon_marks([t.text for t in toks], lex)


def build(data: Sequence[dict[str, Any]] | None = None) -> dict[str, Any]:
    lex = lexicon()
    averaged = train(rows() if data is None else data, frozenset(lex))
    shipped = {}
    for f in sorted(averaged):
        w = [round(v * UNIT) for v in averaged[f]]
        if any(w):
            shipped[f] = w
    return {"unit": UNIT, "lexicon": lex, "weights": shipped}


def encode(document: dict[str, Any]) -> bytes:
    body = json.dumps(document, ensure_ascii=False, separators=(",", ":"), sort_keys=True).encode("utf-8")
    return gzip.compress(body, compresslevel=9, mtime=0)


def held_out(orders: int = ORDERS) -> dict[str, list[int]]:
    """Each fold read by a tagger trained on the others (the mean of ``orders`` perceptrons), phrases compared to the
    character: per language, the phrases found as written, the phrases read and the phrases marked."""
    data = rows()
    lex = frozenset(lexicon())
    counts = {"en": [0, 0, 0], "zh": [0, 0, 0]}
    for k in range(FOLDS):
        trained = Model(train([r for n, r in enumerate(data) if n % FOLDS != k], lex, orders), lex)
        for row in (r for n, r in enumerate(data) if n % FOLDS == k):
            got = trained.read(row["text"])
            count = counts["zh" if _HAN.search(row["text"]) else "en"]
            count[0] += sum(1 for g in got if g in row["attributes"])
            count[1] += len(got)
            count[2] += len(row["attributes"])
    return counts


def folds() -> Iterator[str]:
    """The held-out figures, a line per language."""
    for lang, (hit, said, marked) in held_out().items():
        yield f"{lang}: {marked} phrases, {hit / marked:.1%} found as written; {said} read, {hit / said:.1%} right"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="only say whether the shipped model is current")
    parser.add_argument("--folds", action="store_true", help="print held-out precision and recall")
    args = parser.parse_args(argv)
    if args.folds:
        for line in folds():
            print(line)
        return 0
    raw = encode(build())
    if args.check:
        current = Path(MODEL).exists() and Path(MODEL).read_bytes() == raw
        print("current" if current else "stale: run make spans")
        return 0 if current else 1
    Path(MODEL).write_bytes(raw)
    print(f"wrote {MODEL} ({len(raw):,} bytes)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
