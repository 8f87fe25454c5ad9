"""What a tool says when a call fails, in the tool's own language (English or Chinese).

An error carries a Message (a key and its parameters) rather than finished words: where it is raised, a value
checked deep in values.py, the tool's language is not known; ToolApp.handle says it in ``program.ui.lang``. Only
the message changes with the language: an error's code and details stay the same, for the programs that read them.
Standard library only, as everything a tool's cold start imports.
"""

from __future__ import annotations

from typing import Any

# key: (English, Chinese). English names a field by its name, as the API does; Chinese by its label.
_TEXT: dict[str, tuple[str, str]] = {
    # values.py: one value
    "not_a_kind": ("{name} must be a {kind}", "{label}必须是{kind}"),
    "not_whole": ("{name} must be a whole number", "{label}必须是整数"),
    "out_of_range": ("{name} is out of range", "{label}超出范围"),
    "too_small": ("{name} must be at least {minimum:g}", "{label}不能小于 {minimum:g}"),
    "too_large": ("{name} must be at most {maximum:g}", "{label}不能大于 {maximum:g}"),
    "not_boolean": ("{name} must be true or false", "{label}必须是 true 或 false"),
    "not_text": ("{name} must be text", "{label}必须是文本"),
    "not_date": ("{name} must be a date like 2026-12-31", "{label}必须是日期，例如 2026-12-31"),
    "not_time": ("{name} must be a time like 06:30", "{label}必须是时间，例如 06:30"),
    "too_long": ("{name} is longer than {max_length} characters", "{label}不能超过 {max_length} 个字符"),
    "control": ("{name} holds control characters", "{label}含有控制字符"),
    "not_allowed": ("{name} must be one of {choices}", "{label}必须是以下之一：{choices}"),
    "not_list": ("{name} must be a list", "{label}必须是一个列表"),
    "too_many_items": ("{name} holds more than {max_items} items", "{label}最多 {max_items} 项"),
    # expressions.py: a figure the caller's inputs put out of range (an overflow, the root of a negative)
    "result_out_of_range": (
        "{name} cannot be computed from these inputs: the result is out of range",
        "{label}无法用这些输入算出：结果超出范围",
    ),
    # values.py: a whole input
    "not_object": ("the body must be a JSON object", "请求体必须是 JSON 对象"),
    "invalid_input": ("invalid input ({summary})", "输入有误（{summary}）"),
    # app.py
    "not_owner": ("this tool belongs to someone else", "这个工具属于别人"),
    "unknown_query": ("unknown query parameters", "有无法识别的查询参数"),
    "bad_next": ("next is not a page token of this list", "next 不是这个列表给出的翻页标记"),
    "too_many_rows": (
        "this tool keeps at most {limit} rows for one person: delete some before adding more",
        "这个工具每人最多保存 {limit} 条记录，请先删除一些再添加",
    ),
    "repeated_query": ("a query parameter is given more than once", "有查询参数重复出现"),
    "no_route": ("no route {method} {path}", "没有这个接口：{method} {path}"),
    "no_method": ("{path} does not take {method}; it takes {allowed}", "{path} 不支持 {method}，只支持 {allowed}"),
    "nothing_to_change": ("nothing to change", "没有要修改的内容"),
    "no_handler": ("operation {op} has no handler", "操作 {op} 无法处理"),
    "not_utf8": ("the body is not valid UTF-8", "请求体不是有效的 UTF-8"),
    "too_big": ("the body is larger than {limit} bytes", "请求体超过 {limit} 字节"),
    "no_body": ("a JSON object body is required", "需要一个 JSON 对象作为请求体"),
    "not_json": ("the body is not valid JSON", "请求体不是有效的 JSON"),
    "too_deep": ("the body nests too deeply", "请求体嵌套层数过多"),
    # errors raised outside the runtime (toolgen/auth.py, the table), said in Chinese by their type (in English
    # by their own, more precise, words)
    "unauthorized": ("the access token is missing, invalid or expired", "访问令牌缺失、无效或已过期，请重新登录"),
    "conflict": ("the row changed meanwhile; try again", "这条记录刚被修改过，请重试"),
    "busy": (
        "this tool is already answering {limit} calls at once; try again in a second",
        "这个工具正在同时处理 {limit} 个请求，请稍后再试",
    ),
    # rows.py
    "no_row": ("no {entity} {row_id!r}", "找不到这条记录（{row_id}）"),
    # fetch.py
    "no_resolve": ("cannot resolve {host}", "无法解析 {host}"),
    "not_public": ("{host} resolves to a non-public address", "{host} 指向非公网地址"),
    "no_answer": ("{host} did not answer: {reason}", "{host} 没有响应"),
    "too_slow": ("{host} did not answer within {limit:g} s", "{host} 在 {limit:g} 秒内没有答完"),
    "not_allowed_host": ("{host} is not an allowed host for this tool", "这个工具不能访问 {host}"),
    "upstream_status": ("{host} answered HTTP {status}", "{host} 返回了 HTTP {status}"),
    "upstream_too_big": ("{host} answered more than {limit} bytes", "{host} 返回的数据超过 {limit} 字节"),
    "upstream_not_json": ("{host} answered something that is not JSON", "{host} 返回的不是 JSON"),
    "redirects": ("more than {limit} redirects", "重定向超过 {limit} 次"),
    "upstream_shape": ("the answer from {host} has an unexpected shape", "{host} 返回的数据格式不对"),
    "upstream_lacks": ("the answer from {host} lacks what this tool needs", "{host} 返回的数据缺少这个工具需要的内容"),
}
# A field's problem, as details give it (the same in both languages), in Chinese words for the message.
_PROBLEMS_ZH = {
    "unknown field": "未知字段",
    "required": "必填",
    "not a number": "不是数字",
    "expected number": "应为数字",
    "expected integer": "应为整数",
    "out of range": "超出范围",
    "too small": "太小",
    "too large": "太大",
    "expected boolean": "应为 true 或 false",
    "expected string": "应为文本",
    "expected YYYY-MM-DD": "应为 YYYY-MM-DD 格式的日期",
    "expected HH:MM": "应为 HH:MM 格式的时间",
    "too long": "太长",
    "control characters": "含有控制字符",
    "not allowed": "不在可选范围内",
    "expected list": "应为列表",
    "too many items": "项数太多",
    "unknown parameter": "未知参数",
    "repeated parameter": "参数重复",
}
_KINDS_ZH = {"number": "数字", "integer": "整数"}


class Message:
    """Words to say once the tool's language is known: ``Message("too_small", name="minutes", minimum=0)``."""

    __slots__ = ("key", "params")

    def __init__(self, key: str, **params: Any) -> None:
        self.key = key
        self.params = params

    def text(self, lang: str = "en") -> str:
        """The message in ``lang`` ("en" or "zh")."""
        en, zh = _TEXT[self.key]
        params = dict(self.params)
        if lang == "zh":
            params["label"] = params.get("label") or params.get("name", "")
            params["kind"] = _KINDS_ZH.get(params.get("kind", ""), params.get("kind", ""))
            if "choices" in params:
                params["choices"] = "、".join(params["choices"])
            if "problems" in params:
                params["summary"] = "；".join(
                    f"{label or name}：{_PROBLEMS_ZH.get(p, p)}" for name, label, p in params["problems"]
                )
            return zh.format(**params)
        if "choices" in params:
            params["choices"] = ", ".join(params["choices"])
        if "problems" in params:
            params["summary"] = "; ".join(f"{name}: {problem}" for name, _, problem in params["problems"])
        return en.format(**params)

    def __repr__(self) -> str:
        return f"Message({self.key!r}, **{self.params!r})"


def say(key: str, lang: str, **params: Any) -> str:
    """The message ``key`` in ``lang``."""
    return Message(key, **params).text(lang)
