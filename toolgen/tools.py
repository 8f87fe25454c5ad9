"""Tool records: what a person's tool is and where it lives (``USER#u`` / ``TOOL#id``)."""

from __future__ import annotations

import builtins
import json
from typing import Any

from toolgen import cursor
from toolgen.errors import BadPageTokenError, ConflictError, NotFoundError
from toolgen.ids import TOOL_ID_RE
from toolgen.models import ToolRecord
from toolgen.table import ItemTable, user_pk

# Program and spec are stored as JSON text: nested documents, read whole, never queried inside.
_JSON_FIELDS = ("program", "openapi")


def _to_item(record: ToolRecord) -> dict[str, Any]:
    data = record.model_dump(mode="json")
    for name in _JSON_FIELDS:
        data[name] = json.dumps(data[name])
    return {"pk": user_pk(record.user), "sk": f"TOOL#{record.tool_id}", **data}


def _from_item(item: dict[str, Any]) -> ToolRecord:
    data = {k: v for k, v in item.items() if k not in ("pk", "sk")}
    for name in _JSON_FIELDS:
        data[name] = json.loads(data[name])
    return ToolRecord.model_validate(data)


class ToolStore:
    def __init__(self, table: ItemTable) -> None:
        self.table = table

    def put(self, record: ToolRecord) -> None:
        self.table.put(_to_item(record))

    def replace(self, record: ToolRecord, revision: int) -> None:
        """Write ``record`` over the tool's record while it is still at ``revision``: ConflictError if another
        revision came first, NotFoundError if the tool was deleted meanwhile (a revise job never brings it back)."""
        item = _to_item(record)
        pk, sk = item.pop("pk"), item.pop("sk")
        try:
            self.table.update(pk, sk, item, expect={"revision": revision})
        except ConflictError:
            stored = self.table.get(pk, sk)
            if stored is None:
                raise NotFoundError(f"no tool {record.tool_id}") from None
            if "revision" in stored or revision != 1:
                raise
            self.table.update(pk, sk, item)  # kept before revisions were counted: it is at revision 1

    def get(self, user: str, tool_id: str) -> ToolRecord:
        """The tool, if it is this user's (another user's tool is reported as missing)."""
        item = self.table.get(user_pk(user), f"TOOL#{tool_id}") if TOOL_ID_RE.match(tool_id) else None
        if item is None:
            raise NotFoundError(f"no tool {tool_id}")
        return _from_item(item)

    def list(self, user: str) -> list[ToolRecord]:
        return [_from_item(i) for i in self.table.query(user_pk(user), "TOOL#", newest_first=True)]

    def page(self, user: str, token: str | None, limit: int) -> tuple[builtins.list[ToolRecord], str | None]:
        """Up to ``limit`` of the person's tools in the order of their ids (HMACs: not by time), from where
        ``token`` says (BadPageTokenError if it is not one this list gave); and the token of the next page (None
        after the last)."""
        try:
            start = cursor.decode(token, user_pk(user), "TOOL#") if token is not None else None
        except cursor.BadToken as e:
            raise BadPageTokenError(f"next: {e}", details={"next": str(e)}) from e
        items, following = self.table.query_page(user_pk(user), "TOOL#", start, limit=limit + 1, newest_first=True)
        if len(items) > limit:  # one more than asked: the last page is never an empty one
            items, following = items[:limit], {"pk": user_pk(user), "sk": items[limit - 1]["sk"]}
        return [_from_item(i) for i in items], cursor.encode(following)

    def flag(self, user: str, tool_id: str, reason: str) -> None:
        """Mark a tool for regeneration (something it was built from is no longer true)."""
        self.table.update(user_pk(user), f"TOOL#{tool_id}", {"stale_reason": reason})

    def scrub(self, user: str, tool_id: str, memory_id: str, reason: str) -> None:
        """Take a deleted memory out of a tool's record (its text, its id) and flag the tool for regeneration."""
        record = self.get(user, tool_id)
        program = dict(record.program)
        provenance = dict(program.get("provenance") or {})
        provenance["memories"] = [m for m in provenance.get("memories", []) if m != memory_id]
        program["provenance"] = provenance
        kept = [m for m in record.memories if m.memory_id != memory_id]
        self.put(record.model_copy(update={"memories": kept, "program": program, "stale_reason": reason}))

    def delete(self, user: str, tool_id: str) -> None:
        self.table.delete(user_pk(user), f"TOOL#{tool_id}")
