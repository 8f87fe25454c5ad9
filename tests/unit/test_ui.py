"""Pages: escaped, self-contained, allowed to run only their own script, pinned to the macaron theme."""

import base64
import hashlib
import re
from html.parser import HTMLParser

import pytest

from tests.unit.test_planner import PROMPTS
from toolgen.intent import classify
from toolgen.planner import OfflinePlanner
from toolgen.ui import render_page

TOOL_URL = "https://abc.lambda-url.us-east-1.on.aws"
SVG_NAMESPACE = "http://www.w3.org/2000/svg"  # a name for createElementNS, never fetched
HOSTILE = '<script>alert(1)</script> "><img src=x onerror=alert(1)> log my runs'


def page_for(prompt: str, mode_memory: str | None = None):
    from toolgen.models import RecalledMemory

    memories = (
        [RecalledMemory(memory_id="m1", text="dark", key="theme", value=mode_memory, score=1)] if mode_memory else []
    )
    return render_page(OfflinePlanner().plan(prompt, classify(prompt), memories).program, TOOL_URL)


class _Attributes(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.names: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.names += [name for name, _ in attrs]


def inline_handlers(html: str) -> list[str]:
    """Attributes like onclick= on any element (the page's script adds its listeners itself)."""
    parser = _Attributes()
    parser.feed(html)
    return [name for name in parser.names if name.lower().startswith("on")]


def test_inline_handler_check_finds_them():
    assert inline_handlers('<p><img src=x onerror="alert(1)"><b onClick=go()>x</b></p>') == ["onerror", "onclick"]


def inline(tag: str, html: str) -> list[str]:
    return re.findall(rf"<{tag}>(.*?)</{tag}>", html, re.DOTALL)


def test_what_the_person_typed_is_escaped():
    html = page_for(HOSTILE).html
    assert "<script>alert(1)" not in html
    assert "<img src=x" not in html
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html


def test_only_the_pages_own_script_and_style_may_run():
    page = page_for("I want to log my runs")
    (script,) = inline("script", page.html)
    (style,) = inline("style", page.html)
    digest = lambda text: "'sha256-" + base64.b64encode(hashlib.sha256(text.encode()).digest()).decode() + "'"  # noqa: E731
    assert f"script-src {digest(script)}" in page.csp
    assert f"style-src {digest(style)}" in page.csp
    assert "unsafe-inline" not in page.csp and "default-src 'none'" in page.csp
    assert "connect-src https://abc.lambda-url.us-east-1.on.aws" in page.csp


@pytest.mark.parametrize("prompt", PROMPTS.values())
def test_pages_carry_the_theme_and_no_inline_handlers(prompt):
    html = page_for(prompt).html
    assert 'data-theme="macaron-ui-v3"' in html
    assert "--primary: #FF9AA2;" in html and "--radius: 12px;" in html
    assert not inline_handlers(html), "no inline event handlers"
    urls = [u for u in re.findall(r"https?://[^\s\"'<>)]+", html) if u != SVG_NAMESPACE]
    assert urls and all(u.startswith(TOOL_URL) for u in urls), "no third-party origins"


def test_dark_memory_gives_a_dark_page():
    assert 'data-mode="dark"' in page_for("a todo list", mode_memory="dark").html
    assert "data-mode" not in page_for("a todo list").html.split(">")[1]


def test_chinese_request_gets_a_chinese_page():
    html = page_for("我想记录每天晨跑").html
    assert '<html lang="zh"' in html and "跑步记录" in html


@pytest.mark.parametrize(
    ("prompt", "notice"),
    [
        ("rank Beijing and Shanghai by max temperature", "Made, but <b>its data source</b> did not answer"),
        ("看一下北京今天的紫外线指数", "工具已经做好，但试用时数据来源没有响应"),
    ],
)
def test_a_notice_is_shown_at_the_top_of_the_page_as_text(prompt, notice):
    program = OfflinePlanner().plan(prompt, classify(prompt), []).program
    html = render_page(program, TOOL_URL, notice=notice).html
    escaped = notice.replace("<", "&lt;").replace(">", "&gt;")
    assert f'<p class="notice" role="alert">{escaped}</p>' in html
    assert 'class="notice"' not in render_page(program, TOOL_URL).html
