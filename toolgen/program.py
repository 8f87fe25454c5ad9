"""The ToolProgram: what a generated tool *is*, as validated data rather than generated code.

The planner emits one, the spec and the page are derived from it, and the shared runtime in the base layer
interprets it. Every check that keeps a tool safe and well-formed lives here, so that a program from any planner
(offline rules or an LLM) is held to the same rules before anything is deployed.
"""

from __future__ import annotations

import ast
import datetime as dt
import math
import re
from typing import Annotated, Any, Literal
from urllib.parse import urlsplit

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from toolgen.bounds import MAX_ROUND_DIGITS

FieldType = Literal["string", "text", "number", "integer", "boolean", "date", "time"]
NAME = r"^[a-z][a-z0-9_]{0,39}$"
OP_ID = r"^[a-z][A-Za-z0-9]{0,63}$"
PATH = r"^/([a-z0-9_-]+(/[a-z0-9_-]+)*)?(/\{id\})?$"
MAX_EXPR = 300
DATE_SENTINEL = re.compile(r"\$today|\$next:(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])")
# Names an expression may call; the runtime binds exactly these (toolgen/runtime/expressions.py).
AGGREGATE_FUNCTIONS = frozenset(
    {"sum", "avg", "min", "max", "count", "count_where", "streak", "first", "last", "round", "abs", "pick", "settle",
     "days_since"}
)  # fmt: skip
ROW_FUNCTIONS = frozenset(
    {
        "round",
        "abs",
        "min",
        "max",
        "floor",
        "ceil",
        "days_until",
        "days_since",
        "add_days",
        "today",
        "next_yearly",
        "years_between",
        "workdays_until",
        "hours_between",
    }
)
COMPUTE_FUNCTIONS = ROW_FUNCTIONS
# An aggregate's metrics walk up to 10,000 rows per distinct call (the runtime computes each once): settle sorts and
# pairs every payer (~20 ms), streak reads every date (~8 ms), the rest ~0.3 ms. In passes of sum(), at most
# MAX_ROW_PASSES an operation: a worst case of about 200 ms (SECURITY.md, "The tool sandbox").
ROW_PASSES = {"settle": 10, "streak": 4}
MAX_ROW_PASSES = 100
SCALAR_CALLS = frozenset({"round", "abs", "days_since"})
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
    type: FieldType
    label: str = Field(default="", max_length=60)
    required: bool = False
    default: Any = None
    enum: list[str] | None = Field(default=None, max_length=50)
    minimum: float | None = None
    maximum: float | None = None
    max_length: int = Field(default=200, ge=1, le=2000)

    @model_validator(mode="before")
    @classmethod
    def _default_as_typed(cls, data: Any) -> Any:
        """A default written in another form of its own type is that value: ``30.0`` for an integer is 30 (a probe
        or a page would send "30.0", which an integer refuses), "30" for a number is 30, "true" for a boolean true."""
        if not isinstance(data, dict) or data.get("default") is None:
            return data
        kind, default = data.get("type"), data["default"]
        typed = default
        if kind in ("number", "integer") and isinstance(default, str):
            try:
                typed = float(default.strip())
            except ValueError:
                return data  # refused below, saying why
        if kind == "integer" and isinstance(typed, float) and typed.is_integer():
            typed = int(typed)
        if kind == "boolean" and isinstance(default, str) and default.strip().lower() in ("true", "false"):
            typed = default.strip().lower() == "true"
        return data if typed is default else {**data, "default": typed}

    @model_validator(mode="after")
    def _default_fits(self) -> FieldSpec:
        """A default is a value the field itself would accept: the probe and the page send it as it is."""
        problem = default_problem(self)
        if problem:
            raise ValueError(problem)
        return self


_TIME = re.compile(r"([01][0-9]|2[0-3]):[0-5][0-9]")


def _is_date(value: str) -> bool:
    try:
        return bool(re.fullmatch(r"\d{4}-\d{2}-\d{2}", value)) and dt.date.fromisoformat(value) is not None
    except ValueError:
        return False


def default_problem(spec: FieldSpec) -> str | None:
    """Why ``spec.default`` is not a value of its field (None when it is, or when there is none)."""
    value, kind = spec.default, spec.type
    if value is None:
        return None
    if isinstance(value, str) and value.startswith("$"):
        if kind != "date" or not DATE_SENTINEL.fullmatch(value):
            return "a '$' default is '$today' or '$next:MM-DD', on a date field"
        return None
    if kind in ("number", "integer"):
        if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
            return f"the default {value!r} of a {kind} field is not a number"
        if kind == "integer" and not float(value).is_integer():
            return f"the default {value!r} of an integer field is not a whole number"
        if (spec.minimum is not None and value < spec.minimum) or (spec.maximum is not None and value > spec.maximum):
            return f"the default {value!r} is outside the field's minimum and maximum"
        return None
    if kind == "boolean":
        return None if isinstance(value, bool) else f"the default {value!r} of a boolean field is not true or false"
    if not isinstance(value, str):
        return f"the default {value!r} of a {kind} field is not text"
    if kind == "date":
        return (
            None
            if _is_date(value)
            else f"the default {value!r} of a date field is not YYYY-MM-DD, '$today' or '$next:MM-DD'"
        )
    if kind == "time":
        return None if _TIME.fullmatch(value) else f"the default {value!r} of a time field is not HH:MM"
    if spec.enum and value not in spec.enum:
        return f"the default {value!r} is not one of the field's choices"
    if len(value) > spec.max_length:
        return "the default is longer than the field allows"
    return None


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
    """Raise ValueError if an aggregate's metrics (already checked to parse) walk its rows too many times."""
    calls = {
        (node.func.id, ast.dump(node))
        for expr in exprs
        for node in ast.walk(ast.parse(expr, mode="eval"))
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id not in SCALAR_CALLS
    }
    passes = sum(ROW_PASSES.get(name, 1) for name, _ in calls)
    if passes > MAX_ROW_PASSES:
        raise ValueError(f"operation {op_id}'s metrics walk the rows {passes} times; at most {MAX_ROW_PASSES}")


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
        default_factory=dict, max_length=10, description="per-row figures: name: expression"
    )
    filters: list[str] = Field(
        default_factory=list, max_length=10, description="fields a caller may filter on by equality"
    )
    where: str | None = Field(default=None, description="only rows for which this expression is true")
    constants: dict[str, Any] = Field(default_factory=dict)


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
    where: str | None = Field(default=None, description="only rows for which this expression is true")
    constants: dict[str, Any] = Field(default_factory=dict)


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


class Provenance(Strict):
    request: str = Field(default="", max_length=2000)
    memories: list[str] = Field(default_factory=list)
    planner: str = "offline"


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
    provenance: Provenance = Provenance()

    @model_validator(mode="after")
    def _consistent(self) -> ToolProgram:
        _check_names(self.entities, "entity")
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
        needs_id = op.kind in ("get", "update", "delete")
        if needs_id != op.path.endswith("/{id}"):
            raise ValueError(f"operation {op.id}: only get, update and delete paths end in /{{id}}")
        if isinstance(op, EntityOperation):
            entity = self.entities.get(op.entity)
            if entity is None:
                raise ValueError(f"operation {op.id} names unknown entity {op.entity!r}")
            columns = set(entity.fields) | RESERVED
            constants = set(getattr(op, "constants", {}) or {})
            types = {**{name: spec.type for name, spec in entity.fields.items()}, **dict.fromkeys(RESERVED, "string")}
            text = _text_names(types, getattr(op, "constants", {}) or {})
            _check_names(constants, "constant")
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
            if isinstance(op, ListOp):
                _check_names(op.computed, "computed field")
                clash = set(op.computed) & columns
                if clash:
                    raise ValueError(f"operation {op.id}: computed fields {sorted(clash)} shadow stored fields")
                for expr in op.computed.values():
                    check_expression(expr, columns | constants, ROW_FUNCTIONS, text_names=text)
                if op.where:
                    check_expression(op.where, columns | constants | set(op.computed), ROW_FUNCTIONS, text_names=text)
                if op.sort.lstrip("-") not in columns | set(op.computed):
                    raise ValueError(f"operation {op.id} sorts by unknown field {op.sort!r}")
            if isinstance(op, AggregateOp):
                if op.group_by is not None and op.group_by not in entity.fields:
                    raise ValueError(f"operation {op.id} groups by unknown field {op.group_by!r}")
                if op.period and entity.fields.get(op.period_field, FieldSpec(type="string")).type != "date":
                    raise ValueError(f"operation {op.id}: period needs a date field {op.period_field!r}")
                _check_names(op.metrics, "metric")
                if op.where:
                    check_expression(op.where, columns | constants, ROW_FUNCTIONS, text_names=text)
                for expr in op.metrics.values():
                    check_expression(expr, columns | constants, AGGREGATE_FUNCTIONS, text_names=text)
                check_row_passes(op.id, list(op.metrics.values()))
        elif isinstance(op, ComputeOp):
            _check_names(op.inputs, "input")
            _check_names(op.outputs, "output")
            _check_names(op.constants, "constant")
            known = set(op.inputs) | set(op.constants)
            text = _text_names({name: spec.type for name, spec in op.inputs.items()}, op.constants)
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
            known = set(op.fields) | set(op.inputs) | set(op.constants)
            types = {**op.fields, **{name: spec.type for name, spec in op.inputs.items()}}
            text = _text_names(types, op.constants)
            for name, expr in op.outputs.items():
                check_expression(expr, known, COMPUTE_FUNCTIONS, text_names=text)
                known.add(name)

    def operation(self, op_id: str) -> Any:
        """The operation with this id (KeyError if none)."""
        for op in self.operations:
            if op.id == op_id:
                return op
        raise KeyError(op_id)
