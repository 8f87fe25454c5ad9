import pytest

from toolgen.errors import StageError
from toolgen.intent import classify
from toolgen.models import Intent, RecalledMemory
from toolgen.planner import OfflinePlanner
from toolgen.program import ToolProgram

PROMPTS = {
    "run_log": "I want to log my morning runs",
    "weather_ranking": "rank Beijing, Shanghai and Guangzhou by max temperature",
    "unit_converter": "convert kilometers to miles",
    "habit_tracker": "每天读书打卡",
    "todo_list": "a todo list for chores",
}


def plan(prompt: str, memories: list[RecalledMemory] | None = None) -> ToolProgram:
    return OfflinePlanner().plan(prompt, classify(prompt), memories or []).program


def fact(memory_id: str, key: str, value: str) -> RecalledMemory:
    return RecalledMemory(memory_id=memory_id, text=f"{key} {value}", key=key, value=value, score=1.0)


@pytest.mark.parametrize(("archetype", "prompt"), PROMPTS.items())
def test_every_archetype_plans_a_valid_program(archetype, prompt):
    program = plan(prompt)
    assert program.archetype == archetype
    assert program.provenance.request == prompt
    assert program.limits.timeout_s == 10 and program.limits.concurrency == 5
    ToolProgram.model_validate_json(program.model_dump_json())  # round-trips as data


def test_chinese_request_gets_chinese_labels():
    program = plan("我想记录每天晨跑")
    assert program.ui.lang == "zh"
    assert program.title == "跑步记录"
    assert program.entities["run"].fields["distance"].label == "距离（公里）"


def test_morning_run_memory_sets_the_default_start_and_is_recorded():
    program = plan("track my runs", [fact("m1", "run_time", "06:15")])
    assert program.entities["run"].fields["start"].default == "06:15"
    assert program.provenance.memories == ["m1"]


def test_start_time_in_the_request_wins_over_memory():
    program = plan("log my runs at 7 am", [fact("m1", "run_time", "06:15")])
    assert program.entities["run"].fields["start"].default == "07:00"
    assert program.provenance.memories == []  # the memory did not shape this tool


def test_home_city_joins_the_weather_ranking():
    program = plan("rank Beijing and Shanghai by max temperature", [fact("m1", "city", "Tokyo")])
    op = program.operations[0]
    assert op.labels == ["Beijing", "Shanghai", "Tokyo"]
    assert op.query["latitude"].count(",") == 2
    assert program.allowed_hosts == ["api.open-meteo.com"]


def test_dark_mode_preference_gives_a_dark_page():
    assert plan("a todo list", [fact("m9", "theme", "dark")]).ui.mode == "dark"
    assert plan("a todo list").ui.mode == "auto"


def test_two_people_with_different_memories_get_different_tools():
    prompt = "rank the hottest cities this week"
    a = plan(prompt, [fact("ma", "city", "Tokyo")])
    b = plan(prompt, [fact("mb", "city", "London")])
    assert a.operations[0].labels != b.operations[0].labels


def test_unit_converter_uses_the_units_asked_for():
    op = plan("convert pounds to kilograms").operations[0]
    assert op.inputs["from_unit"].default == "lb"
    assert op.inputs["to_unit"].default == "kg"


def test_unknown_archetype_cannot_be_planned():
    with pytest.raises(StageError):
        OfflinePlanner().plan("x", Intent(archetype="time_machine", confidence=1.0), [])
