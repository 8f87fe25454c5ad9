"""The recall index: a person's memories, arranged so a request scores only those that could bear on it.

Built once per person and memory version (a warm worker keeps it): an inverted index from each stored word to
the memories that hold it, and an index from each structured key to its memories. A request then scores the
memories sharing a word with it or holding a key its archetype reads, not all of them, so ranking 100,000
memories costs what ranking the few hundred candidates costs.

Ties (equal scores, to 3 decimals) are ordered by a draw from each memory's reward posterior,
Beta(1 + rewarded events, 1 + rejections) (Thompson sampling), so a new memory gets its chance against an old one
of the same score; the draw is deterministic under a seed.
"""

from __future__ import annotations

import random
from collections import defaultdict
from dataclasses import dataclass

from toolgen.memory.scoring import MemoryConfig, score, weight
from toolgen.models import Intent, Memory, RecalledMemory, ScoreParts

# Which structured facts each archetype reads; the theme shapes every page.
ARCHETYPE_KEYS: dict[str, frozenset[str]] = {
    "weather_ranking": frozenset({"city"}),
    "run_log": frozenset({"run_time", "run_time_of_day", "distance_unit"}),
    "unit_converter": frozenset({"distance_unit"}),
    "caffeine_tracker": frozenset({"caffeine_sensitive"}),
    "budget_tracker": frozenset({"budget", "budget_period", "currency"}),
    "currency_converter": frozenset({"currency"}),
    "restaurant_picker": frozenset({"favorite_restaurant", "cuisine", "city", "diet"}),
    "bmi_calculator": frozenset({"distance_unit"}),
    "countdown": frozenset({"important_date"}),
    "water_tracker": frozenset({"water_goal"}),
}
UNIVERSAL_KEYS = frozenset({"theme"})


@dataclass
class _Entry:
    memory: Memory
    size: int


class MemoryIndex:
    """One person's active, not-invalid memories, indexed for recall."""

    def __init__(self, memories: list[Memory]) -> None:
        self.entries: list[_Entry] = []
        self.by_word: dict[str, list[int]] = defaultdict(list)
        self.by_key: dict[str, list[int]] = defaultdict(list)
        for memory in memories:
            if memory.status != "active" or memory.verification == "invalid":
                continue
            position = len(self.entries)
            self.entries.append(_Entry(memory, len(memory.tokens)))
            for word in memory.tokens:
                self.by_word[word].append(position)
            if memory.key:
                self.by_key[memory.key].append(position)

    def __len__(self) -> int:
        return len(self.entries)

    def relevance(self, words: list[str], intent: Intent) -> dict[int, float]:
        """Candidate positions and their relevance: 1.0 for a fact the archetype reads, else shared words."""
        shared: dict[int, int] = defaultdict(int)
        for word in set(words):
            for position in self.by_word.get(word, ()):
                shared[position] += 1
        result = {p: n / self.entries[p].size for p, n in shared.items() if self.entries[p].size}
        for key in UNIVERSAL_KEYS | ARCHETYPE_KEYS.get(intent.archetype or "", frozenset()):
            for position in self.by_key.get(key, ()):
                result[position] = 1.0
        return result

    def rank(
        self,
        words: list[str],
        intent: Intent,
        config: MemoryConfig,
        now: float,
        *,
        rng: random.Random | None = None,
        everything: bool = False,
    ) -> list[RecalledMemory]:
        """The memories a request should use, best first (``everything``: every candidate, for inspection)."""
        rng = rng or random.Random()  # noqa: S311 - a sampling order, not a secret
        scored = []
        for position, relevance in self.relevance(words, intent).items():
            memory = self.entries[position].memory
            w = weight(memory, config, now)
            total = score(relevance, w, config)
            if total >= config.threshold or everything:
                scored.append(
                    (
                        round(total, 3),
                        memory,
                        ScoreParts(
                            relevance=round(relevance, 4),
                            reward=round(w.reward, 4),
                            decay=round(w.decay, 4),
                            verification=round(w.verification, 4),
                        ),
                    )
                )
        for _, memory, parts in scored:
            positive = memory.uses + memory.turns + memory.interventions_succeeded
            negative = memory.interventions_tried - memory.interventions_succeeded
            parts.sample = round(rng.betavariate(1 + positive, 1 + negative), 4)
        scored.sort(key=lambda s: (-s[0], -(s[2].sample or 0), s[1].memory_id))
        if not everything:
            scored = scored[: config.top_k]
        return [
            RecalledMemory(memory_id=m.memory_id, text=m.text, key=m.key, value=m.value, score=total, parts=parts)
            for total, m, parts in scored
        ]
