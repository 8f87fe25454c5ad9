"""`toolgen spec --check`: what common importers would do with a document, before anyone tries.

Rules come from DESIGN.md section 8 (measured with Dify's own import parser; dify#2914, #12518), GPT Actions'
limits, what Dify's custom tools send (null for an optional input left out, a declared default for it) and what
openapi-python-client generates (no response for an array with no items). An *error* fails or empties the import,
or makes calls lose data; a *warning* imports but loses or misreads an input or an answer.
"""

from __future__ import annotations

import ipaddress
from dataclasses import dataclass
from typing import Any, Literal
from urllib.parse import urlsplit

METHODS = ("get", "put", "post", "delete", "options", "head", "patch", "trace")
MAX_OPERATION_DESCRIPTION = 300
MAX_PARAMETER_DESCRIPTION = 700


@dataclass(frozen=True)
class Finding:
    level: Literal["error", "warning"]
    where: str
    message: str

    def __str__(self) -> str:
        return f"{self.level}: {self.where}: {self.message}"


def _private_host(url: str) -> bool:
    host = urlsplit(url).hostname or ""
    if host in ("localhost", "") or host.endswith(".localhost"):
        return True
    try:
        return not ipaddress.ip_address(host).is_global
    except ValueError:
        return False


def _servers(doc: dict[str, Any]) -> list[Finding]:
    servers = doc.get("servers")
    if not servers:
        return [Finding("error", "servers", "no server: importers refuse a document without the tool's URL")]
    found = []
    for i, server in enumerate(servers):
        url = str(server.get("url", ""))
        if not url.startswith(("http://", "https://")):
            found.append(Finding("error", f"servers[{i}]", f"{url!r} is not an absolute http(s) URL"))
        elif _private_host(url):
            found.append(
                Finding(
                    "error",
                    f"servers[{i}]",
                    f"{url} is a loopback or private address, which importers "
                    "refuse; this document is for local use (the embedded default): import the one "
                    "of a tool deployed on AWS, whose server is its public URL",
                )
            )
    return found


def _single_type(schema: dict[str, Any], where: str) -> list[Finding]:
    if isinstance(schema.get("type"), list):
        return [Finding("error", where, f"type is a list {schema['type']}: importers fail the whole document")]
    return []


def _parameter(param: dict[str, Any], where: str) -> list[Finding]:
    if "$ref" in param:
        return [Finding("warning", where, "a $ref parameter is read as a plain string")]
    found = _single_type(param.get("schema", {}), where)
    found += _input(param.get("schema", {}), str(param.get("description", "")), where)
    if "$ref" in param.get("schema", {}):
        found.append(Finding("warning", where, "a $ref schema is read as a plain string"))
    if len(str(param.get("description", ""))) > MAX_PARAMETER_DESCRIPTION:
        found.append(Finding("error", where, f"description over {MAX_PARAMETER_DESCRIPTION} characters (GPT Actions)"))
    return found


def _bare_array(node: Any) -> bool:
    """Whether any array schema under ``node`` gives no ``items`` (openapi-python-client then drops the response)."""
    if isinstance(node, list):
        return any(_bare_array(item) for item in node)
    if not isinstance(node, dict):
        return False
    if node.get("type") == "array" and "items" not in node:
        return True
    return any(_bare_array(value) for key, value in node.items() if key not in ("example", "examples"))


def _branches(schema: dict[str, Any]) -> list[dict[str, Any]]:
    return [schema, *(b for b in schema.get("anyOf", []) if isinstance(b, dict))]


def _input(schema: dict[str, Any], description: str, where: str) -> list[Finding]:
    """What importers lose of one input (a parameter or a body property): its choices, a boolean's default."""
    found = []
    for branch in _branches(schema):
        missing = [str(c) for c in branch.get("enum") or [] if str(c) not in description]
        if missing:
            message = f"choices {', '.join(missing)} are not in the description: Dify keeps no options"
            found.append(Finding("warning", where, message))
        if branch.get("type") == "boolean" and "default" in branch and not isinstance(branch["default"], bool):
            message = "a boolean's default must be true or false: importers read it as a number or text"
            found.append(Finding("warning", where, message))
    return found


def _admits_null(prop: dict[str, Any]) -> bool:
    return any(b.get("type") == "null" for b in _branches(prop))


def _body(body: dict[str, Any], where: str, *, update: bool = False) -> list[Finding]:
    if "$ref" in body:
        return [Finding("warning", where, "a $ref to components/requestBodies drops every input")]
    content: dict[str, Any] = body.get("content", {})
    found = []
    if len(content) > 1:
        found.append(Finding("warning", where, f"{len(content)} media types: importers drop the inputs"))
    media: dict[str, Any] = content.get("application/json") or next(iter(content.values()), {})
    schema: dict[str, Any] = media.get("schema", {})
    if "allOf" in schema or schema.get("type") == "array":
        found.append(Finding("warning", where, "a top-level allOf or array body drops the inputs"))
    required = schema.get("required") or []
    for name, prop in (schema.get("properties") or {}).items():
        at = f"{where}.{name}"
        found += _single_type(prop, at)
        if "$ref" in prop or prop.get("type") == "object" or "properties" in prop:
            found.append(Finding("warning", at, "a $ref or nested object property is read as a plain string"))
        found += _input(prop, str(prop.get("description", "")), at)
        if update and any("default" in b for b in _branches(prop)):
            message = "a default in an update body: generated clients and Dify send it, resetting what was not named"
            found.append(Finding("error", at, message))
        if name not in required and not _admits_null(prop):
            message = "an optional input that does not admit null: Dify sends null for one the model leaves out"
            found.append(Finding("warning", at, message))
    return found


def check_importable(doc: dict[str, Any]) -> list[Finding]:
    """Every reason an importer would refuse or misread ``doc``; empty when it imports as it is."""
    found = [Finding("error", key, f"missing {key!r}") for key in ("info", "paths") if key not in doc]
    found += _servers(doc)
    for path, item in (doc.get("paths") or {}).items():
        if "parameters" in item:
            found.append(Finding("warning", path, "path-level parameters are dropped: declare them per operation"))
        for method in METHODS:
            op = item.get(method)
            if op is None:
                continue
            where = f"{method.upper()} {path}"
            if not op.get("operationId"):
                found.append(Finding("warning", where, "no operationId: importers make one up"))
            description = str(op.get("description") or op.get("summary") or "")
            if len(description) > MAX_OPERATION_DESCRIPTION:
                found.append(
                    Finding("error", where, f"description over {MAX_OPERATION_DESCRIPTION} characters (GPT Actions)")
                )
            for i, param in enumerate(op.get("parameters", [])):
                found += _parameter(param, f"{where} parameter {param.get('name', i)}")
            if "requestBody" in op:
                found += _body(op["requestBody"], f"{where} body", update=method in ("patch", "put"))
            for status, answer in (op.get("responses") or {}).items():
                if _bare_array(answer):
                    message = "an array with no items: openapi-python-client drops the response"
                    found.append(Finding("warning", f"{where} response {status}", message))
    return found
