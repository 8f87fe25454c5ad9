"""Builds toolgen/knowledge/data/subjects_model.bin, the weights subjects.py chooses a request's subject with.

Run by `make subjects` (``python -m toolgen.intent.build_subjects``; ``--check`` refits and says whether the shipped
file is what the data gives). Build time only: numpy, scipy and scikit-learn are dev dependencies, which the platform's
Lambda functions do not carry. tests/unit/test_subjects.py compares the digest of the data the shipped file was
fitted from with the data's (a refit of 2,049 subjects is a minute, too long for every test run) and fits a part of
the data twice to hold that the build is deterministic.

The data (docs/knowledge.md, "Choosing a subject"), each row a text and the subject it names:
- the knowledge base itself (toolgen/knowledge/data/subjects/): every subject's English and Chinese names and
  aliases, and its titles;
- tests/data/subjects/paraphrases.jsonl: requests written for training only, six for each subject (three English,
  three Chinese, at least one of each naming none of its aliases), by helpers that saw only the subject's names and
  fields; the 20 that came near a breadth request (character-trigram Jaccard 0.4 or more) were dropped, and 2 more
  that came near the later blind3 once it was written (no part's reading changed by it). No
  evaluation set is read here: the breadth set's parts are measured by `toolgen eval --breadth`.

The model is linear over the same hashed features the learned refusal reads (character 1- to 5-grams, English words
and word pairs; actions.py): complement naive Bayes (Rennie et al., 2003), a subject's weight for a feature the log of
how much rarer the feature is outside the subject's rows than among all of them, counted in one sparse product. It
fits 2,049 subjects in seconds; the logistic regression of each subject against the rest it replaced took six minutes
a fit at 818 subjects (36 with the folds), growing with subjects times rows, and read about as well there (held out:
69.8% and 71.2% first choices right in English and Chinese against 71.2% and 68.5%; 1,890 breadth fits against
1,892). subjects.py turns its scores, times a temperature, into probabilities with a softmax. How sure it must be
before its choice is taken is not set here but where it is used (read.py), measured on the breadth parts. The figures
printed are the paraphrases' on held-out folds (five, stratified by subject, near-duplicates in one fold; the
knowledge base's names always in training; probabilities as subjects.py computes them, before pruning): how often the
first choice is right, how often when it is at least so sure, and each temperature's mean log loss (the least chooses
TEMPERATURE).
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from toolgen.intent import subjects
from toolgen.intent.actions import BUCKETS, hashed
from toolgen.intent.build_actions import UNIT, build_main, near_duplicates
from toolgen.intent.subjects import MODEL
from toolgen.paths import ROOT

PARAPHRASES = ROOT / "tests" / "data" / "subjects" / "paraphrases.jsonl"
ALPHA = 0.1  # smoothing of the counts (chosen on held-out folds: 0.03 to 0.1 read alike, less reads Chinese worse)
MIN_ROWS = 2  # a feature in fewer training rows than this gets no weight
PRUNE = 0.02  # a weight smaller than this (before the temperature) is not shipped: half of them, a point of accuracy
TEMPERATURE = 24.0  # scores are multiplied by it before the softmax (the held-out log loss's best; make subjects says)
TEMPERATURES = (4.0, 8.0, 12.0, 16.0, 24.0, 32.0, 48.0)  # the ones tried
FOLDS = 5
SURE = (0.05, 0.1, 0.2, 0.3, 0.5)  # levels of sureness the figures are given at


@dataclass(frozen=True)
class Example:
    text: str
    lang: str
    subject: str
    source: str  # names, paraphrases


def _jsonl(path: Path) -> Iterator[dict[str, Any]]:
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.strip():
            yield json.loads(line)


def examples() -> list[Example]:
    """Every labelled text the model learns from, in a fixed order: the knowledge base's names, then paraphrases."""
    from toolgen.knowledge.base import library

    subjects = library().subjects
    rows = []
    for sid in sorted(subjects):
        subject = subjects[sid]
        names = [*((n, "en") for n in subject.en), *((n, "zh") for n in subject.zh)]
        names += [(subject.title.en, "en"), (subject.title.zh, "zh")]
        rows += [Example(text, lang, sid, "names") for text, lang in dict.fromkeys(names)]
    for row in _jsonl(PARAPHRASES):
        if row["subject"] not in subjects:
            raise ValueError(f"{PARAPHRASES.name}: unknown subject {row['subject']!r}")
        rows.append(Example(row["text"], row["lang"], row["subject"], "paraphrases"))
    return rows


def matrix(rows: list[Example]) -> Any:
    """The rows' features as a sparse matrix of BUCKETS columns, each row's non-zero values 1/sqrt(n)."""
    from scipy.sparse import csr_matrix

    indptr, indices, values = [0], [], []
    for row in rows:
        found = hashed(row.text)
        indices += found
        values += [len(found) ** -0.5] * len(found)
        indptr.append(len(indices))
    return csr_matrix((values, indices, indptr), shape=(len(rows), BUCKETS), dtype="float64")


def _kept(x: Any) -> Any:
    import numpy as np

    return np.flatnonzero(np.asarray((x > 0).sum(axis=0)).ravel() >= MIN_ROWS)


def weights_of(x: Any, labels: Any) -> tuple[Any, Any]:
    """The classes, and their weights as a sparse matrix (classes by BUCKETS), of complement naive Bayes: a feature's
    weight toward a subject is how much rarer it is outside the subject's rows than among all rows,
    log((n + a) / (n - n_subject + a)) over the rows' feature values, with a = ALPHA; a feature never seen with a
    subject has none. Counting is one sparse product, so 2,049 subjects fit in seconds, where a regression for each
    against the rest took six minutes a fit at 818 (docs/knowledge.md, "Choosing a subject")."""
    import numpy as np
    from scipy.sparse import csr_matrix

    kept = _kept(x)
    counts = x[:, kept]
    classes, of_row = np.unique(np.asarray(labels), return_inverse=True)
    onehot = csr_matrix((np.ones(len(of_row)), (of_row, np.arange(len(of_row)))), shape=(len(classes), len(of_row)))
    by_class = (onehot @ counts).tocoo()
    total = np.asarray(counts.sum(axis=0)).ravel()[by_class.col] + ALPHA
    weight = np.log(total) - np.log(total - by_class.data)
    big = weight >= PRUNE
    shape = (len(classes), x.shape[1])
    return classes, csr_matrix((weight[big], (by_class.row[big], kept[by_class.col[big]])), shape=shape)


def fit(x: Any, labels: list[str]) -> dict[str, Any]:
    """The classes, and for each kept feature its weights toward the classes it moves
    (times the temperature, in hundredths): by feature rather than by class, so a request reads only its own
    features' weights."""
    import numpy as np

    classes, weights_by_class = weights_of(x, labels)
    by_feature = weights_by_class.T.tocsr()
    by_feature.sort_indices()
    features, offsets, of_class, weights = [], [0], [], []
    for j in np.flatnonzero(np.diff(by_feature.indptr)):
        row = slice(by_feature.indptr[j], by_feature.indptr[j + 1])
        scaled = np.round(by_feature.data[row] * TEMPERATURE * UNIT).astype(np.int64)
        nonzero = np.flatnonzero(scaled)
        if not len(nonzero):
            continue
        features.append(int(j))
        of_class += [int(k) for k in by_feature.indices[row][nonzero]]
        weights += [int(w) for w in scaled[nonzero]]
        offsets.append(len(of_class))
    return {
        "classes": [str(c) for c in classes],
        "features": features,
        "offsets": offsets,
        "of_class": of_class,
        "weights": weights,
    }


def held_out(rows: list[Example], x: Any) -> tuple[Any, Any, dict[float, float]]:
    """For each paraphrase, the first choice and how sure (at TEMPERATURE), of a model trained on the other folds and
    every name; and each temperature's mean log loss over them."""
    import numpy as np
    from sklearn.model_selection import StratifiedGroupKFold

    labels = np.array([r.subject for r in rows])
    para = np.flatnonzero([r.source == "paraphrases" for r in rows])
    names = np.flatnonzero([r.source == "names" for r in rows])
    groups = near_duplicates([rows[i].text for i in para])
    chosen, sure = np.empty(len(para), dtype=object), np.zeros(len(para))
    loss = dict.fromkeys(TEMPERATURES, 0.0)
    folds = StratifiedGroupKFold(n_splits=FOLDS, shuffle=True, random_state=0)
    for train, test in folds.split(np.zeros(len(para)), labels[para], groups):
        rows_in = np.concatenate([names, para[train]])
        classes, weights = weights_of(x[rows_in], labels[rows_in])
        scores = (x[para[test]] @ weights.T).toarray()
        truth = np.searchsorted(classes, labels[para[test]])
        for t in TEMPERATURES:  # a softmax of the scores, as subjects.py reads them
            z = scores * t
            top = z.max(axis=1, keepdims=True)
            norm = np.log(np.exp(z - top).sum(axis=1)) + top.ravel()
            loss[t] += float((norm - z[np.arange(len(test)), truth]).sum())
            if t == TEMPERATURE:
                p = np.exp(z - top)
                p /= p.sum(axis=1, keepdims=True)
                chosen[test], sure[test] = classes[p.argmax(axis=1)], p.max(axis=1)
    return chosen, sure, {t: round(v / len(para), 4) for t, v in loss.items()}


def figures(rows: list[Example], chosen: Any, sure: Any) -> dict[str, Any]:
    import numpy as np

    para = [r for r in rows if r.source == "paraphrases"]
    right = np.array([c == r.subject for c, r in zip(chosen, para, strict=True)])
    lang = np.array([r.lang for r in para])
    report: dict[str, Any] = {}
    for language in ("en", "zh"):
        mine = lang == language
        report[language] = {
            "rows": int(mine.sum()),
            "right": round(float(right[mine].mean()), 4),
            "at": {
                str(level): {
                    "taken": round(float((sure[mine] >= level).mean()), 4),
                    "right": round(float(right[mine & (sure >= level)].mean()), 4),
                }
                for level in SURE
            },
        }
    return report


def digest(rows: list[Example], x: Any) -> str:
    """What the weights are fitted from, as one hash: every row's label and source, the features it is read as (so a
    change to the reading of text is seen too) and the build's settings. The shipped file carries it, and
    tests/unit/test_subjects.py compares it with the data's, in a second where a refit takes minutes."""
    import hashlib

    h = hashlib.sha256(repr((ALPHA, MIN_ROWS, PRUNE, TEMPERATURE, BUCKETS)).encode())
    for row in rows:
        h.update(f"{row.subject}\t{row.source}\n".encode())
    for part in (x.indptr, x.indices):
        h.update(part.astype("<i8").tobytes())
    return h.hexdigest()


def build(*, cross_validate: bool = True, rows: list[Example] | None = None) -> dict[str, Any]:
    rows = examples() if rows is None else rows
    x = matrix(rows)
    labels = [r.subject for r in rows]
    document = {
        "about": "The learned choice of a request's subject (toolgen/intent/subjects.py), built by "
        "toolgen/intent/build_subjects.py; see docs/knowledge.md.",
        "data": {
            "rows": len(rows),
            "names": sum(r.source == "names" for r in rows),
            "paraphrases": sum(r.source == "paraphrases" for r in rows),
        },
        "digest": digest(rows, x),
        **fit(x, labels),
    }
    if cross_validate:
        chosen, sure, loss = held_out(rows, x)
        document["cross_validated"] = {**figures(rows, chosen, sure), "log_loss": {str(t): v for t, v in loss.items()}}
    return document


def encode(document: dict[str, Any]) -> bytes:
    """The file's bytes: a JSON header (classes, the figures) and the four arrays as little-endian machine
    words, gzipped with no timestamp, so the same document is the same file and loads in milliseconds."""
    return subjects.encode(document)


def render(document: dict[str, Any]) -> str:
    lines = [f"{document['data']['rows']} rows: {document['data']['names']} names, "
             f"{document['data']['paraphrases']} paraphrases; {len(document['classes'])} subjects"]  # fmt: skip
    figures = document.get("cross_validated", {})
    if "log_loss" in figures:
        best = min(figures["log_loss"], key=figures["log_loss"].__getitem__)
        losses = figures["log_loss"]
        lines.append(f"held out, mean log loss by temperature: {losses} (best {best}; shipped {TEMPERATURE})")
    for language, f in ((k, v) for k, v in figures.items() if k != "log_loss"):
        levels = ", ".join(f"{level}+: {a['taken']:.0%} taken, {a['right']:.1%} right" for level, a in f["at"].items())
        lines.append(f"held out, {language}: {f['rows']} paraphrases, first choice right {f['right']:.1%}; {levels}")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    def weights(document: dict[str, Any]) -> str:
        return f"{len(document['weights']):,} weights of {len(document['features']):,} features"

    return build_main(
        argv, module="toolgen.intent.build_subjects", about=__doc__.split("\n")[0], build=build, encode=encode,
        render=render, out=MODEL, target="subjects", weights=weights,
    )  # fmt: skip


if __name__ == "__main__":
    sys.exit(main())
