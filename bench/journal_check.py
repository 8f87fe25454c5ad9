"""What checking the embedded default's journal costs when `serve` opens it (toolgen/local/journal.py), and how soon
a damaged one is refused: a journal of 75,000 writes of about 1.3 KB (97 MB), opened clean, with one header byte
changed, and with one record's length damaged halfway through. Each refusal leaves the file as it was.

    .venv/bin/python bench/journal_check.py [--writes 75000]

The open is what a restart pays before its replay (bench/persistence.py times the whole restart).
"""

from __future__ import annotations

import argparse
import base64
import json
import os
import tempfile
import time
import zlib
from pathlib import Path

from toolgen.errors import ConfigError
from toolgen.local.journal import HEADER, MAGIC, Journal


def journal(writes: int) -> bytes:
    body = base64.b64encode(os.urandom(900)).decode()
    record = {"m": "POST", "u": "/", "h": {"x-amz-target": "DynamoDB_20120810.PutItem"}, "b": body}
    parts = [MAGIC]
    for i in range(writes):
        record["u"] = f"/{i}"
        payload = json.dumps(record, separators=(",", ":")).encode()
        parts.append(HEADER.pack(len(payload), zlib.crc32(payload)) + payload)
    return b"".join(parts)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--writes", type=int, default=75_000)
    args = parser.parse_args()
    clean = journal(args.writes)
    print(f"journal of {args.writes:,} writes, {len(clean) / 1e6:.1f} MB")

    def header(data: bytearray) -> None:
        data[3] ^= 1

    def length(data: bytearray) -> None:
        data[len(data) // 2] = 0x7F

    for name, damage in (("clean", None), ("a header byte changed", header), ("a length damaged midway", length)):
        data = bytearray(clean)
        if damage is not None:
            damage(data)
        with tempfile.TemporaryDirectory() as home:
            path = Path(home) / "journal"
            path.write_bytes(bytes(data))
            started = time.perf_counter()
            try:
                opened = Journal(Path(home))
                outcome = f"opened, {opened.records:,} records"
                opened.close()
            except ConfigError:
                outcome = "refused, file unchanged" if path.read_bytes() == bytes(data) else "refused, FILE CHANGED"
            print(f"  {name}: {outcome} in {time.perf_counter() - started:.2f} s")


if __name__ == "__main__":
    main()
