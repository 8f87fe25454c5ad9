"""Stage 6, render: a ToolProgram becomes its page, pinned to the macaron theme."""

from toolgen.ui.render import Page, render_page

__all__ = ["Page", "render_page"]
