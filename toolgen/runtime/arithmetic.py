"""The expression evaluator's arithmetic, bounded by construction: no operation costs more than a few microseconds
or yields more than a tool can answer with.

simpleeval bounds the length of strings and lists an operator builds; the rest is here. Integers range as far as
floats do (MAX_INT_BITS): past that a figure is out of range, never a 4,300-digit number that JSON cannot be
written with. A power is refused before it is computed when its size alone would pass the bound; ``round`` takes
only a few digits (``round(x, -10 ** 9)`` would compute 10 ** (10 ** 9)); ``%`` is a remainder and never formats
text (``'%999999999d' % x`` is a gigabyte). A figure that is too large, or not a real number (the square root of a
negative), raises OutOfRange, which the evaluator tells apart from a figure that merely cannot be computed.

Lists (issue 31): + - * / // % ** between a list and a number apply to each item, and between two lists of one
length, item by item; a null item stays null, an item that cannot be computed (x / 0) is null, lists of different
lengths are a figure that cannot be computed. Only numbers are combined so (text would let 10,000 items each grow
to simpleeval's 100,000 characters), results hold at most MAX_ITEMS items, and every item an evaluation walks is
counted against its Work, so that 300 characters over 10,000-item lists cannot run for seconds. Standard library
and simpleeval only, as everything a tool's cold start imports.
"""

from __future__ import annotations

import ast
import math
import operator
from collections.abc import Callable, Iterable
from itertools import repeat
from typing import Any

from simpleeval import DEFAULT_OPERATORS, IterableTooLong, safe_add, safe_mult

from toolgen.bounds import MAX_ROUND_DIGITS
from toolgen.language import POWER_PASSES

MAX_INT_BITS = 1024  # 2 ** 1024 is past the largest float: any integer figure can become a float and be compared
MAX_FLOAT_EXPONENT = 100_000  # a float power costs the same whatever its size; only its range is checked
MAX_ITEMS = 10_000  # of a list an operation builds: as many as an aggregate's rows
_NUMBERS = frozenset({int, float, bool})


class OutOfRange(ArithmeticError):
    """A figure past what a tool carries: beyond the float range, an integer past MAX_INT_BITS, or not real."""


class Data(list[Any]):
    """A list of plain values (a column of what rows store, a checked input, an item-by-item result): numbers,
    text, booleans, None, and lists and dicts of them; never a function or a module, so the evaluator need not
    search it for one (toolgen/runtime/expressions.py)."""


class Work:
    """The list items one evaluation may still walk (in arithmetic and list functions); past them, OutOfRange."""

    def __init__(self, items: int) -> None:
        self.left = items

    def spend(self, items: int) -> None:
        self.left -= items
        if self.left < 0:
            raise OutOfRange("more list items than one answer may walk")


def bounded(value: Any) -> Any:
    """``value`` unchanged if it is in range (or not a number); OutOfRange otherwise."""
    if isinstance(value, int) and value.bit_length() > MAX_INT_BITS:
        raise OutOfRange("integer too large")
    if isinstance(value, float) and not math.isfinite(value):
        raise OutOfRange("number too large")  # only an overflow makes one: every input and constant is finite
    if isinstance(value, complex):
        raise OutOfRange("not a real number")
    return value


def power(base: Any, exponent: Any) -> Any:
    """``base ** exponent``, refused before it is computed when the result would be out of range."""
    if isinstance(base, float) or isinstance(exponent, float) or (isinstance(exponent, int) and exponent < 0):
        if abs(exponent) > MAX_FLOAT_EXPONENT:
            raise OutOfRange("power too large")
        if base < 0 and not float(exponent).is_integer():
            raise OutOfRange("not a real number")  # Python would answer a complex number
        if base == 0 and exponent < 0:
            raise ZeroDivisionError("0 to a negative power")
        try:
            return bounded(math.pow(base, exponent))
        except OverflowError as e:
            raise OutOfRange("power too large") from e
    # |base| >= 2 ** (bits - 1), so the result has at least (bits - 1) * exponent bits: known before computing
    whole = isinstance(base, int) and isinstance(exponent, int)
    if whole and abs(base) > 1 and (abs(base).bit_length() - 1) * exponent > MAX_INT_BITS:
        raise OutOfRange("power too large")
    return bounded(operator.pow(base, exponent))


def remainder(left: Any, right: Any) -> Any:
    """``left % right`` for numbers only: on text, ``%`` would format it with widths the text itself sets."""
    if isinstance(left, str | bytes):
        raise TypeError("'%' does not format text in an expression")
    return bounded(operator.mod(left, right))


def round_to(value: Any, digits: Any = 0) -> Any:
    """``value`` rounded to 0..MAX_ROUND_DIGITS decimal places (None stays None)."""
    if isinstance(digits, bool) or not isinstance(digits, int) or not 0 <= digits <= MAX_ROUND_DIGITS:
        raise ValueError(f"round takes 0 to {MAX_ROUND_DIGITS} digits")
    return None if value is None else round(value, digits)


def _checked(fn: Callable[[Any, Any], Any]) -> Callable[[Any, Any], Any]:
    def checked(left: Any, right: Any) -> Any:
        if isinstance(left, list) or isinstance(right, list):
            raise TypeError("bitwise operation on a list")  # + - * / // % ** are item by item (_lists)
        try:
            return bounded(fn(left, right))
        except OverflowError as e:  # int / int past the float range, and the like
            raise OutOfRange(str(e)) from e
        except IterableTooLong as e:  # simpleeval's bound on a string or list an operator builds
            raise OutOfRange(str(e)) from e

    return checked


def each(fn: Callable[[Any, Any], Any], left: Any, right: Any, work: Work) -> Data:
    """``fn`` over a list and a number, or two lists of one length zipped, item by item: a null item stays null,
    and so does one that cannot be computed (x / 0)."""
    lefts: Iterable[Any]
    rights: Iterable[Any]
    if isinstance(left, list) and isinstance(right, list):
        if len(left) != len(right):
            raise ValueError("lists of different lengths")
        lefts, rights = left, right
    elif isinstance(left, list):
        lefts, rights = left, repeat(_number(right), len(left))
    else:
        lefts, rights = repeat(_number(left), len(right)), right
    size = len(left) if isinstance(left, list) else len(right)
    if size > MAX_ITEMS:
        raise OutOfRange(f"a list of more than {MAX_ITEMS} items")
    work.spend(size * (POWER_PASSES if fn is power else 1))  # a whole-number power item: ~1 us, five others
    items = Data()
    for a, b in zip(lefts, rights, strict=True):
        if a is None or b is None:
            items.append(None)
            continue
        if type(a) not in _NUMBERS or type(b) not in _NUMBERS:  # text could grow 10,000 times over
            raise TypeError("arithmetic on a list item that is not a number")
        try:
            value = fn(a, b)
        except (ZeroDivisionError, ValueError):
            value = None
        except OverflowError as e:
            raise OutOfRange(str(e)) from e
        # bounded(), inline: this loop is the cost of list arithmetic
        if (type(value) is float and not math.isfinite(value)) or (
            type(value) is int and value.bit_length() > MAX_INT_BITS
        ):
            raise OutOfRange("number too large")
        items.append(value)
    return items


def _number(value: Any) -> Any:
    if type(value) not in _NUMBERS:  # a null applied to a list is a figure that cannot be computed, not a list of nulls
        raise TypeError("arithmetic between a list and something other than a number")
    return value


def _lists(scalar: Callable[[Any, Any], Any], item: Callable[[Any, Any], Any], work: Work) -> Callable[[Any, Any], Any]:
    def apply(left: Any, right: Any) -> Any:
        if isinstance(left, list) or isinstance(right, list):
            return each(item, left, right, work)
        return scalar(left, right)

    return apply


def _negated(work: Work) -> Callable[[Any], Any]:
    def negate(value: Any) -> Any:
        if isinstance(value, list):
            return each(lambda item, _: -item, value, 0, work)
        return operator.neg(value)

    return negate


# Item by item, numbers only: no string could grow, and % could only be a remainder.
_ITEMS: dict[type, Callable[[Any, Any], Any]] = {
    ast.Add: operator.add,
    ast.Sub: operator.sub,
    ast.Mult: operator.mul,
    ast.Div: operator.truediv,
    ast.FloorDiv: operator.floordiv,
    ast.Mod: operator.mod,
    ast.Pow: power,
}
_SCALARS: dict[type, Callable[[Any, Any], Any]] = {
    ast.Add: _checked(safe_add),
    ast.Sub: _checked(operator.sub),
    ast.Mult: _checked(safe_mult),
    ast.Div: _checked(operator.truediv),
    ast.FloorDiv: _checked(operator.floordiv),
    ast.Mod: remainder,
    ast.Pow: power,
}


def operators(work: Work) -> dict[type, Callable[..., Any]]:
    """simpleeval's operators (its string-length checks kept), every arithmetic result bounded, no bit shifts (their
    cost grows with the shift), powers and remainders as above, and + - * / // % ** and unary - item by item on
    lists, each item counted against ``work``."""
    ops: dict[type, Callable[..., Any]] = {
        op: fn for op, fn in DEFAULT_OPERATORS.items() if op not in (ast.LShift, ast.RShift)
    }
    for bitwise in (ast.BitXor, ast.BitOr, ast.BitAnd):
        ops[bitwise] = _checked(DEFAULT_OPERATORS[bitwise])
    for op, scalar in _SCALARS.items():
        ops[op] = _lists(scalar, _ITEMS[op], work)
    ops[ast.USub] = _negated(work)
    return ops
