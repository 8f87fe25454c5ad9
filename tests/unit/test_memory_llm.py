"""The model-side memory rules that need no model: grounding, normalisation, the meaning index, configuration."""

from __future__ import annotations

import numpy as np
import pytest

from tests.unit.test_memory import NOW, memory
from toolgen.errors import ConfigError
from toolgen.intent import classify
from toolgen.memory import MemoryConfig
from toolgen.memory.extract import RuleReader, statements
from toolgen.memory.ground import ground_value
from toolgen.memory.index import MemoryIndex
from toolgen.memory.llm import NORMALISE, LLMReader, embedder_from_environment, grounded, reader_from_environment


@pytest.mark.parametrize(
    ("statement", "text", "expected"),
    [
        ("I have two kids", "btw I have two kids, a chore chart please", True),
        ("我对咖啡因很敏感", "我对咖啡因很敏感，帮我记录咖啡", True),
        ("I live in Paris", "I have two kids, a chore chart please", False),
        ("", "anything", False),
    ],
)
def test_a_statement_must_come_from_the_text(statement, text, expected):
    assert grounded(statement, text) is expected


@pytest.mark.parametrize(
    ("key", "value", "expected"),
    [
        ("city", "hangzhou", "Hangzhou"),
        ("city", "杭州", "Hangzhou"),
        ("city", "Atlantis", None),  # no weather for a city toolgen cannot place: kept as text
        ("run_time", "6:30 am", "06:30"),
        ("run_time_of_day", "Morning", "morning"),
        ("distance_unit", "miles", "mi"),
        ("distance_unit", "furlongs", None),
        ("caffeine_sensitive", "Yes", "true"),
        ("caffeine_sensitive", "maybe", None),
        ("budget", "3,000", "3000"),
        ("currency", "eur", "EUR"),
        ("diet", "Vegan", "vegan"),
        ("diet", "keto", None),
        ("birthday", "2027-01-20", "2027-01-20"),
        ("theme", "DARK", "dark"),
        ("favorite_restaurant", "  Luigi's ", "Luigi's"),
        ("favorite_restaurant", "x" * 81, None),
    ],
)
def test_model_values_are_normalised_like_the_rules_or_dropped(key, value, expected):
    assert NORMALISE[key](value) == expected


@pytest.mark.parametrize(
    ("key", "value", "said", "expected"),
    [
        # the value itself, in the person's words (case, width, spacing and quotes aside)
        ("favorite_restaurant", "Luigi's", "LUIGI’S is where we always end up", "Luigi's"),
        ("favorite_restaurant", "Din Tai Fung", "每次都去ＤＩＮ  ＴＡＩ　ＦＵＮＧ吃饭", "Din Tai Fung"),
        ("favorite_restaurant", "外婆家", "每周都去外婆家吃饭", "外婆家"),
        # what the rules read off the words
        ("city", "Hangzhou", "杭州是我的家", "Hangzhou"),
        ("run_time", "06:30", "I'm out the door for my jog at 6:30am", "06:30"),
        ("run_time", "18:00", "下午六点我去跑步", "18:00"),
        ("budget", "3000", "I try to keep my spending under 3k a month", "3000"),
        ("water_goal", "2000", "I aim for 2 litres of water a day", "2000"),
        ("currency", "EUR", "I get paid in euros", "EUR"),
        ("cuisine", "sichuan", "麻辣的川菜我最爱", "sichuan"),
        ("budget_period", "month", "I get 500 a month to spend", "month"),
        ("run_time_of_day", "morning", "out at dawn for my jog, always", "morning"),
        ("birthday", "01-20", "I was born on January 20", "01-20"),
        ("birthday", "2027-01-20", "I was born on January 20", "01-20"),  # the year was never said
        # an enumerated value whose words are said
        ("distance_unit", "mi", "I think in miles", "mi"),
        ("caffeine_sensitive", "true", "咖啡喝多了我会心慌", "true"),
        ("diet", "vegetarian", "I went meat-free last year", "vegetarian"),
        ("theme", "dark", "bright screens hurt my eyes, I keep everything dark", "dark"),
        # not said, and not what the words say
        ("favorite_restaurant", "EVIL-INJECTED <b>x</b>", "I like tea", None),
        ("city", "Paris", "I like tea", None),
        ("caffeine_sensitive", "true", "I like tea", None),
        ("theme", "dark", "I like tea", None),
        ("budget", "5000", "I try to keep my spending under 3k a month", None),
        ("water_goal", "2", "I aim for 2 litres of water a day", None),  # a number without its unit
        ("run_time", "07:00", "I run at 6:30am", None),
        ("distance_unit", "mi", "I run with my family", None),  # "mi" only inside a word
        ("diet", "vegan", "I'm vegetarian", None),
        ("cuisine", "japanese", "I like tea", None),
    ],
)
def test_a_models_value_must_be_grounded_in_what_the_person_said(key, value, said, expected):
    assert ground_value(key, value, said, said) == expected


def test_a_value_only_in_the_models_own_statement_is_not_grounded():
    # the statement need only share most of its words with the text: padding it must not smuggle a value in
    padded = "I really really like tea at Luigi's"
    assert ground_value("favorite_restaurant", "Luigi's", padded, "I really like tea") is None
    assert ground_value("city", "Paris", "I really really like tea in Paris", "I really like tea") is None


def test_clauses_split_on_and_before_a_new_first_person_statement():
    assert statements("I live in Chengdu and I run at 6am; salt and pepper") == [
        "I live in Chengdu",
        "I run at 6am",
        "salt and pepper",
    ]


def unit(*values: float) -> np.ndarray:
    v = np.array(values, dtype=np.float32)
    return v / np.linalg.norm(v)


def test_relevance_by_meaning_is_the_rescaled_cosine_and_the_larger_reading_wins():
    config = MemoryConfig()
    memories = [memory("I never eat meat", "m1"), memory("I collect stamps", "m2"), memory("I prefer dark mode", "m3")]
    vectors = {"m1": unit(1, 0, 0), "m2": unit(0, 1, 0)}  # m3 has none yet: words and its key only
    index = MemoryIndex(memories, config, vectors)
    assert index.embedded == 2
    query = unit(0.9, 0.3, 0)
    ranked = index.rank(["vegetarian"], classify("a to-do list"), config, NOW, everything=True, query=query)
    parts = {m.memory_id: m.parts for m in ranked}
    cosine = float(query[0])
    assert parts["m1"].semantic == pytest.approx(min((cosine - 0.2) / (0.5 - 0.2), 1.0), abs=1e-3)
    assert parts["m2"].semantic == pytest.approx(max((float(query[1]) - 0.2) / 0.3, 0.0), abs=1e-3)
    assert parts["m3"].relevance == 1.0 and parts["m3"].semantic == 0.0  # the theme key, read by every page
    words_only = index.rank(["vegetarian"], classify("a to-do list"), config, NOW, everything=True)
    assert [m.memory_id for m in words_only] == ["m3"]


def test_vectors_of_different_sizes_are_not_mixed():
    index = MemoryIndex(
        [memory("I never eat meat", "m1"), memory("I collect stamps", "m2")],
        None,
        {"m1": unit(1, 0), "m2": unit(1, 0, 0)},
    )
    assert index.matrix is None and index.embedded == 0


def test_reader_and_embedder_follow_the_environment(monkeypatch):
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    monkeypatch.delenv("OPENAI_API_KEY_SECRET_ARN", raising=False)
    assert isinstance(reader_from_environment(), RuleReader) and embedder_from_environment() is None
    monkeypatch.delenv("TOOLGEN_BEDROCK_MODEL_ID", raising=False)
    monkeypatch.setenv("MEMORY_EXTRACTION", "llm")
    with pytest.raises(ConfigError, match="needs a model: TOOLGEN_BEDROCK_MODEL_ID, or OPENAI_API_KEY"):
        reader_from_environment()
    monkeypatch.setenv("MEMORY_EMBEDDING_MODEL", "text-embedding-3-small")
    with pytest.raises(ConfigError, match="needs OPENAI_API_KEY"):
        embedder_from_environment()
    monkeypatch.setenv("OPENAI_API_KEY", "k")
    assert isinstance(reader_from_environment(), LLMReader)
    monkeypatch.setenv("MEMORY_EXTRACTION", "rules")
    assert isinstance(reader_from_environment(), RuleReader)
    monkeypatch.setenv("MEMORY_EXTRACTION", "sometimes")
    with pytest.raises(ConfigError, match="auto, rules or llm"):
        reader_from_environment()
    monkeypatch.setenv("MEMORY_EMBEDDING_DIMENSIONS", "256")
    embedder = embedder_from_environment()
    assert embedder is not None and embedder.name == "text-embedding-3-small/256"
    monkeypatch.setenv("MEMORY_EMBEDDING_DIMENSIONS", "lots")
    with pytest.raises(ConfigError, match="whole number"):
        embedder_from_environment()
    # Bedrock reads facts too, with no key at all
    monkeypatch.delenv("OPENAI_API_KEY")
    monkeypatch.delenv("MEMORY_EMBEDDING_MODEL")
    monkeypatch.delenv("MEMORY_EMBEDDING_DIMENSIONS")
    monkeypatch.setenv("MEMORY_EXTRACTION", "auto")
    monkeypatch.setenv("TOOLGEN_BEDROCK_MODEL_ID", "amazon.nova-lite-v1:0")
    reader = reader_from_environment()
    assert isinstance(reader, LLMReader) and reader.name == "llm:amazon.nova-lite-v1:0"


def test_the_meaning_scale_must_rise(monkeypatch):
    monkeypatch.setenv("MEMORY_SEMANTIC_FLOOR", "0.6")
    monkeypatch.setenv("MEMORY_SEMANTIC_FULL", "0.4")
    with pytest.raises(ConfigError, match="below"):
        MemoryConfig.from_env()


def test_the_model_may_give_exactly_the_keys_the_planners_read():
    from toolgen.memory.index import ARCHETYPE_KEYS, UNIVERSAL_KEYS
    from toolgen.memory.llm import KEYS

    read = set(UNIVERSAL_KEYS).union(*ARCHETYPE_KEYS.values())
    assert set(KEYS) == set(NORMALISE) == read
