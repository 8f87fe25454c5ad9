"""The inside of a local Lambda execution environment: import the handler once, then serve invocations.

Run as a script by toolgen/local/lambda_runtime.py with ``python -P`` (the script's folder is not put on the
path), with PYTHONPATH set to the function's code and its layers, like /var/task and /opt/python. Standard
library only: this is the runtime, not the function.

Protocol: one JSON line per invocation on stdin, ``{"event", "request_id", "deadline_ms"}``; one JSON line per
answer on the file descriptor named by _TOOLGEN_RESULT_FD: ``{"ready": true}`` after init, then
``{"ok": true, "result": ...}`` or ``{"ok": false, "error": {...}}``. The function's own prints go to stderr,
the log, so they can never corrupt an answer.
"""

import importlib
import json
import os
import sys
import threading
import time
import traceback


class Context:
    """The Lambda context object handlers receive."""

    def __init__(self, request_id: str, deadline_ms: int) -> None:
        self.aws_request_id = request_id
        self.function_name = os.environ.get("AWS_LAMBDA_FUNCTION_NAME", "")
        self.function_version = os.environ.get("AWS_LAMBDA_FUNCTION_VERSION", "$LATEST")
        self.memory_limit_in_mb = int(os.environ.get("AWS_LAMBDA_FUNCTION_MEMORY_SIZE", "128"))
        region = os.environ.get("AWS_REGION", "us-east-1")
        self.invoked_function_arn = f"arn:aws:lambda:{region}:123456789012:function:{self.function_name}"
        self.log_group_name = f"/aws/lambda/{self.function_name}"
        self.log_stream_name = "local"
        self._deadline_ms = deadline_ms

    def get_remaining_time_in_millis(self) -> int:
        return max(0, self._deadline_ms - int(time.time() * 1000))


def _error(e: BaseException, error_type: str = "") -> dict:
    return {
        "errorMessage": str(e),
        "errorType": error_type or type(e).__name__,
        "stackTrace": traceback.format_tb(e.__traceback__),
    }


def _end_with_parent(every: float = 1.0) -> None:
    """Exit when the runtime that started this environment is gone. An idle environment sees its stdin end; this
    is for one busy in a handler (a worker mid-job) when the runtime was killed (kill -9 runs no clean-up), which
    would otherwise run on as an orphan."""
    parent = os.getppid()

    def watch() -> None:
        while True:
            time.sleep(every)
            if os.getppid() != parent:  # re-parented: the runtime is gone
                os._exit(1)

    threading.Thread(target=watch, name="parent-watch", daemon=True).start()


def main() -> int:
    _end_with_parent()
    out = os.fdopen(int(os.environ.pop("_TOOLGEN_RESULT_FD")), "w", buffering=1)
    os.dup2(2, 1)  # the function's stdout goes to the log
    module_name, _, function_name = os.environ["_HANDLER"].rpartition(".")
    try:
        handler = getattr(importlib.import_module(module_name), function_name)
    except Exception as e:  # noqa: BLE001 - any init failure is reported, as Lambda does
        out.write(json.dumps({"init_error": _error(e, "Runtime.ImportModuleError")}) + "\n")
        return 1
    out.write('{"ready": true}\n')
    for line in sys.stdin:
        message = json.loads(line)
        context = Context(message["request_id"], message["deadline_ms"])
        try:
            result = handler(message["event"], context)
        except Exception as e:  # noqa: BLE001 - the function's error is the invocation's answer
            answer = {"ok": False, "error": _error(e)}
        else:
            answer = {"ok": True, "result": result}
        try:
            text = json.dumps(answer)
        except (TypeError, ValueError) as e:
            text = json.dumps({"ok": False, "error": _error(e, "Runtime.MarshalError")})
        out.write(text + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
