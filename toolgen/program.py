"""The ToolProgram: what a generated tool *is*, as validated data rather than generated code.

The planner emits one, the spec and the page are derived from it, and the shared runtime in the base layer
interprets it. Every check that keeps a tool safe and well-formed lives here, so that a program from any planner
(offline rules or an LLM) is held to the same rules before anything is deployed. The functions an expression may
call, and how many arguments each takes, are toolgen/language.py's registry, which the runtime binds exactly.
"""

from __future__ import annotations

import ast
import json
import math
import re
from typing import Annotated, Any, Literal
from urllib.parse import urlsplit

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from toolgen import language
from toolgen.bounds import MAX_ROUND_DIGITS
from toolgen.program_values import (
    MAX_SETTINGS,
    default_problem,
    seed_problem,
    setting_problem,
    typed_default,
)

FieldType = Literal["string", "text", "number", "integer", "boolean", "date", "time", "list"]
ItemType = Literal["number", "integer", "string"]
NAME = r"^[a-z][a-z0-9_]{0,39}$"
OP_ID = r"^[a-z][A-Za-z0-9]{0,63}$"
PATH = r"^/([a-z0-9_-]+(/[a-z0-9_-]+)*)?(/\{id\})?$"
MAX_EXPR = 300
# Names an expression may call, by context: toolgen/language.py's registry, which the runtime binds exactly
# (toolgen/runtime/functions.py; a unit test compares them).
AGGREGATE_FUNCTIONS = language.function_names(language.AGGREGATE)
ROW_FUNCTIONS = language.function_names(language.ROW)
COMPUTE_FUNCTIONS = language.function_names(language.COMPUTE)
# An aggregate's metrics walk up to 10,000 rows per distinct call (the runtime computes each once): settle sorts and
# pairs every payer (~20 ms), streak reads every date (~8 ms), the rest ~0.3 ms. In passes of sum(), at most
# MAX_ROW_PASSES an operation: a worst case of about 200 ms (SECURITY.md, "The tool sandbox"). Arithmetic that may
# be item by item over a column (``amount * price``) is a pass too.
ROW_PASSES = {name: f.passes for name, f in language.FUNCTIONS.items() if f.passes > 1}
MAX_ROW_PASSES = language.MAX_ROW_PASSES
SCALAR_CALLS = frozenset(name for name in AGGREGATE_FUNCTIONS if language.FUNCTIONS[name].passes == 0)
RESERVED = frozenset({"id", "created_at", "updated_at"})
PAGING = frozenset({"limit", "next"})  # a list's own query parameters, so never a filter's
NUMERIC_TYPES = frozenset({"number", "integer", "boolean"})
MAX_REVISIONS = 1000  # of one tool; its history keeps each
MAX_MIGRATIONS = 200  # renames and unit changes a tool's rows carry through its revisions
MAX_HIDDEN = 100  # removed fields an entity keeps the names of
MAX_FIELDS = 30  # of an entity
LANGUAGE_VERSION: Literal[1, 2] = 2  # what a new program is written in (ToolProgram.version)


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class FieldSpec(Strict):
    type: FieldType = Field(
        description="list: a list of items of one type, of any length up to max_items (a group of any size, a "
        "list of rooms): only as an input of a POST compute; parallel lists are zipped by position"
    )
    label: str = Field(default="", max_length=60)
    required: bool = False
    default: Any = Field(
        default=None, description="a value the field accepts; a date's may be '$today' or '$next:MM-DD'"
    )
    enum: list[str] | None = Field(default=None, max_length=50)
    minimum: float | None = None
    maximum: float | None = None
    max_length: int = Field(default=200, ge=1, le=2000)
    items: ItemType | None = Field(default=None, description="a list's item type: number, integer or string")
    max_items: int = Field(default=50, ge=1, le=100, description="a list's most items")

    @model_validator(mode="before")
    @classmethod
    def _default_as_typed(cls, data: Any) -> Any:
        """A default written in another form of its own type is that value: ``30.0`` for an integer is 30 (a probe
        or a page would send "30.0", which an integer refuses), "30" for a number is 30, "true" for a boolean true."""
        if not isinstance(data, dict) or data.get("default") is None:
            return data
        typed = typed_default(data.get("type"), data["default"], data.get("items"))
        return data if typed is data["default"] else {**data, "default": typed}

    @model_validator(mode="after")
    def _default_fits(self) -> FieldSpec:
        """A default is a value the field itself would accept: the probe and the page send it as it is."""
        if (self.type == "list") != (self.items is not None):
            raise ValueError("a list field says its items' type (number, integer or string), and only a list does")
        problem = default_problem(self)
        if problem:
            raise ValueError(problem)
        return self


def _shorthand(value: Any) -> Any:
    """Allow ``{"km": "number"}`` as shorthand for ``{"km": {"type": "number"}}``."""
    if isinstance(value, dict):
        return {k: ({"type": v} if isinstance(v, str) else v) for k, v in value.items()}
    return value


def _check_names(names: Any, what: str) -> None:
    for name in names:
        if not re.match(NAME, name):
            raise ValueError(f"{what} name {name!r} must match {NAME}")


def _text_names(types: dict[str, str], constants: dict[str, Any]) -> set[str]:
    """The names that hold text (a person's words, dates, ids, a text constant): '%' may not format them."""
    texts = {name for name, kind in types.items() if kind not in NUMERIC_TYPES}
    return texts | {name for name, value in constants.items() if isinstance(value, str)}


def check_expression(
    expr: str,
    allowed_names: set[str],
    allowed_calls: frozenset[str],
    *,
    text_names: set[str] | frozenset[str] = frozenset(),
) -> None:
    """Raise ValueError unless ``expr`` is a small arithmetic expression over known names and functions, whose cost
    is bounded by its text (``text_names``: the names known to hold text, which '%' may not format)."""
    if len(expr) > MAX_EXPR:
        raise ValueError(f"expression longer than {MAX_EXPR} characters")
    try:
        tree = ast.parse(expr, mode="eval")
    except SyntaxError as e:
        raise ValueError(f"expression {expr!r} does not parse: {e.msg}") from e
    allowed_nodes = (
        ast.Expression,
        ast.BinOp,
        ast.UnaryOp,
        ast.Constant,
        ast.Name,
        ast.Load,
        ast.Call,
        ast.Subscript,
        ast.IfExp,
        ast.Compare,
        ast.BoolOp,
        ast.operator,
        ast.unaryop,
        ast.cmpop,
        ast.boolop,
    )
    callees = {id(node.func) for node in ast.walk(tree) if isinstance(node, ast.Call)}
    for node in ast.walk(tree):
        if not isinstance(node, allowed_nodes):
            raise ValueError(f"expression {expr!r} uses {type(node).__name__}, which is not allowed")
        if isinstance(node, ast.Call):
            if not isinstance(node.func, ast.Name) or node.func.id not in allowed_calls:
                raise ValueError(f"expression {expr!r} calls something other than {sorted(allowed_calls)}")
            if node.keywords:
                raise ValueError(f"expression {expr!r} uses keyword arguments")
            _check_arity(node.func.id, len(node.args), expr, metric=bool(allowed_calls & _METRIC_ONLY))
        elif isinstance(node, ast.Name):
            # a function may only be called: bare, it would be a function object, not a value
            allowed = node.id in allowed_calls if id(node) in callees else node.id in allowed_names
            if not allowed:
                raise ValueError(f"expression {expr!r} names {node.id!r}, which is not defined here")
        elif isinstance(node, ast.Constant) and isinstance(node.value, str) and len(node.value) > 60:
            raise ValueError(f"expression {expr!r} holds a long string constant")
        elif isinstance(node, ast.Constant) and isinstance(node.value, complex | bytes):  # found by hypothesis: "0J"
            kind = type(node.value).__name__
            raise ValueError(f"expression {expr!r} holds a {kind} constant, which JSON cannot carry")
    _check_bounded(tree, expr, text_names)


# Functions only an aggregate's metrics have: a set of allowed calls holding one is a metric's.
_METRIC_ONLY = frozenset(f.name for f in language.REGISTRY if f.contexts == {language.AGGREGATE})


def _check_arity(name: str, given: int, expr: str, *, metric: bool = True) -> None:
    if name not in language.FUNCTIONS:  # a caller's own function set (tests)
        return
    if name == "count" and given == 0 and not metric:
        raise ValueError(
            f"expression {expr!r}: count() counts rows, only in an aggregate's metrics; count(values) here"
        )
    fewest, most = language.FUNCTIONS[name].arity
    if given < fewest or (most is not None and given > most):
        signature = language.FUNCTIONS[name].signature
        raise ValueError(f"expression {expr!r} calls {name} with {given} arguments: it is {signature}")


def _check_bounded(tree: ast.AST, expr: str, text_names: set[str] | frozenset[str]) -> None:
    """Refuse what only its values could bound (the runtime refuses these too: toolgen/runtime/arithmetic.py).

    ``round(x, -10 ** 9)`` computes 10 ** (10 ** 9), so round's digits are a literal 0..MAX_ROUND_DIGITS; '%' on text
    formats it with the widths the text sets (``'%999999999d' % x`` is a gigabyte), so '%' is a remainder only: no
    string constant and no name known to hold text (a person's input) on its left.
    """
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "round":
            digits = node.args[1] if len(node.args) > 1 else ast.Constant(0)
            value = digits.value if isinstance(digits, ast.Constant) else None
            if len(node.args) > 2 or type(value) is not int or not 0 <= value <= MAX_ROUND_DIGITS:
                raise ValueError(f"expression {expr!r}: round's digits are a whole number 0 to {MAX_ROUND_DIGITS}")
        elif isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mod):
            left = node.left
            text = isinstance(left, ast.Constant) and isinstance(left.value, str)
            if text or (isinstance(left, ast.Name) and left.id in text_names):
                raise ValueError(f"expression {expr!r} formats text with '%', which is not allowed")


def check_row_passes(op_id: str, exprs: list[str]) -> None:
    """Raise ValueError if an aggregate's metrics (already checked to parse) walk its rows too many times: each
    distinct column call, and each distinct piece of arithmetic that may be over a whole column, item by item."""
    walks: set[tuple[str, str]] = set()
    for expr in exprs:
        for node in ast.walk(ast.parse(expr, mode="eval")):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
                f = language.FUNCTIONS.get(node.func.id)
                if f is not None and f.elementwise and any(_may_be_list(a) for a in node.args):
                    walks.add(("**" if node.func.id == "pow" else "", ast.dump(node)))
                elif node.func.id not in SCALAR_CALLS:
                    walks.add((node.func.id, ast.dump(node)))
            elif isinstance(node, ast.BinOp | ast.UnaryOp) and _may_be_list(node):
                walks.add(("**" if isinstance(node.op, ast.Pow) else "", ast.dump(node)))
    weights = {**ROW_PASSES, "**": language.POWER_PASSES}
    passes = sum(weights.get(name, 1) for name, _ in walks)
    if passes > MAX_ROW_PASSES:
        raise ValueError(f"operation {op_id}'s metrics walk the rows {passes} times; at most {MAX_ROW_PASSES}")


_ITEMWISE = (ast.Add, ast.Sub, ast.Mult, ast.Div, ast.FloorDiv, ast.Mod, ast.Pow, ast.USub)


def _may_be_list(node: ast.AST) -> bool:
    """Whether ``node`` may be a list in a metric, where a name is a column: arithmetic on it is a walk."""
    if isinstance(node, ast.BinOp | ast.UnaryOp):
        operands = [node.left, node.right] if isinstance(node, ast.BinOp) else [node.operand]
        return isinstance(node.op, _ITEMWISE) and any(_may_be_list(o) for o in operands)
    if isinstance(node, ast.IfExp | ast.BoolOp):
        return any(_may_be_list(o) for o in ([node.body, node.orelse] if isinstance(node, ast.IfExp) else node.values))
    if isinstance(node, ast.Call):
        f = language.FUNCTIONS.get(node.func.id) if isinstance(node.func, ast.Name) else None
        if f is not None and f.elementwise:  # item by item: a list only when it is given one
            return any(_may_be_list(a) for a in node.args)
        return f is None or f.lists
    return isinstance(node, ast.Name | ast.Subscript)


class Entity(Strict):
    label: str = Field(default="", max_length=60)
    fields: dict[str, FieldSpec] = Field(min_length=1, max_length=MAX_FIELDS)
    # A removed field's values stay on the rows written before (the runtime hides them), so its name stays taken:
    # a field renamed onto it would show those values as its own, and one added under it must hold the same type.
    hidden: dict[str, FieldType] = Field(
        default_factory=dict, max_length=MAX_HIDDEN, description="removed fields: name: the type it had"
    )

    _shorthand = field_validator("fields", mode="before")(_shorthand)

    @field_validator("fields")
    @classmethod
    def _names(cls, fields: dict[str, FieldSpec]) -> dict[str, FieldSpec]:
        _check_names(fields, "field")
        reserved = RESERVED & set(fields)
        if reserved:
            raise ValueError(f"field names {sorted(reserved)} are reserved")
        return fields

    @model_validator(mode="after")
    def _hidden(self) -> Entity:
        _check_names(self.hidden, "hidden field")
        both = set(self.hidden) & set(self.fields)
        if both:
            raise ValueError(f"fields {sorted(both)} are both current and removed")
        return self


PREV = "prev"  # a computed figure's reading of the previous row; only computed figures may call it
PREV_SAID = (
    "prev(name), callable only here, is a field or a computed figure listed before, read on the previous row "
    "(ordered by the {order}, then creation; null on the first)"
)
INPUTS_SAID = (
    "optional query inputs typed and checked like fields (name: spec), named apart from {names}; {readers} read "
    "their values, null when not given and without a default"
)


class OperationBase(Strict):
    id: str = Field(pattern=OP_ID)
    method: Literal["GET", "POST", "PATCH", "DELETE"]
    path: str = Field(pattern=PATH, max_length=80)
    summary: str = Field(default="", max_length=300)


class EntityOperation(OperationBase):
    entity: str


class CreateOp(EntityOperation):
    kind: Literal["create"]
    method: Literal["POST"] = "POST"
    derive: dict[str, str] = Field(
        default_factory=dict, description="field: expression used when the field is not given"
    )
    constants: dict[str, Any] = Field(default_factory=dict)


class ListOp(EntityOperation):
    kind: Literal["list"]
    method: Literal["GET"] = "GET"
    sort: str = Field(default="-created_at", pattern=r"^-?[a-z][a-z0-9_]{0,39}$")
    limit: int = Field(default=100, ge=1, le=1000)
    computed: dict[str, str] = Field(
        default_factory=dict,
        max_length=10,
        description="per-row figures: name: expression; " + PREV_SAID.format(order="date field"),
    )
    filters: list[str] = Field(
        default_factory=list, max_length=10, description="fields a caller may filter on by equality"
    )
    where: str | None = Field(
        default=None, description="only rows for which this expression (over fields, computed and inputs) is true"
    )
    constants: dict[str, Any] = Field(default_factory=dict)
    inputs: dict[str, FieldSpec] = Field(
        default_factory=dict,
        max_length=10,
        description=INPUTS_SAID.format(
            names="fields, computed, constants, limit and next", readers="where and computed"
        ),
    )

    _shorthand = field_validator("inputs", mode="before")(_shorthand)


class GetOp(EntityOperation):
    kind: Literal["get"]
    method: Literal["GET"] = "GET"


class UpdateOp(EntityOperation):
    kind: Literal["update"]
    method: Literal["PATCH"] = "PATCH"


class DeleteOp(EntityOperation):
    kind: Literal["delete"]
    method: Literal["DELETE"] = "DELETE"


class AggregateOp(EntityOperation):
    kind: Literal["aggregate"]
    method: Literal["GET"] = "GET"
    metrics: dict[str, str] = Field(min_length=1, max_length=20)
    group_by: str | None = None
    period: Literal["day", "week", "month", "year"] | None = Field(
        default=None, description="only rows dated in the current one"
    )
    period_field: str = "date"
    filters: list[str] = Field(default_factory=list, max_length=10)
    where: str | None = Field(
        default=None, description="only rows for which this expression (over fields, computed and inputs) is true"
    )
    constants: dict[str, Any] = Field(default_factory=dict)
    computed: dict[str, str] = Field(
        default_factory=dict,
        max_length=10,
        description="per-row figures computed on every row before the metrics, which read them as columns "
        "(sum(weighted)): name: expression; " + PREV_SAID.format(order="date field, else period_field"),
    )
    inputs: dict[str, FieldSpec] = Field(
        default_factory=dict,
        max_length=10,
        description=INPUTS_SAID.format(names="fields, computed and constants", readers="where, computed and metrics"),
    )
    series: Literal["day", "week", "month", "year"] | None = Field(
        default=None,
        description="the metrics for each of the latest series_count days, ISO weeks, months or years of "
        "period_field (a date field), oldest first and empty ones included; not with group_by or period",
    )
    series_count: int = Field(
        default=12, ge=1, le=60, description="how many periods a series covers, the current one included: 1 to 60"
    )

    _shorthand = field_validator("inputs", mode="before")(_shorthand)


def is_limit(op: AggregateOp) -> bool:
    """Whether an aggregate's goal is a cap to stay under (the composer's limit: a figure "sum(x) <= goal")."""
    return "goal" in op.constants and any(re.sub(r"\s+", "", e).endswith("<=goal") for e in op.metrics.values())


class ComputeOp(OperationBase):
    kind: Literal["compute"]
    method: Literal["GET", "POST"] = "POST"
    inputs: dict[str, FieldSpec] = Field(min_length=1, max_length=20)
    outputs: dict[str, str] = Field(min_length=1, max_length=20)
    constants: dict[str, Any] = Field(default_factory=dict)

    _shorthand = field_validator("inputs", mode="before")(_shorthand)


class FetchOp(OperationBase):
    kind: Literal["fetch"]
    method: Literal["GET"] = "GET"
    url: str = Field(max_length=300)
    inputs: dict[str, FieldSpec] = Field(default_factory=dict, max_length=10, description="checked query inputs")
    query: dict[str, str] = Field(
        default_factory=dict, description="upstream query; '{input}' is replaced by its value"
    )
    select: str = Field(
        max_length=500,
        description="JMESPath over the answer read as a list (an answer that is one object is a list of one): "
        "it selects a list of objects to rank, or, with outputs, one object ('[0].current')",
    )
    labels: list[str] = Field(default_factory=list, max_length=50, description="names zipped onto the list in order")
    label_field: str = "name"
    fields: dict[str, FieldType | Literal["object"]] = Field(
        default_factory=dict, description="fields of each selected object"
    )
    outputs: dict[str, str] = Field(default_factory=dict, description="one object in, these figures out")
    constants: dict[str, Any] = Field(default_factory=dict)
    sort: str | None = Field(default=None, pattern=r"^-?[a-z][a-z0-9_]{0,39}$")
    limit: int = Field(default=10, ge=1, le=100)

    _shorthand = field_validator("inputs", mode="before")(_shorthand)

    @field_validator("url")
    @classmethod
    def _https(cls, url: str) -> str:
        parts = urlsplit(url)
        if parts.scheme != "https" or not parts.hostname or parts.query or parts.fragment:
            raise ValueError("a fetch url is https://host/path, with its query given in 'query'")
        return url


Operation = Annotated[
    CreateOp | ListOp | GetOp | UpdateOp | DeleteOp | AggregateOp | ComputeOp | FetchOp,
    Field(discriminator="kind"),
]


class UiHints(Strict):
    theme: Literal["macaron-ui-v3"] = "macaron-ui-v3"
    mode: Literal["light", "dark", "auto"] = "auto"
    lang: Literal["en", "zh"] = "en"


class Limits(Strict):
    timeout_s: int = Field(default=10, ge=1, le=10)
    concurrency: int = Field(default=5, ge=1, le=5)


class Migration(Strict):
    """How a row written before ``revision`` reads from that revision on: its fields renamed, then its numbers scaled
    (a unit changed: the new value is the old times the factor). A row carries the revision that wrote it, and reading
    it applies, in order, every migration of a later revision (toolgen/runtime/rows.py); rows are never rewritten."""

    revision: int = Field(ge=2)
    entity: str = Field(pattern=NAME)
    rename: dict[str, str] = Field(default_factory=dict, max_length=30, description="old name: new name")
    scale: dict[str, float] = Field(default_factory=dict, max_length=30, description="field (new name): factor")

    @model_validator(mode="after")
    def _names(self) -> Migration:
        _check_names([*self.rename, *self.rename.values(), *self.scale], "migrated field")
        for name, factor in self.scale.items():
            if not (math.isfinite(factor) and factor != 0):
                raise ValueError(f"migration of {name!r}: a unit's factor is a finite, non-zero number")
        return self

    def inverse(self, revision: int) -> Migration:
        """The migration that undoes this one, as part of ``revision`` (a restore)."""
        back = {new: old for old, new in self.rename.items()}
        # scaled after renaming: the factor names a field by its new name, which is the old one going back
        scale = {back.get(name, name): 1 / factor for name, factor in self.scale.items()}
        return Migration(revision=revision, entity=self.entity, rename=back, scale=scale)


class Setting(Strict):
    """A named value of the tool that every expression reads by its name, shown on its page, and changed by a
    follow-up ("my roommates are Anna, Ben and Chloe", "rent is 7000 now")."""

    label: str = Field(default="", max_length=60, description="its display name, in the request's language")
    value: Any = Field(description="a number, a text, true or false, or a list of numbers or of texts (at most 50)")

    @field_validator("value")
    @classmethod
    def _plain(cls, value: Any) -> Any:
        problem = setting_problem(value)
        if problem:
            raise ValueError(problem)
        return value


class Provenance(Strict):
    request: str = Field(default="", max_length=2000)
    memories: list[str] = Field(default_factory=list)
    planner: str = "offline"


def _check_query_inputs(op: ListOp | AggregateOp, taken: set[str]) -> None:
    """A list's or figures' inputs: optional query parameters, named apart from every other name they meet."""
    _check_names(op.inputs, "input")
    for name, spec in op.inputs.items():
        if spec.required and spec.default is None:
            raise ValueError(f"operation {op.id}: input {name!r} is an optional query parameter: give it a default")
    clash = set(op.inputs) & (taken | (PAGING if isinstance(op, ListOp) else set()))
    if clash:
        raise ValueError(
            f"operation {op.id}: inputs {sorted(clash)} are named like a field, a computed figure, a constant"
            + (" or a page's limit and next" if isinstance(op, ListOp) else "")
        )


def _check_computed(op: ListOp | AggregateOp, columns: set[str], known: set[str], text: set[str]) -> None:
    """Each computed figure reads ``known`` names and the figures listed before it (a row's figures are computed in
    turn), and may call prev(name) of a field or of a figure listed before it (toolgen/runtime/previous.py)."""
    before: set[str] = set()
    for name, expr in op.computed.items():
        try:
            tree = ast.parse(expr, mode="eval")
        except SyntaxError:
            tree = ast.Expression(body=ast.Constant(None))  # check_expression says why, below
        not_this_row: set[int] = set()  # names that are no value of this row: prev's argument, a function
        for node in ast.walk(tree):  # prev's argument first: what it may name is said better here
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == PREV:
                arg = node.args[0] if len(node.args) == 1 else None
                if not isinstance(arg, ast.Name) or arg.id not in columns | before:
                    raise ValueError(
                        f"operation {op.id}: computed {name!r}: prev takes one name, of a field or of a computed "
                        "figure listed before it, as in prev(reading)"
                    )
                not_this_row.add(id(arg))
            if isinstance(node, ast.Call):  # a function named like a figure (days_since) is the function
                not_this_row.add(id(node.func))
        check_expression(expr, known | before, ROW_FUNCTIONS | {PREV}, text_names=text)
        before.add(name)


MAX_CONSTANTS_CHARS = 8_000  # an operation's constants written as JSON: a table of grade points, not a data set
MAX_CONSTANT_ITEMS = 100  # of a list among them: every figure that walks it item by item pays for each


def _check_constants(op: Any) -> None:
    """An operation's constants are small: a list walked item by item in each of 60 periods of a series would
    otherwise cost its length 60 times over, whatever the rows."""
    constants = getattr(op, "constants", None) or {}
    if len(json.dumps(constants, default=str)) > MAX_CONSTANTS_CHARS:
        raise ValueError(f"operation {op.id}'s constants are more than {MAX_CONSTANTS_CHARS} characters of JSON")
    for name, value in constants.items():
        if isinstance(value, list | dict) and len(value) > MAX_CONSTANT_ITEMS:
            raise ValueError(f"operation {op.id}: constant {name!r} holds more than {MAX_CONSTANT_ITEMS} items")


class ToolProgram(Strict):
    name: str = Field(pattern=NAME)
    title: str = Field(min_length=1, max_length=80)
    description: str = Field(default="", max_length=300)
    archetype: str
    # The language's version. 2: a fetched answer that is one object is read as a list of one, whether or not the
    # operation has outputs (1, before: only without outputs). A program keeps the version it was made with.
    version: Literal[1, 2] = Field(default=LANGUAGE_VERSION, description="the program language's version: 2")
    revision: int = Field(default=1, ge=1, le=MAX_REVISIONS, description="1 when made; each revision adds one")
    migrations: list[Migration] = Field(default_factory=list, max_length=MAX_MIGRATIONS)
    entities: dict[str, Entity] = Field(default_factory=dict, max_length=10)
    operations: list[Operation] = Field(min_length=1, max_length=20)
    defaults: dict[str, Any] = Field(default_factory=dict)
    ui: UiHints = UiHints()
    limits: Limits = Limits()
    allowed_hosts: list[str] = Field(default_factory=list, max_length=5)
    labels: dict[str, Annotated[str, Field(max_length=60)]] = Field(
        default_factory=dict, max_length=60, description="display names of figures (metrics, outputs, computed)"
    )
    settings: dict[str, Setting] = Field(
        default_factory=dict,
        max_length=MAX_SETTINGS,
        description="named values from the request that every expression reads by name (the people a cost is "
        "split among, a rent, a start date); a follow-up can change them; no field, input or constant of the same name",
    )
    seed: dict[str, list[dict[str, Any]]] = Field(
        default_factory=dict,
        description="starting rows per entity, stored for the person when the tool is made (the chores, kids or "
        "rooms the request names): at most 50 an entity, 200 in all, each a row the entity's create accepts",
    )
    provenance: Provenance = Provenance()

    @model_validator(mode="after")
    def _consistent(self) -> ToolProgram:
        _check_names(self.entities, "entity")
        _check_names(self.settings, "setting")
        for entity_name, entity in self.entities.items():
            lists = [n for n, spec in entity.fields.items() if spec.type == "list"]
            if lists:
                raise ValueError(f"entity {entity_name}: a row's field is one value, not a list: {lists}")
        problem = seed_problem(self.seed, self.entities)
        if problem:
            raise ValueError(problem)
        seen_ids: set[str] = set()
        seen_routes: set[tuple[str, str]] = set()
        if any(m.revision > self.revision for m in self.migrations):
            raise ValueError("a migration belongs to a revision after the program's own")
        for op in self.operations:
            if op.id in seen_ids:
                raise ValueError(f"operation id {op.id!r} is used twice")
            seen_ids.add(op.id)
            route = (op.method, re.sub(r"\{id\}", "{}", op.path))
            if route in seen_routes or (op.method, op.path) == ("GET", "/"):
                raise ValueError(f"route {op.method} {op.path} is used twice or is reserved")
            seen_routes.add(route)
            self._check_operation(op)
        return self

    def _check_operation(self, op: Any) -> None:  # noqa: C901 - one rule set per kind, in one place
        _check_constants(op)
        needs_id = op.kind in ("get", "update", "delete")
        if needs_id != op.path.endswith("/{id}"):
            raise ValueError(f"operation {op.id}: only get, update and delete paths end in /{{id}}")
        if isinstance(op, EntityOperation):
            entity = self.entities.get(op.entity)
            if entity is None:
                raise ValueError(f"operation {op.id} names unknown entity {op.entity!r}")
            columns = set(entity.fields) | RESERVED
            own = getattr(op, "constants", {}) or {}
            _check_names(own, "constant")
            self._check_settings_apart(op, columns | set(own) | set(getattr(op, "inputs", {}) or {}))
            constants = set(own) | set(self.settings)
            types = {**{name: spec.type for name, spec in entity.fields.items()}, **dict.fromkeys(RESERVED, "string")}
            text = _text_names(types, {**self._setting_values(), **own})
            for name in getattr(op, "filters", []):
                if name not in entity.fields:
                    raise ValueError(f"operation {op.id} filters on unknown field {name!r}")
                if isinstance(op, ListOp) and name in PAGING:
                    raise ValueError(f"operation {op.id} cannot filter on {name!r}: a list's pages use that name")
            if isinstance(op, CreateOp):
                for field, expr in op.derive.items():
                    if field not in entity.fields:
                        raise ValueError(f"operation {op.id} derives unknown field {field!r}")
                    check_expression(expr, columns | constants, ROW_FUNCTIONS, text_names=text)
            if isinstance(op, ListOp | AggregateOp):
                _check_names(op.computed, "computed field")
                if set(op.computed) & columns:
                    clash = sorted(set(op.computed) & columns)
                    raise ValueError(f"operation {op.id}: computed fields {clash} shadow stored fields")
                if isinstance(op, AggregateOp) and set(op.computed) & constants:  # lists deployed so may keep it
                    clash = sorted(set(op.computed) & constants)
                    raise ValueError(f"operation {op.id}: computed fields {clash} shadow constants")
                _check_query_inputs(op, columns | set(op.computed) | constants)
                text |= _text_names({name: spec.type for name, spec in op.inputs.items()}, {})
                known = columns | constants | set(op.inputs)  # what a row's expressions read
                _check_computed(op, columns, known, text)
                if op.where:
                    check_expression(op.where, known | set(op.computed), ROW_FUNCTIONS, text_names=text)
            if isinstance(op, ListOp) and op.sort.lstrip("-") not in columns | set(op.computed):
                raise ValueError(f"operation {op.id} sorts by unknown field {op.sort!r}")
            if isinstance(op, AggregateOp):
                if op.group_by is not None and op.group_by not in entity.fields:
                    raise ValueError(f"operation {op.id} groups by unknown field {op.group_by!r}")
                if op.series and (op.group_by is not None or op.period):
                    raise ValueError(f"operation {op.id}: a series is per period already: no group_by, no period")
                dated = entity.fields.get(op.period_field, FieldSpec(type="string")).type == "date"
                if (op.period or op.series) and not dated:
                    said = "period" if op.period else "series"
                    raise ValueError(f"operation {op.id}: {said} needs a date field {op.period_field!r}")
                _check_names(op.metrics, "metric")
                for expr in op.metrics.values():
                    figures = columns | constants | set(op.inputs) | set(op.computed)
                    check_expression(expr, figures, AGGREGATE_FUNCTIONS, text_names=text)
                check_row_passes(op.id, list(op.metrics.values()))
        elif isinstance(op, ComputeOp):
            _check_names(op.inputs, "input")
            _check_names(op.outputs, "output")
            _check_names(op.constants, "constant")
            self._check_settings_apart(op, set(op.inputs) | set(op.constants) | set(op.outputs))
            if op.method == "GET" and any(spec.type == "list" for spec in op.inputs.values()):
                raise ValueError(f"operation {op.id}: a list input is sent in a body: the operation is a POST")
            known = set(op.inputs) | set(op.constants) | set(self.settings)
            text = _text_names({n: s.type for n, s in op.inputs.items()}, {**self._setting_values(), **op.constants})
            for name, expr in op.outputs.items():  # an output may use the outputs before it
                check_expression(expr, known, COMPUTE_FUNCTIONS, text_names=text)
                known.add(name)
        elif isinstance(op, FetchOp):
            host = urlsplit(op.url).hostname
            if host not in self.allowed_hosts:
                raise ValueError(f"operation {op.id} fetches from {host!r}, which is not in allowed_hosts")
            _check_names(op.inputs, "input")
            for value in op.query.values():
                for name in re.findall(r"\{([a-z][a-z0-9_]*)\}", value):
                    if name not in op.inputs:
                        raise ValueError(f"operation {op.id}: query uses {{{name}}}, which is not an input")
            self._check_settings_apart(op, set(op.fields) | set(op.inputs) | set(op.constants) | set(op.outputs))
            known = set(op.fields) | set(op.inputs) | set(op.constants) | set(self.settings)
            types = {**op.fields, **{name: spec.type for name, spec in op.inputs.items()}}
            text = _text_names(types, {**self._setting_values(), **op.constants})
            for name, expr in op.outputs.items():
                check_expression(expr, known, COMPUTE_FUNCTIONS, text_names=text)
                known.add(name)

    def _setting_values(self) -> dict[str, Any]:
        return {name: setting.value for name, setting in self.settings.items()}

    def _check_settings_apart(self, op: Any, names: set[str]) -> None:
        """A setting is read by its name in every expression: no name of the operation's may be it too."""
        clash = sorted(names & set(self.settings))
        if clash:
            raise ValueError(f"operation {op.id}: {clash} is named like a setting of the tool")
        if any(spec.type == "list" for spec in (getattr(op, "inputs", None) or {}).values()) and op.kind != "compute":
            raise ValueError(f"operation {op.id}: only a compute operation takes a list input")

    def operation(self, op_id: str) -> Any:
        """The operation with this id (KeyError if none)."""
        for op in self.operations:
            if op.id == op_id:
                return op
        raise KeyError(op_id)
