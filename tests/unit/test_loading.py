"""Data files are read with the cyclic collector paused, and the places index makes a place only when it is named."""

from __future__ import annotations

import gc
import gzip
import json
import subprocess
import sys
from pathlib import Path

import pytest

from toolgen.knowledge.loading import read_json, unscanned

ROOT = Path(__file__).resolve().parents[2]


def test_unscanned_pauses_the_collector_and_restores_it():
    assert gc.isenabled()
    with unscanned():
        assert not gc.isenabled()
        with unscanned():  # nested: the inner block leaves it off
            assert not gc.isenabled()
        assert not gc.isenabled()
    assert gc.isenabled()


def test_unscanned_restores_the_collector_when_the_block_fails():
    with pytest.raises(ValueError, match="damaged"), unscanned():
        raise ValueError("a damaged data file")
    assert gc.isenabled()


def test_unscanned_leaves_a_collector_that_was_off_off():
    gc.disable()
    try:
        with unscanned():
            pass
        assert not gc.isenabled()
    finally:
        gc.enable()


def test_read_json_reads_plain_and_gzip_files(tmp_path):
    document = {"名字": ["北京", 1], "n": 2.5}
    plain, packed = tmp_path / "a.json", tmp_path / "a.json.gz"
    plain.write_text(json.dumps(document, ensure_ascii=False), encoding="utf-8")
    packed.write_bytes(gzip.compress(json.dumps(document).encode()))
    assert read_json(plain) == read_json(packed) == document
    assert gc.isenabled()


def test_a_cold_process_makes_only_the_places_a_request_names():
    code = (
        "from toolgen.knowledge import places\n"
        "found = places.find_places('weather in Lisbon and 成都 this week')\n"
        "index = places._index()\n"
        "print(len(index._made), len(index._rows), [p.name for p in found])\n"
    )
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True).stdout
    made, rows, names = out.split(" ", 2)
    assert names.strip() == "['Lisbon', 'Chengdu']"
    assert 2 <= int(made) < 50 < int(rows)
