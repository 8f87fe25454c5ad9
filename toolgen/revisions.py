"""A tool's history: every revision it had (``USER#u`` / ``REV#<tool_id>#<n>``), and who may revise it now.

Each revision keeps its whole program, so a restore brings one back exactly; the tool record holds the one live.
Revision 1 is the tool as made: written when it is made, or, for a tool made before revisions existed, when it is
first revised. A revision is written only after its program answered the probe, with a condition that no other
revision took its number, and one revision job of a tool runs at a time (``REVISING#<tool_id>``, taken by the API
before it queues one and given back by the job's end), so a history never forks.
"""

from __future__ import annotations

import builtins
import contextlib
import json
import math
import time
from collections.abc import Callable
from typing import Any, Literal

from pydantic import BaseModel, Field

from toolgen import cursor
from toolgen.changes import Change
from toolgen.errors import BadPageTokenError, ConflictError, NotFoundError, RevisionInProgressError
from toolgen.models import ToolRecord
from toolgen.program import MAX_HIDDEN, MAX_MIGRATIONS, Migration, ToolProgram
from toolgen.table import ItemTable, user_pk

# A revision job's hold on its tool is taken over only once the job has ended, or when it has not moved for longer than
# any job waits (Lambda out of capacity: up to about 3 hours, pipeline.MAX_WAITS), so a waiting job keeps its tool.
REVISING_HOLD_S = 4 * 3600.0


class Revision(BaseModel):
    tool_id: str
    revision: int
    at: float = Field(default_factory=time.time)
    by: Literal["request", "follow_up", "suggestion", "restore"]
    prompt: str
    changes: list[Change] = Field(default_factory=list)
    summary: list[str] = Field(default_factory=list, description="what changed, in the tool's language")
    memories: list[str] = Field(default_factory=list)
    job_id: str | None = None
    suggestion_id: str | None = None
    restored_from: int | None = None
    program: dict[str, Any]


def _sk(tool_id: str, revision: int) -> str:
    return f"REV#{tool_id}#{revision:06d}"


def first(record: ToolRecord) -> Revision:
    """Revision 1 of a tool made before revisions were kept: as its record has it."""
    return Revision(
        tool_id=record.tool_id,
        revision=1,
        at=record.created_at,
        by="request",
        prompt=record.prompt,
        memories=[m.memory_id for m in record.memories],
        job_id=record.job_id,
        program=record.program,
    )


class TooManyMigrations(ValueError):
    """A restore whose rows would carry more renames and unit changes than a program may."""

    def __init__(self, count: int) -> None:
        self.count = count
        super().__init__(f"its rows would carry {count} renames and unit changes, past the {MAX_MIGRATIONS} allowed")


def restored(current: ToolProgram, target: ToolProgram, revision: int) -> ToolProgram:
    """``target`` (an earlier revision) made live again as ``revision``: rows written since read back under its
    names and units, by undoing every rename and unit change made after it, newest first, composed into one
    migration per entity (undoing them one by one added as many migrations as there were, undos of earlier
    restores included: each restore about doubled them, and the ninth was past the program's limit); a field it
    lacks that rows since may hold is hidden, its name kept as a removed field's is (program.Entity). Checked as
    any program (TooManyMigrations past its limit)."""
    undo = [m.inverse(revision) for m in reversed(current.migrations) if m.revision > target.revision]
    entities = {}
    for name, entity in target.entities.items():
        now = current.entities.get(name)
        held = {**{f: spec.type for f, spec in now.fields.items()}, **now.hidden} if now else {}
        for migration in (m for m in undo if m.entity == name):  # under the names the restored program reads
            held = {migration.rename.get(f, f): kind for f, kind in held.items()}
        hidden = {**entity.hidden, **held}
        hidden = {f: kind for f, kind in hidden.items() if f not in entity.fields}
        entities[name] = entity.model_copy(update={"hidden": dict(list(hidden.items())[:MAX_HIDDEN])})
    composed = [m for name in dict.fromkeys(m.entity for m in undo) if (m := _composed(undo, name, revision))]
    migrations = [*current.migrations, *composed]
    if len(migrations) > MAX_MIGRATIONS:
        raise TooManyMigrations(len(migrations))
    update = {"revision": revision, "migrations": migrations, "entities": entities}
    return ToolProgram.model_validate(target.model_copy(update=update).model_dump(mode="json"))


def _composed(undo: list[Migration], entity: str, revision: int) -> Migration | None:
    """The migrations of ``entity`` in ``undo``, applied in order, as one (None where they come to nothing): each
    field followed from its name now through every rename, its factors multiplied on the way."""
    steps = [m for m in undo if m.entity == entity]
    names = dict.fromkeys(n for m in steps for n in [*m.rename, *m.rename.values(), *m.scale])
    rename: dict[str, str] = {}
    scale: dict[str, float] = {}
    for start in names:
        name, factor = start, 1.0
        for step in steps:
            name = step.rename.get(name, name)
            factor *= step.scale.get(name, 1.0)
        if name != start:
            rename[start] = name
        if not math.isclose(factor, 1.0, rel_tol=1e-12):
            scale[name] = factor
    return Migration(revision=revision, entity=entity, rename=rename, scale=scale) if rename or scale else None


class RevisionStore:
    def __init__(self, table: ItemTable) -> None:
        self.table = table

    def put(self, user: str, revision: Revision) -> None:
        """Keep a revision; ConflictError if its number is taken (another revision of the tool came first)."""
        data = revision.model_dump(mode="json")
        data["program"] = json.dumps(data["program"])  # read whole, never queried inside
        self.table.put({"pk": user_pk(user), "sk": _sk(revision.tool_id, revision.revision), **data}, if_absent=True)

    def get(self, user: str, tool_id: str, revision: int, *, lang: str = "en") -> Revision:
        found = self.find(user, tool_id, revision)
        if found is None:
            raise NotFoundError(
                f"工具 {tool_id} 没有第 {revision} 版" if lang == "zh" else f"tool {tool_id} has no revision {revision}"
            )
        return found

    def find(self, user: str, tool_id: str, revision: int) -> Revision | None:
        item = self.table.get(user_pk(user), _sk(tool_id, revision)) if 1 <= revision < 10**6 else None
        return _from_item(item) if item is not None else None

    def discard(self, user: str, tool_id: str, revision: int, job_id: str) -> None:
        """Take back a revision kept by ``job_id`` whose tool record could not follow (so its number is free)."""
        found = self.find(user, tool_id, revision)
        if found is not None and found.job_id == job_id:
            self.table.delete(user_pk(user), _sk(tool_id, revision))

    def ensure_first(self, user: str, record: ToolRecord) -> None:
        """Keep revision 1 of a tool made before revisions were (its record still holds it until revised)."""
        if record.revision == 1 and self.table.get(user_pk(user), _sk(record.tool_id, 1)) is None:
            with contextlib.suppress(ConflictError):  # kept meanwhile
                self.put(user, first(record))

    def page(
        self, user: str, tool_id: str, token: str | None, limit: int
    ) -> tuple[builtins.list[Revision], str | None]:
        """Up to ``limit`` revisions of the tool, newest first, from where ``token`` says; the next page's token."""
        prefix = f"REV#{tool_id}#"
        try:
            start = cursor.decode(token, user_pk(user), prefix) if token is not None else None
        except cursor.BadToken as e:
            raise BadPageTokenError(f"next: {e}", details={"next": str(e)}) from e
        items, following = self.table.query_page(user_pk(user), prefix, start, limit=limit + 1, newest_first=True)
        if len(items) > limit:
            items, following = items[:limit], {"pk": user_pk(user), "sk": items[limit - 1]["sk"]}
        return [_from_item(i) for i in items], cursor.encode(following)

    def forget(self, user: str, tool_id: str) -> None:
        self.table.delete_prefix(user_pk(user), f"REV#{tool_id}#")
        self.table.delete(user_pk(user), f"REVISING#{tool_id}")

    # --- one revision at a time -----------------------------------------------------------------------------

    def hold(
        self,
        user: str,
        tool_id: str,
        job_id: str,
        *,
        ended: Callable[[str], bool] | None = None,
        now: float | None = None,
    ) -> None:
        """Take the tool for a revision job; RevisionInProgressError (naming the job holding it) if another one
        has it. A hold is taken over when its job has ``ended`` (a job id -> whether it is over, or gone) or it is
        older than REVISING_HOLD_S; taken over on the condition that nobody else took it first."""
        now = time.time() if now is None else now
        item = {"pk": user_pk(user), "sk": f"REVISING#{tool_id}", "job_id": job_id, "until": now + REVISING_HOLD_S}
        try:
            self.table.put(item, if_absent=True)
            return
        except ConflictError:
            held = self.table.get(user_pk(user), f"REVISING#{tool_id}")
        if held is None:  # let go of meanwhile
            self.hold(user, tool_id, job_id, ended=ended, now=now)
            return
        over = float(held.get("until", 0)) <= now or (ended is not None and ended(str(held["job_id"])))
        if not over:
            raise RevisionInProgressError(f"tool {tool_id} is being revised", details={"job_id": held["job_id"]})
        try:
            self.table.update(user_pk(user), f"REVISING#{tool_id}", item, expect={"job_id": held["job_id"]})
        except ConflictError as e:
            raise RevisionInProgressError(f"tool {tool_id} is being revised", details={"job_id": "?"}) from e

    def holds(self, user: str, tool_id: str, job_id: str) -> bool:
        """Whether ``job_id`` holds the tool (a job checks before it deploys: its hold may have been taken over)."""
        held = self.table.get(user_pk(user), f"REVISING#{tool_id}")
        return held is not None and held.get("job_id") == job_id

    def release(self, user: str, tool_id: str, job_id: str) -> None:
        """Give the tool back (only by the job holding it)."""
        held = self.table.get(user_pk(user), f"REVISING#{tool_id}")
        if held is not None and held.get("job_id") == job_id:
            self.table.delete(user_pk(user), f"REVISING#{tool_id}")


def _from_item(item: dict[str, Any]) -> Revision:
    data = {k: v for k, v in item.items() if k not in ("pk", "sk")}
    data["program"] = json.loads(data["program"])
    return Revision.model_validate(data)
