"""Numbers written in Chinese numerals, or in digits and Chinese units together: the code base's one reader of them.

People write a budget as "三千", "两千五" (2,500: a digit after the last unit counts in the unit below it),
"一万二" (12,000), "2千5", "1.5万" or "三点五", and a time as "十点半"; the intent's slots, the request's details and
the reader of follow-ups all read them here. What is not a well-formed number ("十十", "三五", "百千") is None,
never a guess and never an exception: a caller answers it as a value it could not read.
"""

from __future__ import annotations

import re

DIGITS = {"零": 0, "〇": 0, "一": 1, "二": 2, "两": 2, "三": 3, "四": 4, "五": 5, "六": 6, "七": 7, "八": 8, "九": 9}
UNITS = {"十": 10, "百": 100, "千": 1000}
WAN = 10_000
MAX_DIGITS = 15  # a longer run of digits is no value anyone means, and past a float's precision
# A number as written in running text: digits and numerals with their units, and a decimal part after "." or "点".
# Each part is a character class repeated once, so finding one costs a single pass over the text.
NUMERAL = re.compile(r"[\d零〇一二两三四五六七八九十百千万]+(?:[.点][\d零〇一二两三四五六七八九]+[十百千万]?)?")
_SECTION = re.compile(r"\d+|.")
_TIME = re.compile(r"(?<=\d)[:：](?=\d)")


def _digit(part: str) -> int | None:
    """A digit: one numeral or a run of ASCII digits (None for anything else)."""
    if part.isascii() and part.isdigit():
        return int(part) if len(part) <= MAX_DIGITS else None
    value = DIGITS.get(part)
    return value if value is not None and part not in ("零", "〇") else None


def _section(text: str) -> int | None:
    """A number below ten thousand, by its units from the largest ("三千零五十", "两千五", "十五", "2千5")."""
    total, pending, last, zero = 0, None, WAN, False
    for part in _SECTION.findall(text):
        digit = _digit(part)
        if digit is not None:
            if pending is not None or (last < WAN and digit > 9):
                return None  # two digits in a row ("三五") or digits where one is meant ("2千50")
            pending = digit
        elif part in ("零", "〇"):
            if pending is not None or total == 0 or zero:
                return None
            zero = True
        elif part in UNITS:
            unit = UNITS[part]
            coefficient = pending if pending is not None else (1 if unit == 10 and total == 0 else None)
            if unit >= last or coefficient is None or coefficient > 9:
                return None  # "十十", "百千", "百" alone
            total, pending, last, zero = total + coefficient * unit, None, unit, False
        else:
            return None
    if pending is None:
        return None if zero or last == WAN else total
    if last == WAN:
        return pending  # no unit: "五", "25"
    # after 零 or 十 a digit counts ones; after a larger unit, the unit below it ("两千五" is 2,500)
    return total + (pending if zero or last == 10 else pending * last // 10)


def _whole(text: str) -> int | None:
    if text in ("零", "〇"):
        return 0
    high, wan, low = text.partition("万")
    if not wan:
        return _section(text)
    above = _section(high)
    if above is None or "万" in low:
        return None
    if not low:
        return above * WAN
    if low[0] in ("零", "〇"):
        below = _section(low[1:])
    elif len(low) == 1 and (digit := _digit(low)) is not None:
        below = digit * 1000  # "一万二" is 12,000, as "两千五" is 2,500
    else:
        below = _section(low)
    return None if below is None or below >= WAN else above * WAN + below


def zh_number(token: str) -> float | None:
    """The value of a number written in Chinese numerals, digits or both ("三千" 3000, "两千五" 2500, "一万二" 12000,
    "2千5" 2500, "1.5万" 15000, "三点五" 3.5); None when it is not a well-formed number ("十十")."""
    whole, point, fraction = re.sub("点", ".", token).partition(".")
    if not point:
        whole_value = _whole(whole)
        return None if whole_value is None else float(whole_value)
    unit = fraction[-1] if fraction and fraction[-1] in "十百千万" else ""
    fraction = fraction[: len(fraction) - len(unit)]
    digits = [str(DIGITS[c]) if c in DIGITS else c for c in fraction]
    base = _whole(whole)
    if base is None or not fraction or not all(d.isascii() and d.isdigit() for d in digits):
        return None
    return float(f"{base}.{''.join(digits)}") * (UNITS.get(unit) or (WAN if unit else 1))


def first_number(text: str) -> float | None:
    """The first number the text names in digits, Chinese numerals or both, one with digits first ("每周3次，目标二十"
    is 3); None when there is none or it is malformed. A time's hours and minutes ("7:30") are no number."""
    text = text.replace(",", "")
    times = {m.start() for m in _TIME.finditer(text)}  # "12:00": neither 12 nor 00 is a number said
    found = [m for m in NUMERAL.finditer(text) if m.end() not in times and m.start() - 1 not in times]
    if not found:
        return None
    m = next((m for m in found if re.search(r"\d", m.group(0))), found[0])
    return zh_number(m.group(0))
