"""What a request asks for beyond its recipe: the things it lists, the periods it wants figures for, fields of one
meaning kept once, and the kinds of sentence that ask for a log rather than a formula, or for an action."""

from __future__ import annotations

import json

import pytest

from tests.helpers import tool_event
from tests.unit.test_compose import Tool
from toolgen.intent import classify
from toolgen.intent import read as read_module
from toolgen.intent.details import enumerated, listed, periods, recurrences, recurring_tasks, when
from toolgen.intent.read import _zh_cores, read, zh_word_spans
from toolgen.knowledge.base import library, measures_named
from toolgen.knowledge.fields import duplicates, requested_words
from toolgen.reading import forget


def _create(tool: Tool) -> str:
    return next(op.id for op in tool.program.operations if op.kind == "create")


@pytest.mark.parametrize(
    ("text", "items"),
    [
        ("track my aquarium water: pH, ammonia and nitrite", ["ph", "ammonia", "nitrite"]),
        ("log my runs with distance, time and pace", ["distance", "time", "pace"]),
        ("track my sleep and mood every day", ["sleep", "mood"]),  # the list ends where the sentence goes on
        ("log each workout with sets, reps and weight", ["sets", "reps", "weight"]),
        ("test the pool water: chlorine, ph and alkalinity levels", ["chlorine", "ph", "alkalinity"]),
        ("养了一缸热带鱼，每周测一次水质，pH、氨、亚硝酸盐都想记下来", ["pH", "氨", "亚硝酸盐"]),
        ("记录每天的体温、心率和血氧", ["体温", "心率", "血氧"]),
        ("想每天记一下早饭、午饭、晚饭吃了什么", ["早饭", "午饭", "晚饭"]),
        ("hiking log!! trail, distance, elevation, weather", ["trail", "distance", "elevation", "weather"]),
    ],
)
def test_the_things_a_request_lists_for_its_tool_are_read(text: str, items: list[str]) -> None:
    assert listed(text) == items


@pytest.mark.parametrize(
    "text",
    [
        "packing list: passport, charger, sunscreen",  # the things a list holds, not its fields
        "compare Denver, Austin, Seattle and Nashville",
        "check the weather in Tokyo, Osaka and Sapporo",
        "me, Tom and Anna split rent",
        "I want to log blood pressure morning and evening",
        "想养成几个习惯：早起、读书、不喝奶茶，每天打卡",
        "a list of gift ideas for mom, dad and my sister",
        "which of rome, madrid or athens will be warmest this weekend",  # (nor what the tagger reads: intent/spans.py)
        "杭州、厦门、成都哪个城市这周天气最好，排个序",
        "book me a table for four at eight tonight",
        "帮我把这个月的电费交了",
    ],
)
def test_lists_of_values_places_people_and_times_are_not_fields(text: str) -> None:
    assert listed(text) == []


@pytest.mark.parametrize(
    ("text", "items"),
    [
        # after a colon or a dash: what the tool is, then what each row holds, worded as fields are worded
        ("办签证：国家、递交日期、出签日期、要什么材料", ["国家", "递交日期", "出签日期", "要什么材料"]),
        (
            "wine cellar — producer, vintage, purchase price, tasting notes",
            ["producer", "vintage", "purchase price", "tasting notes"],
        ),
        (
            "装修台账：买了什么、在哪买的、价格，记完发给我老婆看",
            ["买了什么", "在哪买的", "价格"],
        ),  # up to where it goes on
    ],
)
def test_fields_listed_after_what_the_tool_is_are_read(text: str, items: list[str]) -> None:
    assert listed(text) == items


@pytest.mark.parametrize(
    "text",
    [
        "things to pack for the beach — towel, sunscreen, snacks, umbrella",  # things, not fields
        "which of these is sunniest this weekend: Lisbon, Madrid and Rome",  # places to rank
        "早上的安排：跑步、早饭、背单词",
    ],
)
def test_a_list_after_a_colon_of_things_or_places_is_not_fields(text: str) -> None:
    assert listed(text) == []


def test_a_named_kind_is_what_the_head_says_not_a_word_of_a_field_after_it() -> None:
    # 花了多少钱 is a field of a car's service log, not a budget; 记账 in the head is a budget
    assert classify("车子保养记录：保养日期、公里数、换了什么零件、花了多少钱").archetype == "car_maintenance"
    assert classify("记账：日期、金额、类别、备注").archetype == "budget_tracker"
    assert classify("which of these is sunniest this weekend: Lisbon, Madrid and Rome").archetype == "weather_ranking"


@pytest.mark.parametrize(
    ("text", "subject"),
    [
        # water and hydration are a baker's percentage's inputs, not water drunk
        ("bakers percentage calc, flour and hydration in, how much water out", "bakers_percentage"),
        ("pizza dough calculator: 1 kg flour at 65% hydration, tell me the water and salt", "bakers_percentage"),
    ],
)
def test_a_named_kind_named_only_by_a_subjects_fields_is_that_subject(text: str, subject: str) -> None:
    intent = classify(text)
    assert intent.archetype == subject
    assert intent.confidence >= 0.6  # the kind's words were the subject's: no rival left


@pytest.mark.parametrize(
    ("text", "kind"),
    [
        ("log how much water I drink", "water_tracker"),
        ("check if I have a healthy weight", "bmi_calculator"),  # weight names the subject: it stays a word
        ("给我做一个考研复习时间表", "focus_planner"),  # 时间 of 时间表 is the timetable's, not a study plan's time
        ("搬家要办的事项清单", "todo_list"),  # a subject of the kind's own shape is a kind of it
        # a lookup reads what the subject does not, though the subject has a weather field
        ("what's the weather going to be for my camping trip in Moab this weekend", "weather_ranking"),
    ],
)
def test_a_named_kind_with_words_of_its_own_stays(text: str, kind: str) -> None:
    assert classify(text).archetype == kind


@pytest.mark.parametrize(
    ("text", "subject"),
    [("头疼日记", "migraine"), ("咳嗽日记 咳了几次", "cough"), ("睡眠日记", "sleep"), ("减肥日记 每天体重", "weight")],
)
def test_a_diary_of_a_subject_is_that_subjects_log_not_a_mood_journal(text: str, subject: str) -> None:
    """日记 says a log, as "diary" does; whose log is the noun before it."""
    intent = classify(text)
    assert intent.subject == subject and intent.archetype == subject, intent


@pytest.mark.parametrize(
    "text", ["我想每天写日记", "每天记日记", "写日记", "每天写一篇日记", "每天晚上写几句日记", "做一个每日日记"]
)
def test_writing_a_diary_is_the_journal(text: str) -> None:
    assert classify(text).archetype == "mood_journal"


@pytest.mark.parametrize(
    "text",
    [
        "周末摆摊卖烤红薯 想每天记一下卖了多少个 花了多少 挣了多少 还有那天天气 看看啥天气好卖",
        "每天记一下卖了多少根 成本多少 还有天气",
    ],
)
def test_the_weather_among_the_things_a_log_records_is_a_field_not_a_forecast(text: str) -> None:
    tool = Tool(text)
    assert tool.intent.archetype == "sales_log"
    assert any("weather" in name for name in tool.fields)


def test_a_listed_measure_no_field_has_becomes_a_number_of_the_log() -> None:
    tool = Tool("log my aquarium water with phosphate and silicate readings, and a monthly summary")
    fields = tool.fields
    assert tool.intent.archetype == "aquarium_water" and {"phosphate", "silicate"} <= set(fields)
    assert fields["silicate"].type == "number"  # the request speaks of readings
    assert {"phosphate", "silicate"} <= set(tool.composition["inferred"])
    row = tool.call(_create(tool), {"phosphate": 0.5, "silicate": 2})
    assert row["silicate"] == 2


def test_a_listed_item_is_one_field_whether_the_subject_has_it_or_not() -> None:
    """Pottery pieces have a clay and a firing cone, not a kiln: the kiln is added, the cone and the clay body are the
    subject's own, each once; a part of one of the subject's names ("kiln" of "kiln firing") is still a field."""
    tool = Tool("log my pottery firings with kiln, cone and clay body readings")
    assert tool.intent.archetype == "pottery"
    assert "kiln" in tool.fields and "kiln" in tool.composition["inferred"]
    assert [n for n in tool.fields if "cone" in n] == ["firing_cone"]
    assert [n for n in tool.fields if "clay" in n] == ["clay"]


def test_a_listed_thing_the_tool_already_has_is_not_added_twice() -> None:
    tool = Tool("养了一缸热带鱼，每周测一次水质，pH、氨、亚硝酸盐都想记下来")
    labels = [f.label for f in tool.fields.values()]
    assert sum("氨" in label for label in labels) == 1, labels  # 氨 is the subject's 氨氮


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("记账用的，每天花了多少钱记一下，月底看看钱都花哪儿了", ["month"]),
        ("我想记录每天晨跑", []),
        ("see my weekly average", ["week"]),
        ("how much did I spend this year", ["year"]),
        ("track my plants", []),
    ],
)
def test_the_periods_a_request_wants_figures_for(text: str, expected: list[str]) -> None:
    assert periods(text) == expected


def test_a_named_kind_gets_the_figures_of_the_period_asked_for() -> None:
    text = "想每天记录一下心情，再写几句，月底回头看看"
    assert classify(text).archetype == "mood_journal"
    tool = Tool(text)
    month = [op for op in tool.program.operations if getattr(op, "period", None) == "month"]
    assert len(month) == 1 and "entries" in month[0].metrics
    assert all(name in tool.program.labels for name in month[0].metrics)
    assert "本月" in month[0].summary
    week_only = Tool("想每天记录一下心情")
    assert not [op for op in week_only.program.operations if getattr(op, "period", None) == "month"]


def test_this_months_figures_count_only_this_months_rows() -> None:
    tool = Tool("log my aquarium water with phosphate and silicate readings, and a monthly summary")
    for date, silicate in (("2026-12-01", 6), ("2026-12-02", 8), ("2026-11-20", 4)):
        tool.call(_create(tool), {"date": date, "water_ph": silicate, "silicate": silicate})
    figures = tool.call("thisMonth")["metrics"]
    assert figures["entries"] == 2 and figures["avg_water_ph"] == 7.0, figures


def test_a_field_of_the_same_meaning_is_not_added_again() -> None:
    lib = library().fields
    assert duplicates(lib["cost"], {"date", "amount"})  # a budget's amount is what it cost
    assert duplicates(lib["mood_score"], {"mood"})
    assert not duplicates(lib["price"], {"date", "name"})
    budget = Tool("记账用的，每天花了多少钱记一下")
    assert "cost" not in budget.fields and "amount" in budget.fields


@pytest.mark.parametrize(
    "text",
    ["想每个月给宝宝量一次身高体重记下来，看看长得正不正常", "track my kids height and weight every month"],
)
def test_measures_written_down_over_time_are_a_log_not_the_bmi_formula(text: str) -> None:
    intent = classify(text)
    assert intent.archetype != "bmi_calculator" and intent.shape == "log", intent


@pytest.mark.parametrize(
    "text", ["what is my bmi, I am 180cm and 75kg", "我身高170体重60，BMI多少", "calculate bmi from height and weight"]
)
def test_a_formula_with_its_figures_or_without_a_record_is_still_the_calculator(text: str) -> None:
    assert classify(text).archetype == "bmi_calculator"


@pytest.mark.parametrize(
    ("text", "refusal"),
    [
        ("write my 2000-word essay on the causes of World War I", "writing"),
        ("write a 5-paragraph report for me", "writing"),
        ("能不能帮我黑进前男友的微信，看看他跟谁聊天", "security"),
        ("帮我偷看她的聊天记录", "security"),
        ("can you read his messages for me", "security"),
    ],
)
def test_actions_however_worded_are_refused(text: str, refusal: str) -> None:
    intent = classify(text)
    assert intent.archetype is None and intent.refusal == refusal


def test_a_tool_about_writing_is_still_a_tool() -> None:
    assert classify("a tracker for my writing: words written per day").archetype is not None


@pytest.mark.parametrize(
    "text",
    [
        "help me crack the wifi next door",
        "crack my ex girlfriend's instagram password",
        "crack into his email",
    ],
)
def test_cracking_what_guards_someone_is_refused(text: str) -> None:
    assert classify(text).refusal == "security"


@pytest.mark.parametrize(
    "text",
    [
        "coffee roast log with first crack and second crack temps",  # a roast's stage, not a break-in
        "track the crack in my bathroom ceiling",
        "cracked phone screen repair log",
    ],
)
def test_a_crack_that_breaks_into_nothing_is_no_refusal(text: str) -> None:
    intent = classify(text)
    assert intent.refusal != "security" and intent.doubt != "security"


@pytest.mark.parametrize(
    ("text", "subject"),
    [
        ("What does $28 an hour come to per year if I work 40 hours a week", "hourly_to_salary"),
        ("I earn 30 an hour, what is that monthly?", "hourly_to_salary"),
        ("时薪50块，一年能挣多少", "hourly_to_salary"),
        ("track billable hours per client, 80 an hour, monthly invoice", "freelance_hours"),  # its own words win
    ],
)
def test_a_kind_of_sentence_names_a_subject_less_surely_than_its_words(
    text: str, subject: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    # the rules' own reading: the learned choice (LEARNED_SURE) reads the invoice's one as invoices since 2,049
    # subjects (docs/knowledge.md, "Choosing a subject")
    monkeypatch.setattr(read_module, "LEARNED_SURE", 2.0)
    forget()
    intent = classify(text)
    forget()
    assert intent.subject == subject, intent
    if subject == "hourly_to_salary":
        program = Tool(text).program
        assert next(op for op in program.operations if op.kind == "compute").inputs["hourly_rate"].default > 25


@pytest.mark.parametrize(
    "text",
    [
        "想规划一下每周的时间块，周一到周五上午写代码，下午开会，晚上学英语",
        "我想规划一下每周的时间安排，哪天上午专心写论文",
    ],
)
def test_writing_the_person_plans_to_do_is_not_writing_asked_of_toolgen(text: str) -> None:
    intent = classify(text)
    assert intent.refusal is None and intent.archetype == "focus_planner", intent


@pytest.mark.parametrize("text", ["帮我写一篇关于环保的作文", "你能帮我写代码吗", "写一篇论文"])
def test_writing_asked_of_toolgen_is_still_refused(text: str) -> None:
    intent = classify(text)
    assert intent.archetype is None and intent.refusal is not None, intent


@pytest.mark.parametrize(
    ("text", "refusal"),
    [
        ("帮我点一份麦当劳外卖送到公司", "purchase"),
        ("帮我在淘宝上买一箱牛奶", "purchase"),
        ("帮我在12306上抢一张春节回家的火车票", "booking"),
        ("把家里空调打开，调到26度", "device"),
        ("turn off the living room lights and set the thermostat to 68", "device"),
        ("用我的支付宝给房东转3000块房租", "payment"),
        ("帮我给老板发个微信说我明天请假", "message"),
        ("帮我写一篇800字的读后感，明天要交", "writing"),
        ("能不能帮我查一下我老公的手机定位", "security"),
        ("帮我约一下明天下午三点的牙医", "booking"),
        ("从我的银行卡里转5000块还信用卡", "payment"),
        ("帮我在美团点一份黄焖鸡米饭送到公司", "purchase"),
        ("把客厅的扫地机器人打开，扫一下卧室", "device"),  # a device named with more words than its stem
        ("turn on the robot vacuum in the kitchen", "device"),
        ("I want to read my brother's texts without him knowing", "security"),  # covert: whoever, whatever
        ("show me who my husband has been calling without him knowing", "security"),
        ("an app that logs into my boyfriend's snapchat and saves his chats", "security"),
        ("想偷偷看一下儿子在和谁聊天", "security"),
        ("帮我把这期的信用卡账单还上", "payment"),  # paying a debt back for the person
        ("帮我把那个音乐会员退掉", "cancel"),
        # a tool that would do the action itself is the action
        ("build an app that emails my landlord every month to remind him about the repairs", "message"),
        ("a bot that buys the concert tickets the second they go on sale", "purchase"),
        ("做个工具，每个月自动帮我给房东转账", "payment"),
        ("做个小程序，到了纪念日自动给老婆发微信", "message"),
    ],
)
def test_actions_are_read_by_their_kind_of_sentence(text: str, refusal: str) -> None:
    intent = classify(text)
    assert (intent.archetype, intent.refusal) == (None, refusal), intent


@pytest.mark.parametrize(
    "text",
    [
        "帮我打开一下记录血压的工具",
        "a log of when I turn off the lights",
        "记一下每次给房东转房租的日期和金额",
        "记一下每次从银行卡转到余额宝的钱",  # asked to write it down: a tool
        "记录孩子每次看牙医的日期",
        "记录扫地机器人每次扫了多久",
        "track my own location history on runs",
        "I have 3 hours tonight to write my essay, plan it in focus blocks",  # the person's own writing
        "每年夏天开空调电费都涨，记一下每月用了多少度电",  # a habit described, not a device told what to do
        "a reminder app that tells me when to text my grandma",  # the person texts; the tool reminds
        "a birthday reminder app that texts me the day before",  # a tool that reminds the person is a reminder
        "记一下每个月信用卡还了多少",
    ],
)
def test_a_tool_about_an_action_is_not_the_action(text: str) -> None:
    assert classify(text).refusal is None


def test_a_lookups_word_in_a_list_of_fields_is_a_field_of_the_log() -> None:
    text = "钓鱼日志：钓点、天气、用的什么饵、钓到了啥鱼、多重"
    intent = classify(text)
    assert intent.archetype != "weather_ranking" and intent.shape == "log", intent
    assert "天气" in listed(text)
    assert classify("钓鱼记录：去的哪个钓点、当天天气、钓到什么鱼、多重").shape == "log"
    assert classify("track my reading: title, author, rating").archetype == "reading_list"  # a kind's own fields


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("杭州未来一周天气怎么样，哪几天下雨", "weather_forecast"),  # one place: its days, not a ranking of one
        ("北京这周天气怎么样", "weather_forecast"),
        ("rank Beijing, Shanghai and Guangzhou by max temperature this week", "weather_ranking"),
        ("帮我比较几个城市这周的天气预报", "weather_ranking"),
    ],
)
def test_a_ranking_needs_places_to_rank(text: str, expected: str) -> None:
    assert classify(text).archetype == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("和朋友去云南玩，一路上谁付的钱都记下来，最后算谁该转给谁多少", "expense_splitter"),
        ("我们羽毛球群每周打球，场地费和球钱谁先垫的都记下来，月底算每个人该给谁多少", "expense_splitter"),
        ("每天要喝够2000毫升水，喝一杯记一杯，看看今天还差多少", "water_tracker"),  # amounts written down
        ("一杯是多少毫升", "unit_converter"),
        ("I'd like a mood diary where I can also tag what I was doing (work, family, exercise)", "mood_journal"),
    ],
)
def test_named_kinds_read_by_what_the_sentence_does(text: str, expected: str) -> None:
    assert classify(text).archetype == expected


def test_a_field_word_in_the_plural_asks_in_the_singular_too() -> None:
    from toolgen.knowledge.fields import requested_fields

    assert "pages" in [f.name for f in requested_fields("a reading list with page numbers")]
    assert "pages" in [f.name for f in requested_fields("a reading list with the pages")]


def test_a_breakdown_asked_for_counts_the_rows_per_value() -> None:
    tool = Tool("心情日记，每天写几句话，月底能看各种心情占多少")
    assert tool.intent.archetype == "mood_journal"
    (op,) = [op for op in tool.program.operations if op.kind == "aggregate" and op.group_by == "mood"]
    add = next(o.id for o in tool.program.operations if o.kind == "create")
    for mood in (4, 4, 2):
        tool.call(add, {"mood": mood})
    groups = tool.call(op.id)
    assert {str(g["key"]): g["metrics"]["entries"] for g in groups["groups"]} == {"4": 2, "2": 1}, groups
    assert not [
        o
        for o in Tool("log my symptoms and see which one is most common").program.operations
        if o.id.startswith("breakdown")
    ]  # fmt: skip - it already counts per symptom


def test_a_collections_expiry_gives_days_left_and_comes_soonest_first() -> None:
    tool = Tool("pantry inventory with expiry dates")
    listing = next(op for op in tool.program.operations if op.kind == "list")
    assert listing.computed.get("days_left") == "days_until(expires)" and listing.sort == "expires"
    add = next(op.id for op in tool.program.operations if op.kind == "create")
    tool.call(add, {"item": "milk", "expires": "2026-12-05"})
    tool.call(add, {"item": "rice", "expires": "2027-03-01"})
    rows = tool.call(listing.id)["items"]
    assert [(r["item"], r["days_left"]) for r in rows] == [("milk", 3), ("rice", 89)]


@pytest.mark.parametrize(("text", "amount"), [("convert 5 km to miles", 5), ("salary 85k", 85000), ("2 kg", 2)])
def test_a_units_first_letter_is_no_thousand(text: str, amount: float) -> None:
    from toolgen.intent.slots import find_amount

    assert find_amount(text) == amount


def test_a_converter_for_each_dimension_the_request_names_units_of() -> None:
    tool = Tool("英寸和厘米、磅和公斤之间换算一下")
    computes = [op for op in tool.program.operations if op.kind == "compute"]
    assert [(op.inputs["from_unit"].default, op.inputs["to_unit"].default) for op in computes] == [
        ("in", "cm"),
        ("lb", "kg"),
    ]
    assert tool.call(computes[1].id)["result"] == 0.453592
    assert len([op for op in Tool("convert 5 km to miles").program.operations if op.kind == "compute"]) == 1


def test_a_log_of_two_subjects_the_request_names_has_the_fields_of_both() -> None:
    tool = Tool("track my blood pressure and weight every morning")
    assert tool.intent.subject == "blood_pressure" and tool.intent.slots["with_subjects"] == ["weight"]
    assert {"systolic", "diastolic", "weight_kg"} <= set(tool.fields)
    assert "blood_pressure" not in tool.fields  # the subject the list names is the tool, not a field of it
    assert not tool.fields["weight_kg"].required  # offered, never demanded
    alone = Tool("log my blood pressure readings morning and evening")
    assert "weight_kg" not in alone.fields


def test_a_word_the_subject_records_names_no_second_subject() -> None:
    """A word a climbing log records ("grades") is its field, not a school report's courses and credits besides."""
    tool = Tool("track my climbing at the wall: which route, grades i topped")
    assert tool.intent.subject == "climbing" and "with_subjects" not in tool.intent.slots
    assert not {"credits", "course", "grade_points"} & set(tool.fields)


def test_a_subject_named_inside_a_question_of_each_row_is_a_field_not_a_second_subject() -> None:
    tool = Tool("偏头痛记录 几点开始疼的 吃没吃药")
    assert tool.intent.subject == "migraine" and "with_subjects" not in tool.intent.slots
    assert "took_medicine" in tool.fields and "dose" not in tool.fields  # not a medication log's fields besides


@pytest.mark.parametrize(
    "text",
    ["偏头痛记录 几点开始疼的 疼了多久", "log my naps: when they started, and how long"],
)
def test_when_an_entry_began_is_kept_once(text: str) -> None:
    """The subject's own start time answers the request's "when it started"."""
    fields = Tool(text).fields
    assert len([n for n, f in fields.items() if f.type == "time" and "start" in n]) == 1, list(fields)


def test_words_inside_a_longer_fields_words_are_that_field() -> None:
    assert list(requested_words("头疼记录 几点开始疼的")) == ["started_at"]  # not a time of day besides
    assert list(requested_words("每天几点开始练琴，练到几点")) == ["started_at", "time"]  # said again on its own


def test_a_word_of_the_subject_beside_the_tools_name_is_a_second_subject() -> None:
    """Only a list after a colon says what each row holds: "my workouts and my weight" is my body weight too."""
    assert classify("track my workouts, and my weight too").slots.get("with_subjects") == ["weight"]


def test_another_things_start_is_a_field_of_its_own() -> None:
    fields = Tool("断食记录 几点开始断食 几点开始运动的").fields
    assert len([n for n, f in fields.items() if f.type == "time" and "start" in n]) == 2, list(fields)


def test_words_of_a_question_in_a_request_for_a_tool_are_what_it_records() -> None:
    intent = classify("board game collection: name, player count, play time, and log each play with who won")
    assert intent.refusal is None and intent.archetype is not None
    assert classify("who won the game last night").refusal == "out_of_scope"


def test_a_goal_over_everything_and_a_reading_to_reach() -> None:
    hours = Tool("need 40 volunteer hours for NHS by May. log each time I volunteer")
    goal = hours.program.operation("goal")
    assert goal.period is None and goal.constants["goal"] == 40  # over every row, not per day
    weight = Tool("我家柯基在减肥，每周六称一次体重，目标11公斤，想看看曲线")
    add = next(op.id for op in weight.program.operations if op.kind == "create")
    field = next(n for n, s in weight.fields.items() if s.type == "number")
    weight.call(add, {field: 12.4})
    assert weight.call("goal")["metrics"] == {"latest": 12.4, "goal": 11.0, "to_goal": 1.4}
    assert "离目标还差" in weight.program.labels["to_goal"]
    daily = Tool("log my reading minutes, goal 30 a day").program.operation("goal")
    assert daily.period == "day"


def test_a_readings_change_counts_from_the_earliest_date_not_the_first_typed() -> None:
    tool = Tool("track my weight every week")
    add = next(op.id for op in tool.program.operations if op.kind == "create")
    for date, kg in (("2026-11-30", 80), ("2026-11-01", 82), ("2026-12-01", 79.5)):  # a week typed in late
        tool.call(add, {"date": date, "weight_kg": kg})
    figures = tool.call("stats")["metrics"]
    assert figures["change_weight_kg"] == -2.5 and figures["max_weight_kg"] == 82
    assert "变化" in Tool("每周记一下体重").program.labels["change_weight_kg"]


# --- tasks listed with how often each recurs: a schedule of them --------------------------------------------------


@pytest.mark.parametrize(
    ("text", "tasks"),
    [
        (
            "home maintenance schedule: HVAC filter every 3 months, gutters twice a year, smoke alarm test monthly",
            [("HVAC filter", 90), ("gutters", 182), ("smoke alarm test", 30)],
        ),
        (
            "remind me to water the fern every 3 days and the cactus every 2 weeks",
            [("water the fern", 3), ("cactus", 14)],
        ),
        ("提醒我：每三天浇一次花、每个月施一次肥、每周擦一次叶子", [("浇花", 3), ("施肥", 30), ("擦叶子", 7)]),
        ("车的保养：机油一年两次，轮胎每半年换位一次", [("机油", 182), ("轮胎换位", 182)]),
        ("meds: vitamin D every Sunday, iron daily", [("vitamin D", 7), ("iron", 1)]),
        # how often said after the thing, with the verb inside it, or with a count of times
        ("被罩两周换一次，窗帘每个季度洗一次", [("被罩换", 14), ("窗帘洗", 91)]),
        ("枕巾一周一换，拖把半个月一换", [("枕巾换", 7), ("拖把换", 15)]),
        ("鱼缸 滤棉两个月换一次 换水每周一次", [("滤棉换", 60), ("换水", 7)]),  # a space between the tasks
        ("wash the car every other week + wax it twice a year", [("wash the car", 14), ("wax it", 182)]),
    ],
)
def test_tasks_listed_with_how_often_each_recurs_are_read(text: str, tasks: list[tuple[str, int]]) -> None:
    assert [(t["task"], t["every_days"]) for t in recurring_tasks(text)] == tasks


@pytest.mark.parametrize(
    "text",
    [
        "每个月月底抄一次电表和水表读数，想算出每个月用了多少度电、多少吨水",  # one task, and what to see
        "想记录每天的心情，开心、难过、焦虑这种，写几句原因，每周看看情绪变化",
        "log my runs every day and show my weekly total",
    ],
)
def test_what_to_see_each_week_is_not_a_task(text: str) -> None:
    assert len(recurring_tasks(text)) < 2


@pytest.mark.parametrize(
    ("text", "days"),
    [
        ("every 10 days", [10]),
        ("every other month", [60]),
        ("3 times a week", [2]),
        ("twice yearly", [182]),
        ("每个季度", [91]),
        ("每半个月", [15]),
        ("两年一次", [730]),
        ("一年体检两次", [182]),
        ("三个月换一瓶", [90]),
        ("这三个月一共花了多少钱", []),  # a span of time, not how often
        ("三个月吃了一盒药", []),  # what was done, not how often
        ("I do it 0 times a week", []),  # no interval at all
        ("every 99999999999999 years", []),  # none a person keeps
        ("一个半月换一次", []),  # a month and a half: not read as half a month
    ],
)
def test_how_often_is_read_as_a_span_with_its_days(text: str, days: list[int]) -> None:
    assert [r.days for r in recurrences(text)] == days


@pytest.mark.parametrize(
    ("text", "things"),
    [
        (
            "garage fridge, chest freezer and wine cooler, when should each be defrosted",
            ["garage fridge", "chest freezer", "wine cooler"],
        ),
        ("家里的灭火器、烟雾报警器、燃气管，多久检查一次", ["灭火器", "烟雾报警器", "燃气管"]),
        (
            "boat upkeep - hull cleaning every 2 months, engine flush, when is each due",
            ["hull cleaning", "engine flush"],
        ),
        ("expenses: date, amount, who paid, what for", []),  # fields, not things
        ("water and fertilize my bonsai", []),  # "and" alone joins no run
        (
            "defrost schedule for the garage fridge, chest freezer and wine cooler",
            ["garage fridge", "chest freezer", "wine cooler"],
        ),
    ],
)
def test_things_listed_in_one_run_are_read_each_as_said(text: str, things: list[str]) -> None:
    assert enumerated(text) == things


def test_things_a_schedule_lists_without_an_interval_are_its_rows_at_the_usual_one() -> None:
    tool = Tool("remind me when to service the boiler, the water softener and the sump pump")
    assert tool.intent.shape == "schedule"
    (rows,) = tool.program.seed.values()
    assert [r["task"] for r in rows] == ["boiler", "water softener", "sump pump"]
    assert len({r["every_days"] for r in rows}) == 1  # the usual interval, the same for each


@pytest.mark.parametrize(
    "text",
    [
        "chore rotation for Alice, Bob and Carol: dishes daily, trash weekly",
        "a chore schedule for me, my wife, and the kids",
        "家务排班：我、老婆、儿子，每周倒垃圾",
    ],
)
def test_the_people_a_rota_lists_are_never_its_tasks(text: str) -> None:
    seeded = [row["task"] for rows in Tool(text).program.seed.values() for row in rows]
    people = {"Alice", "Bob", "Carol", "me", "wife", "my wife", "kids", "the kids", "我", "老婆", "儿子"}
    assert not people & set(seeded), seeded


def test_a_habits_times_a_week_is_not_a_task_to_schedule() -> None:
    assert recurring_tasks("been running 3x a week, want to log distance and pace") == []
    assert recurring_tasks("water the basil twice a week") == [{"task": "water the basil", "every_days": 3}]


def test_a_chinese_schedule_said_as_how_often_after_each_thing_starts_with_those_tasks() -> None:
    tool = Tool("家务周期：床单两周换一次，冰箱每个月清一次，空调滤网每季度洗一次")
    assert tool.intent.shape == "schedule"
    (rows,) = tool.program.seed.values()  # the rows the tool is made with
    assert [(r["task"], r["every_days"]) for r in rows] == [("床单换", 14), ("冰箱清", 30), ("空调滤网洗", 91)]


def test_a_home_maintenance_list_with_intervals_is_a_schedule_of_those_tasks() -> None:
    tool = Tool("home maintenance: furnace filter every 3 months, smoke detector batteries yearly, "
                "fridge water filter every 6 months. when did I last do each and what's coming due")  # fmt: skip
    assert tool.intent.shape == "schedule" and tool.program.title == "Home Maintenance Schedule"
    assert set(tool.fields) == {"task", "every_days", "last_done", "note"}  # the list is rows, not columns
    add = next(op.id for op in tool.program.operations if op.kind == "create")
    tool.call(add, {"task": "smoke detector batteries", "last_done": "2026-06-01"})
    tool.call(add, {"task": "furnace filter", "last_done": "2026-10-01"})
    tool.call(add, {"task": "garage door", "last_done": "2026-11-01"})  # not listed: the usual interval
    tool.call(add, {"task": "fridge water filter", "last_done": "2026-11-20", "every_days": 150})  # given wins
    rows = {
        r["task"]: r for r in tool.call(next(op.id for op in tool.program.operations if op.kind == "list"))["items"]
    }
    assert rows["smoke detector batteries"]["every_days"] == 365 and rows["furnace filter"]["every_days"] == 90
    assert rows["garage door"]["every_days"] == 90 and rows["fridge water filter"]["every_days"] == 150
    assert rows["furnace filter"]["next_due"] == "2026-12-30"


def test_a_chinese_list_of_recurring_chores_gets_chinese_tasks() -> None:
    tool = Tool("提醒我：每三天浇一次花、每个月施一次肥、每周擦一次叶子")
    assert tool.intent.shape == "schedule"
    assert tool.fields["task"].default == "浇花" and "施肥每30天" in tool.program.description


# --- a lookup shows what the request names besides its subject's own figures ----------------------------------------


@pytest.mark.parametrize(
    ("text", "named"),
    [
        ("看一下北京今天的紫外线指数和湿度，要不要带伞", ["humidity", "rain", "uv"]),
        ("wind and wave conditions for surfing at malibu this weekend", ["wind", "waves"]),
        ("what's the feels like temperature and humidity in Houston", ["temperature", "feels_like", "humidity"]),
        ("今天北京空气怎么样？PM2.5多少", ["aqi", "pm2_5"]),
        ("sunrise and sunset times for the next week", ["sunrise", "sunset"]),
    ],
)
def test_the_measures_a_request_names_are_read(text: str, named: list[str]) -> None:
    assert measures_named(text) == named


def test_a_measure_named_beside_a_place_is_not_an_unknown_place() -> None:
    intent = classify("看一下北京今天的紫外线指数和湿度，要不要带伞")
    assert intent.slots["cities"] == ["Beijing"] and "unresolved_places" not in intent.slots


def test_every_measure_reads_a_platform_api_and_a_series_it_has() -> None:
    for measure in library().measures.values():
        assert measure.reads, measure.id
        for api, series in measure.reads.items():
            for name in series:
                value = measure.value(api, name)
                assert value is not None and value.label.en and value.label.zh, (measure.id, api, name)
    assert library().measures["uv"].value("forecast", "current") is None  # not every API gives every series


def test_a_ranking_word_keeps_several_places_a_ranking_even_read_day_by_day() -> None:
    assert classify("which of Beijing, Shanghai and Guangzhou will be rainiest each day this week").archetype == (
        "weather_ranking"
    )
    assert classify("will it rain each day this week in Beijing, Shanghai and Guangzhou").archetype == "rain_forecast"


@pytest.mark.parametrize(
    ("text", "subject"),
    [
        ("孩子的课外书想整理成一个清单，看完的打勾", None),  # 孩子的课 runs on into 课外书: no child's class
        ("孩子的课外班 每周几上课 学费多少", "kids_classes"),
        ("去健身房练腿，记一下每个动作几组", "workout"),  # 健身房: a suffix the word keeps its sense in
        ("家里东西放哪儿记一下", "item_locations"),  # 哪儿 is 哪
        ("徒步带多少水合适", "trail_water"),  # 水 + 合适, though 水合 is a word: the word after reads longer
        ("桶装水费用记录", "bottled_water"),
    ],
)
def test_a_subjects_chinese_word_is_not_read_where_its_last_character_begins_a_longer_word(
    text: str, subject: str | None
) -> None:
    assert subject == (read(text).subject.id if read(text).subject else None)


@pytest.mark.parametrize(
    "text", ["sunrise and sunset for the next couple of weeks, for my evening walks", "未来两周的日出日落时间"]
)
def test_a_forecast_asked_over_weeks_is_read_day_by_day(text: str) -> None:
    intent = classify(text)
    assert intent.archetype == "sun_times" and intent.slots["per_day"] is True
    fetch = next(op for op in Tool(text).program.operations if op.kind == "fetch")
    assert "date" in fetch.fields and "city" in fetch.fields  # a row per day and place


# --- a named kind said outright, or shown by what the sentence lists ------------------------------------------------


@pytest.mark.parametrize(
    ("text", "kind"),
    [
        ("habit tracker where I can see what percent of days this month I actually meditated", "habit_tracker"),
        ("convert recipe stuff — cups to ml, ounces to grams, fahrenheit to celsius", "unit_converter"),
        ("Convert cups to ml, ounces to grams, and Fahrenheit to Celsius for my recipes", "unit_converter"),
        ("stuff to do before we move out: clean the oven, cancel internet, forward mail. let me tick them off",
         "todo_list"),
        ("Which will have the best weather this weekend for a road trip: Portland, Seattle or Boise?",
         "weather_ranking"),
        ("pomodoro thing: 25 min work, 5 min break, and count how many I finish for each task", "focus_planner"),
        ("帮我把明天的时间按块排好：几点到几点专心写论文，几点休息，几点回邮件", "focus_planner"),
    ],
)  # fmt: skip
def test_a_named_kind_said_outright_or_shown_by_its_list_is_that_kind(text: str, kind: str) -> None:
    assert classify(text).archetype == kind


@pytest.mark.parametrize("text", ["how many grams in a cup of flour", "cups to grams for baking", "一杯面粉是多少克"])
def test_grams_in_a_cup_is_the_unit_converter_with_the_kitchens_conversion_by_ingredient(text: str) -> None:
    # given a conversion across volume and mass, which only an ingredient's density makes
    tool = Tool(text)
    # then it is the unit converter people ask for, and its first operation converts by ingredient
    assert tool.intent.archetype == "unit_converter"
    first = tool.program.operations[0]
    assert first.id == "convertIngredient" and "ingredient" in first.inputs
    flour, cup = first.inputs["ingredient"].enum[0], first.inputs["measure"].enum[0]  # in the request's language
    query = {"ingredient": flour, "quantity": "1", "measure": cup}
    response = tool.app.handle(tool_event("GET", first.path, token=tool.token, query=query))
    assert json.loads(response["body"])["grams"] == 124.8  # 240 ml of flour at 0.52 g/ml
    assert [op.id for op in tool.program.operations[1:3]] == ["convert", "convertMass"]


@pytest.mark.parametrize(
    ("text", "subject"),
    [
        ("Birthdays of everyone in my extended family so I know whose is coming up next", "birthdays"),
        ("gpa calculator — letter grades and credit hours per class, 4.0 scale", "grades"),  # the tool's own name
        ("my extended family: who is who and what to call them", "relatives"),
    ],
)
def test_between_subjects_named_as_surely_the_sentences_shape_decides(
    text: str, subject: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    # the rules' own reading: the learned choice reads the gpa one as score_to_gpa since 2,049 subjects (dev2's e142,
    # one of the breadth parts' losses counted in docs/knowledge.md, "Choosing a subject")
    monkeypatch.setattr(read_module, "LEARNED_SURE", 2.0)
    forget()
    assert read(text).subject is not None and read(text).subject.id == subject
    forget()


@pytest.mark.parametrize(
    ("text", "day"),
    [
        ("whats the UV index today in sydney", "today"),
        ("pollen count tommorow? my allergies are killing me", "tomorrow"),
        ("明天北京空气质量咋样，要不要戴口罩", "tomorrow"),
        ("air quality in delhi right now - is it safe to run outside?", "now"),
        ("现在外面风大不大", "now"),
        ("is it gonna rain this weekend in portland", "weekend"),
        ("今晚能看到日落吗", "today"),
        ("sunrise times in Denver this week", None),
        ("a notebook of things I know now about knots", "now"),  # the reader says the day; lookups alone use it
    ],
)
def test_the_day_a_lookup_is_asked_about(text: str, day: str | None) -> None:
    assert when(text) == day


@pytest.mark.parametrize(
    ("text", "subject"),
    [
        ("帮我把邻居们的生日记一下，快到了告诉我", "birthdays"),  # 生日, the subject's own noun, and no 日记 across it
        ("孩子的作业每天记一下用了多久", None),  # a log of homework time, not the subject of assignments due
        ("记一下每天的心得和感想", None),  # nothing a subject calls itself
        ("记录每次的金额和日期", None),  # field words name what a row holds, not what the tool is about
        ("定期记一下体检的结果", "medical_appointments"),  # 定期, a word of when, is no noun of fixed deposits
    ],
)
def test_a_chinese_request_names_a_subject_by_its_own_noun(text: str, subject: str | None) -> None:
    intent = classify(text)
    assert intent.subject == subject, intent


def test_a_chinese_nouns_of_a_subject_are_its_own_and_seldom_anothers() -> None:
    cores = _zh_cores()
    assert cores["生日"] == [("birthdays", cores["生日"][0][1])]
    assert "班费" not in cores  # only ever inside 加班费
    assert not {"摄入", "训练", "收藏", "定期", "金额", "记录"} & set(cores)


def test_a_chinese_cue_does_not_cross_the_end_of_a_word() -> None:
    assert zh_word_spans("把生日记一下")[0] == (1, 3)
    assert classify("帮我把大家的生日记一下").archetype != "mood_journal"
    assert classify("每天写日记，记下心情").archetype == "mood_journal"


@pytest.mark.parametrize(
    ("text", "picks"),
    [
        ("收藏的香水登记一下：什么牌子、哪年买的，出门前随机抽一款", True),  # a log asked for a pick gets one
        ("log the books I finish and pick one at random to reread", True),
        ("track my morning runs", False),
    ],
)
def test_a_tool_asked_to_pick_one_at_random_picks_one_of_its_rows(text: str, picks: bool) -> None:
    tool = Tool(text)
    ops = [op for op in tool.program.operations if op.kind == "aggregate" and "pick(" in str(op.metrics)]
    assert bool(ops) is picks
    if picks:
        first = next(iter(tool.fields))
        tool.call(_create(tool), {first: "A"} if tool.fields[first].type == "string" else {})
        assert tool.call(ops[0].id)["metrics"]["options"] == 1


def test_a_verb_before_one_or_it_names_no_subject_by_its_noun() -> None:
    # "pick" is a noun of school pick-ups; before "one" it is what the person does
    assert read("log the wines I taste and pick one for dinner").matched != "pick"


def test_an_item_that_chooses_between_two_is_one_choice_field_and_a_head_noun_types_an_item() -> None:
    # given items listed as a choice between two, and items whose last word says what they hold
    tool = Tool("kite sessions log: spot, wind in knots, lake or sea, launch time, number of crashes")
    fields = tool.fields
    # then "lake or sea" is one field choosing between them, and the time and the count are typed
    (choice,) = [spec for spec in fields.values() if spec.enum]
    assert choice.enum == ["lake", "sea"] and "lake" not in fields and "sea" not in fields
    assert fields["launch_time"].type == "time" and fields["number_of_crashes"].type == "number"


def test_a_choice_the_tool_already_offers_is_not_asked_twice() -> None:
    fields = Tool("baby feeding log: breast/bottle, which side, ounces").fields
    assert [name for name, spec in fields.items() if spec.enum and "bottle" in spec.enum] == ["feed_kind"]


def _fields_of(text: str) -> dict[str, object]:
    from toolgen.planner.offline import OfflinePlanner

    program = OfflinePlanner().plan(text, classify(text), []).program
    return dict(next(iter(program.entities.values())).fields)


@pytest.mark.parametrize(
    ("text", "name", "label"),
    [
        ("tea tin collection: brand, tin size in grams, caffeinated y/n", "caffeinated", "Caffeinated"),
        ("绿植清单 名字 高度 有没有开花（是/否）", "flowering", "有没有开花"),
    ],
)
def test_an_item_written_as_yes_or_no_is_a_yes_or_no_named_by_what_it_asks(text: str, name: str, label: str) -> None:
    field = _fields_of(text)[name]
    assert field.type == "boolean" and label in field.label  # type: ignore[attr-defined]


def test_the_shipped_field_types_are_what_the_knowledge_base_gives() -> None:
    from toolgen.knowledge.fields import FIELD_TYPES, computed_field_types, render_field_types

    assert FIELD_TYPES.read_text(encoding="utf-8") == render_field_types(computed_field_types()), "run make subjects"


def test_a_listed_item_is_typed_as_the_knowledge_base_types_fields_so_named() -> None:
    from toolgen.knowledge.fields import known_type

    assert known_type("width") == "number" and known_type("brand") == "string"
    assert known_type("colour") is None  # its subjects disagree: a choice in some, words in others
    assert _fields_of("和纸胶带囤太多了，记品牌 宽度 图案")["width"].type == "number"  # type: ignore[attr-defined]


def test_an_attribute_said_with_its_unit_is_no_value() -> None:
    assert "tin size in grams" in listed("tea tin collection: brand, tin size in grams, caffeinated y/n")


@pytest.mark.parametrize("prompt", ["track how much caffeine I drink", "记录我每天喝了多少咖啡因"])
def test_a_question_the_tool_already_answers_adds_no_second_field_of_the_same_label(prompt):
    from toolgen.planner import OfflinePlanner

    program = OfflinePlanner().plan(prompt, classify(prompt), []).program
    labels = [spec.label for entity in program.entities.values() for spec in entity.fields.values()]
    assert len(labels) == len(set(labels)), labels


@pytest.mark.parametrize(
    ("text", "count"),
    [("家里三个孩子轮流洗碗", 3), ("宿舍四个人轮流值日", 4), ("我们三位同事", 3), ("买了3个苹果", None)],
)
def test_chinese_counts_of_people_are_read_by_the_people_they_count(text, count):
    from toolgen.intent.slots import find_people_count

    assert find_people_count(text) == count
