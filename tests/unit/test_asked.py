"""Fields a request asks as questions (toolgen/intent/asked.py): the question word types the field, what it asks
about names it, and the tool it shapes records them (run through the tool's own app)."""

from __future__ import annotations

import datetime as dt
import json

import pytest

from tests.helpers import tool_event
from tests.unit.test_compose import Tool
from toolgen.intent import classify
from toolgen.intent.asked import asked
from toolgen.planner.offline import OfflinePlanner
from toolgen.runtime.expressions import aggregate
from toolgen.spec.openapi import build_spec


def _kinds(text: str) -> list[tuple[str, str]]:
    return [(str(a["said"]), str(a["type"])) for a in asked(text)]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("出差报销记账：日期、什么费用、金额、有没有发票、报没报", [("有没有发票", "boolean"), ("报没报", "boolean")]),
        ("小区团购接龙，记一下谁要几份、付没付钱、取没取货",
         [("姓名", "string"), ("要份数", "number"), ("付没付钱", "boolean"), ("取没取货", "boolean")]),
        ("抱石记录：线路难度几级、岩馆还是野外、完攀了没有",
         [("难度", "integer"), ("岩馆/野外", "choice"), ("完攀了没有", "boolean")]),
        ("借出去的钱记一下：谁借了多少、什么时候借的、已经还了多少",
         [("姓名", "string"), ("借款金额", "number"), ("借的日期", "date"), ("已还金额", "number")]),
        ("每天读经打卡，记一下读了哪卷第几章", [("卷", "string"), ("章", "number")]),
        ("每天喝了几杯水，做了几组俯卧撑", [("水（杯）", "number"), ("俯卧撑（组）", "number")]),
        ("收房租：每月几号交、逾期了几天", [("交日（几号）", "integer"), ("逾期天数", "number")]),
        # a measure word asked alone says what it counts: 哪本 a book, 哪首 a song, 哪家 a shop
        ("睡前看的哪本，看了几章", [("书", "string"), ("章", "number")]),
        ("通勤路上循环的哪首", [("歌", "string")]),
    ],
)  # fmt: skip
def test_a_chinese_question_gives_a_field_typed_by_its_question_word(text, expected):
    assert [k for k in _kinds(text) if k in expected] == expected


def test_a_figure_over_the_entries_is_not_a_field():
    # 实际赚多少 asks for a figure (income less fuel), not something to type in for each entry
    said = [s for s, _ in _kinds("想记每天接了多少单、跑了多少公里、收入多少，扣掉油费看实际赚多少")]
    assert said == ["接单数", "公里数", "收入"]


@pytest.mark.parametrize(
    ("text", "name", "kind"),
    [
        ("a mood diary: my mood 1-5 and what I was doing", "activity", "string"),
        ("practice log for guitar: date, minutes, what I worked on (scales, chords)", "topic", "string"),
        ("log my runs and which shoes I wore", "shoes", "string"),
        ("reading log: how many pages and whether I finished the chapter", "pages", "integer"),
        ("reading log: how many pages and whether I finished the chapter", "finished chapter", "boolean"),
        ("recipe box with name, ingredients and tags like vegetarian or quick", "tags", "string"),
        ("write down what my toddler eats at each meal", "food", "string"),  # a subject other than I, its verb's -s
        ("track how many hours my teenager games each day and what game", "game", "string"),  # what + a noun
        ("what kind of workout and how long", "workout", "string"),
        ("list of movies, and whether i've watched it", "watched", "boolean"),  # a contraction; 'it' is no field
        ("my plants with when i planted them", "date_planted", "date"),  # when I <did it>: that date
        ("the birds i spot, with the species and how many", "count", "integer"),  # how many, of nothing named
        ("night log for the baby: how many times she woke up, and the feeds", "times woke up", "integer"),  # the verb
        ("how many times I went out for a smoke", "times", "integer"),  # a light verb says nothing of its own
    ],
)
def test_an_english_question_gives_a_named_field(text, name, kind):
    assert (name, kind) in [(a["name"], a["type"]) for a in asked(text)]


@pytest.mark.parametrize(
    "text",
    ["what percent of days i did it", "what happened at work", "show how many days i did it", "what time it is"],
)
def test_what_is_a_figure_or_no_field_at_all_gives_no_string_field(text):
    assert [a for a in asked(text) if a["type"] == "string"] == []


def test_a_question_the_library_knows_is_the_librarys_field():
    (place,) = [a for a in asked("课外班安排：几点上课、在哪上") if a["type"] == "string"]
    assert place["field"] == "place"  # 在哪 asks for the library's place, not a guessed one


def test_asked_fields_join_a_composed_tool_and_record_what_was_asked():
    tool = Tool("抱石记录：线路难度几级、岩馆还是野外、完攀了没有")
    by_label = {spec.label: (name, spec) for name, spec in tool.fields.items()}
    name, where = by_label["岩馆/野外"]
    assert where.enum == ["岩馆", "野外"]
    assert "完攀了没有" not in by_label and tool.fields["sent"].type == "boolean"  # the climbing log has 完攀
    create = next(op.id for op in tool.program.operations if op.kind == "create")
    row = tool.call(create, {"date": "2026-12-01", name: "野外", "sent": True})
    assert row[name] == "野外" and row["sent"] is True
    path = tool.program.operation(create).path
    bad = tool.app.handle(tool_event("POST", path, token=tool.token, body={"date": "2026-12-01", name: "海边"}))
    assert bad["statusCode"] == 422  # a choice holds to its choices


def test_asked_fields_join_a_named_kind_too():
    tool = Tool("A little mood diary: rate my mood 1-5, what I was doing, and a sentence about it")
    assert tool.intent.archetype == "mood_journal"
    assert tool.fields["activity"].label == "What I was doing"


def test_the_bmi_calculator_gives_the_healthy_weight_range_at_that_height():
    tool = Tool("bmi calculator, I'm 175 cm and 80 kg, and tell me my healthy weight range")
    op = next(op for op in tool.program.operations if op.kind == "compute")
    query = {"weight": 80, "height": 175, "system": tool.program.defaults["system"]}
    response = tool.app.handle(tool_event(
        "GET", op.path, token=tool.token, query=query))  # fmt: skip
    body = json.loads(response["body"])
    assert (body["healthy_weight_min"], body["healthy_weight_max"]) == (56.7, 76.3)  # 18.5 and 24.9 x 1.75^2


def test_a_habits_completion_rate_counts_the_days_since_its_first_check_in():
    tool = Tool("habit tracker for flossing, show what percent of days I actually did it")
    metrics = next(op for op in tool.program.operations if op.kind == "aggregate").metrics
    rows = [{"date": d} for d in ("2026-11-24", "2026-11-26", "2026-11-30", "2026-12-03")]
    figures = aggregate(metrics, rows, ["date"], today=dt.date(2026, 12, 3))
    assert figures["completion_pct"] == 40  # the tool's own figure: 4 of the 10 days since the first check-in


@pytest.mark.parametrize(
    ("text", "label"),
    [
        ("which of barcelona, lisbon and porto will be warmest this week", "Highest temperature this week (°C)"),
        ("北京、上海、广州这周哪里雨最多", "本周降水量（毫米）"),
    ],
)
def test_a_weather_rankings_value_says_what_it_is_on_the_page_and_in_the_api(text, label):
    program = Tool(text).program
    assert program.labels["value"] == label
    spec = build_spec(program, "https://tool.example/")
    row = spec["paths"]["/ranking"]["get"]["responses"]["200"]["content"]["application/json"]["schema"]
    assert row["properties"]["items"]["items"]["properties"]["value"]["description"] == label


@pytest.mark.parametrize(
    ("text", "fields"),
    [
        ("car service log: date, odometer reading, parts replaced and which garage", {"odometer_km", "parts_replaced"}),
        ("收房租记录：租客、房租交了没有、逾期天数", {"is_paid", "days_late"}),
        ("log what I eat each day with protein, carbs and fibre", {"carbs_g", "fibre_g"}),
    ],
)
def test_everyday_fields_the_library_knows_join_the_tool_that_lacks_them(text, fields):
    tool = Tool(text)
    assert fields <= set(tool.fields)
    assert not any(tool.fields[name].required for name in fields)  # asked for, so offered; never demanded


@pytest.mark.parametrize(
    "text",
    [
        "habit tracker, show how many days I did it this month",
        "a countdown that tells me how many days are left until my trip",
        "想记每天花的钱，看看总共花了多少",
    ],
)
def test_a_question_about_the_entries_together_is_a_figure_not_a_field(text):
    assert asked(text) == []


def test_english_questions_come_back_in_the_order_they_are_asked():
    assert [a["name"] for a in asked("reading log: whether I finished and how many pages, which book")] == [
        "finished",
        "pages",
        "book",
    ]


def test_an_asked_field_the_shape_computes_is_left_to_the_shape():
    intent = classify("remind me of my friends' birthdays and show how many days are left")
    said = {"said": "days left", "name": "days_left", "type": "integer", "unit": None, "choices": None}
    intent = intent.model_copy(update={"slots": {**intent.slots, "asked": [{**said, "field": None, "sum": False}]}})
    program = OfflinePlanner().plan("birthdays", intent, []).program  # validates: no stored field shadows a figure
    assert "days_left" not in next(iter(program.entities.values())).fields
    assert any("days_left" in (op.computed or {}) for op in program.operations if hasattr(op, "computed"))


def test_who_is_read_by_what_it_asks_about():
    said = [
        a["said"] for a in asked("看过的电影记一下，给电影打几分、跟谁看的") + asked("送礼记录：给谁送了什么、谁付的钱")
    ]
    assert said[:2] == ["分数", "同伴"] and said[2:4] == ["对象", "送了什么"] and "姓名" in said[4:]


def test_a_quantity_written_with_its_unit_fills_the_input_of_that_unit_whatever_its_place():
    tool = Tool("whats my TDEE? 34 female, 165cm, 70kg, lightly active")
    op = next(op for op in tool.program.operations if op.kind == "compute")
    assert (op.inputs["weight_kg"].default, op.inputs["height_cm"].default) == (70, 165)
    query = {name: str(spec.default) for name, spec in op.inputs.items()}
    figures = json.loads(tool.app.handle(tool_event("GET", op.path, token=tool.token, query=query))["body"])
    assert figures["lose_women"] == figures["daily_women"] - 500  # TDEE, and what losing weight takes


@pytest.mark.parametrize(
    ("text", "english"),
    [
        ("做手工，每天编了几根记一下", "count"),  # a measure with no thing named: a count, and 记一下 is no part of it
        ("想少抽点烟 今天抽了几根", "cigarettes"),  # the question glossary knows what 抽了几根 counts
        ("我周末跑外卖，记录每天做了多少单", "orders"),  # the measure names what is counted
        ("游了多少公里", "km"),
        ("随了多少", "gift money"),  # money that changed hands, by its verb
    ],
)
def test_a_chinese_count_has_an_english_name_from_its_measure_or_verb(text, english):
    (item,) = asked(text)
    assert item["en"] == english and item["type"] == "number"
    assert "记" not in item["said"]


def test_a_chinese_count_of_a_thing_is_named_in_english_by_the_thing():
    tool = Tool("每天背了多少个单词记一下")
    (name,) = [n for n, spec in tool.fields.items() if spec.label == "单词"]
    assert name == "words"  # not asked_1: the API and the English page name what is counted
    fishing = Tool("钓鱼日志：日期、钓点、鱼种、钓了几条")
    assert fishing.fields["fish_caught"].type == "number"  # as the question glossary names 钓了几条
    assert fishing.fields["date"].type == "date"  # 日期 listed is the library's date, never a number to average


def test_which_day_is_a_date_and_a_one_character_noun_is_named_in_english():
    chores = {a["said"]: a for a in asked("家务记录，谁哪天干了什么活")}
    assert chores["日期"]["type"] == "date" and "天干了什么" not in chores  # 哪天 is when, not which 天
    medicine = Tool("我爸记性不好，做个每天吃药的记录：什么药、几点吃的")
    assert medicine.fields["medication"].label == "药"  # 什么药 is a field named as the glossary names it
    assert medicine.fields["time"].type == "time"


def test_what_set_it_off_asks_for_the_trigger_and_a_count_per_day_is_a_log():
    (trigger,) = [a for a in asked("how many inhaler puffs a day and what set it off") if a["type"] == "string"]
    assert trigger["name"] == "trigger"
    assert classify("asthma: how many inhaler puffs a day and what set it off").shape == "log"


@pytest.mark.parametrize(
    ("text", "name"),
    [("money I've lent to friends: who, how much, when", "amount"),  # a bare 'how much' in a list is the amount
     ("sourdough starter log: flour amounts, how much it rose", "rise"),  # how much it changed, by its verb
     ("the kids' heights, and how much they grew", "growth")],
)  # fmt: skip
def test_how_much_asks_an_amount_or_the_change_its_verb_names(text, name):
    assert name in [a["name"] for a in asked(text) if a["type"] == "number"]
    assert asked("show me how much is left") == []  # a figure over the rows, not a field


def test_which_year_asks_for_the_year_and_a_time_asked_stops_before_the_verb_of_noting() -> None:
    assert [(a["said"], a["type"], a.get("en")) for a in asked("记一下每瓶酒是哪年的")] == [("年份", "integer", "year")]
    assert [(a["said"], a["type"]) for a in asked("几点起床的记一下")] == [("起床时间", "time")]


@pytest.mark.parametrize(
    ("text", "said", "english", "kind"),
    [
        ("我在夜市卖煎饼 每天记一下最后赚了多少", "最后赚", "earnings", "number"),  # no "final": 最后 is when
        ("孩子听写 错了几个记一下", "错个数", "mistakes", "number"),  # not a count of anything
        ("奶茶店 退货几单", "退货单数", "returns", "number"),  # no orders: what came back
        ("宝宝的奶 每次多少毫升", "毫升", "milliliters", "number"),  # the unit the reader reads is kept
        ("猫咪记录 便便正不正常", "便便正不正常", "normal stool", "boolean"),
    ],
)
def test_a_question_the_glossary_knows_is_named_as_it_names_it(text: str, said: str, english: str, kind: str) -> None:
    (item,) = asked(text)
    assert (item["said"], item["en"], item["type"]) == (said, english, kind)


def test_a_question_that_says_only_what_it_asks_is_named_by_the_reader_and_a_choice_keeps_its_options() -> None:
    (size,) = asked("买鞋记录：多大")
    assert size["en"] == "size"  # 多大 of shoes, not the glossary's age
    (fed,) = asked("宝宝喂奶 母乳还是奶粉")
    assert fed["type"] == "choice" and fed["choices"] == ["母乳", "奶粉"]


def test_what_someone_is_called_names_them_and_noting_it_down_is_no_part_of_a_count() -> None:
    (barber,) = asked("理发记录 理发师叫啥")
    assert (barber["said"], barber["type"]) == ("理发师", "string")  # the barber, named in English by the glossary
    assert "barber" in Tool("剪头发记录 理发师叫啥 剪的啥发型").fields
    assert [a["said"] for a in asked("给我理发的师傅叫啥")] == ["师傅"]  # the one after its 的
    # 记一下 after a count is no part of it; after a yes-or-no it is what is asked; 记账 is a word, not 记 and 账
    assert [a["said"] for a in asked("默写 错了几个记一下")] == ["错个数"]
    assert [(a["said"], a["type"]) for a in asked("单词是否记下")] == [("单词是否记下", "boolean")]
    assert [a["said"] for a in asked("每天记账花了多少")] == ["记账花"]


def test_a_label_that_is_a_question_word_does_not_answer_how_long() -> None:
    visits = Tool("keep notes on my client visits: how long each took")
    assert visits.fields["visit_kind"].label == "How"  # how a client was met: in person, a call
    assert visits.fields["duration"].type == "number"  # still asked: "how" is no answer to "how long"
