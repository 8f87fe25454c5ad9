"""In-memory fakes of the interfaces toolgen defines (not of AWS): used where a test is about our logic."""

from __future__ import annotations

from toolgen.table import MemoryTable

FakeTable = MemoryTable  # the in-memory ItemTable lives with the real one
