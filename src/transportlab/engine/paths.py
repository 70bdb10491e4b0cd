"""Where the project's data, results and figures live.

The project root is $TRANSPORTLAB_ROOT if set, else the nearest folder at or above
the current directory holding ``data/published`` and ``pyproject.toml``, else the
checkout this package was imported from (editable install).
"""

from __future__ import annotations

import os
from pathlib import Path


def _is_root(folder: Path) -> bool:
    return (folder / "pyproject.toml").is_file() and (folder / "data" / "published").is_dir()


def project_root() -> Path:
    env = os.environ.get("TRANSPORTLAB_ROOT")
    if env:
        return Path(env).resolve()
    here = Path.cwd().resolve()
    for folder in (here, *here.parents):
        if _is_root(folder):
            return folder
    source_checkout = Path(__file__).resolve().parents[3]
    if _is_root(source_checkout):
        return source_checkout
    raise FileNotFoundError(
        "cannot find the transportlab project folder (data/published); "
        "run from inside the checkout or set TRANSPORTLAB_ROOT"
    )


def published_dir() -> Path:
    return project_root() / "data" / "published"


def results_dir(study: str | None = None, quick: bool = False) -> Path:
    """``data/results[/quick]/<study>``: quick-mode results never overwrite full ones."""
    base = project_root() / "data" / "results"
    if quick:
        base = base / "quick"
    return base / study if study else base


def figures_dir(study: str | None = None, quick: bool = False) -> Path:
    """``figures[/quick]/<study>``: the committed figures come from full-mode runs."""
    base = project_root() / "figures"
    if quick:
        base = base / "quick"
    return base / study if study else base


def cache_dir() -> Path:
    """Finished sweep points (one file per point and replication); safe to delete."""
    env = os.environ.get("TRANSPORTLAB_RESULTS_CACHE")
    return Path(env) if env else project_root() / "data" / "cache"
