"""Checking a large batch of files on several cores.

`asimov-validate .` over a big repository spends its time parsing YAML and JSON one
file after another. Forked workers inherit the loaded configuration, rule functions
and parsers, so they start in about a millisecond with nothing to import again; each
checks one contiguous slice and sends its results back through a pipe, and the
results are put back in the order a serial run gives. Under pre-commit
(`PRE_COMMIT=1`), which already spreads a hook's files over one process per core,
`--jobs 0` (auto) stays serial.
"""

from __future__ import annotations

import os
import sys

from ..config.config import ConfigError

TYPE_CHECKING = False
if TYPE_CHECKING:  # annotations only
    from collections.abc import Sequence

    from ..config.discovery import FileRecord
    from ..findings import FileResult
    from .engine import Checker

# Below this many parsed files per worker, a second process does not pay: each worker
# repeats the run's first-file work (imports, the caches of the readers and rules) and
# the work is cheap (a checkpoint takes ~0.2 ms to check). Measured on 2 cores: 1,000
# checkpoints check in about the same wall time on one process or two, while two cost
# 20-40 % more CPU; from 2,000 two take a quarter to a third off the wait, for 5-15 %
# more CPU. Files that are only measured never count towards a worker.
MIN_FILES_PER_JOB = 1000


class WorkerError(RuntimeError):
    """A worker could not check its files; reported like any internal error (exit 2)."""


def can_fork() -> bool:
    # macOS: system frameworks are not fork-safe (CPython's default there is spawn)
    return hasattr(os, "fork") and sys.platform != "darwin"


def cpu_count() -> int:
    try:
        return len(os.sched_getaffinity(0))  # the cores this process may use
    except (AttributeError, OSError):
        return os.cpu_count() or 1


def plan_jobs(requested: int, files: int, parsed: int | None = None) -> int:
    """How many processes to use: `requested` (0 = auto) bounded by the work there is.

    `parsed` is how many of the files are parsed (YAML or JSON); auto counts only them.
    """
    if not can_fork() or files < 2:
        return 1
    if requested > 0:
        return min(requested, files)
    if os.environ.get("PRE_COMMIT"):
        return 1
    work = files if parsed is None else parsed
    return max(1, min(cpu_count(), work // MIN_FILES_PER_JOB))


def _slices(paths: Sequence[FileRecord], jobs: int) -> list[Sequence[FileRecord]]:
    size, extra = divmod(len(paths), jobs)
    out, start = [], 0
    for i in range(jobs):
        end = start + size + (1 if i < extra else 0)
        out.append(paths[start:end])
        start = end
    return out


def _child(checker: Checker, paths: Sequence[FileRecord], fd: int) -> None:
    """Runs in the forked worker; never returns."""
    import pickle

    try:
        try:
            payload = pickle.dumps(("ok", [checker.check(p) for p in paths]), protocol=-1)
        except ConfigError as exc:  # the parent reports it as a serial run would
            payload = pickle.dumps(("config", str(exc)), protocol=-1)
        except BaseException as exc:  # reported by the parent
            payload = pickle.dumps(("error", f"{type(exc).__name__}: {exc}"), protocol=-1)
        with os.fdopen(fd, "wb") as out:
            out.write(payload)
    finally:
        os._exit(0)  # no atexit handlers, no second flush of the parent's buffers


def check_files(checker: Checker, paths: Sequence[FileRecord | str], jobs: int) -> list[FileResult]:
    """`checker.check` for every file (its record, or a path), in order, on up to `jobs`
    processes; forked workers inherit the records, only results travel back."""
    if jobs <= 1 or len(paths) < 2:
        return [checker.check(p) for p in paths]
    import gc
    import pickle

    parts = _slices(paths, jobs)
    sys.stdout.flush()
    sys.stderr.flush()
    workers: list[tuple[int, int]] = []
    try:
        # what exists now is shared with the workers page by page; a collection that
        # walks it would make each worker copy those pages (the parent thaws it at once)
        gc.freeze()
        try:
            for part in parts[1:]:
                read_fd, write_fd = os.pipe()
                pid = os.fork()
                if pid == 0:  # pragma: no cover  (the worker; its results are what is tested)
                    os.close(read_fd)
                    _child(checker, part, write_fd)
                os.close(write_fd)
                workers.append((pid, read_fd))
        finally:
            gc.unfreeze()
        results = [checker.check(p) for p in parts[0]]
        while workers:
            pid, read_fd = workers.pop(0)
            with os.fdopen(read_fd, "rb") as pipe:
                data = pipe.read()
            _, status = os.waitpid(pid, 0)
            if not data:
                raise WorkerError(f"a worker process ended without results (wait status {status})")
            outcome, value = pickle.loads(data)
            if outcome == "config":
                raise ConfigError(value)
            if outcome != "ok":
                raise WorkerError(f"a worker process failed: {value}")
            results.extend(value)
        return results
    finally:
        for pid, read_fd in workers:  # after an error: do not leave workers behind
            os.close(read_fd)
            os.waitpid(pid, 0)
