"""Builds toolgen/knowledge/data/subjects_model.bin.gz, the weights subjects.py chooses a request's subject with.

Run by `make subjects` (``python -m toolgen.intent.build_subjects``; ``--check`` only says whether the shipped file
is what the data gives). Build time only: scikit-learn is a dev dependency, which the platform's Lambda functions do
not carry. tests/unit/test_subjects.py rebuilds the weights in memory and compares them with the shipped file.

The data (docs/knowledge.md, "Choosing a subject"), each row a text and the subject it names:
- the knowledge base itself (toolgen/knowledge/data/subjects/): every subject's English and Chinese names and
  aliases, and its titles;
- tests/data/subjects/paraphrases.jsonl: requests written for training only, six for each subject (three English,
  three Chinese, at least one of each naming none of its aliases), by helpers that saw only the subject's names and
  fields; the 20 that came near a breadth request (character-trigram Jaccard 0.4 or more) were dropped, and 2 more
  that came near the later blind3 once it was written (no part's reading changed by it). No
  evaluation set is read here: the breadth set's parts are measured by `toolgen eval --breadth`.

The model is linear over the same hashed features the learned refusal reads (character 1- to 5-grams, English words
and word pairs; actions.py): one logistic regression a subject against the rest (scikit-learn's SGDClassifier), whose
scores subjects.py turns into probabilities with a softmax. How sure it must be before its choice is taken is not
set here but where it is used (read.py), measured on the breadth parts. The figures printed are the paraphrases' on
held-out folds (five, stratified by subject, near-duplicates in one fold; the knowledge base's names always in
training; probabilities as subjects.py computes them, before pruning): how often the first choice is right, and how
often when it is at least so sure.
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
ALPHA = 1e-5  # L2 regularisation (chosen on held-out folds)
EPOCHS = 30
MIN_ROWS = 2  # a feature in fewer training rows than this gets no weight
PRUNE = 0.2  # a weight smaller than this is not shipped (a third of them; no choice on the breadth set moves)
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


def _model() -> Any:
    from sklearn.linear_model import SGDClassifier

    # one against the rest by stochastic gradient (about a minute for 462 subjects, where L-BFGS took several),
    # deterministic for its fixed seed and order
    return SGDClassifier(loss="log_loss", alpha=ALPHA, max_iter=EPOCHS, tol=None, random_state=0)


def fit(x: Any, labels: list[str]) -> dict[str, Any]:
    """The classes and a bias each, and for each kept feature its weights toward the classes it moves (pruned, in
    hundredths): by feature rather than by class, so a request reads only its own features' weights."""
    import numpy as np

    kept = _kept(x)
    model = _model().fit(x[:, kept], labels)
    coef = np.round(model.coef_ * UNIT).astype(np.int64)
    coef[np.abs(coef) < PRUNE * UNIT] = 0
    features, offsets, classes, weights = [], [0], [], []
    for j in np.flatnonzero(np.abs(coef).sum(axis=0)):
        column = coef[:, j]
        nonzero = np.flatnonzero(column)
        features.append(int(kept[j]))
        classes += [int(k) for k in nonzero]
        weights += [int(w) for w in column[nonzero]]
        offsets.append(len(classes))
    return {
        "classes": [str(c) for c in model.classes_],
        "bias": [round(float(b), 2) for b in model.intercept_],
        "features": features,
        "offsets": offsets,
        "of_class": classes,
        "weights": weights,
    }


def held_out(rows: list[Example], x: Any) -> tuple[Any, Any]:
    """For each paraphrase, the first choice and how sure, of a model trained on the other folds and every name."""
    import numpy as np
    from sklearn.model_selection import StratifiedGroupKFold

    labels = np.array([r.subject for r in rows])
    para = np.flatnonzero([r.source == "paraphrases" for r in rows])
    names = np.flatnonzero([r.source == "names" for r in rows])
    groups = near_duplicates([rows[i].text for i in para])
    chosen, sure = np.empty(len(para), dtype=object), np.zeros(len(para))
    folds = StratifiedGroupKFold(n_splits=FOLDS, shuffle=True, random_state=0)
    for train, test in folds.split(np.zeros(len(para)), labels[para], groups):
        rows_in = np.concatenate([names, para[train]])
        kept = _kept(x[rows_in])
        model = _model().fit(x[rows_in][:, kept], labels[rows_in])
        scores = model.decision_function(x[para[test]][:, kept])  # as subjects.py reads them: a softmax of scores
        p = np.exp(scores - scores.max(axis=1, keepdims=True))
        p /= p.sum(axis=1, keepdims=True)
        chosen[test], sure[test] = model.classes_[p.argmax(axis=1)], p.max(axis=1)
    return chosen, sure


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


def build(*, cross_validate: bool = True) -> dict[str, Any]:
    rows = examples()
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
        **fit(x, labels),
    }
    if cross_validate:
        document["cross_validated"] = figures(rows, *held_out(rows, x))
    return document


def encode(document: dict[str, Any]) -> bytes:
    """The file's bytes: a JSON header (classes, biases, the figures) and the four arrays as little-endian machine
    words, gzipped with no timestamp, so the same document is the same file and loads in milliseconds."""
    return subjects.encode(document)


def render(document: dict[str, Any]) -> str:
    lines = [f"{document['data']['rows']} rows: {document['data']['names']} names, "
             f"{document['data']['paraphrases']} paraphrases; {len(document['classes'])} subjects"]  # fmt: skip
    for language, f in document.get("cross_validated", {}).items():
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
