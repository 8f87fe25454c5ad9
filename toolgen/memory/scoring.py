"""How much a memory is worth: reward from use, decay with time, a bonus for recent verification.

    P = a * uses + b * turns + c * accepted suggestions            evidence for the memory
    N = d * rejected suggestions                                   evidence against it (for the tool they were on)
    R = (1 + P) / (2 + P + N)                                      reward: the mean of Beta(1 + P, 1 + N)
    w = R * exp(-ln 2 * age / half_life) + V                       weight; age since the last use or confirmation;
                                                                   half_life by the kind of fact (LASTING_KEYS
                                                                   never fade, EPISODE_KEYS within weeks)
    V = bonus * exp(-ln 2 * since_verified / verified_half_life)   0 when unverified; invalid is never recalled
    score = alpha * relevance + (1 - alpha) * min(w, 1)            recalled when score >= threshold

A fresh memory starts from the prior R = 1/2, every rejection lowers it from the first (one: 1/3, ten: 1/12), and
every memory ages, rewarded or not, from when it was last used by a tool or said again. With alpha 0.55 and
threshold 0.7, a fresh memory that bears fully on a request is recalled (0.55 + 0.45 * 0.5 = 0.775), and so is
one that bears on its topic (relevance 0.9: 0.72); relevance alone is never enough (0.55), so a preference or habit
left unused for about seven weeks (half-life 120 days), or rejected twice, stops shaping tools until it is used or
said again; a lasting fact (home, diet, allergy, birthday) does not fade with disuse, and a stay is over in weeks.
"""

from __future__ import annotations

import math
import os
from dataclasses import dataclass, fields
from typing import Any

from toolgen.errors import ConfigError
from toolgen.models import Memory

DAY = 86_400.0


@dataclass(frozen=True)
class MemoryConfig:
    """Every knob of recall, each with a documented default and an environment variable."""

    a: float = 0.05  # MEMORY_REWARD_A: per use of a tool the memory shaped (20 uses give R = 2/3)
    b: float = 0.3  # MEMORY_REWARD_B: per follow-up request
    c: float = 1.0  # MEMORY_REWARD_C: per accepted suggestion
    d: float = 1.0  # MEMORY_REWARD_D: per rejected suggestion
    half_life_days: float = 120.0  # MEMORY_HALF_LIFE_DAYS: the weight halves every 120 days without use
    verified_bonus: float = 0.2  # MEMORY_VERIFIED_BONUS: V just after a verification
    verified_half_life_days: float = 30.0  # MEMORY_VERIFIED_HALF_LIFE_DAYS
    relevance_weight: float = 0.55  # MEMORY_RELEVANCE_WEIGHT: alpha
    threshold: float = 0.7  # MEMORY_THRESHOLD
    top_k: int = 8  # MEMORY_TOP_K
    block_tokens: int = 300  # MEMORY_BLOCK_TOKENS: the [MEMORY_CONTEXT] block's budget
    semantic_floor: float = 0.2  # MEMORY_SEMANTIC_FLOOR: the embedding cosine that counts as no relevance
    semantic_full: float = 0.5  # MEMORY_SEMANTIC_FULL: the cosine that counts as full relevance

    @classmethod
    def from_env(cls) -> MemoryConfig:
        values: dict[str, Any] = {}
        for f in fields(cls):
            name = f"MEMORY_{f.name.upper()}" if len(f.name) > 1 else f"MEMORY_REWARD_{f.name.upper()}"
            raw = os.environ.get(name)
            if raw:
                try:
                    values[f.name] = int(raw) if f.type == "int" else float(raw)
                except ValueError as e:
                    raise ConfigError(f"{name} must be a number, got {raw!r}") from e
        config = cls(**values)
        if not 0 <= config.semantic_floor < config.semantic_full <= 1:
            raise ConfigError("MEMORY_SEMANTIC_FLOOR must be below MEMORY_SEMANTIC_FULL, both within 0..1")
        return config


@dataclass(frozen=True)
class Weight:
    """A memory's weight, term by term (for `toolgen recall` and GET /v1/recall)."""

    reward: float
    decay: float
    verification: float

    @property
    def value(self) -> float:
        return self.reward * self.decay + self.verification


def evidence(memory: Memory, config: MemoryConfig, tool: str | None = None) -> tuple[float, float]:
    """(for, against): uses, follow-ups and accepted suggestions; rejected suggestions. A rejection recorded with its
    tool (``rejected_for``) is of that suggestion on that tool: it counts against the memory only for that tool
    (``tool``), never for a new one (two suggestions of a restaurant picker turned down said nothing about the home
    city a weather ranking reads, nor the diet a new picker needs; the same suggestion is never made again on that
    tool). Rejections recorded before their tools were count for every tool, as they did."""
    accepted = memory.interventions_succeeded
    rejected = max(memory.interventions_tried - accepted, 0)
    if memory.rejected_for and tool not in memory.rejected_for:
        rejected = 0
    return config.a * memory.uses + config.b * memory.turns + config.c * accepted, config.d * rejected


def reward(memory: Memory, config: MemoryConfig, tool: str | None = None) -> float:
    """The mean of Beta(1 + for, 1 + against): 1/2 for a fresh memory."""
    positive, negative = evidence(memory, config, tool)
    return (1.0 + positive) / (2.0 + positive + negative)


def reference(memory: Memory) -> float:
    """When a memory's age counts from: its last use by a tool or its last confirmation, else its creation."""
    return max(memory.created_at, memory.last_used_at or 0.0, memory.confirmed_at or 0.0)


def _halving(seconds: float, half_life_days: float) -> float:
    return math.exp(-math.log(2) * max(seconds, 0.0) / (half_life_days * DAY))


# Decay by the kind of fact (issue 34): where a person lives, what they cannot or do not eat, when their birthday is
# do not stop holding because no tool used them for a while; a stay somewhere is over within weeks; the rest (how
# they like things, their habits, what they said without a fact) fades with the configured half-life.
LASTING_KEYS = frozenset({"city", "diet", "allergy", "birthday", "caffeine_sensitive"})
EPISODE_KEYS = frozenset({"staying_in"})
EPISODE_HALF_LIFE_DAYS = 7.0  # a stay, a trip: a week after it is said it weighs half, a month after nothing


def half_life_days(key: str | None, config: MemoryConfig) -> float:
    """How fast a memory of ``key`` fades without use (math.inf: it does not)."""
    if key in LASTING_KEYS:
        return math.inf
    return EPISODE_HALF_LIFE_DAYS if key in EPISODE_KEYS else config.half_life_days


def weight(memory: Memory, config: MemoryConfig, now: float, tool: str | None = None) -> Weight:
    """The memory's weight at ``now`` (seconds since the epoch)."""
    age = now - reference(memory)
    verification = 0.0
    if memory.verification == "verified" and memory.verified_at is not None:
        verification = config.verified_bonus * _halving(now - memory.verified_at, config.verified_half_life_days)
    decay = _halving(age, half_life_days(memory.key, config))
    return Weight(reward=reward(memory, config, tool), decay=decay, verification=verification)


def score(relevance: float, w: Weight, config: MemoryConfig) -> float:
    return config.relevance_weight * relevance + (1 - config.relevance_weight) * min(w.value, 1.0)
