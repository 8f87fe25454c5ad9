"""The macaron theme: palette tokens read from one file, dark mode derived from them by one rule.

Dark rule: each palette colour becomes a mix of 30% of itself with 70% of the dark base (``dark_mix``), so the
dark page keeps the palette's hue at lower lightness. Text colours are the theme's own, chosen for contrast.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

THEME = "macaron-ui-v3"


def mix(color: str, base: str, weight: float) -> str:
    """``weight`` of ``color`` mixed with ``1 - weight`` of ``base``, as #RRGGBB."""
    a = [int(color[i : i + 2], 16) for i in (1, 3, 5)]
    b = [int(base[i : i + 2], 16) for i in (1, 3, 5)]
    return "#" + "".join(f"{round(x * weight + y * (1 - weight)):02X}" for x, y in zip(a, b, strict=True))


@cache
def tokens(templates_dir: Path) -> dict[str, Any]:
    """The theme's tokens, with the dark palette derived."""
    theme = json.loads((templates_dir / "theme" / f"{THEME}.json").read_text())
    weight, base = theme["dark_mix"], theme["dark_base"]
    theme["dark_palette"] = {name: mix(c, base, weight) for name, c in theme["palette"].items()}
    theme["dark"] = {
        "bg": base,
        "surface": mix(theme["palette"]["periwinkle"], base, 0.12),
        "border": mix(theme["palette"]["periwinkle"], base, weight),
        **theme["dark"],
    }
    return theme
