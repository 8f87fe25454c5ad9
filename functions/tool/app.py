"""Handler of every generated tool. A tool's package is this file and its program.json; the runtime is in the layer."""

from pathlib import Path

from toolgen.runtime import ToolApp

app = ToolApp.from_environment(Path(__file__).with_name("program.json"))


def handler(event, context):
    return app.handle(event)
