"""Writing result files atomically: a reader never sees half a file.

Every result file is written to a temporary file in the target folder and renamed
over the target when it is complete, so a file that exists is a finished one and an
interrupted write leaves the previous version in place. ``tempfile.mkstemp``
creates files with mode 0600; the finished file gets the mode an ordinary
``open()`` would give it (0666 minus the umask), so shared course folders and web
servers can read results.
"""

from __future__ import annotations

import contextlib
import os
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import IO

import pandas as pd

__all__ = ["OutputError", "atomic_file", "check_writable_folder", "write_csv", "write_text"]


class OutputError(OSError):
    """An output folder or file cannot be created or written (reported before anything runs)."""


def _umask() -> int:
    # os.umask has no read-only form: set and restore (process-wide, but instantaneous).
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def default_file_mode() -> int:
    """The mode ``open(path, "w")`` gives a new file: 0666 minus the process umask."""
    return 0o666 & ~_umask()


@contextlib.contextmanager
def _replacing(path: Path) -> Iterator[tuple[int, str]]:
    """A temporary file beside ``path`` (its descriptor and name), renamed to ``path`` with
    the ordinary file mode when the block succeeds, removed otherwise."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        yield fd, tmp
        os.chmod(tmp, default_file_mode())
        os.replace(tmp, path)
    finally:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)


@contextlib.contextmanager
def atomic_file(path: str | Path, mode: str = "w", **kwargs) -> Iterator[IO]:
    """Open a temporary file beside ``path``; rename it to ``path`` when the block succeeds.

    On an exception the temporary file is removed and ``path`` is left as it was.
    """
    with _replacing(Path(path)) as (fd, _), os.fdopen(fd, mode, **kwargs) as stream:
        yield stream
        stream.flush()
        os.fsync(stream.fileno())


def atomic_write_with(path: str | Path, writer: Callable[[str], None]) -> Path:
    """Let ``writer(temporary_path)`` write the file (e.g. matplotlib's savefig), then rename."""
    path = Path(path)
    with _replacing(path) as (fd, tmp):
        os.close(fd)
        writer(tmp)
    return path


def write_text(path: str | Path, text: str) -> Path:
    """Write ``text`` to ``path`` atomically."""
    with atomic_file(path, "w", newline="") as stream:
        stream.write(text)
    return Path(path)


def write_csv(frame: pd.DataFrame, path: str | Path, **to_csv) -> Path:
    """Write ``frame`` (without its index) to ``path`` atomically."""
    with atomic_file(path, "w", newline="") as stream:
        frame.to_csv(stream, index=False, **to_csv)
    return Path(path)


def check_writable_folder(folder: str | Path, what: str = "output folder") -> Path:
    """Create ``folder`` if needed and check that files can be written into it.

    Raises :class:`OutputError` with a one-line message otherwise. Meant to run
    before a long computation whose results go there.
    """
    folder = Path(folder)
    try:
        folder.mkdir(parents=True, exist_ok=True)
        fd, probe = tempfile.mkstemp(dir=folder, prefix=".write-check.", suffix=".tmp")
        os.close(fd)
        os.unlink(probe)
    except OSError as exc:
        reason = exc.strerror or str(exc)
        raise OutputError(f"cannot write to {what} {folder}: {reason}") from None
    return folder


def check_file_prefix(prefix: str | Path, what: str = "file prefix") -> str | None:
    """Why files named ``<prefix>...`` cannot be written, or None (checks the folder only)."""
    folder = Path(prefix).parent if str(prefix) else Path(".")
    folder = folder if str(folder) else Path(".")
    if not folder.is_dir():
        return f"the folder of {what} {str(prefix)!r} does not exist ({folder})"
    if not os.access(folder, os.W_OK | os.X_OK):
        return f"the folder of {what} {str(prefix)!r} is not writable ({folder})"
    return None
