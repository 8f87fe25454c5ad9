"""Stage 4, specify: a ToolProgram becomes an OpenAPI 3.1 document, validated before anything is deployed."""

from toolgen.spec.openapi import build_spec, validate_spec

__all__ = ["build_spec", "validate_spec"]
