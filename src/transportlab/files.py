"""Writing result files atomically: a reader never sees half a file."""

from __future__ import annotations

import contextlib
import os
import tempfile
from pathlib import Path

import pandas as pd


def write_csv(frame: pd.DataFrame, path: str | Path) -> Path:
    """Write ``frame`` (without its index) to ``path``: temporary file, then rename."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "w", newline="") as stream:
            frame.to_csv(stream, index=False)
        os.replace(tmp, path)
    finally:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)
    return path
