"""The tool runtime against the in-memory table: routing, identity, typed input and each operation kind."""

import datetime as dt
import json

import pytest

from tests.fakes import FakeTable
from tests.helpers import tool_event
from toolgen import auth
from toolgen.intent import classify
from toolgen.planner import OfflinePlanner
from toolgen.runtime import ToolApp

SECRET = "tool-secret"


def app_for(prompt: str, owner: str = "alice") -> ToolApp:
    program = OfflinePlanner().plan(prompt, classify(prompt), []).program
    return ToolApp(program, tool_id="t" + "0" * 20, owner=owner, table=FakeTable(), secret=SECRET)


def call(app: ToolApp, method: str, path: str, *, user: str = "alice", body=None, query=None, raw_body=None):
    event = tool_event(method, path, token=auth.mint(user, SECRET), query=query, body=body)
    if raw_body is not None:
        event["body"] = raw_body
    response = app.handle(event)
    return response["statusCode"], (json.loads(response["body"]) if response["body"] else None)


@pytest.fixture
def runs() -> ToolApp:
    return app_for("I want to log my morning runs")


def test_created_rows_are_listed_and_aggregated(runs):
    assert call(runs, "POST", "/runs", body={"date": "2026-12-01", "distance": 5, "minutes": 30})[0] == 201
    status, row = call(runs, "POST", "/runs", body={"date": "2026-12-02", "distance": 3.5, "minutes": 21})
    assert status == 201 and row["start"] == "06:30" and row["id"].startswith("r")
    status, listed = call(runs, "GET", "/runs")
    assert [r["date"] for r in listed["items"]] == ["2026-12-02", "2026-12-01"]  # sorted -date
    status, stats = call(runs, "GET", "/stats")
    assert stats["metrics"]["runs"] == 2
    assert stats["metrics"]["total_distance"] == 8.5
    assert stats["metrics"]["pace_min_per_km"] == round(51 / 8.5, 2)


def test_a_days_rows_are_listed_newest_first_by_their_time_too():
    # given three readings, a day's morning made before its evening (ties kept the order they were made in)
    app = app_for("log my blood pressure readings morning and evening")
    for day, time, high in [("2026-12-04", "08:00", 132), ("2026-12-05", "08:00", 128), ("2026-12-04", "20:00", 124)]:
        assert (
            call(app, "POST", "/readings", body={"date": day, "time": time, "systolic": high, "diastolic": 80})[0]
            == 201
        )
    # then the list is newest first by date and time, whatever order they were made in
    listed = call(app, "GET", "/readings")[1]["items"]
    assert [(r["date"], r["time"]) for r in listed] == [
        ("2026-12-05", "08:00"),
        ("2026-12-04", "20:00"),
        ("2026-12-04", "08:00"),
    ]


@pytest.mark.parametrize(
    ("prompt", "limit"),
    [("track my screen time", 120), ("limit my screen time to 90 minutes a day", 90), ("每天玩手机不超过90分钟", 90)],
)
def test_a_limit_is_good_while_under_it_and_says_by_how_much_it_is_over(prompt, limit):
    app = app_for(prompt)
    assert next(op for op in app.program.operations if op.id == "goal").constants["goal"] == limit
    assert call(app, "POST", "/sessions", body={"minutes": limit - 30})[0] == 201
    under = call(app, "GET", "/goal")[1]["metrics"]
    assert under == {"so_far": limit - 30, "left": 30, "over_by": 0, "limit": limit, "within_limit": True}
    assert call(app, "POST", "/sessions", body={"minutes": 50})[0] == 201
    over = call(app, "GET", "/goal")[1]["metrics"]
    assert over == {"so_far": limit + 20, "left": 0, "over_by": 20, "limit": limit, "within_limit": False}
    assert "reached" not in app.program.labels  # no "Goal reached" once over a limit


@pytest.mark.parametrize(
    "prompt", ["track my annual forex quota", "记一下每年5万美元的购汇额度", "ISA allowance tracker"]
)
def test_an_annual_allowance_starts_again_each_january(prompt):
    # an allowance of the year (issue 33): what was bought last year is not held against this year's
    program = OfflinePlanner().plan(prompt, classify(prompt), []).program
    goal = next(op for op in program.operations if op.id == "goal")
    assert goal.period == "year"
    today = dt.date(2027, 1, 15)
    app = ToolApp(program, tool_id="t" + "0" * 20, owner="alice", table=FakeTable(), secret=SECRET, clock=lambda: today)
    create = next(op for op in program.operations if op.kind == "create")
    entity = program.entities[create.entity]
    amount = next(name for name, spec in entity.fields.items() if spec.type == "number" and spec.required)
    base = {name: "x" for name, spec in entity.fields.items() if spec.required and spec.type == "string"}
    for day, value in (("2026-12-20", 40_000), ("2027-01-05", 1_000)):
        assert call(app, "POST", create.path, body={**base, amount: value, "date": day})[0] == 201
    figures = call(app, "GET", "/goal")[1]["metrics"]
    assert figures["so_far"] == 1_000 and figures["within_limit"] is True


def test_missing_token_is_401_and_another_persons_token_is_403(runs):
    event = tool_event("GET", "/runs", token="x")
    event["headers"].pop("authorization")
    assert runs.handle(event)["statusCode"] == 401
    assert call(runs, "GET", "/runs", user="mallory")[0] == 403


def test_token_signed_with_another_secret_is_401(runs):
    event = tool_event("GET", "/runs", token=auth.mint("alice", "not-the-secret"))
    assert runs.handle(event)["statusCode"] == 401


def test_invalid_input_is_422_with_every_problem_named(runs):
    status, body = call(runs, "POST", "/runs", body={"distance": "far", "minutes": -1, "colour": "red"})
    assert status == 422
    assert body["code"] == "invalid_input"
    assert body["details"] == {"colour": "unknown field", "distance": "expected number", "minutes": "too small"}


@pytest.mark.parametrize("value", [float("inf"), 1e300, True, None])
def test_non_finite_huge_or_wrongly_typed_numbers_are_refused(runs, value):
    event = tool_event("POST", "/runs", token=auth.mint("alice", SECRET))
    event["body"] = json.dumps({"distance": value}, allow_nan=True) if value is not None else '{"distance": null}'
    assert runs.handle(event)["statusCode"] == 422


def test_malformed_json_is_400(runs):
    assert call(runs, "POST", "/runs", raw_body="{not json")[0] == 400


def test_a_method_the_path_does_not_take_is_405_naming_the_ones_it_does(runs):
    # a PUT where the tool updates with PATCH: the path is the tool's, so not a 404 (issue 35, real clients)
    event = tool_event("PUT", "/runs/r0000000000000000000z", token=auth.mint("alice", SECRET), body={"distance": 4})
    answer = runs.handle(event)
    body = json.loads(answer["body"])
    assert answer["statusCode"] == 405 and body["code"] == "method_not_allowed"
    taken = sorted({op.method for op in runs.program.operations if op.path == "/runs/{id}"})
    assert taken and "PUT" not in taken
    assert answer["headers"]["allow"] == ", ".join(taken) and "PUT" in body["message"]
    assert call(runs, "DELETE", "/runs")[0] == 405  # the list takes GET and POST
    zh = app_for("记录我的跑步")
    status, said = call(zh, "PUT", "/runs")
    assert status == 405 and "不支持 PUT" in said["message"]


def test_a_path_with_a_final_newline_is_no_path_of_the_tool(runs):
    # "$" matches before a final newline: "/runs/\n" was the list's path, so PATCH there answered an undocumented
    # 405 (schemathesis) and GET "/runs\n" the list; the row route reads "\n" as an id, which no row has
    todo = app_for("a todo list for chores")
    assert any(op.kind == "update" and op.path == "/tasks/{id}" for op in todo.program.operations)
    assert call(todo, "PATCH", "/tasks/\n", body={"title": "x"})[0] == 404
    assert call(runs, "DELETE", "/runs/\n")[0] == 404
    assert call(runs, "GET", "/runs\n")[0] == 404


def test_unknown_route_and_row_are_404(runs):
    assert call(runs, "GET", "/nothing")[0] == 404
    assert call(runs, "DELETE", "/runs/r0000000000000000000z")[0] == 404
    assert call(runs, "DELETE", "/runs/../../etc")[0] == 404


def test_describe_lists_operations(runs):
    status, body = call(runs, "GET", "/")
    assert status == 200
    assert [op["id"] for op in body["operations"]] == ["addRun", "listRuns", "runStats", "weekDistance", "deleteRun"]


def test_rows_are_kept_per_person():
    # given one tool program served to two owners sharing a table
    table = FakeTable()
    program = OfflinePlanner().plan("a todo list", classify("a todo list"), []).program
    alice = ToolApp(program, tool_id="t" + "1" * 20, owner="alice", table=table, secret=SECRET)
    bob = ToolApp(program, tool_id="t" + "1" * 20, owner="bob", table=table, secret=SECRET)
    call(alice, "POST", "/tasks", body={"title": "alice's task"})
    # then bob's view of the same tool id has none of alice's rows
    assert call(bob, "GET", "/tasks", user="bob")[1]["items"] == []


def test_update_and_delete_a_task():
    todo = app_for("a todo list for chores")
    _, task = call(todo, "POST", "/tasks", body={"title": "wash up"})
    status, changed = call(todo, "PATCH", f"/tasks/{task['id']}", body={"done": True})
    assert status == 200 and changed["done"] is True and changed["title"] == "wash up"
    assert call(todo, "GET", "/summary")[1]["metrics"] == {"total": 1, "done": 1, "open": 0}
    assert call(todo, "PATCH", f"/tasks/{task['id']}", body={})[0] == 422
    assert call(todo, "DELETE", f"/tasks/{task['id']}")[0] == 204
    assert call(todo, "GET", "/tasks")[1]["items"] == []


def test_habit_streaks_are_grouped_by_habit():
    habits = app_for("track my daily reading habit")
    for day in ("2026-11-30", "2026-12-01"):
        call(habits, "POST", "/checkins", body={"habit": "read", "date": day})
    call(habits, "POST", "/checkins", body={"habit": "walk", "date": "2026-12-01"})
    groups = {g["key"]: g["metrics"] for g in call(habits, "GET", "/streaks")[1]["groups"]}
    assert groups["read"]["days_done"] == 2 and groups["walk"]["days_done"] == 1


def test_compute_reads_query_inputs_with_defaults():
    converter = app_for("convert kilometers to miles")
    assert call(converter, "GET", "/convert", query={"value": "42.195"})[1] == {"result": pytest.approx(26.218758)}
    status, body = call(converter, "GET", "/convert", query={"value": "1", "to_unit": "parsec"})
    assert status == 422 and "to_unit" in body["details"]


def test_list_limit_is_checked(runs):
    for day in ("2026-12-01", "2026-12-02", "2026-12-03"):
        call(runs, "POST", "/runs", body={"date": day, "distance": 1})
    assert len(call(runs, "GET", "/runs", query={"limit": "2"})[1]["items"]) == 2
    assert call(runs, "GET", "/runs", query={"limit": "two"})[0] == 422


def test_a_missing_body_is_refused_but_an_empty_object_takes_the_defaults():
    water = app_for("track my water")
    assert call(water, "POST", "/water", raw_body="\n")[0] == 400
    status, row = call(water, "POST", "/water", body={})
    assert status == 201 and row["ml"] == 250


def test_null_means_not_given_when_a_row_is_created():
    # given a todo list, whose priority defaults to normal and whose due date has no default
    todo = app_for("a todo list for chores")
    # when a caller (Dify does this for every optional input the model left out) sends null for them
    status, task = call(todo, "POST", "/tasks", body={"title": "wash up", "due": None, "priority": None, "done": None})
    # then each takes its default, or stays absent
    assert status == 201
    assert (task["priority"], task["done"], "due" in task) == ("normal", False, False)


def test_null_for_a_required_field_is_still_required():
    status, body = call(app_for("a todo list"), "POST", "/tasks", body={"title": None})
    assert status == 422 and body["details"] == {"title": "required"}


def test_an_update_changes_only_the_fields_it_names_and_null_leaves_a_field_as_it_is():
    todo = app_for("a todo list for chores")
    _, task = call(todo, "POST", "/tasks", body={"title": "wash up", "priority": "high", "done": True})
    status, changed = call(
        todo, "PATCH", f"/tasks/{task['id']}", body={"title": "wash the car", "priority": None, "done": None}
    )
    assert status == 200
    assert (changed["title"], changed["priority"], changed["done"]) == ("wash the car", "high", True)


def test_an_update_of_nothing_but_nulls_leaves_the_row_as_it_is():
    todo = app_for("a todo list for chores")
    _, task = call(todo, "POST", "/tasks", body={"title": "wash up", "priority": "low"})
    status, same = call(todo, "PATCH", f"/tasks/{task['id']}", body={"title": None, "done": None})
    assert status == 200 and same == task
    assert call(todo, "PATCH", "/tasks/r0000000000000000000z", body={"title": None})[0] == 404


# --- bad input is a 4xx in the error shape, never a 5xx (issue 15) -----------------------------------------------


def app_with_output(prompt: str, output: str) -> ToolApp:
    """The planned calculator for ``prompt`` with one more output, ``extra``."""
    program = OfflinePlanner().plan(prompt, classify(prompt), []).program.model_dump(mode="json")
    program["operations"][0]["outputs"]["extra"] = output
    program["labels"]["extra"] = "额外"
    from toolgen.program import ToolProgram

    return ToolApp(
        ToolProgram.model_validate(program), tool_id="t" + "0" * 20, owner="alice", table=FakeTable(), secret=SECRET
    )


def test_an_output_the_inputs_overflow_is_a_422_in_the_tools_language():
    # given a Chinese mortgage calculator with an output that overflows for large inputs
    mortgage = app_with_output("帮我算一下房贷每月还多少", "principal ** years")
    query = {"principal": "1000000000", "annual_rate": "3", "years": "50"}
    status, body = call(mortgage, "GET", "/calculate", query=query)
    assert status == 422
    assert body["code"] == "invalid_input" and body["details"] == {"extra": "out of range"}
    assert body["message"].startswith("额外无法")
    assert call(mortgage, "GET", "/calculate", query={**query, "principal": "2", "years": "3"})[0] == 200


def test_a_complex_output_is_a_422_not_a_502():
    tips = app_with_output("a tip calculator", "(bill - 500) ** 0.5")
    status, body = call(tips, "GET", "/tip", query={"bill": "100", "percent": "10", "people": "2"})
    assert status == 422 and body["details"] == {"extra": "out of range"}


def test_json_nested_thousands_deep_is_a_400(runs):
    status, body = call(runs, "POST", "/runs", raw_body="[" * 5000 + "]" * 5000)
    assert status == 400 and body["code"] == "bad_request"
    status, body = call(runs, "POST", "/runs", raw_body='{"distance": ' + "[" * 5000 + "]" * 5000 + "}")
    assert status == 400 and body["code"] == "bad_request"


@pytest.mark.parametrize("number", ["9" * 400, "-" + "9" * 5000, "9" * 60_000])
def test_an_integer_of_thousands_of_digits_is_out_of_range_not_a_5xx(runs, number):
    # past 4,300 digits Python will not even read it; below, math.isfinite could not take it
    status, body = call(runs, "POST", "/runs", raw_body='{"distance": ' + number + "}")
    assert status == 422 and body["details"] == {"distance": "out of range"}


def test_a_huge_integer_in_the_query_is_a_422(runs):
    status, body = call(runs, "GET", "/runs", query={"limit": "9" * 400})
    assert status == 422 and body["details"] == {"limit": "out of range"}


def test_a_repeated_query_parameter_is_refused(runs):
    from toolgen.events import url_event

    token = auth.mint("alice", SECRET)
    event = url_event("GET", "/runs", "limit=1&limit=2", [("Authorization", f"Bearer {token}")], b"",
                      source_ip="127.0.0.1", host="tool.test")  # fmt: skip
    event["queryStringParameters"] = {"limit": "1,2"}  # as a function URL gives repeats: joined with commas
    response = runs.handle(event)
    assert response["statusCode"] == 422
    assert json.loads(response["body"])["details"] == {"limit": "repeated parameter"}


@pytest.mark.parametrize("key", [SECRET, auth.public_key(SECRET)])
@pytest.mark.parametrize("where", ["signature", "payload", "prefix"])
def test_a_token_with_non_ascii_characters_is_a_401(key, where):
    # given a tool holding the platform's secret, or (as deployed tools do) only its public key
    app = app_for("I want to log my morning runs")
    app._secret = key
    prefix, payload, signature = auth.mint("alice", SECRET).split(".")
    parts = {"prefix": prefix, "payload": payload, "signature": signature}
    parts[where] = parts[where][:-2] + "é—"
    event = tool_event("GET", "/runs", token=".".join(parts.values()))
    response = app.handle(event)
    assert response["statusCode"] == 401 and json.loads(response["body"])["code"] == "unauthorized"


def test_a_watchlists_pick_is_a_film_not_yet_watched():
    app = app_for("a movie picker: films I want to watch, pick one at random for tonight")
    for title, watched in [("Alien", True), ("Heat", False), ("Ran", True)]:
        assert call(app, "POST", "/movies", body={"title": title, "watched": watched})[0] == 201
    picked = {call(app, "GET", "/pick")[1]["metrics"]["choice"] for _ in range(12)}
    assert picked == {"Heat"}  # never a film already watched
    assert call(app, "GET", "/pick")[1]["metrics"]["options"] == 1
