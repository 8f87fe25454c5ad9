"""English names for Chinese field words (toolgen/knowledge/gloss.py) and the glossary toolgen ships, which must be
what build_glossary.py makes of the pinned CC-CEDICT package."""

from __future__ import annotations

import gzip
import json
import re

import pytest

from toolgen.intent import classify
from toolgen.intent.asked import asked
from toolgen.knowledge import build_glossary, gloss
from toolgen.planner.offline import OfflinePlanner


def test_the_shipped_glossary_is_what_the_pinned_dictionary_gives() -> None:
    shipped = json.loads(gzip.decompress(build_glossary.DATA.read_bytes()))
    assert shipped == build_glossary.build()  # else: make glossary
    assert "CC-CEDICT" in shipped["about"] and "ShareAlike" in shipped["about"]


@pytest.mark.parametrize(
    ("senses", "name"),
    [
        (["to take good care of (or conserve) one's health", "to keep in good repair", "maintenance"], "maintenance"),
        (["poem for singing", "tune", "music"], "tune"),  # one word when one of the first senses is one
        (["surname Yu"], None),  # a pointer says nothing of the meaning
        (["to hand in"], "hand in"),  # a verb's sense, without its "to", when there is no noun's
        (["outfit or suit (of clothes)"], "outfit"),
        (["(possessive particle, literary equivalent of 的[de5])"], ""),  # grammatical: cut at, named by nothing
        (["a very long sense that runs over three words"], None),
    ],
)
def test_a_word_is_named_by_its_first_short_sense(senses: list[str], name: str | None) -> None:
    assert build_glossary.gloss(senses) == name


@pytest.mark.parametrize(
    ("phrase", "name"),
    [
        ("天气怎样", "weather"),  # the question word goes
        ("有没有发票", "invoice"),
        ("当前里程", "odometer"),  # a colloquial question's name (question_gloss_zh.json) before the words'
        ("当前余额", "current balance"),
        ("PM2.5", "pm2.5"),
        ("饵", None),  # a single character has too many senses to name a field by
        ("做个东西记他吃没吃", None),  # a piece of a sentence, not a name
    ],
)
def test_a_chinese_field_phrase_gets_an_english_name(phrase: str, name: str | None) -> None:
    assert gloss.english(phrase) == name


@pytest.mark.parametrize(
    ("phrase", "name"),
    [
        ("楼层朝向", "floor orientation"),  # the dictionary: "story toward"
        ("出货数量", "shipped quantity"),  # the dictionary: "recover quantity"
        ("递交了没有", "submitted"),
        ("买入金额", "bought amount"),  # 金额 is the field library's amount, not "sum of money"
    ],
)
def test_a_column_headings_word_is_named_as_a_field_not_by_the_dictionarys_first_sense(phrase: str, name: str) -> None:
    assert gloss.english(phrase) == name


def test_the_heading_words_are_short_chinese_words_each_with_a_plain_english_name() -> None:
    words = gloss.field_gloss()
    assert len(words) >= 2000
    bad = {k: v for k, v in words.items() if not (re_han(k) and 2 <= len(k) <= 4 and _plain(v))}
    assert not bad, list(bad.items())[:10]


def test_a_library_fields_chinese_word_inside_a_phrase_is_named_as_the_library_names_it() -> None:
    assert gloss.field_words()["金额"] == "amount"


def _plain(name: str) -> bool:
    """A field's English name: lowercase words, three at most, of letters and digits (a hyphen inside one)."""
    return (
        bool(name)
        and name == name.lower()
        and len(name.split()) <= 3
        and name.replace(" ", "").replace("-", "").isalnum()
    )


def re_han(word: str) -> bool:
    return all("\u4e00" <= ch <= "\u9fff" for ch in word)


def test_a_question_of_the_form_a_not_a_is_the_word_asked_about() -> None:
    assert gloss.english("要不要发票") == gloss.english("发票") == "invoice"


@pytest.mark.parametrize(
    ("phrase", "name"),
    [
        ("用的哪本书", "book"),  # a question's words, then the one-character noun it asks about
        ("去的哪家店", "shop"),
        ("吃得满不满意", "satisfied"),  # a verb and a particle before the word asked about
        ("甜的还是咸的", None),  # a choice between two words is no name, unless the question glossary has one
        ("稀的还是干的", "consistency"),
        ("他在哪里上班", None),  # a question's last word that is no noun and no yes-or-no question's word
        ("谁去接的孩子", None),
    ],
)
def test_a_question_is_named_by_what_it_ends_in(phrase: str, name: str | None) -> None:
    assert gloss.english(phrase) == name


@pytest.mark.parametrize(
    ("phrase", "name"),
    [
        ("啥鱼", "fish"),  # a question word, then the one-character noun it asks about
        ("哪只猫", "cat"),
        ("啥牌", None),  # a character that is no noun of a field: the dictionary's first sense names nothing here
        ("有用没用", "useful"),  # a yes-or-no question keeps the word it asks about
        ("有没有痰", "phlegm"),  # the question glossary's
        ("度", None),
    ],
)
def test_a_question_about_one_noun_is_named_by_it(phrase: str, name: str | None) -> None:
    assert gloss.english(phrase) == name


def test_a_composed_chinese_tool_names_its_guessed_fields_in_english() -> None:
    text = "海钓记录：去了哪、天气怎样、潮汐、钓到什么鱼"
    intent = classify(text)
    fields = OfflinePlanner().plan(text, intent, []).program.entities
    (entity,) = fields.values()
    assert "weather" in entity.fields and entity.fields["weather"].label == "天气"
    assert not [name for name in entity.fields if name.startswith(("measure_", "asked_"))], list(entity.fields)
    english = OfflinePlanner().plan(text, intent.model_copy(update={"lang": "en"}), []).program
    (entity,) = english.entities.values()
    assert entity.fields["weather"].label == "Weather"  # the tool's English labels read it too


def test_a_one_character_noun_asked_about_has_its_field_sense():
    assert gloss.english("药") == "medicine" and gloss.english("活") == "chore"
    assert gloss.english("的") is None  # other single characters still name nothing


@pytest.mark.parametrize(
    ("said", "name"),
    [
        ("买没买", "bought"),
        ("取没取货", "picked up"),
        ("去没去过", "visited"),
        ("交了没", "handed in"),
        ("喂没喂", "fed"),
    ],
)
def test_a_yes_or_no_question_asked_with_a_one_character_verb_is_named_by_what_is_done(said: str, name: str) -> None:
    assert gloss.done_name(said) == name


def test_a_question_that_is_no_yes_or_no_has_no_done_name() -> None:
    assert gloss.done_name("花了多少钱") is None and gloss.done_name("适合几岁") is None


def test_a_tools_yes_or_no_fields_get_english_names_not_asked_numbers() -> None:
    text = "小区团购接龙，记一下谁要几份、付没付钱、取没取货"
    program = OfflinePlanner().plan(text, classify(text), []).program
    fields = next(iter(program.entities.values())).fields
    # the group buy's own "picked up" (已提货) is the one the request asks (取没取货): a yes or no, named in English
    assert fields["picked_up"].type == "boolean" and fields["picked_up"].label in ("取没取货", "已提货")
    assert not [name for name in fields if name.startswith("asked_")]


def test_a_yes_or_no_question_whose_verb_makes_a_word_is_named_by_the_word_not_by_what_is_done() -> None:
    text = "给娃打疫苗的记录 打的啥疫苗 第几针 发没发烧"  # 发烧 is a fever; 发 alone would be "sent"
    program = OfflinePlanner().plan(text, classify(text).model_copy(update={"lang": "en"}), []).program
    fields = next(iter(program.entities.values())).fields
    assert fields["fever"].type == "boolean" and fields["fever"].label == "Fever"
    assert "sent" not in fields


def test_a_question_the_question_glossary_names_is_read_as_it_names_it() -> None:
    # 几号油 is the fuel grade the glossary knows, no day of the month (油日（几号）, 1 to 31)
    text = "每次加油记下 加了多少升 几号油 一升多少钱"
    assert gloss.question_gloss()["几号油"][1] == "string"
    grade = next(item for item in asked(text) if item["said"] == "几号油")
    assert grade["type"] == "string" and grade["en"] == "fuel grade" and grade["max"] is None
    program = OfflinePlanner().plan(text, classify(text).model_copy(update={"lang": "en"}), []).program
    fields = next(iter(program.entities.values())).fields
    assert fields["fuel_grade"].type == "string"
    assert not [name for name in fields if name.startswith("asked_")]
    # a choice the reader reads ("母乳/奶粉") is named as the glossary names the question whole
    choice = asked("奶瓶记录 母乳还是奶粉 一次几毫升")[0]
    assert choice["type"] == "choice" and choice["choices"] == ["母乳", "奶粉"] and choice["en"] == "feeding type"


def test_the_question_glossary_is_short_colloquial_questions_each_with_a_plain_english_name_and_a_type() -> None:
    data = json.loads(gloss.QUESTION_GLOSS.read_text(encoding="utf-8"))
    phrases = data["phrases"]
    assert len(phrases) >= 500 and data["about"]
    for phrase, entry in phrases.items():
        assert re.fullmatch(r"[\u4e00-\u9fff]{1,8}", phrase), phrase
        assert re.fullmatch(r"[a-z]+( [a-z]+){0,2}", entry["en"]), (phrase, entry)
        assert entry["type"] in ("number", "string", "boolean", "rating", "date", "time", "text"), phrase


@pytest.mark.parametrize(
    ("phrase", "name"),
    [
        ("干啥的", "job"),  # said whole
        ("印象咋样", "impression"),
        ("最后净赚多少", "net profit"),  # after when it is counted
        ("每天卖了多少根", "sold count"),
        ("医院哪个科", None),  # a noun of its own before it: more than the department alone
        ("房子多大", None),  # 多大 alone is an age, never the end of a longer phrase
        ("白天醒了几次", "wakeups"),  # a time of day before it
        ("现在状态咋样", "condition"),
        # a question of four characters or more ends any phrase: after the one word before it, if it is one
        ("默写错了几个", "mistakes"),  # (默写's first sense is three words: the question alone)
        ("护照啥时候到期", "passport expiry date"),
        ("年检分别啥时候到期", "annual inspection expiry date"),  # (分别 says when, not what)
        ("BMI正不正常", "bmi normal"),
        ("买够几个人吃", "servings"),  # (a character alone has too many senses to name by: no "buy")
        ("近海风浪大不大", None),  # 浪大不大 would cut the word 风浪 in two
    ],
)
def test_a_colloquial_question_is_named_by_the_question_glossary(phrase: str, name: str | None) -> None:
    assert gloss.asked_name(phrase) == name


@pytest.mark.parametrize(
    ("phrase", "name"),
    [
        ("一根成本多少", "cost"),  # a count before what it asks about
        ("每次花了多少", "amount spent"),  # (named whole first)
        ("卖什么的", None),  # 什么的 asks what each sells: never "and so on"
        ("打的啥苗", None),  # 打的 before a question word is a verb and its 的, no taxi ride
        ("能不能带狗", "dog"),
        ("哪只猫", "cat"),
        ("天气咋样", "weather"),
    ],
)
def test_a_question_is_named_past_its_framing(phrase: str, name: str | None) -> None:
    assert gloss.english(phrase) == name


def test_a_tools_fields_asked_as_colloquial_questions_are_named_by_them_once() -> None:
    text = "记一下看过的房子的房东 多大 干啥的 印象咋样"
    program = OfflinePlanner().plan(text, classify(text).model_copy(update={"lang": "en"}), []).program
    fields = next(iter(program.entities.values())).fields
    assert "job" in set(fields)
    assert sum("impression" in f.label.lower() for f in fields.values()) <= 1


def test_a_question_the_reader_names_keeps_its_name_and_the_glossary_types_what_it_names() -> None:
    shoes = OfflinePlanner().plan(t := "买鞋记录：什么牌子、多大、多少钱", classify(t), []).program
    fields = next(iter(shoes.entities.values())).fields
    assert "size" in fields and "age" not in fields  # 多大 of shoes is their size, as the reader reads it
    gym = OfflinePlanner().plan(t := "健身记录：练哪、做了几组、每组几个", classify(t), []).program
    assert next(iter(gym.entities.values())).fields["muscle_group"].type == "string"  # 练哪: words, not a count
