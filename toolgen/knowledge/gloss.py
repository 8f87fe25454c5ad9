"""English names for Chinese words a request uses for a field the knowledge base does not know.

"钓鱼日志：去了哪、天气怎样、用的什么饵" asks for a weather field; without a name in English it would be ``measure_2``
in the tool's API and "天气怎样" in its English labels. The glossary (toolgen/knowledge/data/glossary_zh.json.gz,
built from CC-CEDICT by build_glossary.py) names it: the phrase is cut into the glossary's words, longest first;
grammatical words and question words (的, 了, 什么, 怎样, 有没有, 来不来's 不来) are dropped, and the words left, two
characters or more each (a single character has too many senses to name a field by), give the name in their order
("递交日期" -> "present date"). A phrase with more than one character outside such words is a piece of a sentence
("做个东西记他吃没吃"), not a name, and gets none. Read when first needed, once per process.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from functools import cache

from toolgen.knowledge.base import DATA as KNOWLEDGE
from toolgen.knowledge.base import library
from toolgen.knowledge.loading import read_json

# the glossary's file and its longest word; build_glossary.py writes it (the build's imports stay out of a request's)
DATA = KNOWLEDGE / "glossary_zh.json.gz"
MAX_CHARS = 4

# question words and the verbs of a question: what a field is asked with, not what it is
QUESTION_WORDS = frozenset(
    "什么 啥 哪 哪个 哪些 哪里 哪儿 几 几个 多少 怎样 怎么样 怎么 如何 有没有 没有 是否 是不是 多久 多长 谁 还是 "
    "一下 了没 没 什么的 咋 咋样 咋么样 啥样".split()
)  # (什么的 is "and so on" after a list, but "卖什么的" asks what each sells: a question word, never a field's name)
MAX_NAME_WORDS = 4
# A field asked about by one character ("什么药", "干了什么活", "吃了什么菜"): the sense such a noun has when a
# question asks what each entry was; other single characters have too many senses to name a field by.
ONE_CHARACTER_NOUNS = {
    "药": "medicine", "菜": "dish", "饭": "meal", "活": "chore", "书": "book", "歌": "song", "课": "class",
    "茶": "tea", "酒": "drink", "鱼": "fish", "花": "flower", "树": "tree", "车": "car", "鞋": "shoes", "衣": "clothes",
    "包": "bag", "题": "question", "球": "ball game", "剧": "show", "片": "film", "游戏": "game", "店": "shop",
    "药品": "medicine", "肉": "meat", "菌": "mushroom", "鸟": "bird", "虫": "insect", "码": "size", "码数": "size",
    "岁": "age", "狗": "dog", "猫": "cat",
}  # fmt: skip


# A yes-or-no question about each entry asked with a verb of one character ("买没买", "取没取货", "去没去过", "交了没"):
# the field is named by what is done, as a person ticking it off reads it
DONE_VERBS = {
    "买": "bought", "付": "paid", "交": "handed in", "缴": "paid", "还": "returned", "取": "picked up",
    "拿": "collected", "到": "arrived", "来": "coming", "去": "visited", "吃": "eaten", "喝": "drunk", "做": "done",
    "看": "watched", "读": "read", "用": "used", "打": "done", "寄": "sent", "发": "sent", "收": "received",
    "退": "refunded", "签": "signed", "洗": "washed", "喂": "fed", "遛": "walked", "浇": "watered", "修": "fixed",
    "换": "changed", "充": "charged", "报": "claimed", "回": "replied", "约": "booked", "过": "passed",
    "中": "won", "学": "learned", "练": "practised", "写": "written", "剪": "cut", "补": "topped up",
}  # fmt: skip
_DONE = re.compile(r"^([\u4e00-\u9fff])(?:[没不]\1|了没有?|没有?)")


def done_name(phrase: str) -> str | None:
    """The English name of a yes-or-no question asked with a one-character verb ("取没取货" -> "picked up"), if it
    is one."""
    m = _DONE.match(phrase)
    return DONE_VERBS.get(m.group(1)) if m else None


@cache
def glossary() -> dict[str, str]:
    """Simplified word -> English gloss ("" for a grammatical word)."""
    words: dict[str, str] = read_json(DATA)["words"]
    return words


@cache
def english_vocabulary() -> frozenset[str]:
    """The English words the glossary's glosses write in lower case three times or more (about 10,000): words of the
    language, as opposed to proper names, which CC-CEDICT capitalises and seldom repeats ("spring", "noon" and
    "home" are words; "Narnia", "Gondor" and "Biarritz" are not)."""
    counts = Counter(w for gloss in glossary().values() for w in re.findall(r"\b[a-z]+\b", gloss))
    return frozenset(w for w, n in counts.items() if n >= 3)


FIELD_GLOSS = KNOWLEDGE / "field_gloss_zh.json"


@cache
def field_gloss() -> dict[str, str]:
    """Chinese words of column headings -> the English a field is named by (出货 shipped, 朝向 orientation):
    toolgen/knowledge/data/field_gloss_zh.json, read before the field library and the dictionary."""
    words: dict[str, str] = json.loads(FIELD_GLOSS.read_text(encoding="utf-8"))["words"]
    return words


QUESTION_GLOSS = KNOWLEDGE / "question_gloss_zh.json"
MIN_ENDING = 3  # the shortest question that names a field at the end of a longer phrase ("最后净赚多少": 净赚多少)
FREE_ENDING = 4  # the shortest that names it after any words ("默写错了几个": 错了几个)


@cache
def question_gloss() -> dict[str, tuple[str, str]]:
    """Colloquial Chinese questions that name a field -> its English name and type (多大 age, 干啥的 job, 充了几度
    kwh charged, a number): toolgen/knowledge/data/question_gloss_zh.json, read before the dictionary."""
    phrases: dict[str, dict[str, str]] = read_json(QUESTION_GLOSS)["phrases"]
    return {phrase: (entry["en"], entry["type"]) for phrase, entry in phrases.items()}


def asked_entry(phrase: str) -> tuple[str, str] | None:
    """The English name and type of a field a colloquial question names, said whole ("印象咋样" -> impression, a
    rating), ending a phrase a few characters longer ("最后净赚多少" -> net profit, a number), or a question of
    FREE_ENDING characters or more ending any phrase: named by it, after the word before it where that is one word
    of the glossaries ("护照啥时候到期" -> passport expiry date; "默写错了几个" -> mistakes)."""
    known = question_gloss()
    if phrase in known:
        return known[phrase]
    for size in range(min(len(phrase) - 1, 8), MIN_ENDING - 1, -1):
        ending = phrase[-size:]
        if ending not in known:
            continue
        before = phrase[:-size]
        if _BEFORE_A_QUESTION.fullmatch(before):
            return known[ending]
        word = _BEFORE_A_QUESTION_START.sub("", _BEFORE_A_QUESTION_END.sub("", before))
        latin = re.fullmatch(r"[A-Za-z][A-Za-z0-9.]*", word) is not None  # (BMI正不正常)
        if size >= FREE_ENDING and len(before) in word_bounds(phrase) and (latin or len(words(word)) <= 1):
            # (近海风浪大不大 asks of 风浪, not of 浪; "你能告诉我天气怎么样" is a sentence, no name)
            name, kind = known[ending]
            said = word if latin else ""
            if len(word) >= 2 and not said:  # (a character alone has too many senses: 够几个人吃 is no "enough")
                said = field_gloss().get(word) or field_words().get(word) or glossary().get(word) or ""
            named = {t[:4] for t in name.split()}  # ("swimming swim time": said once)
            if said and len(said.split()) <= 2 and not {t[:4] for t in said.lower().split()} & named:
                name = f"{said.lower()} {name}"
            return name, kind
    return None


def word_bounds(phrase: str) -> set[int]:
    """Where the phrase's words, as the glossary cuts it, begin and end."""
    ends, at = {0}, 0
    for word in words(phrase):
        at += len(word)
        ends.add(at)
    return ends


def asked_name(phrase: str) -> str | None:
    """The English name of a field a colloquial question names (asked_entry)."""
    entry = asked_entry(phrase)
    return entry[0] if entry else None


# What may come before a question that names a field and leave it that field: when and how much of it, who ("最后净赚
# 多少", "每天卖了多少根", "半夜醒了几次"), never a noun of its own ("医院哪个科" is more than the department)
_BEFORE_A_QUESTION = re.compile(
    r"(?:最后|每天|每次|每回|每周|每月|当时|当天|一共|总共|大概|大约|今天|这次|那天|平时|一般|前一天|到底|分别|各自|都|还|又|"
    r"也|就|我|他|她|它|们|现在|目前|半夜|夜里|晚上|早上|早晨|上午|中午|下午|白天|睡前|饭前|饭后|上次|这回)*"
)
_BEFORE_A_QUESTION_END = re.compile(rf"{_BEFORE_A_QUESTION.pattern}$")
_BEFORE_A_QUESTION_START = re.compile(rf"^{_BEFORE_A_QUESTION.pattern}")


@cache
def field_words() -> dict[str, str]:
    """Chinese words of the field library's own fields -> the English name the library gives the field ("金额" ->
    "amount"): inside a longer phrase ("买入金额") a word the knowledge base knows as a field
    is named as the knowledge base names it, not by the dictionary's first sense ("sum of money"). A word two fields
    with different names claim is left to the dictionary."""
    names: dict[str, set[str]] = {}
    for f in library().fields.values():
        english = re.sub(r"\s*[(（].*$", "", f.label.en).strip().lower()
        for word in {f.label.zh, *f.words}:
            if re.fullmatch(r"[\u4e00-\u9fff]{2,4}", word) and english:
                names.setdefault(word, set()).add(english)
    return {word: next(iter(found)) for word, found in names.items() if len(found) == 1}


_WHAT = ("啥", "什么", "哪")  # a verb and 的 before these asks what was done ("打的啥苗"); 打的多少钱 is a taxi fare


def words(phrase: str) -> list[str]:
    """The phrase cut into the glossary's words, longest match first; a character it lacks stands alone. A word
    ending in 的 before 啥, 什么 or 哪 is a verb and its 的 ("打的啥苗" asks what was given, no taxi ride)."""
    known, headings = glossary(), field_gloss()
    cut: list[str] = []
    i = 0
    while i < len(phrase):
        for size in range(min(MAX_CHARS, len(phrase) - i), 0, -1):
            piece = phrase[i : i + size]
            if size == 2 and piece[1] == "的" and phrase.startswith(_WHAT, i + 2):
                continue
            if size == 1 or piece in known or piece in headings or piece in QUESTION_WORDS:
                cut.append(piece)
                i += size
                break
    return cut


# A count or a period a question is framed by before what it asks about ("一根成本多少": the cost, of one;
# "每次花了多少", "一天喝几杯"): a numeral or 每, then a measure word
_FRAMING = re.compile(
    r"^(?:每|[一两二三四五六七八九十半0-9]+)个?(?:星期|礼拜|小时|钟头|分钟|个|根|杯|瓶|袋|盒|包|份|张|件|本|只|条|块|斤|次|回|趟|单"
    r"|天|周|月|年|晚|顿|位)"
)


def english(phrase: str) -> str | None:
    """An English name for a Chinese field phrase ("天气怎样" -> "weather", "食物过敏" -> "food oversensitive"), or
    None when none of its words has one. A phrase framed by a count or a period is named by what follows it, when
    the whole has no name ("一根成本多少" -> "cost")."""
    name = _english(phrase)
    if name is None and (framed := _FRAMING.sub("", phrase)) != phrase and framed:
        return _english(framed)
    return name


def _english(phrase: str) -> str | None:
    if phrase in ONE_CHARACTER_NOUNS:
        return ONE_CHARACTER_NOUNS[phrase]
    if phrase not in field_gloss():  # a heading's word is named by the headings' glossary below
        asked = asked_name(phrase)
        if asked:
            return asked
    known = glossary()
    names: list[str] = []
    loose = 0  # characters no word of two or more covers: a fragment of a sentence, not a name
    head = None  # the English of the phrase's last word, when it is what the question asks about
    noun = None  # the one-character noun a question asks about ("啥鱼": fish)
    # 来不来, 拼没拼, 适不适合: a yes-or-no question, and the word it asks about
    phrase, asked_about = re.subn(r"([\u4e00-\u9fff])[不没]\1", r"\1", phrase)
    yes_or_no = asked_about > 0
    for run in re.findall(r"[\u4e00-\u9fff]+|[A-Za-z][A-Za-z0-9.]*", phrase):
        if not re.match(r"[\u4e00-\u9fff]", run):
            names.append(run.lower())
            continue
        headings, fields = field_gloss(), field_words()
        for word in words(run):
            gloss = headings.get(word) or fields.get(word) or known.get(word)
            head = None
            if len(word) >= 2 and word not in QUESTION_WORDS and gloss:
                names.append(gloss)
                head = gloss if yes_or_no else None  # the word a yes-or-no question asks about (满不满意)
            elif word in ONE_CHARACTER_NOUNS:  # a noun a question ends in (穿的哪双鞋: shoes)
                head = noun = ONE_CHARACTER_NOUNS[word]
                loose += 1
            elif len(word) == 1 and gloss and word not in QUESTION_WORDS:
                loose += 1
    if loose > 1 and head is not None:  # a question's words, then what it asks about ("穿的哪双鞋": shoes)
        return head
    if noun and not names and loose == 1 and any(word in QUESTION_WORDS for word in words(phrase)):
        return noun  # a question word, then the one noun it asks about ("啥鱼", "哪只猫"); 鱼 alone asks nothing
    if not names or loose > 1:
        return None
    name = " ".join(dict.fromkeys(names))
    return " ".join(name.split()[-MAX_NAME_WORDS:])  # a Chinese phrase ends in what it names: keep the end
