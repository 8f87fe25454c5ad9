"""The open-world reading and the composer: requests outside the named kinds get tools whose fields fit them."""

from __future__ import annotations

import datetime as dt
import json
from typing import Any

import pytest

from tests.fakes import FakeTable
from tests.helpers import tool_event
from toolgen import auth
from toolgen.intent import classify
from toolgen.intent.asked import asked
from toolgen.intent.classify import classify_as
from toolgen.intent.details import amounts, every_days, head_count, per, tracked_object
from toolgen.intent.read import find_subjects
from toolgen.knowledge.base import library
from toolgen.planner import OfflinePlanner
from toolgen.planner.compose import WHOSE_FIELDS
from toolgen.planner.proposal import ask
from toolgen.planner.revise import apply, read
from toolgen.planner.trial import trial
from toolgen.plans import plan_key
from toolgen.runtime import ToolApp, view

SECRET = "compose-secret"
TODAY = dt.date(2026, 12, 2)  # a Wednesday


class Tool:
    def __init__(self, prompt: str) -> None:
        self.intent = classify(prompt)
        assert self.intent.archetype, prompt
        plan = OfflinePlanner().plan(prompt, self.intent, [])
        self.program, self.composition = plan.program, plan.composition
        deployed = view._view(json.loads(self.program.model_dump_json()), "program")
        self.app = ToolApp(deployed, tool_id="t" + "4" * 20, owner="ann", table=FakeTable(), secret=SECRET,  # type: ignore[arg-type]
                           clock=lambda: TODAY)  # fmt: skip
        self.token = auth.mint("ann", SECRET)

    @property
    def fields(self) -> dict[str, Any]:
        return next(iter(self.program.entities.values())).fields

    def call(self, op_id: str, body: Any = None) -> Any:
        op = self.program.operation(op_id)
        response = self.app.handle(tool_event(op.method, op.path, token=self.token, body=body))
        assert response["statusCode"] < 300, response["body"]
        return json.loads(response["body"]) if response["body"] else None


# --- reading -------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "subject", "shape"),
    [
        ("log my blood pressure readings morning and evening", "blood_pressure", "log"),
        ("我想记录每天的睡眠时间", "sleep", "log"),
        ("提醒我每周给花浇水", "plant_watering", "schedule"),
        ("calculate my monthly mortgage payment", "mortgage", "calculator"),
        ("帮我算一下房贷每月还多少", "mortgage", "calculator"),
        ("remind me of my friends' birthdays and show how many days are left", "birthdays", "dates"),
        ("a list of gift ideas for each family member", "gift_ideas", "collection"),
        ("track my baby's feeding times and amounts", "baby_feeding", "log"),
        # a loan's words, but what is asked is paying some of it early (the subject's patterns)
        ("车贷提前还五万划算吗，能省多少利息", "loan_prepayment", "calculator"),
        ("calculator for paying off the car loan early: balance, rate, extra", "loan_prepayment", "calculator"),
    ],
)
def test_everyday_requests_outside_the_named_kinds_read_as_a_subject(text: str, subject: str, shape: str):
    intent = classify(text)
    assert (intent.subject, intent.shape, intent.archetype) == (subject, shape, subject)


@pytest.mark.parametrize(
    "text",
    [
        "book me a table at a sushi restaurant tomorrow at 8",
        "order me a large pepperoni pizza",
        "帮我订一张下周三北京到上海的高铁票",
        "text my sister that I'll be late",
        "hack my neighbour's wifi",
        "帮我写一篇关于环保的作文",
        "please cancel my streaming subscription",  # cancelling, scraping, buying outright, finding a person
        "帮我把健身房会员的自动续费关掉",
        "write a scraper that crawls the prices off a shopping site",
        "帮我写个爬虫，把二手房价格都爬下来",
        "find and buy the cheapest train ticket to Leeds",
        "看中的那双鞋帮我直接拍下来付款",
        "find out where my old classmate is living now",
        "帮我查一下前任现在住在哪",
        "please renew my library books",
        "would you mind calling my dentist and moving my appointment to next Thursday?",
        "给我妈发个微信，说我今晚不回去吃饭了",
        "帮我在家族群里发个200块的红包",
        "sign me up for the city half marathon",
        "帮我导航去最近的加油站",
        "apply to those 10 engineering jobs using my resume",
        "make me a doctor's note saying I had the flu",
        "帮我弄一张医院的病假条",
        "我新开了个网店，帮我找人刷单刷点好评",
        "毕业论文帮我写完吧",
        "help me get into my ex's instagram account",
    ],
)
def test_actions_in_the_world_are_refused_with_a_reason_in_the_persons_language(text: str):
    intent = classify(text)
    assert intent.archetype is None and intent.refusal not in (None, "out_of_scope")
    asked = ask(text, intent)
    assert asked.refused == intent.refusal and not asked.candidates and asked.proposal is None
    chinese = any("\u4e00" <= c <= "\u9fff" for c in asked.question)
    assert chinese == (intent.lang == "zh"), asked.question


@pytest.mark.parametrize(
    "text",
    ["a shopping list of things to buy", "帮我做一个购物清单", "log the books I borrow",
     "track my subscriptions and when to cancel them", "记录每个会员什么时候续费，提醒我退订",
     "when do my subscriptions renew (netflix, spotify, icloud) and how much each",
     "写论文老是分心，想把下午切成一段一段专注的时间", "收到和发出去的红包都记一下"],  # renewing, not renew for me
)  # fmt: skip
def test_a_tool_about_an_action_is_not_refused(text: str):
    assert classify(text).refusal is None


@pytest.mark.parametrize(
    ("text", "days"),
    [("water every 3 days", 3), ("every other day", 2), ("weekly", 7), ("every two weeks", 14),
     ("fortnightly", 14), ("once a month", 30), ("每隔三天", 3), ("每两周", 14), ("每月", 30), ("每周一", 7),
     ("no interval here", None)],
)  # fmt: skip
def test_intervals_are_read_in_both_languages(text: str, days: int | None):
    assert every_days(text) == days


def test_head_count_includes_the_speaker():
    assert head_count("split rent between me and 3 roommates") == 4
    assert head_count("我和两个室友") == 3
    assert head_count("dinner for 5 people") == 5
    assert head_count("a cottage for 2 adults and 3 kids") == 5  # both kinds counted
    assert head_count("the flat between 4 of us, 2 people stayed only a week") == 4  # the two are of the four
    assert head_count("a rota for three flatmates") == 3


def test_amounts_skip_rates_terms_and_dates():
    assert amounts("car loan: price 28k, 5k down, 6.9% for 60 months") == [28000, 5000]
    assert amounts("房贷300万，利率3.1%，贷30年") == [3_000_000]


def test_an_amount_per_period_keeps_its_thousands():
    # "/mo" says per what: the amount is 2,600, never the 2 before its comma (docs/readers.md found it)
    assert amounts("my rent is $2,600/mo and parking $150/month") == [2600, 150]
    assert amounts("fuel use 7.5 L/100km") == [7.5]  # a ratio's slash still ends no amount
    assert amounts("split 300, 200 and 100") == [300, 200, 100]


def test_grouping_and_the_tracked_object_are_read():
    assert per("log hours per client") == "client"
    assert per("每个客户的工时") == "client"
    assert tracked_object("track my sourdough starter feedings") == "sourdough starter feedings"
    assert tracked_object("I want to track my houseplants") == "houseplants"


# --- composing -----------------------------------------------------------------------------------------------


def test_blood_pressure_log_has_its_measurables_and_weekly_averages():
    bp = Tool("log my blood pressure readings morning and evening")
    assert {"systolic", "diastolic", "pulse", "date", "time"} <= set(bp.fields)
    assert bp.fields["systolic"].label == "Systolic (mmHg)"
    bp.call("addReading", {"date": "2026-11-30", "systolic": 130, "diastolic": 85})
    bp.call("addReading", {"date": "2026-12-01", "systolic": 120, "diastolic": 80, "pulse": 70})
    week = bp.call("thisWeek")["metrics"]
    assert week["entries"] == 2 and week["avg_systolic"] == 125 and week["max_diastolic"] == 85
    assert bp.composition == {"shape": "log", "subject": "blood_pressure", "guessed": [],
                              "inferred": ["time", "systolic", "diastolic", "pulse", "arm"]}  # fmt: skip


def test_chinese_sleep_log_derives_hours_and_labels_every_figure_in_chinese():
    sleep = Tool("我想记录每天的睡眠时间")
    row = sleep.call("addNight", {"bedtime": "23:30", "wake_time": "07:00"})
    assert row["sleep_hours"] == 7.5
    assert all(any("\u4e00" <= c <= "\u9fff" for c in label) for label in sleep.program.labels.values())
    assert sleep.call("goal")["metrics"]["so_far"] == 7.5


def test_plant_schedule_takes_the_interval_the_request_gives_and_lists_what_is_due():
    plants = Tool("remind me to water the plants every 3 days")
    assert plants.fields["every_days"].default == 3
    plants.call("addPlant", {"plant": "fern", "last_done": "2026-11-28"})  # due 12-01: overdue
    plants.call("addPlant", {"plant": "cactus", "every_days": 14, "last_done": "2026-12-01"})
    listed = plants.call("listPlants")["items"]
    assert [(r["plant"], r["due_in_days"]) for r in listed] == [("fern", -1), ("cactus", 13)]
    assert [r["plant"] for r in plants.call("dueNow")["items"]] == ["fern"]


def test_birthdays_count_days_to_the_next_one_and_the_age_it_brings():
    birthdays = Tool("想记全家人的生日，能看到离下一个生日还有几天")
    birthdays.call("addBirthday", {"person": "妈妈", "birthday": "1965-12-10"})
    birthdays.call("addBirthday", {"person": "小明", "birthday": "2018-03-01"})
    listed = birthdays.call("listBirthdays")["items"]
    assert [(r["person"], r["days_left"], r["turns"]) for r in listed] == [("妈妈", 8, 61), ("小明", 89, 9)]


def test_mortgage_takes_the_requests_numbers_and_computes_the_payment():
    loan = Tool("calculate my mortgage payment: 300k at 4.1% over 30 years")
    inputs = loan.program.operation("calculate").inputs
    assert (inputs["principal"].default, inputs["annual_rate"].default, inputs["years"].default) == (300000, 4.1, 30)
    answer = loan.call("calculate")
    assert answer["monthly_payment"] == pytest.approx(1449.6, abs=0.05)
    assert answer["total_interest"] == pytest.approx(answer["total_paid"] - 300000, abs=0.01)


@pytest.mark.parametrize(
    ("day", "to_full", "full_moon"),
    [("2026-12-02", 22, "2026-12-24"), ("2026-12-24", 0, "2026-12-24"), ("2026-01-03", 0, "2026-01-03")],
)
def test_the_moon_phase_is_worked_out_from_the_date_without_any_api(day: str, to_full: int, full_moon: str):
    # given the full moons of 24 December and 3 January 2026 (UTC), computed from a mean lunar month
    moon = Tool("moon phase tonight and when's the next full moon")
    assert moon.program.allowed_hosts == []
    # when the date is given
    response = moon.app.handle(tool_event("GET", "/calculate", token=moon.token, query={"date": day}))
    answer = json.loads(response["body"])
    # then the next full moon is that day, and a full moon is all but fully lit
    assert (answer["days_to_full_moon"], answer["next_full_moon"]) == (to_full, full_moon)
    assert to_full or answer["illumination"] >= 95


def test_fields_the_request_names_join_the_tool():
    gifts = Tool("a list of gift ideas for each family member, with a link and a rating")
    assert {"idea", "recipient", "link", "rating"} <= set(gifts.fields)
    assert {"link", "rating"} <= set(gifts.composition["inferred"])


def test_a_named_kind_gets_the_fields_the_request_adds():
    books = Tool("a reading list of books I want to read, with a link to each")
    assert books.intent.archetype == "reading_list" and "link" in books.fields


def test_an_unknown_subject_gets_a_tool_of_its_shape_and_says_what_it_guessed():
    rides = Tool("I want to track my unicycle sessions in km")
    assert rides.intent.archetype == "custom_log" and rides.composition["guessed"] == ["value"]
    assert rides.fields["value"].type == "number" and rides.fields["value"].required
    assert "Unicycle Sessions" in rides.program.title


@pytest.mark.parametrize(
    ("text", "subject"),
    [
        ("list of movies my friends recommended", "movie_watchlist"),  # no phrase of its own: its noun, a list
        ("places i want to travel to someday, and pick one at random", "travel_bucket_list"),
        ("how many cans of paint do i need for a room? wall length, width, ceiling height", "paint_needed"),
    ],
)
def test_a_subject_named_only_by_its_noun_is_read_in_the_shape_the_sentence_asks(text: str, subject: str):
    assert classify(text).subject == subject


@pytest.mark.parametrize(
    ("text", "archetype"),
    [("pick a sushi or thai place for us", "restaurant_picker"), ("how do I cook rice", None),
     ("can you recommend a good movie", None)],
)  # fmt: skip
def test_a_noun_alone_gives_way_to_a_named_kind_and_to_a_request_for_no_tool(text: str, archetype: str | None):
    assert classify(text).archetype == archetype


def test_a_subject_named_only_among_the_listed_fields_is_a_field_of_what_the_head_names():
    rides = Tool("log my unicycle sessions: wind speed, spot, how long i rode")  # not a wind forecast
    assert rides.intent.archetype == "custom_log"
    assert {"wind", "spot", "duration"} <= set(rides.fields)  # the library's wind (speed and direction)
    kites = Tool("log my kite sessions: wind speed, spot, how long i flew")  # the head names a subject of its own
    assert kites.intent.archetype == "kite_flying" and "wind_kmh" in kites.fields


def test_one_chore_with_its_interval_is_a_schedule_of_it_and_a_verb_names_no_subject():
    orchids = Tool("water the orchids every 10 days")  # 'water' is what to do, not water to drink
    assert orchids.intent.shape == "schedule" and orchids.intent.archetype != "water_tracker"
    assert orchids.fields["task"].default == "water the orchids"
    orchids.call("addTask", {"last_done": "2026-12-01"})  # the interval the request gave, by the task
    (row,) = orchids.call("listTasks")["items"]
    assert (row["every_days"], row["next_due"]) == (10, "2026-12-11")
    feeder = classify("refill the bird feeder every 3 days")  # 'refill' is a verb here, not a prescription
    assert feeder.shape == "schedule" and feeder.subject != "prescription_refill"
    assert classify("measure the kids' height every 6 months").archetype != "custom_schedule"  # a measurement is logged


@pytest.mark.parametrize(
    "text", ["I never remember when I last flipped the mattress", "I always forget when we last bled the radiators"]
)
def test_forgetting_when_something_was_last_done_asks_for_a_schedule(text):
    assert classify(text).shape == "schedule"


def test_a_rota_turns_by_the_date_each_duty_started_by_the_next_person() -> None:
    # given a rota for three named people, two duties listed, turning weekly
    rota = Tool("chores Gus, Hal and Ida take turns at each week: mopping and laundry")
    assert rota.program.settings["people"].value == ["Gus", "Hal", "Ida"]
    for row in next(iter(rota.program.seed.values())):  # the listed duties, stored as the tool is made
        rota.call("addDuty" if "addDuty" in {op.id for op in rota.program.operations} else "addChore", row)
    listing = next(op.id for op in rota.program.operations if op.kind == "list")
    turns = {r["task"]: (r["whose_turn"], r["next_turn"]) for r in rota.call(listing)["items"]}
    assert turns == {"mopping": ("Gus", "Hal"), "laundry": ("Hal", "Ida")}  # no one has both at once
    assert rota.program.labels["whose_turn"] == "Whose turn this week"
    # then ten days on, every duty has passed to the next person, and the turn changes two weeks from the start
    rota.app.clock = lambda: TODAY + dt.timedelta(days=10)
    later = {r["task"]: (r["whose_turn"], r["turn_changes"]) for r in rota.call(listing)["items"]}
    assert later == {"mopping": ("Hal", "2026-12-16"), "laundry": ("Ida", "2026-12-16")}
    # and a follow-up naming the people renames them in every row's turn, who starts each duty kept
    (change,) = read("the people are Jo, Kit and Lu", rota.program)
    renamed = apply(rota.program, [change], 2)
    assert renamed.settings["people"].value == ["Jo", "Kit", "Lu"] and renamed.labels == rota.program.labels
    # a Chinese rota of four people named by its head count, turning every day
    duty = Tool("宿舍四个人轮流打扫 每天换一个人")
    assert duty.program.settings["people"].value == ["成员1", "成员2", "成员3", "成员4"]
    assert duty.fields["every_days"].default == 1 and duty.program.labels["whose_turn"] == "今天轮到"
    # people taking turns at a schedule no subject names is a rota still, not a question back
    breakfast = Tool("我们四个人轮流买早餐 排个表")
    assert breakfast.intent.archetype == "custom_schedule" and len(breakfast.program.settings["people"].value) == 4
    # a duty listed in the rota's own words is the duty alone
    cooking = Tool("三个人轮流做饭，每周轮换")
    assert [r["task"] for r in next(iter(cooking.program.seed.values()))] == ["做饭"]
    # a rota's subject with no one named or counted is one person's schedule, with what is due
    alone = Tool("remind me to do my chores: vacuum every 3 days, mop weekly")
    assert not alone.program.settings and "last_done" in alone.fields
    # a long turn is kept whole, and a rota starting later is in its first turn till then
    slow = Tool("宿舍值日 每两年换一次")
    assert slow.fields["every_days"].default == 730
    slow.call(
        next(op.id for op in slow.program.operations if op.kind == "create"),
        {"task": "拖地", "start_date": "2026-12-20"},
    )
    (row,) = slow.call(next(op.id for op in slow.program.operations if op.kind == "list"))["items"]
    assert (row["whose_turn"], row["turn_changes"]) == ("成员1", "2028-12-19")
    # a mattress turned every three months is a schedule of its own, no rota
    assert not Tool("rotate the mattress every 3 months").program.settings


def test_a_dose_by_weight_takes_the_weight_and_the_strength_the_request_gives() -> None:
    # given a weight-based dose asked with the child's weight and the liquid's strength, in either language
    syrup = Tool("baby tylenol dose calculator, she is 9kg, the syrup is 160mg per 5ml")
    assert syrup.intent.subject == "dose_by_weight"
    answer = syrup.call("calculate")
    assert (answer["dose_mg"], answer["dose_ml"]) == (90, pytest.approx(2.8, abs=0.05))  # 9 kg x 10 mg/kg; 90/32
    zh = Tool("用药剂量计算 孩子14公斤 每公斤12毫克 每5毫升含100毫克")  # mg per kg said before its number
    assert zh.intent.subject == "dose_by_weight"
    assert (zh.call("calculate")["dose_mg"], zh.call("calculate")["dose_ml"]) == (168, 8.4)
    # the dose per kg is never taken for the strength, in whatever order they come
    mixed = Tool("kids ibuprofen 7.5 mg/kg, 100mg per 5ml, he is 18kg").call("calculate")
    assert (mixed["dose_mg"], mixed["dose_ml"]) == (135, pytest.approx(6.8, abs=0.05))
    tablets = Tool("dosage calculator: the cat weighs 4.2 kg, 2 mg/kg, the pills are 10 mg").call("calculate")
    assert tablets["dose_ml"] == pytest.approx(0.8, abs=0.05)  # a tablet's strength is per one, not per 5 ml


def test_a_schedules_subject_written_down_each_time_is_a_dated_log_of_its_fields() -> None:
    # given a subject kept as a schedule, asked as a diary of each time, in either language
    starter = Tool("a diary of each time I feed the sourdough starter")
    assert (starter.intent.subject, starter.intent.shape) == ("sourdough", "log")
    assert {"date", "ratio"} <= set(starter.fields) and "every_days" not in starter.fields
    (add,) = [op.id for op in starter.program.operations if op.kind == "create"]
    starter.call(add, {"date": "2026-12-01", "ratio": "1:5:5"})
    assert starter.call("stats")["metrics"]["entries"] == 1
    worming = Tool("每次给狗狗驱虫都记一下 用的啥药")
    assert worming.intent.shape == "log" and "date" in worming.fields
    # and the same subject with an interval to keep, or asked when it was last done, stays a schedule
    assert Tool("log feeding the sourdough starter, every 3 days").intent.shape == "schedule"
    assert Tool("a log of the houseplants, and how many days it's been since each was watered").intent.shape != "log"


def test_a_list_kind_asked_how_many_each_day_is_a_log_of_the_counts() -> None:
    # given a flashcard deck's words, asked as how many are reviewed each day: a log of that count, dated
    counted = Tool("my vocab flashcards, how many I review each day")
    assert counted.intent.shape == "log" and "date" in counted.fields
    # while a deck of cards, its words and what each holds, stays the deck
    assert Tool("日语单词本 单词 意思 例句").intent.archetype == "flashcards"


def test_a_households_things_say_whose_each_one_is() -> None:
    # given documents or records kept for several people of a household, in either language
    for text in (
        "ID cards and residence permits of the entire family, and when each runs out",
        "全家的医保卡社保卡 几号到期",
    ):
        tool = Tool(text)
        assert "person" in tool.fields, (text, list(tool.fields))
    # a subject that already says whose (a child's vaccinations) gets no second such field; one person's gets none
    shots = Tool("全家人的疫苗记录 打的哪一针").fields
    assert len(WHOSE_FIELDS & set(shots)) == 1, list(shots)
    papers = Tool("passports for the whole family and when each expires").fields  # a document's holder says whose
    assert len(WHOSE_FIELDS & set(papers)) == 1, list(papers)
    assert "person" not in Tool("my own ID card and residence permit, and when each runs out").fields


def test_a_rotas_listed_chores_are_its_rows_and_a_listed_attribute_is_a_column_not_a_chore() -> None:
    rota = Tool("a cleaning rota for me and two housemates, swapping every week: hoovering, dishes, recycling")
    (rows,) = rota.program.seed.values()
    assert [(r["task"], r["every_days"]) for r in rows] == [("hoovering", 7), ("dishes", 7), ("recycling", 7)]
    assert not {"hoovering", "dishes", "recycling"} & set(rota.fields)  # no column named after a chore
    named = Tool("house rota for Dan, Eve and Flo, swapping each week: hoovering, dishes, recycling")  # people too
    assert named.intent.slots["people"] == ["Dan", "Eve", "Flo"]
    assert [r["task"] for rows in named.program.seed.values() for r in rows] == ["hoovering", "dishes", "recycling"]
    assert not {"hoovering", "dishes", "recycling", "dan"} & set(named.fields)
    grooming = Tool("cat sitting customers, each visit due every 2 weeks - owner name, phone, breed")
    assert grooming.intent.shape == "schedule"
    (create,) = [op for op in grooming.program.operations if op.kind == "create"]
    assert not [name for name in create.constants if name.startswith("task_")]  # what each row holds, no chore
    assert {"phone", "breed", "owner_name"} <= set(grooming.fields)
    bills = Tool("monthly bills to pay on time, every month: rent, water, broadband")  # rent is a bill to pay
    (rows,) = bills.program.seed.values()
    assert {r["task"] for r in rows} == {"rent", "water", "broadband"} and "rent" not in bills.fields


def test_tasks_asked_how_often_are_a_schedules_rows_at_the_usual_interval_not_durations():
    # given chores the person asks how often to do, naming no interval
    home = Tool("窗帘多久洗一次 地毯多久吸一次 总是想不起来")
    # then they are a schedule's starting rows, said as chores are, each at the interval of the schedule its words
    # name (curtains' washing) or the usual one, and no "how long" field is asked
    assert home.intent.shape == "schedule" and "minutes" not in home.fields
    assert [t["task"] for t in home.intent.slots["tasks"]] == ["洗窗帘", "吸地毯"]
    (rows,) = home.program.seed.values()
    curtains = library().subjects[find_subjects("洗窗帘")[0][0].id]
    assert curtains.shape == "schedule" and rows[0] == {"task": "洗窗帘", "every_days": curtains.every_days}
    assert rows[1]["task"] == "吸地毯" and rows[1]["every_days"] > 1
    trial(home.program)  # stored as the pipeline stores them
    # asked how often it happens in order to record it, it is a log
    assert classify("记录一下宝宝多久喂一次奶").shape == "log"
    assert classify("how often does the baby wake up at night, log every wake up").shape == "log"


@pytest.mark.parametrize(
    ("text", "archetype"),
    [("keep my grocery and eating out spending under 600 a month", "budget_tracker"),
     ("每天早起、背单词、不喝奶茶，做到了就打个勾，看连续几天", "habit_tracker")],
)  # fmt: skip
def test_a_limit_per_month_is_a_budget_and_ticking_off_a_list_of_habits_is_the_habit_tracker(text, archetype):
    assert classify(text).archetype == archetype


def test_a_request_that_says_what_each_row_holds_gets_those_fields_and_no_guessed_value():
    blood = Tool("each time I donate blood, note the date and the place")
    assert blood.intent.archetype == "custom_log"
    assert blood.fields["date"].type == "date" and "place" in blood.fields and "value" not in blood.fields
    homework = Tool("每天记一下孩子写作业花了多长时间")  # one thing asked, and a log's words: a log of it
    assert homework.intent.shape == "log" and homework.fields["minutes"].type == "number"


def test_an_unclear_request_carries_a_proposal_and_candidates_in_its_language():
    intent = classify("track my coffee budget")
    asked = ask("track my coffee budget", intent)
    assert asked.proposal is not None and asked.proposal == asked.candidates[0]
    assert {"budget_tracker", "caffeine_tracker"} <= {c["choice"] for c in asked.candidates}
    assert all(c["fields"] and c["title"] for c in asked.candidates)
    chosen = classify_as("track my coffee budget", asked.candidates[1]["choice"])
    assert chosen.archetype == asked.candidates[1]["choice"]


def test_classify_as_refuses_a_choice_that_is_no_kind_of_tool():
    with pytest.raises(ValueError, match="not a kind of tool"):
        classify_as("anything", "rocket_launcher")


# --- the repeat key is the tool --------------------------------------------------------------------------------


def _key(text: str) -> str:
    intent = classify(text)
    return plan_key(OfflinePlanner().plan(text, intent, []).program, "offline")


@pytest.mark.parametrize(
    ("first", "second"),
    [
        ("log my runs", "track my running"),
        ("log my blood pressure", "I want to track my blood pressure readings"),
        ("remind me of my friends' birthdays", "a list of my friends birthdays"),
    ],
)
def test_requests_for_the_same_tool_share_a_key(first: str, second: str):
    assert _key(first) == _key(second)


@pytest.mark.parametrize(
    ("first", "second"),
    [
        ("a grocery list", "a packing checklist for a beach holiday"),
        ("track weekly weight", "calculate my BMI"),
        ("compare the weather in Lisbon and Porto", "rank the hottest cities this week"),
        ("remind me to water the plants every 3 days", "remind me to water the plants every week"),
        ("log my runs", "我想记录每天晨跑"),
        ("calculate my mortgage payment: 300k at 4.1% over 30 years", "calculate my mortgage payment"),
    ],
)
def test_requests_for_different_tools_never_share_a_key(first: str, second: str):
    assert _key(first) != _key(second)


def test_a_collection_computes_its_subjects_figures_per_row_and_over_rows():
    tool = Tool("inventory for my shop")
    assert tool.intent.subject == "shop_inventory"
    add = next(op.id for op in tool.program.operations if op.kind == "create")
    tool.call(add, {"product": "mug", "in_stock": 3, "reorder_at": 5, "cost_price": 2.5, "sale_price": 6})
    tool.call(add, {"product": "cap"})  # a row without the figures' inputs has none, and breaks nothing
    listed = next(op.id for op in tool.program.operations if op.kind == "list")
    rows = {row["product"]: row for row in tool.call(listed)["items"]}
    assert (rows["mug"]["stock_value"], rows["mug"]["unit_margin"], rows["mug"]["reorder"]) == (7.5, 3.5, True)
    assert rows["cap"]["stock_value"] is None
    assert tool.call("summary")["metrics"]["products"] == 2


def test_a_subject_named_only_by_a_field_each_entry_asks_for_gives_way_to_the_one_the_request_is_about():
    # 油费 is what each day of driving costs, not a fuel-cost calculator; the request is a driver's earnings log
    intent = classify("我周末跑滴滴，记录每天接了多少单、流水多少、油费多少，算一下净赚")
    assert intent.shape == "log" and intent.subject == "delivery_earnings"
    assert classify("我在跑外卖，想记每天接了多少单、跑了多少公里、收入多少，扣掉油费看实际赚多少").shape == "log"
    assert classify("开车去杭州油费多少，帮我算一下").subject == "fuel_cost"  # asked as the answer, it is the tool


def test_a_subject_gives_way_to_its_sibling_of_the_shape_the_sentence_surely_asks():
    # the nights are a log; a list of the games we own with a random pick is their collection
    games = Tool("list of board games we own w/ player count and play time. pick one at random for game night?")
    assert games.intent.subject == "board_game_collection" and games.intent.shape == "collection"
    assert any(op.id == "pickOne" for op in games.program.operations)
    assert classify("log our game nights: who played and who won").subject == "board_game_nights"


def test_a_list_of_dates_asking_how_long_it_has_been_counts_the_time_since_each():
    cats = Tool("date we adopted each of our cats & how long we've had them")
    assert cats.intent.shape == "dates" and cats.fields["date_adopted"].type == "date"
    assert "duration" not in cats.fields  # 'how long we've had them' is a figure, not a duration typed in
    cats.call("addEvent", {"name": "Miso", "date_adopted": "2024-12-03"})
    cats.call("addEvent", {"name": "Tofu", "date_adopted": "2026-11-03"})
    rows = cats.call("listEvents")["items"]
    assert [(r["name"], r["days_since"]) for r in rows] == [("Miso", (TODAY - dt.date(2024, 12, 3)).days),
                                                            ("Tofu", (TODAY - dt.date(2026, 11, 3)).days)]  # fmt: skip
    assert rows[0]["years_since"] == round((TODAY - dt.date(2024, 12, 3)).days / 365.25, 1)
    chinese = Tool("记一下每只猫是哪天领养的，养了几年了")
    assert chinese.intent.shape == "dates" and chinese.program.labels["years_since"] == "已经几年"
    assert not [n for n, f in chinese.fields.items() if f.type in ("number", "integer")]  # 几年了 is no field


def test_a_request_that_names_its_tool_before_a_colon_gets_that_title_and_its_questions_as_fields():
    cooking = Tool("cooking journal: what i made for dinner each night, rating out of 5")
    assert cooking.intent.shape == "log" and cooking.program.title == "Cooking journal"
    assert cooking.fields["dish"].label == "What I made" and "rating" in cooking.fields
    waves = {a["said"]: a for a in asked("冲浪日志：哪个浪点、浪多高")}
    assert (waves["浪高"]["type"], waves["浪高"]["en"]) == ("number", "height")  # 多高 asks a height


def test_a_schedule_shows_how_long_since_each_task_was_last_done():
    # given a schedule of recurring tasks, asked as how long it has been
    tool = Tool("how long since I last watered the plants, fed the fish and cleaned the filter? remind me every week")
    assert tool.intent.shape == "schedule"
    create = next(op.id for op in tool.program.operations if op.kind == "create")
    listing = next(op.id for op in tool.program.operations if op.kind == "list")
    tool.call(create, {"task": "water the plants", "last_done": "2026-11-25"})
    # then each task says how many days since it was last done, beside when it is next due
    (row,) = tool.call(listing)["items"]
    assert (row["days_since_last"], row["due_in_days"]) == (7, 0)


@pytest.mark.parametrize(
    ("prompt", "seeded"),
    [
        ("remind me: furnace filter every 3 months, smoke detector batteries yearly, water plants every 3 days", 3),
        # a pet's treatments: each row needs the pet, which the request does not say per task, so none is stored
        ("dog treatments: heartworm pill monthly, flea drops every 3 months, rabies shot yearly", 0),
        ("狗狗疫苗每年一次，驱虫每三个月一次", 0),
    ],
)
def test_listed_tasks_are_a_schedules_starting_rows_when_a_row_of_them_is_one_the_entity_stores(prompt, seeded):
    program = OfflinePlanner().plan(prompt, classify(prompt), []).program
    assert sum(len(rows) for rows in program.seed.values()) == seeded
    trial(program)  # stored as the pipeline stores them, the figures over them computed


@pytest.mark.parametrize(
    ("text", "total", "parts"),
    [
        ("房租按面积分，主卧20平，次卧15平和12平", 6000, [20, 15, 12]),  # the README's example: no total said
        ("房租6000按面积分，主卧20平，次卧15平和12平", 6000, [20, 15, 12]),
        ("split the 2400 rent by room size: 14, 11 and 9 square metres", 2400, [14, 11, 9]),
        ("split rent 1800 by room size 12m2, 10m2 and 8m2", 1800, [12, 10, 8]),
    ],
)
def test_a_split_in_proportion_reads_the_parts_said_in_one_unit_as_its_parts(text, total, parts):
    """The README's "房租按面积分，主卧20平，次卧15平和12平" took 20 m² for the rent to split and 15 and 12 for two
    of three shares: the parts said in one unit are the parts, never the total."""
    from toolgen.intent import classify
    from toolgen.planner import OfflinePlanner

    intent = classify(text)
    assert intent.archetype == "split_by_shares"
    (op,) = OfflinePlanner().plan(text, intent, []).program.operations
    assert op.inputs["total"].default == total
    assert [op.inputs[f"share_{x}"].default for x in "abc"] == parts
