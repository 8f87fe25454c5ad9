"""Chinese numerals (toolgen/intent/numerals.py), the code base's one reader of them, and the follow-ups that name a
value in them (issue 16 review: "每月预算改成三千" set the budget to 3, "目标改成十十" was a 500)."""

from __future__ import annotations

from functools import cache

import pytest

from toolgen.errors import RevisionNotPossibleError
from toolgen.intent import classify
from toolgen.intent.numerals import first_number, zh_number
from toolgen.planner import OfflinePlanner
from toolgen.planner.revise import read
from toolgen.program import ToolProgram

RUN_ZH, BUDGET, CAFFEINE = "我想记录每天晨跑", "记账", "记录每天喝了多少咖啡因"


@cache
def tool(request: str) -> ToolProgram:
    return OfflinePlanner().plan(request, classify(request), []).program


@pytest.mark.parametrize(("token", "value"), [
    ("五", 5), ("十", 10), ("十五", 15), ("二十", 20), ("一十五", 15), ("九十九", 99), ("零", 0),
    ("一百", 100), ("四百", 400), ("三百零五", 305), ("三百五", 350), ("三百五十", 350), ("一百一十", 110),
    ("三千", 3000), ("两千五", 2500), ("两千五百", 2500), ("两千零五", 2005), ("三千零五十", 3050),
    ("一万", 10_000), ("一万二", 12_000), ("一万两千五", 12_500), ("一万零五", 10_005), ("十万", 100_000),
    ("2千5", 2500), ("2千", 2000), ("3万", 30_000), ("2万5", 25_000), ("25", 25),
    ("三点五", 3.5), ("一点二五", 1.25), ("1.5万", 15_000), ("三点五万", 35_000), ("3.5", 3.5),
])  # fmt: skip
def test_a_well_formed_number_is_read_whole(token, value):
    assert zh_number(token) == value


@pytest.mark.parametrize("token", [
    "十十", "百", "千", "万", "三五", "百千", "十百", "二零二四", "零五", "三百零", "一万万", "2千50", "点五", "三点",
    "三点十", "五十十", "一千一千",
])  # fmt: skip
def test_a_malformed_number_is_none_never_an_exception(token):
    assert zh_number(token) is None


def test_a_run_of_digits_longer_than_any_value_is_none_not_an_overflow():
    assert zh_number("9" * 15) == 999_999_999_999_999
    assert zh_number("1" * 16) is None and first_number("目标改成" + "1" * 1990) is None


def test_the_first_number_of_a_text_prefers_one_written_in_digits_and_skips_times():
    assert first_number("每周目标改成一百公里") == 100
    assert first_number("每周3次，目标二十") == 3
    assert first_number("预算改成2,500") == 2500
    assert first_number("12:00 截止，上限改成四百") == 400
    assert first_number("没有数字") is None


@pytest.mark.parametrize(("prompt", "request_", "op", "value"), [
    ("每月预算改成三千", BUDGET, "set_constant", 3000),
    ("每月预算改成两千五", BUDGET, "set_constant", 2500),
    ("每月预算改成一万二", BUDGET, "set_constant", 12000),
    ("每月预算改成2千5", BUDGET, "set_constant", 2500),
    ("每周目标改成一百公里", RUN_ZH, "set_goal", 100),
    ("每周目标改成三点五公里", RUN_ZH, "set_goal", 3.5),
    ("每天上限改成四百毫克", CAFFEINE, "set_constant", 400),
    ("每天上限改成四千毫克", CAFFEINE, "set_constant", 4000),  # a number before its unit, not a unit asked for
])  # fmt: skip
def test_a_value_in_chinese_numerals_is_read_whole(prompt, request_, op, value):
    (change,) = read(prompt, tool(request_))
    assert (change.op, change.value) == (op, value)


@pytest.mark.parametrize(("prompt", "request_"), [
    ("目标改成十十", RUN_ZH), ("每月预算改成百千", BUDGET), ("每天上限改成三五毫克", CAFFEINE),
])  # fmt: skip
def test_a_malformed_number_is_the_readers_no_value_422(prompt, request_):
    with pytest.raises(RevisionNotPossibleError) as caught:
        read(prompt, tool(request_))
    assert caught.value.details["reason"] == "no_value" and caught.value.message.startswith("请说出")
