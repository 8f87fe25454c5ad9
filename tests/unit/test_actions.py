"""The learned refusal of actions in the world (toolgen/intent/actions.py): requests worded as nobody wrote a rule
for are refused, with the reason of their kind in their own language, tools about actions stay tools, and the
shipped weights are what build_actions.py makes of the labelled data (never of the blind breadth part).

The phrasings here are written for these tests: none is a row of the training data."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from toolgen.intent import actions, build_actions, classify
from toolgen.intent.read import action_named
from toolgen.planner.proposal import ask

FEVER = "my fever log says 38.2 this morning and 39 now, should I give her more paracetamol"

CJK = range(0x4E00, 0xA000)


def _chinese(text: str) -> bool:
    return any(ord(ch) in CJK for ch in text)


def test_the_shipped_weights_are_what_the_data_gives() -> None:
    """Both models refitted from tests/data: a change to the data, the words or the reading that was not followed by
    `make actions` fails here (the thresholds come from the cross-validation `make actions` runs and prints)."""
    shipped = actions.decode(actions.MODEL.read_bytes())
    fresh = build_actions.build(cross_validate=False)
    assert {key: shipped[key] for key in fresh} == fresh, "actions_model.json.gz is stale: run make actions"
    for language in ("en", "zh"):
        assert 0 < shipped["threshold"][language]["asked"] < 1 and 0 < shipped["threshold"][language]["read"] < 1
        assert 0 < shipped["threshold"][language]["wary"] <= shipped["threshold"][language]["read"]


BLIND_PARTS = (
    "model1",
    "blind2",
    "blind3",
    "blind4",
    "blind5",
    "blind6",
    "blind7",
    "blind8",
    "blind9",
    "blind10",
    "blind11",
    "blind12",
    "blind13",
    "blind14",
    "blind15",
    "blind16",
)


def test_the_blind_breadth_part_is_kept_out_of_the_data() -> None:
    assert set(BLIND_PARTS) <= build_actions.BLIND
    assert not set(BLIND_PARTS) & set(build_actions.breadth_parts())
    assert set(build_actions.breadth_parts()) >= {"dev", "holdout", "dev2", "fresh7"}
    shipped = actions.decode(actions.MODEL.read_bytes())
    assert not any("model1" in source for source in shipped["data"]["sources"])
    assert shipped["data"]["sources"]["corpus"] == 800 + 700 + 548 + 442 + 239 + 232
    assert shipped["data"]["sources"]["intents"] == 558
    written = [
        json.loads(line)["text"]
        for corpus in (build_actions.CORPUS3, build_actions.CORPUS4, build_actions.CORPUS5)
        for line in corpus.read_text().splitlines()
    ]
    blind = [
        json.loads(line)["text"]
        for part in BLIND_PARTS
        for line in (build_actions.BREADTH / f"{part}.jsonl").read_text().splitlines()
    ]

    # corpus3 and corpus4 were written after examples of a blind part's kinds: rows near a blind request were dropped
    def grams(text: str) -> set[str]:
        text = " ".join(text.lower().split())
        return {text[i : i + 3] for i in range(max(1, len(text) - 2))}

    blind_grams = [grams(text) for text in blind]
    nearest = max(len(a & b) / len(a | b) for a in map(grams, written) for b in blind_grams)
    assert nearest < 0.3


@pytest.mark.parametrize(
    "text",
    [
        "would you mind reserving a window table for three at Le Bernardin tomorrow night",
        "secretly check who my wife has been messaging lately",
        "quietly switch on the neighbour's doorbell camera so I can watch their porch",
        "sneak a look at my daughter's iMessages without her knowing",
        "DM my coworker on Teams that the deck is ready",
        "flip the porch light on, I'm almost home",
        "my ankle is swollen and purple after a fall, is it broken?",
        "which crypto coin should I go all in on this month",
        "偷偷帮我查一下我男朋友最近都跟谁聊天",
        "麻烦帮我把下周三的牙医预约改到周五",
        "帮我在拼多多上下单两箱抽纸",
        "跟物业说一声我家水管漏了 你替我发过去",
        "我嗓子疼了三天 你看该吃哪种消炎药",
        "把客厅的空调调到26度",
        "帮我起草一份给客户的道歉信",
        "你觉得我下个月该不该辞职",
    ],
)
def test_actions_no_rule_was_written_for_are_refused(text: str) -> None:
    intent = classify(text)
    # refused; or, where the rules read a tool in it, asked back with that tool proposed: either way no tool is made
    # and no model reads it
    assert intent.archetype is None and (intent.refusal is not None or intent.doubt is not None), intent
    assert intent.candidates == [] if intent.refusal else len(intent.candidates) == 1


@pytest.mark.parametrize(
    "text",
    [
        "a log of every parcel I order online with the carrier and when it arrived",
        "keep track of the payments I send my landlord, with the date and amount",
        "a list of the people I still need to text back, and since when",
        "track which medicines my dad takes, the dose and the time",
        "a countdown to the day my concert tickets go on sale",
        "记一下每次给爸妈转了多少生活费",
        "孩子每天吃的药和剂量记录一下",
        "网购的快递清单 哪家快递 哪天到",
        "a log of invoices I send to the client",  # sending is what each row records, not a thing to do
        "记录每次发给客户的报价",
        "share the grocery list with my wife",  # a list to share, not a message sent for them
        "做个购物清单，能把清单分享给家人",
        "记账工具，月底能把账单导出发给我老婆",  # what the tool can do, not a thing done for them
        "send the packing list to my phone",
        "算一下这个月要交多少物业费",  # how much to pay is a sum to work out, not a payment
        "算算下个月要交几百的燃气费",
    ],
)
def test_tools_about_actions_stay_tools(text: str) -> None:
    intent = classify(text)
    assert intent.refusal is None and intent.archetype is not None, intent


@pytest.mark.parametrize(
    ("text", "kind"),
    [
        ("would you mind booking us a hotel room in Kyoto for two nights next week", "booking"),
        ("wire 300 bucks over to my brother through Zelle", "payment"),
        ("break into my roommate's Netflix profile and change the password", "security"),
        ("帮我订两张周六晚上的电影票", "booking"),
        ("帮我把这段话翻译成日语", "translate"),
        # sending a record to someone is a message, though the record is a tool's ("log", "记录")
        ("send my running log to my coach every sunday", "message"),
        ("forward the mileage log to my accountant at the end of the month", "message"),
        ("帮我把这周的体重记录发给营养师", "message"),
        ("帮我交一下这个月的物业费", "payment"),
        ("去把这个月的燃气费交了", "payment"),
    ],
)
def test_a_clear_action_is_refused_as_its_kind(text: str, kind: str) -> None:
    assert classify(text).refusal == kind


@pytest.mark.parametrize(
    "text",
    [
        "would you mind grabbing me two seats for the 7pm Dune showing",
        "my toddler has a rash all over his belly, what cream should I put on it",
        "偷偷看看我老公的手机定位在哪",
        "我血压160 是不是要马上加药",
    ],
)
def test_a_refusal_gives_its_reason_in_the_requests_language(text: str) -> None:
    intent = classify(text)
    asked = ask(text, intent)
    assert asked.refused == (intent.refusal or intent.doubt) and asked.refused
    assert _chinese(asked.question) == _chinese(text), asked.question
    if intent.refusal:
        assert asked.candidates == [] and asked.proposal is None
    else:  # a doubt: the reason said, and the tool the rules read offered
        assert asked.proposal is not None


def test_a_learned_kind_of_its_own_has_its_own_reason() -> None:
    """Medical, legal and investment questions, which no rule names, are refused with the reason of their kind."""
    for kind, english in (("medical", "doctor"), ("legal", "lawyer"), ("investment", "invest")):
        action = action_named(kind)
        assert action is not None and english in action.reason("en") and _chinese(action.reason("zh"))


def test_the_model_is_read_without_scikit_learn_or_numpy_and_a_tool_never_loads_it() -> None:
    probe = (
        "import sys\n"
        "from toolgen.intent import classify\n"
        "assert classify('could you order me a pizza from the place downstairs').refusal\n"
        "print(sorted(m for m in ('sklearn', 'scipy', 'numpy') if m in sys.modules))\n"
    )
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "[]"
    tool = "import sys\nfrom toolgen.runtime import ToolApp\nprint('toolgen.intent.actions' in sys.modules)\n"
    done = subprocess.run([sys.executable, "-c", tool], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "False"


def test_a_tool_the_rules_read_where_the_model_reads_an_action_is_asked_back_with_that_tool_proposed() -> None:
    # given a question on a log's readings: the rules read the temperature log, the learned refusal medical advice
    intent = classify(FEVER)
    # then it is refused, and the tool the rules read is offered: a person who meant it answers and gets it
    assert intent.archetype is None and intent.refusal is None and intent.doubt == "medical"
    assert intent.candidates == ["body_temperature"]
    asked = ask(FEVER, intent)
    assert asked.refused == intent.doubt and asked.proposal is not None
    assert asked.proposal["choice"] == "body_temperature"
    assert asked.question.startswith("That sounds like something to do rather than a tool to make")
    assert "medicine" in asked.question  # the kind's own reason


def test_a_tool_the_model_half_reads_as_an_action_is_built_offline_and_marked_for_where_a_model_would_read_it() -> None:
    # given a request the rules read as a tool, in which the learned refusal half reads a message to someone
    intent = classify("a log of texts I send to my landlord")
    # then it stays that tool (offline no words leave the platform), marked wary: below the refusal, past the bar
    # before a model, with the general reason (the kind is too unsure down here)
    assert intent.archetype is not None and intent.refusal is None and intent.doubt is None
    assert intent.wary == actions.UNSURE
    # and a plain tool is not marked
    assert classify("calculate my mortgage payment").wary is None


def test_a_build_writes_its_file_and_check_says_whether_the_shipped_one_is_what_the_data_gives(tmp_path) -> None:
    out = tmp_path / "model.bin"
    document = {"weights": [1, 2]}

    def run(*argv: str) -> int:
        return build_actions.build_main(
            list(argv), module="m", about="a", build=lambda: document, encode=lambda d: bytes(d["weights"]),
            render=lambda d: "figures", out=out, target="x", weights=lambda d: "2 weights",
        )  # fmt: skip

    assert run("--check") == 1 and not out.exists()  # nothing shipped yet
    assert run() == 0 and out.read_bytes() == b"\x01\x02"
    assert run("--check") == 0
    document["weights"] = [3]  # the data moved on: the shipped file is stale
    assert run("--check") == 1 and out.read_bytes() == b"\x01\x02"
