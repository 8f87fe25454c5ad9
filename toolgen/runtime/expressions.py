"""Safe expressions for aggregate, compute, computed-field and derived-field rules, evaluated by simpleeval.

Never eval/exec: expressions were checked when the program was validated (toolgen/program.py: parse tree, names,
length, round's digits, no '%' formatting), and here they run with only the names and functions of their context
bound (toolgen/runtime/functions.py, named by toolgen/language.py), with bounded arithmetic
(toolgen/runtime/arithmetic.py: integers within the float range, powers refused before they are computed, no text
formatting, lists item by item) and a cap on the rows an aggregate reads and on the list items one evaluation
walks. A figure that cannot be computed (no rows, 0/0, a null) is None rather than an error. A figure out of range
(an overflow, a complex result) is None too in a row or an aggregate, where stored data made it and the rest of the
answer still serves; where the caller's own inputs made it (a compute operation, a derived field of a row being
created), it is their 422.

Every declared name is bound (issue 31): an input not given, a field a row lacks, is None, so ``given(x)`` and
``coalesce(x, 0)`` can speak of it; before, the name was missing and the whole figure silently None.
"""

from __future__ import annotations

import ast
import datetime as dt
import functools
from collections.abc import Callable, Iterable
from typing import Any

from simpleeval import InvalidExpression, NameNotDefined, SimpleEval

from toolgen.language import FUNCTIONS, MAX_ROW_PASSES
from toolgen.runtime import dates
from toolgen.runtime.arithmetic import MAX_ITEMS, Data, OutOfRange, Work, bounded, operators
from toolgen.runtime.errors import Invalid
from toolgen.runtime.functions import column_functions, scalar_functions, streak
from toolgen.runtime.messages import Message

__all__ = [
    "MAX_ROWS",
    "MAX_WORK",
    "Data",
    "Work",
    "aggregate",
    "compute",
    "evaluate",
    "next_occurrence",
    "row_matches",
    "row_values",
    "streak",
]

MAX_ROWS = 10_000
# List items one evaluation may walk: an aggregate's MAX_ROW_PASSES passes over MAX_ROWS rows (what plan check
# allows its metrics), a compute's lists alike; a row's figures, one row of a page of up to 1,000, far fewer.
MAX_WORK = MAX_ROW_PASSES * MAX_ROWS
ROW_WORK = MAX_ITEMS


_PLAIN = frozenset({Data, int, float, str, bool, type(None)})
# An expression's tree, parsed once per process rather than once per row and expression (a list's page evaluates its
# computed fields for up to 1,000 rows); simpleeval never changes a tree it evaluates.
_parsed = functools.lru_cache(maxsize=1024)(SimpleEval.parse)


class _Evaluator(SimpleEval):
    """simpleeval, except that it does not walk a list of data each time an expression names it, and that a name
    is only ever a value.

    After every step simpleeval checks the result holds no forbidden function, item by item: each mention of a
    10,000-row column cost 3-4 ms (settle's 10,000 transfers more), and a metric's 300 characters can mention one
    40 times, in each of 20 metrics. Data holds only plain values, so there is nothing in it to find. And simpleeval
    reads a name it has no value for as the function of that name: an input named ``month`` that was not given would
    have been the month function, which no answer can carry.
    """

    def _check_disallowed_items(self, item: Any) -> None:
        if type(item) not in _PLAIN:
            super()._check_disallowed_items(item)

    def _eval_name(self, node: ast.Name) -> Any:
        try:
            return self.names[node.id]
        except KeyError:
            raise NameNotDefined(node.id, self.expr) from None


def _today() -> dt.date:
    return dt.datetime.now(dt.UTC).date()


def _names(declared: Iterable[str], *values: dict[str, Any]) -> dict[str, Any]:
    """Every declared name (None unless given), then ``values`` in order, lists as Data (checked input, JSON)."""
    names: dict[str, Any] = dict.fromkeys(declared)
    for given in values:
        names.update(given)
    return {k: Data(v) if type(v) is list else v for k, v in names.items()}


_CHEAP = {name for name, f in FUNCTIONS.items() if f.passes == 0 and not f.elementwise} | {"pick"}  # or random


class _Memo:
    """One aggregate's work, each distinct piece done once: a column function's answer, and an item-by-item result
    over a column, kept for the evaluation. 300 characters can call streak 22 times over 10,000 rows, in each of 20
    metrics; now each column is walked once per distinct call, as plan check counts them (check_row_passes), and
    each walk is counted against the evaluation's Work. Keyed by the arguments' identity (a column is one list
    throughout, and ``amount * price`` the same list each time), which the kept arguments hold on to."""

    def __init__(self, work: Work, rows: int) -> None:
        self.kept: dict[tuple[Any, ...], tuple[tuple[Any, ...], Any]] = {}
        self.work, self.rows = work, rows

    def _call(self, name: Any, fn: Callable[..., Any], passes: int, args: tuple[Any, ...]) -> Any:
        key = (name, *((type(a), a) if isinstance(a, str | int | float | None) else id(a) for a in args))
        if key not in self.kept:
            if passes:
                self.work.spend(passes * self.rows)
            self.kept[key] = (args, fn(*args))
        return self.kept[key][1]

    def functions(self, functions: dict[str, Callable[..., Any]]) -> dict[str, Callable[..., Any]]:
        """The column functions remembered; scalar ones (cheap) and pick (random) called each time."""

        def remember(name: str, fn: Callable[..., Any]) -> Callable[..., Any]:
            passes = FUNCTIONS[name].passes
            return lambda *args: self._call(name, fn, passes, args)

        return {name: fn if name in _CHEAP else remember(name, fn) for name, fn in functions.items()}

    def operators(self, ops: dict[type, Callable[..., Any]]) -> dict[type, Callable[..., Any]]:
        """The operators, an item-by-item result (an operand is a list) remembered."""

        def remember(op: type, fn: Callable[..., Any]) -> Callable[..., Any]:
            def call(*args: Any) -> Any:
                return self._call(op, fn, 0, args) if any(isinstance(a, list) for a in args) else fn(*args)

            return call

        lists = (ast.Add, ast.Sub, ast.Mult, ast.Div, ast.FloorDiv, ast.Mod, ast.Pow, ast.USub)
        return {op: remember(op, fn) if op in lists else fn for op, fn in ops.items()}


def aggregate(
    metrics: dict[str, str],
    rows: list[dict[str, Any]],
    columns: list[str],
    *,
    constants: dict[str, Any] | None = None,
    today: dt.date | None = None,
    work: Work | None = None,
) -> dict[str, Any]:
    """Each metric over ``rows`` (oldest first); ``work``: a budget shared with the other groups or periods of the
    same answer (a series of 60 periods walks no more than one aggregate may), else its own."""
    rows = rows[-MAX_ROWS:]
    names = {**_names((), constants or {}), **{c: Data(r.get(c) for r in rows) for c in columns}}
    work = work if work is not None else Work(MAX_WORK)
    memo = _Memo(work, len(rows))
    functions = memo.functions(column_functions(len(rows), today or _today(), work))
    evaluator = _Evaluator(operators=memo.operators(operators(work)), functions=functions, names=names)
    return {name: _safe(evaluator, name, expr) for name, expr in metrics.items()}


def evaluate(
    metrics: dict[str, str],
    names: dict[str, Any],
    functions: dict[str, Callable[..., Any]],
    ops: dict[type, Callable[..., Any]],
) -> dict[str, Any]:
    """Each metric with these names, functions and operators bound (a digest's figures: runtime/running.py)."""
    evaluator = _Evaluator(operators=ops, functions=functions, names=_names((), names))
    return {name: _safe(evaluator, name, expr) for name, expr in metrics.items()}


def compute(
    outputs: dict[str, str],
    inputs: dict[str, Any],
    constants: dict[str, Any],
    *,
    today: dt.date | None = None,
    strict: bool = False,
    labels: dict[str, str] | None = None,
    declared: Iterable[str] = (),
) -> dict[str, Any]:
    """Each output over the checked inputs and the constants; later outputs may use earlier ones.

    ``declared``: the operation's inputs, each bound (None when not given; a constant of its name, as before).
    ``strict``: an output out of range is Invalid (422, named by its label in ``labels``), not None.
    """
    names = _names(declared, constants, inputs)
    work = Work(MAX_WORK)
    functions = scalar_functions(today or _today(), work)
    evaluator = _Evaluator(operators=operators(work), functions=functions, names=names)
    result = {}
    for name, expr in outputs.items():
        label = (labels or {}).get(name, "") if strict else ""
        result[name] = names[name] = _safe(evaluator, name, expr, strict=strict, label=label)
    return result


def next_occurrence(mmdd: str, today: dt.date | None = None) -> str | None:
    """The next date (today included) falling on month-day ``mmdd``."""
    return dates.next_occurrence(mmdd, today or _today())


def row_matches(
    condition: str | None,
    row: dict[str, Any],
    constants: dict[str, Any],
    *,
    today: dt.date,
    fields: Iterable[str] = (),
) -> bool:
    """Whether a row satisfies a program's static ``where`` condition (no condition: every row does)."""
    if not condition:
        return True
    return bool(row_values({"ok": condition}, row, constants, today=today, fields=fields)["ok"])


class _RowEvaluator(_Evaluator):
    """simpleeval, reading ``prev(name)`` as ``name`` on the previous row (None on the first): its argument is a
    name, not a value, so the call is read here rather than bound as a function (program.py checks the name)."""

    def __init__(self, previous: dict[str, Any] | None, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.previous = previous or {}

    def _eval_call(self, node: ast.Call) -> Any:
        if isinstance(node.func, ast.Name) and node.func.id == "prev":
            (name,) = node.args
            return self.previous.get(name.id) if isinstance(name, ast.Name) else None
        return super()._eval_call(node)


def row_values(
    expressions: dict[str, str],
    row: dict[str, Any],
    constants: dict[str, Any],
    *,
    today: dt.date | None = None,
    strict: bool = False,
    labels: dict[str, str] | None = None,
    fields: Iterable[str] = (),
    previous: dict[str, Any] | None = None,
    work: Work | None = None,
) -> dict[str, Any]:
    """Per-row figures (computed fields, derived defaults) over one row's values and the constants, in turn (each may
    read those before it); ``previous``: the values ``prev(name)`` reads (toolgen/runtime/previous.py).

    ``fields``: the entity's, each bound (None when the row lacks it). ``strict`` as for compute: a derived field
    of a row being created is the caller's to fix.
    """
    work = work if work is not None else Work(ROW_WORK)  # a window of rows may share one budget (previous.py)
    evaluator = _RowEvaluator(
        previous,
        operators=operators(work),
        functions=scalar_functions(today or _today(), work),
        names=_names(fields, constants, row),
    )
    found: dict[str, Any] = {}
    for name, expr in expressions.items():  # in turn: a figure may read those before it
        found[name] = evaluator.names[name] = _safe(
            evaluator, name, expr, strict=strict, label=(labels or {}).get(name, "")
        )
    return found


def _safe(evaluator: SimpleEval, name: str, expr: str, *, strict: bool = False, label: str = "") -> Any:
    """The figure; None when it cannot be computed, and when it is out of range unless ``strict``."""
    try:
        return bounded(evaluator.eval(expr, _parsed(expr)))
    except (OutOfRange, OverflowError) as e:
        if not strict:
            return None
        problem = Message("result_out_of_range", name=name, label=label)
        raise Invalid(problem, details={name: "out of range"}) from e
    except (ZeroDivisionError, TypeError, ValueError, KeyError, IndexError, InvalidExpression):
        return None
