"""Where the platform's files are: the folder that holds toolgen/, ui_templates/ and functions/.

That is the repository's root in a checkout and ``python/`` in the built base layer, which copies the three
side by side, so the same relative paths work in both.
"""

from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TEMPLATES = ROOT / "ui_templates"
TOOL_HANDLER = ROOT / "functions" / "tool" / "app.py"
