"""The expression language, as one registry: every function an expression may call, where, and what it means.

Plan check (toolgen/program.py) allows exactly these names in each context, the runtime
(toolgen/runtime/functions.py) binds exactly these (a unit test compares the two), and ``describe_functions`` and
``SEMANTICS`` say the same in English for the ToolProgram's JSON schema and a model's prompt, so a planner is told
what the runtime does rather than a hand-kept copy of it. Issue 31 added what a planning model needed and could not
say: absent values (given, coalesce), calendar arithmetic, logarithms and roots, lists as values, and filtered or
weighted figures over rows. Data only: no pydantic and nothing from the runtime, which imports this at cold start.
"""

from __future__ import annotations

from dataclasses import dataclass

AGGREGATE = "aggregate"  # an aggregate's metrics: names are whole columns (lists), functions walk the rows
ROW = "row"  # one row's values: a list's computed fields and where, a create's derived fields, an aggregate's where
COMPUTE = "compute"  # a compute or fetch operation's outputs over its inputs, constants and earlier outputs
CONTEXTS = (AGGREGATE, ROW, COMPUTE)
MAX_ROW_PASSES = 100  # an aggregate's metrics together: walks of its rows (program.py's check_row_passes)
POWER_PASSES = 5  # a power over a column, item by item (x ** 2, pow(x, 2)), costs up to five walks
_ALL = frozenset(CONTEXTS)
_SCALAR = frozenset({ROW, COMPUTE})


@dataclass(frozen=True)
class Function:
    """One callable name. ``passes``: in an aggregate, how many walks of the rows one distinct call costs (0: it
    does scalar work); ``lists``: it may give a list; ``elementwise``: on lists it works item by item, as ``**``."""

    signature: str
    contexts: frozenset[str]
    meaning: str
    passes: int = 0
    lists: bool = False
    elementwise: bool = False

    @property
    def name(self) -> str:
        return self.signature.split("(", 1)[0]

    @property
    def arity(self) -> tuple[int, int | None]:
        """The fewest and most arguments the signature takes (None: any number)."""
        params = self.signature[len(self.name) + 1 : -1]
        required, _, optional = params.partition("[")
        count = len([p for p in required.split(",") if p.strip()])
        if "..." in params:
            return count - ("..." in required), None
        return count, count + len([p for p in optional.split(",") if p.strip(" ]")])


_f = Function  # short, so each entry fits a line or two
_AGG = frozenset({AGGREGATE})
REGISTRY: tuple[Function, ...] = (
    # absent values
    _f("given(x)", _ALL, "true when x has a value (is not null)"),
    _f("coalesce(a, b, ...)", _ALL, "the first argument that is not null, else null", lists=True),
    # numbers
    _f(
        "round(x[, digits])",
        _ALL,
        "x rounded to digits decimal places (a literal whole number 0 to 15; default 0); each item of a list",
        lists=True,
        elementwise=True,
    ),
    _f("abs(x)", _ALL, "x without its sign (each item of a list)", lists=True, elementwise=True),
    _f("floor(x)", _ALL, "the largest whole number not above x (each item of a list)", lists=True, elementwise=True),
    _f("ceil(x)", _ALL, "the smallest whole number not below x (each item of a list)", lists=True, elementwise=True),
    _f(
        "log(x[, base])",
        _ALL,
        "the natural logarithm of x (or to base); null when x <= 0 (each item of a list)",
        lists=True,
        elementwise=True,
    ),
    _f("log10(x)", _ALL, "the base-10 logarithm of x; null when x <= 0", lists=True, elementwise=True),
    _f("exp(x)", _ALL, "e to the power x; out of range past the float range", lists=True, elementwise=True),
    _f("sqrt(x)", _ALL, "the square root of x; null when x < 0 (each item of a list)", lists=True, elementwise=True),
    _f("pow(x, y)", _ALL, "x ** y, bounded as ** is (item by item on lists)", lists=True, elementwise=True),
    # lists (compute, row) and columns (aggregate): null items are skipped
    _f("sum(values)", _ALL, "the total of the items that are not null (0 when there are none)", passes=1),
    _f("avg(values)", _ALL, "the mean of the items that are not null; null when there are none", passes=1),
    _f("min(values, ...)", _ALL, "the smallest item of a list, or of several values; nulls skipped", passes=1),
    _f("max(values, ...)", _ALL, "the largest item of a list, or of several values; nulls skipped", passes=1),
    _f("count([values])", _ALL, "how many items are not null; count() in a metric: the number of rows", passes=1),
    _f("count_where(values, value)", _ALL, "how many items equal value", passes=1),
    _f("sum_where(values, keys, key)", _ALL, "the total of values whose parallel item in keys equals key", passes=1),
    _f("avg_where(values, keys, key)", _ALL, "the mean of values whose parallel item in keys equals key", passes=1),
    _f(
        "sumproduct(a, b)",
        _ALL,
        "the sum of a[i] * b[i] over parallel lists (pairs with a null skipped; null when their lengths differ)",
        passes=1,
    ),
    _f(
        "lookup(table, key)",
        _ALL,
        "a constant table (an object) read at key, null when absent (a whole number "
        "also finds its text form); a list of keys gives the list of their values",
        lists=True,
        passes=1,
    ),
    _f("item(values, i)", _SCALAR, "the i-th item of a list, counting from 0; null past either end"),
    _f("first(column)", _AGG, "the oldest value that is not null (rows by date, else as made)", passes=1),
    _f("last(column)", _AGG, "the newest value that is not null (rows by date, else as made)", passes=1),
    _f("pick(column)", _AGG, "one value that is not null, chosen at random", passes=1),
    _f("streak(dates)", _AGG, "consecutive days, ending today or yesterday, with a row", passes=4),
    _f(
        "settle(payers, amounts[, people])",
        _AGG,
        "who pays whom, as a list of {from, to, amount}, so that everyone has paid an equal share",
        passes=10,
        lists=True,
    ),
    # dates, in every context (a metric may take days_until(max(due))): ISO text 'YYYY-MM-DD' in and out ('MM-DD' is
    # its next occurrence); null for anything unreadable
    _f("today()", _ALL, "today's date"),
    _f("date(year, month, day)", _ALL, "that date, the day clamped to the month's end; null when out of range"),
    _f("year(date)", _ALL, "the date's year"),
    _f("month(date)", _ALL, "the date's month, 1 to 12"),
    _f("day_of_month(date)", _ALL, "the date's day of the month, 1 to 31"),
    _f("weekday(date)", _ALL, "the date's day of the week: 1 Monday ... 7 Sunday"),
    _f("add_days(date, n)", _ALL, "the date n days later (negative: earlier)"),
    _f(
        "add_months(date, n)",
        _ALL,
        "the date n months later (negative: earlier), the day kept or clamped to the month's end; |n| at most 12,000",
    ),
    _f("days_between(a, b)", _ALL, "days from date a to date b (negative when b is earlier)"),
    _f("months_between(a, b)", _ALL, "whole months from date a to date b (negative when b is earlier)"),
    _f("years_between(a, b)", _ALL, "the year of b minus the year of a"),
    _f("days_until(date)", _ALL, "days from today to the date (negative when past)"),
    _f("days_since(date)", _ALL, "days from the date to today (negative when ahead)"),
    _f("workdays_until(date)", _ALL, "Monday-to-Friday days after today up to the date, included (0 if past)"),
    _f("next_yearly(date)", _ALL, "the next date, today included, on the date's month and day (a birthday)"),
    _f(
        "next_monthly(day)",
        _ALL,
        "the next date, today included, on that day of the month (1 to 31, clamped to shorter months)",
    ),
    _f("next_weekly(weekday)", _ALL, "the next date, today included, on that weekday (1 Monday ... 7 Sunday)"),
    _f(
        "next_every(start, days)",
        _ALL,
        "the first date, today or later, of start, start + days, start + 2 * "
        "days, ... (every other Tuesday: next_every(a Tuesday, 14)); days 1 to 100,000",
    ),
    _f("hours_between(start, end)", _ALL, "hours from clock time start 'HH:MM' to end (past midnight counts)"),
)
FUNCTIONS: dict[str, Function] = {f.name: f for f in REGISTRY}


def function_names(context: str) -> frozenset[str]:
    """The names an expression may call in ``context`` (AGGREGATE, ROW or COMPUTE)."""
    if context not in CONTEXTS:
        raise ValueError(f"no expression context {context!r}; one of {CONTEXTS}")
    return frozenset(f.name for f in REGISTRY if context in f.contexts)


def describe_functions(context: str) -> str:
    """The functions of ``context``, one line each: ``signature: meaning``."""
    names = function_names(context)
    return "\n".join(f"{f.signature}: {f.meaning}" for f in REGISTRY if f.name in names)


SEMANTICS = """\
An expression is one Python-like formula of at most 300 characters: numbers, 'text', true/false as True/False, \
null as None, + - * / // % **, comparisons, and/or/not, x if c else y, subscripts table['key'] and values[0], and \
calls of the functions listed. Names are the entity's fields (in a metric, a field names the whole column, a list), \
a compute's inputs, the constants, and outputs defined earlier. A name without a value is null (None), never \
missing: test it with given(x) or x is not None, or replace it with coalesce(x, 0). Arithmetic with null is null: \
a figure that cannot be computed (a null, 0/0, log of 0) is null, never 0. A list (a column, a list input) with a \
number applies the operation to each item; two lists of equal length are zipped item by item; lists of different \
lengths give null; a null item stays null; at most 10,000 items. Dates are ISO text 'YYYY-MM-DD' ('MM-DD' is its \
next occurrence) and times 'HH:MM'. round's digits are a literal 0 to 15. Not allowed: % on text, keyword \
arguments, attribute access (x.y), list literals, comprehensions, lambdas, strings over 60 characters."""
