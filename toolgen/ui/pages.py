"""Where pages live: the private bucket, ``pages/<tool_id>/index.html``, with their CSP kept beside them."""

from __future__ import annotations

from typing import Any

from botocore.exceptions import ClientError

from toolgen import aws
from toolgen.errors import NotFoundError
from toolgen.ids import TOOL_ID_RE
from toolgen.ui.render import Page


def page_key(tool_id: str) -> str:
    return f"pages/{tool_id}/index.html"


class PageStore:
    def __init__(self, bucket: str, client: Any | None = None) -> None:
        self.bucket = bucket
        self._client = client

    @property
    def client(self) -> Any:
        if self._client is None:
            self._client = aws.client("s3")
        return self._client

    def put(self, tool_id: str, page: Page) -> None:
        try:
            self.client.put_object(
                Bucket=self.bucket,
                Key=page_key(tool_id),
                Body=page.html.encode(),
                ContentType="text/html; charset=utf-8",
                Metadata={"csp": page.csp},
                CacheControl="no-cache",
            )
        except ClientError as e:
            raise aws.translate(e, "s3 put_object") from e

    def get(self, tool_id: str) -> Page:
        if not TOOL_ID_RE.match(tool_id):
            raise NotFoundError(f"no page for {tool_id}")
        try:
            obj = self.client.get_object(Bucket=self.bucket, Key=page_key(tool_id))
        except ClientError as e:
            if aws.error_code(e) in ("NoSuchKey", "404"):
                raise NotFoundError(f"no page for {tool_id}") from e
            raise aws.translate(e, "s3 get_object") from e
        return Page(html=obj["Body"].read().decode(), csp=obj.get("Metadata", {}).get("csp", "default-src 'none'"))

    def delete(self, tool_id: str) -> None:
        try:
            self.client.delete_object(Bucket=self.bucket, Key=page_key(tool_id))
        except ClientError as e:
            raise aws.translate(e, "s3 delete_object") from e
