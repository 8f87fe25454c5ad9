"""The learned reading of the attributes a request names for its tool's rows ("fuel log for the motorbike odometer
litres price", "和纸胶带囤太多了，记品牌 宽度 图案", "who told me, type of food, been there yet").

A sequence tagger the project trains itself (build_spans.py, `make spans`) from requests written for training only,
each with the attribute phrases it names marked (tests/data/attributes/): an averaged perceptron that tags each
token as the beginning of an attribute, inside one, or outside, greedily from left to right. It reads tokens that
need no word segmenter (English words, each Chinese character, each sign), with their neighbours, the space around
them, and whether a field of the knowledge base is named there (its labels and words in both languages, the
headings and questions of the Chinese glossaries, shipped in the model as the lexicon it was trained with), so it
reads a list however it is set out: commas, 、, "and", spaces or nothing at all.

Inference is pure Python over the shipped weights (toolgen/knowledge/data/spans_model.json.gz), loaded once per
process the first time a request is read.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any

from toolgen.knowledge.base import DATA
from toolgen.knowledge.loading import read_json
from toolgen.reading import reader

MODEL = DATA / "spans_model.json.gz"
TAGS = ("B", "I", "O")
MAX_PHRASE = 8  # the most tokens a lexicon phrase is matched over
_TOKEN = re.compile(r"[A-Za-z0-9]+(?:\.[0-9]+)*(?:['’][A-Za-z]+)?|[\u4e00-\u9fff]|\S")  # (PM2.5 is one)
_HAN = re.compile(r"[\u4e00-\u9fff]")
_BREAKS = frozenset(",;!?:，。；！？：、")  # and "." before a space or the end: a sentence's, not "no.5"'s


@dataclass(frozen=True)
class Token:
    text: str  # as the features read it: NFKC, lower case
    start: int
    end: int
    space_before: bool


def tokens(text: str) -> list[Token]:
    """The request's tokens with their places in it: English words and numbers whole, each Chinese character and
    each sign alone."""
    found = []
    for m in _TOKEN.finditer(text):
        spaced = m.start() > 0 and text[m.start() - 1].isspace()
        found.append(Token(unicodedata.normalize("NFKC", m.group(0)).lower(), m.start(), m.end(), spaced))
    return found


def _kind(token: str) -> str:
    if _HAN.match(token):
        return "h"
    if token[:1].isdigit():
        return "d"
    if token[:1].isalpha():
        return "a"
    return token  # a sign is its own kind: "," and "、" and ":" say much


def lexicon_marks(words: Sequence[str], lexicon: frozenset[str]) -> list[str]:
    """For each token, where it stands in the longest lexicon phrase over it: "b" its first token, "i" a later one,
    "" none. English tokens of a phrase are joined by a space, Chinese ones by nothing; a final "s" is matched
    without it ("litres" is the label "litre")."""
    marks = [""] * len(words)
    i = 0
    while i < len(words):
        best = 0
        for size in range(min(MAX_PHRASE, len(words) - i), 0, -1):
            piece = words[i : i + size]
            joined = "".join(piece) if all(_HAN.match(w) for w in piece) else " ".join(piece)
            if joined in lexicon or (joined.endswith("s") and joined[:-1] in lexicon):
                best = size
                break
        if best and not (best == 1 and _HAN.match(words[i])):  # one character alone is too loose a match
            marks[i] = "b"
            for k in range(i + 1, i + best):
                marks[k] = "i"
            i += best
        else:
            i += 1
    return marks


@dataclass(frozen=True)
class Context:
    """What every token's features read of the whole request, computed once: its words and where its first colon
    or dash is (what follows one is more often a list)."""

    words: list[str]
    first_colon: int


def context(toks: Sequence[Token]) -> Context:
    words = [t.text for t in toks]
    colon = next((k for k, w in enumerate(words) if w in (":", "：", "-", "—")), len(words))
    return Context(words, colon)


def features(toks: Sequence[Token], marks: Sequence[str], i: int, previous: str, seen: Context) -> list[str]:
    """The features of token i, given the tag the one before it got."""
    words = seen.words

    def at(k: int) -> str:
        return words[k] if 0 <= k < len(words) else ("<s>" if k < 0 else "</s>")

    def kind(k: int) -> str:
        return _kind(words[k]) if 0 <= k < len(words) else "_"

    def mark(k: int) -> str:
        return marks[k] if 0 <= k < len(marks) else "_"

    w = at(i)
    spaced_after = i + 1 < len(toks) and toks[i + 1].space_before
    found = [
        "bias",
        f"w={w}",
        f"p={at(i - 1)}",
        f"n={at(i + 1)}",
        f"pp={at(i - 2)}",
        f"nn={at(i + 2)}",
        f"pw={at(i - 1)}|{w}",
        f"wn={w}|{at(i + 1)}",
        f"k={kind(i - 1)}{kind(i)}{kind(i + 1)}",
        f"s={int(toks[i].space_before)}{int(spaced_after)}",
        f"t={previous}",
        f"tw={previous}|{w}",
        f"m={mark(i - 1)}{mark(i)}{mark(i + 1)}",
        f"mt={mark(i)}|{previous}",
        f"mk={mark(i)}|{kind(i)}|{int(toks[i].space_before)}",
    ]
    if kind(i) == "a" and len(w) > 3:
        found.append(f"x={w[-3:]}")
    if kind(i) == "h":
        found += [f"c3={at(i - 1)}{w}{at(i + 1)}", f"c2={at(i - 2)}{at(i - 1)}|{w}"]
    if seen.first_colon < i:
        found.append("after:")
    return found


def breaks(toks: Sequence[Token], i: int) -> bool:
    """Whether token i is punctuation an attribute never runs over: a full stop before a space, the end or another
    full stop ("nyt..."), not the point of "no.5"."""
    text = toks[i].text
    after = toks[i + 1] if i + 1 < len(toks) else None
    return text in _BREAKS or (text == "." and (after is None or after.space_before or after.text == "."))


def spans_of(toks: Sequence[Token], tags: Sequence[str], text: str) -> list[str]:
    """The phrases tagged B I* as the request writes them."""
    return [text[toks[first].start : toks[last].end] for first, last in _bounds(tags)]


def decode(weights: Mapping[str, Sequence[float]], toks: Sequence[Token], marks: Sequence[str]) -> list[str]:
    """Each token's tag, greedily from left to right (an I after an O is a B)."""
    tags: list[str] = []
    previous = "<s>"
    seen = context(toks)
    for i in range(len(toks)):
        score = [0.0, 0.0, 0.0]
        for f in features(toks, marks, i, previous, seen):
            w = weights.get(f)
            if w is not None:
                score[0] += w[0]
                score[1] += w[1]
                score[2] += w[2]
        tag = TAGS[max(range(3), key=lambda k: (score[k], -k))]
        if breaks(toks, i):  # an attribute never runs over a sentence's or a list's punctuation
            tag = "O"
        if tag == "I" and previous in ("O", "<s>"):
            tag = "B"
        tags.append(tag)
        previous = tag
    return tags


@dataclass(frozen=True)
class Model:
    weights: Mapping[str, Sequence[float]]
    lexicon: frozenset[str]

    def read(self, text: str) -> list[str]:
        toks = tokens(text)
        if not toks:
            return []
        marks = lexicon_marks([t.text for t in toks], self.lexicon)
        tags = decode(self.weights, toks, marks)
        for first, last in _bounds(tags):  # a phrase the knowledge base names whole is not cut in two ("blood")
            if marks[first] == "i" or (last + 1 < len(marks) and marks[last + 1] == "i"):
                tags[first : last + 1] = ["O"] * (last + 1 - first)
        return spans_of(toks, tags, text)


def _bounds(tags: Sequence[str]) -> list[tuple[int, int]]:
    """Where each tagged phrase begins and ends, by token."""
    found: list[tuple[int, int]] = []
    for k, tag in enumerate(tags):
        if tag == "B" or (tag == "I" and (k == 0 or tags[k - 1] == "O")):
            found.append((k, k))
        elif tag == "I" and found:
            found[-1] = (found[-1][0], k)
    return found


def model_of(document: dict[str, Any]) -> Model:
    """The shipped model: its weights are read as the whole hundredths they are shipped in (a tag is the one of the
    highest score, whatever the unit)."""
    return Model(document["weights"], frozenset(document["lexicon"]))


@cache
def model() -> Model:
    return model_of(read_json(MODEL))


@reader
def attribute_spans(text: str) -> list[str]:
    """The attributes a request names for each row of its tool, each as it writes it, in order
    ("odometer litres price" -> odometer, litres, price); [] when it names none."""
    return model().read(text)
