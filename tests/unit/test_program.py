import copy

import pytest
from pydantic import ValidationError

from toolgen.intent import classify
from toolgen.planner import OfflinePlanner
from toolgen.program import ToolProgram

BASE = (
    OfflinePlanner()
    .plan("I want to log my runs", classify("I want to log my runs"), [])
    .program.model_dump(mode="json")
)


def variant(change) -> dict:
    data = copy.deepcopy(BASE)
    change(data)
    return data


def set_metric(expr: str):
    def change(d):
        d["operations"][2]["metrics"]["x"] = expr

    return change


@pytest.mark.parametrize(
    "expr",
    [
        "__import__('os').system('id')",
        "km.__class__",
        "(lambda: 1)()",
        "[x for x in date]",
        "open('/etc/passwd')",
        "sum(unknown_field)",
        "exec('1')",
        "sum(distance, start=1)",
        "'" + "x" * 80 + "'",
    ],
)
def test_unsafe_or_unknown_expressions_are_refused(expr):
    with pytest.raises(ValidationError):
        ToolProgram.model_validate(variant(set_metric(expr)))


def test_operation_on_unknown_entity_is_refused():
    with pytest.raises(ValidationError, match="unknown entity"):
        ToolProgram.model_validate(variant(lambda d: d["operations"][0].update(entity="ghost")))


def test_duplicate_operation_ids_are_refused():
    with pytest.raises(ValidationError, match="used twice"):
        ToolProgram.model_validate(variant(lambda d: d["operations"][1].update(id="addRun")))


def test_fetch_must_be_https_to_an_allowed_host():
    weather = OfflinePlanner().plan("rank Beijing by temperature", classify("rank Beijing by temperature"), []).program
    data = weather.model_dump(mode="json")
    data["operations"][0]["url"] = "http://api.open-meteo.com/v1/forecast"
    with pytest.raises(ValidationError, match="https"):
        ToolProgram.model_validate(data)
    data["operations"][0]["url"] = "https://169.254.169.254/latest"
    with pytest.raises(ValidationError, match="allowed_hosts"):
        ToolProgram.model_validate(data)


def test_limits_cannot_exceed_the_platform_ceiling():
    with pytest.raises(ValidationError):
        ToolProgram.model_validate(variant(lambda d: d.update(limits={"timeout_s": 60, "concurrency": 5})))


def test_reserved_field_names_are_refused():
    with pytest.raises(ValidationError, match="reserved"):
        ToolProgram.model_validate(variant(lambda d: d["entities"]["run"]["fields"].update(id={"type": "string"})))


def test_shorthand_field_types_are_accepted():
    data = variant(lambda d: d["entities"]["run"]["fields"].update(mood="string"))
    assert ToolProgram.model_validate(data).entities["run"].fields["mood"].type == "string"


@pytest.mark.parametrize(
    "expr",
    [
        "round(sum(distance), -10 ** 9)",  # 10 ** (10 ** 9): minutes of CPU
        "round(sum(distance), count())",  # digits only known at run time
        "'%999999999d' % count()",  # a gigabyte of spaces
        "'%.999999999f' % 1.0",
        "notes % count()",  # a person's own text used as the format
    ],
)
def test_expressions_whose_cost_only_their_values_could_bound_are_refused(expr):
    def change(d):
        d["entities"]["run"]["fields"]["notes"] = {"type": "text"}
        d["operations"][2]["metrics"]["x"] = expr

    with pytest.raises(ValidationError, match=r"round|format"):
        ToolProgram.model_validate(variant(change))


def test_a_compute_output_may_not_format_a_text_input():
    # given a calculator with a text input
    data = OfflinePlanner().plan("a tip calculator", classify("a tip calculator"), []).program.model_dump(mode="json")
    op = data["operations"][0]
    op["inputs"]["note"] = {"type": "string"}
    op["outputs"]["said"] = "note % bill"
    with pytest.raises(ValidationError, match="format"):
        ToolProgram.model_validate(data)
    op["outputs"]["said"] = "bill % 7"  # a remainder of numbers is fine
    ToolProgram.model_validate(data)


def test_an_aggregate_may_walk_its_rows_a_bounded_number_of_times():
    # given metrics that each walk every row (10,000 at most): each distinct call is computed once
    def metrics(exprs):
        def change(d):
            d["entities"]["run"]["fields"].update({f"f{i}": {"type": "string"} for i in range(12)})
            d["operations"][2]["metrics"] = {f"m{i}": e for i, e in enumerate(exprs)}

        return change

    settles = [f"count(settle(f{i}, distance))" for i in range(12)]  # settle pairs every payer: ~20 ms each
    with pytest.raises(ValidationError, match="walk the rows 132 times"):
        ToolProgram.model_validate(variant(metrics(settles)))
    ToolProgram.model_validate(variant(metrics(settles[:9])))
    ToolProgram.model_validate(variant(metrics([settles[0]] * 20)))  # the same call twenty times is one walk
