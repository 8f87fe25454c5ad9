"""The loopback stand-in for the public APIs tools fetch from lives in toolgen/local/upstream.py (the model path's
evaluation uses it too); tests import it from here as they always have."""

from toolgen.local.upstream import Upstream

__all__ = ["Upstream"]
