"""The tool runtime: one interpreter for every generated tool, shipped in the shared base layer.

A tool's own package holds only its ToolProgram and a three-line handler; everything else is here.
"""

from toolgen.runtime.app import ToolApp

__all__ = ["ToolApp"]
