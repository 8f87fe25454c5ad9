"""A capable model's answers, recorded: the prompts the platform sends for a blind set, and its reply to an answer.

No model endpoint is reachable where toolgen is built, so the model path is measured with answers written by a
capable model standing in for the planner (issue 31): for each request of a blind set it reads only the prompt the
platform sends (``prompt``: the static part once, then the request's own part and the request), answers with one
JSON object, and is told what the platform would say back (``check``: accepted, declined, or the correction the
planner sends when the answer cannot be used, after which it may answer once more). What it answered is kept as
a fixture (tests/data/model/<part>.jsonl) and replayed through the real pipeline (toolgen/planner/model_eval.py).

The prompt is the one a fresh person's request gets from the worker: the rules' reading and the composer's draft,
no memories, no time zone, today's date. A request the rules refuse gets a prompt too, so that the fixtures hold an
answer for every request whatever the rules refuse later; the platform itself never sends it.

    python -m toolgen.planner.standin prompt --part model1 --out DIR
    python -m toolgen.planner.standin check --part model1 --id m001 ANSWER.json
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from pydantic import ValidationError

from toolgen.intent import classify
from toolgen.intent.classify import classify_as
from toolgen.llm import Prompt
from toolgen.models import Intent
from toolgen.planner import OfflinePlanner
from toolgen.planner.breadth import load
from toolgen.planner.llm import LLMPlanner, answer_schema, constrain, correction, describe_problem, read_answer
from toolgen.planner.trial import TrialError, trial


def understood(request: str) -> tuple[Intent, bool]:
    """The intent the worker plans a fresh person's request with, and whether the rules could not read it."""
    intent = classify(request)
    if intent.archetype is None and intent.refusal is None:  # as pipeline.understand does with a model
        shape = intent.shape if intent.shape in ("log", "collection", "schedule", "dates") else "log"
        return classify_as(request, f"custom_{shape}"), True
    if intent.archetype is None:  # refused by the rules: planned as the likeliest shape, for the fixture only
        return classify_as(request, f"custom_{intent.shape or 'log'}"), False
    return intent, False


def prompt_for(request: str) -> Prompt:
    """The prompt the platform sends a model for ``request`` from a person it knows nothing of."""
    intent, unclear = understood(request)
    draft = OfflinePlanner().plan(request, intent, [])
    return LLMPlanner(model="standin").prompt(request, intent, "", draft, unclear=unclear)


def reply(request: str, answer: str) -> tuple[str, str]:
    """What the platform does with ``answer`` to ``request``: ("accepted", title), ("declined", reason) or
    ("sent back", the correction the planner would send)."""
    intent, _ = understood(request)
    try:
        decline, data = read_answer(answer)
        if decline is not None:
            return "declined", f"{decline.category}: {decline.reason}"
        assert data is not None
        program = constrain(data, intent, request, [])
        trial(program)
    except (ValueError, ValidationError, TypeError, TrialError) as e:
        return "sent back", correction(describe_problem(e))
    return "accepted", program.title


def _export(part: str, out: Path) -> None:
    out.mkdir(parents=True, exist_ok=True)
    rows = load(part)
    static = None
    for row in rows:
        asked = prompt_for(row["text"])
        static = asked.static
        (out / f"{row['id']}.txt").write_text(
            f"{asked.dynamic}\n\n--- the person's request (the user message) ---\n{row['text']}\n"
        )
    (out / "static.txt").write_text(static or "")
    (out / "schema.json").write_text(json.dumps(answer_schema(), ensure_ascii=False, indent=1))
    print(f"{len(rows)} prompts in {out} (static.txt and schema.json once, then <id>.txt each)")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m toolgen.planner.standin", description=__doc__.split("\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("prompt", help="write the prompts of a blind set's requests")
    p.add_argument("--part", required=True)
    p.add_argument("--out", required=True, type=Path)
    c = sub.add_parser("check", help="what the platform says to an answer")
    c.add_argument("--part", required=True)
    c.add_argument("--id", required=True)
    c.add_argument("answer", type=Path)
    args = parser.parse_args(argv)
    if args.command == "prompt":
        _export(args.part, args.out)
        return 0
    row = next((r for r in load(args.part) if r["id"] == args.id), None)
    if row is None:
        print(f"no request {args.id} in {args.part}", file=sys.stderr)
        return 2
    verdict, said = reply(row["text"], args.answer.read_text())
    print(json.dumps({"verdict": verdict, "said": said}, ensure_ascii=False))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
