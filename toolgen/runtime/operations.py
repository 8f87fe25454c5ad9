"""What each operation kind does with checked input and a person's rows.

Pure over a RowStore and a clock, so every rule (filters, periods, computed fields, derived defaults, sorting)
is tested against the in-memory table.
"""

from __future__ import annotations

import datetime as dt
import json
from typing import TYPE_CHECKING, Any

from toolgen.bounds import FIGURE_ROWS, MAX_PAGE_CHARS
from toolgen.runtime import expressions, figures, periods, previous, running
from toolgen.runtime.errors import Invalid
from toolgen.runtime.messages import Message
from toolgen.runtime.rows import RowStore
from toolgen.runtime.values import check_number, check_object, check_value

if TYPE_CHECKING:  # the runtime reads programs as views (toolgen/runtime/view.py); pydantic is not imported
    from toolgen.program import AggregateOp, ComputeOp, CreateOp, Entity, FieldSpec, ListOp, ToolProgram, UpdateOp


def constants(program: ToolProgram, op: Any) -> dict[str, Any]:
    """What an operation's expressions read besides rows and inputs: the tool's settings (a program deployed before
    settings has none), then the operation's own constants (never named alike: program.py)."""
    settings = getattr(program, "settings", None) or {}
    return {**{name: setting.value for name, setting in settings.items()}, **(getattr(op, "constants", None) or {})}


def create(program: ToolProgram, op: CreateOp, rows: RowStore, body: Any, today: dt.date) -> dict[str, Any]:
    """Store one row: checked fields, defaults, then derived fields for what is still missing."""
    fields = program.entities[op.entity].fields
    data = check_object(body, fields, optional=set(op.derive), today=today)
    missing = {name: expr for name, expr in op.derive.items() if name not in data}
    labels = {name: fields[name].label for name in missing}
    # strict: a derived value the caller's own fields put out of range is theirs to fix (422), not a silent gap
    derived = expressions.row_values(
        missing, data, constants(program, op), today=today, strict=True, labels=labels, fields=fields
    )
    for name, value in derived.items():
        if value is not None:
            data[name] = check_value(name, value, fields[name])
    return rows.create(op.entity, data)


def update(program: ToolProgram, op: UpdateOp, rows: RowStore, row_id: str, body: Any) -> dict[str, Any]:
    """Change only the fields the body names with a value; a field left out or null stays as it is.

    ``{}`` is refused (the document asks for at least one field), while a body of nulls only (Dify's call when the
    model filled nothing in) names fields and changes none of them: the row comes back as it is.
    """
    changes = check_object(body, program.entities[op.entity].fields, partial=True)
    if not changes and not body:
        raise Invalid(Message("nothing_to_change"))
    return rows.update(op.entity, row_id, changes) if changes else rows.get(op.entity, row_id)


def _filters(entity: Entity, names: list[str], query: dict[str, str]) -> dict[str, Any]:
    """The equality filters a caller asked for, typed by their fields."""
    return {
        name: check_value(name, query[name], entity.fields[name], from_text=True) for name in names if name in query
    }


def _inputs(op: ListOp | AggregateOp, query: dict[str, str], today: dt.date) -> dict[str, Any]:
    """The operation's query inputs, checked and typed, with their defaults; None for one not given (its
    expressions read it as a name). A program deployed before lists and figures had inputs has none."""
    specs: dict[str, FieldSpec] = getattr(op, "inputs", None) or {}
    given = check_object({name: query[name] for name in specs if name in query}, specs, from_text=True, today=today)
    return {name: given.get(name) for name in specs}


def _matches(row: dict[str, Any], wanted: dict[str, Any]) -> bool:
    return all(row.get(k) == v for k, v in wanted.items())


def _sort_key(name: str, spec: FieldSpec | None) -> Any:
    order = {v: i for i, v in enumerate(spec.enum)} if spec and spec.enum else None
    return (lambda r: order.get(r[name], len(order))) if order is not None else (lambda r: r[name])


KEY_ORDER = ("created_at", "id")  # sorts the table's own key order already gives (ids sort by creation time)


def list_rows(
    program: ToolProgram, op: ListOp, rows: RowStore, query: dict[str, str], today: dt.date
) -> dict[str, Any]:
    """One page: up to ``limit`` rows in the order they were made (newest first, unless the sort is by creation,
    oldest first), filtered, with computed fields, sorted by the operation's sort (enum fields in their declared
    order); and ``next``, the token of the following page (None after the last).

    A page is read in the table's key order, so its cost is ``limit`` rows whatever the person keeps; the sort
    orders a page, and the whole list when it fits in one page (a sort by creation orders every page alike). A
    filter keeps a page's matching rows, so a page may hold fewer than ``limit``: only a missing ``next`` ends it.
    A computed field that reads the previous row (prev) reads it in the entity's order, whatever the page's
    (previous.py). A page ends early where its rows pass ``MAX_PAGE_CHARS`` of JSON (GPT Actions' bound), its
    ``next`` after the last row it holds.
    """
    entity = program.entities[op.entity]
    limit = op.limit
    if "limit" in query:
        limit = int(check_number("limit", query["limit"], "integer", 1, op.limit, from_text=True))
    wanted = _filters(entity, op.filters, query)
    names = {**constants(program, op), **_inputs(op, query, today)}
    name, reverse = op.sort.lstrip("-"), op.sort.startswith("-")
    newest_first = reverse or name not in KEY_ORDER
    # "null" or nothing is the first page: what a model writes for an optional input it has no value for (Dify)
    token = query.get("next") if query.get("next") not in ("", "null") else None
    page, following = rows.page(op.entity, token, limit, newest_first=newest_first)
    if newest_first:  # rows the sort ties keep the order they were made in, oldest first, as they always have
        page.reverse()
    items = [r for r in page if _matches(r, wanted)]
    fields = entity.fields  # bound in a row's figures: None where the row lacks one
    if op.computed:
        before: dict[str, dict[str, Any] | None] = {}
        if previous.uses_prev(op.computed):  # the rows before, read over the figures' window once a write

            def before_each() -> dict[str, dict[str, Any] | None]:
                window = previous.in_order(rows.recent(op.entity, FIGURE_ROWS), previous.order_field(entity))
                return previous.previous_rows(window, op.computed, names, today, fields=fields)

            inputs = sorted((k, str(v)) for k, v in names.items() if k in (op.inputs or {}))
            asked = [inputs, today.isoformat(), FIGURE_ROWS]
            before = figures.kept_value(rows, f"prev:{op.id}", asked, before_each)
        items = [
            {
                **r,
                **expressions.row_values(
                    op.computed, r, names, today=today, fields=fields, previous=before.get(r["id"])
                ),
            }
            for r in items
        ]
    items = [r for r in items if expressions.row_matches(op.where, r, names, today=today, fields=fields)]
    key = _sort_key(name, entity.fields.get(name))
    spec = entity.fields.get(name)
    clock = next((n for n, s in fields.items() if s.type == "time"), None) if spec and spec.type == "date" else None
    if clock:  # a day's rows by their time too: the evening's reading above the morning's, newest first
        by_day = key
        key = lambda r: (by_day(r), r.get(clock) or "")  # noqa: E731
    read = [r["id"] for r in (reversed(page) if newest_first else page)]  # the order the page was read in
    items, following = _within_size(rows, op.entity, read, items, following)
    present = sorted((r for r in items if r.get(name) is not None), key=key, reverse=reverse)
    return {"items": present + [r for r in items if r.get(name) is None], "next": following}


def _within_size(
    rows: RowStore, entity: str, read: list[str], items: list[dict[str, Any]], following: str | None
) -> tuple[list[dict[str, Any]], str | None]:
    """The page's items cut to ``MAX_PAGE_CHARS`` of JSON where they are more: the rows first read, at least one,
    and ``next`` after the last row kept (a page is read in key order, so the next page starts where this ends)."""
    sizes = {r["id"]: len(json.dumps(r, ensure_ascii=False, default=str)) for r in items}
    if sum(sizes.values()) <= MAX_PAGE_CHARS:
        return items, following
    kept: set[str] = set()
    total, last = 0, None
    for row_id in read:
        size = sizes.get(row_id, 0)  # a row the filters left out costs nothing
        if kept and total + size > MAX_PAGE_CHARS:
            break
        total, last = total + size, row_id
        if row_id in sizes:
            kept.add(row_id)
    assert last is not None
    return [r for r in items if r["id"] in kept], rows.token_after(entity, last)


def aggregate(
    program: ToolProgram, op: AggregateOp, rows: RowStore, query: dict[str, str], today: dt.date
) -> dict[str, Any]:
    """Figures over every row (from the entity's digest) or the newest rows (of the current day, week or month when
    the operation says so), maybe per group or for each of the latest periods (a series); kept until the next
    write (figures.py), except an answer over the newest rows while a digest is being built: asking again builds
    on."""
    entity = program.entities[op.entity]
    wanted = _filters(entity, op.filters, query)
    inputs = _inputs(op, query, today)
    building: list[bool] = []  # whether a digest is on its way: an answer over the newest rows is not kept

    def compute() -> dict[str, Any]:
        return _figures(entity, op, rows, wanted, {**constants(program, op), **inputs}, today, building)

    def whole(answer: dict[str, Any]) -> bool:
        return not (any(building) and "newest" in answer)

    return figures.kept_or_computed(rows, op, wanted, today, compute, inputs=inputs, keep=whole)


def _figures(
    entity: Entity,
    op: AggregateOp,
    rows: RowStore,
    wanted: dict[str, Any],
    names: dict[str, Any],
    today: dt.date,
    building: list[bool] | None = None,
) -> dict[str, Any]:
    """``names``: what the expressions read besides the rows (settings, constants, the caller's inputs).

    All-time figures with no filter asked come from the entity's digest where it keeps them (running.py): exact
    over every row. Else, and while a digest cannot be had, over the newest ``FIGURE_ROWS`` rows, said so."""
    plan = rows.running_plan(op.entity)
    if plan is not None and op.id in plan.ops and not wanted:
        state, for_good = rows.running(op.entity, plan)
        if state is not None:
            return running.figures(plan, entity, op, state, names, today)
        if building is not None:
            building.append(not for_good)
    read = rows.recent(op.entity, FIGURE_ROWS + 1)  # one more than the window: whether there are older rows
    partial = len(read) > FIGURE_ROWS
    answer = _over(entity, op, read[-FIGURE_ROWS:], wanted, names, today)
    if partial:  # said, never silent: a total over the newest rows is not the all-time total
        answer["newest"] = FIGURE_ROWS
    return answer


def _over(
    entity: Entity,
    op: AggregateOp,
    read: list[dict[str, Any]],
    wanted: dict[str, Any],
    names: dict[str, Any],
    today: dt.date,
) -> dict[str, Any]:
    computed: dict[str, str] = getattr(op, "computed", None) or {}  # a program deployed before has none
    if computed:  # over every row read, before any is left out: prev() reads the row before, whichever it is
        ordered = previous.in_order(read, previous.order_field(entity, op.period_field))
        values = previous.computed(ordered, computed, names, today, fields=entity.fields)
        read = [{**r, **values[r["id"]]} for r in read]
    items = [r for r in read if _matches(r, wanted)]
    fields = entity.fields  # bound in the condition: None where the row lacks one
    items = [r for r in items if expressions.row_matches(op.where, r, names, today=today, fields=fields)]
    if op.period:
        items = [r for r in items if periods.in_period(r.get(op.period_field), op.period, today)]
    if "date" in entity.fields:  # oldest first by the day a row is about, so first() and last() mean it
        items.sort(key=lambda r: str(r.get("date") or ""))
    columns = [*entity.fields, "id", "created_at", "updated_at", *computed]

    work = expressions.Work(expressions.MAX_WORK)  # one budget for the whole answer, whatever its groups or periods

    def figures(group: list[dict[str, Any]]) -> dict[str, Any]:
        return expressions.aggregate(op.metrics, group, columns, constants=names, today=today, work=work)

    series = getattr(op, "series", None)
    if series:
        return {"series": periods.series(items, op.period_field, series, op.series_count, today, figures)}
    if op.group_by is None:
        return {"metrics": figures(items)}
    groups: dict[str, list[dict[str, Any]]] = {}
    for row in items:
        groups.setdefault(running.group_key(row.get(op.group_by)), []).append(row)
    spec = entity.fields[op.group_by]
    order = {v: i for i, v in enumerate(spec.enum or [])}
    keys = sorted(groups, key=lambda k: (order.get(k, len(order)), k))
    return {"groups": [{"key": key, "metrics": figures(groups[key])} for key in keys]}


def compute(program: ToolProgram, op: ComputeOp, query: dict[str, str], body: Any, today: dt.date) -> dict[str, Any]:
    """The operation's outputs for checked inputs (query inputs for GET, a JSON body for POST); an output the inputs
    put out of range (an overflow, the root of a negative) is a 422 naming it (by its label in ``labels``)."""
    from_query = op.method == "GET"
    inputs = check_object(query if from_query else body, op.inputs, from_text=from_query, today=today)
    return expressions.compute(
        op.outputs, inputs, constants(program, op), today=today, strict=True, labels=program.labels, declared=op.inputs
    )
