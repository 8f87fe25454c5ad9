"""The base layer carries everything a tool's runtime imports, and nothing heavy it does not need."""

from __future__ import annotations

import json
import subprocess
import sys
import sysconfig
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PROBE = """
import json, sys
sys.path[:0] = {paths!r}
import toolgen.runtime, toolgen.runtime.view, toolgen.awslite, toolgen.table
third_party = sorted({{
    name.split(".")[0] for name, module in list(sys.modules.items())
    if "site-packages" in (getattr(module, "__file__", None) or "")
}})
print(json.dumps(third_party))
"""


def test_the_runtime_imports_only_what_the_layer_pins():
    paths = [str(ROOT), sysconfig.get_paths()["purelib"]]  # without site's start-up hooks, as in Lambda
    probe = PROBE.format(paths=paths)
    done = subprocess.run([sys.executable, "-S", "-c", probe], capture_output=True, text=True, check=True, cwd=ROOT)
    imported = set(json.loads(done.stdout))
    pinned = {
        line.split("==")[0].replace("-", "_")
        for line in (ROOT / "layers/base/requirements.txt").read_text().splitlines()
        if "==" in line
    }
    assert imported <= pinned, f"the runtime imports {sorted(imported - pinned)}, which the layer does not carry"
    assert not imported & {"boto3", "botocore", "pydantic", "pydantic_core"}  # the cold start stays light


def test_an_inlined_runtime_carries_exactly_the_layers_requirements():
    from toolgen.deploy.package import RUNTIME_MODULES, runtime_files

    pinned = {
        line.split("==")[0].replace("-", "_")
        for line in (ROOT / "layers/base/requirements.txt").read_text().splitlines()
        if "==" in line
    }
    assert set(RUNTIME_MODULES) == pinned
    tops = {name.split("/")[0].removesuffix(".py") for name, _ in runtime_files()}
    assert tops == {"toolgen", *pinned}
    assert not [name for name, _ in runtime_files() if name.startswith("toolgen/local/")]
