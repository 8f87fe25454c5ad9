"""The recall index: a person's memories as arrays, so a request is scored against all of them in a few vector steps.

Built once per person and memory version (a warm worker keeps it):
- relevance is IDF-weighted word overlap, the share of a memory's word weight that the request also has (each
  word weighted log(1 + N / df) over the person's memories, so a shared rare word counts for more than a
  shared common one). Each word's posting list is an array of positions; a request adds its words' weights
  into one accumulator, so the cost is the length of those posting lists, computed in NumPy;
- structured facts the archetype reads have relevance 1, found through a key index;
- with embeddings configured, relevance by meaning too: the cosine of the request's embedding with every
  memory's (one matrix product over unit rows), rescaled so that ``semantic_floor`` counts 0 and
  ``semantic_full`` counts 1; a memory's relevance is the larger of the two readings;
- weights (reward x decay + verification) are computed only for memories above the relevance floor that the
  threshold implies: with score = a * relevance + (1 - a) * w and w <= 1, a memory needs
  relevance >= (threshold - (1 - a)) / a.

Ties (equal scores, to 3 decimals) are ordered by a draw from each memory's reward posterior,
Beta(1 + rewarded events, 1 + rejections) (Thompson sampling), so a new memory gets its chance against an old one
of the same score; the draw is deterministic under a seed.
"""

from __future__ import annotations

import math
import random
from collections import defaultdict

import numpy as np

from toolgen.memory.scoring import DAY, MemoryConfig, evidence, half_life_days, reference, reward
from toolgen.models import Intent, Memory, RecalledMemory, ScoreParts

# Which structured facts each archetype reads; the theme shapes every page.
ARCHETYPE_KEYS: dict[str, frozenset[str]] = {
    "weather_ranking": frozenset({"city"}),
    "run_log": frozenset({"run_time", "run_time_of_day", "distance_unit"}),
    "unit_converter": frozenset({"distance_unit"}),
    "caffeine_tracker": frozenset({"caffeine_sensitive", "caffeine_cutoff"}),
    "budget_tracker": frozenset({"budget", "budget_period", "currency"}),
    "currency_converter": frozenset({"currency"}),
    "restaurant_picker": frozenset({"favorite_restaurant", "cuisine", "city", "diet", "allergy"}),
    "bmi_calculator": frozenset({"distance_unit"}),
    "countdown": frozenset({"birthday"}),
    "water_tracker": frozenset({"water_goal"}),
}
UNIVERSAL_KEYS = frozenset({"theme"})
LOOKUP_KEYS = frozenset({"city"})  # a lookup of the knowledge base reads the person's city where the request names none


def keys_read(intent: Intent) -> frozenset[str]:
    """The structured facts a tool of ``intent`` reads: its named kind's, or a lookup's (any subject of that shape:
    "will I need an umbrella", "这周会下雨吗", "air quality today" read the home city)."""
    named = ARCHETYPE_KEYS.get(intent.archetype or "")
    if named is not None:
        return named
    return LOOKUP_KEYS if intent.shape == "lookup" else frozenset()


# What each named kind of tool is about, in words a memory may use without a rule for it ("I stopped drinking
# coffee" bears on a caffeine tracker, 我对花生过敏 on a restaurant picker). A memory with one of its kind's words,
# or of the words of a subject the request names (toolgen/knowledge), is on the request's topic.
ARCHETYPE_TOPICS: dict[str, str] = {
    "weather_ranking": "weather temperature hot heat cold rain city cities live moved 天气 气温 城市 热 冷 下雨 住 搬",
    "currency_converter": "currency exchange money travel trip abroad 汇率 货币 换钱 出国 旅行",
    "run_log": "run runs running jog jogging marathon race pace 跑步 跑 慢跑 马拉松 配速",
    "habit_tracker": "habit streak daily routine every 习惯 打卡 坚持 每天",
    "caffeine_tracker": "coffee caffeine tea espresso latte cappuccino americano cola energy drink sleep "
    "咖啡 咖啡因 茶 奶茶 拿铁 可乐 睡眠 失眠",
    "focus_planner": "focus work study deep meeting schedule week 专注 工作 学习 会议 日程",
    "expense_splitter": "split share roommate friends owe pay 分摊 室友 朋友 欠 付钱",
    "budget_tracker": "budget spend spending money salary expense save rent 预算 花钱 开销 工资 省钱 房租",
    "unit_converter": "unit metric imperial mile kilometre kilometer pound kilogram 单位 英里 公里 公斤 斤",
    "tip_calculator": "tip restaurant bill service 小费 账单 服务费",
    "bmi_calculator": "weight height diet body 体重 身高 减肥 身体",
    "countdown": "birthday anniversary wedding holiday trip exam date 生日 纪念日 婚礼 假期 考试",
    "todo_list": "task chore errand clean laundry 任务 家务 待办",
    "reading_list": "book books read reading novel author library 书 读书 小说 阅读 作者",
    "flashcards": "learn learning study word vocabulary language exam 学习 单词 语言 考试 背",
    "water_tracker": "water drink hydrate thirsty 喝水 水 口渴",
    "mood_journal": "mood feel feeling stress anxious happy sad sleep 心情 情绪 压力 焦虑 开心 难过 睡眠",
    "restaurant_picker": "restaurant eat eating food meal dinner lunch cuisine diet vegetarian vegan meat allergic "
    "allergy spicy 餐厅 饭店 吃饭 吃 菜 过敏 素 肉 辣",
}
TOPIC_RELEVANCE = 0.9  # a memory on the request's topic without sharing its words


class MemoryIndex:
    """One person's active, not-invalid memories, indexed for recall."""

    def __init__(
        self,
        memories: list[Memory],
        config: MemoryConfig | None = None,
        vectors: dict[str, np.ndarray] | None = None,
    ) -> None:
        config = config or MemoryConfig()
        self.config = config
        self.memories = [m for m in memories if m.status == "active" and m.verification != "invalid"]
        postings: dict[str, list[int]] = defaultdict(list)
        by_key: dict[str, list[int]] = defaultdict(list)
        for position, memory in enumerate(self.memories):
            for word in memory.tokens:
                postings[word].append(position)
            if memory.key:
                by_key[memory.key].append(position)
        count = len(self.memories)
        self.postings = {w: np.fromiter(ids, dtype=np.int32, count=len(ids)) for w, ids in postings.items()}
        self.idf = {w: math.log(1 + count / len(ids)) for w, ids in postings.items()}
        self.by_key = {k: np.array(ids, dtype=np.int32) for k, ids in by_key.items()}
        self.total = np.zeros(count, dtype=np.float64)
        for word, ids in self.postings.items():
            self.total[ids] += self.idf[word]
        # the parts of each weight that do not depend on the time of the request
        # a recall is for a new tool: rejections recorded with their tools do not count (scoring.evidence)
        self.rewards = np.array([reward(m, config) for m in self.memories], dtype=np.float64)
        self.reference = np.array([reference(m) for m in self.memories], dtype=np.float64)
        # how fast each fades, by the kind of fact it holds (scoring.half_life_days): inf for a lasting one
        self.half_life = np.array([half_life_days(m.key, config) * DAY for m in self.memories], dtype=np.float64)
        self.verified_at = np.array(
            [m.verified_at if m.verification == "verified" and m.verified_at else np.nan for m in self.memories],
            dtype=np.float64,
        )
        self.matrix = _matrix(self.memories, vectors or {})

    @property
    def embedded(self) -> int:
        """How many memories have an embedding (rows of the matrix that are not zero)."""
        return 0 if self.matrix is None else int(np.count_nonzero(np.any(self.matrix != 0, axis=1)))

    def __len__(self) -> int:
        return len(self.memories)

    def _semantic(self, query: np.ndarray | None) -> np.ndarray | None:
        if query is None or self.matrix is None or query.shape != (self.matrix.shape[1],):
            return None
        cosine = self.matrix @ query.astype(np.float32)
        low, full = self.config.semantic_floor, self.config.semantic_full
        return np.clip((cosine.astype(np.float64) - low) / (full - low), 0.0, 1.0)

    def _relevance(
        self,
        words: list[str],
        intent: Intent,
        semantic: np.ndarray | None = None,
        topic: frozenset[str] = frozenset(),
    ) -> np.ndarray:
        shared = np.zeros(len(self.memories), dtype=np.float64)
        for word in set(words):
            ids = self.postings.get(word)
            if ids is not None:
                shared[ids] += self.idf[word]
        relevance = np.divide(shared, self.total, out=np.zeros_like(shared), where=self.total > 0)
        if semantic is not None:
            relevance = np.maximum(relevance, semantic)
        for word in topic:
            ids = self.postings.get(word)
            if ids is not None:
                relevance[ids] = np.maximum(relevance[ids], TOPIC_RELEVANCE)
        for key in UNIVERSAL_KEYS | keys_read(intent):
            ids = self.by_key.get(key)
            if ids is not None:
                relevance[ids] = 1.0
        return relevance

    def relevance(
        self,
        words: list[str],
        intent: Intent,
        floor: float = 0.0,
        query: np.ndarray | None = None,
        topic: frozenset[str] = frozenset(),
    ) -> dict[int, float]:
        """Positions of memories at or above ``floor`` (and above 0), with their relevance."""
        relevance = self._relevance(words, intent, self._semantic(query), topic)
        positions = np.nonzero((relevance > 0) & (relevance >= floor))[0]
        return {int(p): float(relevance[p]) for p in positions}

    def rank(
        self,
        words: list[str],
        intent: Intent,
        config: MemoryConfig,
        now: float,
        *,
        rng: random.Random | None = None,
        everything: bool = False,
        query: np.ndarray | None = None,
        topic: frozenset[str] = frozenset(),
        exclude: np.ndarray | None = None,
    ) -> list[RecalledMemory]:
        """The memories a request should use, best first (``everything``: every candidate, for inspection)."""
        if not self.memories:
            return []
        rng = rng or random.Random()  # noqa: S311 - a sampling order, not a secret
        alpha = config.relevance_weight
        floor = max((config.threshold - (1 - alpha)) / alpha, 0.0) if not everything else 0.0
        semantic = self._semantic(query)
        relevance = self._relevance(words, intent, semantic, topic)
        if exclude is not None:  # memories changed since this index was built are ranked from their new state
            relevance[exclude] = 0.0
        positions = np.nonzero((relevance > 0) & (relevance >= floor))[0]
        if positions.size == 0:
            return []
        rel = relevance[positions]
        decay = np.exp(-math.log(2) / self.half_life[positions] * np.maximum(now - self.reference[positions], 0))
        since = np.maximum(now - self.verified_at[positions], 0)
        verification = np.where(
            np.isnan(since),
            0.0,
            config.verified_bonus
            * np.exp(-math.log(2) / (config.verified_half_life_days * DAY) * np.nan_to_num(since)),
        )
        rewards = self.rewards[positions]
        weight = rewards * decay + verification
        score = np.round(alpha * rel + (1 - alpha) * np.minimum(weight, 1.0), 3)
        keep = np.nonzero(score >= config.threshold)[0] if not everything else np.arange(positions.size)
        if keep.size > config.top_k and not everything:  # only memories that can make the top k need a draw
            cut = np.partition(score[keep], keep.size - config.top_k)[keep.size - config.top_k]
            keep = keep[score[keep] >= cut]
        ranked = []
        for i in keep:
            memory = self.memories[positions[i]]
            positive, negative = evidence(memory, config)
            sample = rng.betavariate(1 + positive, 1 + negative)
            parts = ScoreParts(
                relevance=round(float(rel[i]), 4),
                reward=round(float(rewards[i]), 4),
                decay=round(float(decay[i]), 4),
                verification=round(float(verification[i]), 4),
                sample=round(sample, 4),
                semantic=None if semantic is None else round(float(semantic[positions[i]]), 4),
            )
            ranked.append((float(score[i]), sample, memory, parts))
        ranked.sort(key=lambda r: (-r[0], -r[1], r[2].memory_id))
        if not everything:
            ranked = ranked[: config.top_k]
        return [
            RecalledMemory(memory_id=m.memory_id, text=m.text, key=m.key, value=m.value, score=total, parts=parts)
            for total, _, m, parts in ranked
        ]


def _matrix(memories: list[Memory], vectors: dict[str, np.ndarray]) -> np.ndarray | None:
    """Unit embeddings, one row per memory (zeros where a memory has none); None when no memory has one."""
    sizes = {v.shape for v in vectors.values() if v.ndim == 1}
    if not vectors or len(sizes) != 1:  # none, or a mix of models: words only until they are made again
        return None
    matrix = np.zeros((len(memories), next(iter(sizes))[0]), dtype=np.float32)
    present = [(row, vectors[m.memory_id]) for row, m in enumerate(memories) if m.memory_id in vectors]
    if present:
        matrix[[row for row, _ in present]] = np.stack([vector for _, vector in present])
    norms = np.linalg.norm(matrix, axis=1, keepdims=True)
    np.divide(matrix, norms, out=matrix, where=norms > 0)
    return matrix


def topic_words(prompt: str, intent: Intent) -> frozenset[str]:
    """The words of the request's topic: its kind of tool's, and those naming the subjects it names."""
    from toolgen.intent.read import find_subjects
    from toolgen.memory.text import tokens

    names = [ARCHETYPE_TOPICS.get(intent.archetype or "", "")]
    for subject, _, _ in find_subjects(prompt)[:2]:
        names += [*subject.en, *subject.zh]
    return frozenset(tokens(" ".join(names)))
