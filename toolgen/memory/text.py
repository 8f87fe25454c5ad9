"""Words of a memory or a request: what lexical relevance and de-duplication compare.

English words are lower-cased and stemmed (Snowball: "weekends", "weekend" and "weekend's" are one word; "running"
and "runs" are "run"). Chinese is cut into words by jieba's dictionary (rjieba, imported on the first Chinese text)
and each word of two or more characters is kept with its character pairs, so 咖啡因 still shares 咖啡 with 咖啡.
"""

from __future__ import annotations

import hashlib
import re
from functools import cache
from typing import Any

STOPWORDS = frozenset(
    "a an the i me my we our you your to of in on at for and or is am are be it this that with by from as "
    "want would like please can could help make build create tool app some every each "
    "do does did not no so but have has had was were been will just also very really".split()
)
ZH_STOPWORDS = frozenset(
    "我 我们 你 他 她 的 了 在 是 和 也 都 就 很 要 想 把 给 帮 帮我 一个 一下 个 吗 呢 吧 啊 着 过 还 又".split()
)
CJK_RUN = re.compile(r"[\u4e00-\u9fff]+")


@cache
def _stemmer() -> Any:
    import snowballstemmer

    return snowballstemmer.stemmer("english")


@cache
def _segmenter() -> Any:
    import rjieba

    return rjieba


@cache
def stem(word: str) -> str:
    return str(_stemmer().stemWord(word))


def cut(text: str) -> list[str]:
    """``text`` cut into words by jieba's dictionary, everything kept (numbers, Latin words, punctuation)."""
    return [str(w) for w in _segmenter().cut(text)]


def chinese_words(text: str) -> list[str]:
    """``text`` cut into words (punctuation and spaces dropped)."""
    return [w for w in _segmenter().cut(text) if CJK_RUN.fullmatch(w)]


def tokens(text: str) -> list[str]:
    """Content words, sorted and unique: English stems without stopwords; Chinese words and character pairs."""
    lowered = text.lower()
    words = {stem(w) for w in re.findall(r"[a-z0-9]+", lowered) if w not in STOPWORDS and len(w) > 1}
    if CJK_RUN.search(lowered):
        for word in chinese_words(lowered):
            if word in ZH_STOPWORDS:
                continue
            words.add(word)
            if len(word) > 2:
                words |= {word[i : i + 2] for i in range(len(word) - 1)}
    return sorted(words)


def fingerprint(text: str) -> str:
    """The same for texts that differ only in case, spacing and punctuation."""
    normal = " ".join(re.findall(r"[a-z0-9]+|[\u4e00-\u9fff]", text.lower()))
    return hashlib.sha256(normal.encode()).hexdigest()[:24]


def token_count(text: str) -> int:
    """A model-token estimate: about four characters per English token, one per Chinese character."""
    cjk = len(re.findall(r"[\u4e00-\u9fff]", text))
    return cjk + max(0, len(text) - cjk + 3) // 4
