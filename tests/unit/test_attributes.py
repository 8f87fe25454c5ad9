"""What a request says each row holds, wherever it says it (toolgen/intent/attributes.py), and the fields a tool of
any kind, named or composed, gets from it: typed by how they are said, a grouping's field, a rating's scale."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from tests.unit.test_compose import Tool
from toolgen.intent import classify
from toolgen.intent.attributes import grouped_by, runs, scale
from toolgen.intent.details import head, listed
from toolgen.knowledge.base import DATA, library, load


@pytest.mark.parametrize(
    ("text", "items"),
    [
        # a run set apart by 、 in the middle of a sentence, the attribute after 的, the last joined by 和
        ("宠物档案，每只的名字、生日和体重，打完疫苗标一下", ["名字", "生日", "体重"]),
        ("装修花销记一下，每笔的日期、金额、花在哪", ["日期", "金额", "花在哪"]),
        # after a dash or "w/", in English, with a scale cut from its item
        (
            "concert log - artist, venue, ticket price, who i went with",
            ["artist", "venue", "ticket price", "who i went with"],
        ),
        ("podcasts i listen to w/ score out of 10 and host", ["score", "host"]),
        # words set apart by spaces after the tool's name
        ("birding log location species count weather", ["location", "species", "count", "weather"]),
        ("观鸟记录 地点 鸟种 数量 天气", ["地点", "鸟种", "数量", "天气"]),
        ("我的茶叶清单 产地 厂商 入手价", ["产地", "厂商", "入手价"]),  # a heading's word counts after the name too
        ("书架盘点 作者 出版社 还有上次读是啥时候", ["作者", "出版社", "上次读是啥时候"]),  # and a question of each row
        # words set apart by spaces after the last comma, most of them worded as attributes
        ("what the bake sale sold every sunday, item qty price", ["item", "qty", "price"]),
        # with no tool's name before them, when every one is worded as an attribute (a heading's word: 进价, 库存)
        ("二手书摊的书 进价 售价 库存", ["进价", "售价", "库存"]),
        ("鞋柜里的鞋 按季节 颜色 尺码", ["按季节", "颜色", "尺码"]),
        # joined by +
        ("想去的咖啡馆都记下来，城市+店名+招牌", ["城市", "店名", "招牌"]),
        # an item's examples in brackets are no items, "# of" counts; a list as a sentence of its own, not after an
        # abbreviation's full stop
        ("track my workouts (e.g. squats, bench, deadlift) with sets and reps", ["sets", "reps"]),
        (
            "fabric stash — fabric type, colour (solid/print), width, # of yards",
            ["fabric type", "colour", "width", "number of yards"],
        ),
        (
            "my girl has dozens of jigsaw puzzles, some lost pieces. puzzle name, piece count, brand, complete or not",
            ["puzzle name", "piece count", "brand", "complete or not"],
        ),
    ],
)
def test_a_run_of_attributes_is_read_wherever_it_stands(text: str, items: list[str]) -> None:
    assert runs(text) == items
    assert listed(text) == items


@pytest.mark.parametrize(
    "text",
    [
        "每个月要做的事：交物业费、给爸妈打电话、换滤芯，做完打勾",  # things to do: a checklist's rows
        "morning routine - floss, stretch, meditate, read",
        "国庆想去玩，厦门、青岛、三亚哪个天气最好",  # places: what a ranking compares
        "人民币换美元、日元、欧元是多少",  # currencies: what a converter converts
        "买点菜：牛奶、鸡蛋、面包",  # things a list holds, none worded as an attribute
        "weekly review with my manager and the team",
        "周末 杭州 苏州 天气",  # places, spaced
        "晚饭 想吃 火锅 烧烤",  # things to choose between, spaced
        "每天算一下3+5+8一共多少",  # a sum of numbers
        "I went to the market today. bought apples, pears and milk",  # things, after a sentence
        "log my dog walks, morning and evening",  # times of day after a comma
        "remind me to water the plants, every three days",
    ],
)
def test_tasks_values_and_things_are_not_attributes(text: str) -> None:
    assert runs(text) == []


@pytest.mark.parametrize(
    ("text", "group"),
    [
        ("board games we own, grouped by player count", "player count"),
        ("tea collection tagged by origin", "origin"),
        ("想把收藏的歌按风格分类", "风格"),
        ("攒点旅行目的地，按季节分", "季节"),
        ("my notes sorted by date", None),  # an order, not a grouping
        ("rent split by room size", None),
    ],
)
def test_a_grouping_is_read_as_what_rows_are_grouped_by(text: str, group: str | None) -> None:
    assert grouped_by(text) == group


@pytest.mark.parametrize(
    ("text", "bounds"),
    [
        ("rate each coffee 1-10", (1, 10)),
        ("wines with a score out of 100", (1, 100)),
        ("看过的剧打个分，满分10分", (1, 10)),
        ("每天给自己打分 1到5分", (1, 5)),
        ("run 5-10 km a day", None),
        ("save 300 out of each paycheck", None),
    ],
)
def test_a_rating_scale_is_read_with_its_bounds(text: str, bounds: tuple[int, int] | None) -> None:
    assert scale(text) == bounds


def test_a_named_kind_gets_the_fields_a_request_lists_typed_as_they_are_said() -> None:
    tool = Tool("books i have read - title, author, genre, would i reread it")
    assert tool.intent.archetype == "reading_list"
    fields = tool.fields
    assert fields["genre"].type == "string"
    # a yes-or-no question is a yes or no: the library's re-read field, labelled as the request says it, once
    rereads = [name for name, spec in fields.items() if "reread" in spec.label.lower()]
    assert rereads == ["is_repeat"] and fields["is_repeat"].type == "boolean", fields
    assert fields["is_repeat"].label == "Reread"
    created = tool.call(
        next(op.id for op in tool.program.operations if op.kind == "create"),
        {"title": "Piranesi", "genre": "fantasy", "is_repeat": True},
    )
    assert created["genre"] == "fantasy" and created["is_repeat"] is True


def test_a_chinese_list_types_its_items_by_how_they_are_said() -> None:
    tool = Tool("乌龟的档案，名字、冬眠了没、上次换水日期")  # none of them a field the library knows
    by_label = {spec.label: spec.type for spec in tool.fields.values()}
    assert by_label["冬眠了没"] == "boolean"  # "V了没": yes or no
    assert by_label["上次换水日期"] == "date"  # typed by the word it ends in, named or not
    assert by_label["名字"] == "string"


def test_a_grouping_becomes_a_field_of_a_named_kind_and_of_a_composed_tool() -> None:
    named = Tool("recipes i want to cook, tagged by cuisine")
    assert named.intent.archetype == "recipes" or named.intent.subject == "recipes"
    assert "cuisine" in named.fields
    composed = Tool("places i want to visit grouped by continent")
    assert "continent" in composed.fields
    chinese = Tool("想去的国家清单，按大洲分")
    assert any(spec.label == "大洲" for spec in chinese.fields.values())


def test_a_scale_makes_a_rating_of_its_bounds_unless_a_field_already_is_one() -> None:
    podcast = Tool("podcasts i listen to, host and a score out of 10")  # the subject's rating, rescaled
    assert (podcast.fields["rating"].minimum, podcast.fields["rating"].maximum) == (1, 10)
    books = Tool("books i have read - title, author, genre, score out of 10")  # a named kind's rating too, once
    assert (books.fields["rating"].minimum, books.fields["rating"].maximum) == (1, 10)
    assert not [name for name in books.fields if "score" in name]
    bakes = Tool("my sourdough bakes log, rate each loaf 1-10")  # a rating where the tool had none
    assert (bakes.fields["rating"].minimum, bakes.fields["rating"].maximum) == (1, 10)
    assert "rating" not in Tool("a log of my sourdough loaves").fields  # no scale, no rating
    mood = Tool("rate my day 1-5 and a line about why")  # the mood of 1 to 5 is the rating: no second one
    assert [name for name, spec in mood.fields.items() if spec.maximum == 5] == ["mood"]


def test_a_subject_that_records_an_attribute_is_refused_by_the_loader(tmp_path: Path) -> None:
    shutil.copytree(DATA, tmp_path / "data")
    subjects = tmp_path / "data" / "subjects" / "zz_test.json"
    subject = {"id": "tea_shelf", "shape": "collection", "en": ["tea shelf"], "zh": ["茶架"],
               "title": ["Tea Shelf", "茶架"], "item": ["tea", "茶"], "fields": ["name", "roast_level"]}  # fmt: skip
    subjects.write_text(json.dumps([subject]))
    with pytest.raises(ValueError, match="roast_level"):
        load(tmp_path / "data")
    subject["fields"] = ["name"]  # the same subject without it loads
    subjects.write_text(json.dumps([subject]))
    assert "tea_shelf" in load(tmp_path / "data").subjects


def test_the_attribute_library_is_large_and_its_words_are_its_own() -> None:
    lib = library()
    assert len(lib.attributes) >= 400
    seen: dict[str, str] = {}
    for name, f in lib.fields.items():
        for word in f.words:
            assert seen.setdefault(word.lower(), name) == name or name not in lib.attributes, (word, name)


@pytest.mark.parametrize(
    ("text", "field", "kind"),
    [
        ("books i've read and the genre of each", "genre", "string"),
        ("想存个餐厅清单，记一下人均多少", "per_person_cost", "number"),
        ("coffee bean tasting notes: origin, roast level, flavor notes", "roast_level", "choice"),
    ],
)
def test_a_request_naming_an_attribute_gets_it_typed_by_the_library(text: str, field: str, kind: str) -> None:
    spec = Tool(text).fields[field]
    assert (spec.type, bool(spec.enum)) == (("string", True) if kind == "choice" else (kind, False))


def test_an_attributes_words_leave_the_subject_reader_alone() -> None:
    # "film stock", an attribute's word, would have made "film" a field's word, which names no subject
    assert any("film" in word.split() for name in library().attributes for word in library().fields[name].words)
    assert classify("list of films i wanna watch, with status and genre tags").subject == "movie_watchlist"


@pytest.mark.parametrize(
    ("text", "said"),
    [
        ("装修花销记一下，每笔的日期、金额、花在哪", "装修花销记一下"),
        ("concert log, artist, venue, ticket price", "concert log"),
        ("周末去哪玩，杭州、苏州、南京比一比", None),  # places after it: what a ranking compares
        ("我想记录每天晨跑", None),
    ],
)
def test_the_clause_before_a_run_of_attributes_says_what_the_tool_is(text: str, said: str | None) -> None:
    assert head(text) == said


def test_a_run_read_whole_wins_over_a_reader_that_cut_it_short() -> None:
    text = "留学申请备选：学校、专业、去年录取分数线、在哪个国家"  # the older list reader stopped at "去年"
    assert listed(text) == ["学校", "专业", "去年录取分数线", "在哪个国家"]


@pytest.mark.parametrize(
    ("text", "label", "kind"),
    [
        ("野外观察记录：地点、动物出没、天气", "动物出没", "string"),  # 出没 is no question
        ("观星记录：地点、看了多长时间、拍到流星没", "拍到流星没", "boolean"),
        ("风筝日记：哪天、放了多长时间、线断没", "分钟（min）", "number"),  # how long, not a clock time
        ("鞋柜盘点 品牌 颜色 还有上次穿是啥时候", "上次穿是啥时候", "date"),  # when: a day, not a clock time
    ],
)
def test_an_item_is_typed_by_how_it_is_said_not_by_a_word_inside_it(text: str, label: str, kind: str) -> None:
    by_label = {spec.label: spec.type for spec in Tool(text).fields.values()}
    assert by_label.get(label) == kind, by_label


def test_a_score_that_is_no_rating_keeps_its_range_and_the_rated_item_gets_the_scale() -> None:
    golf = Tool("golf rounds log: course, score, rate the course 1-10")
    assert golf.fields["strokes"].maximum >= 100  # a round of 85 is still a score
    assert (golf.fields["rate_the_course"].minimum, golf.fields["rate_the_course"].maximum) == (1, 10)


def test_a_library_field_called_what_the_tool_already_has_is_not_added_twice() -> None:
    pets = Tool("宠物档案，记一下每只的生日和性别")
    labels = [spec.label for spec in pets.fields.values()]
    assert labels.count("生日") == 1 and labels.count("性别") == 1, labels
