"""Stage 2, recall: a person's long-term memories, stored, scored against a request and merged as data."""

from toolgen.memory.recall import memory_block, recall
from toolgen.memory.store import DynamoMemoryStore, MemoryStore

__all__ = ["DynamoMemoryStore", "MemoryStore", "memory_block", "recall"]
