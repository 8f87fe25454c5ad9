"""The learned choice of a request's subject (toolgen/intent/subjects.py), its data and its build."""

from __future__ import annotations

import gzip
import json
import subprocess
import sys
from collections import Counter

import pytest

from toolgen.intent import build_subjects, read, subjects
from toolgen.intent.build_actions import near_duplicates
from toolgen.intent.classify import classify
from toolgen.knowledge.base import library
from toolgen.paths import ROOT


def _rows() -> list[dict]:
    return [json.loads(line) for line in build_subjects.PARAPHRASES.read_text(encoding="utf-8").splitlines() if line]


def test_the_shipped_weights_are_fitted_from_the_data_as_it_is() -> None:
    """A change to the knowledge base's names, the paraphrases, the features text is read as, or the build's settings
    that was not followed by `make subjects` fails here (`make subjects --check` refits and compares the bytes)."""
    shipped = subjects.decode(subjects.MODEL.read_bytes())
    rows = build_subjects.examples()
    assert shipped["digest"] == build_subjects.digest(rows, build_subjects.matrix(rows)), (
        "subjects_model.bin is stale: run make subjects"
    )
    assert shipped["classes"] == sorted({r.subject for r in rows}) == sorted(library().subjects)
    assert list(shipped["features"]) == sorted(set(shipped["features"]))  # subjects.py finds them by bisection
    assert shipped["cross_validated"]["en"]["right"] > 0.5 and shipped["cross_validated"]["zh"]["right"] > 0.5


def test_the_shipped_word_indexes_are_the_knowledge_bases() -> None:
    """The readers' indexes a process reads (each subject's words, its own nouns in both languages) are those the
    knowledge base gives: a change to it not followed by `make subjects` fails here."""
    shipped = json.loads(gzip.decompress(read.WORDS_INDEX.read_bytes()))
    index = read.words_index()  # about 0.2 s from 2,049 subjects: built once here
    computed = json.loads(json.dumps(index))  # tuples as lists, as in the file
    for key in ("en", "zh", "longest", "cores", "zh_cores"):
        assert shipped[key] == computed[key], f"{key}: subject_words.json.gz is stale: run make subjects"
    assert read.WORDS_INDEX.read_bytes() == read.encode_words(index)
    assert read._zh_cores()["生日"] == [("birthdays", read._zh_cores()["生日"][0][1])]  # tuples, as computed


def test_the_build_is_deterministic_and_the_digest_sees_a_changed_row() -> None:
    """Fitted twice from the same rows (forty subjects' here, where all of them take minutes), the same weights; one
    paraphrase moved to another subject is another digest."""
    rows = build_subjects.examples()
    some = sorted({r.subject for r in rows})[::25]
    mine = [r for r in rows if r.subject in some]
    first, second = (build_subjects.build(cross_validate=False, rows=mine) for _ in range(2))
    assert first == second and len(first["classes"]) == len(some)
    moved = next(i for i, r in enumerate(mine) if r.source == "paraphrases" and r.subject != some[-1])
    other = [*mine]
    other[moved] = build_subjects.Example(mine[moved].text, mine[moved].lang, some[-1], "paraphrases")
    assert build_subjects.digest(other, build_subjects.matrix(other)) != first["digest"]


def test_the_file_round_trips_and_is_small() -> None:
    document = {"about": "x", "classes": ["a", "b"], "features": [3, 1 << 19],
                "offsets": [0, 1, 3], "of_class": [1, 0, 1], "weights": [-20, 35, 120]}  # fmt: skip
    decoded = subjects.decode(subjects.encode(document))
    assert {k: list(v) if k in dict(subjects.ARRAYS) else v for k, v in decoded.items()} == document
    assert subjects.MODEL.stat().st_size < 10 * 1024 * 1024


def test_every_subject_has_its_paraphrases_and_none_is_near_an_evaluation_request() -> None:
    rows = _rows()
    counts = Counter((r["subject"], r["lang"]) for r in rows)
    for sid in library().subjects:
        assert counts[(sid, "en")] >= 2 and counts[(sid, "zh")] >= 2, sid
    assert {r["subject"] for r in rows} <= set(library().subjects)
    assert all(r["lang"] in ("en", "zh") and r["text"].strip() for r in rows)
    evaluated = [
        json.loads(line)["text"]
        for part in sorted((ROOT / "tests" / "data" / "breadth").glob("*.jsonl"))
        for line in part.read_text(encoding="utf-8").splitlines()
        if line.strip()
    ]
    # no paraphrase is a breadth request, or near one (character trigrams, as cross-validation groups them)
    groups = near_duplicates([r["text"] for r in rows] + evaluated)
    assert not set(groups[: len(rows)]) & set(groups[len(rows) :])


def test_a_request_is_read_as_the_subject_the_model_is_surer_of_than_the_rules_first() -> None:
    # given a request whose words the rules match to a neighbour (a tank's "percent" of water changed is a percentage)
    text = "我有两个缸，一个草缸一个虾缸，每周测一次水，想记下pH、KH、GH、水温和这次换了百分之多少的水"
    likely = subjects.likelihoods(text)
    # then the model's subject is read, being far surer of it than of the rules' first
    assert read.read(text).subject.id == "aquarium_water"
    assert likely["aquarium_water"] >= read.LEARNED_RATIO * likely["percentage"]


@pytest.mark.parametrize(
    ("text", "subject"),
    [
        ("track my blood pressure morning and evening", "blood_pressure"),
        ("passport and visa expiry dates", "travel_documents"),
    ],
)
def test_where_rules_and_model_agree_nothing_moves(text: str, subject: str) -> None:
    assert subjects.chosen(text, 1)[0][0] == subject
    assert read.read(text).subject.id == subject


def test_a_request_the_rules_would_ask_back_on_gets_the_subject_the_model_is_sure_of_and_the_request_names() -> None:
    text = "金价现在多少一克"  # no subject's phrase: the rules alone asked which tool was meant
    assert read.find_subjects(text) == []
    assert subjects.chosen(text, 1)[0][0] == "gold_value"
    assert classify(text).archetype == "gold_value"


@pytest.mark.parametrize(
    ("subject", "text", "said"),
    [
        ("gold_value", "金价这两天多少一克", True),  # 金价, a word of the text's
        ("pregnancy_weight_gain", "玉米地 每亩化肥多少斤", False),  # fertiliser for maize: 多少 is a question's
        ("garden_pests", "孩子发烧了", False),  # 子发 of 叶子发黄 is two words' edges here
        ("movies_watched", "movies the kids want to see", True),  # one of its own nouns
        ("bedding_change", "bed sheets: which set, when washed", True),  # "sheet" is a noun of its own here
    ],
)
def test_a_subject_alone_is_read_only_where_the_request_says_its_noun(subject: str, text: str, said: bool) -> None:
    assert read._says_its_noun(library().subjects[subject], text) is said


@pytest.mark.parametrize("text", ["I want a notebook", "a ledger please", "something for the pigeons on my balcony"])
def test_a_request_of_a_noun_alone_is_asked_back_whatever_the_model_is_sure_of(text: str) -> None:
    assert classify(text).archetype is None  # it says nothing it keeps or asks: a model or the person says more


def test_a_request_whose_subject_the_model_is_sure_of_but_it_does_not_name_is_still_asked_back() -> None:
    text = "玉米地 每亩化肥多少斤"  # the model gives an unrelated subject (a pregnancy's weight gain) 0.99
    assert read.learned_subject(text) is None
    assert classify(text).archetype is None


def test_likelihoods_are_a_distribution_over_every_subject() -> None:
    likely = subjects.likelihoods("fish tank water log")
    assert set(likely) == set(library().subjects)
    assert sum(likely.values()) == pytest.approx(1.0)
    assert subjects.likelihoods("   ") == {}


def test_the_model_is_read_without_numpy_and_a_tool_never_loads_it() -> None:
    probe = (
        "import sys\n"
        "from toolgen.intent.subjects import chosen\n"
        "print(chosen('fish tank water log', 1)[0][0], sorted(m for m in ('sklearn', 'numpy') if m in sys.modules))\n"
    )
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "aquarium_water []"
    tool = "import sys\nfrom toolgen.runtime import ToolApp\nprint('toolgen.intent.subjects' in sys.modules)\n"
    done = subprocess.run([sys.executable, "-c", tool], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "False"


@pytest.mark.parametrize(
    ("text", "subject"),
    [
        ("air quality where my mom lives in Phoenix, she has COPD so I want bad days flagged", "air_quality"),
        ("air quality and pollen count where i live, my asthma's been bad", "pollen"),
        ("我妈有哮喘，北京这几天空气怎么样", "air_quality"),
        # named in its own right, a condition is the tool
        ("I have asthma and want to log my peak flow and how my chest feels", "peak_flow"),
        ("track my asthma symptoms and the air quality each day", "peak_flow"),
        ("我爸有高血压，记录每天吃的药和血压", "blood_pressure"),  # named besides in its own right
        ("my son has eczema, track flare-ups and which creams we use", "eczema"),  # a log of it, as the other is
    ],
)
def test_a_subject_someone_is_said_to_have_yields_to_one_the_request_names(text: str, subject: str) -> None:
    assert read.find_subjects(text)[0][0].id == subject


def test_what_someone_has_is_told_from_what_is_listed_or_asked_for() -> None:
    assert read._said_of_someone("my dad has diabetes, check the pollen", "diabetes")
    assert read._said_of_someone("她得了哮喘", "哮喘")
    assert not read._said_of_someone("记录血糖，还有血压", "血压")  # listed with 还有: asked for
    assert not read._said_of_someone("有没有吃药", "吃药")
    assert not read._said_of_someone("I have asthma, log my asthma attacks", "asthma")  # once as the tool's own
