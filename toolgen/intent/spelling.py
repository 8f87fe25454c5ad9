"""What people type, read as what they mean, before any cue is matched.

Requests are typed fast: contractions lose their apostrophe ("im", "dont", "whats"), words shrink ("u", "ur", "pls",
"w/", "pace calc") and a few words are misspelt by nearly everyone ("tommorow", "calender", "seperate"). Every cue
of the classifier, the subject reader and the slot readers is written in standard spelling, so the request is put
into standard spelling once, here, instead of every cue learning every way of typing it. Only forms that mean one
thing where they stand are rewritten: "its", "ill", "were", "lets" and "id" are words as they stand and are left
alone, "mo" may be Missouri and "wether" is as often "whether" as "weather"; "calc" ending the name of what it
calculates is a calculator ("mortgage calc: 420k"), and calculus before a noun or after "AP" ("calc homework", "AP
calc").
"""

from __future__ import annotations

import re

from toolgen.reading import reader

_CONTRACTIONS = {
    "im": "i'm", "ive": "i've", "dont": "don't", "doesnt": "doesn't", "didnt": "didn't", "cant": "can't",
    "wont": "won't", "isnt": "isn't", "arent": "aren't", "wasnt": "wasn't", "werent": "weren't",
    "havent": "haven't", "hasnt": "hasn't", "shouldnt": "shouldn't", "wouldnt": "wouldn't", "couldnt": "couldn't",
    "whats": "what's", "thats": "that's", "theres": "there's", "hows": "how's", "whens": "when's",
    "wheres": "where's", "whos": "who's", "youre": "you're", "theyre": "they're",
}  # fmt: skip
_SHORTHAND = {
    "u": "you", "ur": "your", "pls": "please", "plz": "please", "thx": "thanks", "w/": "with", "w/o": "without",
    "b/c": "because", "abt": "about", "smth": "something", "ppl": "people", "hrs": "hours",
    "mins": "minutes", "wk": "week", "wks": "weeks", "yr": "year", "yrs": "years",
    "tmrw": "tomorrow", "tmr": "tomorrow", "tonite": "tonight", "bday": "birthday", "bdays": "birthdays",
    "gonna": "going to", "wanna": "want to", "gotta": "got to",
}  # fmt: skip
_MISSPELT = {
    "tommorow": "tomorrow", "tommorrow": "tomorrow", "tomorow": "tomorrow", "calender": "calendar",
    "seperate": "separate", "seperately": "separately", "recieve": "receive", "reciept": "receipt",
    "reciepts": "receipts", "remeber": "remember", "rember": "remember", "wieght": "weight", "excercise": "exercise",
    "excersize": "exercise", "medecine": "medicine", "grocerys": "groceries", "definately": "definitely",
    "schedual": "schedule", "buget": "budget", "anniversery": "anniversary", "temprature": "temperature",
    "allergys": "allergies", "vaccum": "vacuum", "untill": "until", "acheive": "achieve",
}  # fmt: skip
_REWRITE = {**_CONTRACTIONS, **_SHORTHAND, **_MISSPELT}
_WORDS = "|".join(re.escape(k) for k in sorted(_REWRITE, key=len, reverse=True))
_PATTERN = re.compile(rf"(?<![\w'/])({_WORDS})(?![\w'/]|\.\w)", re.IGNORECASE)  # "U.S." is no "you"


_AND = re.compile(r"(?<=[a-z]) n (?=[a-z])", re.IGNORECASE)  # "me n my partner"
# "pace calc", "mortgage calc: 420k", "BMI calc pls": a calculator, named after what it calculates and ending that name;
# "calc homework", "AP calc", "pre-calc", "calc II" are calculus
_CALC = re.compile(
    r"(?<=[a-z0-9] )(?<!ap )calcs?"
    r"(?=\s*(?:$|[:,.;!?)\-–—]|(?:pls|please|for|that|to|with|how|where|which|from|in|so|i)\b))",
    re.IGNORECASE,
)


@reader
def standard(text: str) -> str:
    """``text`` in standard spelling ("whats the uv today, im outside w/ the kids" -> "what's the uv today, i'm
    outside with the kids"); Chinese and everything else as it was."""
    text = _PATTERN.sub(lambda m: _REWRITE[m.group(0).lower()], text)
    return _CALC.sub(
        lambda m: "calculators" if m.group(0).lower().endswith("s") else "calculator", _AND.sub(" and ", text)
    )
