"""Words of a memory or a request: what lexical relevance and de-duplication compare."""

from __future__ import annotations

import hashlib
import re

STOPWORDS = frozenset(
    "a an the i me my we our you your to of in on at for and or is am are be it this that with by from as "
    "want would like please can could help make build create tool app some every each".split()
)


def tokens(text: str) -> list[str]:
    """Content words: lower-case English words without stopwords, and Chinese character pairs (sorted, unique)."""
    lowered = text.lower()
    words = {w for w in re.findall(r"[a-z0-9]+", lowered) if w not in STOPWORDS and len(w) > 1}
    for run in re.findall(r"[\u4e00-\u9fff]+", lowered):
        words |= {run[i : i + 2] for i in range(len(run) - 1)} if len(run) > 1 else {run}
    return sorted(words)


def fingerprint(text: str) -> str:
    """The same for texts that differ only in case, spacing and punctuation."""
    normal = " ".join(re.findall(r"[a-z0-9]+|[\u4e00-\u9fff]", text.lower()))
    return hashlib.sha256(normal.encode()).hexdigest()[:24]


def token_count(text: str) -> int:
    """A model-token estimate: about four characters per English token, one per Chinese character."""
    cjk = len(re.findall(r"[\u4e00-\u9fff]", text))
    return cjk + max(0, len(text) - cjk + 3) // 4
