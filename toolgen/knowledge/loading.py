"""Loading the knowledge base's data files without the cyclic garbage collector scanning them as they are made.

Parsing a data file makes hundreds of thousands of dicts, lists and strings, none of them in a cycle. Each 700
allocations the collector scans the young objects, and each tenth of those scans the older ones too, which in a
process holding the knowledge base, the models and pydantic's schemas is most of the process: a cold process's
first request spent about 90 ms of its 290 there. ``unscanned`` pauses the collector while a file is read; what was
made is scanned once the collector next runs, as anything else.
"""

from __future__ import annotations

import gc
import gzip
import json
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any


@contextmanager
def unscanned() -> Iterator[None]:
    """No collection inside the block. The collector is process-wide: a block that finds it off (nested, or in
    another thread) leaves it as it found it."""
    was_on = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_on:
            gc.enable()


def read_json(path: Path) -> Any:
    """A data file's JSON document, gzip-compressed when its name ends in .gz, read ``unscanned``."""
    with unscanned():
        data = path.read_bytes()
        return json.loads(gzip.decompress(data) if path.suffix == ".gz" else data)
