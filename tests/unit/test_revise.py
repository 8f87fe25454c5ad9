"""Revising a tool by a follow-up (issue 16): reading the sentence as changes, in English and Chinese, applying them
to make the next program, and saying what each did."""

from __future__ import annotations

from functools import cache

import pytest

from toolgen.api.errors import status_of
from toolgen.changes import Change
from toolgen.errors import RevisionNotPossibleError, UnclearRevisionError
from toolgen.intent import classify
from toolgen.models import RecalledMemory
from toolgen.planner import OfflinePlanner
from toolgen.planner.revise import apply, describe, read
from toolgen.planner.revision_apply import renamed
from toolgen.program import ToolProgram

RUN, RUN_ZH = "I want to log my morning runs", "我想记录每天晨跑"


@cache
def tool(request: str) -> ToolProgram:
    return OfflinePlanner().plan(request, classify(request), []).program


def one(prompt: str, request: str) -> Change:
    changes = read(prompt, tool(request))
    assert len(changes) == 1, changes
    return changes[0]


def refused(prompt: str, request: str) -> RevisionNotPossibleError:
    with pytest.raises(RevisionNotPossibleError) as caught:
        read(prompt, tool(request))
    return caught.value


# --- reading: one kind of sentence at a time, in both languages


@pytest.mark.parametrize(("prompt", "request_", "label"), [
    ("also track my heart rate", RUN, "Pulse (bpm)"),
    ("还要记录心率", RUN_ZH, "心率（bpm）"),
])  # fmt: skip
def test_a_known_field_is_added_with_the_knowledge_bases_units_and_range_in_the_tools_language(prompt, request_, label):
    change = one(prompt, request_)
    assert (change.op, change.field) == ("add_field", "pulse")
    assert change.spec == {"type": "integer", "label": label, "minimum": 20, "maximum": 250}


def test_an_unknown_field_is_guessed_from_the_words_and_labelled_as_said():
    shoes = one("add a field for shoes", RUN)
    assert (shoes.field, shoes.spec and shoes.spec["type"], shoes.label) == ("shoes", "string", "Shoes")
    zh = one("加一个鞋子的字段", RUN_ZH)
    assert zh.op == "add_field" and zh.label == "鞋子" and zh.field and zh.field.isascii()


def test_a_field_the_tool_already_records_is_not_added_twice():
    error = refused("also track my heart rate", "track my blood pressure")
    assert error.code == "revision_not_possible" and "Pulse (bpm)" in error.message


def test_a_field_named_like_one_of_the_tools_figures_is_refused_not_shadowing_it():
    assert refused("add a field for next due", "houseplant watering schedule").details["reason"] == "taken"
    program = tool("houseplant watering schedule")
    spec = {"type": "date", "label": "Next due"}
    with pytest.raises(RevisionNotPossibleError):
        apply(program, [Change(op="add_field", field="next_due", spec=spec)], 2)


@pytest.mark.parametrize(("prompt", "request_", "field"), [
    ("stop tracking the note", RUN, "note"),
    ("I don't need the start time anymore", RUN, "start"),
    ("不要备注了", RUN_ZH, "note"),
    ("去掉时长", RUN_ZH, "minutes"),  # the knowledge base's word: the tool labels it 用时
])  # fmt: skip
def test_a_field_is_removed_by_its_name_label_or_knowledge_base_words(prompt, request_, field):
    assert one(prompt, request_).model_dump(include={"op", "field"}) == {"op": "remove_field", "field": field}


def test_removing_an_unknown_field_says_so_in_the_prompts_language_naming_the_tools_fields():
    zh = refused("去掉颜色", RUN_ZH)
    assert "颜色" in zh.message and "距离（公里）" in zh.message and zh.details["reason"] == "no_field"
    en = refused("remove the colour", RUN_ZH)  # an English follow-up to a Chinese tool is answered in English
    assert en.message.startswith("This tool has no field") and "距离（公里）" in en.message


@pytest.mark.parametrize(("prompt", "request_", "field", "to", "label"), [
    ("rename minutes to duration", RUN, "minutes", "duration", "Duration"),
    ("call the note 'comment'", RUN, "note", "comment", "Comment"),
    ("把备注改名为心得", RUN_ZH, "note", None, "心得"),
    ("用时改叫时长", RUN_ZH, "minutes", "duration", "时长（分钟）"),
])  # fmt: skip
def test_a_field_is_renamed_with_its_new_label(prompt, request_, field, to, label):
    change = one(prompt, request_)
    assert (change.op, change.field, change.label) == ("rename_field", field, label)
    assert to is None or change.to == to


def test_a_rename_to_a_name_the_tool_has_is_refused():
    assert refused("rename the title to author", "a reading list").details["reason"] == "taken"
    assert refused("把书名改名为作者", "读书清单").details["reason"] == "taken"


@pytest.mark.parametrize(("prompt", "request_", "value"), [
    ("default start time 7am", RUN, "07:00"),
    ("make 06:30 the default start", RUN, "06:30"),
    ("start at 6:15 by default", RUN, "06:15"),
    ("默认开始时间改成早上7点", RUN_ZH, "07:00"),
    ("默认早上六点半开始", RUN_ZH, "06:30"),
])  # fmt: skip
def test_a_default_is_read_as_the_fields_type(prompt, request_, value):
    assert one(prompt, request_).model_dump(include={"op", "field", "value"}) == {
        "op": "set_default", "field": "start", "value": value}  # fmt: skip


def test_a_default_outside_the_fields_range_is_refused():
    assert refused("default distance 5000", RUN).details["reason"] == "bad_value"


@pytest.mark.parametrize(("prompt", "request_", "value"), [
    ("set my weekly goal to 30 km", RUN, 30), ("每周目标改成30公里", RUN_ZH, 30),
    ("今年的目标改成20本", "读书清单", 20),
    # a limit's number is its goal: said by its own words
    ("set my daily limit to 90 minutes", "track my screen time", 90),
    ("上限改成90分钟", "记录我每天的屏幕使用时间", 90),
])  # fmt: skip
def test_a_goal_is_set_on_the_figures_that_have_one(prompt, request_, value):
    assert one(prompt, request_).model_dump(include={"op", "value"}) == {"op": "set_goal", "value": value}


def test_a_tool_without_a_goal_says_so():
    assert refused("set my goal to 5", "a todo list for chores").details["reason"] == "no_goal"


@pytest.mark.parametrize(("prompt", "request_", "name", "value"), [
    ("caffeine cut-off 12:00", "track my caffeine intake", "cutoff", "12:00"),
    ("daily limit 300 mg", "track my caffeine intake", "limit", 300),
    ("咖啡因截止时间改成中午12点", "记录每天喝了多少咖啡因", "cutoff", "12:00"),
    ("每月预算改成2500", "记账", "budget", 2500),
])  # fmt: skip
def test_a_named_constant_is_set_as_the_kind_of_value_it_holds(prompt, request_, name, value):
    assert one(prompt, request_).model_dump(include={"op", "field", "value"}) == {
        "op": "set_constant", "field": name, "value": value}  # fmt: skip


@pytest.mark.parametrize(("prompt", "request_", "label"), [
    ("use miles instead of km", RUN, "Distance (mi)"), ("show distance in miles", RUN, "Distance (mi)"),
    ("距离改成英里", RUN_ZH, "距离（英里）"),
])  # fmt: skip
def test_a_unit_is_changed_by_its_factor_with_a_new_label(prompt, request_, label):
    change = one(prompt, request_)
    assert change.model_dump(include={"op", "field", "value", "factor", "label"}) == {
        "op": "set_unit", "field": "distance", "value": "mi", "factor": 0.621371, "label": label}  # fmt: skip


def test_the_unit_asked_for_is_the_one_said_as_the_new_one():
    change = one("I want kilograms shown as pounds", "track my weight")
    assert change.model_dump(include={"op", "value"}) == {"op": "set_unit", "value": "lb"}


def test_water_in_ounces_is_fluid_ounces_and_weight_in_pounds_is_pounds():
    assert one("show ounces instead of ml", "track how much water I drink").factor == 0.033814
    assert one("体重改成磅", "记录体重").model_dump(include={"field", "factor"}) == {
        "field": "weight_kg", "factor": 2.204623}  # fmt: skip


def test_a_temperature_or_a_unit_of_another_dimension_is_refused_clearly():
    offset = refused("show temperature in fahrenheit", "track my body temperature")
    assert offset.details["reason"] == "offset" and "offset" in offset.message
    assert "偏移" in refused("体温改成华氏度", "记录体温").message
    assert refused("show distance in kilograms", RUN).details["reason"] == "other_dimension"


@pytest.mark.parametrize(("prompt", "request_", "mode"), [
    ("make it dark", RUN, "dark"), ("use a dark theme", RUN, "dark"), ("深色模式", RUN_ZH, "dark"),
    ("换成浅色", RUN_ZH, "light"), ("make it light", RUN, "light"),
])  # fmt: skip
def test_the_theme_is_read(prompt, request_, mode):
    assert one(prompt, request_).model_dump(include={"op", "value"}) == {"op": "set_theme", "value": mode}


def test_figures_per_period_and_per_group_are_added_as_a_new_requests_would_be():
    # this month's figures, and the same figures month by month (what "monthly" asks, as a new request gets them)
    month, by_month = read("show monthly totals", tool(RUN))
    assert month.op == "add_figure" and month.operation and month.operation["period"] == "month"
    assert by_month.operation and by_month.operation["series"] == "month"
    assert by_month.operation["metrics"] == month.operation["metrics"]
    zh, _ = read("我想看每月的统计", tool(RUN_ZH))
    assert zh.operation and zh.operation["summary"] == "本月的统计" and zh.labels and zh.labels["entries"] == "条数"
    mood = one("which mood is most common", "mood journal")
    assert mood.operation and mood.operation["group_by"] == "mood"
    assert refused("show monthly totals", "a reading list").details["reason"] == "no_figures"  # no dated rows


def test_an_edit_is_added_only_to_a_tool_without_one():
    for prompt, request_ in (
        ("let me edit entries", RUN),
        ("可以修改记录", RUN_ZH),
        ("能不能改一下以前的记录", RUN_ZH),
    ):
        change = one(prompt, request_)
        assert change.operation == {"id": "updateRun", "kind": "update", "path": "/runs/{id}", "entity": "run",
                                    "summary": change.operation["summary"]}  # fmt: skip
    assert refused("let me edit entries", "track my blood pressure").details["reason"] == "can_edit"


@pytest.mark.parametrize(("prompt", "request_"), [
    ("add heart rate and remove the note", RUN), ("加上心率，去掉备注", RUN_ZH),
])  # fmt: skip
def test_a_sentence_may_ask_for_several_changes(prompt, request_):
    assert [(c.op, c.field) for c in read(prompt, tool(request_))] == [("add_field", "pulse"), ("remove_field", "note")]


def test_later_items_of_a_list_share_its_verb_and_the_last_field_stays():
    error = refused("remove the title, due date, priority and done", "a todo list for chores")
    assert error.details["reason"] == "last_field"


@pytest.mark.parametrize(("prompt", "words"), [
    ("make it purple and sparkly", "Distance (km)"), ("弄得好看一点", "距离（公里）"),
])  # fmt: skip
def test_nothing_readable_is_an_unclear_revision_naming_what_can_change(prompt, words):
    request_ = RUN_ZH if words.startswith("距") else RUN
    with pytest.raises(UnclearRevisionError) as caught:
        read(prompt, tool(request_))
    assert caught.value.code == "unclear_revision" and words in caught.value.message
    assert caught.value.message.startswith("没看懂") == prompt.startswith("弄")


def test_revision_errors_are_422s():
    assert status_of(UnclearRevisionError("x")) == 422
    assert status_of(RevisionNotPossibleError("x")) == 422


# --- describing


def test_each_change_is_described_in_one_line_in_the_tools_language():
    en = tool(RUN)
    changes = read("add heart rate and remove the note", en) + read("make 06:30 the default start", en)
    assert describe(changes, en, "en") == ["Added Pulse (bpm)", "Removed Note", "Default start time: 06:30"]
    zh = tool(RUN_ZH)
    changes = read("加上心率，去掉备注", zh) + read("默认开始时间改成早上6点半", zh)
    assert describe(changes, zh, "zh") == ["新增 心率（bpm）", "去掉 备注", "默认开始时间：06:30"]


# --- applying


def test_renaming_rewrites_names_in_expressions_not_text():
    assert renamed("count_where(status, 'status')", "status", "state") == "count_where(state, 'status')"
    assert renamed("max(max) + maxed", "max", "top") == "max(top) + maxed"
    assert renamed("count_where(status, '已读') + status", "status", "s") == "count_where(s, '已读') + s"


def test_removing_a_field_takes_it_out_of_every_operation_and_drops_the_figures_that_needed_it():
    before = tool(RUN)
    after = apply(before, read("remove the distance", before), 2)
    assert "distance" not in after.entities["run"].fields and after.revision == 2
    ids = [op.id for op in after.operations]
    assert "weekDistance" not in ids  # its goal is a goal of distance: nothing is left to show
    stats = after.operation("runStats")
    assert set(stats.metrics) == {"runs", "streak_days"}
    assert "total_distance" not in after.labels and "runs" in after.labels
    assert after.migrations == []  # the rows keep their distance: a restore shows it again


def test_removing_the_field_a_list_sorts_or_groups_by_keeps_a_valid_tool():
    books = tool("a reading list")
    after = apply(books, [Change(op="remove_field", field="status")], 2)
    listed = after.operation("listBooks")
    assert listed.sort == "-created_at" and listed.filters == []
    assert {op.id for op in after.operations} == {"addBook", "listBooks", "updateBook", "deleteBook"}
    budget = apply(tool("记账"), read("去掉类别", tool("记账")), 2)
    assert "byCategory" not in {op.id for op in budget.operations}
    assert budget.operation("listExpenses").filters == []


def test_the_last_field_is_never_removed():
    program = tool(RUN)
    names = list(program.entities["run"].fields)
    with pytest.raises(RevisionNotPossibleError):
        apply(program, [Change(op="remove_field", field=name) for name in names], 2)


def test_renaming_renames_every_use_and_adds_one_migration_for_the_revision():
    books = tool("a reading list")
    after = apply(books, [Change(op="rename_field", field="status", to="state", label="State")], 3)
    listed, stats, goal = after.operation("listBooks"), after.operation("readingStats"), after.operation("yearGoal")
    assert (listed.sort, listed.filters, stats.group_by) == ("state", ["state"], "state")
    assert goal.metrics["read"] == "count_where(state, 'done')"
    assert after.entities["book"].fields["state"].label == "State"
    assert list(after.entities["book"].fields) == ["title", "author", "state", "rating", "finished"]  # order kept
    assert [m.model_dump() for m in after.migrations] == [
        {"revision": 3, "entity": "book", "rename": {"status": "state"}, "scale": {}}]  # fmt: skip


def test_a_unit_change_scales_the_range_goal_and_figure_labels_and_migrates_the_rows():
    runs = tool(RUN)
    after = apply(runs, read("use miles instead of km", runs), 2)
    distance = after.entities["run"].fields["distance"]
    assert (distance.label, distance.maximum) == ("Distance (mi)", 621.371)
    assert after.operation("weekDistance").constants["goal"] == 12.43
    assert after.labels["pace_min_per_km"] == "Pace (min/mi)"
    assert after.defaults["distance_unit"] == "mi"
    assert [m.model_dump() for m in after.migrations] == [
        {"revision": 2, "entity": "run", "rename": {}, "scale": {"distance": 0.621371}}]  # fmt: skip


def test_a_whole_number_field_in_a_unit_of_fractions_becomes_a_number():
    water = tool("track how much water I drink")
    after = apply(water, read("show ounces instead of ml", water), 2)
    ml = after.entities["intake"].fields["ml"]
    assert (ml.type, ml.default, ml.label) == ("number", 8.4535, "Amount (oz)")
    assert after.operation("today").constants["goal"] == 67.63 and after.defaults["goal_ml"] == 67.628


def test_a_rename_then_a_unit_of_the_same_field_is_one_migration_scaled_by_the_new_name():
    runs = tool(RUN)
    changes = [Change(op="rename_field", field="distance", to="length", label="Length (km)"),
               Change(op="set_unit", field="distance", value="mi", factor=0.621371, label="Length (mi)")]  # fmt: skip
    after = apply(runs, changes, 2)
    assert [m.model_dump() for m in after.migrations] == [
        {"revision": 2, "entity": "run", "rename": {"distance": "length"}, "scale": {"length": 0.621371}}]  # fmt: skip
    assert after.operation("runStats").metrics["pace_min_per_km"] == "round(sum(minutes) / sum(length), 2)"


def test_defaults_constants_goal_and_theme_are_written_where_the_tool_keeps_them():
    runs = tool(RUN)
    after = apply(runs, read("start at 7am by default", runs) + read("make it dark", runs), 2)
    assert after.entities["run"].fields["start"].default == "07:00" and after.defaults["start"] == "07:00"
    assert after.ui.mode == "dark"
    caffeine = tool("track my caffeine intake")
    limited = apply(caffeine, read("daily limit 300 mg", caffeine) + read("caffeine cut-off 12:00", caffeine), 2)
    assert limited.operation("today").constants == {"limit": 300, "cutoff": "12:00"}
    assert limited.defaults == {"limit_mg": 300, "cutoff": "12:00"}
    books = tool("a reading list")
    assert apply(books, read("set my yearly goal to 20 books", books), 2).defaults["yearly_goal"] == 20


def test_added_figures_bring_their_labels_and_an_edit_its_route():
    runs = tool(RUN_ZH)
    after = apply(runs, read("我想看每月的统计", runs) + read("可以修改记录", runs), 2)
    assert after.operation("thisMonth").period == "month" and after.labels["entries"] == "条数"
    assert after.operation("updateRun").path == "/runs/{id}"


def test_the_memories_that_shaped_the_tool_are_kept():
    memory = RecalledMemory(memory_id="m1", text="run_time 06:15", key="run_time", value="06:15", score=1.0)
    program = OfflinePlanner().plan("track my runs", classify("track my runs"), [memory]).program
    after = apply(program, read("remove the note", program), 2)
    assert after.provenance == program.provenance and after.provenance.memories == ["m1"]


# --- every kind of tool: removing or renaming each field in turn gives a valid program


def _programs() -> list[ToolProgram]:
    from toolgen.knowledge.base import library
    from toolgen.models import Intent
    from toolgen.planner.offline import BUILDERS

    planner, programs = OfflinePlanner(), []
    for subject in library().subjects.values():
        intent = Intent(archetype=subject.id, confidence=0.9, shape=subject.shape, subject=subject.id)
        programs.append(planner.plan(f"a tool for {subject.id}", intent, []).program)
    for name in BUILDERS:
        for lang in ("en", "zh"):
            programs.append(planner.plan(f"a {name}", Intent(archetype=name, confidence=0.9, lang=lang), []).program)
    return programs


def test_removing_or_renaming_any_field_of_any_kind_of_tool_gives_a_valid_program():
    removed = 0
    for program in _programs():
        for entity, body in program.entities.items():
            renames = [Change(op="rename_field", entity=entity, field=name, to=f"renamed_{k}", label=f"R{k}")
                       for k, name in enumerate(body.fields)]  # fmt: skip
            after = apply(program, renames, program.revision + 1)  # every field at once: a ValueError is a bug
            assert after.migrations[-1].rename == {c.field: c.to for c in renames}
            for name in list(body.fields) if len(body.fields) > 1 else []:
                after = apply(program, [Change(op="remove_field", entity=entity, field=name)], program.revision + 1)
                assert name not in after.entities[entity].fields
                removed += 1
    assert removed > 1500


def test_any_follow_up_to_any_named_kind_is_read_as_changes_that_apply_or_refused_as_a_422():
    import json

    from toolgen.errors import ToolgenError
    from toolgen.paths import ROOT

    rows = [json.loads(line) for line in (ROOT / "tests" / "data" / "revisions.jsonl").read_text().splitlines()]
    prompts = [row["prompt"] for row in rows if row["part"] == "tuned"]
    prompts += ["rename note to id", "call the note 'return'", "remove everything", "show it in ml", "default to 5"]
    read_some, refusals = 0, []
    for program in _programs()[-36:]:  # the named kinds, in both languages
        figures = {n for op in program.operations for n in (getattr(op, "computed", None) or {})}
        figures |= {n for op in program.operations for n in (getattr(op, "constants", None) or {})}
        own = [f"add a field for {name.replace('_', ' ')}" for name in sorted(figures)]  # would shadow a figure
        for prompt in prompts + own:
            try:
                changes = read(prompt, program)  # applied as a dry run inside: a ValueError here is a bug
            except ToolgenError as e:
                refusals.append(status_of(e))
                continue
            assert changes and describe(changes, program, program.ui.lang)
            read_some += 1
    assert read_some > 500 and set(refusals) == {422}


@pytest.mark.parametrize(
    "said",
    ["set my goal to -1", "make the goal 1e308 ml", "goal −5 glasses", "目标改成-1", "目标改成1e308"],
)
def test_a_goal_it_cannot_mean_is_refused_not_read_as_another(said):
    # -1 and 1e308 were read as 1 and kept, without asking (issue 35)
    program = tool("log my water intake, goal 2000 ml a day")
    with pytest.raises(RevisionNotPossibleError):
        read(said, program)


@pytest.mark.parametrize("said", ["use light years", "make it pink os.system('id')", "white noise at night?"])
def test_a_word_that_names_no_look_or_figures_changes_nothing(said):
    # "light years" added yearly figures; "...os.system('id')" changed the page's theme (issue 35)
    with pytest.raises(UnclearRevisionError):
        read(said, tool("log my water intake, goal 2000 ml a day"))


@pytest.mark.parametrize(
    ("said", "op"),
    [
        ("make it dark", "set_theme"),
        ("switch to light mode please", "set_theme"),
        ("use the system theme", "set_theme"),
        ("换成深色模式", "set_theme"),
        ("show yearly totals", "add_figure"),
        ("add figures per month", "add_figure"),
        ("每年的合计", "add_figure"),
    ],
)
def test_looks_and_figures_asked_for_as_such_are_still_read(said, op):
    assert op in {c.op for c in read(said, tool("log my water intake, goal 2000 ml a day"))}
