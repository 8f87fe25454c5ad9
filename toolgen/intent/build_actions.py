"""Builds toolgen/knowledge/data/actions_model.json.gz, the weights actions.py refuses actions in the world with.

Run by `make actions` (``python -m toolgen.intent.build_actions``; ``--check`` only says whether the shipped file is
what the data gives). Build time only: scikit-learn is a dev dependency, which the platform's Lambda functions do
not carry. tests/unit/test_actions.py rebuilds the weights in memory and compares them with the shipped file.

The data, labelled action or tool (docs/knowledge.md, "Refusing actions"):
- tests/data/actions/corpus.jsonl: requests written for this, each an action (with its kind) or a tool, many of
  the tools about orders, payments, messages and medicines;
- tests/data/actions/corpus2.jsonl: a second such corpus, written for the first model's weak spots (actions that
  name what a log would keep, actions said as a wish or a status, advice and chat; the tools closest to them);
- tests/data/actions/corpus3.jsonl: a third, for actions that wear a tool's words and tools that wear an action's;
- tests/data/actions/corpus4.jsonl: a fourth, for advice asked on the person's own readings and amounts (a dose by a
  child's weight, a dispute's odds, a fund to buy) and the tools that keep the same numbers;
- tests/data/actions/vague.jsonl: vague requests for a tool ("something for my bonsai trees", "给我的多肉弄个小工具"),
  which the other sources hardly have: without them the model refused what the rules ask back on and a configured
  model should read;
- tests/data/breadth/*.jsonl, every part but the blind ones (model1, blind2, blind3: never opened here): "refuse"
  rows are actions, "tool" rows tools;
- tests/data/intents.jsonl: rows of no archetype are requests no tool does (actions, questions, chat), the rest tools.
Only the corpus names kinds: the model of kinds learns from its actions, and from the other actions the rules
refuse, under the rules' refusal id; it is scored on the corpus's actions alone.

The thresholds on P(action) are chosen by cross-validation: five folds, stratified by label and language, with
near-duplicates (character-trigram Jaccard of NEAR or more, across every source, directly or through others) kept
in one fold, so a request is never judged by a model that learnt its paraphrase. A request is refused when the rules
refuse it or P(action) reaches the threshold of its language and of what the rules made of it: one for requests
they ask back on (nearly all actions), a higher one for requests they read as a tool (nearly all tools). The pair
refuses the most actions on held-out folds while it refuses at most 2% of the tool requests of the language, at
most 0.5% of those the rules read as tools and at most 10% of those they ask back on. A third, lower threshold
("wary") is the bar before a model reads a request the rules read as a tool: past it, where a model is configured,
the person is asked whether they meant the tool (the tool offered, no model asked) rather than sending an action's
words out; it asks at most 4% of the tool requests the rules read as tools.
"""

from __future__ import annotations

import argparse
import gzip
import json
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from toolgen.intent.actions import BUCKETS, MODEL, features, normal
from toolgen.paths import ROOT

TESTS = ROOT / "tests" / "data"
CORPUS = TESTS / "actions" / "corpus.jsonl"
# A second corpus, written for the first model's weak spots: actions that name a thing a log would (a payment to
# log, a coffee to add to a tracker), actions said as a wish or a status, advice and chat on everyday subjects, and
# the tools closest to them in wording.
CORPUS2 = TESTS / "actions" / "corpus2.jsonl"
# A third, for the actions that wear a tool's words (send my log to..., move money from an account, advice on the
# person's own readings, pay automatically on a day) and the tools that wear an action's (a checklist with "pay the
# fees", countdowns to pay day); rows near a blind part's requests (Jaccard 0.3) were dropped before it was kept, and
# the 10 near blind3's (written after it) once blind3 was.
CORPUS3 = TESTS / "actions" / "corpus3.jsonl"
# A fourth, for medical, legal and financial advice asked on the person's own figures ("孩子39度15公斤该喝多少毫升",
# "owed 3 months' pay, will I win at arbitration") and the logs, schedules and calculators of the same figures; rows
# near a blind part's requests (Jaccard 0.3) were dropped before it was kept.
CORPUS4 = TESTS / "actions" / "corpus4.jsonl"
# A fifth, for actions asked softly, without a command's verb ("any chance you could unlock the front door for the
# cleaner", "直接帮我把这个月的电费交了") across every kind, and tools worded with an action's words ("a log of when I
# charge the car"); written after blind6 was read, from a brief alone. 300 were written; the 47 near a blind part's
# requests or a test's (Jaccard 0.3; 0.2 for tests/unit/test_actions.py's, whose wordings the brief came near) dropped,
# and 3 more near blind7's before it was read (8 of corpus3 too).
CORPUS5 = TESTS / "actions" / "corpus5.jsonl"
# A sixth, for actions on the person's own records and for others (post my weight chart to my feed, text my mother the
# weather each morning, reorder the dog food when it runs low, solve this word problem) and the tools that are their
# near twins (a log of what I posted, a list that flags what runs low); written from a brief alone after blind12 was
# read. 320 were written; the 87 near a breadth or names request (Jaccard 0.3), a test's (0.2) or another corpus row
# (0.5) dropped.
CORPUS6 = TESTS / "actions" / "corpus6.jsonl"
VAGUE = TESTS / "actions" / "vague.jsonl"
BREADTH = TESTS / "breadth"
INTENTS = TESTS / "intents.jsonl"
# The blind breadth part is kept apart from all tuning: no loader here opens it, and it must never be added.
BLIND = frozenset({"model1", *(f"blind{n}" for n in range(2, 17))})
# The corpus's categories as the platform's refusal ids (words.json "actions" gives each its reason).
KIND_OF = {"call": "message", "chat": "out_of_scope", "homework": "out_of_scope", "finance_advice": "investment"}
C_ACTION = 64.0  # inverse regularisation of the action model (chosen on held-out folds among 1 to 256)
C_KIND = 64.0  # and of the model of kinds
NEAR = 0.4  # character-trigram Jaccard at which two requests are near-duplicates
MIN_ROWS = 2  # a feature in fewer training rows than this gets no weight: one request's quirk teaches nothing
# a kind is named (and its own reason given) when the model of kinds is this sure; else the general reason
KIND_SURE = 0.4
MAX_FALSE_REFUSALS = 0.02  # of tool requests, in each language, on held-out folds
MAX_READ_REFUSALS = 0.005  # of the tool requests the rules read as tools: refusing one the rules can build costs most
# of the tool requests the rules ask back on: a vague request for a tool ("something for stuff") is asked back, and
# with a model configured the model reads it; few such requests are in the data, so the bar is set here, not learnt
MAX_ASKED_REFUSALS = 0.1
# Before a model reads a request the rules read as a tool, a lower bar: past it the person is asked whether they
# meant the tool (one answer builds it, with the model), so an action's words reach no model until they say so. At
# most this share of the tool requests the rules read as tools is asked so, on held-out folds.
MAX_WARY = 0.04
FOLDS = 5
UNIT = 100  # weights are shipped in hundredths; a weight that rounds to 0 is not shipped


@dataclass(frozen=True)
class Example:
    text: str
    lang: str  # en, zh
    action: bool
    kind: str | None  # the refusal id, for the corpus's actions
    source: str  # corpus, breadth:<part>, intents


def _jsonl(path: Path) -> Iterator[dict[str, Any]]:
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.strip():
            yield json.loads(line)


def breadth_parts() -> list[str]:
    """The breadth set's parts that train the model: all of them but the blind one."""
    return sorted(p.stem for p in BREADTH.glob("*.jsonl") if p.stem not in BLIND)


def examples() -> list[Example]:
    """Every labelled request the model learns from, in a fixed order."""
    from toolgen.intent.slots import is_chinese

    rows = [
        Example(r["text"], r["lang"], r["label"] == "action", KIND_OF.get(r["category"], r["category"]), "corpus")
        if r["label"] == "action"
        else Example(r["text"], r["lang"], False, None, "corpus")
        for corpus in (CORPUS, CORPUS2, CORPUS3, CORPUS4, CORPUS5, CORPUS6)
        for r in _jsonl(corpus)
    ]
    rows += [Example(r["text"], r["lang"], False, None, "vague") for r in _jsonl(VAGUE)]
    for part in breadth_parts():
        assert part not in BLIND  # the blind set is never read
        rows += [
            Example(r["text"], r["lang"], r["expect"] == "refuse", None, f"breadth:{part}")
            for r in _jsonl(BREADTH / f"{part}.jsonl")
        ]
    rows += [
        Example(r["text"], "zh" if is_chinese(r["text"]) else "en", r["archetype"] is None, None, "intents")
        for r in _jsonl(INTENTS)
    ]
    return rows


@dataclass(frozen=True)
class Read:
    """An example as the build reads it: its features, and whether the rules alone refuse it."""

    example: Example
    columns: list[int]
    rules_refusal: str | None  # the refusal id the rules alone give, if any
    rules_tool: bool  # the rules alone read it as a tool (a named kind, or a subject's or shape's)

    @property
    def by_rules(self) -> bool:
        return self.rules_refusal is not None

    @property
    def kind(self) -> str | None:
        """The kind the model of kinds learns: the corpus's own, else for another action the rules' refusal id."""
        return self.example.kind or (self.rules_refusal if self.example.action else None)


def read_all(rows: list[Example]) -> list[Read]:
    """Each example's features (of its text in standard spelling and the cues of its reading, as classify makes
    them) and the rules' own verdict."""
    from toolgen.intent.classify import by_rules, cues, scores
    from toolgen.intent.read import read
    from toolgen.intent.spelling import standard

    done = []
    for row in rows:
        text = standard(row.text)
        columns = features(text, cues(text, read(text), scores(text)))
        intent = by_rules(row.text)
        done.append(Read(row, columns, intent.refusal, intent.archetype is not None))
    return done


def matrix(rows: list[Read]) -> Any:
    """The rows' features as a sparse matrix of BUCKETS columns, each row's non-zero values 1/sqrt(n)."""
    from scipy.sparse import csr_matrix

    indptr, indices, values = [0], [], []
    for row in rows:
        indices += row.columns
        values += [len(row.columns) ** -0.5] * len(row.columns)
        indptr.append(len(indices))
    return csr_matrix((values, indices, indptr), shape=(len(rows), BUCKETS), dtype="float64")


def near_duplicates(texts: list[str]) -> Any:
    """A group number for each text: texts whose character trigrams overlap by NEAR or more (Jaccard), directly or
    through others, share one, so cross-validation never holds one out while it learns from its paraphrase."""
    import numpy as np
    from scipy.sparse import csr_matrix
    from scipy.sparse.csgraph import connected_components

    vocabulary: dict[str, int] = {}
    indptr, indices = [0], []
    for text in texts:
        t = normal(text)
        indices += sorted({vocabulary.setdefault(t[i : i + 3], len(vocabulary)) for i in range(max(len(t) - 2, 1))})
        indptr.append(len(indices))
    grams = csr_matrix((np.ones(len(indices)), indices, indptr), shape=(len(texts), len(vocabulary)))
    shared = (grams @ grams.T).tocoo()
    size = np.asarray(grams.sum(axis=1)).ravel()
    near = shared.data / (size[shared.row] + size[shared.col] - shared.data) >= NEAR
    links = csr_matrix((np.ones(near.sum()), (shared.row[near], shared.col[near])), shape=(len(texts), len(texts)))
    return connected_components(links, directed=False)[1]


def _kept(x: Any) -> Any:
    """The columns in at least MIN_ROWS rows of ``x``."""
    import numpy as np

    return np.flatnonzero(np.asarray((x > 0).sum(axis=0)).ravel() >= MIN_ROWS)


def _action_model() -> Any:
    from sklearn.linear_model import LogisticRegression

    return LogisticRegression(C=C_ACTION, class_weight="balanced", max_iter=10000, tol=1e-6)


def _kind_model() -> Any:
    from sklearn.linear_model import LogisticRegression

    return LogisticRegression(C=C_KIND, max_iter=10000, tol=1e-6)


def _rounded(kept: Any, row: Any) -> dict[str, list[int]]:
    """A column of weights as actions.py reads it: the features of non-zero weight in order, each as its distance
    from the one before, and the weights in hundredths (lists of small integers compress well)."""
    at, weights, last = [], [], 0
    for feature, weight in zip(kept, row, strict=True):
        hundredths = round(float(weight) * UNIT)
        if hundredths:
            at.append(int(feature) - last)
            weights.append(hundredths)
            last = int(feature)
    return {"at": at, "w": weights}


def fit_action(x: Any, y: Any) -> dict[str, Any]:
    """The action model: its bias and its weight of each feature (rounded, zeros left out)."""
    kept = _kept(x)
    model = _action_model().fit(x[:, kept], y)
    return {"bias": round(float(model.intercept_[0]), 2), "weights": _rounded(kept, model.coef_[0])}


def fit_kinds(x: Any, kinds: list[str]) -> dict[str, Any]:
    """The model of kinds: its classes, a bias each, and a column of weights each (rounded, zeros left out)."""
    kept = _kept(x)
    model = _kind_model().fit(x[:, kept], kinds)
    return {
        "classes": [str(c) for c in model.classes_],
        "bias": [round(float(b), 2) for b in model.intercept_],
        "weights": [_rounded(kept, row) for row in model.coef_],
    }


def _folds(labels: list[str], groups: Any) -> Any:
    import numpy as np
    from sklearn.model_selection import StratifiedGroupKFold

    return StratifiedGroupKFold(n_splits=FOLDS, shuffle=True, random_state=0).split(
        np.zeros(len(labels)), labels, groups
    )


def held_out(x: Any, rows: list[Read], groups: Any) -> Any:
    """Each row's P(action) from the model trained on the other folds (stratified by label and language)."""
    import numpy as np

    y = np.array([r.example.action for r in rows])
    p = np.zeros(len(rows))
    for train, test in _folds([f"{r.example.action}{r.example.lang}" for r in rows], groups):
        kept = _kept(x[train])
        p[test] = _action_model().fit(x[train][:, kept], y[train]).predict_proba(x[test][:, kept])[:, 1]
    return p


def kinds_held_out(x: Any, rows: list[Read], groups: Any) -> tuple[Any, Any]:
    """Each action's likeliest kind and its probability, from the model of kinds trained on the other folds."""
    import numpy as np

    kinds = np.array([str(r.kind) for r in rows])
    named, sure = np.empty(len(rows), dtype=object), np.zeros(len(rows))
    for train, test in _folds(list(kinds), groups):
        kept = _kept(x[train])
        model = _kind_model().fit(x[train][:, kept], kinds[train])
        p = model.predict_proba(x[test][:, kept])
        named[test], sure[test] = model.classes_[p.argmax(axis=1)], p.max(axis=1)
    return named, sure


GRID = [i / 100 for i in range(1, 100)]  # thresholds tried, 0.01 to 0.99


def _share(hits: Any) -> float:
    return round(float(hits.mean()), 4) if len(hits) else 0.0


def thresholds(rows: list[Read], p: Any, language: str) -> dict[str, float]:
    """The thresholds for ``language`` at which rules-or-model refuses the most actions on held-out folds while it
    refuses at most MAX_FALSE_REFUSALS of all tool requests, the model at most MAX_READ_REFUSALS of those the rules
    read as tools and MAX_ASKED_REFUSALS of those they ask back on (ties: the fewest tools refused, then the higher
    thresholds)."""
    import numpy as np

    mine = np.array([r.example.lang == language for r in rows])
    y = np.array([r.example.action for r in rows])[mine]
    read_as_tool = np.array([r.rules_tool for r in rows])[mine]
    rules = np.array([r.by_rules for r in rows])[mine]
    p = p[mine]
    grid = np.array(GRID)
    # refused by the model at each threshold (rows x thresholds), and so what each pair of thresholds refuses
    past = (p[:, None] >= grid[None, :]) & ~rules[:, None]
    asked, read = past[~read_as_tool], past[read_as_tool]
    y_asked, y_read = y[~read_as_tool], y[read_as_tool]
    ruled = rules[~y].sum(), rules[y].sum()
    tools, actions, tools_read = (~y).sum(), y.sum(), (~y & read_as_tool).sum()
    tools_asked = (~y & ~read_as_tool & ~rules).sum()
    false_asked, false_read = asked[~y_asked].sum(axis=0), read[~y_read].sum(axis=0)
    caught_asked, caught_read = asked[y_asked].sum(axis=0), read[y_read].sum(axis=0)
    best: tuple[Any, ...] = ()
    for i, at_asked in enumerate(GRID):
        for j, at_read in enumerate(GRID):
            false = (ruled[0] + false_asked[i] + false_read[j]) / tools
            if (
                false <= MAX_FALSE_REFUSALS
                and false_read[j] <= MAX_READ_REFUSALS * tools_read
                and false_asked[i] <= MAX_ASKED_REFUSALS * tools_asked
            ):
                best = max(best, ((ruled[1] + caught_asked[i] + caught_read[j]) / actions, -false, at_asked, at_read))
    chosen = {"asked": best[2], "read": best[3]} if best else {"asked": GRID[-1], "read": GRID[-1]}
    # the bar before a model: the lowest at which at most MAX_WARY of the tools read are asked, never above "read"
    wary = [t for j, t in enumerate(GRID) if false_read[j] <= MAX_WARY * tools_read and t <= chosen["read"]]
    return {**chosen, "wary": wary[0] if wary else chosen["read"]}


def figures(rows: list[Read], p: Any) -> tuple[dict[str, dict[str, float]], dict[str, Any]]:
    """The thresholds of each language, and what rules-or-model refuses on held-out folds at them."""
    import numpy as np

    y = np.array([r.example.action for r in rows])
    lang = np.array([r.example.lang for r in rows])
    source = np.array([r.example.source.split(":")[0] for r in rows])
    rules = np.array([r.by_rules for r in rows])
    read_as_tool = np.array([r.rules_tool for r in rows])
    chosen = {language: thresholds(rows, p, language) for language in ("en", "zh")}
    at = np.array(
        [chosen[language]["read" if tool else "asked"] for language, tool in zip(lang, read_as_tool, strict=True)]
    )
    refused = rules | (p >= at)
    bar = np.array(
        [chosen[language]["wary" if tool else "asked"] for language, tool in zip(lang, read_as_tool, strict=True)]
    )
    wary = rules | (p >= bar)  # where a model is configured: refused, or offered as a tool, before it reads them
    report: dict[str, Any] = {}
    for name, mask in [
        ("en", lang == "en"),
        ("zh", lang == "zh"),
        *[(f"{s} {language}", (source == s) & (lang == language)) for s in ("corpus", "vague", "breadth", "intents")
          for language in ("en", "zh")],
    ]:  # fmt: skip
        report[name] = {
            "actions": int((y & mask).sum()),
            "tools": int((~y & mask).sum()),
            "refused_actions": _share(refused[y & mask]),
            "refused_tools": _share(refused[~y & mask]),
            "rules_refused_actions": _share(rules[y & mask]),
            "rules_refused_tools": _share(rules[~y & mask]),
            "before_model_actions": _share(wary[y & mask]),
            "before_model_tools": _share(wary[~y & mask]),
        }
    return chosen, report


def build(*, cross_validate: bool = True) -> dict[str, Any]:
    """The shipped document: weights of both models, and (``cross_validate``) the thresholds and the figures on
    held-out folds they were chosen by."""
    import numpy as np

    done = read_all(examples())
    x = matrix(done)
    y = np.array([r.example.action for r in done])
    of_kind = [i for i, r in enumerate(done) if r.kind is not None]
    kinds = [str(done[i].kind) for i in of_kind]
    sources: dict[str, int] = {}
    for r in done:
        sources[r.example.source] = sources.get(r.example.source, 0) + 1
    document = {
        "about": "The learned refusal of actions in the world (toolgen/intent/actions.py), built by "
        "toolgen/intent/build_actions.py from tests/data; see docs/knowledge.md.",
        "data": {"rows": len(done), "actions": int(y.sum()), "sources": dict(sorted(sources.items()))},
        "kind_sure": KIND_SURE,
        "action": fit_action(x, y),
        "kind": fit_kinds(x[of_kind], kinds),
    }
    if not cross_validate:
        return document
    groups = near_duplicates([r.example.text for r in done])
    thresholds, report = figures(done, held_out(x, done, groups))
    named, sure = kinds_held_out(x[of_kind], [done[i] for i in of_kind], groups[of_kind])
    for language in ("en", "zh"):  # scored on the corpus's kinds, written for this, not on the rules' own
        mine = np.array([done[i].example.lang == language and done[i].example.kind is not None for i in of_kind])
        right = np.array([a == b for a, b in zip(named, kinds, strict=True)])
        report[language]["kind_right"] = _share(right[mine])
        report[language]["kind_named"] = _share(sure[mine] >= KIND_SURE)
        report[language]["kind_named_right"] = _share(right[mine & (sure >= KIND_SURE)])
    return {**document, "threshold": thresholds, "cross_validated": report}


def encode(document: dict[str, Any]) -> bytes:
    """The file's bytes: compact JSON, gzipped with no timestamp, so the same document is the same file. The kinds'
    weights are stored as JSON text within it, which a process parses only when it names a kind (actions.decode)."""
    kinds = {**document["kind"], "weights": json.dumps(document["kind"]["weights"], separators=(",", ":"))}
    text = json.dumps({**document, "kind": kinds}, ensure_ascii=False, separators=(",", ":"))
    return gzip.compress(text.encode("utf-8"), compresslevel=9, mtime=0)


def render(document: dict[str, Any]) -> str:
    """The cross-validated figures, one line a language and source."""
    lines = [
        "thresholds on P(action), for requests the rules ask back on / read as a tool (/ before a model reads one): "
        + ", ".join(f"{lang} {t['asked']} / {t['read']} ({t['wary']})" for lang, t in document["threshold"].items()),
        f"{'held-out folds':<16}{'actions':>8}{'refused':>9}{'(rules)':>9}{'tools':>7}{'refused':>9}{'(rules)':>9}",
    ]
    for name, f in document["cross_validated"].items():
        lines.append(
            f"{name:<16}{f['actions']:>8}{f['refused_actions']:>9.1%}{f['rules_refused_actions']:>9.1%}"
            f"{f['tools']:>7}{f['refused_tools']:>9.1%}{f['rules_refused_tools']:>9.1%}"
            + (
                f"   before a model: {f['before_model_actions']:.1%} of actions, {f['before_model_tools']:.1%} of tools"
                if name in ("en", "zh")
                else ""
            )
            + (
                f"   kind right {f['kind_right']:.1%}; named at {document['kind_sure']}+ for {f['kind_named']:.1%}, "
                f"{f['kind_named_right']:.1%} of them right"
                if "kind_right" in f
                else ""
            )
        )
    return "\n".join(lines)


def build_main(
    argv: list[str] | None,
    *,
    module: str,
    about: str,
    build: Callable[[], dict[str, Any]],
    encode: Callable[[dict[str, Any]], bytes],
    render: Callable[[dict[str, Any]], str],
    out: Path,
    target: str,
    weights: Callable[[dict[str, Any]], str],
) -> int:
    """The command line of a learned model's build (this one's and build_subjects'): build, print the figures, and
    write the file, or with --check only say whether the shipped file is the one the data gives (the build is
    deterministic, so the bytes are compared)."""
    parser = argparse.ArgumentParser(prog=f"python -m {module}", description=about)
    parser.add_argument("--check", action="store_true", help="only say whether the shipped file is up to date")
    parser.add_argument("--out", type=Path, default=out, help=f"where to write (default {out})")
    args = parser.parse_args(argv)
    document = build()
    print(render(document))
    data = encode(document)
    if args.check:
        fresh = args.out.exists() and args.out.read_bytes() == data
        print(f"{args.out}: {'up to date' if fresh else f'out of date: run make {target}'}")
        return 0 if fresh else 1
    args.out.write_bytes(data)
    print(f"{args.out}: {weights(document)}, {len(data):,} bytes")
    return 0


def main(argv: list[str] | None = None) -> int:
    def weights(document: dict[str, Any]) -> str:
        kinds = sum(len(c["w"]) for c in document["kind"]["weights"])
        return f"{len(document['action']['weights']['w'])} + {kinds} weights"

    return build_main(
        argv, module="toolgen.intent.build_actions", about=__doc__.split("\n")[0], build=build, encode=encode,
        render=render, out=MODEL, target="actions", weights=weights,
    )  # fmt: skip


if __name__ == "__main__":
    sys.exit(main())
