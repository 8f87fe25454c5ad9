"""Pages from ui_templates/: one Jinja Environment per process, autoescape on, StrictUndefined.

The page's script and style are inline and allowed by their SHA-256 in the Content-Security-Policy, so the page
is one self-contained file (it can be served from the bucket as is) and no other script can run in it.
"""

from __future__ import annotations

import base64
import hashlib
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from jinja2 import Environment, FileSystemLoader, StrictUndefined, select_autoescape
from markupsafe import Markup

from toolgen.paths import TEMPLATES
from toolgen.planner.labels import figure
from toolgen.program import ToolProgram
from toolgen.ui.layout import views
from toolgen.ui.theme import THEME, tokens

_LABELS: dict[str, dict[str, Any]] = {
    "en": {
        "asked": "You asked",
        "changed": "New in revision {n}",
        "suggestion": "Suggestion",
        "accept": "Yes, change it",
        "reject": "No, thanks",
        "dismiss": "Not now",
        "revising": "Changing the tool…",
        "rejected": "Got it: that will not be suggested again.",
        "toggle_mode": "Light / dark",
        "token_title": "Sign in",
        "token": "Access token",
        "save": "Save",
        "add": "Add",
        "delete": "Delete",
        "empty": "Nothing here yet.",
        "more": "More",
        "newest": "Over your newest {n} entries.",
        "all_figures": "All figures",
        "saved": "Saved.",
        "load": "Load",
        "run": "Run",
        "edit": "Edit",
        "cancel": "Cancel",
        "save_changes": "Save changes",
        "actions": "Actions",
        "loading": "Loading…",
        "chart": "{label}, by day",
        "readings_chart": "{label}, each reading",
        "series_chart": "{label}, by period",
        "period": "Period",
        "week": "Week {week}, {year}",
        "week_short": "W{week}",
        "month": "{name} {year}",
        "month_short": "{name}",
        "months": ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"],
        "day": "{month}/{day}",
        "year": "{year}",
        "apply": "Show",
        "list_hint": "(separated by commas)",
        "needs": "fill in {fields}",
        "unreachable": "The tool could not be reached. Check your connection and try again.",
        "yes": "✓",
        "no": "✗",
        "none": "—",
    },
    "zh": {
        "asked": "你的需求",
        "changed": "第 {n} 版的改动",
        "suggestion": "建议",
        "accept": "好，就这样改",
        "reject": "不用了",
        "dismiss": "以后再说",
        "revising": "正在修改工具…",
        "rejected": "好的，以后不再这样建议。",
        "toggle_mode": "浅色 / 深色",
        "token_title": "登录",
        "token": "访问令牌",
        "save": "保存",
        "add": "添加",
        "delete": "删除",
        "empty": "还没有记录。",
        "more": "更多",
        "newest": "按最近的 {n} 条记录计算。",
        "all_figures": "全部数据",
        "saved": "已保存。",
        "load": "加载",
        "run": "计算",
        "edit": "编辑",
        "cancel": "取消",
        "save_changes": "保存修改",
        "actions": "操作",
        "loading": "加载中…",
        "chart": "{label}（按天）",
        "readings_chart": "{label}（每次记录）",
        "series_chart": "{label}（按周期）",
        "period": "周期",
        "week": "{year}年第{week}周",
        "week_short": "第{week}周",
        "month": "{year}年{month}月",
        "month_short": "{month}月",
        "months": ["1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "11", "12"],
        "day": "{month}月{day}日",
        "year": "{year}年",
        "apply": "查看",
        "list_hint": "（用逗号分隔）",
        "needs": "请填写{fields}",
        "unreachable": "无法连接到工具，请检查网络后重试。",
        "yes": "是",
        "no": "否",
        "none": "无",
    },
}


SELF = "'self'"
_SERVER_SIDE = {"url", "query", "select", "constants", "outputs", "metrics"}


@dataclass(frozen=True)
class Page:
    html: str
    csp: str


def templates_dir() -> Path:
    """ui_templates/, beside the toolgen package both in the repository and in the base layer."""
    return TEMPLATES


@cache
def environment() -> Environment:
    env = Environment(
        loader=FileSystemLoader(templates_dir()),
        autoescape=select_autoescape(["html", "j2"], default_for_string=True, default=True),
        undefined=StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
    )
    env.policies["json.dumps_kwargs"] = {"sort_keys": False, "ensure_ascii": False}  # keep the program's field order
    return env


def _trusted(text: str, what: str) -> Markup:
    """Our own script or style, inserted verbatim (escaping it would break it and its CSP hash)."""
    if "</" in text or "<!--" in text:
        raise ValueError(f"the page's {what} must not contain '</' or '<!--'")
    return Markup(text)  # noqa: S704 - from ui_templates/, never from a person


def _sha256(text: str) -> str:
    return "'sha256-" + base64.b64encode(hashlib.sha256(text.encode()).digest()).decode() + "'"


def _origin(url: str) -> str:
    parts = urlsplit(url)
    return f"{parts.scheme}://{parts.netloc}"


def _figure_name(program: ToolProgram, name: str) -> str:
    """A figure's display name: the program's own, else the text table's for its archetype, else the name itself."""
    lang = program.ui.lang
    known = program.labels.get(name) or figure(program.archetype, name, lang)
    return known or (name if lang == "zh" else name.replace("_", " ").capitalize())


def _config(program: ToolProgram, tool_url: str) -> dict[str, Any]:
    lang = program.ui.lang
    names = dict.fromkeys(
        name
        for op in program.operations
        for attribute in ("metrics", "outputs", "computed", "fields")  # a fetch's fields are the figures it shows
        for name in getattr(op, attribute, None) or {}
        if not (attribute == "fields" and op.kind != "fetch")
    )
    metrics = {name: _figure_name(program, name) for name in names}
    return {
        "tool_url": tool_url,
        "suggestions": bool(tool_url),  # an exported tool serves its own page, with no platform to ask
        "lang": lang,
        "labels": {**_LABELS[lang], "metrics": metrics},
        "entities": {name: e.model_dump() for name, e in program.entities.items()},
        "views": views(program),  # what each entity's page puts first, and its chart (toolgen/ui/layout.py)
        # The page needs routes and fields, not how an operation is computed or where it fetches from.
        "operations": [op.model_dump(exclude=_SERVER_SIDE) for op in program.operations],
    }


def _settings(program: ToolProgram) -> list[tuple[str, str]]:
    """The tool's settings as the page shows them: each label (its name when it has none) and its value."""
    sep = "、" if program.ui.lang == "zh" else ", "
    shown = []
    for name, setting in program.settings.items():
        value = setting.value
        text = sep.join(str(v) for v in value) if isinstance(value, list) else str(value)
        shown.append((setting.label or name, text))
    return shown


def render_page(
    program: ToolProgram, tool_url: str, *, notice: str | None = None, changes: list[str] | None = None
) -> Page:
    """The tool's page and the Content-Security-Policy it must be served with; ``tool_url`` "" for a page the
    tool serves itself (it then calls its own origin). ``notice``: what the platform has to tell the person
    about the tool (its source did not answer when it was made), shown at the top as text. ``changes``: what its
    latest revision changed, in its language, shown under the title."""
    env = environment()
    css = env.get_template("theme.css.j2").render(t=tokens(templates_dir())).strip()
    script = (templates_dir() / "tool.js").read_text()
    csp = "; ".join(
        [
            "default-src 'none'",
            f"script-src {_sha256(script)}",
            f"style-src {_sha256(css)}",
            # a page the platform serves also asks the platform (its own origin) for the tool's suggestions
            f"connect-src {_origin(tool_url) + ' ' + SELF if tool_url else SELF}",
            "img-src data:",
            "base-uri 'none'",
            "form-action 'none'",
            "frame-ancestors 'none'",
        ]
    )
    html = env.get_template("page.html.j2").render(
        program=program,
        lang=program.ui.lang,
        theme=THEME,
        mode=program.ui.mode,
        labels=_LABELS[program.ui.lang],
        # frame-ancestors works only as a header (a browser ignores it, and says so, in a <meta> element)
        csp="; ".join(d for d in csp.split("; ") if not d.startswith("frame-ancestors")),
        css=_trusted(css, "style"),
        script=_trusted(script, "script"),
        config=_config(program, tool_url),
        notice=notice,
        settings=_settings(program),
        changes=changes or [],
        changed=str(_LABELS[program.ui.lang]["changed"]).format(n=program.revision),
    )
    return Page(html=html, csp=csp)
