"""The macaron theme: one palette, every page's colours drawn from it, readable in both modes."""

from __future__ import annotations

import re

import pytest
import tinycss2
import tinycss2.color3

from tests.helpers import ARCHETYPE_PROMPTS
from toolgen.intent import classify
from toolgen.models import RecalledMemory
from toolgen.planner import OfflinePlanner
from toolgen.ui import render_page
from toolgen.ui.render import templates_dir
from toolgen.ui.theme import MINIMUM, colours, contrast, contrast_report, mix, tokens

THEME = tokens(templates_dir())
KEYWORDS = {"transparent", "currentcolor", "inherit", "initial", "unset"}


def page_css(prompt: str, dark: bool = False) -> str:
    memories = [RecalledMemory(memory_id="m1", text="dark", key="theme", value="dark", score=1)] if dark else []
    html = render_page(OfflinePlanner().plan(prompt, classify(prompt), memories).program, "https://t.example").html
    (css,) = re.findall(r"<style>(.*?)</style>", html, re.DOTALL)
    return css


def stray_colours(css: str) -> list[str]:
    """Every colour written in ``css`` that is not one of the theme's tokens (names and functions included)."""
    allowed = {c.upper() for group in ("palette", "light", "dark", "dark_palette") for c in THEME[group].values()}
    found: list[str] = []

    def visit(tokens) -> None:
        for token in tokens:
            if token.type == "function":
                if tinycss2.color3.parse_color(token) is not None:
                    found.append(tinycss2.serialize([token]))
                else:
                    visit(token.arguments)
            elif token.type == "ident" and token.lower_value in KEYWORDS:
                continue
            elif tinycss2.color3.parse_color(token) is not None:
                text = tinycss2.serialize([token])
                if token.type != "hash" or text.upper() not in allowed:
                    found.append(text)

    def rules(nodes) -> None:
        for node in nodes:
            if node.type == "qualified-rule":
                for decl in tinycss2.parse_declaration_list(node.content, skip_whitespace=True, skip_comments=True):
                    if decl.type == "declaration":
                        visit(decl.value)
            elif node.type == "at-rule" and node.content is not None:
                rules(tinycss2.parse_rule_list(node.content, skip_whitespace=True, skip_comments=True))

    rules(tinycss2.parse_stylesheet(css, skip_whitespace=True, skip_comments=True))
    return found


def test_the_stray_colour_check_finds_names_functions_and_unknown_hex():
    css = "a { color: red; background: rgb(1, 2, 3); border: 1px solid #123456; fill: var(--primary) }"
    assert stray_colours(css) == ["red", "rgb(1, 2, 3)", "#123456"]
    assert stray_colours(":root { --primary: #FF9AA2; } b { color: transparent }") == []


@pytest.mark.parametrize("archetype", sorted(ARCHETYPE_PROMPTS))
@pytest.mark.parametrize("dark", [False, True], ids=["light", "dark"])
def test_every_colour_on_every_page_is_a_theme_token(archetype, dark):
    assert stray_colours(page_css(ARCHETYPE_PROMPTS[archetype], dark)) == []


def test_the_script_writes_no_colours_of_its_own():
    script = (templates_dir() / "tool.js").read_text()
    assert not re.findall(r"#[0-9a-fA-F]{3,8}\b|\b(?:rgba?|hsla?)\(", script)
    assert "style" not in re.findall(r"setAttribute\(\"(\w+)\"", script)  # no style attributes (the CSP forbids them)


def test_the_palette_is_macaron_ui_v3():
    assert THEME["name"] == "macaron-ui-v3" and THEME["radius"] == "12px"
    assert {k: v.upper() for k, v in THEME["palette"].items()} == {
        "primary": "#FF9AA2",
        "peach": "#FFB7B2",
        "apricot": "#FFDAC1",
        "lime": "#E2F0CB",
        "mint": "#B5EAD7",
        "periwinkle": "#C7CEEA",
    }


def test_each_dark_colour_keeps_30_percent_of_its_palette_colour():
    assert THEME["dark_mix"] == 0.3
    for name, colour in THEME["palette"].items():
        assert THEME["dark_palette"][name] == mix(colour, THEME["dark_base"], 0.3)
    assert mix("#C8C8C8", "#000000", 0.3) == "#3C3C3C"  # 200 * 0.3 = 60
    css = page_css("a todo list")
    dark_block = css[css.index(':root[data-mode="dark"]') :]
    assert f"--primary: {THEME['dark_palette']['primary']};" in dark_block


@pytest.mark.parametrize(("mode", "kind", "fg", "bg", "ratio", "minimum"), contrast_report(THEME))
def test_every_pair_the_page_shows_meets_wcag_aa(mode, kind, fg, bg, ratio, minimum):
    assert ratio >= minimum, f"{fg} on {bg} in {mode}: {ratio}:1 < {minimum}:1"


def test_the_contrast_measure_is_wcags():
    assert round(contrast("#000000", "#FFFFFF"), 1) == 21.0
    assert round(contrast("#777777", "#FFFFFF"), 2) == 4.48  # the classic just-fails-AA grey


def _var(value: str) -> list[str]:
    return re.findall(r"var\(--([a-z-]+)\)", value)


def test_every_colour_pair_in_the_stylesheet_is_one_the_theme_checks():
    text_pairs = {tuple(p) for p in THEME["contrast"]["text"]}
    ui_pairs = {tuple(p) for p in THEME["contrast"]["ui"]}
    css = page_css("a todo list")
    checked = 0
    for selector, body in re.findall(r"([^{}]+)\{([^{}]*)\}", css):
        decls = dict(re.findall(r"([a-z-]+)\s*:\s*([^;]+)", body))
        backgrounds = _var(decls.get("background", "") + decls.get("background-color", ""))
        if backgrounds:
            assert "color" in decls, f"{selector.strip()} sets a background without a text colour"
        for fg in _var(decls.get("color", "")):
            for bg in backgrounds:
                assert (fg, bg) in text_pairs, f"{selector.strip()}: {fg} on {bg} is not in the contrast list"
                checked += 1
        for key in ("border", "border-color"):
            for fg in _var(decls.get(key, "")):
                for bg in backgrounds:
                    if fg != "border":  # decorative card edges; field edges are muted, checked as ui
                        assert (fg, bg) in ui_pairs, f"{selector.strip()}: {fg} edge on {bg}"
    assert checked >= 10
    # the focus ring (text, with a periwinkle halo) is drawn over any background the page has
    assert {("text", "bg"), ("text", "surface"), ("text", "primary")} <= ui_pairs


def test_both_modes_name_every_role():
    assert set(colours(THEME, "light")) == set(colours(THEME, "dark"))
    assert set(MINIMUM) == set(THEME["contrast"])
