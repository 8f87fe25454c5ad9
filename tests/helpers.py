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


# One plain request per archetype, used wherever a test needs every kind of tool.
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
