"""A revision's changes: what a follow-up ("also track my heart rate") or an accepted suggestion does to a tool.

A revision is a list of changes read from the person's words (toolgen/planner/revise.py) or carried by a suggestion
(toolgen/learn/), applied to the tool's current program to make its next one. Each change is data, so the history
says exactly what each revision did, a restore can undo it, and a model's answer is held to the same few kinds.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

ChangeOp = Literal[
    "add_field",  # field, spec (a FieldSpec as JSON), on entity
    "remove_field",  # field: hidden from the tool, kept on every row (a restore shows it again)
    "rename_field",  # field -> to (label: its new label); rows written before read under the new name
    "set_default",  # field's default -> value (None: no default)
    "set_goal",  # the goal constant of the figures that have one -> value
    "set_constant",  # field names a constant (cutoff, limit): every operation's constant of that name and the
    #                  program's default of that name -> value
    "set_unit",  # field's unit -> value (label: its new label); numbers scaled by factor, rows too
    "set_theme",  # the page's mode -> value: light, dark or auto
    "set_setting",  # field names a setting of the tool (its roommates, its rent) -> value, of the setting's kind
    "add_figure",  # operation: an aggregate added
    "add_operation",  # operation: another operation added (an update of rows, say)
]


class Change(BaseModel):
    """One change to a program. Names are the program's names before the change."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    op: ChangeOp
    entity: str | None = Field(default=None, max_length=40)
    field: str | None = Field(default=None, max_length=40)
    to: str | None = Field(default=None, max_length=40, description="rename_field: the new name")
    label: str | None = Field(default=None, max_length=60, description="the field's new label")
    spec: dict[str, Any] | None = Field(default=None, description="add_field: its FieldSpec")
    value: Any = Field(
        default=None,
        description="the new value (set_default, set_goal, set_constant, set_unit, set_theme, set_setting)",
    )
    factor: float | None = Field(default=None, description="set_unit: new value = old value x factor")
    operation: dict[str, Any] | None = Field(default=None, description="add_figure, add_operation: the operation")
    labels: dict[str, str] | None = Field(
        default=None, max_length=20, description="add_figure: display names of its figures, in the tool's language"
    )
