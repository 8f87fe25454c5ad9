"""The single DynamoDB table, behind a small typed interface.

Key design (DESIGN.md section 5): ``pk``/``sk`` strings.
- ``USER#<user>`` partitions hold a person's jobs (``JOB#``), tools (``TOOL#``) and memories (``MEM#``);
- a tool's *home* ``TOOL#<role id>:<function name>`` holds its lease slots (``LEASE#n``) and its owners' call
  counters (``USAGE#<user>``), and ``<home>#<user>`` each person's rows. ``<role id>:<function name>`` is what IAM
  calls the function's ``aws:userid`` (Lambda names the role session after the function), so the tools' role
  allows exactly ``TOOL#${aws:userid}`` and ``TOOL#${aws:userid}#*`` as ``dynamodb:LeadingKeys``: one tool's
  credentials reach its own partitions and no other tool's, nor any platform item. Tools made before homes live
  at ``TOOL#<tool_id>`` (``legacy_home``) until ``toolgen doctor --fix`` moves them.
The low-level client is used (thread-safe, unlike a resource), or toolgen/awslite.py's in a tool's runtime: both
take and return DynamoDB's wire JSON, which this module encodes and decodes itself (so a tool's cold start
imports no boto3). Every client error is turned into toolgen's own here.
"""

from __future__ import annotations

import base64
import copy
import math
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any, Protocol

from toolgen import aws
from toolgen.errors import AWSError, ConflictError, NotFoundError


def user_pk(user: str) -> str:
    return f"USER#{user}"


# What a tool's role may do on the table (template.yaml's ToolRole, the exported bundle's role, the emulator's)
TOOL_ACTIONS = ["dynamodb:GetItem", "dynamodb:PutItem", "dynamodb:UpdateItem", "dynamodb:DeleteItem", "dynamodb:Query"]
HOME_ENV = "TOOLGEN_PARTITION"  # a tool's home, in its function's environment (TOOLGEN_HOME is the CLI's folder)


def tool_home(role_id: str, function_name: str) -> str:
    """A tool's own partition: ``TOOL#`` and the ``aws:userid`` of its function's role session."""
    return f"TOOL#{role_id}:{function_name}"


def legacy_home(tool_id: str) -> str:
    """Where a tool made before homes keeps its leases, and its rows under ``<home>#<user>``."""
    return f"TOOL#{tool_id}"


def rows_pk(home: str, user: str) -> str:
    """One person's rows of the tool living at ``home``."""
    return f"{home}#{user}"


def usage_sk(user: str) -> str:
    """A person's call counter of a tool, in the tool's home (the tool's role may count, never touch memories)."""
    return f"USAGE#{user}"


@dataclass(frozen=True)
class Put:
    """A transaction step: write a whole item (``if_absent``: only if there is none yet)."""

    item: dict[str, Any]
    if_absent: bool = False


@dataclass(frozen=True)
class Change:
    """A transaction step: set attributes, add to counters and to sets of strings, and take members out of sets,
    of an item (made if missing, unless ``must_exist``)."""

    pk: str
    sk: str
    sets: dict[str, Any] = field(default_factory=dict)
    adds: dict[str, int | float | frozenset[str]] = field(default_factory=dict)
    must_exist: bool = False
    below: dict[str, int] = field(default_factory=dict)  # only while each counter (absent counts as 0) is under
    removes: dict[str, frozenset[str]] = field(default_factory=dict)  # members taken out (an emptied set goes)
    empty: tuple[str, ...] = ()  # only while each of these sets is empty (absent)


class ItemTable(Protocol):
    """What the platform needs from its table."""

    def put(self, item: dict[str, Any], *, if_absent: bool = False) -> None: ...
    def get(self, pk: str, sk: str) -> dict[str, Any] | None: ...
    def get_many(self, keys: Sequence[tuple[str, str]]) -> list[dict[str, Any]]: ...
    def query_page(
        self,
        pk: str,
        sk_prefix: str,
        start: dict[str, Any] | None = None,
        *,
        limit: int | None = None,
        newest_first: bool = False,
    ) -> tuple[list[dict[str, Any]], dict[str, Any] | None]: ...
    def query(
        self, pk: str, sk_prefix: str = "", *, newest_first: bool = False, after: str | None = None
    ) -> list[dict[str, Any]]: ...
    def update(
        self, pk: str, sk: str, values: dict[str, Any], *, expect: dict[str, Any] | None = None
    ) -> dict[str, Any]: ...
    def delete(self, pk: str, sk: str, *, expect: dict[str, Any] | None = None) -> dict[str, Any] | None: ...
    def delete_prefix(self, pk: str, sk_prefix: str = "") -> int: ...
    def transact(self, steps: list[Put | Change]) -> None: ...
    def put_many(self, items: list[dict[str, Any]], deletes: Sequence[tuple[str, str]] = ()) -> None: ...
    def add(
        self,
        pk: str,
        sk: str,
        adds: dict[str, int | float | frozenset[str]],
        sets: dict[str, Any] | None = None,
        *,
        must_exist: bool = False,
        below: dict[str, int] | None = None,
        removes: dict[str, frozenset[str]] | None = None,
        empty: tuple[str, ...] = (),
    ) -> dict[str, Any]: ...


def encode(value: Any) -> dict[str, Any]:
    """A plain value as a DynamoDB attribute value (floats as exact decimal strings; bytes as binary)."""
    if value is None:
        return {"NULL": True}
    if isinstance(value, bool):
        return {"BOOL": value}
    if isinstance(value, str):
        return {"S": value}
    if isinstance(value, int | Decimal):
        return {"N": str(value)}
    if isinstance(value, float):
        if not math.isfinite(value):
            raise ValueError("DynamoDB numbers must be finite")
        # DynamoDB numbers stop at a magnitude of 1e-130; anything that small is stored as the zero it is.
        return {"N": repr(value) if abs(value) >= 1e-100 else "0"}
    if isinstance(value, bytes | bytearray):
        return {"B": bytes(value)}
    if isinstance(value, dict):
        return {"M": {str(k): encode(v) for k, v in value.items()}}
    if isinstance(value, list | tuple):
        return {"L": [encode(v) for v in value]}
    if isinstance(value, set | frozenset) and value and all(isinstance(v, str) for v in value):
        return {"SS": sorted(value)}  # a set of strings: ADD and DELETE change its members, each idempotent
    raise TypeError(f"cannot store a {type(value).__name__} in DynamoDB")


def _number(text: str) -> int | float:
    number = Decimal(text)
    return int(number) if number == number.to_integral_value() else float(number)


def _binary(value: Any) -> bytes:
    return bytes(value) if isinstance(value, bytes | bytearray) else base64.b64decode(value)  # wire JSON: base64


def decode(attribute: dict[str, Any]) -> Any:
    """A DynamoDB attribute value as a plain value (numbers as int or float, sets as lists)."""
    ((kind, value),) = attribute.items()
    if kind == "S" or kind == "BOOL":
        return value
    if kind == "N":
        return _number(value)
    if kind == "NULL":
        return None
    if kind == "M":
        return {k: decode(v) for k, v in value.items()}
    if kind == "L":
        return [decode(v) for v in value]
    if kind == "B":
        return _binary(value)
    if kind == "SS":
        return sorted(value)  # a set has no order: sorted, as MemoryTable keeps it, whatever order DynamoDB sends
    if kind == "NS":
        return [_number(v) for v in value]
    if kind == "BS":
        return [_binary(v) for v in value]
    raise ValueError(f"unknown DynamoDB attribute type {kind}")


BATCH_GET_MAX, BATCH_WRITE_MAX = 100, 25  # DynamoDB's limits on one BatchGetItem / BatchWriteItem
BATCH_ATTEMPTS = 8  # rounds of unprocessed keys or items before giving up


class _Refused(Exception):
    """DynamoDB refused a conditional write (the condition failed, or a transaction was cancelled)."""


class DynamoTable:
    """ItemTable on a DynamoDB table, through the shared client factory (or an injected client)."""

    def __init__(self, table_name: str, client: Any | None = None) -> None:
        self.name = table_name
        self._client = client

    @property
    def client(self) -> Any:
        if self._client is None:
            self._client = aws.client("dynamodb")
        return self._client

    @staticmethod
    def _encode(item: dict[str, Any]) -> dict[str, Any]:
        return {k: encode(v) for k, v in item.items() if v is not None}

    @staticmethod
    def _decode(raw: dict[str, Any]) -> dict[str, Any]:
        return {k: decode(v) for k, v in raw.items()}

    def _call(self, action: str, **kwargs: Any) -> Any:
        """A call on this table."""
        return self._request(action, TableName=self.name, **kwargs)

    def _request(self, action: str, **kwargs: Any) -> Any:
        """One client call; _Refused for a failed condition, AWSError for anything else AWS says."""
        try:
            return getattr(self.client, action)(**kwargs)
        except Exception as e:
            if not aws.is_aws_error(e):
                raise
            if aws.error_code(e) in ("ConditionalCheckFailedException", "TransactionCanceledException"):
                raise _Refused(aws.error_code(e)) from e
            raise aws.translate(e, f"dynamodb {action}") from e

    def put(self, item: dict[str, Any], *, if_absent: bool = False) -> None:
        extra = {"ConditionExpression": "attribute_not_exists(pk)"} if if_absent else {}
        try:
            self._call("put_item", Item=self._encode(item), **extra)
        except _Refused as e:
            raise ConflictError(f"item {item['pk']} {item['sk']} already exists") from e

    def get(self, pk: str, sk: str) -> dict[str, Any] | None:
        raw = self._call("get_item", Key=self._encode({"pk": pk, "sk": sk}), ConsistentRead=True).get("Item")
        return self._decode(raw) if raw else None

    def get_many(self, keys: Sequence[tuple[str, str]]) -> list[dict[str, Any]]:
        """The items of ``keys`` that exist, in no particular order: BatchGetItem, 100 keys a call, consistent."""
        unique = list(dict.fromkeys(keys))
        found: list[dict[str, Any]] = []
        for start in range(0, len(unique), BATCH_GET_MAX):
            chunk = [self._encode({"pk": pk, "sk": sk}) for pk, sk in unique[start : start + BATCH_GET_MAX]]
            request: dict[str, Any] = {self.name: {"Keys": chunk, "ConsistentRead": True}}
            for attempt in range(BATCH_ATTEMPTS):
                page = self._request("batch_get_item", RequestItems=request)
                found.extend(self._decode(raw) for raw in page.get("Responses", {}).get(self.name, []))
                request = page.get("UnprocessedKeys") or {}
                if not request:
                    break
                time.sleep(min(0.05 * 2**attempt, 2.0))  # unprocessed keys are throttling: back off before the rest
            else:
                raise AWSError(f"dynamodb batch_get_item left keys unread after {BATCH_ATTEMPTS} attempts")
        return found

    def query_page(
        self,
        pk: str,
        sk_prefix: str,
        start: dict[str, Any] | None = None,
        *,
        limit: int | None = None,
        newest_first: bool = False,
    ) -> tuple[list[dict[str, Any]], dict[str, Any] | None]:
        """One page (up to ``limit`` items and DynamoDB's 1 MB) of ``query(pk, sk_prefix)``, from after ``start``
        (a key, plain or as DynamoDB returns it); and where the next begins (None after the last)."""
        kwargs: dict[str, Any] = {
            "KeyConditionExpression": "pk = :pk AND begins_with(sk, :p)",
            "ExpressionAttributeValues": self._encode({":pk": pk, ":p": sk_prefix}),
            "ConsistentRead": True,
            "ScanIndexForward": not newest_first,
        }
        if limit is not None:
            kwargs["Limit"] = limit
        if start is not None:
            kwargs["ExclusiveStartKey"] = start if isinstance(start.get("sk"), dict) else self._encode(start)
        page = self._call("query", **kwargs)
        following = page.get("LastEvaluatedKey")
        return [self._decode(raw) for raw in page.get("Items", [])], self._decode(following) if following else None

    def query(
        self, pk: str, sk_prefix: str = "", *, newest_first: bool = False, after: str | None = None
    ) -> list[dict[str, Any]]:
        """Items of ``pk`` whose sort key starts with ``sk_prefix`` (and, with ``after``, is at least ``after``)."""
        if after is not None:  # base32 ids and '#' sort below '~'
            condition, values = "pk = :pk AND sk BETWEEN :a AND :z", {":pk": pk, ":a": after, ":z": sk_prefix + "~"}
        else:
            condition = "pk = :pk" + (" AND begins_with(sk, :p)" if sk_prefix else "")
            values = {":pk": pk, **({":p": sk_prefix} if sk_prefix else {})}
        kwargs: dict[str, Any] = {
            "KeyConditionExpression": condition,
            "ExpressionAttributeValues": self._encode(values),
            "ConsistentRead": True,
            "ScanIndexForward": not newest_first,
        }
        items: list[dict[str, Any]] = []
        while True:
            page = self._call("query", **kwargs)
            items.extend(self._decode(raw) for raw in page.get("Items", []))
            if "LastEvaluatedKey" not in page:
                return items
            kwargs["ExclusiveStartKey"] = page["LastEvaluatedKey"]

    def update(
        self, pk: str, sk: str, values: dict[str, Any], *, expect: dict[str, Any] | None = None
    ) -> dict[str, Any]:
        """Set (or, for None, remove) attributes of an existing item; with ``expect``, only if those still hold."""
        names = {f"#k{i}": k for i, k in enumerate(values)}
        sets = [f"#k{i} = :v{i}" for i, v in enumerate(values.values()) if v is not None]
        removes = [f"#k{i}" for i, v in enumerate(values.values()) if v is None]
        vals = {f":v{i}": v for i, v in enumerate(values.values()) if v is not None}
        condition = "attribute_exists(pk)"
        for i, (key, value) in enumerate((expect or {}).items()):
            names[f"#e{i}"] = key
            vals[f":e{i}"] = value
            condition += f" AND #e{i} = :e{i}"
        expression = ("SET " + ", ".join(sets) if sets else "") + (" REMOVE " + ", ".join(removes) if removes else "")
        try:
            raw = self._call(
                "update_item",
                Key=self._encode({"pk": pk, "sk": sk}),
                UpdateExpression=expression.strip(),
                ExpressionAttributeNames=names,
                ConditionExpression=condition,
                ReturnValues="ALL_NEW",
                **({"ExpressionAttributeValues": self._encode(vals)} if vals else {}),
            )
        except _Refused as e:
            if expect:
                raise ConflictError(f"item {sk} changed or vanished meanwhile") from e
            raise NotFoundError(f"item {sk} does not exist") from e
        return self._decode(raw["Attributes"])

    def delete(self, pk: str, sk: str, *, expect: dict[str, Any] | None = None) -> dict[str, Any] | None:
        """Delete an item; the item as it was (None: there was none). With ``expect``, only if the item exists and
        those attributes still hold (else ConflictError)."""
        extra: dict[str, Any] = {}
        if expect:
            names = {f"#e{i}": key for i, key in enumerate(expect)}
            values = {f":e{i}": value for i, value in enumerate(expect.values())}
            condition = " AND ".join(["attribute_exists(pk)", *(f"#e{i} = :e{i}" for i in range(len(expect)))])
            extra = {
                "ConditionExpression": condition,
                "ExpressionAttributeNames": names,
                "ExpressionAttributeValues": self._encode(values),
            }
        try:
            raw = self._call("delete_item", Key=self._encode({"pk": pk, "sk": sk}), ReturnValues="ALL_OLD", **extra)
        except _Refused as e:
            raise ConflictError(f"item {sk} changed or vanished meanwhile") from e
        return self._decode(raw["Attributes"]) if raw.get("Attributes") else None

    def delete_prefix(self, pk: str, sk_prefix: str = "") -> int:
        keys = [{"pk": item["pk"], "sk": item["sk"]} for item in self.query(pk, sk_prefix)]
        self._batch([{"DeleteRequest": {"Key": self._encode(k)}} for k in keys])
        return len(keys)

    def put_many(self, items: list[dict[str, Any]], deletes: Sequence[tuple[str, str]] = ()) -> None:
        """Write (and delete) independent items in as few round trips as DynamoDB allows (all land, or we raise)."""
        writes = [{"PutRequest": {"Item": self._encode(item)}} for item in items]
        writes += [{"DeleteRequest": {"Key": self._encode({"pk": pk, "sk": sk})}} for pk, sk in deletes]
        self._batch(writes)

    def _batch(self, writes: list[dict[str, Any]]) -> None:
        for start in range(0, len(writes), BATCH_WRITE_MAX):
            requests = writes[start : start + BATCH_WRITE_MAX]
            pending: dict[str, Any] = {self.name: requests}
            for attempt in range(BATCH_ATTEMPTS):
                result = self._request("batch_write_item", RequestItems=pending)
                pending = result.get("UnprocessedItems") or {}
                if not pending:
                    break
                # Unprocessed items are throttling that botocore's retries do not see; back off before resending.
                time.sleep(min(0.05 * 2**attempt, 2.0))
            else:
                raise AWSError(f"dynamodb batch_write_item left items unprocessed after {BATCH_ATTEMPTS} attempts")

    def _change(self, step: Change) -> dict[str, Any]:
        names: dict[str, str] = {}
        values: dict[str, Any] = {}
        sets, adds = [], []
        for i, (k, v) in enumerate(step.sets.items()):
            names[f"#s{i}"], values[f":s{i}"] = k, v
            sets.append(f"#s{i} = :s{i}")
        for i, (k, v) in enumerate(step.adds.items()):
            names[f"#a{i}"], values[f":a{i}"] = k, v
            adds.append(f"#a{i} :a{i}")
        removes = []
        for i, (k, v) in enumerate(step.removes.items()):
            names[f"#r{i}"], values[f":r{i}"] = k, v
            removes.append(f"#r{i} :r{i}")
        expression = (
            ("SET " + ", ".join(sets) if sets else "")
            + (" ADD " + ", ".join(adds) if adds else "")
            + (" DELETE " + ", ".join(removes) if removes else "")
        )
        update: dict[str, Any] = {
            "TableName": self.name,
            "Key": self._encode({"pk": step.pk, "sk": step.sk}),
            "UpdateExpression": expression.strip(),
            "ExpressionAttributeNames": names,
            "ExpressionAttributeValues": self._encode(values),
        }
        conditions = ["attribute_exists(pk)"] if step.must_exist else []
        for i, (k, v) in enumerate(step.below.items()):
            names[f"#b{i}"], update["ExpressionAttributeValues"][f":b{i}"] = k, encode(v)
            conditions.append(f"(attribute_not_exists(#b{i}) OR #b{i} < :b{i})")
        for i, k in enumerate(step.empty):
            names[f"#n{i}"] = k
            conditions.append(f"attribute_not_exists(#n{i})")
        if conditions:
            update["ConditionExpression"] = " AND ".join(conditions)
        return update

    def add(
        self,
        pk: str,
        sk: str,
        adds: dict[str, int | float | frozenset[str]],
        sets: dict[str, Any] | None = None,
        *,
        must_exist: bool = False,
        below: dict[str, int] | None = None,
        removes: dict[str, frozenset[str]] | None = None,
        empty: tuple[str, ...] = (),
    ) -> dict[str, Any]:
        """Add to counters atomically (the item is made if missing, unless ``must_exist``: then NotFoundError;
        with ``below``, only while those counters are under their bounds, with ``empty``, only while those sets are:
        else ConflictError). A frozenset in ``adds`` adds members to a set of strings, ``removes`` takes them out:
        unlike a counter's, both may be sent twice (a retry) to the same effect."""
        update = self._change(Change(pk, sk, sets or {}, adds, must_exist, below or {}, removes or {}, empty))
        update.pop("TableName")
        try:
            return self._decode(self._call("update_item", **update, ReturnValues="ALL_NEW")["Attributes"])
        except _Refused as e:  # only the condition reaches here: _call translates every other error
            if (below or empty) and (not must_exist or self.get(pk, sk) is not None):
                raise ConflictError(f"item {sk} reached its bound") from e
            raise NotFoundError(f"item {sk} does not exist") from e

    def transact(self, steps: list[Put | Change]) -> None:
        """All of ``steps`` or none of them; ConflictError when a condition fails."""
        items = []
        for step in steps:
            if isinstance(step, Put):
                put: dict[str, Any] = {"TableName": self.name, "Item": self._encode(step.item)}
                if step.if_absent:
                    put["ConditionExpression"] = "attribute_not_exists(pk)"
                items.append({"Put": put})
            else:
                items.append({"Update": self._change(step)})
        try:
            self._request("transact_write_items", TransactItems=items)
        except _Refused as e:
            raise ConflictError(f"a concurrent change got there first: {e.__cause__}") from e


class MemoryTable:
    """ItemTable in a dict, with the same conditional semantics as DynamoTable: for evaluation runs
    (`toolgen eval --memory`) and tests, where no AWS is wanted."""

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

    PAGE = 100  # items a page holds here (DynamoDB's page is 1 MB)

    def query_page(
        self,
        pk: str,
        sk_prefix: str,
        start: dict[str, Any] | None = None,
        *,
        limit: int | None = None,
        newest_first: bool = False,
    ) -> tuple[list[dict[str, Any]], dict[str, Any] | None]:
        items = self.query(pk, sk_prefix, newest_first=newest_first)
        if start is not None:
            edge = decode(start["sk"]) if isinstance(start["sk"], dict) else start["sk"]
            items = [i for i in items if (i["sk"] < edge if newest_first else i["sk"] > edge)]
        size = min(limit or self.PAGE, self.PAGE)
        page = items[:size]
        more = len(items) > size
        return page, ({"pk": pk, "sk": page[-1]["sk"]} if more else None)

    def query(
        self, pk: str, sk_prefix: str = "", *, newest_first: bool = False, after: str | None = None
    ) -> list[dict[str, Any]]:
        keys = sorted(
            k for k in self.items if k[0] == pk and k[1].startswith(sk_prefix) and (after is None or k[1] >= after)
        )
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

    def delete(self, pk: str, sk: str, *, expect: dict[str, Any] | None = None) -> dict[str, Any] | None:
        item = self.items.get((pk, sk))
        if expect and (item is None or any(item.get(k) != v for k, v in expect.items())):
            raise ConflictError("changed")
        return self.items.pop((pk, sk), None)

    def delete_prefix(self, pk: str, sk_prefix: str = "") -> int:
        keys = [k for k in self.items if k[0] == pk and k[1].startswith(sk_prefix)]
        for k in keys:
            del self.items[k]
        return len(keys)

    def add(
        self,
        pk: str,
        sk: str,
        adds: dict[str, int | float | frozenset[str]],
        sets: dict[str, Any] | None = None,
        *,
        must_exist: bool = False,
        below: dict[str, int] | None = None,
        removes: dict[str, frozenset[str]] | None = None,
        empty: tuple[str, ...] = (),
    ) -> dict[str, Any]:
        if must_exist and (pk, sk) not in self.items:
            raise NotFoundError("missing")
        if not self._under(pk, sk, below or {}, empty):
            raise ConflictError("bound reached")
        item = self.items.setdefault((pk, sk), {"pk": pk, "sk": sk})
        for k, v in adds.items():
            item[k] = sorted(set(item.get(k, [])) | v) if isinstance(v, frozenset) else item.get(k, 0) + v
        for k, members in (removes or {}).items():
            item[k] = sorted(set(item.get(k, [])) - members)
            if not item[k]:
                del item[k]  # DynamoDB keeps no empty set
        item.update(copy.deepcopy(sets or {}))
        return copy.deepcopy(item)

    def _under(self, pk: str, sk: str, below: dict[str, int], empty: tuple[str, ...] = ()) -> bool:
        item = self.items.get((pk, sk), {})
        return all(item.get(k, 0) < bound for k, bound in below.items()) and not any(k in item for k in empty)

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
            if isinstance(step, Change) and not self._under(step.pk, step.sk, step.below, step.empty):
                raise ConflictError("bound reached")
        for step in steps:
            if isinstance(step, Put):
                self.put(step.item)
            else:
                self.add(step.pk, step.sk, step.adds, step.sets, removes=step.removes)
