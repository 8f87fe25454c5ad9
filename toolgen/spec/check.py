"""`toolgen spec --check`: what common importers would do with a document, before anyone tries.

Rules come from DESIGN.md section 8 (measured with Dify's own import parser; dify#2914, #12518) and GPT Actions'
limits. An *error* fails or empties the import; a *warning* imports but loses or misreads an input.
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
    if "$ref" in param.get("schema", {}):
        found.append(Finding("warning", where, "a $ref schema is read as a plain string"))
    if len(str(param.get("description", ""))) > MAX_PARAMETER_DESCRIPTION:
        found.append(Finding("error", where, f"description over {MAX_PARAMETER_DESCRIPTION} characters (GPT Actions)"))
    return found


def _body(body: dict[str, Any], where: str) -> list[Finding]:
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
    for name, prop in (schema.get("properties") or {}).items():
        at = f"{where}.{name}"
        found += _single_type(prop, at)
        if "$ref" in prop or prop.get("type") == "object" or "properties" in prop:
            found.append(Finding("warning", at, "a $ref or nested object property is read as a plain string"))
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
                found += _body(op["requestBody"], f"{where} body")
    return found
