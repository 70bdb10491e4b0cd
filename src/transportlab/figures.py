"""Saving notebook figures where `transportlab reproduce` and the README expect them."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

from transportlab.paths import figures_dir


def save_figure(fig, study: str, name: str, quick: bool = False, n_runs: int | None = None) -> Path:
    """Write ``fig`` to ``figures[/quick]/<study>/<name>.png`` atomically.

    ``n_runs`` (how many simulation runs stand behind the figure) is written into
    the figure's footer when given; every published figure should state it.
    """
    folder = figures_dir(study, quick)
    folder.mkdir(parents=True, exist_ok=True)
    target = folder / f"{name}.png"
    if n_runs is not None:
        fig.text(
            0.99,
            0.005,
            f"n = {n_runs} run{'s' if n_runs != 1 else ''}",
            ha="right",
            va="bottom",
            fontsize=7,
            color="0.35",
        )
    fd, tmp = tempfile.mkstemp(dir=folder, suffix=".png.tmp")
    os.close(fd)
    try:
        fig.savefig(tmp, dpi=120, bbox_inches="tight", format="png")
        os.replace(tmp, target)
    finally:
        if os.path.exists(tmp):
            os.unlink(tmp)
    return target
