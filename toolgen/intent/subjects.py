"""The learned choice of a request's subject: which of the knowledge base's subjects it is about, and how surely.

The rules find a subject by its names (read.py's `find_subjects`); people name the same things in many more ways
("a list of everything living in my 120L" is the aquarium's stock). A linear model the project trains itself
(build_subjects.py, `make subjects`: complement naive Bayes, its scores times a temperature turned into
probabilities by a softmax here) from the knowledge base's names and from paraphrases written for training only
reads the same hashed features as the learned refusal (character n-grams, English words and word pairs; actions.py),
so English and Chinese are read alike. Among the subjects the rules found, read.py puts first the one this model is
surer of than of the rules' first; a subject the rules did not find is never chosen.

Inference is pure Python over the shipped weights (toolgen/knowledge/data/subjects_model.bin), loaded once per
process the first time a request is read; a deployed tool never reads it.
"""

from __future__ import annotations

import json
import math
import sys
from array import array
from bisect import bisect_left
from dataclasses import dataclass
from functools import cache
from typing import Any

from toolgen.intent.actions import hashed
from toolgen.knowledge.base import DATA
from toolgen.reading import reader

MODEL = DATA / "subjects_model.bin"


ARRAYS = (("features", "I"), ("offsets", "I"), ("of_class", "H"), ("weights", "h"))  # name, array typecode


def encode(document: dict[str, Any]) -> bytes:
    """A document of build_subjects as the file's bytes: its JSON header's length (4 bytes), the header (everything
    but the arrays), then each array as little-endian machine words. Not compressed: gunzipping its 5 MB took a cold
    process 31 ms, reading them takes 2."""
    header = {k: v for k, v in document.items() if k not in dict(ARRAYS)}
    header["sizes"] = [len(document[name]) for name, _ in ARRAYS]
    head = json.dumps(header, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
    parts = [len(head).to_bytes(4, "little"), head]
    for name, code in ARRAYS:
        words = array(code, document[name])
        if sys.byteorder != "little":
            words.byteswap()
        parts.append(words.tobytes())
    return b"".join(parts)


def decode(raw: bytes) -> dict[str, Any]:
    size = int.from_bytes(raw[:4], "little")
    document: dict[str, Any] = json.loads(raw[4 : 4 + size])
    at = 4 + size
    for (name, code), count in zip(ARRAYS, document.pop("sizes"), strict=True):
        words = array(code)
        words.frombytes(raw[at : at + count * words.itemsize])
        if sys.byteorder != "little":
            words.byteswap()
        document[name], at = words, at + count * words.itemsize
    return document


@dataclass(frozen=True)
class _Model:
    classes: tuple[str, ...]  # naive Bayes has no bias: a score is the sum of the request's features' weights
    features: Any  # array: the features that have weights, ascending (found by bisection: no dict to build cold)
    offsets: Any  # array: the weights of the feature at place i are offsets[i] to offsets[i + 1]
    of_class: Any  # array: the class of each weight
    weights: Any  # array: each weight, in hundredths

    @classmethod
    def of(cls, document: dict[str, Any]) -> _Model:
        return cls(
            tuple(document["classes"]), document["features"],
            document["offsets"], document["of_class"], document["weights"],
        )  # fmt: skip


@cache
def _model() -> _Model:
    return _Model.of(decode(MODEL.read_bytes()))


@reader
def likelihoods(text: str) -> dict[str, float]:
    """Each subject's probability of being what ``text`` is about (empty for a text of no features)."""
    model = _model()
    columns = hashed(text)
    if not columns:
        return {}
    scale = 1 / (100 * math.sqrt(len(columns)))  # weights are in hundredths; rows are scaled to unit length
    scores = [0.0] * len(model.classes)
    offsets, of_class, weights = model.offsets, model.of_class, model.weights
    features = model.features
    for f in columns:
        i = bisect_left(features, f)
        if i < len(features) and features[i] == f:
            for j in range(offsets[i], offsets[i + 1]):
                scores[of_class[j]] += scale * weights[j]
    best = max(scores)
    exp = [math.exp(s - best) for s in scores]
    total = sum(exp)
    return {name: e / total for name, e in zip(model.classes, exp, strict=True)}


def chosen(text: str, top: int = 3) -> list[tuple[str, float]]:
    """The ``top`` likeliest subjects of ``text``, each with its probability, likeliest first."""
    likely = likelihoods(text)
    return sorted(likely.items(), key=lambda kv: kv[1], reverse=True)[:top]
