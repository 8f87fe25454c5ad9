"""Applying a revision's changes to a program: the next program, validated by ToolProgram itself.

A removed field leaves the entity and every use of it (a per-row figure, a figure over rows, a filter, a grouping,
a condition, a derivation; a list sorted by it shows the newest first), and the figures that needed it go; its
values stay on the rows, so a restore shows them again. A renamed field is renamed in every expression by its
syntax tree (never by text: "note" is not renamed inside "notes"), and rows written before read under the new name
through the revision's Migration; a unit changed scales the field's range, default and the constants its figures
compare it with (a goal, a limit), and old rows through the Migration too.
"""

from __future__ import annotations

import ast
from functools import lru_cache
from typing import Any

from pydantic import TypeAdapter, ValidationError

from toolgen.changes import Change
from toolgen.planner.revision_messages import not_possible, type_said
from toolgen.planner.revision_words import UNITS, unit_label, unit_of
from toolgen.program import (
    MAX_EXPR,
    MAX_FIELDS,
    MAX_HIDDEN,
    MAX_MIGRATIONS,
    FieldSpec,
    Migration,
    Operation,
    ToolProgram,
)

_OPERATION: TypeAdapter[Any] = TypeAdapter(Operation)
MAX_OPERATIONS = 20  # a program's, as ToolProgram allows


@lru_cache(maxsize=4096)  # a program's expressions are read once per change, and many repeat across operations
def names_in(expr: str) -> frozenset[str]:
    """The names an expression reads (not the functions it calls)."""
    tree = ast.parse(expr, mode="eval")
    callees = {id(node.func) for node in ast.walk(tree) if isinstance(node, ast.Call)}
    return frozenset(n.id for n in ast.walk(tree) if isinstance(n, ast.Name) and id(n) not in callees)


def renamed(expr: str, old: str, new: str) -> str:
    """The expression with the name ``old`` read as ``new``; its text is otherwise kept as written."""
    tree = ast.parse(expr, mode="eval")
    callees = {id(node.func) for node in ast.walk(tree) if isinstance(node, ast.Call)}
    spans = sorted(
        (n.col_offset, n.end_col_offset or n.col_offset)
        for n in ast.walk(tree)
        if isinstance(n, ast.Name) and n.id == old and id(n) not in callees
    )
    raw = expr.encode()  # ast offsets count UTF-8 bytes
    for start, end in reversed(spans):
        raw = raw[:start] + new.encode() + raw[end:]
    return raw.decode()


class _Draft:
    """The program as data while changes apply, with the migrations they add."""

    def __init__(self, program: ToolProgram, lang: str) -> None:
        self.data = program.model_dump(mode="json")  # a copy: the program itself is never changed
        self.lang = lang
        self.renames: dict[str, dict[str, str]] = {}  # entity: {old: new}, of this revision
        self.scales: dict[str, dict[str, float]] = {}

    def entity(self, change: Change) -> str:
        entity = change.entity or next(iter(self.data["entities"]), None)
        if entity is None or entity not in self.data["entities"]:
            raise not_possible("no_rows", self.lang)
        return entity

    def field(self, change: Change, entity: str) -> str:
        """The change's field by its name now (a rename earlier in the revision renamed it)."""
        name = self.renames.get(entity, {}).get(change.field or "", change.field or "")
        if name not in self.data["entities"][entity]["fields"]:
            raise not_possible("no_field", self.lang, said=change.field or "", fields=self.labels(entity))
        return name

    def labels(self, entity: str) -> str:
        sep = "、" if self.lang == "zh" else ", "
        return sep.join(spec.get("label") or n for n, spec in self.data["entities"][entity]["fields"].items())

    def ops(self, entity: str) -> list[dict[str, Any]]:
        return [op for op in self.data["operations"] if op.get("entity") == entity]


def _remove(draft: _Draft, change: Change) -> None:
    entity = draft.entity(change)
    name = draft.field(change, entity)
    fields = draft.data["entities"][entity]["fields"]
    if len(fields) == 1:
        raise not_possible("last_field", draft.lang, label=fields[name].get("label") or name)
    hidden = draft.data["entities"][entity].setdefault("hidden", {})
    if len(hidden) >= MAX_HIDDEN:
        raise not_possible("too_many_removed", draft.lang)
    hidden[name] = fields[name]["type"]  # its values stay on the rows, so its name stays taken (program.Entity)
    del fields[name]
    gone_ops, gone_figures = [], set()
    lists = [op for op in draft.ops(entity) if op["kind"] == "list"]
    for op in draft.ops(entity):
        if op["kind"] == "create":
            op["derive"] = {f: e for f, e in op.get("derive", {}).items() if f != name and name not in names_in(e)}
        if "filters" in op:
            op["filters"] = [f for f in op["filters"] if f != name]
        if op["kind"] == "list":
            dropped = {c for c, e in op.get("computed", {}).items() if name in names_in(e)}
            op["computed"] = {c: e for c, e in op.get("computed", {}).items() if c not in dropped}
            gone_figures |= dropped
            if op.get("where") and names_in(op["where"]) & ({name} | dropped):
                if len(lists) > 1 and op is not lists[0]:
                    gone_ops.append(op)  # a second list (due now, this week's) only lists by its condition
                op["where"] = None
            if op.get("sort", "").lstrip("-") in {name} | dropped:
                op["sort"] = "-created_at"
        if op["kind"] == "aggregate":
            if name in (op.get("group_by"), op["period_field"] if op.get("period") else None):
                gone_ops.append(op)
                continue
            if op.get("where") and name in names_in(op["where"]):
                gone_ops.append(op)
                continue
            dropped = {m for m, e in op["metrics"].items() if name in names_in(e)}
            gone_figures |= dropped
            op["metrics"] = {m: e for m, e in op["metrics"].items() if m not in dropped}
            columns = set(fields) | {"id", "created_at", "updated_at"}
            figures = [e for e in op["metrics"].values() if names_in(e) & columns or "(" in e]
            if not figures:  # what is left only shows its constants (a goal without what it is a goal of)
                gone_ops.append(op)
    for op in gone_ops:
        gone_figures |= set(op.get("metrics") or {})
    draft.data["operations"] = [op for op in draft.data["operations"] if not any(op is g for g in gone_ops)]
    still = {m for op in draft.data["operations"] for m in (*(op.get("metrics") or {}), *(op.get("computed") or {}))}
    draft.data["labels"] = {k: v for k, v in draft.data["labels"].items() if k not in gone_figures or k in still}
    draft.data["defaults"].pop(name, None)


def _rename(draft: _Draft, change: Change) -> None:
    entity = draft.entity(change)
    old = draft.field(change, entity)
    new = change.to or old
    fields = draft.data["entities"][entity]["fields"]
    ops = draft.ops(entity)
    names = {*fields, "id", "created_at", "updated_at"}
    names |= {n for op in ops for key in ("computed", "constants", "inputs") for n in op.get(key) or {}}
    names |= set(draft.data.get("settings") or {})  # every expression reads a setting by its name
    if new != old and new in names:
        raise not_possible("taken", draft.lang, name=new)
    if new != old and new in draft.data["entities"][entity].get("hidden", {}):
        raise not_possible("removed_name", draft.lang, name=new)  # old rows would show its values as this field's
    spec = {**fields[old], **({"label": change.label} if change.label else {})}
    draft.data["entities"][entity]["fields"] = {
        (new if n == old else n): (spec if n == old else s) for n, s in fields.items()
    }
    if new == old:
        return
    for op in draft.ops(entity):
        for key in ("derive", "computed", "metrics"):
            if key in op:
                op[key] = {
                    (new if k == old and key == "derive" else k): renamed(e, old, new) for k, e in op[key].items()
                }
        if op.get("where"):
            op["where"] = renamed(op["where"], old, new)
        for key in ("group_by", "period_field"):
            if op.get(key) == old:
                op[key] = new
        if op.get("sort", "").lstrip("-") == old:
            op["sort"] = op["sort"].replace(old, new)
        if "filters" in op:
            op["filters"] = [new if f == old else f for f in op["filters"]]
        exprs = [*op.get("derive", {}).values(), *op.get("computed", {}).values(), *op.get("metrics", {}).values()]
        if any(len(e) > MAX_EXPR for e in [*exprs, op.get("where") or ""]):
            raise not_possible("too_long", draft.lang, name=new)
    defaults = draft.data["defaults"]
    if old in defaults:
        draft.data["defaults"] = {(new if k == old else k): v for k, v in defaults.items()}
    mapping = draft.renames.setdefault(entity, {})
    origin = next((before for before, now in mapping.items() if now == old), old)  # renamed twice: from the first
    mapping[origin] = new
    draft.scales[entity] = {(new if n == old else n): f for n, f in draft.scales.get(entity, {}).items()}


def _scale(value: Any, factor: float) -> Any:
    return round(value * factor, 6) if isinstance(value, int | float) and not isinstance(value, bool) else value


def _unit(draft: _Draft, change: Change) -> None:
    entity = draft.entity(change)
    name = draft.field(change, entity)
    factor = change.factor
    if factor is None or not factor > 0 or not change.value:
        raise not_possible("no_unit", draft.lang, label=name)
    spec = draft.data["entities"][entity]["fields"][name]
    old = unit_of(name, FieldSpec.model_validate(spec))
    for key in ("minimum", "maximum", "default"):
        spec[key] = _scale(spec.get(key), factor)
    if spec["type"] == "integer" and not float(factor).is_integer():
        spec["type"] = "number"  # 250 ml is 8.45 oz
    spec["label"] = change.label or spec["label"]
    for op in draft.ops(entity):
        metrics = op.get("metrics") or {}
        compared = {c for e in metrics.values() if name in names_in(e) for c in names_in(e)}
        for constant, value in (op.get("constants") or {}).items():
            if constant in compared and isinstance(value, int | float) and not isinstance(value, bool):
                op["constants"][constant] = round(value * factor, 2)
                for key in [k for k in draft.data["defaults"] if k == constant or k.startswith(constant + "_")]:
                    draft.data["defaults"][key] = _scale(draft.data["defaults"][key], factor)
        for metric, expr in metrics.items():
            label = draft.data["labels"].get(metric)
            if label and old in UNITS and name in names_in(expr):
                draft.data["labels"][metric] = unit_label(label, old, str(change.value), draft.data["ui"]["lang"])
    if draft.data["defaults"].get(f"{name}_unit") is not None:
        draft.data["defaults"][f"{name}_unit"] = change.value
    scales = draft.scales.setdefault(entity, {})
    scales[name] = scales.get(name, 1.0) * factor


def _constant(draft: _Draft, name: str, value: Any) -> None:
    for op in draft.data["operations"]:
        if name in (op.get("constants") or {}):
            op["constants"][name] = value
    for key in [k for k in draft.data["defaults"] if k == name or k.startswith(name + "_") or k.endswith("_" + name)]:
        draft.data["defaults"][key] = value


def _add(draft: _Draft, change: Change) -> None:
    if change.op == "add_field":
        entity = draft.entity(change)
        fields = draft.data["entities"][entity]["fields"]
        ops = draft.ops(entity)
        taken = {*fields, "id", "created_at", "updated_at"}
        taken |= {n for op in ops for n in (*(op.get("computed") or {}), *(op.get("constants") or {}))}
        if not change.field or change.field in taken:
            raise not_possible("taken", draft.lang, name=change.field or "")
        if len(fields) >= MAX_FIELDS:  # counted as the revision's fields accumulate, whichever clause added them
            raise not_possible("too_many", draft.lang)
        spec = FieldSpec.model_validate(change.spec or {}).model_dump(mode="json")
        hidden = draft.data["entities"][entity].get("hidden", {})
        was = hidden.get(change.field)
        if was is not None and was != spec["type"]:  # the old rows' values would be read as the new type
            raise not_possible("removed_type", draft.lang, name=change.field, was=type_said(was, draft.lang))
        hidden.pop(change.field, None)  # added back: the old rows show their values again
        fields[change.field] = spec
        return
    try:
        op = _OPERATION.validate_python(change.operation or {}).model_dump(mode="json")
    except ValidationError as e:
        raise not_possible("bad_operation", draft.lang) from e
    ops = draft.data["operations"]
    routes = {(o["method"], o["path"].replace("{id}", "{}")) for o in ops}
    if op["id"] in {o["id"] for o in ops} or (op["method"], op["path"].replace("{id}", "{}")) in routes:
        raise not_possible("has_figures" if change.op == "add_figure" else "can_edit", draft.lang)
    if len(ops) >= MAX_OPERATIONS:
        raise not_possible("too_many_operations", draft.lang)
    ops.append(op)
    for metric, label in (change.labels or {}).items():
        if len(draft.data["labels"]) < 60:
            draft.data["labels"].setdefault(metric, label)


def _setting(draft: _Draft, change: Change) -> None:
    """A setting's new value; a field choosing among the setting's old list (who paid) chooses among the new one."""
    if change.field not in draft.data.get("settings", {}):
        raise not_possible("no_value", draft.lang, label=change.field or "")
    before = draft.data["settings"][change.field]["value"]
    draft.data["settings"][change.field]["value"] = change.value
    if not (isinstance(before, list) and isinstance(change.value, list)):
        return
    for body in draft.data["entities"].values():
        for spec in body["fields"].values():
            if spec.get("enum") == before:
                spec["enum"] = [str(v) for v in change.value]
                if spec.get("default") not in spec["enum"]:
                    spec["default"] = spec["enum"][0]


def apply(program: ToolProgram, changes: list[Change], revision: int, *, lang: str | None = None) -> ToolProgram:
    """The next program: ``program`` with ``changes`` applied, as ``revision``, with a Migration per entity whose
    rows are renamed or scaled. RevisionNotPossibleError (in ``lang``, else the tool's) for a change it cannot take."""
    draft = _Draft(program, lang or program.ui.lang)
    for change in changes:
        if change.op == "remove_field":
            _remove(draft, change)
        elif change.op == "rename_field":
            _rename(draft, change)
        elif change.op == "set_unit":
            _unit(draft, change)
        elif change.op == "set_default":
            entity = draft.entity(change)
            name = draft.field(change, entity)
            draft.data["entities"][entity]["fields"][name]["default"] = change.value
            if name in draft.data["defaults"]:
                draft.data["defaults"][name] = change.value
        elif change.op in ("set_goal", "set_constant"):
            _constant(draft, "goal" if change.op == "set_goal" else change.field or "", change.value)
        elif change.op == "set_theme":
            draft.data["ui"]["mode"] = change.value
        elif change.op == "set_setting":
            _setting(draft, change)
        else:
            _add(draft, change)
    for entity in draft.data["entities"]:
        rename = {old: new for old, new in draft.renames.get(entity, {}).items() if old != new}
        scale = draft.scales.get(entity, {})
        if rename or scale:
            if len(draft.data["migrations"]) >= MAX_MIGRATIONS:
                raise not_possible("too_many_migrations", draft.lang)
            migration = Migration(revision=revision, entity=entity, rename=rename, scale=scale)
            draft.data["migrations"].append(migration.model_dump(mode="json"))
    draft.data["revision"] = revision
    try:
        return ToolProgram.model_validate(draft.data)
    except ValidationError as e:  # a limit or rule not checked above: the caller's 422, never a 500
        where = ".".join(str(part) for part in e.errors()[0]["loc"]) if e.errors() else ""
        raise not_possible("invalid", draft.lang, where=where) from e
