"""A tool's rows: one partition per tool and person (``<home>#<user>``, toolgen/table.py), one item per row.

Field values sit in a ``data`` map so that no field name can collide with the table's own attributes.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from toolgen.errors import ConflictError
from toolgen.ids import ROW_ID_RE, sortable_id
from toolgen.runtime.errors import RouteNotFound
from toolgen.runtime.messages import Message
from toolgen.table import ItemTable, rows_pk

UPDATE_ATTEMPTS = 3


def _now() -> str:
    return dt.datetime.now(dt.UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")


def _row(item: dict[str, Any]) -> dict[str, Any]:
    return {
        "id": item["id"],
        **item.get("data", {}),
        "created_at": item["created_at"],
        "updated_at": item.get("updated_at"),
    }


class RowStore:
    """Rows of one tool for one person."""

    def __init__(self, table: ItemTable, home: str, user: str) -> None:
        self.table = table
        self.pk = rows_pk(home, user)

    def _sk(self, entity: str, row_id: str) -> str:
        if not ROW_ID_RE.match(row_id):
            raise RouteNotFound(Message("no_row", entity=entity, row_id=row_id))
        return f"{entity}#{row_id}"

    def create(self, entity: str, data: dict[str, Any]) -> dict[str, Any]:
        row_id, now = sortable_id("r"), _now()
        item = {
            "pk": self.pk,
            "sk": f"{entity}#{row_id}",
            "id": row_id,
            "data": data,
            "created_at": now,
            "updated_at": now,
        }
        self.table.put(item, if_absent=True)
        return _row(item)

    def all(self, entity: str) -> list[dict[str, Any]]:
        """Every row of ``entity``, oldest first (ids sort by creation time)."""
        return [_row(item) for item in self.table.query(self.pk, f"{entity}#")]

    def get(self, entity: str, row_id: str) -> dict[str, Any]:
        item = self.table.get(self.pk, self._sk(entity, row_id))
        if item is None:
            raise RouteNotFound(Message("no_row", entity=entity, row_id=row_id))
        return _row(item)

    def update(self, entity: str, row_id: str, changes: dict[str, Any]) -> dict[str, Any]:
        """Merge ``changes`` into a row; a concurrent change is re-read and merged again, never overwritten."""
        sk = self._sk(entity, row_id)
        for _ in range(UPDATE_ATTEMPTS):
            item = self.table.get(self.pk, sk)
            if item is None:
                raise RouteNotFound(Message("no_row", entity=entity, row_id=row_id))
            merged = {**item.get("data", {}), **changes}
            try:
                updated = self.table.update(
                    self.pk, sk, {"data": merged, "updated_at": _now()}, expect={"updated_at": item["updated_at"]}
                )
            except ConflictError:
                continue
            return _row(updated)
        raise ConflictError(f"{entity} {row_id} kept changing; try again")

    def delete(self, entity: str, row_id: str) -> None:
        if not self.table.delete(self.pk, self._sk(entity, row_id)):
            raise RouteNotFound(Message("no_row", entity=entity, row_id=row_id))
