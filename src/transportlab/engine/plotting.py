"""One look for every figure: theme, protocol palette, line styles, CIs, saving.

Every study's figure functions draw through this module, so a protocol has the same
colour, marker and line style in every figure of the project (SCTP is never red in
one figure and blue in the next), lines that coincide stay distinguishable, and no
confidence interval of a non-negative quantity is drawn below zero.

* :func:`subplots` — ``matplotlib.pyplot.subplots`` after applying the theme
  (:func:`use_theme`: seaborn ``whitegrid``, ``paper`` context, colour-blind palette).
* :data:`PROTOCOL_COLORS`, :data:`PROTOCOL_MARKERS`, :data:`PROTOCOL_LINESTYLES` and
  :func:`styles` — the style of each line from its label ("SCTP unordered" is an SCTP
  line; a second SCTP line gets another dash pattern and marker, and every line is
  drawn thinner than the ones under it so a line that coincides with an earlier one
  does not hide it).
* :func:`ci_errors` / :func:`errorbar` — error bars from a confidence interval, the
  lower end clipped at zero for non-negative quantities (:data:`CI_CLIPPED`
  says so in a legend or title).
* :func:`save` — PNG and SVG side by side, each written atomically
  (:func:`transportlab.engine.files.atomic_write_with`); :func:`save_figure` — a
  study's figure where ``transportlab reproduce``, the notebooks and the README expect
  it, stating how many runs stand behind it.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from transportlab.engine.files import atomic_write_with
from transportlab.engine.paths import figures_dir

__all__ = [
    "CI_CLIPPED",
    "OTHER_COLORS",
    "PROTOCOL_COLORS",
    "PROTOCOL_LINESTYLES",
    "PROTOCOL_MARKERS",
    "PROTOCOL_SHADES",
    "bar_styles",
    "ci_errors",
    "errorbar",
    "protocol_of",
    "save",
    "save_figure",
    "styles",
    "subplots",
    "use_theme",
]

# seaborn's "colorblind" palette (distinguishable with the common colour-vision
# deficiencies). The three protocols take three of its colours; everything that is not
# a protocol (playout models, verdicts, scenarios) takes the others, so no such line can
# be mistaken for a protocol.
PROTOCOL_COLORS: dict[str, str] = {"tcp": "#0173b2", "sctp": "#d55e00", "udp": "#029e73"}
OTHER_COLORS: tuple[str, ...] = (
    "#de8f05", "#cc78bc", "#56b4e9", "#ca9161", "#949494", "#fbafe4", "#ece133",
)  # fmt: skip


def _mix(color: str, other: str, weight: float) -> str:
    """``color`` moved ``weight`` of the way towards ``other`` (both ``#rrggbb``)."""
    a = [int(color[i : i + 2], 16) for i in (1, 3, 5)]
    b = [int(other[i : i + 2], 16) for i in (1, 3, 5)]
    return "#" + "".join(f"{round(x + (y - x) * weight):02x}" for x, y in zip(a, b, strict=True))


#: The shades of each protocol's colour, in the order :func:`styles` gives them to the
#: first, second, ... line of that protocol (SCTP ordered, SCTP unordered): same hue, so
#: the protocol reads at a glance, different lightness, so a thin line drawn on a thick
#: one of the same protocol is still seen.
PROTOCOL_SHADES: dict[str, tuple[str, ...]] = {
    protocol: (
        color,
        _mix(color, "#000000", 0.45),
        _mix(color, "#ffffff", 0.45),
        _mix(color, "#000000", 0.7),
    )
    for protocol, color in PROTOCOL_COLORS.items()
}
PROTOCOL_MARKERS: dict[str, str] = {"tcp": "s", "sctp": "o", "udp": "^"}
PROTOCOL_LINESTYLES: dict[str, Any] = {"tcp": "--", "sctp": "-", "udp": ":"}
# Further lines of one protocol (SCTP ordered/unordered, PR-SCTP policies) or of other
# categories: a dash pattern and a marker each, in this order.
VARIANT_LINESTYLES: tuple[Any, ...] = ("-", "--", ":", "-.", (0, (5, 1, 1, 1, 1, 1)), (0, (1, 3)))
VARIANT_MARKERS: tuple[str, ...] = ("o", "s", "^", "D", "v", "P", "X")

#: What to write beside error bars drawn by :func:`errorbar` with ``nonnegative=True``.
CI_CLIPPED = "95 % CI (Student t), lower end clipped at 0"

_PROTOCOL_PATTERN = re.compile(r"(?<![a-z])(sctp|tcp|udp)(?![a-z])")


def use_theme() -> None:
    """Apply the project's seaborn theme to matplotlib's settings (every :func:`subplots`
    calls it again, so a notebook that changed the style gets the project's back)."""
    import seaborn as sns  # noqa: PLC0415 - seaborn imports matplotlib: only when plotting

    sns.set_theme(
        context="paper",
        style="whitegrid",
        palette=list(OTHER_COLORS),
        rc={
            "figure.dpi": 100,
            "savefig.dpi": 120,
            "legend.frameon": True,
            "legend.framealpha": 0.85,
            # Same figure, same SVG bytes (matplotlib otherwise salts element ids randomly).
            "svg.hashsalt": "transportlab",
        },
    )


def subplots(*args, **kwargs):
    """``plt.subplots(*args, **kwargs)`` with the project's theme applied first."""
    import matplotlib.pyplot as plt  # noqa: PLC0415

    use_theme()
    return plt.subplots(*args, **kwargs)


def protocol_of(label: object) -> str | None:
    """The protocol a label names ("SCTP unordered" -> "sctp", "PR-SCTP" -> "sctp"), or None."""
    match = _PROTOCOL_PATTERN.search(str(label).lower())
    return match.group(1) if match else None


def styles(
    labels: Iterable[object],
    *,
    protocol: str | None = None,
    markers: bool = True,
    widths: tuple[float, float] = (2.6, 1.0),
) -> dict[object, dict[str, Any]]:
    """Matplotlib keyword arguments (color, marker, linestyle, linewidth, zorder) per label.

    A label naming a protocol gets that protocol's colour (``protocol`` forces one for
    all labels); its first line gets the protocol's colour, marker and line style,
    further lines of the same protocol the next shade (:data:`PROTOCOL_SHADES`), marker
    and dash pattern. Labels naming no protocol get :data:`OTHER_COLORS` in order. Line
    widths fall from ``widths[0]`` for the first label to ``widths[1]`` for the last,
    and each line is drawn above the previous one: lines that coincide show as a thick
    line with thinner, differently dashed lines on it instead of a single colour.
    ``markers=False`` leaves the markers out (dense lines, bars, step plots).
    """
    labels = list(dict.fromkeys(labels))
    seen: dict[str, int] = {}
    others = 0
    result: dict[object, dict[str, Any]] = {}
    count = max(len(labels) - 1, 1)
    for index, label in enumerate(labels):
        proto = protocol or protocol_of(label)
        if proto in PROTOCOL_COLORS:
            variant = seen.get(proto, 0)
            seen[proto] = variant + 1
            shades = PROTOCOL_SHADES[proto]
            color = shades[variant % len(shades)]
            if variant == 0:
                marker, linestyle = PROTOCOL_MARKERS[proto], PROTOCOL_LINESTYLES[proto]
            else:
                marker = VARIANT_MARKERS[variant % len(VARIANT_MARKERS)]
                linestyle = VARIANT_LINESTYLES[variant % len(VARIANT_LINESTYLES)]
        else:
            color = OTHER_COLORS[others % len(OTHER_COLORS)]
            marker = VARIANT_MARKERS[others % len(VARIANT_MARKERS)]
            linestyle = VARIANT_LINESTYLES[others % len(VARIANT_LINESTYLES)]
            others += 1
        width = widths[0] + (widths[1] - widths[0]) * index / count
        result[label] = {
            "color": color,
            "marker": marker,
            "linestyle": linestyle,
            "linewidth": round(width, 2) if len(labels) > 1 else widths[1] + 0.5,
            "zorder": 2 + index * 0.01,
        }
        if not markers:
            del result[label]["marker"]
    return result


BAR_HATCHES: tuple[str, ...] = ("", "//", "..", "xx", "\\\\", "oo")


def bar_styles(labels: Iterable[object], *, protocol: str | None = None) -> dict[object, dict]:
    """Keyword arguments for ``ax.bar`` per label: the colour of :func:`styles`, and a
    hatch on the second, third ... bar of one protocol (two SCTP configurations)."""
    lines = styles(labels, protocol=protocol)
    used: dict[object, int] = {}
    result = {}
    for label, line in lines.items():
        key = protocol or protocol_of(label) or label
        n = used.get(key, 0)
        used[key] = n + 1
        result[label] = {
            "color": line["color"],
            "hatch": BAR_HATCHES[n % len(BAR_HATCHES)],
            "edgecolor": "white" if n else line["color"],
        }
    return result


def ci_errors(
    mean: Sequence[float], low: Sequence[float], high: Sequence[float], nonnegative: bool = True
) -> np.ndarray:
    """Error-bar lengths (2 x n, for ``yerr``) of a confidence interval [low, high].

    With ``nonnegative`` the lower end is clipped at 0: a Student-t interval of a
    quantity that cannot be negative (a rate, a delay, a count) can reach below zero
    with few runs, and drawing it there would show impossible values. Missing ends
    (NaN, e.g. one run) draw no bar.
    """
    mean = np.asarray(mean, dtype=float)
    low = np.asarray(low, dtype=float)
    high = np.asarray(high, dtype=float)
    if nonnegative:
        low = np.maximum(low, 0.0)
    below = np.where(np.isnan(low), 0.0, np.maximum(mean - low, 0.0))
    above = np.where(np.isnan(high), 0.0, np.maximum(high - mean, 0.0))
    return np.vstack([below, above])


def errorbar(ax, x, mean, low, high, *, nonnegative: bool = True, **kwargs):
    """``ax.errorbar`` of ``mean`` with the interval [low, high] (see :func:`ci_errors`)."""
    kwargs.setdefault("capsize", 3)
    return ax.errorbar(x, mean, yerr=ci_errors(mean, low, high, nonnegative), **kwargs)


def save(fig, png: str | Path, formats: Sequence[str] = ("png", "svg")) -> list[Path]:
    """Write ``fig`` as ``<name>.png`` and ``<name>.svg`` beside it, each atomically.

    The SVG is the vector version for papers and slides (dense scatter artists should be
    created with ``rasterized=True`` so it stays small); its metadata carry no date so
    the same figure gives the same bytes.
    """
    png = Path(png)
    written = []
    for fmt in formats:
        target = png.with_suffix(f".{fmt}")
        metadata = {"Date": None} if fmt == "svg" else None

        def write(tmp: str, fmt: str = fmt, metadata: dict | None = metadata) -> None:
            fig.savefig(tmp, dpi=120, bbox_inches="tight", format=fmt, metadata=metadata)

        written.append(atomic_write_with(target, write))
    return written


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
    save(fig, target)
    return target
