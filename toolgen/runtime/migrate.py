"""A row written under an earlier revision of its tool, read as the current revision reads it (rows.py says why
rows are migrated where they are read, not rewritten).

Every migration of a later revision applies, in the program's order: its renames (an old name present and the new
one absent), then its unit factors (numbers only). A field's factors are multiplied together and rounded once, at
the end, to DIGITS significant digits: rounded at each step, km to miles and back again reads 10 km as 9.999999999.

What the migrations do to a row depends only on the revision that wrote it, which of its fields it holds and which
of them are numbers, so they are worked out once per such shape and replayed on every row of it: a page of 1,000
rows of one shape costs one walk through the migrations (a tool may carry 200 of them), not 1,000.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # the runtime reads programs as views (toolgen/runtime/view.py); pydantic is not imported
    from toolgen.program import Migration

DIGITS = 10  # significant digits a unit change keeps: 5 km reads 3.106855961 mi, and converts back to 5
Shape = tuple[int, tuple[str, ...], frozenset[str]]  # the revision that wrote a row, its fields, its numbers
Plan = tuple[dict[str, str], dict[str, float]]  # each field's name now: its stored name; a name now: its factor


def _number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def _scaled(value: float, factor: float) -> float | None:
    """``value`` in a new unit, to DIGITS significant digits (a whole number as an int); None past any number."""
    scaled = float(f"{value * factor:.{DIGITS}g}")
    if not math.isfinite(scaled):  # factors are finite, but enough of them overflow: JSON and DynamoDB hold no inf
        return None
    return int(scaled) if scaled.is_integer() and abs(scaled) < 2**53 else scaled


class Migrations:
    """One entity's migrations, in the program's order."""

    def __init__(self, migrations: list[Migration]) -> None:
        self.migrations = migrations
        self.last = max((m.revision for m in migrations), default=1)  # a row written at it or after reads as it is
        self._plans: dict[Shape, Plan] = {}

    def apply(self, data: dict[str, Any], rev: int) -> dict[str, Any]:
        """A copy of a row's ``data``, written at revision ``rev``, as the current revision reads it."""
        if rev >= self.last:
            return dict(data)
        shape = (rev, tuple(data), frozenset(name for name, value in data.items() if _number(value)))
        plan = self._plans.get(shape)
        if plan is None:
            plan = self._plans[shape] = self._plan(shape)
        names, factors = plan
        migrated = {name: data[stored] for name, stored in names.items()}
        for name, factor in factors.items():
            scaled = _scaled(migrated[name], factor)
            if scaled is None:
                del migrated[name]
            else:
                migrated[name] = scaled
        return migrated

    def _plan(self, shape: Shape) -> Plan:
        rev, stored, numbers = shape
        names = {name: name for name in stored}  # name now: stored name
        factors: dict[str, float] = {}
        for migration in self.migrations:
            if migration.revision <= rev:
                continue
            for old, new in migration.rename.items():
                if old in names and new not in names:
                    names[new] = names.pop(old)
                    if old in factors:
                        factors[new] = factors.pop(old)
            for name, factor in migration.scale.items():
                if names.get(name) in numbers:
                    factors[name] = factors.get(name, 1.0) * factor
        return names, factors
