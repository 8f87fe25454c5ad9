"""Requests typed fast are read in standard spelling before any cue is matched."""

from __future__ import annotations

import pytest

from toolgen.intent import classify
from toolgen.intent.spelling import standard


@pytest.mark.parametrize(
    ("typed", "meant"),
    [
        ("whats the weather like", "what's the weather like"),
        ("how im feeling today, dont ask", "how i'm feeling today, don't ask"),
        ("log my runs w/ my dog, pls", "log my runs with my dog, please"),
        ("pollen count tommorow", "pollen count tomorrow"),
        ("Whats UR bday", "what's your birthday"),
        ("swim pace calc: 1500m in 32 min", "swim pace calculator: 1500m in 32 min"),
        ("loan calcs: three offers side by side", "loan calculators: three offers side by side"),
    ],
)
def test_typed_forms_are_read_in_standard_spelling(typed: str, meant: str) -> None:
    assert standard(typed) == meant


@pytest.mark.parametrize(
    "text",
    [
        "its collar and its lead",
        "I was ill last week",
        "it lets me pick",
        "flights to the U.S.",
        "我想记录每天晨跑 im",
        "weather in St. Louis, MO",  # a state, not a month
        "track wether I took my pills",  # whether, not weather
        "do my calc homework for me",  # calculus
        "calc 2 exam schedule",
        "AP calc study log",
        "pre-calc practice log",
        "track my calc grades",
    ],
)
def test_words_that_stand_as_they_are_are_left_alone(text: str) -> None:
    assert standard(text) == text.replace(" im", " i'm")


def test_a_request_without_apostrophes_gets_the_tool_the_standard_one_gets() -> None:
    # given the same request typed with and without its apostrophes
    typed, standard_form = "a daily check-in on how im feeling, 1 to 5", "a daily check-in on how i'm feeling, 1 to 5"
    # then both are the same kind of tool
    assert classify(typed).archetype == classify(standard_form).archetype == "mood_journal"


def test_a_calc_is_the_calculator_it_abbreviates() -> None:
    # "10k pace" alone is a run log: the calculator it abbreviates names the tool
    assert classify("10k pace calc pls, aiming for 52 minutes").archetype == "race_pace"
