"""What a request says each of its tool's rows holds, wherever in the sentence it says it.

Three kinds of saying, each read by the form of the sentence rather than by a subject's words:
- a run of attributes: "单词、意思、例句", "名字、生日、绝育没", "- restaurant, what i got, how much",
  "钓鱼记录 地点 天气 钓了几条" (words set apart by spaces after the tool's name);
- a grouping: "tagged by cuisine", "grouped by continent", "按大洲分", "按菜系分类": one field, what the rows are
  grouped by;
- a scale: "rate my day 1-5", "score out of 100", "满分10分", "打分1到5": a rating's bounds.
A run is read as attributes only when its items are worded as attributes are (a field the library knows, a noun
of a field, a question about each row), not as tasks (a list that starts with verbs, "交物业费、给爸妈打电话", is
things to do, for a checklist's readers) nor as values (places, currencies, units, cuisines, people).
"""

from __future__ import annotations

import re

from toolgen.intent.asked import asked
from toolgen.intent.slots import find_cities, find_cuisines, find_currencies, find_people, find_units
from toolgen.knowledge.fields import requested_fields
from toolgen.knowledge.gloss import field_gloss
from toolgen.reading import reader

_HAN = re.compile(r"[\u4e00-\u9fff]")
# what a Chinese task or habit begins with: a verb of doing, not a noun of a record
_ZH_VERB = re.compile(
    r"^(?!打分|打个分)(?:交|缴|付|还|买|吃|喝|跑|做|洗|扫|拖|倒|遛|喂|浇|给|换|写|读|练|学|去|拿|送|接|取|约|订|叫|早睡|早起|起床|睡觉|刷|"
    r"背单词|打扫|整理|收拾|锻炼|运动|冥想|看书|复习|预习|打电话|发|回|查|晒|剪|修|充|缴纳|支付|提醒)"
)
# English words that begin a task rather than name an attribute ("floss, stretch, call mom")
_EN_VERB = re.compile(
    r"^(?:floss|stretch|meditate|read|walk|run|call|pay|buy|clean|wash|water|feed|take|drink|eat|go|do|make|write|"
    r"study|practice|practise|exercise|journal|sleep|wake|brush|vacuum|mop|cook|check|change|replace|renew|send|"
    r"book|cancel|email|text|visit|no|don't|stop|avoid|skip)\b",
    re.IGNORECASE,
)
# a field's noun at the end of an item ("purchase date", "保修期"): an attribute, whatever else the item says
_ATTRIBUTE_NOUN = re.compile(
    r"(?:日期|时间|地点|名称|名字|金额|价格|费用|数量|次数|编号|类型|状态|备注|原因|天数|分数|电话|进度|结果|型号|品牌|"
    r"种类|品种|产地|口味|风味|评分|心得|感受|用量|时长|距离|重量|体重|尺寸|颜色|平台|渠道|人数|地址|期限|"
    r"[多几]少|[多几][重长久远]|没|了吗|没有)$"
    r"|\b(?:date|time|name|place|price|cost|amount|count|number|type|status|note|location|rating|score|brand|"
    r"model|size|result|kind|genre|species|region|weight|length|duration|level|category|origin|notes|sentence|"
    r"meaning|definition|spot|weather|with|who|how much|how many|again)s?$",
    re.IGNORECASE,
)
_ASKS_OF_A_ROW = re.compile(r"[啥几哪吗]|什么|多少|没有?$")  # a question about each row ("上次穿是啥时候")
_ZH_STRIP = re.compile(
    r"^(?:每[次天个条笔件本部张]的?|记录?一?下?|还有|以及|和|及|要?记)|(?:等等?|之类的?|这些|这种|什么的)$"
)
_EN_STRIP = re.compile(r"^(?:and|&|or|the|a|an|my|its|their|plus)\s+|\s+(?:etc\.?|and so on)$", re.IGNORECASE)
_TOOL_NOUN = re.compile(
    r"(?:\b(?:log|logs|journal|diary|tracker|list|notes|record|records|logbook|tracking)\b|记录|日志|日记|清单|台账|"
    r"档案|笔记|本子|表格?)",
    re.IGNORECASE,
)


@reader
def attribute_worded(item: str) -> bool:
    """Whether an item is worded as an attribute of a row: a field the library knows, a field's noun, a question."""
    counted = re.sub(r"^number of\b", "how many", item)  # "number of skeins" asks how many, as "how many skeins"
    return bool(_ATTRIBUTE_NOUN.search(item) or requested_fields(item) or asked(counted))


def _heading(item: str) -> bool:
    """Whether a Chinese item is, or ends in, a word people head a column with (the heading glossary: 进价; 买入金额
    ends in 金额)."""
    if not re.fullmatch(r"[\u4e00-\u9fff]{2,8}", item):
        return False
    words = field_gloss()
    return any(item[i:] in words for i in range(len(item) - 1))


def is_value(item: str) -> bool:
    """Whether an item is a value rather than an attribute: a place, a currency, a unit, a cuisine, a person
    ("杭州、厦门、成都" are what a ranking compares; "美元、日元" what a converter converts)."""
    return any(find(item) for find in (find_cities, find_currencies, find_units, find_cuisines, find_people))


def is_task(item: str) -> bool:
    """Whether an item is worded as a thing to do ("跑步", "背单词", "call mom"), not a question about each row."""
    verb = (_ZH_VERB if _HAN.search(item) else _EN_VERB).search(item)
    return bool(verb) and not _ATTRIBUTE_NOUN.search(item) and not asked(item)


def _clean(item: str) -> str:
    item = item.strip(" ，,。.；;:：!！?？()（）\"'“”-—–")
    if _HAN.search(item):
        item = _ZH_STRIP.sub("", item)
        if "的" in item[:-1]:  # "每次保养的日期": the attribute is what comes after 的
            after = item.rsplit("的", 1)[1]
            item = after if len(after) >= 2 else item
        return _ZH_STRIP.sub("", item).strip()
    item = re.sub(r"^#\s*of\b", "number of", item.lower())  # "# of skeins": how many skeins
    return _EN_STRIP.sub("", without_scale(item)).strip()


@reader
def without_scale(item: str) -> str:
    """An item without the scale it is said on ("score out of 10": the score; its scale is read by scale())."""
    cut = re.sub(r"\s*(?:\(?(?:out of|/)\s*\d+\)?|\(?\d+\s*[-–~]\s*\d+\)?)\s*(?:stars?|points?)?$", "", item)
    return cut or item


def _accepted(items: list[str], *, spaced: bool = False, headings: bool = False) -> list[str]:
    items = [i for i in (_clean(i) for i in items) if i]
    if len(items) < 2 or len(set(items)) < len(items):
        return []
    if any(len(i) > 10 if _HAN.search(i) else len(i.split()) > 5 for i in items):  # each by its own script
        return []
    chinese = any(_HAN.search(i) for i in items)
    if sum(is_task(i) for i in items) * 2 > len(items) or sum(is_value(i) for i in items) >= 2:
        return []  # things to do, or values to compare, not what each row holds
    known = sum(attribute_worded(i) or (headings and _heading(i)) for i in items)
    # a run set apart by 、 is a list in Chinese however it is worded; commas and spaces list attributes when most
    # of the items are worded as attributes are
    needed = 1 if chinese and not spaced else (len(items) + 1) // 2
    return items if known >= needed else []


_EN_SPACED = re.compile(
    r"^\s*((?:[a-z]+\s){0,3}?(?:log|journal|diary|tracker|logbook))\s+([a-z]+(?:\s[a-z]+){2,7})\s*$", re.IGNORECASE
)
# joined by 、 or by + ("城市+店名+招牌菜"), never a sum of numbers ("3+5")
_ZH_RUN = re.compile(r"[^，,。；;！!？?\s:：+＋]+(?:(?:、|(?<!\d)[+＋](?!\d))[^，,。；;！!？?\s:：、+＋]+)+")
_ZH_JOINT = re.compile(r"、|[+＋]")
# what a list of attributes follows: a dash, a colon, "with", a verb of keeping, or the sentence before it ("... half
# are missing pieces. set number, name, piece count")
_EN_AFTER = re.compile(
    r"(?:\s[-—–]\s|[:：]|\bw/\s?|\bwith\s(?:a\s|the\s)?|\bincluding\s|\b(?:log|track|record)\s"
    r"|(?<!\be\.g)(?<!\bi\.e)(?<!\betc)(?<!\bvs)(?<!\bno)(?<!\bdr)(?<!\bmr)(?<!\bmrs)(?<!\bms)(?<!\bst)[.!?]\s)"
)
_ASIDE = re.compile(r"\s*\([^()]*\)")  # "weight (dk/worsted/etc)": examples of an item, not items


@reader
def listing(text: str) -> list[str]:
    """The attributes of a text that is all a list ("artist, venue, ticket price" after the tool's name)."""
    if _HAN.search(text):
        return runs(text)
    clause = re.split(r"[.;!?\n]|\s[-—–]\s", text)[0]
    return _accepted(re.split(r"\s*,\s*|\s+(?:and|&|\+)\s+|\s*/\s*", clause))


@reader
def runs(text: str) -> list[str]:
    """The attributes a request lists for each row, in its order; [] when it lists none."""
    for m in _ZH_RUN.finditer(text):
        *head, last = _ZH_JOINT.split(m.group(0))  # "单词、意思和例句", but not inside a word ("口感柔和度", "及格没")
        tail = [last]
        for joint in re.finditer(r"以及|还有|和|及", last):
            before, after = last[: joint.start()], last[joint.end() :]
            if len(before) >= 2 and len(after) >= 2:
                tail = [before, after]
                break
        items = _accepted([*head, *tail])
        if items:
            return items
    if _HAN.search(text) and re.search(r"\S\s+\S", text) and not re.search(r"[，,、。；;]", text):
        words = text.split()  # "钓鱼记录 地点 天气 钓了几条 多重": the tool's name, then its attributes
        if len(words) >= 4 and _TOOL_NOUN.search(words[0]):  # (a word people head a column with counts: 厂商)
            return _accepted(words[1:], spaced=True, headings=True)
        # "淘宝小店商品 进价 售价 库存": what the rows are, then what each holds, every one worded as an attribute
        # (a word people head a column with counts here: 售价, 库存; among commas, 交通 and 购物 are as often values)
        items = _accepted(words[1:], spaced=True, headings=True) if len(words) >= 3 else []
        # (or a question about each row: "衣柜盘点 按类别 颜色 季节 还有上次穿是啥时候")
        if items and all(
            attribute_worded(i) or _heading(i) or grouped_by(i) or _ASKS_OF_A_ROW.search(i) for i in items
        ):
            return items
    if not _HAN.search(text):
        for m in _EN_AFTER.finditer(text):
            clause = _ASIDE.sub("", re.split(r"[.;!?\n]|\s[-—–]\s", text[m.end() :])[0])
            parts = re.split(r"\s*,\s*|\s+(?:and|&|\+)\s+|\s*/\s*", clause)
            if len(parts) >= 2:
                items = _accepted(parts)
                if items:
                    return items
        spaced = _EN_SPACED.match(text)
        if spaced:  # "fishing log spot species size weather"
            return _accepted(spaced.group(2).split(), spaced=True)
        last = text.rsplit(",", 1)[1].split() if "," in text else []
        if 2 <= len(last) <= 6:  # "... each saturday, item qty price": words after the last comma, each an attribute
            items = _accepted(last, spaced=True)
            if items and sum(attribute_worded(i) for i in items) * 2 > len(items):
                return items
    return []


_GROUPED = re.compile(
    r"\b(?:tagged|grouped|sorted|organi[sz]ed|categori[sz]ed|filed|broken down|labell?ed|arranged)\s+by\s+"
    r"(?:the\s+|their\s+|its\s+)?(?P<en>[a-z]+(?:\s[a-z]+)?)"
    r"|按(?:照)?(?P<zh>[\u4e00-\u9fff]{1,4}?)(?:来|去)?(?:分类|分组|归类|分开|区分|分|排)",
    re.IGNORECASE,
)
_NOT_GROUP = re.compile(  # an order or a share, not a grouping
    r"^(?:date|day|time|week|month|year|newest|oldest|name|me|hand|面积|天|月|周|年|日期|时间|人头|比例)$"
)


@reader
def grouped_by(text: str) -> str | None:
    """What the request wants its rows grouped or tagged by ("tagged by cuisine", "按大洲分"), if it says."""
    m = _GROUPED.search(text)
    if not m:
        return None
    said = (m.group("en") or m.group("zh") or "").strip()
    said = re.sub(r"\s+(?:and|or|with|so|to|for|in|on)$", "", said, flags=re.IGNORECASE)
    return None if not said or _NOT_GROUP.match(said.lower()) else said.lower()


_SCALE = re.compile(
    r"(?:\b(?:rate|rated|rating|score|scored|grade|stars?)\b[^.,;，。]{0,24}?|打分|评分|打个分|分数|星级)[\s:：]*"
    r"(?:(?:from\s)?(?P<low>[01])\s*(?:-|–|~|to|到|至)\s*(?P<high>\d{1,3})|(?:out of|/)\s*(?P<out>\d{1,3}))"
    r"|(?:\bout of|满分)\s*(?P<of>\d{1,3})\s*(?:分|stars?|points?)?"
    r"|(?P<low2>[01])\s*(?:-|–|~|到|至)\s*(?P<high2>\d{1,3})\s*(?:分|星|stars?\b|scale\b)",
    re.IGNORECASE,
)


@reader
def scale(text: str) -> tuple[int, int] | None:
    """A rating's bounds the request says ("rate my day 1-5", "score out of 100", "满分10分"), if it says."""
    m = _SCALE.search(text)
    if not m:
        return None
    high = next((int(m.group(g)) for g in ("high", "out", "of", "high2") if m.group(g)), None)
    low = next((int(m.group(g)) for g in ("low", "low2") if m.group(g)), 1)
    if high is None or not 2 <= high <= 100 or low >= high:
        return None
    return (low, high)
