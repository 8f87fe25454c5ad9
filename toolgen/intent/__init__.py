"""Stage 1, classify: a request becomes an Intent (archetype, slots, confidence, needs_external_api)."""

from toolgen.intent.classify import classify

__all__ = ["classify"]
