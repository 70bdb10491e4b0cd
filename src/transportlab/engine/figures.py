"""Saving figures where `transportlab reproduce`, the notebooks and the README expect them."""

from __future__ import annotations

from pathlib import Path

from transportlab.engine import plotting
from transportlab.engine.paths import figures_dir


def save_figure(fig, study: str, name: str, quick: bool = False, n_runs: int | None = None) -> Path:
    """Write ``fig`` to ``figures[/quick]/<study>/<name>.png`` and ``.svg``, atomically.

    ``n_runs`` (how many simulation runs stand behind the figure) is written into
    the figure's footer when given; every published figure states it. Saving twice
    does not add a second footer.
    """
    target = figures_dir(study, quick) / f"{name}.png"
    if n_runs is not None:
        label = f"n = {n_runs} run{'s' if n_runs != 1 else ''}"
        footer = getattr(fig, "_transportlab_footer", None)
        if footer is None:
            fig._transportlab_footer = fig.text(
                0.99, 0.005, label, ha="right", va="bottom", fontsize=7, color="0.35"
            )
        else:
            footer.set_text(label)
    plotting.save(fig, target)
    return target
