"""The expression evaluator's arithmetic, bounded by construction: no operation costs more than a few microseconds
or yields more than a tool can answer with.

simpleeval bounds the length of strings and lists an operator builds; the rest is here. Integers range as far as
floats do (MAX_INT_BITS): past that a figure is out of range, never a 4,300-digit number that JSON cannot be
written with. A power is refused before it is computed when its size alone would pass the bound; ``round`` takes
only a few digits (``round(x, -10 ** 9)`` would compute 10 ** (10 ** 9)); ``%`` is a remainder and never formats
text (``'%999999999d' % x`` is a gigabyte). A figure that is too large, or not a real number (the square root of a
negative), raises OutOfRange, which the evaluator tells apart from a figure that merely cannot be computed.
Standard library and simpleeval only, as everything a tool's cold start imports.
"""

from __future__ import annotations

import ast
import math
import operator
from collections.abc import Callable
from typing import Any

from simpleeval import DEFAULT_OPERATORS, IterableTooLong

from toolgen.bounds import MAX_ROUND_DIGITS

MAX_INT_BITS = 1024  # 2 ** 1024 is past the largest float: any integer figure can become a float and be compared
MAX_FLOAT_EXPONENT = 100_000  # a float power costs the same whatever its size; only its range is checked


class OutOfRange(ArithmeticError):
    """A figure past what a tool carries: beyond the float range, an integer past MAX_INT_BITS, or not real."""


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
            # a whole column (an aggregate's name): 'amount * 10' repeats it to 100,000 items, meaning nothing
            raise TypeError("arithmetic on a whole column")
        try:
            return bounded(fn(left, right))
        except OverflowError as e:  # int / int past the float range, and the like
            raise OutOfRange(str(e)) from e
        except IterableTooLong as e:  # simpleeval's bound on a string or list an operator builds
            raise OutOfRange(str(e)) from e

    return checked


_BINARY = (ast.Add, ast.Sub, ast.Mult, ast.Div, ast.FloorDiv, ast.BitXor, ast.BitOr, ast.BitAnd)
# simpleeval's operators (its string-length checks kept), every arithmetic result bounded, no bit shifts (their cost
# grows with the shift), powers and remainders as above.
OPERATORS: dict[type, Callable[..., Any]] = {
    op: (_checked(fn) if op in _BINARY else fn)
    for op, fn in DEFAULT_OPERATORS.items()
    if op not in (ast.LShift, ast.RShift)
}
OPERATORS[ast.Pow] = power
OPERATORS[ast.Mod] = remainder
