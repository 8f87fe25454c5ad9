"""IAM's evaluation of identity policies, for the DynamoDB calls of a function's role session in the emulator.

moto accepts any credentials and checks no policy, so on moto alone nothing would show that a tool's credentials
reach only its own partitions. On Lambda a function's code runs as a session of its execution role, named after
the function; the embedded default does the same (MotoFunctionSource.credentials) and toolgen/local/fidelity.py
asks this module about every DynamoDB call such a session makes. Calls with the emulator's own credentials (its
operator: the CLI, the tests) are not role sessions and are not checked.

What is evaluated, as AWS documents it (IAM User Guide, "Policy evaluation logic"): an explicit Deny wins, else
an Allow whose Action, Resource and every Condition match, else the call is denied. Actions and resources match
with ``*``/``?`` (actions case-insensitively); ``NotAction``/``NotResource`` are their complements. Conditions:
the String and Arn operators (with ``ForAllValues:``/``ForAnyValue:`` and ``...IfExists``) and ``Null``, over
``aws:userid``, ``aws:PrincipalArn``, ``aws:PrincipalAccount``, ``lambda:SourceFunctionArn`` and
``dynamodb:LeadingKeys``; policy variables ``${key}`` in condition values and resources. Anything else in a
policy (another operator or key) is taken the safe way: an Allow it guards does not apply, a Deny it guards does.
A DynamoDB transaction is checked per step as the step's own action, as DynamoDB does.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from fnmatch import fnmatchcase
from typing import Any

STRING_OPERATORS = {
    "StringEquals": (False, False),  # (is a pattern, negated)
    "StringLike": (True, False),
    "StringNotEquals": (False, True),
    "StringNotLike": (True, True),
    "ArnEquals": (True, False),
    "ArnLike": (True, False),
    "ArnNotEquals": (True, True),
    "ArnNotLike": (True, True),
}
VARIABLE = re.compile(r"\$\{([^}]+)\}")
TRANSACT_STEPS = {
    "Put": "PutItem",
    "Update": "UpdateItem",
    "Delete": "DeleteItem",
    "ConditionCheck": "ConditionCheckItem",
}


@dataclass(frozen=True)
class Request:
    """One action on one resource, with what IAM knows about it and its caller."""

    action: str  # "dynamodb:GetItem"
    resource: str  # the table's ARN
    context: dict[str, list[str]] = field(default_factory=dict)  # condition keys, each with its values


def _statements(document: Any) -> list[dict[str, Any]]:
    if isinstance(document, str):
        document = json.loads(document)
    statements = document.get("Statement", [])
    return [statements] if isinstance(statements, dict) else list(statements)


def _listed(value: Any) -> list[str]:
    return [value] if isinstance(value, str) else list(value or [])


def _resolve(value: str, context: dict[str, list[str]]) -> str | None:
    """``value`` with its policy variables filled from single-valued context keys; None if one is unknown."""
    missing = False

    def fill(match: re.Match[str]) -> str:
        nonlocal missing
        found = context.get(match.group(1)) or context.get(match.group(1).lower())
        if not found or len(found) != 1:
            missing = True
            return ""
        return found[0]

    resolved = VARIABLE.sub(fill, value)
    return None if missing else resolved


def _matches_any(values: Iterable[str], patterns: list[str], *, like: bool, folded: bool = False) -> bool:
    for value in values:
        for pattern in patterns:
            if like and fnmatchcase(value.lower() if folded else value, pattern.lower() if folded else pattern):
                return True
            if not like and (value.lower() == pattern.lower() if folded else value == pattern):
                return True
    return False


def _condition(operator: str, key: str, wanted: Any, context: dict[str, list[str]]) -> bool | None:
    """Whether one condition holds; None when this module cannot tell (unknown operator)."""
    qualifier, _, base = operator.rpartition(":")
    if_exists = base.endswith("IfExists")
    base = base.removesuffix("IfExists")
    present = key in context
    values = context.get(key, [])
    if base == "Null":
        return (not present) == (str(_listed(wanted)[0]).lower() == "true")
    if base not in STRING_OPERATORS or qualifier not in ("", "ForAllValues", "ForAnyValue"):
        return None
    like, negated = STRING_OPERATORS[base]
    patterns = [p for p in (_resolve(str(w), context) for w in _listed(wanted)) if p is not None]
    if qualifier == "ForAllValues":  # every value matches (true for none at all, as IAM has it)
        return all(_matches_any([v], patterns, like=like) != negated for v in values)
    if not present:
        return if_exists
    # ForAnyValue: some value matches; unqualified (a single-valued key): its value does
    return any(_matches_any([v], patterns, like=like) != negated for v in values)


def _conditions(block: dict[str, Any], context: dict[str, list[str]]) -> bool | None:
    verdict: bool | None = True
    for operator, keys in block.items():
        for key, wanted in keys.items():
            holds = _condition(operator, key, wanted, context)
            if holds is None:
                verdict = None
            elif not holds:
                return False
    return verdict


def _applies(statement: dict[str, Any], request: Request) -> bool | None:
    """Whether the statement covers the request; None when a condition is beyond this module."""
    if "Action" in statement:
        if not _matches_any([request.action], _listed(statement["Action"]), like=True, folded=True):
            return False
    elif "NotAction" in statement:
        if _matches_any([request.action], _listed(statement["NotAction"]), like=True, folded=True):
            return False
    else:
        return False
    if "Resource" in statement or "NotResource" in statement:
        listed = _listed(statement.get("Resource", statement.get("NotResource")))
        patterns = [p for p in (_resolve(r, request.context) for r in listed) if p is not None]
        hit = _matches_any([request.resource], patterns, like=True)
        if hit != ("Resource" in statement):
            return False
    return _conditions(statement.get("Condition") or {}, request.context)


def allowed(policies: Iterable[Any], request: Request) -> bool:
    """IAM's answer for ``request`` under identity ``policies`` (documents, as dicts or JSON text)."""
    allow = False
    for document in policies:
        for statement in _statements(document):
            applies = _applies(statement, request)
            if statement.get("Effect") == "Deny" and applies is not False:
                return False
            if statement.get("Effect") == "Allow" and applies is True:
                allow = True
    return allow


def _hash_value(attributes: dict[str, Any] | None, hash_key: str) -> list[str]:
    value = (attributes or {}).get(hash_key) or {}
    return [str(next(iter(value.values())))] if value else []


def _queried(body: dict[str, Any], hash_key: str) -> list[str]:
    """The partition a Query names, in KeyConditionExpression or the older KeyConditions."""
    names = body.get("ExpressionAttributeNames") or {}
    values = body.get("ExpressionAttributeValues") or {}
    for name, placeholder in re.findall(r"(#?[\w.]+)\s*=\s*(:\w+)", body.get("KeyConditionExpression") or ""):
        if names.get(name, name) == hash_key:
            return _hash_value({"v": values.get(placeholder)}, "v")
    condition = (body.get("KeyConditions") or {}).get(hash_key) or {}
    return _hash_value({"v": (condition.get("AttributeValueList") or [None])[0]}, "v")


def dynamodb_requests(action: str, body: dict[str, Any], table_arn: Any, hash_key: Any) -> list[Request]:
    """What IAM checks for one DynamoDB call: (action, table, leading keys) per table or transaction step.

    ``table_arn(name)`` and ``hash_key(name)`` describe a table named in the call (name or ARN)."""

    def one(name: str, verb: str, keys: list[str]) -> Request:
        context = {"dynamodb:LeadingKeys": keys} if keys else {}
        return Request(f"dynamodb:{verb}", table_arn(name), context)

    name = body.get("TableName", "")
    if action in ("GetItem", "DeleteItem", "UpdateItem"):
        return [one(name, action, _hash_value(body.get("Key"), hash_key(name)))]
    if action == "PutItem":
        return [one(name, action, _hash_value(body.get("Item"), hash_key(name)))]
    if action == "Query":
        return [one(name, action, _queried(body, hash_key(name)))]
    if action == "BatchGetItem":
        return [
            one(t, action, [k for key in spec.get("Keys", []) for k in _hash_value(key, hash_key(t))])
            for t, spec in (body.get("RequestItems") or {}).items()
        ]
    if action == "BatchWriteItem":
        requests = []
        for t, writes in (body.get("RequestItems") or {}).items():
            keys = [
                k
                for w in writes
                for k in _hash_value(
                    (w.get("PutRequest") or {}).get("Item") or (w.get("DeleteRequest") or {}).get("Key"), hash_key(t)
                )
            ]
            requests.append(one(t, action, keys))
        return requests
    if action in ("TransactWriteItems", "TransactGetItems"):
        steps = []
        for item in body.get("TransactItems") or []:
            for kind, step in item.items():
                verb = "GetItem" if kind == "Get" else TRANSACT_STEPS.get(kind, kind)
                t = step.get("TableName", "")
                steps.append(one(t, verb, _hash_value(step.get("Key") or step.get("Item"), hash_key(t))))
        return steps
    return [one(name, action, [])]


__all__ = ["Request", "allowed", "dynamodb_requests"]
