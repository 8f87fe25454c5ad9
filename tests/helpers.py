"""Small builders shared by tests."""

from __future__ import annotations

import json
from typing import Any
from urllib.parse import urlencode

from toolgen.events import url_event


def tool_event(
    method: str, path: str, *, token: str, query: dict[str, str] | None = None, body: Any = None
) -> dict[str, Any]:
    """The function URL event a tool receives for a call with a bearer token and an optional JSON body."""
    headers = [("Authorization", f"Bearer {token}"), ("Content-Type", "application/json")]
    data = b"" if body is None else json.dumps(body).encode()
    return url_event(method, path, urlencode(query or {}), headers, data, source_ip="127.0.0.1", host="tool.test")


def sqs_record(message_id: str, body: str) -> dict[str, Any]:
    """One record of the SQS event the worker function receives."""
    return {
        "messageId": message_id,
        "receiptHandle": "r",
        "body": body,
        "attributes": {},
        "messageAttributes": {},
        "md5OfBody": "",
        "eventSource": "aws:sqs",
        "eventSourceARN": "arn:aws:sqs:us-east-1:123456789012:toolgen-jobs",
        "awsRegion": "us-east-1",
    }


class WorkerContext:
    """The Lambda context the worker's handler is given."""

    function_name, memory_limit_in_mb, aws_request_id = "toolgen-worker", 1024, "req"
    invoked_function_arn = "arn:aws:lambda:us-east-1:123456789012:function:toolgen-worker"

    def __init__(self, remaining_ms: int = 120_000) -> None:
        self.remaining_ms = remaining_ms

    def get_remaining_time_in_millis(self) -> int:
        return self.remaining_ms


# One plain request per archetype, used wherever a test needs every kind of tool.
# Composed tools (the knowledge base's subjects, no named kind), one per subject, English and Chinese.
COMPOSED_PROMPTS = {
    "blood_pressure": "log my blood pressure readings morning and evening",
    "sleep": "我想记录每天的睡眠时间",
    "baby_feeding": "track my baby's feeding times and amounts",
    "weight": "track my weight every week",
    "plant_watering": "提醒我每周给花浇水",
    "birthdays": "remind me of my friends' birthdays and show how many days are left",
    "gift_ideas": "a list of gift ideas for each family member",
    "mortgage": "帮我算一下房贷每月还多少",
    "freelance_hours": "a tool that tracks my freelance hours per client and what I should bill",
    "blood_sugar": "我妈有糖尿病，想帮她记一下每天的血糖",
    "migraine": "migraine diary with how bad it was and the trigger",
    "workout": "gym log with exercise, sets, reps and weight",
    "pantry": "pantry inventory with expiry dates",
    "lent_items": "记一下借给别人的东西，借给谁了，还了没有",
    "packing_list": "a packing list for my trip",
    "filter_changes": "the furnace filter gets changed every 90 days",
    "compound_interest": "compound interest calculator",
    "job_applications": "job applications tracker: company, role, status",
    "movies_watched": "看过的电影记一下，打个分",
    "wine_cellar": "wine cellar catalogue with vintage and region",
    "swimming": "每次游泳记一下游了多少圈",
    "fuel_log": "记录每次加油的里程和油量",
    "air_quality": "家里孩子有哮喘，想每天看一下北京、天津、石家庄的空气质量指数，哪个最差",
    "rain_forecast": "Will I need an umbrella in Chicago this week? Show the chance of rain each day",
    # many widgets at once (more than the tool's 5 concurrent calls): the page must queue, not show "Rate Exceeded"
    "diapers": "宝宝刚出生，记录每次喂奶的时间、喝了多少毫升，还有换尿布，看看每周和每个月的统计，哪种喂法最多",
}

ARCHETYPE_PROMPTS = {
    "weather_ranking": "rank Beijing, Shanghai and Guangzhou by max temperature this week",
    "currency_converter": "convert 100 dollars to euros",
    "run_log": "I want to log my morning runs",
    "habit_tracker": "每天读书打卡",
    "caffeine_tracker": "track how much caffeine I drink",
    "focus_planner": "plan my week in focus blocks",
    "expense_splitter": "split the dinner bill with Alice and Bob",
    "budget_tracker": "my budget is 3000 a month, help me track spending",
    "unit_converter": "convert kilometers to miles",
    "tip_calculator": "tip calculator for 4 people",
    "bmi_calculator": "calculate my BMI",
    "countdown": "countdown to Christmas",
    "todo_list": "a todo list for chores",
    "reading_list": "我的书单",
    "flashcards": "flashcards for Spanish vocabulary",
    "water_tracker": "I want to drink 8 glasses of water a day",
    "mood_journal": "a mood journal",
    "restaurant_picker": "help me pick a restaurant",
}
