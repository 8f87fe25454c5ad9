"""The macaron theme: palette tokens read from one file, dark mode derived from them by one rule.

Dark rule: each palette colour becomes a mix of 30% of itself with 70% of the dark base (``dark_mix``), so the
dark page keeps the palette's hue at lower lightness; the surface is 12% periwinkle over the base and borders
the periwinkle's dark mix. Text colours are the theme's own, chosen for contrast.

Contrast: the theme names every foreground/background pair its stylesheet puts together (``contrast``: text
pairs need WCAG AA's 4.5:1, user-interface pairs such as field borders and focus rings 3:1), in both modes;
``contrast_report`` measures them and tests/unit/test_theme.py holds the stylesheet to that list.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

THEME = "macaron-ui-v3"
MINIMUM = {"text": 4.5, "ui": 3.0}


def mix(color: str, base: str, weight: float) -> str:
    """``weight`` of ``color`` mixed with ``1 - weight`` of ``base``, as #RRGGBB."""
    a = [int(color[i : i + 2], 16) for i in (1, 3, 5)]
    b = [int(base[i : i + 2], 16) for i in (1, 3, 5)]
    return "#" + "".join(f"{round(x * weight + y * (1 - weight)):02X}" for x, y in zip(a, b, strict=True))


def luminance(color: str) -> float:
    """WCAG 2 relative luminance of #RRGGBB."""

    def channel(value: int) -> float:
        c = value / 255
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = (channel(int(color[i : i + 2], 16)) for i in (1, 3, 5))
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(foreground: str, background: str) -> float:
    """WCAG 2 contrast ratio of two colours (1 to 21)."""
    lighter, darker = sorted((luminance(foreground), luminance(background)), reverse=True)
    return (lighter + 0.05) / (darker + 0.05)


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


def colours(theme: dict[str, Any], mode: str) -> dict[str, str]:
    """Every role's colour in ``mode`` ("light" or "dark")."""
    if mode == "dark":
        return {**theme["dark_palette"], **theme["dark"]}
    return {**theme["palette"], **theme["light"]}


def contrast_report(theme: dict[str, Any]) -> list[tuple[str, str, str, str, float, float]]:
    """(mode, kind, foreground, background, ratio, minimum) for every declared pair in both modes."""
    report = []
    for mode in ("light", "dark"):
        roles = colours(theme, mode)
        for kind, pairs in theme["contrast"].items():
            for fg, bg in pairs:
                report.append((mode, kind, fg, bg, round(contrast(roles[fg], roles[bg]), 2), MINIMUM[kind]))
    return report
