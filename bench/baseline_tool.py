"""The baseline of bench/coldstart.py: the to-do tool's "add a task" written the usual way, as its own handler.

Powertools' function URL resolver with pydantic validation, a boto3 DynamoDB client made at import, the same
bearer-token check (the token's Ed25519 signature checked with the tool's public key, TOOLGEN_TOKEN_KEY, through
`cryptography`, as a handler would usually check one): what a generated tool would cost if each were a handler
like this instead of a ToolProgram on the shared runtime. It does the same work as the real tool's create
(validate, check the token, write the row, answer 201), so the two cold starts compare like with like.
"""

import base64
import json
import os
import time
import uuid
from typing import Literal

import boto3
from aws_lambda_powertools.event_handler import LambdaFunctionUrlResolver, Response, content_types
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey
from pydantic import BaseModel, Field

app = LambdaFunctionUrlResolver(enable_validation=True)
table = boto3.client("dynamodb")


class Task(BaseModel):
    title: str = Field(min_length=1, max_length=200)
    due: str | None = None
    priority: Literal["high", "normal", "low"] = "normal"
    done: bool = False


def _unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def user_of(header: str) -> str:
    _, _, token = header.partition(" ")
    prefix, payload, signature = token.split(".")
    public = Ed25519PublicKey.from_public_bytes(_unb64(os.environ["TOOLGEN_TOKEN_KEY"].removeprefix("tgpk1.")))
    try:
        public.verify(_unb64(signature), f"{prefix}.{payload}".encode())
    except InvalidSignature:
        raise PermissionError("bad token") from None
    claims = json.loads(_unb64(payload))
    if claims["exp"] < time.time() or claims["sub"] != os.environ["TOOL_OWNER"]:
        raise PermissionError("not yours")
    return str(claims["sub"])


@app.post("/tasks")
def add_task(task: Task) -> Response[str]:
    user = user_of(app.current_event.headers.get("authorization", ""))
    row = {"id": f"r{uuid.uuid4().hex[:20]}", **task.model_dump()}
    table.put_item(
        TableName=os.environ["TABLE_NAME"],
        Item={
            "pk": {"S": f"TOOL#{os.environ['TOOL_ID']}#{user}"},
            "sk": {"S": f"task#{row['id']}"},
            "data": {"S": json.dumps(row)},
        },
    )
    return Response(201, content_types.APPLICATION_JSON, json.dumps(row))


def handler(event, context):
    return app.resolve(event, context)
