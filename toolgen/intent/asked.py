"""Fields a request asks as questions: "接了多少单、有没有发票、报没报", "how many pages, which shoes".

People say what a log or a list should hold by asking what they will want to know about each entry. The question
word gives the field's type: a count or an amount (多少, 几, how many, how much) is a number; a yes-or-no question
(有没有, 是否, V没V, 了没有, whether) is a checkbox; an either-or (岩馆还是野外) is a choice; which / what / 什么 /
哪个 ask for words; who, where, when and how long ask for a person, a place, a time and a duration. What the
question is about names the field: the noun after the question word ("哪个钓点" -> 钓点), the measure it counts in
("跑了多少公里" -> km), or, in English, the verb of "what I <verb>" ("what I was doing" -> activity).

Each asked field comes back as a dict (JSON, kept in the intent's slots): ``said`` (the words of the request, the
label in its language), ``name`` (an English field name for an English request, else ``None``), ``en`` (for a
Chinese request, the English name the question glossary gives the question, "默写错了几个" mistakes, else the one its
question word gives: "几根" a count, "多少单" orders, "花了多少" spent), ``of``
(the thing a Chinese count counts, "背了多少个单词" -> 单词, which the planner names in English), ``type``,
``unit``, ``choices``, ``min``/``max``, ``sum`` (a total of it means something), and ``field``: the library's field
when the words are one of its (toolgen/knowledge/fields.py), which the planner takes instead of a guessed one.
"""

from __future__ import annotations

import re
from typing import Any

from toolgen.knowledge.fields import requested_fields
from toolgen.knowledge.gloss import asked_entry, question_gloss
from toolgen.reading import reader

Asked = dict[str, Any]

# ---- Chinese --------------------------------------------------------------------------------------------------
_ZH_CLAUSE = re.compile(r"[，,、；;。！!？?\s：:（）()]+")
_ZH_LEAD = re.compile(
    r"^(?:(?:我|我们|帮我|想|要|还要|还想|顺便|另外|以及|还有|然后|再|并且|和|也|都)+)?"
    r"(?:(?:每天|每次|每周|每个月|每月|每回|当天)(?=记录|记一下|记下|登记|写下|标一下))?"  # "每天记一下卖了多少根"
    r"(?:(?:记录|记一下|记下|记|写下|写|登记|标一下|标记|看看|看一下|看)(?:一下)?)?"
    r"(?:每天|每次|每周|每个月|每月|每回|每顿|每餐|每局|每场|当天|当时)?(?:的)?"
)
# the verb of noting after a count or an amount asked ("错了几个记一下"); after a yes-or-no it is what is asked
# ("是否记下")
_ZH_TAIL = re.compile(r"(?:都|也)?(?:记一下|记下来|记下|记录一下|记录下来|写下来)$")
_COUNT_ASKED = re.compile(r"多少|几")
_ZH_MEASURES = {  # what a count in this measure is called, its unit, and its English name
    "公里": ("公里数", "km", "km"), "千米": ("公里数", "km", "km"), "米": ("米数", "m", "metres"),
    "步": ("步数", None, "steps"), "分钟": ("分钟数", "min", "minutes"), "小时": ("小时数", "h", "hours"),
    "个小时": ("小时数", "h", "hours"), "钟头": ("小时数", "h", "hours"), "钱": ("金额", None, "amount"),
    "块": ("金额", None, "amount"), "块钱": ("金额", None, "amount"), "元": ("金额", None, "amount"),
    "斤": ("斤数", "斤", "weight"), "公斤": ("公斤数", "kg", "kg"), "克": ("克数", "g", "grams"),
    "毫升": ("毫升", "ml", "ml"), "升": ("升数", "L", "litres"), "次": ("次数", None, "times"),
    "遍": ("遍数", None, "times"), "回": ("次数", None, "times"), "下": ("次数", None, "times"),
    "页": ("页数", None, "pages"), "章": ("章", None, "chapter"), "单": ("单数", None, "orders"),
    "份": ("份数", None, "portions"), "个": ("个数", None, "count"), "杯": ("杯数", None, "cups"),
    "瓶": ("瓶数", None, "bottles"), "张": ("张数", None, "count"), "本": ("本数", None, "books"),
    "道": ("道数", None, "count"), "组": ("组数", None, "sets"), "圈": ("圈数", None, "laps"),
    "天": ("天数", None, "days"), "人": ("人数", None, "people"), "位": ("人数", None, "people"),
    "件": ("件数", None, "items"), "条": ("条数", None, "count"), "粒": ("粒数", None, "count"),
    "片": ("片数", None, "count"), "袋": ("袋数", None, "bags"), "局": ("局数", None, "games"),
    "盘": ("盘数", None, "games"), "集": ("集数", None, "episodes"), "根": ("根数", None, "count"),
    "支": ("支数", None, "count"), "颗": ("颗数", None, "count"), "只": ("只数", None, "count"),
    "首": ("首数", None, "songs"), "篇": ("篇数", None, "articles"), "节": ("节数", None, "lessons"),
    "课": ("课数", None, "lessons"), "趟": ("趟数", None, "trips"), "盒": ("盒数", None, "boxes"),
    "包": ("包数", None, "packs"), "碗": ("碗数", None, "bowls"), "顿": ("顿数", None, "meals"),
    "勺": ("勺数", None, "spoons"), "双": ("双数", None, "pairs"), "套": ("套数", None, "sets"),
    "棵": ("棵数", None, "plants"), "朵": ("朵数", None, "flowers"), "盆": ("盆数", None, "pots"),
    "句": ("句", None, "sentences"), "段": ("段", None, "passages"), "行": ("行", None, "lines"),
    "级": ("等级", None, "level"), "星": ("星级", None, "stars"), "分": ("分数", None, "score"),
    "档": ("档位", None, "level"),
}  # fmt: skip
_NOT_VERB = set("天次每的了个月周年都要也就还把给")
_MONEY_VERBS = {  # "V了多少": how much money changed hands, and its English name
    "花": ("花费金额", "spent"), "给": ("金额", "amount"), "送": ("金额", "amount"), "付": ("付款金额", "paid"),
    "随": ("礼金", "gift money"), "交": ("金额", "paid"), "借": ("借款金额", "borrowed"), "还": ("还款金额", "repaid"),
    "已还": ("已还金额", "repaid"), "欠": ("欠款金额", "owed"), "存": ("存款金额", "saved"), "赚": ("收入", "income"),
    "挣": ("收入", "income"), "收": ("收入", "income"), "充": ("充值金额", "top-up"), "退": ("退款金额", "refund"),
    "报": ("报销金额", "reimbursed"), "卖": ("售价", "sale price"), "买": ("买入价", "purchase price"),
}  # fmt: skip
_WORDS_OF = {"句", "段", "行"}  # "几句感想": text
_GRADES = {"级", "星", "分", "档"}  # "难度几级": the grade of what precedes (难度), not a count
_SINCE = re.compile(r"(?:多少年|几年|多久|多少天|几个月|多长时间)了$")  # "养了几年了": the time since, a figure
_FIGURE = re.compile(r"算|总共|一共|合计|平均|统计|实际|^看(?!了)|^扣")  # a figure over the entries, not a field
_ZH_MEASURE = "|".join(sorted(map(re.escape, _ZH_MEASURES), key=len, reverse=True))
_HAN = r"[\u4e00-\u9fffA-Za-z0-9]"
_ONE = r"[\u4e00-\u9fff]"
_NOUN = r"(?P<x>(?:(?!第|多少|几)[\u4e00-\u9fff]){1,5})"  # what 哪个 / 什么 asks about, up to the next question
_ZH_QUESTIONS: list[tuple[re.Pattern[str], str]] = [
    (re.compile(rf"(?:有没有|是否|有无)(?P<x>{_HAN}{{1,6}})"), "boolean"),
    (re.compile(r"(?P<v>[\u4e00-\u9fff])[没不](?P=v)(?P<x>[\u4e00-\u9fff]{0,3})"), "boolean"),
    (re.compile(r"(?:给|跟|和|与|同|向|被)?谁"), "person"),
    (re.compile(r"(?:什么时候|啥时候|哪天)(?P<x>[\u4e00-\u9fff]{1,3})的$"), "date"),
    (re.compile(r"几号(?P<x>[\u4e00-\u9fff]{0,3})"), "day"),
    (re.compile(r"哪一?天|几月几[号日]"), "on"),
    (re.compile(r"(?P<x>[\u4e00-\u9fff]{1,5}?)(?:了没有|了没|没有)$"), "boolean"),
    (re.compile(rf"(?P<a>{_ONE}{{1,4}})还是(?P<b>{_ONE}{{1,4}})(?:还是(?P<c>{_ONE}{{1,4}}))?$"), "choice"),
    (re.compile(r"(?P<x>[\u4e00-\u9fff]{0,4}?)(?:得)?(?:好不好|怎么样|咋样|如何)$"), "rating"),
    (re.compile(r"(?:几点|什么时候|啥时候|什么时间)(?P<x>(?:(?!的|了|记|看|算)[\u4e00-\u9fff]){0,4})"), "time"),
    (re.compile(r"哪一?年|几几年|什么年份"), "year"),
    (re.compile(r"(?P<x>[\u4e00-\u9fff]{2,4}?)叫(?:什么|啥)(?:名字?)?$"), "called"),  # "理发师叫啥": the barber
    (re.compile(r"(?P<v>[\u4e00-\u9fff]{1,2})了?(?:什么|啥)$"), "what"),
    (re.compile(rf"(?:(?:是|的)?(?:什么|啥|哪个|哪些|哪一?[个种款条家位本首])|(?<![在去])哪(?![里儿天一])){_NOUN}"),
     "words"),
    (re.compile(r"(?:在哪里?|在哪儿|去哪里?|去的哪里?|哪里|什么地方)(?P<x>[\u4e00-\u9fff]{0,3})"), "place"),
    (re.compile(r"(?P<x>[\u4e00-\u9fff]{0,4}?)(?:多久|多长时间|多长)"), "duration"),
    (re.compile(r"(?P<x>[\u4e00-\u9fff]{0,3}?)多重"), "weight"),
    (re.compile(r"(?P<x>[\u4e00-\u9fff]{0,3}?)多远"), "distance"),
    (re.compile(r"(?P<x>[\u4e00-\u9fff]{0,3}?)多(?P<d>[高深宽厚粗大长])(?!时间|时候)"), "size"),
    (re.compile(rf"(?:多少|几|第几)(?P<m>{_ZH_MEASURE})?(?P<x>(?:(?!各|分别|都|要|是|了|的|记|看|算|写|统计|吧|呢)"
                rf"{_ONE}){{0,4}})"), "count"),
]  # fmt: skip
_ZH_RATING = ["好", "一般", "不好"]
# Measure words that say by themselves what they count, asked with 哪 and no noun ("今天读的哪本", "听的哪首").
_COUNTED = {"本": "书", "首": "歌", "家": "店", "辆": "车", "门": "课", "所": "学校", "篇": "文章", "幅": "画"}


def _zh(text: str) -> list[Asked]:
    found: list[Asked] = []
    for clause in _ZH_CLAUSE.split(text):
        clause = _ZH_LEAD.sub("", clause)
        clause = _ZH_TAIL.sub("", clause) if _COUNT_ASKED.search(clause) else clause
        if not clause or len(clause) > 14 or _FIGURE.search(clause) or _SINCE.search(clause):
            continue
        whole, read = clause, []
        while clause:  # "读了哪卷第几章": which book, and a chapter number
            hits = [(m.start(), k, m, kind) for k, (p, kind) in enumerate(_ZH_QUESTIONS) if (m := p.search(clause))]
            if not hits:
                break
            _, _, m, kind = min(hits, key=lambda hit: hit[:2])  # the leftmost question, then the likelier reading
            item = _zh_item(clause, m, kind)
            if item is not None:
                read.append((kind, item))
            clause = clause[m.end() :]
        if len(read) == 1:  # one question, which the question glossary may name
            read = [(read[0][0], _named_by_glossary(whole, *read[0]))]
        found += [item for _, item in read]
    return found


# What a question asks about when it says nothing else ("多大": a shoe's size, a person's age): the tool's subject
# names it, not the glossary
_ONLY_ASKING = re.compile(r"(?:多少|几|多[大高深宽厚粗长重远久]|什么|啥|哪|谁|怎么样|咋样|如何|吗|呢|了|的|是|有)*")
_GLOSSARY_TYPES = {"boolean", "date", "time", "string", "text"}
_UNGLOSSED = {"person", "place", "weight", "distance", "year", "choice", "day", "on"}  # read whole by the reader


def _named_by_glossary(clause: str, kind: str, item: Asked) -> Asked:
    """A question the question glossary names, with its English name: written by people who speak the language, it
    names "最后赚了多少" earnings, "默写错了几个" mistakes and "退货几单" returns, which the question's words alone
    name "final", a count and orders. The reader keeps what it reads better: a choice's options, who and where, the
    unit counted in, the label; a plain number the glossary types otherwise is typed as it says."""
    entry = asked_entry(clause)
    if entry is None or kind in _UNGLOSSED or _ONLY_ASKING.fullmatch(clause):
        return item
    name, glossed = entry
    plain = item["type"] in ("number", "integer") and not item.get("unit") and kind not in ("duration", "size")
    typed = {"type": glossed} if plain and glossed in _GLOSSARY_TYPES else {}
    return {**item, "en": name, "of": None, **typed}


def _x(m: re.Match[str]) -> str:
    return m.group("x") or ""


# Questions whose field is the same whatever the clause: (label, type, extra).
_ZH_FIXED: dict[str, tuple[str, str, dict[str, Any]]] = {
    "person": ("姓名", "string", {}),
    "place": ("地点", "string", {}),
    "weight": ("重量", "number", {}),
    "distance": ("距离", "number", {}),
    "year": ("年份", "integer", {"en": "year", "min": 1900, "max": 2100}),  # "哪年的": the year it is from
}


def _day(clause: str, m: re.Match[str]) -> Asked:
    """ "每月几号交": a day of the month; but a question the question glossary names otherwise is what it names
    ("几号油": the fuel grade)."""
    entry = question_gloss().get(clause)
    if entry is not None and entry[1] != "date":
        kind = entry[1] if entry[1] in ("number", "boolean", "time", "text") else "string"
        return {"said": clause, "type": kind, "en": entry[0]}
    return {"said": f"{_x(m)}日（几号）" if _x(m) else "几号", "type": "integer", "min": 1, "max": 31}


def _zh_item(clause: str, m: re.Match[str], kind: str) -> Asked | None:
    if kind == "person" and m.group(0)[0] in "跟和与同":  # "跟谁看的": who with
        return {"said": "同伴", "type": "string"}
    if kind == "person" and m.group(0)[0] in "给向":  # "给谁送了什么": who for
        return {"said": "对象", "type": "string"}
    if kind in _ZH_FIXED:
        said, type_, extra = _ZH_FIXED[kind]
        return {"said": said, "type": type_, **extra}
    if kind == "size":  # "浪多高" -> 浪高 (height), "水多深" -> 水深 (depth)
        dimension = m.group("d")
        english = {"高": "height", "深": "depth", "宽": "width", "厚": "thickness", "粗": "thickness", "大": "size",
                   "长": "length"}[dimension]  # fmt: skip
        return {"said": f"{_x(m)}{dimension}", "type": "number", "en": english}
    if kind == "boolean":
        return {"said": clause[: m.end()], "type": "boolean"}
    if kind == "choice":  # its options are what it keeps: the question is named as the glossary names it, if it does
        choices = [c for c in (m.group("a"), m.group("b"), m.group("c")) if c]
        named = question_gloss().get(clause)  # ("母乳还是奶粉": feeding type)
        return {"said": "/".join(choices), "type": "choice", "choices": choices, **({"en": named[0]} if named else {})}
    if kind == "rating":
        return {"said": clause, "type": "choice", "choices": _ZH_RATING} if _x(m) else None
    if kind == "date":  # "什么时候借的": when it happened
        return {"said": f"{_x(m)}的日期", "type": "date"}
    if kind == "on":  # "谁哪天干了什么": the day it happened
        return {"said": "日期", "type": "date", "en": "date"}
    if kind == "day":
        return _day(clause, m)
    if kind == "what":  # "送了什么", "换了什么": the question is the label
        return {"said": clause[m.start() :], "type": "string"}
    if kind == "time":
        return {"said": f"{_x(m)}时间", "type": "time"}
    if kind == "duration":
        doing = re.sub(r"分别|各自|一共|总共|大概|大约|每次|每天|都|了", "", _x(m))[-2:]  # "分别玩了多久" -> 玩
        return {"said": f"{doing}时长", "type": "number", "unit": "min", "sum": True}
    if kind in ("words", "called"):  # "哪个钓点" -> 钓点; "哪卷第几章" -> 卷 (the chapter is a count of its own)
        said = (_x(m).rsplit("的", 1)[-1] or _x(m)) if kind == "called" else _x(m)  # "给我理发的师傅叫啥": 师傅
        said = _COUNTED.get(said, said)  # a measure word alone says what it counts: "读的哪本" asks for a book
        return {"said": said, "type": "string"} if not re.fullmatch(r"时候|时间|地方", said) else None
    return _zh_count(clause, m)


def _zh_count(clause: str, m: re.Match[str]) -> Asked | None:
    # a count: "接了多少单" -> 接单数, "收入多少" -> 收入, "花了多少钱" -> 金额, "做了几组俯卧撑" -> 俯卧撑组数;
    # its English name is the measure's ("orders", "km", "times") or, for a count of a thing, the thing's
    measure, noun = m.group("m"), re.sub(r"[了的呢啊吧]+$", "", m.group("x"))
    before = re.sub(r"^已经", "已", re.sub(r"[了的得]+$", "", clause[: m.start()]))
    verb = before[-2:] if len(before) >= 2 and before[-2] not in _NOT_VERB else before[-1:]
    name, unit, en = _ZH_MEASURES.get(measure or "", (None, None, None))
    if measure in _GRADES:  # "线路难度几级" -> 难度; "给电影打几分" -> 分数
        if not before or re.search(r"[打评给得拿考]$", before):
            return {"said": name, "type": "integer", "en": en}
        return {"said": before[-2:], "type": "integer"}
    if noun and measure in _WORDS_OF:  # "写几句感想": a few words, not a number
        return {"said": noun, "type": "text"}
    if noun:  # "喝了几杯水" -> 水（杯）; "第几章" -> 章; "背了多少个单词" -> words
        if measure and measure != "个":
            return {"said": f"{noun}（{measure}）", "type": "number", "unit": unit, "sum": True, "made": True,
                    "of": noun, "en": en}  # fmt: skip
        return {"said": noun, "type": "number", "unit": unit, "sum": True, "of": noun}
    if name:  # "跑了多少公里" -> 公里数 (km); "接了多少单" -> 接单数; "花了多少钱" -> 金额
        if verb and unit is None and name != "金额":
            return {"said": f"{verb}{name}", "type": "number", "sum": True, "made": True, "en": en}
        return {"said": name, "type": "number", "unit": unit, "sum": True, "en": en}
    if verb in _MONEY_VERBS:  # "借了多少" -> 借款金额, "已经还了多少" -> 已还金额
        said, en = _MONEY_VERBS[verb]
        return {"said": said, "type": "number", "sum": True, "en": en}
    return {"said": before[-4:], "type": "number", "sum": True} if before else None  # "流水多少" -> 流水


# ---- English ------------------------------------------------------------------------------------------------
_PRONOUN = r"(?:i|we|he|she|they|you|it|my|our|his|her|their)"
_STOP = re.compile(
    rf"\b(?:{_PRONOUN}|did|do|does|was|were|is|are|have|had|got|get|in|on|at|for|per|each|every|and|or|of)\b"
)
_WHAT_VERBS = {  # "what I <verb>": the field it asks for
    "doing": "activity", "did": "activity", "do": "activity", "worked": "topic", "working": "topic",
    "practiced": "topic", "practised": "topic", "practicing": "topic", "practising": "topic", "studied": "topic",
    "studying": "topic", "learned": "topic", "learnt": "topic", "covered": "topic", "ate": "food", "eat": "food",
    "eaten": "food", "drank": "drink", "drink": "drink", "read": "reading", "watched": "show", "bought": "item",
    "wore": "outfit", "wearing": "outfit", "played": "game", "cooked": "dish", "made": "dish", "used": "used",
    "caught": "catch", "saw": "sighting", "spotted": "sighting", "planted": "plant", "fed": "food", "took": "taken",
}  # fmt: skip
_WORDS = r"(?P<x>[a-z][a-z-]*(?: [a-z][a-z-]*)?)"
_EXAMPLES = r"(?P<ex>[a-z]+(?:,? (?:or |and )?[a-z]+)*)"
_EN_QUESTIONS: list[tuple[re.Pattern[str], str]] = [
    (re.compile(rf"\bhow many(?: {_WORDS})?", re.I), "count"),
    (re.compile(rf"\bhow much (?:{_PRONOUN} )(?P<v>[a-z]+)\b", re.I), "change"),  # "how much it rose"
    (re.compile(rf"\bhow much(?! {_PRONOUN}\b)(?: {_WORDS})?", re.I), "amount"),
    (re.compile(rf"\bwhether (?:or not )?(?:{_PRONOUN}(?:'ve|'m|'re|'d|'s| have| has)? )?"
                rf"(?P<x>[a-z]+(?: (?:my |the |a |an )?[a-z]+)?)", re.I), "boolean"),
    (re.compile(rf"\bwhich {_WORDS}", re.I), "which"),
    (re.compile(rf"\bwhat (?:(?:my|our|his|her|their|the) [a-z]+(?=\s[a-z]+s\b)|{_PRONOUN}) "
                rf"(?:was |were |am |are |have been |had )?(?P<v>[a-z]+)(?: on| with| at)?", re.I), "what"),
    (re.compile(r"\bwhat (?:kinds? of |types? of |sorts? of )?(?P<x>(?!(?:time|kinds?|types?|sorts?|else|percent|"
                rf"percentage|is|was|are|were|do|does|did|to|if|about|it|its|a|an|the|happened|set|sets|sparked|"
                rf"triggered|triggers|caused|causes|brought|started|{_PRONOUN})\b)[a-z]+)"
                r"(?=\s*(?:$|[,.;:!?)]|and\b|or\b|i\b|we\b|he\b|she\b|they\b|it\b|was\b|were\b|is\b|"
                r"each\b|every\b|per\b|for\b|with\b|on\b|in\b|at\b))", re.I), "which"),
    (re.compile(r"\bwhat (?:set|sets|sparked|sparks|triggered|triggers|caused|causes|brought|brings|started|starts) "
                r"(?:it|them|this|that|him|her|me)\b", re.I), "cause"),
    (re.compile(rf"\b(?:when|(?:the )?(?:date|day)) {_PRONOUN} (?:first |last )?"
                r"(?P<v>[a-z]+ed|bought|got|began|started|met|made|took|put|sent|"
                r"paid|lent|gave|sold|built|found|won)\b", re.I), "when"),
    (re.compile(rf"\bwho {_PRONOUN} (?:was|were) with\b|\bwho with\b|\bwith whom\b", re.I), "company"),
    (re.compile(rf"\bhow {_PRONOUN} (?:felt|feel|was feeling)\b", re.I), "feeling"),
    # "how long we've had them", "how long since", "how long until": a figure over the dates, not a duration typed in
    (re.compile(r"\bhow long\b(?! (?:(?:we|i|you|they|he|she)(?:'ve| have|'d| had|'s| has) (?:had|known|been|lived|"
                r"owned|kept)|since|ago|until|till|left|to go|before|is left))", re.I), "duration"),
    (re.compile(r"\bwhat time\b", re.I), "time"),
    (re.compile(rf"\bwhere {_PRONOUN}\b", re.I), "place"),
    (re.compile(rf"\b(?P<x>[a-z][a-z-]*) (?:like|such as|e\.g\.) {_EXAMPLES}", re.I), "examples"),
    (re.compile(r"\b(?P<x>[a-z][a-z-]*) \((?P<ex>[a-z ]+(?:, ?[a-z ]+)+)\)", re.I), "examples"),
]  # fmt: skip
_EXAMPLE_HOSTS = re.compile(r"^(?:tags?|type|types|kinds?|category|categories|labels?|genres?|style|mood)$", re.I)


# What was done so many times, after "how many times": its doer, then the verb in the past ("I woke up", "the baby
# fed"), and its particle; a light verb ("went", "got") says nothing of its own, so the count stays times.
_TIMES_DONE = re.compile(
    r"\s*(?:(?:i|we|he|she|they|you|it|(?:my|our|his|her|their|the) [a-z]+) )?"
    r"(?P<v>[a-z]{2,}(?<!e)ed|woke|ate|ran|fell|saw|drank|threw|swam|rode|wrote|read|slept|wept)\b"
    r"(?: (?P<p>up|out|off|down|over|back)\b)?",
    re.IGNORECASE,
)


def _noun(words: str) -> str:
    """The noun phrase at the start of ``words``: "pages I read" -> "pages"."""
    return _STOP.split(words.lower())[0].strip()


# "show how many days I did it", "tell me how much is left": a figure over the entries, not a field of each
_EN_FIGURE = re.compile(
    r"\b(?:show|see|tells?|know|calculate|work out|figure out|find out|check)(?: me| us)?\s+$", re.I
)
_EN_FIGURE_NOUN = re.compile(r"\b(?:left|remaining|until|till|total|so far|overall|altogether|in a row)\b", re.I)


_CHANGES = {  # how much something changed, by its verb: the noun of the change
    "rose": "rise", "rise": "rise", "rises": "rise", "risen": "rise", "grew": "growth", "grow": "growth",
    "grown": "growth", "grows": "growth", "gained": "gain", "gain": "gain", "lost": "loss", "lose": "loss",
    "dropped": "drop", "fell": "drop", "shrank": "shrinkage", "weighed": "weight", "weighs": "weight",
    "cost": "cost", "costs": "cost", "drank": "drink", "ate": "food", "slept": "sleep", "walked": "distance",
    "ran": "distance", "earned": "earnings", "made": "earnings", "saved": "saved", "owe": "owed", "owed": "owed",
}  # fmt: skip
_SPENT = {"spent", "spend", "paid", "pay", "gave", "give", "lent", "borrowed", "charged"}  # money: an amount


def _en(text: str) -> list[Asked]:
    found: list[tuple[int, Asked]] = []
    for pattern, kind in _EN_QUESTIONS:
        for m in pattern.finditer(text):
            if kind in ("count", "amount", "change") and (
                _EN_FIGURE.search(text[max(0, m.start() - 24) : m.start()])
                or _EN_FIGURE_NOUN.search(text[m.start() : m.end() + 16])
            ):
                continue
            item = _en_item(m, kind)
            if item is not None:
                found.append((m.start(), item))
    return [item for _, item in sorted(found, key=lambda hit: hit[0])]


def _en_item(m: re.Match[str], kind: str) -> Asked | None:
    if kind == "change":  # "how much it rose": the rise; "how much they grew": the growth
        verb = m.group("v").lower()
        if verb in _SPENT:
            return {"said": "amount", "name": "amount", "type": "number", "sum": True}
        name = _CHANGES.get(verb, verb)
        return {"said": name, "name": name, "type": "number", "sum": False}
    if kind in ("count", "amount"):
        noun = _noun(m.group("x") or "")
        if not noun:  # "how much I spent": an amount; "the species and how many": a count
            if kind == "amount":
                return {"said": "amount", "name": "amount", "type": "number", "sum": True}
            return {"said": "count", "name": "count", "type": "integer", "sum": True}
        if noun.split()[0] == "times":  # "how many times I woke up": times woke up; "times a week": times
            did = _TIMES_DONE.match(m.string, m.start("x") + len("times"))
            noun = "times" + (f" {did.group('v')}" + (f" {did.group('p')}" if did.group("p") else "") if did else "")
            noun = noun.lower()
        return {"said": noun, "name": noun, "type": "integer" if kind == "count" else "number", "sum": True}
    if kind == "boolean":
        said = re.sub(r"\b(?:my|the|a|an)\b\s*", "", m.group("x").lower())
        said = re.split(r"\b(?:and|or|how|what|which|when|where|who|with|in|on|at|each|every)\b", said)[0].strip()
        said = re.sub(r"\s+(?:it|them|him|her|one|this|that)$", "", said)  # "whether she liked it": liked
        if not said:
            return None
        return {"said": said, "name": said, "type": "boolean"}
    if kind == "which":
        noun = _noun(m.group("x"))
        return {"said": noun, "name": noun, "type": "string"} if noun and noun not in ("one", "ones") else None
    if kind == "what":  # "what she eats" is "what I ate": the verb's plain form
        verb = m.group("v").lower()
        name = next((_WHAT_VERBS[v] for v in (verb, verb[:-1], verb[:-2]) if v in _WHAT_VERBS and len(v) >= 2), None)
        said = re.sub(r"\s+(?:on|with|at)$", "", m.group(0))
        return {"said": said, "name": name, "type": "string"} if name else None
    if kind == "when":  # "when I planted them": the date of that
        verb = m.group("v").lower()
        return {"said": f"date {verb}", "name": f"date_{verb}", "type": "date"}
    fixed = {
        "cause": ("trigger", "trigger", "string"),  # "what set it off": what brought it on
        "company": ("who I was with", "company", "string"),
        "feeling": ("how I felt", "feeling", "string"),
        "duration": ("how long", "duration", "number"),
        "time": ("time", "time", "time"),
        "place": ("where", "place", "string"),
    }
    if kind in fixed:
        said, name, kind_of = fixed[kind]
        return {"said": said, "name": name, "type": kind_of, **({"unit": "min"} if name == "duration" else {})}
    host = m.group("x").lower()  # examples: "tags like vegetarian or quick", "what I worked on (scales, chords)"
    if not _EXAMPLE_HOSTS.match(host):
        return None
    return {"said": host, "name": host, "type": "string"}


_BLANK: Asked = {"name": None, "en": None, "of": None, "unit": None, "choices": None, "field": None, "sum": False}
_BLANK |= {"min": None, "max": None}


@reader
def asked(text: str) -> list[Asked]:
    """The fields ``text`` asks as questions, in order, each once, without those the knowledge base knows."""
    chinese = bool(re.search(r"[\u4e00-\u9fff]", text))
    items = _zh(text) if chinese else _en(text)
    seen: set[str] = set()
    result = []
    for item in items:
        key = str(item.get("name") or item["said"])
        if not key or key in seen:
            continue
        seen.add(key)
        known = [] if item.pop("made", False) else requested_fields(str(item["said"]))
        if known:  # "在哪上" asks for the library's location, "多久" its minutes
            item = {**item, "field": known[0].name}
        result.append({**_BLANK, **item})
    return result[:6]
