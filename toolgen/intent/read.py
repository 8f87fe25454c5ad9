"""The open-world reading of a request: which subject it is about, which shape of tool, and what it refuses.

A request is read as a *shape* (log, collection, schedule, dates, calculator, split) and a *subject* from the
knowledge base ("血压" is blood pressure, a log). Words are matched as the knowledge base gives them: English on
word boundaries with their plurals, Chinese as substrings, the longest match first, so "blood pressure" is one
subject and not also "pressure". Actions in the world ("book me a table") are read first: they are refused with a
reason in the person's language, whatever else the sentence names, unless the sentence asks for a tool about them
("a list of restaurants to book").
"""

from __future__ import annotations

import gzip
import json
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from functools import cache
from typing import Any

from toolgen.intent.asked import asked
from toolgen.intent.subjects import likelihoods
from toolgen.knowledge.base import DATA, SHAPES, Subject, library
from toolgen.knowledge.gloss import QUESTION_WORDS, glossary, word_bounds
from toolgen.knowledge.loading import read_json
from toolgen.reading import reader


@dataclass(frozen=True)
class Action:
    id: str
    reason_en: str
    reason_zh: str

    def reason(self, lang: str) -> str:
        """Why no tool does this, in ``lang``."""
        return self.reason_zh if lang == "zh" else self.reason_en


@dataclass
class Reading:
    subject: Subject | None = None
    subject_score: float = 0.0
    shape_scores: dict[str, float] = field(default_factory=dict)
    action: Action | None = None
    matched: str = ""  # the words that named the subject
    by_noun: bool = False  # named only by one of its nouns, not by a phrase of its own

    @property
    def shape(self) -> str | None:
        """The subject's shape; for no subject, the shape the words point at most, if any."""
        if self.subject is not None:
            return self.subject.shape
        best = max(self.shape_scores.items(), key=lambda kv: kv[1], default=(None, 0.0))
        return best[0] if best[1] >= 1.5 else None


@cache
def _words() -> dict[str, Any]:
    data: dict[str, Any] = json.loads((DATA / "words.json").read_text())
    return data


_Y_PLURAL = re.compile(r"[^aeiou]y$")
_ES_PLURAL = re.compile(r"(s|x|ch|sh)$")
_LATIN = re.compile(r"[A-Za-z0-9 .+-]+")
_SPACED = re.compile(r"[\s-]+")


def _plurals(word: str) -> list[str]:
    last = word.split(" ")[-1]
    if _Y_PLURAL.search(last):
        return [word, word[:-1] + "ies"]
    if _ES_PLURAL.search(last):
        return [word, word + "es"]
    return [word, word + "s"]


def _computed_index() -> tuple[dict[str, str], dict[str, str], int]:
    """Every English word of every subject (with plurals, spaced) and every Chinese word, to their subjects, and the
    longest Chinese word's length. Looked up, not compiled into one alternation: a regular expression of 12,000
    words took most of a second to compile on a cold start."""
    en: dict[str, str] = {}
    zh: dict[str, str] = {}
    for subject in library().subjects.names():
        # a Chinese list's Latin word ("ddl", "PM2.5") is matched as a word, never inside another ("paddling")
        latin = [w.lower() for w in subject.zh if _LATIN.fullmatch(w)]
        for word in [*subject.en, *latin]:
            for variant in _plurals(word):  # "weigh-in" is found as written or as "weigh in"
                en.setdefault(_SPACED.sub(" ", variant), subject.id)
        for word in subject.zh:
            if word.lower() not in latin:
                zh.setdefault(word, subject.id)
    return en, zh, max(map(len, zh), default=0)


_ALNUM = re.compile(r"[a-z0-9]")
_WORD_CHAR = re.compile(r"[a-z0-9%'+./:]")
_MAX_EN = 80  # characters: longer than any subject's English words


def _english_words(text: str, en: dict[str, str]) -> Iterator[str]:
    """The subject words in ``text``, each the longest one starting at a word boundary, left to right without
    overlaps (what a longest-first alternation between word boundaries finds), spaces and hyphens as one space."""
    return (word for _, _, word in _english_spans(text, en))


def _english_spans(text: str, en: dict[str, str]) -> Iterator[tuple[int, int, str]]:
    """Each subject word of ``text`` (_english_words) with where it stands."""
    lower, i, n = text.lower(), 0, len(text)
    while i < n:
        if not _ALNUM.match(lower, i) or (i and _ALNUM.match(lower, i - 1)):
            i += 1
            continue
        best, built, j = None, "", i
        while j < n and j - i < _MAX_EN:
            ch = lower[j]
            if _WORD_CHAR.match(ch):
                built += ch
                j += 1
                if (j == n or not _ALNUM.match(lower, j)) and built in en:
                    best = (built, j)
            elif ch in " \t\n-" and built and not built.endswith(" "):
                while j < n and lower[j] in " \t\n-":
                    j += 1
                built += " "
            else:
                break
        if best is None:
            i += 1
            continue
        yield i, best[1], best[0]
        i = best[1]


def _chinese_words(text: str, zh: dict[str, str], longest: int) -> Iterator[str]:
    """The Chinese subject words in ``text``, the longest at each place, left to right without overlaps; not one
    whose last word begins a longer word of the text ("孩子的课" in "孩子的课外书": the books are extracurricular)."""
    i, n = 0, len(text)
    while i < n:
        for size in range(min(longest, n - i), 0, -1):
            if text[i : i + size] in zh and not _runs_on(text, i, i + size):
                yield text[i : i + size]
                i += size
                break
        else:
            i += 1


MAX_WORD = 6  # the longest dictionary word looked for where a subject's word may run on


def _runs_on(text: str, start: int, end: int) -> bool:
    """Whether the last word of text[start:end] (cut longest first by the dictionary) is one character that, read in
    the whole text, begins a longer word running on past ``end``, longer than the word that begins at ``end``: 课 of
    孩子的课 in 孩子的课外书 (a child's extracurricular books). Not a word that a suffix follows (健身房 is a place to
    work out, 哪儿 is 哪), nor where the word after the match reads longer ("水合适" is 水 + 合适, though 水合 is a
    word)."""
    if end >= len(text) or text[end] == "儿" or not _CJK_RUN.match(text, end):
        return False
    words = glossary()
    last = end - 1
    crossing = max(
        (k - last for k in range(end + 1, min(last + MAX_WORD, len(text)) + 1) if text[last:k] in words), default=0
    )
    following = max(
        (k - end for k in range(end + 2, min(end + MAX_WORD, len(text)) + 1) if text[end:k] in words), default=1
    )
    if crossing <= following:
        return False
    at = start
    while at < end:  # the words of the match, longest first: its last one must be its last character alone
        size = next((k for k in range(min(end - at, MAX_WORD), 1, -1) if text[at : at + k] in words), 1)
        if at + size >= end:
            break
        at += size
    return at == last


@reader
def zh_word_spans(text: str) -> list[tuple[int, int]]:
    """Where the knowledge base's Chinese words (subjects' words and nouns) stand in ``text``, the longest at each
    place, left to right: the word boundaries a cue must not cross ("生日记一下" is 生日 + 记, no 日记)."""
    _, zh, longest = _index()
    cores = _zh_cores()
    spans: list[tuple[int, int]] = []
    i, n = 0, len(text)
    while i < n:
        for size in range(min(max(longest, 4), n - i), 1, -1):
            if text[i : i + size] in zh or text[i : i + size] in cores:
                spans.append((i, i + size))
                i += size
                break
        else:
            i += 1
    return spans


PATTERN_SCORE = 2.75
CORE_SCORE = 1.75  # a subject's own noun alone ("birds", "movies"): less sure than any of its phrases


_ES_SINGULAR = re.compile(r"(ss|x|ch|sh)es$")
_LETTERS = re.compile(r"[a-z]+")


def _singular(word: str) -> str:
    if len(word) > 3 and word.endswith("ies"):
        return word[:-3] + "y"
    if len(word) > 3 and _ES_SINGULAR.search(word):
        return word[:-2]
    return word[:-1] if len(word) > 3 and word.endswith("s") and not word.endswith("ss") else word


def _computed_cores() -> dict[str, list[tuple[str, int]]]:
    """Each subject's own nouns: an English word (not a tool word or a field's) in two or more of its phrases
    ("movie" of 'movie watchlist' and 'movies to watch'), to the subjects it is such a noun of, with how many of
    their phrases have it, most first."""
    lib = library()
    stop = {_singular(w) for w in _words()["core_stop"]}  # function words, tool words
    for f in (f for name, f in lib.fields.items() if name not in lib.attributes):  # and a field's words: "date"
        # or "cost" names no subject (an attribute's, "film stock", is only asked for by name)
        stop |= {_singular(t) for w in (f.name.replace("_", " "), f.label.en, *f.words) for t in w.lower().split()}
    cores: dict[str, list[tuple[str, int]]] = {}
    for subject in lib.subjects.names():
        counts: dict[str, int] = {}
        for phrase in subject.en:
            for token in {_singular(t) for t in _LETTERS.findall(phrase.lower()) if t not in stop} - stop:
                if len(token) >= 3:
                    counts[token] = counts.get(token, 0) + 1
        for token, n in counts.items():
            if n >= 2:
                cores.setdefault(token, []).append((subject.id, n))
    return {t: sorted(v, key=lambda sv: -sv[1]) for t, v in cores.items()}


# What follows a verb, not a noun: "refill the bird feeder", "pick one at random", "water them"
_OBJECT = r"\s+(?:the|a|an|some|one|it|them|something)\b"  # not "my" or "that": "movies my friends recommended"


def _by_core(text: str, scores: dict[str, float]) -> tuple[str, str] | None:
    """The subject a request names only by its noun ("a journal of the birds I spot": bird watching), when it names
    none by its phrases: of the subjects that noun is one of, the one of the shape the sentence asks for, else the
    one most of whose phrases have it."""
    cores = _cores()
    stop = _core_stop()
    subjects = library().subjects
    wanted = max(scores, key=lambda k: scores[k]) if scores and max(scores.values()) >= 1 else None
    if wanted is None and not asks_for_a_tool(text):  # "how do I cook rice" asks for no tool about cooking
        return None
    for m in re.finditer(r"[a-z]+", text.lower()):
        token = m.group(0)
        if token in stop or re.match(_OBJECT, text[m.end() :], re.I):
            continue  # "refill the bird feeder": a verb before its object names no subject
        # a subject of another shape than the one the sentence asks for is not what it names ("cooking journal")
        candidates = [sv for sv in cores.get(_singular(token), []) if wanted is None or subjects[sv[0]].shape == wanted]
        if candidates:
            return candidates[0][0], token
    return None


_CJK_RUN = re.compile(r"[\u4e00-\u9fff]+")
# Characters a Chinese noun neither starts nor ends with: grammar, numbers and question words ("次多" of "每次多少",
# "写了", "的生" are pieces of a sentence around a noun, not a noun)
_ZH_EDGE = frozenset(
    "的了着过地得吗呢吧啊么多少几每个一二三四五六七八九十两次下上里中和与跟或及都也还就"
    "要想会能我你他她它们这那哪啥谁怎什把被给让在是有没不很太最再又才"
)


# How often and when: words of many subjects' names ("定期换滤芯", "定期存款") that name none
_ZH_WHEN = frozenset(
    "定期 经常 平时 最近 以后 之前 以前 今天 明天 昨天 今年 去年 明年 周末 早上 晚上 中午 上午 下午".split()
)


ZH_CORE_SHARE = 0.4  # of a subject's words that must have a noun for it to be one of the subject's own
ZH_CORE_OWN = 0.6  # of all subjects' words that have the noun, the share that must be that subject's


def _computed_zh_cores() -> dict[str, list[tuple[str, int]]]:
    """Each subject's own Chinese nouns: a word of two to four characters of its title or item that most of its
    words have too ("生日" of 生日提醒, 朋友的生日 and 生日清单), that names no field ("金额", "日期"), no tool and no
    time, and that other subjects' words seldom have, to that subject and how many of its words have it."""
    lib = library()
    stop = set(_zh_stop())
    holders: dict[str, list[tuple[str, int]]] = {}
    everywhere: dict[str, int] = {}  # in how many words of all subjects each piece is
    for subject in lib.subjects.names():
        phrases = {*subject.zh, subject.title[1], subject.item[1]}
        counts: dict[str, int] = {}
        for phrase in phrases:
            pieces = {
                run[i : i + size]
                for run in _CJK_RUN.findall(phrase)
                for size in (2, 3, 4)
                for i in range(len(run) - size + 1)
            }
            for piece in pieces:
                if piece not in stop and piece[0] not in _ZH_EDGE and piece[-1] not in _ZH_EDGE:
                    counts[piece] = counts.get(piece, 0) + 1
        for piece, n in counts.items():
            everywhere[piece] = everywhere.get(piece, 0) + n
            named = piece in subject.title[1] or piece in subject.item[1]  # what the subject calls itself
            if not (named and n >= 3 and n >= ZH_CORE_SHARE * len(phrases)):
                continue
            # and not only inside a longer noun of its own ("班费" of 加班费 is no noun)
            if not any(piece in other and other != piece and m == n for other, m in counts.items()):
                holders.setdefault(piece, []).append((subject.id, n))
    cores = {}
    for piece, found in holders.items():  # a noun most of whose uses are another subject's names neither
        found.sort(key=lambda sv: -sv[1])
        if found[0][1] >= ZH_CORE_OWN * everywhere[piece]:
            cores[piece] = found[:1]
    return cores


# The three indexes above are computed from the knowledge base by `make subjects` and shipped (a cold process took
# about 150 ms to build them from 2,049 subjects; it reads them in about 20). tests/unit/test_subjects.py holds that
# the shipped file is what the knowledge base gives.
WORDS_INDEX = DATA / "subject_words.json.gz"


def words_index() -> dict[str, Any]:
    """The readers' indexes of the knowledge base's words, as computed from it (what `make subjects` ships)."""
    en, zh, longest = _computed_index()
    return {"en": en, "zh": zh, "longest": longest, "cores": _computed_cores(), "zh_cores": _computed_zh_cores()}


def encode_words(index: dict[str, Any]) -> bytes:
    text = json.dumps(index, ensure_ascii=False, separators=(",", ":"), sort_keys=True)
    return gzip.compress(text.encode("utf-8"), compresslevel=9, mtime=0)


@cache
def _shipped_words() -> dict[str, Any]:
    index: dict[str, Any] = read_json(WORDS_INDEX)
    return index


@cache
def _index() -> tuple[dict[str, str], dict[str, str], int]:
    shipped = _shipped_words()
    return shipped["en"], shipped["zh"], shipped["longest"]


@reader
def named_subjects(text: str) -> list[tuple[int, int]]:
    """Where the text names the knowledge base's subjects ("blood pressure", 血压): the spans of their words, by
    character (_english_words and zh_word_spans), so a reader may keep them whole."""
    en, _, _ = _index()
    return [(start, end) for start, end, _ in _english_spans(text, en)] + zh_word_spans(text)


def _holders(raw: dict[str, list[list[Any]]]) -> dict[str, list[tuple[str, int]]]:
    return {word: [(sid, n) for sid, n in holders] for word, holders in raw.items()}


@cache
def _cores() -> dict[str, list[tuple[str, int]]]:
    return _holders(_shipped_words()["cores"])


@cache
def _zh_cores() -> dict[str, list[tuple[str, int]]]:
    return _holders(_shipped_words()["zh_cores"])


def _by_zh_core(text: str, scores: dict[str, float]) -> tuple[str, str] | None:
    """The subject a Chinese request names only by its noun ("把同学的生日都记下来": birthdays), when it names none
    by its words: of the subjects its nouns are nouns of and of the shape the sentence asks for (when it asks for
    one), the one with the most words that have one (a longer noun counts for more)."""
    if not (asks_for_a_tool(text) or (scores and max(scores.values()) >= 1)):
        return None
    cores = _zh_cores()
    evidence: dict[str, tuple[int, str]] = {}
    for run in _CJK_RUN.findall(text):
        for size in (4, 3, 2):
            for i in range(len(run) - size + 1):
                for subject_id, n in cores.get(run[i : i + size], []):
                    if n * size > evidence.get(subject_id, (0, ""))[0]:
                        evidence[subject_id] = (n * size, run[i : i + size])
    if not evidence:
        return None
    subjects = library().subjects
    top = max(scores.values(), default=0.0)
    wanted = {shape for shape, score in scores.items() if score == top} if top >= 1 else None  # ties: any of them
    # a subject of another shape than the one the sentence asks for is not what it names ("每天记一下写作业花了多久"
    # is a log of homework time, not a list of assignments due)
    ranked = sorted(
        ((sid, found) for sid, found in evidence.items() if wanted is None or subjects[sid].shape in wanted),
        key=lambda kv: -kv[1][0],
    )
    return (ranked[0][0], ranked[0][1][1]) if ranked else None


@cache
def _patterns() -> list[tuple[str, re.Pattern[str]]]:
    return [(s.id, re.compile(p, re.IGNORECASE)) for s in library().subjects.names() for p in s.patterns]


def _word_score(word: str) -> float:
    """How much a matched word says: more words (or characters) name a subject more surely."""
    if re.search(r"[\u4e00-\u9fff]", word):
        return min(2.5 + 0.25 * max(len(word) - 2, 0), 3.5)
    return min(2.5 + 0.5 * (len(word.split()) - 1), 3.5)


@cache
def _core_stop() -> frozenset[str]:
    return frozenset(_words()["core_stop"])


@reader
def find_subjects(text: str) -> list[tuple[Subject, float, str]]:
    """(subject, score, matched words) for each subject the text names, best first."""
    en, zh, longest = _index()
    subjects = library().subjects
    found: dict[str, tuple[float, str]] = {}
    words: dict[str, set[str]] = {}  # every word that names each subject
    for word, subject_id in [(w, en[w]) for w in _english_words(text, en)] + [
        (w, zh[w]) for w in _chinese_words(text, zh, longest)
    ]:
        words.setdefault(subject_id, set()).add(word)
        score = _word_score(word) + subjects[subject_id].weight
        if score > found.get(subject_id, (0.0, ""))[0]:
            found[subject_id] = (score, word)
    for subject_id, pattern in _patterns():  # a kind of sentence that names it: less sure than its own words
        hit = pattern.search(text)
        if hit and found.get(subject_id, (0.0, ""))[0] < PATTERN_SCORE:
            found[subject_id] = (PATTERN_SCORE, hit.group(0))
    if not found:
        scores = shape_scores(text)
        chinese = re.search(r"[\u4e00-\u9fff]", text)
        core = _by_zh_core(text, scores) if chinese else _by_core(text, scores)
        if core is not None:
            found[core[0]] = (CORE_SCORE + subjects[core[0]].weight, core[1])
    if found:
        _learned_choice(text, found)
    if len(found) > 1:  # after the learned choice, whose words do not say who has what
        _conditions_said(text, found, words)
    ranked = sorted(found.items(), key=lambda kv: (-kv[1][0], -len(kv[1][1])))
    return [(subjects[sid], score, word) for sid, (score, word) in ranked]


def _said_of_someone(text: str, word: str) -> bool:
    """Whether every place the text names ``word`` says someone has it ("my mum has asthma", "she has COPD", "my
    asthma's been bad", "我妈有哮喘"): why the person asks, not what the tool is about."""
    if _HAN.search(word):
        said = [m.start() for m in re.finditer(re.escape(word), text)]
        having = {m.end() for m in re.finditer(r"(?<![还没])有|得了|患有|患了|查出", text)}
        return bool(said) and all(at in having for at in said)
    said = [m.start() for m in _compiled(re.escape(word)).finditer(text)]
    having = {
        m.end()
        for m in re.finditer(
            r"\b(?:has|have|had|has got|'s got|suffers? from|(?:was|been|is) diagnosed with)\s+"
            r"(?:(?:a|an|bad|severe|mild|chronic)\s+)?|\b(?:my|his|her|their|our)\s+(?=\w+(?:'s|\s+(?:is|has|was)\b))",
            text,
            re.IGNORECASE,
        )
    }
    return bool(said) and all(at in having for at in said)


def _conditions_said(text: str, found: dict[str, tuple[float, str]], words: dict[str, set[str]]) -> None:
    """A subject named only as something someone has yields to one of another shape the request names in its own
    right: "air quality in Delhi, my mum has asthma" is the air quality ("我爸有高血压，记录血压" stays blood pressure,
    named besides; "my son has eczema, track flare-ups" the eczema, whose log the flare-ups are)."""
    subjects = library().subjects
    context = {sid for sid in found if all(_said_of_someone(text, word) for word in words.get(sid) or {found[sid][1]})}
    for sid in context:
        shape = subjects[sid].shape
        named = [s for other, (s, _) in found.items() if other not in context and subjects[other].shape != shape]
        if named and max(named) >= SUBJECT_NAMED:
            found[sid] = (min(found[sid][0], max(named) - 0.01), found[sid][1])


SUBJECT_NAMED = 2.5  # a subject's score when one of its own words names it (a pattern is 2.75, a noun alone 1.75)


# Among the subjects the rules found, the learned choice of subject (subjects.py) puts first the one it is at least
# this sure of and at least this many times surer of than of the rules' first; chosen on the breadth set's tuned and
# fresh parts, which the model never learnt from (docs/knowledge.md, "Choosing a subject"). A subject the rules did
# not find is never put first: its own words are not in the request, and what reads on from the subject needs them.
# Complement naive Bayes's probabilities (at the temperature of least held-out log loss) spread over 2,049 subjects:
# 0.03 read the breadth parts best of 0.03, 0.05, 0.1 and 0.3 (1,895 fits; 0.05 and 0.3: 1,894; never asking: 1,888),
# and a limit on how far below the rules' first their score for it may be (0.3) read 2 fewer.
LEARNED_SURE = 0.03
LEARNED_RATIO = 2.0


def _learned_choice(text: str, found: dict[str, tuple[float, str]]) -> None:
    """Put first in ``found`` the subject of it the learned model is surer of than of the rules' first."""
    if len(found) < 2:  # nothing to choose between: the model is not asked
        return
    ours = min(found, key=lambda sid: (-found[sid][0], -len(found[sid][1])))  # as find_subjects ranks them
    likely = likelihoods(text)
    candidates = [sid for sid in found if sid in likely]
    if len(candidates) < 2:
        return
    best = max(candidates, key=likely.__getitem__)
    if best != ours and likely[best] >= LEARNED_SURE and likely[best] >= LEARNED_RATIO * likely.get(ours, 0.0):
        found[best] = (found[ours][0] + 0.01, found[best][1])


LEARNED_ALONE = 0.3  # how sure the learned model must be of a subject the rules did not find


@reader
def learned_subject(text: str) -> Subject | None:
    """The subject the learned model is surest ``text`` is about, among all the knowledge base's, when it is at least
    LEARNED_ALONE sure and the text says one of the subject's own nouns (an English noun of two or more of its
    phrases, as `_cores` finds them, that names no tool; or two characters of one of its Chinese names that are a word
    of the text's, as the glossary cuts it, and no field's, tool's, time's or question's word): for a request the
    rules read no tool in. Said none of its nouns, a subject the model is sure of is unrelated as often ("玉米地 每亩
    化肥多少斤" read as a pregnancy's weight gain)."""
    likely = likelihoods(text)
    if not likely:
        return None
    sid = max(likely, key=likely.__getitem__)
    if likely[sid] < LEARNED_ALONE:
        return None
    subject = library().subjects[sid]
    return subject if _says_its_noun(subject, text) else None


def _says_its_noun(subject: Subject, text: str) -> bool:
    cores = _cores()
    for token in _LETTERS.findall(text.lower()):
        noun = _singular(token)
        if any(sid == subject.id for sid, _ in cores.get(noun, ())):
            return True
    # where the text's words begin and end, as the glossary cuts it
    bounds = {run.start() + at for run in _CJK_RUN.finditer(text) for at in word_bounds(run.group(0))}
    stop = _zh_stop() | QUESTION_WORDS
    for name in subject.zh:
        for run in _CJK_RUN.findall(name):
            for i in range(len(run) - 1):
                piece = run[i : i + 2]
                if piece[0] in _ZH_EDGE or piece[1] in _ZH_EDGE or piece in stop:
                    continue
                at = text.find(piece)
                while at >= 0:
                    if at in bounds and at + 2 in bounds:  # a word of the text's, not two words' edges (叶子发黄: 子发)
                        return True
                    at = text.find(piece, at + 1)
    return False


@cache
def _zh_stop() -> frozenset[str]:
    """Chinese words that name what a row holds (a field's), a tool or a time, not what a tool is about."""
    lib = library()
    stop: set[str] = set()
    for f in (f for name, f in lib.fields.items() if name not in lib.attributes):  # a field's words name what a
        # row holds, not what the tool is about (an attribute's are only asked for by name)
        for word in (f.label.zh, *f.words):
            stop.update(_CJK_RUN.findall(word))
    stop.update(re.findall(r"[\u4e00-\u9fff]+", _words()["tool_words"]["zh"]))
    return frozenset(stop | _ZH_WHEN)


@cache
def zh_cue(pattern: str) -> re.Pattern[str]:
    """A Chinese cue, compiled: a Latin word among the Chinese ones ("AA", "BMI", "AA制") is matched as a word, never
    inside another ("AAA batteries", "submissions")."""
    before = r"(?<![A-Za-z])" if re.match(r"[A-Za-z]", pattern) else ""
    after = r"(?![A-Za-z])" if re.search(r"[A-Za-z]$", pattern) else ""
    return re.compile(f"{before}(?:{pattern}){after}")


@cache
def _compiled(pattern: str) -> re.Pattern[str]:
    """An English cue, compiled on word edges (as classify._compiled)."""
    return re.compile(rf"(?<![a-z]){pattern}(?![a-z])", re.IGNORECASE | re.ASCII)


@cache
def _as_written(pattern: str) -> re.Pattern[str]:
    """An action's English cue, which says its own word edges (\\b, ^)."""
    return re.compile(pattern)


@reader
def shape_scores(text: str) -> dict[str, float]:
    """How strongly the wording points at each shape ("remind me every 3 days" -> schedule)."""
    scores = {}
    for shape in SHAPES:
        cues = _words()["shapes"].get(shape)
        if not cues:
            continue
        score = sum(w for p, w in cues["en"] if _compiled(p).search(text))
        score += sum(w for p, w in cues["zh"] if zh_cue(p).search(text))
        scores[shape] = score
    return scores


@reader
def asks_for_a_tool(text: str) -> bool:
    """Whether the sentence names a kind of tool ('a list of', 'tracker', '清单'): then an action verb in it is
    what the tool is about, not something to do."""
    words = _words()["tool_words"]
    return bool(re.search(words["en"], text, re.IGNORECASE) or re.search(words["zh"], text))


@reader
def find_action(text: str) -> Action | None:
    """The action in the world the request asks for, if it asks for one rather than for a tool (an action marked
    `always`, such as getting into someone else's account, is refused however the request is worded), or asks for a
    tool that would do it itself ("a tool that texts my ex every year", "到时候自动帮我发祝福")."""
    tool = asks_for_a_tool(text)
    # a clause of its own that names no tool is asked as it is said ("pay the electricity bill from my account and then
    # mark it paid in my bills list", "把账单记一下 然后直接用支付宝把电费交了"): the tool is asked besides
    pieces = [c.strip() for c in _CLAUSE.split(text) if c and c.strip()]
    clauses = _told(pieces) if tool or len(pieces) > 1 else []
    for action in _words()["actions"]:
        # "a list of restaurants to book" is a list; hacking is hacking; a tool that books is booking
        by_tool = action.get("by_tool", {"en": [], "zh": []})
        english = [*by_tool["en"], *([] if tool and not action.get("always") else action["en"])]
        chinese = [*by_tool["zh"], *([] if tool and not action.get("always") else action["zh"])]
        hit = any(_as_written(p).search(text.lower()) for p in english) or any(zh_cue(p).search(text) for p in chinese)
        hit = hit or any(
            any(zh_cue(p).search(clause) for p in action["zh"])
            if _HAN.search(clause)
            else any(_as_written(p).search(clause.lower()) for p in action["en"])
            for clause in clauses
        )
        # told outright at the start, a tool's words only in what it acts on ("email my landlord the list of stuff
        # that's broken", "post this week's workout log to my instagram"): the action, not the tool
        hit = hit or (
            tool
            and _IMPERATIVE.match(text.strip()) is not None
            and not _NOT_TOLD.match(text.strip())
            and any(p.startswith("^") and _as_written(p).search(text.strip().lower()) for p in action["en"])
        )
        if hit:
            return Action(action["id"], *action["reason"])
    return None


# An English clause that tells someone to do something to a thing ("pay the bill", "order my usual shop"), not a
# list of fields ("purchase date + warranty length")
_IMPERATIVE = re.compile(
    r"(?:please\s+)?(?:can you\s+|could you\s+)?[a-z]+\s+(?:my|the|a|an|our|some|this|that|it|them|his|her|their|"
    r"everyone|everybody|all)\b",
    re.IGNORECASE,
)
# What tells of a tool, not an action, though said as a command: "and get my L/100km", "order them by rating",
# "call it a budget tracker"
_NOT_TOLD = re.compile(
    r"(?:get|see|show|know|find|check|have|make|keep|call it)\b|order\b.{0,40}\bby\b"
    r"|[^.]*\bto (?:me|myself|my (?:phone|email|inbox|computer|laptop|watch))\b",  # "send the packing list to my phone"
    re.IGNORECASE,
)
# A Chinese clause that asks toolgen itself to do something ("直接用支付宝把电费交了"), not a sentence of background
# ("我每个月都要交房租。")
_ZH_TOLD = re.compile(r"(?:再|就|顺便)?(?:请你?|麻烦你?|帮我|替我|给我|直接|你(?:帮|替|给)我)")
_ZH_DONE = re.compile(r"把.{1,12}(?:交|付|转|还|买|订|发)(?:了|掉|一下)$")  # "用微信把房租交了": told, not told of
# A phrase, not a clause, before an action after a comma ("from my birthday list, text everyone ...")
_PHRASE = re.compile(r"(?:from|with|using|on|in|for|off|out of|based on)\b", re.IGNORECASE)
_HAN = re.compile(r"[\u4e00-\u9fff]")


def _told(pieces: list[str]) -> list[str]:
    """The clauses of a request that tell toolgen to do something themselves and name no tool: a Chinese one said to
    toolgen ("帮我", "直接"), an English command to do something to a thing that comes first, or after a phrase
    ("pay the electricity bill from my account and then mark it paid in my bills list"; not "track the kids'
    allowance, then pay them every saturday", where paying is what the tool keeps)."""
    told = []
    for i, clause in enumerate(pieces):
        if asks_for_a_tool(clause):
            continue
        if _HAN.search(clause):
            if _ZH_TOLD.match(clause) or _ZH_DONE.search(clause):
                told.append(clause)
        elif _IMPERATIVE.match(clause) and not _NOT_TOLD.match(clause) and (i == 0 or _PHRASE.match(pieces[i - 1])):
            told.append(clause)
    return told


# Where one thing asked ends and the next begins: "and then", "then", "然后", "顺便", a sentence's end
_CLAUSE = re.compile(
    r"\s*(?:,\s*)?\b(?:and then|then|and also|after that|afterwards)\b\s*"
    r"|\s+and\s+(?=(?:then\s+)?[a-z]+\s+(?:my|the|it|its|them|their|a|an|our|this|that|what|how|when|where|which|who)\b)"
    r"|,\s+(?=(?:text|email|message|call|send|pay|order|buy|book|post|tweet)\s)"
    r"|[.;!?]\s+|\s*(?:然后|接着|顺便|之后再|并且)\s*|[。；！？]",
    re.IGNORECASE,
)


def action_named(refusal: str) -> Action | None:
    """The action of a refusal id (booking, medical, ...), with its reasons; None for one words.json gives none
    (out_of_scope: no tool does it, and the general reason says so)."""
    for action in _words()["actions"]:
        if action["id"] == refusal:
            return Action(action["id"], *action["reason"])
    return None


_TOOL_NOUN = re.compile(r"calculator|tracker|log\b|list\b|journal|planner|schedule|计算|记录|清单|日记|计划", re.I)


@reader
def read(text: str) -> Reading:
    """The open-world reading of ``text``."""
    action = find_action(text)
    scores = shape_scores(text)
    found = find_subjects(text)
    reading = Reading(shape_scores=scores, action=action)
    if found:
        reading.subject, reading.subject_score, reading.matched = found[0]
        reading.by_noun = len(found) == 1 and reading.subject_score == CORE_SCORE + reading.subject.weight
        # between subjects named about as surely, the one of the shape the sentence asks for ("birthdays of my extended
        # family ... whose is coming up next" is a list of dates, not a family tree)
        scores = reading.shape_scores
        wanted = max(scores, key=lambda k: scores[k]) if scores else None
        # a subject named only by what the request asks of each entry ("接了多少单、油费多少": the fuel cost is a field
        # of a driver's log) gives way to another subject it names
        fields = {str(item["said"]) for item in asked(text)} if len(found) > 1 else set()
        if found[0][2] in fields and found[0][0].shape != found[1][0].shape:
            reading.subject, reading.subject_score, reading.matched = found[1]
            found = found[1:]
        # nor is it the one the wording's shape turns to ("跑滴滴……油费多少，算一下净赚": a driver's log, not fuel)
        found = [found[0], *(f for f in found[1:] if f[2] not in fields or f[0].shape == found[0][0].shape)]
        named_tool = _TOOL_NOUN.search(found[0][2])  # "gpa calculator" names the tool itself: it stays
        if wanted and scores[wanted] >= 2 and found[0][0].shape != wanted and not named_tool:
            for subject, score, word in found[1:]:
                if subject.shape == wanted and score >= found[0][1] - 1.0:
                    reading.subject, reading.subject_score, reading.matched = subject, score, word
                    break
            else:  # "list of board games we own ... pick one at random for game night": the games, not the nights
                sure = scores[wanted] >= SIBLING_SCORE and wanted == "collection"  # "算" is often a figure of a log
                sibling = _sibling(found[0][0], wanted) if sure else None
                if sibling is not None:
                    reading.subject = sibling
    return reading


SIBLING_SCORE = 3.0  # how surely the wording must ask for another shape before a subject gives way to its sibling


def _sibling(subject: Subject, shape: str) -> Subject | None:
    """The subject of ``shape`` that shares most of ``subject``'s own nouns (board game nights and the board game
    collection share 'board' and 'game'), if one shares any."""
    cores = _cores()
    subjects = library().subjects
    own = {token for token, holders in cores.items() if any(sid == subject.id for sid, _ in holders)}
    shared: dict[str, tuple[int, int]] = {}
    for token in own:
        for sid, phrases in cores[token]:
            if sid != subject.id and subjects[sid].shape == shape:
                count, most = shared.get(sid, (0, 0))
                shared[sid] = (count + 1, max(most, phrases))
    if not shared:
        return None
    best = max(shared, key=lambda sid: shared[sid])
    return subjects[best]
