"""A program's trial run: each operation called once, in this process, on an empty in-memory table.

Validation holds a program to its schema; only running it shows that its figures compute. Before a model's
program is accepted it is run as the probe will run it once deployed (toolgen/probe.py), and more: a row is
added with plausible values (each field's default, else a value of its type within its bounds), every list and
figure is read over it, that row is read back, every calculation is made with its defaults and plausible values
for the rest, and the row is deleted. A call that crashes, a plausible value refused, or a calculation whose every
input was given yet leaves a figure uncomputed, is a TrialError naming the operation: the model is told, and may
correct its answer. Lookups are not called here (their source is reached by the probe, after the deploy). It costs
a few milliseconds and touches nothing outside this process.
"""

from __future__ import annotations

import datetime as dt
import json
from typing import Any

from toolgen.errors import ToolgenError
from toolgen.program import ComputeOp, CreateOp, DeleteOp, FieldSpec, GetOp, ToolProgram
from toolgen.runtime.errors import ToolCallError

OWNER = "trial"
# Plausible numbers, distinct so that no formula meets a degenerate case by chance (price - cost = 0).
NUMBERS = (3, 7, 2, 5, 11, 13, 4, 6, 9, 8)


class TrialError(ToolgenError):
    """An operation of a program did not answer as it should when tried."""

    code = "trial_failed"


def sample(spec: FieldSpec, today: dt.date, index: int = 0) -> Any:
    """A plausible value of a field: its default, else one of its type within its bounds (``index`` picks among
    several, so that fields side by side get different numbers)."""
    from toolgen.runtime.values import _default

    value = _default(spec, today)
    if value is not None:
        return value
    kind = spec.type
    if kind in ("number", "integer"):
        number = float(NUMBERS[index % len(NUMBERS)])
        if spec.minimum is not None:
            number = max(number, spec.minimum)
        if spec.maximum is not None:
            number = min(number, spec.maximum)
        return int(number) if kind == "integer" else number
    if kind == "boolean":
        return True
    if kind == "date":
        return today.isoformat()
    if kind == "time":
        return "08:00"
    if kind == "list":  # three items, each a plausible value of the item type within the list's bounds and choices
        from toolgen.program_values import item_spec

        return [sample(item_spec(spec), today, index + k) for k in range(min(3, spec.max_items))]
    if spec.enum:
        return spec.enum[0]
    return "sample"[: spec.max_length]


def _call(app: Any, op: Any, row_id: str | None = None, query: dict[str, str] | None = None, body: Any = None) -> Any:
    """The operation's answer, as the tool would give it (its JSON body read back)."""
    try:
        result = app.run(op, OWNER, row_id, query or {}, body)
    except ToolCallError as e:
        said = f"{op.method} {op.path} ({op.id}) answered {e.status} {e.code}: {e.message}"
        raise TrialError(said + (f" {e.details_value}" if e.details_value else "")) from e
    except Exception as e:  # what a deployed tool would answer as a 500
        raise TrialError(f"{op.method} {op.path} ({op.id}) failed: {type(e).__name__}: {str(e)[:200]}") from e
    return json.loads(result["body"]) if result.get("body") else None


def trial(program: ToolProgram, today: dt.date | None = None) -> None:
    """Run every operation of ``program`` once (see the module's docstring); TrialError at the first that fails."""
    from toolgen.runtime import operations
    from toolgen.runtime.app import ToolApp
    from toolgen.runtime.rows import RowStore
    from toolgen.runtime.values import check_object
    from toolgen.table import MemoryTable

    day = today or dt.datetime.now(dt.UTC).date()
    table, key = MemoryTable(), "trial-only"  # no token is ever made: the operations are run directly
    app = ToolApp(program, tool_id="t" + "0" * 20, owner=OWNER, table=table, secret=key, clock=lambda: day)
    rows = RowStore(table, app.home, OWNER, program)
    creates = {op.entity: op for op in program.operations if isinstance(op, CreateOp)}
    for entity, entity_rows in program.seed.items():  # the starting rows first, stored as the pipeline stores them
        for row in entity_rows:
            try:
                if entity in creates:
                    operations.create(program, creates[entity], rows, row, day)
                else:
                    rows.create(entity, check_object(row, program.entities[entity].fields, today=day))
            except ToolCallError as e:
                raise TrialError(f"a starting row of {entity} was refused: {e.message}") from e
    made: dict[str, str] = {}  # entity -> the id of the row added
    for op in program.operations:
        if isinstance(op, CreateOp) and op.entity not in made:
            fields = program.entities[op.entity].fields
            body = {n: sample(s, day, i) for i, (n, s) in enumerate(fields.items()) if s.required or s.default is None}
            body = {name: value for name, value in body.items() if name not in op.derive or fields[name].required}
            made[op.entity] = _call(app, op, body=body)["id"]
    for op in program.operations:
        if op.kind in ("list", "aggregate"):
            _call(app, op)
        elif isinstance(op, GetOp) and op.entity in made:
            _call(app, op, made[op.entity])
        elif isinstance(op, ComputeOp):
            _compute(app, op, day)
    for op in program.operations:
        if isinstance(op, DeleteOp) and op.entity in made:
            _call(app, op, made.pop(op.entity))


def _compute(app: Any, op: ComputeOp, day: dt.date) -> None:
    """The calculation with its defaults and plausible values for the rest, twice with other values before an
    output that never computes is called wrong (a value may be one its formula cannot take: a rate of 0)."""
    lacking: list[str] = []
    for shift in (0, 5):
        given = {name: sample(spec, day, i + shift) for i, (name, spec) in enumerate(op.inputs.items())}
        if op.method == "GET":
            answer = _call(app, op, query={name: _text(value) for name, value in given.items()})
        else:
            answer = _call(app, op, body=given)
        lacking = [name for name in op.outputs if answer.get(name) is None]
        if not lacking:
            return
    inputs = ", ".join(f"{k}={v!r}" for k, v in given.items())
    raise TrialError(f"{op.id} could not compute {', '.join(lacking)} from every input given ({inputs})")


def _text(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)
