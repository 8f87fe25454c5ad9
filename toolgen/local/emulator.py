"""The AWS of the embedded default: moto's server on loopback, and what the local runtime reads back from it.

moto's GetFunction gives a Code.Location that cannot be fetched, so code, layers and configuration are read
from moto's Lambda backend, which lives in this same process. Where moto's answers differ from Lambda's in ways
the deployer relies on, toolgen/local/fidelity.py makes them Lambda's.
"""

from __future__ import annotations

import logging
import secrets
from typing import Any

import boto3
from moto.awslambda.models import lambda_backends
from moto.core import DEFAULT_ACCOUNT_ID
from moto.moto_server.threaded_moto_server import ThreadedMotoServer
from moto.moto_server.werkzeug_app import DomainDispatcherApplication, MotoRequestHandler, create_backend_app
from werkzeug.serving import make_server

from toolgen.aws import retry_config
from toolgen.local import fidelity, sigv4
from toolgen.local.journal import Journal, install_seeded_random
from toolgen.local.lambda_runtime import FunctionImage

REGION = "us-east-1"
SESSION_S = 12 * 3600  # a function's role session (moto does not expire it; Lambda renews it)
LOOPBACK = "127.0.0.1"  # whatever address the gateway is given, the emulator is reachable from this machine only
# Every session moto's STS issues, and every emulator's own credentials, may call (toolgen/local/sigv4.py).
KEYS = sigv4.Keys()


def _credentials() -> dict[str, str]:
    """Fresh credentials for one emulator: only its holders may call it (moto alone accepts any)."""
    return {
        "AWS_ACCESS_KEY_ID": "TGLOCAL" + secrets.token_hex(6).upper(),
        "AWS_SECRET_ACCESS_KEY": secrets.token_urlsafe(30),
        "AWS_SESSION_TOKEN": secrets.token_urlsafe(30),  # also overrides any session token of the person's own
    }


class _GuardedMotoServer(ThreadedMotoServer):
    """moto's threaded server with every request's signature checked first, and its writes journaled when it keeps
    its state (its app is wrapped where moto's ``_server_entry`` builds it: moto 5.x, pinned)."""

    def __init__(self, journal: Journal | None, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.journal = journal
        self.app = DomainDispatcherApplication(create_backend_app)  # moto itself, for the journal's replay

    def _server_entry(self) -> None:
        inner = self.journal.middleware(self.app) if self.journal else self.app
        app = sigv4.middleware(inner, KEYS)
        self._server = make_server(self._ip_address, self._port, app, True, request_handler=MotoRequestHandler)
        self._server_ready_event.set()
        self._server.serve_forever()


class Emulator:
    """moto's server in a background thread of this process, on loopback, answering only signed requests."""

    def __init__(self, *, account_concurrency: int | None = None, journal: Journal | None = None) -> None:
        """``account_concurrency``: the quota its account enforces (fidelity.py; 1,000 when not given);
        ``journal``: where its writes are kept across restarts (toolgen/local/journal.py; None: in memory only)."""
        logging.getLogger("werkzeug").setLevel(logging.WARNING)  # moto's request log is noise here
        fidelity.apply()
        if account_concurrency is not None:
            fidelity.set_account_concurrency(account_concurrency)
        self.credentials = _credentials()
        KEYS.add(
            self.credentials["AWS_ACCESS_KEY_ID"],
            self.credentials["AWS_SECRET_ACCESS_KEY"],
            self.credentials["AWS_SESSION_TOKEN"],
        )
        install_seeded_random()
        self.journal = journal
        self._server = _GuardedMotoServer(journal, ip_address=LOOPBACK, port=0, verbose=False)
        self.endpoint = ""

    def start(self) -> str:
        self._server.start()
        host, port = self._server.get_host_and_port()
        self.endpoint = f"http://{host}:{port}"
        return self.endpoint

    def stop(self) -> None:
        if self.endpoint:
            self._server.stop()
            self.endpoint = ""

    def restore(self) -> int:
        """Replay the journal into this (freshly provisioned) emulator and record from here on; writes replayed."""
        assert self.journal is not None
        count = self.journal.replay(self._server.app)
        self.journal.recording = True
        return count

    def client(self, service: str) -> Any:
        """A boto3 client for the emulator, with its own credentials (the person's AWS settings are not touched)."""
        return boto3.session.Session(
            aws_access_key_id=self.credentials["AWS_ACCESS_KEY_ID"],
            aws_secret_access_key=self.credentials["AWS_SECRET_ACCESS_KEY"],
            aws_session_token=self.credentials["AWS_SESSION_TOKEN"],
            region_name=REGION,
        ).client(service, endpoint_url=self.endpoint, config=retry_config())

    def environment(self) -> dict[str, str]:
        """What a process needs in its environment to use this emulator as its AWS."""
        return {
            **self.credentials,
            "AWS_REGION": REGION,
            "AWS_DEFAULT_REGION": REGION,
            "AWS_ENDPOINT_URL": self.endpoint,
        }


class MotoFunctionSource:
    """FunctionSource reading moto's in-process Lambda backend.

    Names may be qualified (``name:live``, ``name:3``): an alias resolves to its version, whose code and
    configuration are the ones published; reserved concurrency and the URL belong to the function as a whole.
    """

    def __init__(self, account_id: str = DEFAULT_ACCOUNT_ID, region: str = REGION, *, sessions: bool = True) -> None:
        """``sessions``: run functions with their role's session, whose DynamoDB calls fidelity.py checks against
        the role's policies. moto serves a session from its role's account, so a function reaching another
        account's table by ARN (tests/functional/test_accounts.py) runs with the emulator's credentials instead."""
        self.account_id = account_id
        self.region = region
        self.sessions = sessions

    def _backend(self) -> Any:
        return lambda_backends[self.account_id][self.region]

    def _function(self, name: str) -> Any | None:
        base, _, qualifier = name.partition(":")
        try:
            return self._backend().get_function(base, qualifier or None)
        except Exception:  # noqa: BLE001 - moto raises its own not-found types
            return None

    def describe(self, name: str) -> FunctionImage | None:
        fn = self._function(name)
        whole = self._function(name.partition(":")[0])
        if fn is None or whole is None:
            return None
        reserved = whole.reserved_concurrency
        return FunctionImage(
            name=fn.function_name,
            version=str(fn.version),
            code_sha256=fn.code_sha_256,
            handler=fn.handler,
            timeout_s=float(fn.timeout),
            memory_mb=int(fn.memory_size),
            environment=tuple(sorted((fn.environment_vars or {}).items())),
            layers=tuple(layer["Arn"] for layer in (fn.layers or [])),
            reserved_concurrency=None if reserved is None else int(reserved),
            role=str(fn.role or ""),
        )

    def code(self, name: str) -> bytes:
        fn = self._function(name)
        if fn is None:
            raise KeyError(name)
        return bytes(fn.code_bytes)

    def layer(self, arn: str) -> bytes:
        """A layer version's content: the account its ARN names (a tool may use another account's layer)."""
        parts = arn.split(":")
        backend = lambda_backends[parts[4]][parts[3]] if len(parts) > 4 else self._backend()
        version = backend.layers_versions_by_arn(arn)
        if version is None:
            raise KeyError(arn)
        return bytes(version.code_bytes)

    def credentials(self, image: FunctionImage) -> dict[str, str]:
        """A session of the function's execution role named after the function, as Lambda makes one: its
        ``aws:userid`` is ``<role id>:<function name>``."""
        if not self.sessions or not image.role:
            return {}
        from moto.sts.models import sts_backends
        from moto.utilities.utils import get_partition

        session = sts_backends[self.account_id][get_partition(self.region)].assume_role(
            region_name=self.region,
            role_session_name=image.name,
            role_arn=image.role,
            policy="",
            duration=SESSION_S,
            external_id="",
        )
        return {
            "AWS_ACCESS_KEY_ID": session.access_key_id,
            "AWS_SECRET_ACCESS_KEY": session.secret_access_key,
            "AWS_SESSION_TOKEN": session.session_token,
        }

    def url_config(self, name: str) -> dict[str, Any] | None:
        """The function URL's configuration (AuthType, Cors), or None when it has no URL."""
        fn = self._function(name.partition(":")[0])
        if fn is None or fn.url_config is None:
            return None
        return dict(fn.url_config.config)
