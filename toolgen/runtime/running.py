"""Running figures: what an all-time aggregate needs of a tool's rows, kept up to date by every write (issue 33).

Before, every figure was computed over the newest ``bounds.FIGURE_ROWS`` rows after each write, so a person with
5,000 runs saw a partial total ("newest": 2000). Reading every row instead costs 100,000 items at the cap, past a
tool's 10 s. So an entity whose figures are sums, means, counts, extremes, first and last values, counts of a value
and streaks keeps a *digest* of its rows in one item of its partition (``RUNNING#<entity>``), changed by each
create, update and delete, and its all-time figures are evaluated over the digest: exact at any row count, one
read. What the digest holds, per group (a ``group_by``'s values, or every row), per column a figure reads:
- ``n`` (values that are not null) and ``s`` (their exact decimal sum): count, sum, avg; a delete subtracts;
- the ``K`` smallest and largest values, and the ``K`` first and last values in the rows' order (by date, else as
  made), each with its row id: min, max, first, last. A delete removes the entry and the rest stay the smallest
  (or largest) of what remains; only when every kept entry of one side is gone while values remain is the next
  unknown, and the digest is built again from the rows; the first and last row's value likewise (``col[0]``);
- how many rows hold each value (``v``): count_where, and streak over a date column (its days);
- per payer, the cents paid and the rows (``by``): settle.
An operation is answered from the digest only when every column its metrics name is an argument of one of those
functions (``sum(minutes)``, ``round(avg(bpm), 2)``, ``days_since(min(date))``), it has no where, period, series or
computed fields, and the caller asked no filter; any other figure is computed over rows as before (figures.py).

Consistency without a transaction (moto, the embedded emulator, copies the whole table for each one). The item
holds ``seq``, moved by every write of the entity as it starts, together with ``writing``, the writes in flight
(a set of one token each, its start time and a random part: a retried start or end, which a loaded emulator or a
lost answer brings, adds or takes out the same member again, where a counter would count it twice for good);
``version``, the seq the digest has taken in; and while a digest is being built, the build's own (``b_state``,
``b_after``: the key of the last row it has read, ``b_version``). A write starts (seq up and its token in, atomically,
only while no build holds the ``lease``), writes its row, then takes its change in, in seq order (``version == seq -
1``, else it waits for the earlier write): into the digest, or into the build if the build has read past its row
(else the build will read the row itself). A build takes the lease only while no write is in flight, and reads pages
of rows under it, so no row is ever read half-written; a write that could not take its change in (a crash, a
process serving another revision, an error that left unknown whether its row was written) leaves ``version``
behind ``seq``, which the next figures call reads as stale, and builds again. The digest, when used, has counted
every finished write exactly once; a write still in flight is counted when it finishes.

Building reads every row once, a page of CHUNK at a time, for at most BUILD_S a figures call (100,000 rows take
several calls in the emulator, a few seconds on DynamoDB); meanwhile the figures are over the newest rows, said so,
and not kept, so that each call builds on.
"""

from __future__ import annotations

import ast
import bisect
import contextlib
import datetime as dt
import hashlib
import json
import logging
import secrets
import time
from collections.abc import Callable
from decimal import Decimal
from typing import TYPE_CHECKING, Any, cast

from toolgen.errors import ConflictError
from toolgen.runtime import expressions
from toolgen.runtime.arithmetic import Data, Work, bounded, operators
from toolgen.runtime.functions import column_functions, settle, streak

if TYPE_CHECKING:
    from toolgen.program import AggregateOp, Entity, ToolProgram
    from toolgen.table import ItemTable

logger = logging.getLogger(__name__)

RUNNING = "RUNNING#"
K = 8  # extremes kept on each side: K deletes of the extreme rows in a row before a rebuild is needed
MAX_VALUES = 2_000  # distinct values a count keeps (days of a streak); past it the operation reads rows
# Bytes of the digest's JSON (UTF-8, as DynamoDB counts them): under its 400 KB an item with room for an update's
# old and new values together (moto refused updates past about 200,000 characters). Past it the entity's figures
# read rows.
MAX_STATE = 180 * 1024


def _too_large(text: str) -> bool:
    return len(text.encode()) > MAX_STATE


APPLY_ATTEMPTS = 8
CHUNK = 1_000  # rows a build reads a page
BUILD_S = 2.0  # seconds one figures call builds for (a tool has 10): 100,000 rows over several calls locally
LEASE_MS = 5_000  # how long a build holds writes back, at most (past it, writes go ahead)
LEASE_MARGIN_MS = 1_500  # a build keeps nothing it read later than this before its lease ends
STUCK_MS = 30_000  # a write in flight this long died (a tool's function lives 10 s)
META = ("id", "created_at", "updated_at")  # columns every row has besides its fields

_NUMBERS = frozenset({"number", "integer"})


# ---- what an entity's figures need ------------------------------------------------------------------------

_SIMPLE = {"sum": "s", "avg": "s", "min": "lo", "max": "hi", "first": "ord", "last": "ord", "streak": "v", "count": ""}


def _column_needs(op: AggregateOp, types: dict[str, str]) -> dict[str, set[str]] | None:
    """Per column, what the operation's metrics need of it (``s`` sums, ``lo``/``hi`` extremes, ``ord`` first and
    last, ``v`` counts of each value, ``head``/``tail`` the first and last row's value, ``by:<payer>`` the sums per
    payer that settle reads); None when some metric reads a column any other way."""
    needs: dict[str, set[str]] = {}

    def column(node: ast.AST | None) -> str | None:
        return node.id if isinstance(node, ast.Name) and node.id in types else None

    def need(name: str, what: str) -> bool:
        needs.setdefault(name, set()).update({what} - {""})
        return True

    def visit(node: ast.AST) -> bool:
        if isinstance(node, ast.Name):
            return column(node) is None  # a column outside a call the digest answers
        if isinstance(node, ast.Subscript) and column(node.value):
            try:
                index = ast.literal_eval(node.slice)
            except ValueError:
                return False
            return (
                type(index) is int
                and index in (0, -1)
                and need(str(column(node.value)), "head" if index == 0 else "tail")
            )
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and not node.keywords:
            name, args = node.func.id, node.args
            first = column(args[0]) if args else None
            kind = types.get(first or "", "")
            if first and kind != "list":
                if name in _SIMPLE and len(args) == 1 and (name not in ("sum", "avg") or kind in _NUMBERS):
                    return need(first, _SIMPLE[name])
                if name == "count_where" and len(args) == 2:
                    return need(first, "v") and visit(args[1])
                amount = column(args[1]) if name == "settle" and len(args) in (2, 3) else None
                if amount and types[amount] in _NUMBERS:
                    need(first, "")
                    return need(amount, f"by:{first}") and all(visit(a) for a in args[2:])
                return False
        return all(visit(child) for child in ast.iter_child_nodes(node) if child is not getattr(node, "func", None))

    for expr in op.metrics.values():
        if not visit(ast.parse(expr, mode="eval").body):
            return None
    return needs


def answers(op: Any) -> bool:
    """Whether an operation's figures may come from a digest at all (its metrics aside)."""
    return (
        op.kind == "aggregate"
        and not op.where
        and not op.period
        and not getattr(op, "series", None)
        and not getattr(op, "computed", None)
    )


class Plan:
    """What one entity's digest tracks for the operations it answers."""

    def __init__(
        self,
        entity_name: str,
        entity: Entity,
        ops: list[str],
        columns: dict[str, set[str]],
        groups: list[str],
        revision: int,
    ) -> None:
        self.entity_name, self.ops = entity_name, frozenset(ops)
        self.columns = columns
        self.groups = groups  # "" is every row; else a group_by field
        self.dated = "date" in entity.fields  # rows are in date order for first and last (operations._over)
        # a revision may rename a field or change its unit (rows are migrated where they are read): a digest
        # counted under another revision is of another shape, and rebuilt
        described = [revision, entity_name, sorted((c, sorted(n)) for c, n in columns.items()), groups, self.dated]
        self.shape = hashlib.sha256(json.dumps(described).encode()).hexdigest()[:16]


def plan_for(program: ToolProgram, entity_name: str) -> Plan | None:
    """The digest an entity keeps, or None when none of its operations is answered from one."""
    entity = program.entities[entity_name]
    types: dict[str, str] = {name: spec.type for name, spec in entity.fields.items()}
    types |= dict.fromkeys(META, "string")
    ops: list[str] = []
    columns: dict[str, set[str]] = {}
    groups: set[str] = set()
    for each in program.operations:
        if each.kind != "aggregate" or each.entity != entity_name or not answers(each):
            continue
        op = cast("AggregateOp", each)
        needs = _column_needs(op, types)
        if needs is None:
            continue
        ops.append(op.id)
        for column, need in needs.items():
            columns.setdefault(column, set()).update(need)
        groups.add(op.group_by or "")
    if not ops:
        return None
    return Plan(entity_name, entity, ops, columns, sorted(groups), getattr(program, "revision", 1))


# ---- the digest -------------------------------------------------------------------------------------------


def _value_key(value: Any) -> str:
    """A value as a count's key: 3, 3.0 and True (== 1 in Python) alike, as count_where compares them."""
    if not isinstance(value, int | float):  # null too: count_where(note, None) counts rows without one
        return json.dumps(value, ensure_ascii=False)
    return repr(float(value))


def group_key(value: Any) -> str:
    """A row's group as figures name it: a whole number as one (4.0 is written, DynamoDB gives 4 back)."""
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    return str(value)


def _keep(entries: list[list[Any]], n_before: int, entry: list[Any], largest: bool) -> None:
    """Add ``entry`` ([sort key, row id, value]) to one side's kept extremes (ascending either side: the smallest
    ``K`` or the largest ``K``), where it belongs among them."""
    keys = [e[:2] for e in entries]
    beyond = not entries or (entry[:2] < keys[0] if largest else entry[:2] > keys[-1])
    if len(entries) != n_before and beyond:  # not every value is kept: others may lie between it and the kept
        return
    entries.insert(bisect.bisect(keys, entry[:2]), entry)
    if len(entries) > K:
        del entries[0 if largest else -1]


def _drop(entries: list[list[Any]], row_id: str) -> None:
    entries[:] = [e for e in entries if e[1] != row_id]


def _order_key(plan: Plan, row: dict[str, Any]) -> str:
    return str(row.get("date") or "") if plan.dated else ""


def _change(plan: Plan, state: dict[str, Any], row: dict[str, Any], sign: int) -> None:
    """Count ``row`` into the digest (sign 1) or take it out (-1)."""
    order = _order_key(plan, row)
    for group in plan.groups:
        by_key = state.setdefault(group, {})
        key = group_key(row.get(group)) if group else ""
        digest = by_key.setdefault(key, {"rows": 0, "cols": {}})
        rows_before = digest["rows"]
        digest["rows"] += sign
        for column, needs in plan.columns.items():
            col = digest["cols"].setdefault(column, {"n": 0})
            for side, largest in (("head", False), ("tail", True)):  # over every row, a null value too
                if side in needs:
                    _side(col.setdefault(side, []), rows_before, [order, row["id"], row.get(column)], largest, sign)
            if row.get(column) is not None:
                _change_column(col, needs, row, row[column], order, sign)
            elif "v" in needs:  # a null is counted too (count_where(x, None)); streak and n skip it
                _count(col.setdefault("v", {}), _value_key(None), sign)
        if group and digest["rows"] <= 0:
            del by_key[key]  # a group without rows is not listed, as over rows


def _change_column(
    col: dict[str, Any], needs: set[str], row: dict[str, Any], value: Any, order: str, sign: int
) -> None:
    """Count a value that is not null into one column's digest, or take it out."""
    n_before = col["n"]
    col["n"] = n_before + sign
    if "s" in needs:
        col["s"] = str(Decimal(col.get("s", "0")) + sign * Decimal(str(value)))
    for side, largest in (("lo", False), ("hi", True)):
        if side in needs:
            _side(col.setdefault(side, []), n_before, [value, row["id"], None], largest, sign)
    if "ord" in needs:
        for side, largest in (("first", False), ("last", True)):
            _side(col.setdefault(side, []), n_before, [order, row["id"], value], largest, sign)
    if "v" in needs:
        _count(col.setdefault("v", {}), _value_key(value), sign)
        if len(col["v"]) > MAX_VALUES:
            col["over"] = True  # stays: the operation reads rows until a rebuild finds fewer values
    for need in needs:
        payer = row.get(need[3:]) if need.startswith("by:") else None
        if payer is not None:  # as settle counts a row: its amount in cents, under its payer
            by_payer = col.setdefault("by", {}).setdefault(need[3:], {})
            paid = by_payer.setdefault(str(payer), [0, 0])
            paid[0] += sign * round(float(value) * 100)
            paid[1] += sign
            if paid[1] <= 0:
                del by_payer[str(payer)]


def _side(entries: list[list[Any]], n_before: int, entry: list[Any], largest: bool, sign: int) -> None:
    if sign > 0:
        _keep(entries, n_before, entry, largest)
    else:
        _drop(entries, entry[1])


def _count(counts: dict[str, int], key: str, sign: int) -> None:
    counts[key] = counts.get(key, 0) + sign
    if counts[key] <= 0:
        del counts[key]


def build(plan: Plan, rows: list[dict[str, Any]]) -> dict[str, Any]:
    """The digest of ``rows`` (oldest first), as every write since the first would have left it."""
    state: dict[str, Any] = {group: {} for group in plan.groups}
    for row in rows:
        _change(plan, state, row, 1)
    return state


def known(state: dict[str, Any]) -> bool:
    """Whether every figure the digest keeps is known (no side of extremes emptied by deletes, no count over)."""
    for by_key in state.values():
        for digest in by_key.values():
            for col in digest["cols"].values():
                if col.get("over"):
                    return False
                if col["n"] > 0 and any(side in col and not col[side] for side in ("lo", "hi", "first", "last")):
                    return False
                if digest["rows"] > 0 and any(side in col and not col[side] for side in ("head", "tail")):
                    return False
    return True


# ---- reading and writing it ---------------------------------------------------------------------------------


def _ms() -> int:
    return int(time.time() * 1000)


class Ticket:
    """A write in progress: the digest item as its start left it (``seq`` moved, its token in ``writing``)."""

    def __init__(self, item: dict[str, Any] | None, token: str = "") -> None:
        self.item = item  # None: the write could not be counted in (a stuck lease), the digest goes stale
        self.token = token

    @property
    def seq(self) -> int:
        return int((self.item or {}).get("seq", 0))


def _token(now: int) -> str:
    return f"{now}:{secrets.token_hex(6)}"


def _started(token: str) -> int:
    head = token.partition(":")[0]
    return int(head) if head.isdigit() else 0


def begin(table: ItemTable, pk: str, plan: Plan) -> Ticket:
    """Before a row is written: move ``seq`` and put the write's token in ``writing``, once no build holds the
    lease (a build reads rows for at most BUILD_S: a write waits for it rather than race it)."""
    sk = RUNNING + plan.entity_name
    deadline = time.monotonic() + LEASE_MS / 1000 + 1
    while True:
        now = _ms()
        token = _token(now)
        try:
            item = table.add(pk, sk, {"seq": 1, "writing": frozenset({token})}, below={"lease": now})
            return Ticket(item, token)
        except ConflictError:
            if time.monotonic() > deadline:  # a lease past its time is taken over; this is a clock gone wrong
                table.add(pk, sk, {"seq": 1})
                return Ticket(None)
            time.sleep(0.02)


def finish(
    table: ItemTable,
    pk: str,
    plan: Plan,
    ticket: Ticket,
    *,
    added: dict[str, Any] | None = None,
    removed: dict[str, Any] | None = None,
    sure: bool = True,
) -> None:
    """After the row was written (or was not: no change): take the change into the digest, or into the build
    under way, in the order of ``seq``; then the write is no longer in flight. ``sure=False``: whether the row
    was written is not known (an error), so nothing is taken in and the digest is left stale."""
    if ticket.item is None:
        return
    sk = RUNNING + plan.entity_name
    try:
        if sure:
            _take_in(table, pk, plan, ticket, added, removed)
    except Exception:  # the row is written: the digest is left stale (built again), the write stands
        logger.exception("the running figures of %s did not take a write in", plan.entity_name)
    finally:
        table.add(pk, sk, {}, removes={"writing": frozenset({ticket.token})})


def _take_in(
    table: ItemTable,
    pk: str,
    plan: Plan,
    ticket: Ticket,
    added: dict[str, Any] | None,
    removed: dict[str, Any] | None,
) -> None:
    sk, seq = RUNNING + plan.entity_name, ticket.seq
    row_sk = f"{plan.entity_name}#{(added or removed or {}).get('id', '')}"
    item: dict[str, Any] | None = ticket.item
    for attempt in range(APPLY_ATTEMPTS):
        if item is None:
            return
        for prefix in ("", "b_"):  # the digest, or the build under way
            if item.get(prefix + "shape") != plan.shape or item.get(prefix + "state") is None:
                continue
            version = int(item.get(prefix + "version", -1))
            if version == seq - 1:
                state = json.loads(item[prefix + "state"])
                counted = not prefix or row_sk <= item.get("b_after", "")  # a build counts rows it has read
                if counted and removed is not None:
                    _change(plan, state, removed, -1)
                if counted and added is not None:
                    _change(plan, state, added, 1)
                changes: dict[str, Any] = {prefix + "version": seq}
                if counted and (added is not None or removed is not None):
                    text = json.dumps(state, ensure_ascii=False)
                    if _too_large(text):  # grown past what an item holds: this shape's figures read rows
                        table.update(pk, sk, {"skip": plan.shape, "state": None, "b_state": None})
                        return
                    changes[prefix + "state"] = text
                try:
                    table.update(pk, sk, changes, expect={prefix + "version": seq - 1})
                    return
                except ConflictError:
                    break
            if version > seq - 1 or len(item.get("writing") or ()) <= 1:
                return  # nothing earlier is in flight to wait for: left stale, a build follows
            time.sleep(0.002 * (attempt + 1))  # an earlier write is still taking its change in
            break
        else:
            return
        item = table.get(pk, sk)


def digest(
    table: ItemTable, pk: str, plan: Plan, page: Callable[[str], tuple[list[dict[str, Any]], str | None]]
) -> tuple[dict[str, Any] | None, bool]:
    """The entity's digest: as kept, when it has every finished write; else built, or built further, from the rows
    (``page(after)``: up to CHUNK rows whose key sorts after ``after``, oldest first, and the last one's key, None
    after the last) for up to BUILD_S under a lease no write passes. With it, whether none will come (``True``:
    this shape's figures read rows for good) while there is none."""
    sk = RUNNING + plan.entity_name
    item = table.get(pk, sk) or {}
    now = _ms()
    writing = set(item.get("writing") or ())
    dead = {token for token in writing if now - _started(token) > STUCK_MS}
    if dead:  # writes that died between their start and end: no longer in flight (taking them out twice is as once)
        table.add(pk, sk, {}, removes={"writing": frozenset(dead)})
        writing -= dead
    in_flight = len(writing)
    # writes still in flight are not in it yet: the digest as of the writes that finished
    settled = int(item.get("version", -1)) >= int(item.get("seq", 0)) - in_flight
    if item.get("shape") == plan.shape and item.get("state") and settled:
        state: dict[str, Any] = json.loads(item["state"])
        if known(state):
            return state, False
    if item.get("skip") == plan.shape:
        return None, True
    if in_flight:
        return None, False
    return _build(table, pk, plan, page)


def _build(
    table: ItemTable, pk: str, plan: Plan, page: Callable[[str], tuple[list[dict[str, Any]], str | None]]
) -> tuple[dict[str, Any] | None, bool]:
    sk = RUNNING + plan.entity_name
    now = _ms()
    lease = now + LEASE_MS
    try:  # only while no write is in flight and no other build holds it
        item = table.add(pk, sk, {"seq": 0}, {"lease": lease}, below={"lease": now}, empty=("writing",))
    except ConflictError:
        return None, False
    try:
        seq = int(item.get("seq", 0))
        # a save lands only under this lease and while no write has started: a save delayed past the lease (a
        # pause, a throttled retry) while a write went ahead is dropped, never kept over the write
        held = {"lease": lease, "seq": seq}
        if item.get("b_shape") == plan.shape and item.get("b_version") == seq and item.get("b_state") is not None:
            after, state = str(item.get("b_after", "")), json.loads(item["b_state"])
        else:  # anew: a write that was not taken in, another shape, or none yet
            after, state = "", {}
        started = time.monotonic()
        while True:
            rows, last = page(after)
            if _ms() > lease - LEASE_MARGIN_MS:  # too slow: writes may pass the lease soon, keep nothing
                return None, False
            for row in rows:
                _change(plan, state, row, 1)
            text = json.dumps(state, ensure_ascii=False)
            if _too_large(text) or any(c.get("over") for d in _digests(state) for c in d["cols"].values()):
                table.update(pk, sk, {"skip": plan.shape, "state": None, "b_state": None}, expect=held)
                return None, True  # this shape's figures read rows (until a revision gives them another)
            if last is None:  # every row read: the digest
                # (``busy``, ``busy_at``: the counter of writes in flight that ``writing`` replaced, gone with it)
                done = {"state": text, "version": seq, "shape": plan.shape, "busy": None, "busy_at": None}
                table.update(pk, sk, {**done, "b_state": None, "b_after": None, "skip": None}, expect=held)
                return (state if known(state) else None), False
            after = last
            if time.monotonic() - started > BUILD_S:  # the rest on the next figures call
                progress = {"b_state": text, "b_after": after, "b_version": seq, "b_shape": plan.shape}
                table.update(pk, sk, {**progress, "state": None}, expect=held)
                return None, False
    except ConflictError:
        return None, False  # the lease was taken over (this build outlived it): nothing kept
    finally:
        with contextlib.suppress(ConflictError):
            table.update(pk, sk, {"lease": 0}, expect={"lease": lease})


def _digests(state: dict[str, Any]) -> list[dict[str, Any]]:
    return [d for by_key in state.values() for d in by_key.values()]


# ---- figures from it ----------------------------------------------------------------------------------------


class _Column:
    """A column as the digest knows it, for the functions that read it."""

    __slots__ = ("col", "name")

    def __init__(self, name: str, col: dict[str, Any] | None) -> None:
        self.name, self.col = name, col or {"n": 0}

    def __getitem__(self, index: int) -> Any:
        """The first row's value (``[0]``) or the last's (``[-1]``), null or not; IndexError without rows."""
        entries = self.col.get("head" if index == 0 else "tail") or []
        if not entries:
            raise IndexError("no rows")
        return entries[0 if index == 0 else -1][2]

    def paid(self, payers: _Column) -> tuple[list[str], list[float]]:
        """Payers and what each paid, as settle reads its two columns."""
        by = self.col.get("by", {}).get(payers.name, {})
        return list(by), [cents / 100 for cents, _ in by.values()]

    def n(self) -> int:
        return int(self.col["n"])

    def total(self) -> Any:
        exact = Decimal(self.col.get("s", "0"))
        return int(exact) if exact == exact.to_integral_value() else bounded(float(exact))

    def mean(self) -> float | None:
        return bounded(float(Decimal(self.col["s"]) / self.col["n"])) if self.col["n"] else None

    def side(self, name: str) -> Any:
        entries = self.col.get(name) or []
        if not entries:
            return None
        entry = entries[-1] if name in ("hi", "last") else entries[0]
        return entry[2] if name in ("first", "last") else entry[0]

    def count(self, value: Any) -> int:
        return int(self.col.get("v", {}).get(_value_key(value), 0))

    def values(self) -> list[Any]:
        return [json.loads(key) for key in self.col.get("v", {})]


def _settle(payers: _Column, amounts: _Column, people: Any) -> list[dict[str, Any]]:
    names, paid = amounts.paid(payers)
    return settle(names, paid, people)


def _functions(rows: int, today: dt.date, work: Work) -> dict[str, Any]:
    base = column_functions(rows, today, work)

    def over(name: str, answer: Any) -> Any:
        fn = base[name]
        return lambda *args: answer(*args) if args and isinstance(args[0], _Column) else fn(*args)

    return {
        **base,
        "sum": over("sum", lambda c: c.total()),
        "avg": over("avg", lambda c: c.mean()),
        "min": over("min", lambda c: c.side("lo")),
        "max": over("max", lambda c: c.side("hi")),
        "first": over("first", lambda c: c.side("first")),
        "last": over("last", lambda c: c.side("last")),
        "count": over("count", lambda c: c.n()),
        "count_where": over("count_where", lambda c, value: c.count(value)),
        "streak": over("streak", lambda c: streak(c.values(), today)),
        "settle": over("settle", lambda payers, amounts, people=(): Data(_settle(payers, amounts, people))),
    }


def figures(
    plan: Plan, entity: Entity, op: AggregateOp, state: dict[str, Any], names: dict[str, Any], today: dt.date
) -> dict[str, Any]:
    """The operation's answer over the digest, shaped as operations._over shapes it over rows."""
    fields = entity.fields

    def metrics(digest: dict[str, Any] | None) -> dict[str, Any]:
        digest = digest or {"rows": 0, "cols": {}}
        columns = {c: _Column(c, digest["cols"].get(c)) for c in plan.columns}
        work = Work(expressions.MAX_WORK)
        functions = _functions(int(digest["rows"]), today, work)
        return expressions.evaluate(op.metrics, {**names, **columns}, functions, operators(work))

    if op.group_by is None:
        return {"metrics": metrics(state.get("", {}).get(""))}
    groups = state.get(op.group_by, {})
    order = {v: i for i, v in enumerate(fields[op.group_by].enum or [])}
    keys = sorted(groups, key=lambda k: (order.get(k, len(order)), k))
    return {"groups": [{"key": key, "metrics": metrics(groups[key])} for key in keys]}
