"""A client of a running `toolgen serve`'s emulator, for the benchmarks that read what the platform stored."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import boto3


def client(home: Path, service: str) -> Any:
    """A boto3 client on the emulator of the serve running in ``home``, with the credentials it wrote to
    serve.json (the emulator answers no others)."""
    aws = json.loads((home / "serve.json").read_text())["aws"]
    return boto3.client(
        service,
        endpoint_url=aws["AWS_ENDPOINT_URL"],
        region_name="us-east-1",
        aws_access_key_id=aws["AWS_ACCESS_KEY_ID"],
        aws_secret_access_key=aws["AWS_SECRET_ACCESS_KEY"],
        aws_session_token=aws["AWS_SESSION_TOKEN"],
    )
