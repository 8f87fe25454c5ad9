"""Chinese is a first language: a Chinese request's tool speaks Chinese everywhere a person reads it.

Every Chinese request of the labelled set (tests/data/intents.jsonl) is planned offline and its page rendered; the
page's config is then held to Chinese names for every figure, Chinese labels for every field, and no choice or
default in English words (unit symbols and currency codes are symbols, not words; a name the request itself gave
stays as given). The choices' meanings follow their Chinese names (the caffeine table, the books read, the unit
system, the weekday order), the tool's own error messages are Chinese, and so is the question an unclear request
gets back.
"""

from __future__ import annotations

import datetime as dt
import json
import re
from pathlib import Path
from typing import Any

import pytest

from tests.fakes import FakeTable
from tests.helpers import ARCHETYPE_PROMPTS, tool_event
from toolgen import auth
from toolgen.intent import classify
from toolgen.intent.archetypes import ARCHETYPES
from toolgen.intent.classify import clarifying_question
from toolgen.intent.gazetteer import UNITS
from toolgen.models import Intent
from toolgen.planner import OfflinePlanner
from toolgen.planner.lookups import FX_CURRENCIES
from toolgen.program import ToolProgram
from toolgen.runtime import ToolApp, view
from toolgen.ui import render_page

KINDS = sorted(ARCHETYPE_PROMPTS)  # the eighteen
LOOKUPS = {"weather_ranking", "currency_converter"}  # their plans are in planner/lookups.py
CJK = re.compile(r"[\u4e00-\u9fff]")
WORD = re.compile(r"[A-Za-z][A-Za-z_ ']*")  # an English word or phrase, as a raw key or value would be
SYMBOLS = set(UNITS) | set(FX_CURRENCIES)
LABELLED = Path(__file__).parents[1] / "data" / "intents.jsonl"
SECRET = "parity-secret"
TODAY = dt.date(2026, 12, 2)  # a Wednesday


def chinese_requests() -> dict[str, list[str]]:
    """The labelled set's Chinese requests, by the kind they are labelled with."""
    found: dict[str, list[str]] = {kind: [] for kind in KINDS}
    for line in LABELLED.read_text().splitlines():
        row = json.loads(line)
        if row.get("archetype") in found and CJK.search(row["text"]):
            found[row["archetype"]].append(row["text"])
    return found


REQUESTS = chinese_requests()


def plan(prompt: str) -> ToolProgram:
    return OfflinePlanner().plan(prompt, classify(prompt), []).program


def page_config(program: ToolProgram) -> dict[str, Any]:
    html = render_page(program, "https://abc.lambda-url.us-east-1.on.aws").html
    found = re.search(r'<script type="application/json" id="tool-config">(.*?)</script>', html, re.DOTALL)
    assert found, "the page carries its config"
    return json.loads(found.group(1))


def figures(program: ToolProgram) -> set[str]:
    return {
        n for op in program.operations for a in ("metrics", "outputs", "computed") for n in getattr(op, a, None) or {}
    }


def field_specs(config: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """Every field a person fills or reads on the page (entity fields, compute and fetch inputs), by where it is."""
    specs = {f"{e}.{n}": s for e, entity in config["entities"].items() for n, s in entity["fields"].items()}
    specs.update({f"{op['id']}.{n}": s for op in config["operations"] for n, s in (op.get("inputs") or {}).items()})
    return specs


def english(value: Any, prompt: str) -> bool:
    """A value shown in English words: not a symbol, and not a name the request itself gave."""
    return isinstance(value, str) and bool(WORD.fullmatch(value)) and value not in SYMBOLS and value not in prompt


def chinese_cases() -> list[Any]:
    """(kind, request) for every Chinese request that the classifier reads as its labelled kind."""
    cases = []
    for kind, prompts in REQUESTS.items():
        cases += [
            pytest.param(kind, p, id=f"{kind}-{i}") for i, p in enumerate(prompts) if classify(p).archetype == kind
        ]
    return cases


CASES = chinese_cases()
FIRST_CHINESE = {kind: prompt for kind, prompt in reversed([tuple(case.values) for case in CASES])}
ENGLISH = {**ARCHETYPE_PROMPTS, "habit_tracker": "track my daily habits", "reading_list": "a reading list"}


@pytest.mark.parametrize("kind", KINDS)
def test_every_kind_has_chinese_requests_that_are_read_as_it(kind):
    assert any(case.values[0] == kind for case in CASES), f"no Chinese request of the labelled set plans {kind}"


@pytest.mark.parametrize(("kind", "prompt"), CASES)
def test_a_chinese_page_names_every_figure_in_chinese(kind, prompt):
    program = plan(prompt)
    shown = page_config(program)["labels"]["metrics"]
    assert program.archetype == kind and program.ui.lang == "zh"
    untranslated = {name: shown.get(name) for name in figures(program) if not CJK.search(shown.get(name) or "")}
    assert not untranslated, f"figures shown without a Chinese name: {untranslated}"


@pytest.mark.parametrize(("kind", "prompt"), CASES)
def test_a_chinese_page_has_chinese_field_labels_choices_and_defaults(kind, prompt):
    program = plan(prompt)
    config = page_config(program)
    assert CJK.search(program.title)
    assert all(CJK.search(entity["label"]) for entity in config["entities"].values())
    for where, spec in field_specs(config).items():
        assert CJK.search(spec["label"]), f"{where}: label {spec['label']!r} is not Chinese"
        english_choices = [v for v in spec.get("enum") or [] if english(v, prompt)]
        assert not english_choices, f"{where}: choices in English {english_choices}"
        assert not english(spec.get("default"), prompt), f"{where}: default {spec['default']!r} is in English"
        if spec.get("enum") and spec.get("default") is not None:
            assert spec["default"] in spec["enum"], f"{where}: its default is not one of its choices"


def test_a_chinese_page_says_yes_no_and_nothing_in_chinese():
    labels = page_config(plan("待办清单"))["labels"]
    assert (labels["yes"], labels["no"], labels["none"]) == ("是", "否", "无")
    english_labels = page_config(plan("a todo list"))["labels"]
    assert (english_labels["yes"], english_labels["no"], english_labels["none"]) == ("✓", "✗", "—")


@pytest.mark.parametrize("kind", sorted(set(KINDS) - LOOKUPS))
@pytest.mark.parametrize("lang", ["en", "zh"])
def test_every_plan_carries_the_names_of_its_figures_in_its_language(kind, lang):
    prompt = FIRST_CHINESE[kind] if lang == "zh" else ENGLISH[kind]
    program = plan(prompt)
    assert program.ui.lang == lang
    assert set(program.labels) == figures(program)
    assert all(bool(CJK.search(label)) == (lang == "zh") for label in program.labels.values()), program.labels


def test_a_page_without_labels_in_its_program_still_names_its_figures():
    program = plan("我想记录每天晨跑").model_copy(update={"labels": {}})
    assert page_config(program)["labels"]["metrics"]["pace_min_per_km"] == "配速（分钟/公里）"


def test_the_programs_own_labels_come_first():
    program = plan("我想记录每天晨跑")
    program = program.model_copy(update={"labels": {**program.labels, "runs": "跑了几次"}})
    assert page_config(program)["labels"]["metrics"]["runs"] == "跑了几次"


def test_english_tools_keep_their_choices():
    assert plan("a to-do list").entities["task"].fields["priority"].enum == ["high", "normal", "low"]
    assert plan("a reading list").entities["book"].fields["status"].enum == ["want", "reading", "done"]
    drink = plan("track how much caffeine I drink").entities["drink"].fields["drink"]
    assert drink.default == "coffee" and "green_tea" in (drink.enum or [])


class Tool:
    """A tool planned from ``prompt``, called in-process as its deployed self reads its program."""

    def __init__(self, prompt: str) -> None:
        self.program = plan(prompt)
        deployed = view._view(json.loads(self.program.model_dump_json()), "program")
        self.app = ToolApp(
            deployed,  # type: ignore[arg-type]
            tool_id="t" + "3" * 20,
            owner="mei",
            table=FakeTable(),
            secret=SECRET,
            clock=lambda: TODAY,
        )

    def send(self, method: str, path: str, body: Any = None, **query: Any) -> tuple[int, Any]:
        event = tool_event(method, path, token=auth.mint("mei", SECRET), query=query or None, body=body)
        response = self.app.handle(event)
        return response["statusCode"], json.loads(response["body"]) if response["body"] else None

    def ok(self, method: str, path: str, body: Any = None, **query: Any) -> Any:
        status, answer = self.send(method, path, body, **query)
        assert status < 300, answer
        return answer


def test_a_chinese_caffeine_log_knows_each_drinks_caffeine_by_its_chinese_name():
    caffeine = Tool("记录我每天喝多少咖啡")
    assert caffeine.program.entities["drink"].fields["drink"].default == "咖啡"
    assert caffeine.ok("POST", "/drinks", {"drink": "拿铁", "time": "09:00"})["mg"] == 63
    assert caffeine.ok("POST", "/drinks", {"time": "10:00"})["mg"] == 95  # the default drink: coffee
    assert caffeine.ok("GET", "/today")["metrics"]["mg"] == 158


def test_a_chinese_reading_list_counts_the_books_read_by_their_chinese_status():
    books = Tool("我的书单")
    books.ok("POST", "/books", {"title": "三体", "status": "读完", "finished": "2026-03-01"})
    books.ok("POST", "/books", {"title": "红楼梦"})
    assert books.ok("GET", "/goal")["metrics"] == {"read": 1, "goal": 12.0, "left": 11.0}
    assert [b["status"] for b in books.ok("GET", "/books")["items"]] == ["想读", "读完"]  # in the choices' order
    assert [g["key"] for g in books.ok("GET", "/stats")["groups"]] == ["想读", "读完"]


def test_a_chinese_focus_plan_sorts_its_chinese_weekdays_in_week_order():
    focus = Tool("安排一周的专注时间")
    for day in ("周五", "周一", "周三"):
        focus.ok("POST", "/blocks", {"day": day, "focus": "写作"})
    assert [b["day"] for b in focus.ok("GET", "/blocks")["items"]] == ["周一", "周三", "周五"]


def test_a_chinese_bmi_calculator_works_in_both_unit_systems_by_their_chinese_names():
    bmi = Tool("帮我算一下体重指数")
    assert bmi.ok("GET", "/bmi", weight=70, height=175)["category"] == "正常"
    assert bmi.ok("GET", "/bmi", weight=200, height=70, system="英制")["category"] == "超重"


def test_a_chinese_todo_list_filters_by_its_chinese_priorities():
    todo = Tool("待办清单")
    todo.ok("POST", "/tasks", {"title": "交房租", "priority": "高"})
    todo.ok("POST", "/tasks", {"title": "买牛奶"})
    assert [t["title"] for t in todo.ok("GET", "/tasks", priority="普通")["items"]] == ["买牛奶"]


def test_a_chinese_tool_says_what_is_wrong_in_chinese_naming_fields_by_their_labels():
    runs = Tool("我想记录每天晨跑")
    status, answer = runs.send("POST", "/runs", {"date": "明天", "distance": "远", "minutes": -1, "colour": "红"})
    assert status == 422 and answer["code"] == "invalid_input"
    assert (
        answer["message"] == "输入有误（colour：未知字段；日期：应为 YYYY-MM-DD 格式的日期；"
        "距离（公里）：应为数字；用时（分钟）：太小）"
    )
    # the details are for programs: the same in every language
    assert answer["details"] == {
        "colour": "unknown field",
        "date": "expected YYYY-MM-DD",
        "distance": "expected number",
        "minutes": "too small",
    }


@pytest.mark.parametrize(
    ("method", "path", "body", "status", "code", "message"),
    [
        ("GET", "/nothing", None, 404, "not_found", "没有这个接口：GET /nothing"),
        ("DELETE", "/runs/r0000000000000000000z", None, 404, "not_found", "找不到这条记录（r0000000000000000000z）"),
        ("POST", "/runs", [1, 2], 422, "invalid_input", "请求体必须是 JSON 对象"),
    ],
)
def test_a_chinese_tools_other_errors_are_chinese_with_the_same_codes(method, path, body, status, code, message):
    assert Tool("我想记录每天晨跑").send(method, path, body) == (
        status,
        {"code": code, "message": message, "details": None},
    )


def test_an_english_tool_still_says_it_in_english():
    # a null date is not given, so it takes its default (today); a missing distance is still required
    status, answer = Tool("I want to log my runs").send("POST", "/runs", {"date": None})
    assert status == 422 and answer["message"] == "invalid input (distance: required)"


def test_a_chinese_tool_refuses_a_bad_token_in_chinese():
    runs = Tool("我想记录每天晨跑")
    response = runs.app.handle(tool_event("GET", "/runs", token="not-a-token"))
    answer = json.loads(response["body"])
    assert response["statusCode"] == 401 and answer["code"] == "unauthorized" and CJK.search(answer["message"])


@pytest.mark.parametrize("archetype", ARCHETYPES, ids=lambda a: a.name)
def test_every_kind_has_its_clarifying_question_in_chinese(archetype):
    assert CJK.search(archetype.question_zh) and not WORD.search(archetype.question_zh.replace("BMI", ""))


def test_an_unclear_chinese_request_is_asked_back_in_chinese():
    unclear = Intent(archetype=None, confidence=0.3, lang="zh", candidates=["run_log", "habit_tracker"])
    question = clarifying_question(unclear)
    assert "跑步" in question and "习惯" in question and not WORD.search(question)
    nothing = clarifying_question(Intent(archetype=None, confidence=0.0, lang="zh"))
    assert CJK.search(nothing) and not WORD.search(nothing)


def test_an_unclear_english_request_is_still_asked_in_english():
    unclear = Intent(archetype=None, confidence=0.3, lang="en", candidates=["run_log"])
    assert clarifying_question(unclear) == "Do you want to log your runs (date, distance, time)?"
