"""A function's MemorySize, enforced on the local runtime's processes as Lambda enforces it: killed past it.

Lambda runs each environment in a sandbox whose memory is its MemorySize; past it the process is killed (SIGKILL,
nothing to catch) and the invocation fails with ``Runtime.OutOfMemory``. Locally each environment is a process,
and the runtime reads its peak resident set (VmHWM in /proc/<pid>/status) every CHECK_S while it runs and once
more before an answer is passed on, and kills it past the limit.

Why this and not the alternatives, for a Python process:
- RLIMIT_AS limits address space, not memory: a Python process reserves far more than it touches (a thread's
  stack, malloc's per-thread arenas of 64 MB, mapped files), so a limit at MemorySize refuses healthy functions,
  and one well above it bounds nothing. And it fails an allocation with a MemoryError that the function can catch
  and carry on, where Lambda's limit cannot be caught.
- RLIMIT_RSS is not enforced by Linux at all; a cgroup's memory.max is exactly Lambda's rule but needs a writable
  cgroup tree, which neither a developer's machine nor a CI container reliably gives.
- Watching from inside the process (a thread) cannot work: a single C call ('x' * 10 ** 9) holds the GIL until
  it has written its gigabyte.
The peak, not the current size, is read, so an allocation made and freed between two readings is still seen; the
process can outgrow its limit by what it writes in CHECK_S (tens of MB at memory speed) before it is killed.
Only Linux has /proc: elsewhere the limit is not enforced, and the runtime says so once.
"""

from __future__ import annotations

import logging
import os

logger = logging.getLogger(__name__)
CHECK_S = 0.01


def peak_bytes(pid: int) -> int | None:
    """The highest resident set size process ``pid`` has had, or None where that cannot be read (not Linux)."""
    try:
        with open(f"/proc/{pid}/status", "rb") as status:
            for line in status:
                if line.startswith(b"VmHWM:"):
                    return int(line.split()[1]) * 1024  # in kB
    except (OSError, ValueError, IndexError):
        return None
    return None


def enforced() -> bool:
    """Whether this system lets the runtime read a process's memory (it warns once when not)."""
    if peak_bytes(os.getpid()) is not None:
        return True
    logger.warning("MemorySize is not enforced on this system: no /proc/<pid>/status to read a process's memory")
    return False


def out_of_memory_error(request_id: str) -> dict[str, str]:
    """What Lambda answers for an invocation killed for memory."""
    return {
        "errorType": "Runtime.OutOfMemory",
        "errorMessage": f"RequestId: {request_id} Error: Runtime exited with error: signal: killed",
    }
