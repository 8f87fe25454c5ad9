"""How much a memory is worth: reward from use, decay with time, a bonus for recent verification.

    R = 1 - exp(-(a * uses + b * turns + c * success_rate))        reward, squashed into [0, 1)
    w = R * exp(-ln 2 * age / half_life) + V                       weight; age since last use (or creation)
    V = bonus * exp(-ln 2 * since_verified / verified_half_life)   0 when unverified; invalid is never recalled
    score = alpha * relevance + (1 - alpha) * min(w, 1)            recalled when score >= threshold

With alpha 0.75 and threshold 0.7, a fresh memory that bears fully on a request (relevance 1) is recalled on
relevance alone, a weakly relevant one needs a strong, recent reward to join it, and a memory unrelated to the
request is never recalled however rewarded it is.
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

    a: float = 0.05  # MEMORY_REWARD_A: per use of a tool the memory shaped (20 uses give R = 0.63)
    b: float = 0.3  # MEMORY_REWARD_B: per follow-up request
    c: float = 1.0  # MEMORY_REWARD_C: times the share of accepted suggestions
    half_life_days: float = 30.0  # MEMORY_HALF_LIFE_DAYS: the reward halves every 30 days without use
    verified_bonus: float = 0.2  # MEMORY_VERIFIED_BONUS: V just after a verification
    verified_half_life_days: float = 30.0  # MEMORY_VERIFIED_HALF_LIFE_DAYS
    relevance_weight: float = 0.75  # MEMORY_RELEVANCE_WEIGHT: alpha
    threshold: float = 0.7  # MEMORY_THRESHOLD
    top_k: int = 8  # MEMORY_TOP_K
    block_tokens: int = 300  # MEMORY_BLOCK_TOKENS: the [MEMORY_CONTEXT] block's budget
    semantic_floor: float = 0.2  # MEMORY_SEMANTIC_FLOOR: the embedding cosine that counts as no relevance
    semantic_full: float = 0.5  # MEMORY_SEMANTIC_FULL: the cosine that counts as full relevance

    @classmethod
    def from_env(cls) -> MemoryConfig:
        values: dict[str, Any] = {}
        for f in fields(cls):
            name = f"MEMORY_{f.name.upper()}" if f.name not in ("a", "b", "c") else f"MEMORY_REWARD_{f.name.upper()}"
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


def reward(memory: Memory, config: MemoryConfig) -> float:
    tried = memory.interventions_tried
    success = memory.interventions_succeeded / tried if tried else 0.0
    return 1.0 - math.exp(-(config.a * memory.uses + config.b * memory.turns + config.c * success))


def _halving(seconds: float, half_life_days: float) -> float:
    return math.exp(-math.log(2) * max(seconds, 0.0) / (half_life_days * DAY))


def weight(memory: Memory, config: MemoryConfig, now: float) -> Weight:
    """The memory's weight at ``now`` (seconds since the epoch)."""
    age = now - (memory.last_used_at or memory.created_at)
    verification = 0.0
    if memory.verification == "verified" and memory.verified_at is not None:
        verification = config.verified_bonus * _halving(now - memory.verified_at, config.verified_half_life_days)
    return Weight(reward=reward(memory, config), decay=_halving(age, config.half_life_days), verification=verification)


def score(relevance: float, w: Weight, config: MemoryConfig) -> float:
    return config.relevance_weight * relevance + (1 - config.relevance_weight) * min(w.value, 1.0)
