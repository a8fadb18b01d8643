"""Temporary files a killed writer left behind, and how a later write removes them.

`atomic_write` writes `.NAME.PID.XXXXXXXX.tmp` beside its target and renames it; a
`kill -9` between the two leaves it there, hidden. The next write of the same target
removes such leftovers: only names of exactly that pattern, only regular files, and
only those whose writer is gone or that are older than any write takes. A concurrent
writer's fresh temp file is never touched.
"""

from __future__ import annotations

import os
import stat

TEMP_SUFFIX = ".tmp"
TEMP_RANDOM = frozenset("abcdefghijklmnopqrstuvwxyz0123456789_")  # tempfile's name letters
STALE_SECONDS = 15 * 60  # no write of ours takes this long


def _temp_owner(entry: str, name: str) -> int | bool | None:
    """For a file name of our temp files of `name` (`.NAME.PID.XXXXXXXX.tmp`, or
    `.NAME.XXXXXXXX.tmp` as older versions wrote): the writer's pid, None when the name
    carries none; False for any other name."""
    head = f".{name}."
    if not (entry.startswith(head) and entry.endswith(TEMP_SUFFIX)):
        return False
    middle = entry[len(head) : -len(TEMP_SUFFIX)]
    pid, _, rand = middle.rpartition(".")
    if len(rand) != 8 or not TEMP_RANDOM.issuperset(rand):
        return False
    if not pid:
        return None
    return int(pid) if pid.isdigit() and pid[0] != "0" else False


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (PermissionError, OverflowError):  # someone else's process: alive
        return True
    return True


def temp_name(name: str) -> str:
    """A fresh temporary name for a write of `name`: `.NAME.PID.XXXXXXXX.tmp`."""
    letters = sorted(TEMP_RANDOM)
    rand = "".join(letters[b % len(letters)] for b in os.urandom(8))
    return f".{name}.{os.getpid()}.{rand}{TEMP_SUFFIX}"


def clean_stale_temps(directory: str | int, name: str) -> list[str]:
    """Remove temporary files a killed writer of `name` left in `directory`: only ours
    (the exact pattern `atomic_write` makes), only regular files, and only those whose
    writer is gone or that are older than any write takes. `directory` is a path or a
    directory descriptor (names are then removed relative to it). Returns what was
    removed."""
    import time

    removed: list[str] = []
    try:
        entries = os.scandir(directory)
    except OSError:
        return removed
    now = time.time()
    with entries:
        for entry in entries:
            if not entry.name.startswith("."):
                continue
            owner = _temp_owner(entry.name, name)
            if owner is False:
                continue
            try:
                st = entry.stat(follow_symlinks=False)
            except OSError:
                continue
            if not stat.S_ISREG(st.st_mode):
                continue
            old = now - st.st_mtime > STALE_SECONDS
            gone = isinstance(owner, int) and owner != os.getpid() and not _alive(owner)
            if old or gone:
                try:
                    if isinstance(directory, int):
                        os.unlink(entry.name, dir_fd=directory)
                    else:
                        os.unlink(entry.path)
                except OSError:
                    continue
                removed.append(entry.path)
    return removed
