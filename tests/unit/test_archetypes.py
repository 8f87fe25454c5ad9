"""Every archetype's tool, called on real inputs, gives correct answers (fixed clock, in-memory table).

The tools read their programs as a deployed tool does: views over the program's JSON (toolgen/runtime/view.py).

The two that reach outside (weather ranking, currency) are tested against a fixture server in the functional tier.
"""

from __future__ import annotations

import datetime as dt
import json
from typing import Any

import pytest

from tests.fakes import FakeTable
from tests.helpers import tool_event
from toolgen import auth
from toolgen.intent import classify
from toolgen.planner import OfflinePlanner
from toolgen.runtime import ToolApp, view

SECRET = "archetype-secret"
TODAY = dt.date(2026, 12, 2)  # a Wednesday


class Tool:
    def __init__(self, prompt: str) -> None:
        intent = classify(prompt)
        assert intent.archetype, prompt
        self.program = OfflinePlanner().plan(prompt, intent, []).program
        deployed = view._view(json.loads(self.program.model_dump_json()), "program")  # as a deployed tool reads it
        self.app = ToolApp(
            deployed,  # type: ignore[arg-type]
            tool_id="t" + "2" * 20,
            owner="ann",
            table=FakeTable(),
            secret=SECRET,
            clock=lambda: TODAY,
        )
        self.token = auth.mint("ann", SECRET)

    def call(self, op_id: str, body: Any = None, row_id: str | None = None, **query: Any) -> Any:
        op = self.program.operation(op_id)
        path = op.path.replace("{id}", row_id or "")
        event = tool_event(op.method, path, token=self.token, query={k: str(v) for k, v in query.items()}, body=body)
        response = self.app.handle(event)
        assert response["statusCode"] < 300, response["body"]
        return json.loads(response["body"]) if response["body"] else None


def metrics(result: dict) -> dict:
    return result["metrics"]


def test_run_log_tracks_the_weekly_goal():
    runs = Tool("log my runs, my goal is 20 km a week")
    runs.call("addRun", {"date": "2026-11-30", "distance": 8, "minutes": 48})  # Monday, this week
    runs.call("addRun", {"date": "2026-11-29", "distance": 10, "minutes": 60})  # Sunday, last week
    assert metrics(runs.call("weekDistance")) == {"distance": 8, "goal": 20.0, "remaining": 12.0}
    assert metrics(runs.call("runStats"))["streak_days"] == 0  # nothing yesterday or today


def test_habit_tracker_counts_streaks_per_habit():
    habits = Tool("track my daily meditation habit")
    for day in ("2026-11-30", "2026-12-01", "2026-12-02"):
        habits.call("checkIn", {"habit": "meditate", "date": day})
    habits.call("checkIn", {"habit": "floss", "date": "2026-11-28"})
    groups = {g["key"]: g["metrics"] for g in habits.call("habitStreaks")["groups"]}
    assert groups["meditate"] == {"days_done": 3, "current_streak": 3, "last_day": "2026-12-02", "completion_pct": 100}
    assert groups["floss"]["current_streak"] == 0
    assert groups["floss"]["completion_pct"] == 20  # one day of the five since its first check-in
    assert [r["habit"] for r in habits.call("listCheckins", habit="floss")["items"]] == ["floss"]


def test_caffeine_tracker_derives_mg_and_warns_past_the_limit():
    caffeine = Tool("keep my caffeine under 300 mg")
    assert caffeine.call("logDrink", {"drink": "espresso", "time": "08:00"})["mg"] == 63
    caffeine.call("logDrink", {"drink": "coffee", "time": "15:30", "mg": 250})
    caffeine.call("logDrink", {"drink": "coffee", "date": "2026-12-01"})  # yesterday: not today's
    today = metrics(caffeine.call("today"))
    assert today["mg"] == 313 and today["limit_mg"] == 300.0 and today["over_limit"] is True
    assert today["remaining_mg"] == 0 and today["last_time"] == "15:30" and today["past_cutoff"] is True


def test_water_tracker_counts_towards_a_goal_in_litres():
    water = Tool("I want to drink 2 liters of water a day")
    water.call("logWater", {"ml": 500})
    water.call("logWater", {})  # a default glass: 250 ml
    water.call("logWater", {"ml": 750, "date": "2026-12-01"})
    assert metrics(water.call("today")) == {
        "ml": 750,
        "goal_ml": 2000.0,
        "remaining_ml": 1250.0,
        "drinks": 2,
        "done": False,
    }
    week = {g["key"]: g["metrics"]["ml"] for g in water.call("week")["groups"]}
    assert week == {"2026-12-01": 750, "2026-12-02": 750}


def test_mood_journal_averages():
    mood = Tool("a mood journal")
    for day, score in (("2026-11-30", 2), ("2026-12-01", 4), ("2026-12-02", 5)):
        mood.call("addEntry", {"date": day, "mood": score, "note": "ok"})
    stats = metrics(mood.call("moodStats"))
    assert stats == {"average": 3.67, "entries": 3, "lowest": 2, "highest": 5, "streak_days": 3}


def test_budget_counts_only_this_month_and_groups_by_category():
    budget = Tool("my budget is 3000 a month")
    budget.call("addExpense", {"amount": 1200, "category": "housing"})
    budget.call("addExpense", {"amount": 45.5, "category": "food", "date": "2026-12-01"})
    budget.call("addExpense", {"amount": 999, "category": "food", "date": "2026-11-30"})  # last month
    assert metrics(budget.call("periodBudget")) == {
        "spent": 1245.5,
        "budget": 3000.0,
        "remaining": 1754.5,
        "used_pct": 41.5,
        "over_budget": False,
    }
    assert {g["key"]: g["metrics"]["spent"] for g in budget.call("byCategory")["groups"]} == {
        "food": 45.5,
        "housing": 1200,
    }


def test_expense_splitter_settles_with_the_fewest_transfers():
    split = Tool("split the trip costs with Alice and Bob")
    assert split.program.defaults["people"] == ["Me", "Alice", "Bob"]
    split.call("addExpense", {"description": "hotel", "amount": 300, "paid_by": "Me"})
    split.call("addExpense", {"description": "dinner", "amount": 90, "paid_by": "Alice"})
    result = metrics(split.call("balances"))
    assert result["total"] == 390 and result["per_person"] == 130
    assert result["transfers"] == [
        {"from": "Bob", "to": "Me", "amount": 130.0},
        {"from": "Alice", "to": "Me", "amount": 40.0},
    ]


def test_focus_planner_sorts_by_weekday_and_totals_hours():
    focus = Tool("plan my week in focus blocks, 6 hours per week")
    focus.call("addBlock", {"day": "wed", "start": "09:00", "minutes": 120, "focus": "thesis"})
    monday = focus.call("addBlock", {"day": "mon", "start": "10:00", "minutes": 90, "focus": "reading"})
    assert [b["day"] for b in focus.call("listBlocks")["items"]] == ["mon", "wed"]
    assert focus.call("listBlocks")["items"][0]["hours"] == 1.5
    assert metrics(focus.call("totals")) == {"hours": 3.5, "blocks_done": 0, "goal_hours": 6.0, "remaining_hours": 2.5}
    focus.call("updateBlock", {"done": True}, row_id=monday["id"])
    assert metrics(focus.call("totals"))["blocks_done"] == 1


@pytest.mark.parametrize(
    ("text", "block", "rest"),
    [
        ("plan my afternoon in 45 minute focus blocks with 15 min breaks", 45, 15),
        ("pomodoro planner for my thesis chapters", 25, 5),  # a pomodoro unless said otherwise
        ("番茄钟排一下明天上午：每个番茄30分钟，休息10分钟", 30, 10),
        ("plan my week in focus blocks, 6 hours per week", 90, 10),
    ],
)
def test_focus_blocks_and_breaks_take_the_lengths_the_request_gives(text: str, block: int, rest: int) -> None:
    focus = Tool(text)
    assert focus.program.name == "focus_planner"
    row = focus.call("addBlock", {"focus": "write"})  # the day and start time default
    assert (row["minutes"], row["break_minutes"], row["done"]) == (block, rest, False)


def test_todo_list_counts_open_and_done():
    todo = Tool("a to-do list")
    first = todo.call("addTask", {"title": "call the bank"})
    todo.call("addTask", {"title": "buy milk", "priority": "high"})
    todo.call("updateTask", {"done": True}, row_id=first["id"])
    assert metrics(todo.call("taskSummary")) == {"total": 2, "done": 1, "open": 1}
    assert [t["title"] for t in todo.call("listTasks", done="false")["items"]] == ["buy milk"]


def test_reading_list_groups_by_status_and_tracks_the_yearly_goal():
    books = Tool("I want to read 20 books this year, track them")
    books.call("addBook", {"title": "Dune", "status": "done", "rating": 5, "finished": "2026-03-01"})
    books.call("addBook", {"title": "Emma", "status": "done", "rating": 4, "finished": "2025-12-30"})  # last year
    books.call("addBook", {"title": "Ulysses"})
    assert [b["title"] for b in books.call("listBooks")["items"]] == ["Ulysses", "Dune", "Emma"]  # want, then done
    assert metrics(books.call("yearGoal")) == {"read": 1, "goal": 20.0, "left": 19.0}
    groups = {g["key"]: g["metrics"] for g in books.call("readingStats")["groups"]}
    assert groups["done"] == {"books": 2, "average_rating": 4.5}


def test_flashcards_review_what_is_due_and_schedule_the_next_review():
    cards = Tool("flashcards for Spanish vocabulary")
    cards.call("addCard", {"front": "perro", "back": "dog"})
    cards.call("addCard", {"front": "gato", "back": "cat", "due": "2026-12-09"})
    assert [c["front"] for c in cards.call("reviewQueue")["items"]] == ["perro"]
    assert cards.call("schedule", box=2, correct="true") == {"next_box": 3, "next_due": "2026-12-06"}
    assert cards.call("schedule", box=4, correct="false") == {"next_box": 1, "next_due": "2026-12-03"}


def test_restaurant_picker_picks_from_the_filtered_list():
    places = Tool("help me pick a restaurant")
    for name, cuisine in (("Sushi Ko", "japanese"), ("Ramen Ya", "japanese"), ("Taco Loco", "mexican")):
        places.call("addRestaurant", {"name": name, "cuisine": cuisine})
    for _ in range(5):
        picked = metrics(places.call("pickOne", cuisine="japanese"))
        assert picked["choice"] in ("Sushi Ko", "Ramen Ya") and picked["options"] == 2


def test_countdown_counts_days_to_the_next_christmas():
    countdown = Tool("countdown to Christmas")
    assert countdown.call("daysUntil") == {"days": 23, "weeks": 3.3, "workdays": 17}  # today is Wednesday 2 Dec
    assert countdown.call("daysUntil", date="2027-01-01")["days"] == 30
    countdown.call("addEvent", {"name": "exam", "date": "2026-12-20"})
    countdown.call("addEvent", {"name": "trip", "date": "2026-12-05"})
    assert [(e["name"], e["days_left"]) for e in countdown.call("listEvents")["items"]] == [("trip", 3), ("exam", 18)]


@pytest.mark.parametrize(
    ("prompt", "query", "result"),
    [
        ("convert kilometers to miles", {"value": 10}, 6.213712),
        ("Celsius to Fahrenheit converter", {"value": 100}, 212.0),
        ("convert pounds to kilograms", {"value": 10}, 4.535924),
        ("how many ml in a cup", {"value": 2}, 473.176473),
        ("what's 10 stone in kg", {"value": 10}, 63.502932),
        ("how many miles is 10 km", {}, 6.213712),  # the amount's own unit is what is converted from
        ("tire pressure: 32 psi in bar", {}, 2.206321),
        ("torque wrench says 100 nm, what's that in ft-lb", {}, 73.756215),
        ("3亩是多少平方米", {}, 2000.0),
        ("2尺等于多少米", {}, 0.666667),
        ("how fast is 100 km/h in mph", {}, 62.137119),
        ("an acre in square feet", {}, 43560.0),
    ],
)
def test_unit_converter_converts_exactly(prompt, query, result):
    assert Tool(prompt).call("convert", **query)["result"] == pytest.approx(result)


def test_tip_calculator_uses_the_requested_percent_and_split():
    tip = Tool("work out an 18% tip and split it between 4 people")
    assert tip.call("tip", bill=80) == {"tip": 14.4, "total": 94.4, "per_person": 23.6}


def test_bmi_calculator_in_both_unit_systems():
    bmi = Tool("calculate my BMI")
    healthy = {"healthy_weight_min": 56.7, "healthy_weight_max": 76.3}  # BMI 18.5 to 24.9 at 1.75 m
    assert bmi.call("bmi", weight=70, height=175) == {"bmi": 22.9, "category": "normal", **healthy}
    imperial = bmi.call("bmi", weight=200, height=70, system="imperial")
    assert imperial == {"bmi": 28.7, "category": "overweight", "healthy_weight_min": 128.9, "healthy_weight_max": 173.6}
    zh = Tool("帮我算一下体重指数").call("bmi", weight=95, height=170)
    assert zh == {"bmi": 32.9, "category": "肥胖", "healthy_weight_min": 53.5, "healthy_weight_max": 72.0}


def test_a_cost_split_by_room_area_gives_each_share_its_part():
    rent = Tool("三个人合租，房租一共6000，想按面积分，主卧20平，两个次卧15平和12平，每人该出多少")
    op = rent.program.operation("splitByWeight")
    assert op.inputs["total"].default == 6000 and [op.inputs[f"area_{i}"].default for i in (1, 2, 3)] == [20, 15, 12]
    shares = rent.call("splitByWeight", {"total": 6000, "area_1": 20, "area_2": 15, "area_3": 12})
    assert [shares[f"share_{i}"] for i in (1, 2, 3)] == [2553.19, 1914.89, 1531.91]
    assert rent.program.labels["share_1"] == "我应出" and op.inputs["area_1"].label == "面积（平方米） · 我"
    assert rent.call("balances")["metrics"]["total"] == 0  # the shared expenses are still there


def test_a_bill_split_by_days_at_home_and_a_repair_by_each_households_area():
    bill = Tool("split the electricity bill of 412 with my 2 roommates based on the number of days each of us was home")
    got = bill.call("splitByWeight", {"total": 412, "days_1": 30, "days_2": 30, "days_3": 20})
    assert [got[f"share_{i}"] for i in (1, 2, 3)] == [154.5, 154.5, 103.0]
    repair = Tool("小区电梯维修一共38000，要按每户的建筑面积分摊，帮我算每户出多少")
    op = repair.program.operation("splitByWeight")
    assert op.inputs["total"].default == 38000 and op.inputs["area_1"].label.endswith("第1户")


def test_a_stay_some_were_at_for_part_of_is_split_by_the_nights_or_days_each_was_there() -> None:
    # some of the party there for part of the stay: the nights each was there weigh the shares, named as said
    lodge = Tool("split the beach house between 6 of us, 2 people only stayed for 3 of the 7 nights")
    split = lodge.program.operation("splitByWeight")
    assert split.inputs["nights_1"].label == "Nights · Me"
    assert split.inputs["total"].default is None  # 3 of the 7 nights is no amount to split
    nights = {f"nights_{i}": 7 if i <= 4 else 3 for i in range(1, 7)}  # six of us, two there 3 nights
    got = lodge.call("splitByWeight", {"total": 680, **nights})
    assert (got["share_1"], got["share_6"]) == (140.0, 60.0)
    cabin = Tool("weekend lake house for 6 of us cost 900, 3 people only came for 1 out of 3 nights, split it")
    assert cabin.program.operation("splitByWeight").inputs["total"].default == 900
    assert "nights_1" in cabin.program.operation("splitByWeight").inputs
    assert (
        Tool("民宿3晚一共1800 六个人AA 有两个人只住了两晚").program.operation("splitByWeight").inputs["total"].default
        == 1800
    )  # 3晚 is how long, not what is split
    inn = Tool("民宿一共1800 六个人AA 有两个人只住了两晚")
    assert inn.program.operation("splitByWeight").inputs["total"].default == 1800
    assert inn.program.operation("splitByWeight").inputs["nights_1"].label.startswith("晚数")
    trip = Tool("出去玩的费用五个人AA，有两个人只来了两天")
    assert "days_1" in trip.program.operation("splitByWeight").inputs


def test_a_split_where_some_did_not_drink_puts_the_drinks_on_those_who_did() -> None:
    bbq = Tool("烧烤八个人AA 有三个人不喝酒 酒钱单算")
    split = bbq.program.operations[0]  # what was asked, first; the expense log stays beside it
    assert split.id == "calculateSplit" and split.inputs["diners"].default == 8
    assert bbq.program.operation("addExpense") is not None
    got = bbq.call("calculateSplit", shared_total=800, drinks_total=250, diners=8, non_drinkers=3)
    assert (got["non_drinker"], got["drinker"], got["bill"]) == (100.0, 150.0, 1050.0)
    everyone = bbq.call("calculateSplit", shared_total=800, drinks_total=250, diners=8, non_drinkers=8)
    assert everyone["drinker"] == 350.0  # no one drank: the drinks are no one's share but are never divided by 0
    # the splitter named with a part of it is that kind with it, whichever names it more surely
    assert classify("室友AA记账 酒钱另算").slots.get("with_subject") == "drinks_split"
    assert Tool("dinner for 6 of us, split the drinks separately").program.operations[0].id == "calculateSplit"
    # money spent on drink, or non-drinkers at a party, are no split
    assert classify("记录每个月的酒钱").archetype != "expense_splitter"
    assert classify("party planning: 3 non-drinkers, how many bottles of wine").archetype != "expense_splitter"


def test_an_even_split_has_no_proportional_part():
    plain = Tool("split the dinner bill evenly between me and 3 friends")
    assert all(op.id != "splitByWeight" for op in plain.program.operations)
    stayed = Tool("we stayed for 3 nights in Rome, split the hotel between the 4 of us")  # everyone there throughout
    assert all(op.id != "splitByWeight" for op in stayed.program.operations)
    drinks = Tool("split the bar tab between 5 of us, Tom only came for 2 drinks")  # part of it, but no days
    assert all(op.id != "splitByWeight" for op in drinks.program.operations)


@pytest.mark.parametrize(
    ("text", "archetype"),
    [
        # a length of work with breaks between is a focus plan, whatever its pieces are called
        ("split my evening into 40-minute study chunks with breaks", "focus_planner"),
        ("工作想干45分钟休息10分钟，帮我把下午排一排", "focus_planner"),
        # a share of a bill left behind is a tip
        ("lunch came to $62, I want to leave 18%, there are 3 of us", "tip_calculator"),
        # what is left of a sum to spend, money coming and going
        ("groceries, gas, fun: how much is left of my $900 this month", "budget_tracker"),
        ("money in and money out each week by category", "budget_tracker"),
        ("生活费3000，想管住手，看看还剩多少能花", "budget_tracker"),
        # 'how long until' with no date to count to asks a formula how long
        ("how long until my student loan is paid off? 18000 left at 5%, paying 400 a month", "loan_payoff"),
        ("how long till my credit card is paid off, $3,100 at 19.9% paying $120 a month", "credit_card_payoff"),
        ("how long until our anniversary on June 3", "countdown"),  # a date to count to: the countdown
        # ticking days off, with a streak that breaks, is the habit tracker
        ("每天早起、拉伸、不喝饮料，做没做都勾一下，断了就重新开始", "habit_tracker"),
        ("几个小习惯：阅读、散步、早睡，每天画个勾，月底看看完成率", "habit_tracker"),
        # settling up between people is the expense splitter, whatever its costs' subject
        ("ski weekend, different people paid for the chalet, lift passes and food, who needs to pay who",
         "expense_splitter"),
        ("三个人去海边玩，油费门票吃饭都有人垫了，最后算一下谁给谁转多少", "expense_splitter"),  # fuel: one cost
        ("me n my roommate split utilities in proportion to the days each of us was home", "expense_splitter"),
        ("部门给领导凑份子买生日礼物，一共600，六个人", "expense_splitter"),
    ],
)  # fmt: skip
def test_kinds_of_sentence_that_name_a_kind_by_what_it_does(text: str, archetype: str) -> None:
    assert classify(text).archetype == archetype


@pytest.mark.parametrize(
    ("text", "event"),
    [
        ("how many days until our wedding anniversary", "anniversary"),  # a compound is named by its head
        ("离结婚纪念日还有几天", "anniversary"),
        ("countdown to my wedding", "wedding"),
        ("days until my exam", "exam"),
    ],
)
def test_a_countdown_counts_down_to_the_event_its_words_name(text: str, event: str) -> None:
    assert classify(text).slots.get("event") == event


def test_a_countdown_to_several_events_names_them_all() -> None:
    countdown = Tool("离结婚纪念日还有几天？还有他的生日也加上")
    assert countdown.program.title == "倒计时 · 纪念日、生日"
    assert countdown.program.entities["event"].fields["name"].default == "纪念日"
