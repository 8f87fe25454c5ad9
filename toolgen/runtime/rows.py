"""A tool's rows: one partition per tool and person (``<home>#<user>``, toolgen/table.py), one item per row.

Field values sit in a ``data`` map so that no field name can collide with the table's own attributes.

Beside the rows, the partition holds a summary item (``SUMMARY``: no entity's rows sort under it, their keys being
``<entity>#<id>`` in lower case): how many rows the person keeps, for the cap (bounds.MAX_ROWS_PER_PERSON), and a
version that every write moves, which figures cached in ``FIGURES#<operation>`` items are checked against
(figures.py). Every write moves the version after its own write, so a figure computed meanwhile is never kept as
current. A create counts itself with a conditional update that refuses past the cap, and takes its row back when
refused, so concurrent creates cannot leave more rows than the cap. (Not a transaction: moto, the embedded
emulator's DynamoDB, copies the whole table for each one, which took a create past its 10 s timeout at 100,000
rows.) Rows made before the summary existed are not counted (the cap is then that many rows late).
Reads are pages: a page of a list, the newest rows up to a bound for figures, or the next page of a digest's
build (running.py: every row once, a page at a time, over as many figures calls as it takes); each write keeps the
entity's digest (``RUNNING#<entity>``) as it goes, between its start (``running.begin``) and its end.

A tool is revised by deploying its next program over the same partition ("rename minutes to duration", "use
miles", "stop tracking the note"), so rows outlive the program that wrote them. Each row records the revision that
wrote it (``rev``; none means 1), and reading it applies the migrations of every later revision (renames, then unit
factors: migrate.py) before showing only the fields the current program declares. Rows are migrated where they are
read, never rewritten by a revision: a person may keep 100,000 rows, and rewriting them would make a revision wait
on 100,000 writes (past any Lambda's time) and, stopped half-way, leave rows of two shapes that nothing could tell
apart; read-time migration is pure Python over the items a read already holds, so it costs no request. A removed
field is hidden, not deleted, so a later revision adding it back shows it again. An update stores the row migrated
to the current revision (so a renamed field's value moves under its new name) and stamps it with that revision,
never an older one: a process still serving the previous revision while the next is deployed must not stamp a row
in the new shape as old, or a unit change would be applied to it twice.
"""

from __future__ import annotations

import datetime as dt
from typing import TYPE_CHECKING, Any

from toolgen import cursor
from toolgen.bounds import MAX_ROWS_PER_PERSON
from toolgen.errors import ConflictError
from toolgen.ids import ROW_ID_RE, sortable_id
from toolgen.runtime import running
from toolgen.runtime.errors import Invalid, RouteNotFound, TooMany
from toolgen.runtime.messages import Message
from toolgen.runtime.migrate import Migrations
from toolgen.table import ItemTable, rows_pk

if TYPE_CHECKING:  # the runtime reads programs as views (toolgen/runtime/view.py); pydantic is not imported
    from toolgen.program import Migration, ToolProgram

UPDATE_ATTEMPTS = 3
SUMMARY = "SUMMARY"
FIGURES = "FIGURES#"


def _now() -> str:
    return dt.datetime.now(dt.UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")


class RowStore:
    """Rows of one tool for one person."""

    def __init__(self, table: ItemTable, home: str, user: str, program: ToolProgram) -> None:
        self.table = table
        self.pk = rows_pk(home, user)
        self.program = program
        # a program.json deployed before revisions existed has neither (view.py reads it as it was written)
        self.revision: int = getattr(program, "revision", 1)
        by_entity: dict[str, list[Migration]] = {}
        for migration in getattr(program, "migrations", None) or []:
            by_entity.setdefault(migration.entity, []).append(migration)
        self._migrations = {entity: Migrations(migrations) for entity, migrations in by_entity.items()}
        self._plans: dict[str, running.Plan | None] = {}

    def running_plan(self, entity: str) -> running.Plan | None:
        """The digest ``entity`` keeps for its all-time figures (running.py), or None."""
        if entity not in self._plans:
            self._plans[entity] = running.plan_for(self.program, entity)
        return self._plans[entity]

    def _begin(self, entity: str) -> tuple[running.Plan | None, running.Ticket | None]:
        """Before a row of ``entity`` is written: the write counted in for its digest, if it keeps one."""
        plan = self.running_plan(entity)
        return plan, (running.begin(self.table, self.pk, plan) if plan else None)

    def _finish(self, plan: running.Plan | None, ticket: running.Ticket | None, change: dict[str, Any]) -> None:
        """After the write: its change (``added``, ``removed``; ``sure=False`` when an error left it unknown) taken
        into the digest; then the version moves again, so that figures computed while the write was in flight
        (without it) are not kept as current."""
        if plan is not None and ticket is not None:
            running.finish(self.table, self.pk, plan, ticket, **change)
            self.table.add(self.pk, SUMMARY, {"version": 1})

    def running(self, entity: str, plan: running.Plan) -> tuple[dict[str, Any] | None, bool]:
        """The entity's digest, kept or built (further) from its rows; None while it cannot be had, and whether
        it never will (this program's figures read rows for good: running.digest)."""

        def page(after: str) -> tuple[list[dict[str, Any]], str | None]:
            start = {"pk": self.pk, "sk": after} if after else None
            items, following = self.table.query_page(self.pk, f"{entity}#", start, limit=running.CHUNK)
            last = items[-1]["sk"] if items and following is not None else None
            return [self._row(entity, item) for item in items], last

        return running.digest(self.table, self.pk, plan, page)

    def _data(self, entity: str, item: dict[str, Any]) -> dict[str, Any]:
        """The row's stored data as the current revision reads it, hidden fields included."""
        data, migrations = item.get("data", {}), self._migrations.get(entity)
        return migrations.apply(data, item.get("rev", 1)) if migrations else dict(data)

    def _row(self, entity: str, item: dict[str, Any]) -> dict[str, Any]:
        """What a caller sees of a row: the fields the program declares now, migrated to it."""
        fields = self.program.entities[entity].fields
        data = self._data(entity, item)
        return {
            "id": item["id"],
            **{name: value for name, value in data.items() if name in fields},
            "created_at": item["created_at"],
            "updated_at": item.get("updated_at"),
        }

    def _sk(self, entity: str, row_id: str) -> str:
        if not ROW_ID_RE.match(row_id):
            raise RouteNotFound(Message("no_row", entity=entity, row_id=row_id))
        return f"{entity}#{row_id}"

    def create(self, entity: str, data: dict[str, Any]) -> dict[str, Any]:
        row_id, now = sortable_id("r"), _now()
        sk = f"{entity}#{row_id}"
        item = {
            "pk": self.pk,
            "sk": sk,
            "id": row_id,
            "data": data,
            "rev": self.revision,
            "created_at": now,
            "updated_at": now,
        }
        plan, ticket = self._begin(entity)
        change: dict[str, Any] = {"sure": False}  # until the row is known to be written, or not
        try:
            self.table.put(item, if_absent=True)
            try:  # counted after it is written, so a figure computed meanwhile is not kept as current
                self.table.add(self.pk, SUMMARY, {"rows": 1, "version": 1}, below={"rows": MAX_ROWS_PER_PERSON})
            except ConflictError:
                self.table.delete(self.pk, sk)  # past the cap: taken back
                change = {}
                # and the version moved, so a figure computed while the row was there is not kept as current
                self.table.add(self.pk, SUMMARY, {"version": 1})
                raise TooMany(Message("too_many_rows", limit=MAX_ROWS_PER_PERSON)) from None
            row = self._row(entity, item)
            change = {"added": row}
            return row
        finally:
            self._finish(plan, ticket, change)

    def page(
        self, entity: str, token: str | None, limit: int, *, newest_first: bool
    ) -> tuple[list[dict[str, Any]], str | None]:
        """Up to ``limit`` rows of ``entity`` in the order they were made (ids sort by creation time), from where
        ``token`` says, and the token of the next page (None after the last)."""
        prefix = f"{entity}#"
        try:
            start = cursor.decode(token, self.pk, prefix) if token is not None else None
        except cursor.BadToken as e:
            raise Invalid(Message("bad_next"), details={"next": str(e)}) from e
        # one row more than asked: whether another page exists is known now, so the last page is never empty
        items, following = self.table.query_page(self.pk, prefix, start, limit=limit + 1, newest_first=newest_first)
        if len(items) > limit:
            items, following = items[:limit], {"pk": self.pk, "sk": items[limit - 1]["sk"]}
        return [self._row(entity, item) for item in items], cursor.encode(following)

    def token_after(self, entity: str, row_id: str) -> str | None:
        """The token of the page that goes on after the row ``row_id`` of ``entity``."""
        return cursor.encode({"pk": self.pk, "sk": f"{entity}#{row_id}"})

    def recent(self, entity: str, most: int) -> list[dict[str, Any]]:
        """The ``most`` newest rows of ``entity``, oldest first: what a figure reads, whatever the row count."""
        found: list[dict[str, Any]] = []
        start = None
        while len(found) < most:
            items, start = self.table.query_page(
                self.pk, f"{entity}#", start, limit=most - len(found), newest_first=True
            )
            found.extend(items)
            if start is None:
                break
        return [self._row(entity, item) for item in reversed(found)]

    def summary(self) -> dict[str, Any]:
        """The partition's summary: ``rows`` kept and the ``version`` of its rows (both 0 before any write)."""
        return self.table.get(self.pk, SUMMARY) or {}

    def kept(self, name: str) -> dict[str, Any] | None:
        """A figure kept by figures.py under ``name``."""
        return self.table.get(self.pk, FIGURES + name)

    def keep(self, name: str, value: dict[str, Any]) -> None:
        self.table.put({"pk": self.pk, "sk": FIGURES + name, **value})

    def _moved(self, rows: int = 0) -> None:
        """After a write: the version moves (cached figures are no longer current), the count follows."""
        self.table.add(self.pk, SUMMARY, {"rows": rows, "version": 1} if rows else {"version": 1})

    def get(self, entity: str, row_id: str) -> dict[str, Any]:
        item = self.table.get(self.pk, self._sk(entity, row_id))
        if item is None:
            raise RouteNotFound(Message("no_row", entity=entity, row_id=row_id))
        return self._row(entity, item)

    def update(self, entity: str, row_id: str, changes: dict[str, Any]) -> dict[str, Any]:
        """Merge ``changes`` into a row; a concurrent change is re-read and merged again, never overwritten.

        Each attempt reads the row, then starts its write for the digest (running.begin), then writes only if the
        row is as read: so two writes of one row reach the digest in the order they reached the row."""
        sk = self._sk(entity, row_id)
        for _ in range(UPDATE_ATTEMPTS):
            item = self.table.get(self.pk, sk)
            if item is None:
                raise RouteNotFound(Message("no_row", entity=entity, row_id=row_id))
            # migrated first, so that a renamed field's value moves under its new name rather than staying behind
            merged = {**self._data(entity, item), **changes}
            rev = max(item.get("rev", 1), self.revision)  # never older: a warm process may serve the last revision
            plan, ticket = self._begin(entity)
            change: dict[str, Any] = {"sure": False}
            try:
                try:
                    updated = self.table.update(
                        self.pk,
                        sk,
                        {"data": merged, "rev": rev, "updated_at": _now()},
                        expect={"updated_at": item["updated_at"]},
                    )
                except ConflictError:
                    change = {}
                    continue
                row = self._row(entity, updated)
                change = {"added": row, "removed": self._row(entity, item)}
                self._moved()
                return row
            finally:
                self._finish(plan, ticket, change)
        raise ConflictError(f"{entity} {row_id} kept changing; try again")

    def delete(self, entity: str, row_id: str) -> None:
        """Delete a row as read (as update does: the digest takes changes in the order they reached the row)."""
        sk = self._sk(entity, row_id)
        for _ in range(UPDATE_ATTEMPTS):
            item = self.table.get(self.pk, sk)
            if item is None:
                raise RouteNotFound(Message("no_row", entity=entity, row_id=row_id))
            plan, ticket = self._begin(entity)
            change: dict[str, Any] = {"sure": False}
            try:
                try:
                    as_read = {"updated_at": item["updated_at"]} if "updated_at" in item else {"sk": sk}
                    self.table.delete(self.pk, sk, expect=as_read)
                except ConflictError:
                    change = {}
                    continue
                change = {"removed": self._row(entity, item)}
                self._moved(rows=-1)
                return
            finally:
                self._finish(plan, ticket, change)
        raise ConflictError(f"{entity} {row_id} kept changing; try again")
