"""Builds toolgen/knowledge/data/subject_words.json.gz, the readers' indexes of the knowledge base's words (each
subject's English and Chinese words, and its own nouns in both languages; intent/read.py), so that a cold process
reads them rather than building them from 2,049 subjects. Run by `make subjects` (``--check`` only says whether the
shipped file is what the knowledge base gives)."""

from __future__ import annotations

import sys
from typing import Any

from toolgen.intent.build_actions import build_main
from toolgen.intent.read import WORDS_INDEX, encode_words, words_index


def _sizes(index: dict[str, Any]) -> str:
    return ", ".join(f"{len(index[k]):,} {k}" for k in ("en", "zh", "cores", "zh_cores"))


def main(argv: list[str] | None = None) -> int:
    return build_main(
        argv, module="toolgen.intent.build_words", about=__doc__.split("\n")[0], build=words_index,
        encode=encode_words, render=lambda index: f"words of {_sizes(index)}", out=WORDS_INDEX, target="subjects",
        weights=_sizes,
    )  # fmt: skip


if __name__ == "__main__":
    sys.exit(main())
