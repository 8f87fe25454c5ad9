"""In-memory fakes of the interfaces toolgen defines (not of AWS): used where a test is about our logic."""

from __future__ import annotations

import copy
from collections.abc import Sequence
from typing import Any

from toolgen.errors import ConflictError, NotFoundError
from toolgen.table import Change, Put


class FakeTable:
    """ItemTable in a dict, with the same conditional semantics as DynamoTable."""

    def __init__(self) -> None:
        self.items: dict[tuple[str, str], dict[str, Any]] = {}

    def put(self, item: dict[str, Any], *, if_absent: bool = False) -> None:
        key = (item["pk"], item["sk"])
        if if_absent and key in self.items:
            raise ConflictError("exists")
        self.items[key] = copy.deepcopy({k: v for k, v in item.items() if v is not None})

    def get(self, pk: str, sk: str) -> dict[str, Any] | None:
        found = self.items.get((pk, sk))
        return copy.deepcopy(found) if found else None

    def get_many(self, keys: Sequence[tuple[str, str]]) -> list[dict[str, Any]]:
        return [copy.deepcopy(self.items[k]) for k in dict.fromkeys(keys) if k in self.items]

    def query(self, pk: str, sk_prefix: str = "", *, newest_first: bool = False) -> list[dict[str, Any]]:
        keys = sorted(k for k in self.items if k[0] == pk and k[1].startswith(sk_prefix))
        if newest_first:
            keys.reverse()
        return [copy.deepcopy(self.items[k]) for k in keys]

    def update(
        self, pk: str, sk: str, values: dict[str, Any], *, expect: dict[str, Any] | None = None
    ) -> dict[str, Any]:
        item = self.items.get((pk, sk))
        if item is None or any(item.get(k) != v for k, v in (expect or {}).items()):
            if expect:
                raise ConflictError("changed")
            raise NotFoundError("missing")
        for k, v in values.items():
            if v is None:
                item.pop(k, None)
            else:
                item[k] = copy.deepcopy(v)
        return copy.deepcopy(item)

    def delete(self, pk: str, sk: str) -> bool:
        return self.items.pop((pk, sk), None) is not None

    def delete_prefix(self, pk: str, sk_prefix: str = "") -> int:
        keys = [k for k in self.items if k[0] == pk and k[1].startswith(sk_prefix)]
        for k in keys:
            del self.items[k]
        return len(keys)

    def add(
        self,
        pk: str,
        sk: str,
        adds: dict[str, int | float],
        sets: dict[str, Any] | None = None,
        *,
        must_exist: bool = False,
    ) -> dict[str, Any]:
        if must_exist and (pk, sk) not in self.items:
            raise NotFoundError("missing")
        item = self.items.setdefault((pk, sk), {"pk": pk, "sk": sk})
        for k, v in adds.items():
            item[k] = item.get(k, 0) + v
        item.update(copy.deepcopy(sets or {}))
        return copy.deepcopy(item)

    def put_many(self, items: list[dict[str, Any]], deletes: Sequence[tuple[str, str]] = ()) -> None:
        for item in items:
            self.put(item)
        for pk, sk in deletes:
            self.delete(pk, sk)

    def transact(self, steps: list[Put | Change]) -> None:
        for step in steps:  # check every condition before making any change, as DynamoDB does
            if isinstance(step, Put) and step.if_absent and (step.item["pk"], step.item["sk"]) in self.items:
                raise ConflictError("exists")
            if isinstance(step, Change) and step.must_exist and (step.pk, step.sk) not in self.items:
                raise ConflictError("missing")
        for step in steps:
            if isinstance(step, Put):
                self.put(step.item)
            else:
                self.add(step.pk, step.sk, step.adds, step.sets)
