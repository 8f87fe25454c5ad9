"""The project's own readers of numbers, amounts, dates, times and quantities against well-kept libraries.

    python bench/readers.py            # accuracy on bench/data/spans.jsonl, then cost (import time, size)
    python bench/readers.py --no-cost  # accuracy only
    python bench/readers.py --json out.json

Each labelled span (bench/data/spans.jsonl: 220 spans, half Chinese, from the breadth sets and intents.jsonl; dates
relative to a fixed today, 2026-12-06, a Sunday) is read twice by every reader:

- span: the reader is given the span alone ("2万5", "$2,600/mo", "下周三", "7pm", "64 oz") and its one reading must
  equal the label (numbers and quantities to a relative 1e-4, quantities compared in SI units so 1.2 kg is 1200 g;
  an amount's currency must match where the label names one);
- for tools: the same, on the spans of requests labelled to become a tool (the rest are refused: "book a table
  Friday at 8", "帮我订一张下周三的高铁票"), where a reading can reach a tool;
- sentence: the reader is given the whole request and the label must be among what it reads there (a finder that
  reads many things is not penalised for the rest; amounts are compared by value only).

A library that is not installed is skipped and said so; docs/readers.md has the figures and verdicts. The project's
readers are toolgen's own (toolgen/intent/numerals.py, slots.py, details.py): nothing here changes them.
"""

from __future__ import annotations

import argparse
import contextlib
import datetime as dt
import importlib.util
import io
import json
import logging
import os
import re
import statistics
import subprocess
import sys
import time
import warnings
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
SPANS = ROOT / "bench" / "data" / "spans.jsonl"
# Today for every relative date. The clock reads 10:17 so that a reader which gives a date's "now" as its time
# never matches a labelled time by accident.
TODAY = dt.datetime(2026, 12, 6, 10, 17)

# --- comparing readings ---------------------------------------------------------------------------------------

# canonical unit: (dimension, factor to the dimension's base unit); temperature and fuel economy compare by name
UNIT_SCALE: dict[str, tuple[str, float]] = {
    "km": ("length", 1000.0), "m": ("length", 1.0), "cm": ("length", 0.01), "mm": ("length", 0.001),
    "mi": ("length", 1609.344), "ft": ("length", 0.3048), "in": ("length", 0.0254), "yd": ("length", 0.9144),
    "kg": ("mass", 1.0), "g": ("mass", 1e-3), "mg": ("mass", 1e-6), "lb": ("mass", 0.45359237),
    "oz": ("mass", 0.028349523125), "jin": ("mass", 0.5),
    "l": ("volume", 1.0), "ml": ("volume", 1e-3), "cup": ("volume", 0.2365882365), "gal": ("volume", 3.785411784),
    "h": ("time", 3600.0), "min": ("time", 60.0), "s": ("time", 1.0),
    "m2": ("area", 1.0), "ft2": ("area", 0.09290304), "kcal": ("energy", 1.0), "step": ("count", 1.0),
    "c": ("temperature C", 1.0), "f": ("temperature F", 1.0), "mpg": ("mpg", 1.0), "l/100km": ("l/100km", 1.0),
}  # fmt: skip
# unit names as readers spell them (toolgen's gazetteer keys, quantulum3's and pint's names) -> canonical
UNIT_NAMES = {
    "hour": "h", "hours": "h", "minute": "min", "glass": "cup", "m²": "m2", "gram": "g", "kilogram": "kg",
    "milligram": "mg", "litre": "l", "liter": "l", "millilitre": "ml", "milliliter": "ml", "cubic centimetre": "ml",
    "mile": "mi", "kilometre": "km", "kilometer": "km", "metre": "m", "meter": "m", "centimetre": "cm",
    "centimeter": "cm", "millimetre": "mm", "millimeter": "mm", "inch": "in", "foot": "ft", "yard": "yd",
    "pound": "lb", "pound-mass": "lb", "ounce": "oz", "degree fahrenheit": "f", "degree_fahrenheit": "f",
    "degree celsius": "c", "degree_celsius": "c", "kilocalorie": "kcal", "square metre": "m2", "meter ** 2": "m2",
    "square foot": "ft2", "foot ** 2": "ft2", "second": "s", "cup": "cup", "gallon": "gal",
    "mile per gallon": "mpg", "mile / gallon": "mpg",
}  # fmt: skip


def canon_unit(name: str | None) -> str | None:
    if not name:
        return None
    key = name.strip().lower()
    key = UNIT_NAMES.get(key, key)
    return key if key in UNIT_SCALE else None


def same_number(got: Any, want: float) -> bool:
    return isinstance(got, (int, float)) and abs(float(got) - want) <= 1e-4 * max(1.0, abs(want))


def same_quantity(got: Any, want: dict[str, Any]) -> bool:
    if not got:
        return False
    value, unit = got
    unit, wanted = canon_unit(unit), canon_unit(want["unit"])
    if unit is None or value is None:
        return False
    (dim, scale), (wdim, wscale) = UNIT_SCALE[unit], UNIT_SCALE[wanted]  # type: ignore[index]
    return dim == wdim and same_number(float(value) * scale, want["value"] * wscale)


def same_amount(got: Any, want: dict[str, Any]) -> bool:
    if not got:
        return False
    value, currency = got
    return same_number(value, want["value"]) and (want["currency"] is None or currency == want["currency"])


def matches(kind: str, got: Any, want: Any) -> bool:
    if kind == "number":
        return same_number(got, want)
    if kind == "amount":
        return same_amount(got, want)
    if kind == "quantity":
        return same_quantity(got, want)
    return got == want  # dates "YYYY-MM-DD", times "HH:MM"


def found(kind: str, readings: list[Any], want: Any) -> bool:
    if kind == "amount":  # in a sentence, by value only
        return any(same_number(r[0] if isinstance(r, tuple) else r, want["value"]) for r in readings if r)
    return any(matches(kind, r, want) for r in readings)


# --- the project's readers --------------------------------------------------------------------------------------


def _next_occurrence(mmdd: str) -> str:
    """A month and day with no year: its next occurrence from today on (how a countdown reads "Dec 25")."""
    month, day = int(mmdd[:2]), int(mmdd[3:])
    year = TODAY.year if (month, day) >= (TODAY.month, TODAY.day) else TODAY.year + 1
    return f"{year:04d}-{month:02d}-{day:02d}"


def toolgen_readers() -> list[Reader]:
    from toolgen.intent import details, numerals, slots

    def numbers_in(text: str) -> list[float]:
        return [v for m in numerals.NUMERAL.finditer(text.replace(",", "")) if (v := numerals.zh_number(m.group(0)))
                is not None]  # fmt: skip

    def currency(text: str) -> str | None:
        return next(iter(slots.find_currencies(text)), None)

    def date(text: str) -> str | None:
        d = slots.find_date(text)
        return _next_occurrence(d) if d and len(d) == 5 else d

    def quantities(text: str) -> list[tuple[float, str]]:
        """Every value with its unit the project reads: details.measures (kg, cm, g, min, m²), slots.find_goal
        (ml, l, glass, mg, km, mi, hours, minutes), else the first number (numerals.first_number) with the first
        unit named (slots.find_units)."""
        found = [(m["value"], m["unit"]) for m in details.measures(text)]
        if goal := slots.find_goal(text):
            found.append(goal)
        units, number = slots.find_units(text), numerals.first_number(text)
        if units and number is not None:
            found.append((number, units[0]))
        return found

    return [
        Reader("number", "toolgen numerals.zh_number", "toolgen", numerals.zh_number, numbers_in),
        Reader(
            "amount",
            "toolgen slots.find_amount",
            "toolgen",
            lambda s: (slots.find_amount(s), currency(s)),
            lambda t: [(slots.find_amount(t), None)],
        ),
        Reader(
            "amount",
            "toolgen details.amounts",
            "toolgen",
            lambda s: (next(iter(details.amounts(s)), None), currency(s)),
            lambda t: [(v, None) for v in details.amounts(t)],
        ),
        Reader("date", "toolgen slots.find_date", "toolgen", date, lambda t: [date(t)]),
        Reader("time", "toolgen slots.find_time", "toolgen", slots.find_time, lambda t: [slots.find_time(t)]),
        Reader(
            "quantity",
            "toolgen measures+find_goal+find_units",
            "toolgen",
            lambda s: next(iter(quantities(s)), None),
            quantities,
        ),
    ]


# --- the libraries ----------------------------------------------------------------------------------------------

CURRENCY_WORDS = {
    "$": "USD", "us$": "USD", "usd": "USD", "美元": "USD", "美金": "USD", "€": "EUR", "eur": "EUR", "欧元": "EUR",
    "£": "GBP", "gbp": "GBP", "英镑": "GBP", "jpy": "JPY", "日元": "JPY", "cny": "CNY", "rmb": "CNY", "元": "CNY",
    "块": "CNY", "块钱": "CNY", "人民币": "CNY", "块人民币": "CNY", "元人民币": "CNY", "港元": "HKD", "港币": "HKD",
}  # fmt: skip


def cn2an_readers() -> list[Reader]:
    import cn2an

    def read(span: str) -> float | None:
        try:
            return float(cn2an.cn2an(span, "smart"))
        except (ValueError, KeyError, TypeError):
            return None

    def numbers_in(text: str) -> list[float]:
        out = cn2an.transform(text, "cn2an")
        values = []
        for m in re.finditer(r"(\d+(?:\.\d+)?)(?:/(\d+(?:\.\d+)?))?", out.replace(",", "")):
            a, b = float(m.group(1)), m.group(2)
            values.append(a / float(b) if b and float(b) else a)
        return values

    return [Reader("number", "cn2an (smart)", "cn2an", read, numbers_in)]


def price_parser_readers() -> list[Reader]:
    from price_parser import Price

    def read(text: str) -> tuple[float | None, str | None]:
        price = Price.fromstring(text)
        return price.amount_float, CURRENCY_WORDS.get((price.currency or "").lower())

    return [Reader("amount", "price-parser", "price_parser", read, lambda t: [read(t)])]


def jionlp_readers() -> list[Reader]:
    with contextlib.redirect_stdout(io.StringIO()):  # its banner, printed at import
        import jionlp
    logging.disable(logging.ERROR)  # it logs a traceback for every string it cannot read

    base = TODAY.timestamp()

    def money(span: str) -> tuple[float, str | None] | None:
        try:
            r = jionlp.parse_money(span)
        except Exception:  # noqa: BLE001 - it raises ValueError and others on what it cannot read
            return None
        return float(r["num"]), CURRENCY_WORDS.get(r["case"])

    def money_in(text: str) -> list[Any]:
        try:
            return [(float(m["detail"]["num"]), None) for m in jionlp.ner.extract_money(text)]
        except Exception:  # noqa: BLE001
            return []

    def point(span: str, **kw: Any) -> tuple[dt.datetime, dt.datetime] | None:
        try:
            r = jionlp.parse_time(span, time_base=base, **kw)
        except Exception:  # noqa: BLE001
            return None
        if r.get("type") != "time_point":
            return None
        start, end = (dt.datetime.strptime(x, "%Y-%m-%d %H:%M:%S") for x in r["time"][:2])
        return start, end

    def as_date(p: Any) -> str | None:
        return p[0].date().isoformat() if p and (p[1] - p[0]) < dt.timedelta(days=1) else None

    def as_time(p: Any) -> str | None:  # a whole day is no time of day
        return p[0].strftime("%H:%M") if p and (p[1] - p[0]) < dt.timedelta(hours=23) else None

    def extracted(text: str) -> list[Any]:
        try:
            found = jionlp.ner.extract_time(text, time_base=base)
        except Exception:  # noqa: BLE001
            return []
        points = []
        for item in found:
            detail = item.get("detail", {})
            if detail.get("type") == "time_point":
                points.append(tuple(dt.datetime.strptime(x, "%Y-%m-%d %H:%M:%S") for x in detail["time"][:2]))
        return points

    return [
        Reader("amount", "jionlp parse_money", "jionlp", money, money_in),
        Reader("date", "jionlp parse_time", "jionlp", lambda s: as_date(point(s)),
               lambda t: [as_date(p) for p in extracted(t)]),
        Reader("date", "jionlp parse_time ret_future", "jionlp", lambda s: as_date(point(s, ret_future=True)),
               lambda t: [as_date(p) for p in extracted(t)]),
        Reader("time", "jionlp parse_time", "jionlp", lambda s: as_time(point(s)),
               lambda t: [as_time(p) for p in extracted(t)]),
    ]  # fmt: skip


def dateparser_readers() -> list[Reader]:
    import dateparser
    from dateparser.search import search_dates

    settings = {"RELATIVE_BASE": TODAY, "PREFER_DATES_FROM": "future"}
    langs = ["en", "zh"]

    def parse(span: str) -> dt.datetime | None:
        return dateparser.parse(span, languages=langs, settings=settings)

    def search(text: str) -> list[dt.datetime]:
        return [d for _, d in (search_dates(text, languages=langs, settings=settings) or [])]

    def hhmm(d: dt.datetime | None) -> str | None:
        return d.strftime("%H:%M") if d else None

    return [
        Reader("date", "dateparser", "dateparser", lambda s: (d := parse(s)) and d.date().isoformat(),
               lambda t: [d.date().isoformat() for d in search(t)]),
        Reader("time", "dateparser", "dateparser", lambda s: hhmm(parse(s)), lambda t: [hhmm(d) for d in search(t)]),
    ]  # fmt: skip


def quantulum3_readers() -> list[Reader]:
    with warnings.catch_warnings():  # its optional classifier (scikit-learn) is not installed: said once, at import
        warnings.simplefilter("ignore")
        from quantulum3 import parser

    def readings(text: str) -> list[tuple[float, str]]:
        try:
            return [(q.value, q.unit.name) for q in parser.parse(text)]
        except Exception:  # noqa: BLE001
            return []

    return [Reader("quantity", "quantulum3", "quantulum3", lambda s: next(iter(readings(s)), None), readings)]


def pint_readers() -> list[Reader]:
    import pint

    ureg = pint.UnitRegistry()

    def read(span: str) -> tuple[float, str] | None:
        try:
            q = ureg.Quantity(span)
        except Exception:  # noqa: BLE001 - undefined units, syntax it cannot parse
            return None
        return (float(q.magnitude), str(q.units)) if hasattr(q, "units") else None

    # pint reads a quantity written alone; it finds none in running text
    return [Reader("quantity", "pint", "pint", read, None)]


class Reader:
    def __init__(
        self,
        kind: str,
        name: str,
        module: str,
        span: Callable[[str], Any],
        sentence: Callable[[str], list[Any]] | None,
    ) -> None:
        self.kind, self.name, self.module, self.span, self.sentence = kind, name, module, span, sentence


LIBRARIES: list[tuple[str, str, Callable[[], list[Reader]]]] = [
    # (pip name, module, readers)
    ("cn2an", "cn2an", cn2an_readers),
    ("price-parser", "price_parser", price_parser_readers),
    ("quantulum3", "quantulum3", quantulum3_readers),
    ("pint", "pint", pint_readers),
    ("dateparser", "dateparser", dateparser_readers),
    ("jionlp", "jionlp", jionlp_readers),
]


def _read(got: Any) -> bool:
    """Whether a reader read anything (an amount's reading is (value, currency): nothing without a value)."""
    return bool(got) and not (isinstance(got, tuple) and got[0] is None)


def fallback(primary: Reader, library: Reader) -> Reader:
    """The project's reader, and the library's reading only where the project's reads nothing: how a library
    would most likely be taken in."""

    def span(text: str) -> Any:
        got = _safe(primary.span, text)
        return got if _read(got) else _safe(library.span, text)

    def sentence(text: str) -> list[Any]:
        assert primary.sentence is not None
        got = [g for g in _safe(primary.sentence, text) or [] if _read(g)]
        return got or (_safe(library.sentence, text) or [] if library.sentence else [])

    return Reader(primary.kind, f"toolgen, else {library.name}", library.module, span, sentence)


def all_readers() -> tuple[list[Reader], list[str]]:
    readers, skipped = toolgen_readers(), []
    primary = {r.kind: r for r in reversed(readers)}  # the first of the project's readers of each kind
    combined = []
    for pip_name, module, make in LIBRARIES:
        if importlib.util.find_spec(module) is None:
            skipped.append(f"{pip_name}: not installed, skipped")
            continue
        made = make()
        readers += made
        combined += [fallback(primary[r.kind], r) for r in made if "ret_future" not in r.name]
    return readers + combined, skipped


# --- scoring ----------------------------------------------------------------------------------------------------


def _safe(fn: Callable[[str], Any], arg: str) -> Any:
    try:
        return fn(arg)
    except Exception:  # noqa: BLE001 - a reader that raises has read nothing
        return None


def score(readers: list[Reader], spans: list[dict[str, Any]]) -> list[dict[str, Any]]:
    rows = []
    for reader in readers:
        mine = [s for s in spans if s["kind"] == reader.kind]
        _safe(reader.span, mine[0]["span"])  # the first call may load data: timed apart, in cost()
        hits: dict[str, list[bool]] = {"en": [], "zh": []}
        for_tools: list[bool] = []
        in_sentence: dict[str, list[bool]] = {"en": [], "zh": []}
        misses = []
        start = time.perf_counter()
        for s in mine:
            ok = matches(reader.kind, _safe(reader.span, s["span"]), s["expect"])
            hits[s["lang"]].append(ok)
            if s["request"] == "tool":
                for_tools.append(ok)
            if not ok:
                misses.append(s["id"])
        span_ms = (time.perf_counter() - start) * 1000 / len(mine)
        start = time.perf_counter()
        if reader.sentence is not None:
            for s in mine:
                got = _safe(reader.sentence, s["text"]) or []
                in_sentence[s["lang"]].append(found(reader.kind, got, s["expect"]))
        sentence_ms = (time.perf_counter() - start) * 1000 / len(mine) if reader.sentence else None
        rows.append(
            {
                "kind": reader.kind,
                "reader": reader.name,
                "n": len(mine),
                "span_en": _pair(hits["en"]),
                "span_zh": _pair(hits["zh"]),
                "span_all": _pair(hits["en"] + hits["zh"]),
                "span_tools": _pair(for_tools),
                "sentence_all": _pair(in_sentence["en"] + in_sentence["zh"]) if reader.sentence else None,
                "span_ms": round(span_ms, 3),
                "sentence_ms": round(sentence_ms, 3) if sentence_ms is not None else None,
                "misses": misses,
            }
        )
    return rows


def _pair(oks: list[bool]) -> list[int]:
    return [sum(oks), len(oks)]


def _cell(pair: list[int] | None) -> str:
    if not pair:
        return "n/a"
    ok, n = pair
    return f"{ok}/{n} ({100 * ok / n:.0f}%)" if n else "-"


# --- cost -------------------------------------------------------------------------------------------------------

_NUMERALS_ALONE = (
    "import importlib.util as u; s = u.spec_from_file_location('numerals', 'toolgen/intent/numerals.py'); "
    "m = u.module_from_spec(s); s.loader.exec_module(m)"
)
COLD = {  # what a fresh process runs: the import, then the import and a first reading
    # numerals.py by its file: importing it as toolgen.intent.numerals runs toolgen/intent/__init__ (the classifier)
    "toolgen numerals.py alone": (_NUMERALS_ALONE, _NUMERALS_ALONE + "; m.zh_number('三千')"),
    # what every request already imports (the API and the worker classify each request): a reader in slots.py or
    # details.py adds nothing to it
    "toolgen.intent (already paid)": (
        "import toolgen.intent.details",
        "import toolgen.intent.details as d, toolgen.intent.slots as s; d.amounts('$2,600'); s.find_date('Dec 25')",
    ),
    "cn2an": ("import cn2an", "import cn2an; cn2an.cn2an('三千', 'smart')"),
    "price-parser": ("import price_parser", "from price_parser import Price; Price.fromstring('$2,600/mo')"),
    "quantulum3": (
        "from quantulum3 import parser",
        "from quantulum3 import parser; parser.parse('64 oz')",
    ),
    "pint": ("import pint", "import pint; pint.UnitRegistry().Quantity('64 oz')"),
    "dateparser": (
        "import dateparser",
        "import dateparser as d; d.parse('June 14', languages=['en', 'zh']); d.parse('周五', languages=['en', 'zh'])",
    ),
    "jionlp": ("import jionlp", "import jionlp; jionlp.parse_time('下周三'); jionlp.parse_money('3000块')"),
}
MODULES = {"cn2an": "cn2an", "price-parser": "price_parser", "quantulum3": "quantulum3", "pint": "pint",
           "dateparser": "dateparser", "jionlp": "jionlp"}  # fmt: skip


def _run_ms(code: str, runs: int) -> float:
    times = []
    env = {**os.environ, "PYTHONWARNINGS": "ignore"}
    for _ in range(runs):
        start = time.perf_counter()
        subprocess.run([sys.executable, "-c", code], check=True, capture_output=True, env=env, cwd=ROOT)
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times)


def _dist_closure(name: str) -> list[str]:
    """The distribution and everything it requires (extras left out), by their metadata in this environment."""
    from importlib import metadata

    try:
        from packaging.requirements import Requirement
    except ImportError:  # pip's copy: every venv has it
        from pip._vendor.packaging.requirements import Requirement  # type: ignore[no-redef]

    seen: dict[str, metadata.Distribution] = {}
    todo = [name]
    while todo:
        current = todo.pop()
        key = re.sub(r"[-_.]+", "-", current).lower()
        if key in seen:
            continue
        try:
            dist = metadata.distribution(current)
        except metadata.PackageNotFoundError:
            continue
        seen[key] = dist
        for line in dist.requires or []:
            req = Requirement(line)
            if req.marker is not None and not req.marker.evaluate({"extra": ""}):
                continue
            todo.append(req.name)
    return sorted(seen)


def _dist_bytes(name: str) -> int:
    """Bytes on disk of a distribution's top-level files and folders in site-packages, bytecode included."""
    from importlib import metadata

    dist = metadata.distribution(name)
    site = Path(str(dist.locate_file("")))
    tops = {Path(str(f)).parts[0] for f in dist.files or [] if not str(f).startswith("..")}
    total = 0
    for top in tops:
        path = site / top
        if path.is_file():
            total += path.stat().st_size
        elif path.is_dir():
            total += sum(p.stat().st_size for p in path.rglob("*") if p.is_file())
    return total


def _worker_requirements() -> set[str]:
    """Distributions the platform's worker function already installs (functions/worker/requirements.txt)."""
    text = (ROOT / "functions" / "worker" / "requirements.txt").read_text()
    return {re.sub(r"[-_.]+", "-", m.group(1)).lower() for m in re.finditer(r"^([A-Za-z0-9_.-]+)==", text, re.M)}


def cost(runs: int = 5) -> list[dict[str, Any]]:
    baseline = _run_ms("pass", runs)
    in_worker = _worker_requirements()
    rows = []
    for name, (imp, first) in COLD.items():
        module = MODULES.get(name)
        if module and importlib.util.find_spec(module) is None:
            rows.append({"library": name, "skipped": "not installed"})
            continue
        row: dict[str, Any] = {
            "library": name,
            "import_ms": round(_run_ms(imp, runs) - baseline, 1),
            "first_read_ms": round(_run_ms(first, runs) - baseline, 1),
        }
        if module:
            dists = _dist_closure(name)
            sizes = {d: _dist_bytes(d) for d in dists}
            row["dists"] = dists
            row["installed_mb"] = round(sum(sizes.values()) / 1e6, 2)
            row["new_to_worker_mb"] = round(sum(v for d, v in sizes.items() if d not in in_worker) / 1e6, 2)
        rows.append(row)
    return rows


# --- main -------------------------------------------------------------------------------------------------------


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--no-cost", action="store_true", help="accuracy only")
    ap.add_argument("--runs", type=int, default=5, help="fresh processes per cost figure (median)")
    ap.add_argument("--json", help="write every figure, misses included, to this file")
    ap.add_argument("--misses", action="store_true", help="print each reader's missed span ids")
    args = ap.parse_args()
    sys.path.insert(0, str(ROOT))
    warnings.simplefilter("ignore")  # cn2an warns of each numeral it cannot read
    spans = [json.loads(line) for line in SPANS.read_text().splitlines() if line.strip()]
    readers, skipped = all_readers()
    rows = score(readers, spans)
    print(f"{len(spans)} spans, today {TODAY:%Y-%m-%d}; python {sys.version.split()[0]}")
    for note in skipped:
        print(note)
    print()
    print("| kind | reader | span: en | span: zh | span: all | span: for tools | in sentence | ms/span | ms/sentence |")
    print("|---|---|---|---|---|---|---|---|---|")
    for r in rows:
        print(
            f"| {r['kind']} | {r['reader']} | {_cell(r['span_en'])} | {_cell(r['span_zh'])} | "
            f"**{_cell(r['span_all'])}** | {_cell(r['span_tools'])} | {_cell(r['sentence_all'])} | "
            f"{r['span_ms']:.2f} | {'n/a' if r['sentence_ms'] is None else format(r['sentence_ms'], '.2f')} |"
        )
    if args.misses:
        print()
        for r in rows:
            print(f"{r['reader']} ({r['kind']}) missed: {' '.join(r['misses'])}")
    costs = [] if args.no_cost else cost(args.runs)
    if costs:
        print()
        print(f"cost: median of {args.runs} fresh processes, less an empty interpreter's start")
        print("| library | import ms | import + first read ms | installed MB (with its deps) | new to the worker MB |")
        print("|---|---|---|---|---|")
        for c in costs:
            if "skipped" in c:
                print(f"| {c['library']} | {c['skipped']} | | | |")
                continue
            print(
                f"| {c['library']} | {c['import_ms']:.0f} | {c['first_read_ms']:.0f} | "
                f"{c.get('installed_mb', '-')} | {c.get('new_to_worker_mb', '-')} |"
            )
        for c in costs:
            if c.get("dists"):
                print(f"  {c['library']}: {', '.join(c['dists'])}")
    if args.json:
        Path(args.json).write_text(json.dumps({"accuracy": rows, "cost": costs, "skipped": skipped}, indent=1))


if __name__ == "__main__":
    main()
