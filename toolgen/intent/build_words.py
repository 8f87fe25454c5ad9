"""Builds toolgen/knowledge/data/subject_words.json.gz, the readers' indexes of the knowledge base's words (each
subject's English and Chinese words, and its own nouns in both languages; intent/read.py), so that a cold process
reads them rather than building them from 2,049 subjects. Run by `make subjects` (``--check`` only says whether the
shipped file is what the knowledge base gives)."""

from __future__ import annotations

import argparse
import sys

from toolgen.intent.read import WORDS_INDEX, encode_words, words_index


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m toolgen.intent.build_words", description=__doc__.split("\n")[0])
    parser.add_argument("--check", action="store_true", help="only say whether the shipped file is up to date")
    args = parser.parse_args(argv)
    index = words_index()
    data = encode_words(index)
    if args.check:
        fresh = WORDS_INDEX.exists() and WORDS_INDEX.read_bytes() == data
        print(f"{WORDS_INDEX}: {'up to date' if fresh else 'out of date: run make subjects'}")
        return 0 if fresh else 1
    WORDS_INDEX.write_bytes(data)
    sizes = ", ".join(f"{len(index[k]):,} {k}" for k in ("en", "zh", "cores", "zh_cores"))
    print(f"{WORDS_INDEX}: {sizes}; {len(data):,} bytes")
    return 0


if __name__ == "__main__":
    sys.exit(main())
