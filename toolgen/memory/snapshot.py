"""A person's memories as one object in the bucket, so a cold process loads them in one read.

``memory/<user>.json.gz``: the active memories (as the API shows them), their embeddings (float16, base64) and
the memory version and time they hold. A process that loads it catches up with the table's change log from that
time (toolgen/memory/recall.py), and writes a fresh one when it has caught up with many changes. It is deleted
with the person, and whenever a memory is deleted (the person asked for its text to be gone), so the next recall
rebuilds it from the table.
"""

from __future__ import annotations

import base64
import gzip
import json
import logging
from dataclasses import dataclass
from typing import Any

import numpy as np

from toolgen import aws
from toolgen.models import Memory

logger = logging.getLogger(__name__)
FORMAT = 1


def snapshot_key(user: str) -> str:
    return f"memory/{user}.json.gz"


@dataclass
class Snapshot:
    version: str
    built_ms: int  # the time of the newest change it holds
    memories: list[Memory]
    vectors: dict[str, np.ndarray]
    model: str | None


class SnapshotStore:
    """Snapshots in the platform's bucket (the pages' bucket; its own prefix)."""

    def __init__(self, bucket: str, client: Any | None = None) -> None:
        self.bucket = bucket
        self._client = client

    @property
    def client(self) -> Any:
        if self._client is None:
            self._client = aws.client("s3")
        return self._client

    def get(self, user: str) -> Snapshot | None:
        """The person's snapshot; None when there is none or it cannot be read (the table is read instead)."""
        try:
            body = self.client.get_object(Bucket=self.bucket, Key=snapshot_key(user))["Body"].read()
        except Exception as e:
            if not aws.is_aws_error(e):
                raise
            if aws.error_code(e) not in ("NoSuchKey", "404"):
                logger.warning("memory snapshot of %s unreadable, reading the table: %s", user, aws.error_code(e))
            return None
        try:
            raw = json.loads(gzip.decompress(body))
            if raw.get("format") != FORMAT:
                return None
            memories = [Memory.model_validate(m) for m in raw["memories"]]
            vectors = {
                k: np.frombuffer(base64.b64decode(v), dtype="<f2").astype(np.float32)
                for k, v in raw.get("vectors", {}).items()
            }
        except (OSError, ValueError, KeyError) as e:
            logger.warning("memory snapshot of %s is damaged, reading the table: %s", user, e)
            return None
        return Snapshot(raw["version"], int(raw["built_ms"]), memories, vectors, raw.get("model"))

    def put(self, user: str, snapshot: Snapshot) -> None:
        body = {
            "format": FORMAT,
            "version": snapshot.version,
            "built_ms": snapshot.built_ms,
            "model": snapshot.model,
            "memories": [m.model_dump() for m in snapshot.memories],
            "vectors": {
                k: base64.b64encode(np.asarray(v, dtype="<f2").tobytes()).decode() for k, v in snapshot.vectors.items()
            },
        }
        data = gzip.compress(json.dumps(body, ensure_ascii=False, separators=(",", ":")).encode(), compresslevel=1)
        try:
            self.client.put_object(
                Bucket=self.bucket, Key=snapshot_key(user), Body=data, ContentType="application/json"
            )
        except Exception as e:
            if not aws.is_aws_error(e):
                raise
            logger.warning("could not store the memory snapshot of %s: %s", user, aws.error_code(e))

    def delete(self, user: str) -> None:
        try:
            self.client.delete_object(Bucket=self.bucket, Key=snapshot_key(user))
        except Exception as e:
            if not aws.is_aws_error(e):
                raise
            raise aws.translate(e, "s3 delete_object") from e


__all__ = ["Snapshot", "SnapshotStore", "snapshot_key"]
