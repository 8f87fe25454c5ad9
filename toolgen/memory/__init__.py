"""Stage 2, recall: a person's long-term memories, learnt, scored, recalled as data, rewarded and verified."""

from toolgen.memory.recall import Recaller, memory_block, recall
from toolgen.memory.scoring import MemoryConfig
from toolgen.memory.store import DynamoMemoryStore, MemoryStore

__all__ = ["DynamoMemoryStore", "MemoryConfig", "MemoryStore", "Recaller", "memory_block", "recall"]
