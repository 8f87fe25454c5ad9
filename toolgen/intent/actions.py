"""The learned refusal of actions in the world: how likely a request asks toolgen to *do* something, and what.

Hand-written cues (read.py's `find_action`) catch the ways of asking that someone thought of; the rest ("would you
mind grabbing me two seats for Dune", "老公电话不接，帮我看看他在哪") are read by two linear models the project
trains itself from labelled requests (build_actions.py, `make actions`): a logistic regression for action against
tool, and a multinomial one over the kinds of action, each kind one of the refusal ids words.json gives reasons
for. Both read the same features, which need no word segmenter and so read English and Chinese alike: hashed
character n-grams (1 to 5) of the text, hashed English words and word pairs, and a few coarse cues of the reading
the rules made of it (whether it names a kind of tool, how surely it names a subject, a shape, a named kind, or
something no tool does): a later reader reads what the earlier ones found, not the string alone.

Inference is pure Python over the shipped weights (toolgen/knowledge/data/actions_model.json.gz), loaded once per
process the first time a request is classified; a deployed tool's cold start never reads it.
"""

from __future__ import annotations

import gzip
import json
import math
import re
import unicodedata
import zlib
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache, cached_property
from itertools import accumulate, pairwise
from typing import Any

from toolgen.knowledge.base import DATA
from toolgen.knowledge.loading import read_json, unscanned
from toolgen.reading import reader

MODEL = DATA / "actions_model.json.gz"
BUCKETS = 1 << 20  # hashed feature space: collisions are rare among the ~100,000 n-grams the data has
CHAR_SIZES = (1, 2, 3, 4, 5)
UNSURE = "out_of_scope"  # the refusal whose reason is the general one
MOST = 6  # a cue's score is read in whole steps up to this: how sure, not which rule said it
_SPACES = re.compile(r"\s+")
_ENGLISH = re.compile(r"[a-z0-9']+")


@reader
def normal(text: str) -> str:
    """The text as the features read it: full-width forms folded (NFKC), lower case, runs of space as one."""
    return _SPACES.sub(" ", unicodedata.normalize("NFKC", text).lower()).strip()


def _grams(text: str) -> Iterable[str]:
    padded = f" {text} "
    for size in CHAR_SIZES:
        for i in range(len(padded) - size + 1):
            gram = padded[i : i + size]
            if gram.strip():
                yield "c" + gram
    words = _ENGLISH.findall(text)
    yield from ("w" + w for w in words)
    yield from (f"b{a} {b}" for a, b in pairwise(words))


@dataclass(frozen=True)
class Cues:
    """What the rules' reading found in a request, as the learned models read it."""

    tool_words: bool  # it names a kind of tool ("a list of", "tracker", "清单")
    subject: float  # how surely it names a subject of the knowledge base
    shape: float  # how strongly its wording points at one shape
    named: float  # the best named kind's cue score
    no_tool: float  # the out-of-scope cues' score ("tell me a joke", "订机票")

    def tokens(self) -> list[str]:
        def step(score: float) -> int:
            return min(int(score), MOST)

        # the surest reading as a tool, a named kind's, a subject's or a shape's: which of them it is says little
        # ("calculate my mortgage payment" names no named kind, "every 3 days" no subject, and both are tools)
        return [
            f"kt{int(self.tool_words)}",
            f"ks{step(self.subject)}",
            f"kp{step(self.shape)}",
            f"kb{step(max(self.named, self.subject, self.shape))}",
            f"ko{step(self.no_tool)}",
        ]


@reader
def hashed(text: str) -> list[int]:
    """The hashed columns of ``text``'s own features (its character n-grams, words and word pairs), no cues."""
    return sorted({zlib.crc32(gram.encode("utf-8")) % BUCKETS for gram in _grams(normal(text))})


def features(text: str, cues: Cues) -> list[int]:
    """The hashed features of ``text`` and its cues, each once, in order: the columns of its row (each of value
    1/sqrt(n))."""
    grams = [*_grams(normal(text)), *cues.tokens()]
    return sorted({zlib.crc32(gram.encode("utf-8")) % BUCKETS for gram in grams})


@dataclass(frozen=True)
class Judgement:
    p_action: float  # the model's probability that the request asks for an action rather than a tool
    kind: str  # the kind of action, a refusal id (booking, message, medical, ...); UNSURE when unsure or not refused
    refused: bool  # p_action reached the threshold chosen by cross-validation
    wary: bool = False  # a request the rules read as a tool: p_action reached the bar before a model reads it


@dataclass(frozen=True)
class _Model:
    thresholds: dict[str, dict[str, float]]  # per language: for requests the rules ask back on, and read as a tool
    kind_sure: float  # how sure the model of kinds must be to name one
    bias: float
    weights: dict[int, float]
    kinds: tuple[str, ...]
    kind_bias: tuple[float, ...]
    kind_columns: str  # each kind's weights as shipped, JSON text parsed when a kind is first asked

    @classmethod
    def of(cls, document: dict[str, Any]) -> _Model:
        return cls(
            thresholds=document["threshold"],
            kind_sure=document["kind_sure"],
            bias=document["action"]["bias"],
            weights=_column(document["action"]["weights"]),
            kinds=tuple(document["kind"]["classes"]),
            kind_bias=tuple(document["kind"]["bias"]),
            kind_columns=document["kind"]["weights"],
        )

    @cached_property
    def kind_weights(self) -> tuple[dict[int, float], ...]:
        """Each kind's weights: parsed and built only when a request is near enough an action that its kind is named
        (a cold process reading a tool request does not pay for the 420,000 of them: parsing them as JSON with the
        rest took 40 ms of its first request)."""
        with unscanned():
            return tuple(_column(column) for column in json.loads(self.kind_columns))


def _column(shipped: dict[str, list[int]]) -> dict[int, float]:
    """A column of weights from the file: features as distances from the one before, weights in hundredths."""
    return dict(zip(accumulate(shipped["at"]), (hundredths / 100 for hundredths in shipped["w"]), strict=True))


@cache
def _model() -> _Model:
    with unscanned():
        return _Model.of(read_json(MODEL))


def decode(data: bytes) -> dict[str, Any]:
    """The shipped file's document whole, the kinds' weights (stored as JSON text, parsed only when needed) parsed."""
    document: dict[str, Any] = json.loads(gzip.decompress(data))
    document["kind"]["weights"] = json.loads(document["kind"]["weights"])
    return document


def _sigmoid(z: float) -> float:
    return 1 / (1 + math.exp(-z)) if z >= 0 else math.exp(z) / (1 + math.exp(z))


def judge(text: str, cues: Cues, lang: str, *, read_as_tool: bool) -> Judgement:
    """What the learned models make of ``text`` (in ``lang``, en or zh): how likely an action it is, which kind,
    and whether to refuse it. A request the rules read as a tool (``read_as_tool``) is refused only past a higher
    threshold than one they would ask back on: nearly every request the rules cannot read is an action, nearly
    every one they can is a tool."""
    model = _model()
    columns = features(text, cues)
    scale = 1 / math.sqrt(len(columns))
    p = _sigmoid(model.bias + scale * sum(model.weights.get(f, 0.0) for f in columns))
    threshold = model.thresholds[lang]["read" if read_as_tool else "asked"]
    wary = read_as_tool and p >= model.thresholds[lang]["wary"]
    kind = UNSURE
    if p >= threshold:  # refused (or, where the rules read a tool, doubted): which kind of action
        scores = [
            bias + scale * sum(weights.get(f, 0.0) for f in columns)
            for bias, weights in zip(model.kind_bias, model.kind_weights, strict=True)
        ]
        best = max(range(len(scores)), key=scores.__getitem__)
        sure = 1 / sum(math.exp(score - scores[best]) for score in scores)  # the softmax of the best kind
        kind = model.kinds[best] if sure >= model.kind_sure else UNSURE
    return Judgement(p_action=p, kind=kind, refused=p >= threshold, wary=wary)
