"""Bounds shared by the ToolProgram's checks, its OpenAPI document and the runtime (the standard library only:
the runtime's cold start reads this without pydantic)."""

from __future__ import annotations

import json
from typing import Any

MAX_NUMBER = 1e15  # the largest magnitude a tool accepts in a number field (the runtime refuses more)
MAX_ROUND_DIGITS = 15  # round()'s decimal places: a float holds 15 to 17 significant digits, more round nothing
# What one person may keep (SECURITY.md, README): past it a write is a 409 saying so, never a slower platform.
MAX_ROWS_PER_PERSON = 100_000  # rows of one tool for one person, all its entities together
MAX_MEMORIES_PER_PERSON = 10_000  # memories of one person, superseded ones included (they are kept as history)
# The newest rows a tool's figures are computed over, after a write, where no digest answers them (all-time figures
# come from the digest every write keeps: runtime/running.py; between writes figures are kept: figures.py).
# Bounded by what the embedded emulator reads within a tool's 10 s timeout: its DynamoDB (moto) serialises about
# a thousand items a second, so 10,000 rows (expressions.MAX_ROWS, the bound before) timed out on every figure
# call after a write; 2,000 take about 2 s there, and a few pages (~100 ms) on DynamoDB.
FIGURE_ROWS = 2_000
# Characters of rows one page of a tool's list answers at most: GPT Actions refuses an answer over 100,000
# characters (a page of 100 notes of 1,500 characters was 149,274). A fuller page ends early, its `next` after the
# last row it holds.
MAX_PAGE_CHARS = 90_000


class BadJSON(ValueError):
    """A body that is not JSON a caller may send; its message is for the caller."""


class UnboundedJSON(BadJSON):
    """JSON, but past what any body may be: nested too deeply, or a number too long to convert."""


def load_json(text: str | bytes) -> Any:
    """``json.loads`` held to what any body may be: nesting past the interpreter's recursion limit and a number of
    more digits than Python converts (4,300) are BadJSON like any other malformed body, never a crash."""
    try:
        return json.loads(text)
    except RecursionError:
        raise UnboundedJSON("the body is nested too deeply") from None
    except UnicodeDecodeError:
        raise BadJSON("the body is not UTF-8 text") from None
    except json.JSONDecodeError as e:
        raise BadJSON(f"the body is not JSON: {e.msg} at character {e.pos}") from None
    except ValueError:  # int() refusing a number of thousands of digits
        raise UnboundedJSON("the body has a number with too many digits") from None
