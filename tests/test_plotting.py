"""transportlab.engine.plotting: one palette in every figure, CIs never below zero, SVG beside PNG.

The figure functions are called on small hand-built tables (no simulation), through a
stand-in for :class:`transportlab.engine.results.Results` that serves them.
"""

from __future__ import annotations

import ast
import math
import re
from pathlib import Path

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402
import pytest  # noqa: E402
from matplotlib.colors import to_hex  # noqa: E402

from transportlab import studies  # noqa: E402
from transportlab.engine import plotting  # noqa: E402

SRC = Path(plotting.__file__).parents[1]
FIGURE_MODULES = sorted((SRC / "studies").glob("*/reproduction.py")) + [
    SRC / "studies" / "sctp_validation" / "differences.py"
]


class FakeResults:
    """What a figure function reads from Results: tables per experiment, params, runs."""

    def __init__(self, tables, params=None, runs=3, points=None, study=None):
        self._tables, self.params, self._runs = tables, dict(params or {}), runs
        self.study = study
        self._points = points or {}
        self.quick = True

    def __getitem__(self, name):
        return self._tables[name]

    def runs(self, name):
        return self._runs

    def points(self, name):
        return self._points.get(name, [{}])


def _artist_colors(fig):
    """(label, hex colour) of every line, bar and error bar in ``fig``'s axes."""
    found = []
    for ax in fig.axes:
        for line in ax.get_lines():
            found.append((line.get_label(), to_hex(line.get_color())))
        for patch in ax.patches:
            found.append((patch.get_label(), to_hex(patch.get_facecolor())))
        for collection in ax.collections:
            for color in collection.get_edgecolor():
                found.append((collection.get_label(), to_hex(color)))
    return found


def _neutral(color: str) -> bool:
    """Black, white and greys (reference lines, whiskers, bands) are not palette colours."""
    r, g, b = (int(color[i : i + 2], 16) for i in (1, 3, 5))
    return max(r, g, b) - min(r, g, b) <= 8


def assert_one_palette(fig):
    shades = {c for colors in plotting.PROTOCOL_SHADES.values() for c in colors}
    allowed = shades | set(plotting.OTHER_COLORS)
    for label, color in _artist_colors(fig):
        if _neutral(color):
            continue
        assert color in allowed, f"{label!r} drawn in {color}, not in the palette"
        protocol = plotting.protocol_of(label)
        if protocol and not label.startswith("_"):
            assert color in plotting.PROTOCOL_SHADES[protocol], (label, color)


# --------------------------------------------------------------------------- the helpers


def test_protocol_of_reads_labels():
    assert plotting.protocol_of("SCTP unordered") == "sctp"
    assert plotting.protocol_of("PR-SCTP lifetime 150 ms") == "sctp"
    assert plotting.protocol_of("tcp-per-object") == "tcp"
    assert plotting.protocol_of("UDP (simulated)") == "udp"
    assert plotting.protocol_of("cjm") is None
    assert plotting.protocol_of("usrsctp") is None  # a stack, not the protocol label


def test_styles_keep_protocol_colours_and_separate_coinciding_lines():
    style = plotting.styles(["UDP", "TCP", "SCTP ordered", "SCTP unordered"])
    assert style["UDP"]["color"] == plotting.PROTOCOL_COLORS["udp"]
    assert style["TCP"]["color"] == plotting.PROTOCOL_COLORS["tcp"]
    assert style["SCTP ordered"]["color"] == plotting.PROTOCOL_COLORS["sctp"]
    # The second SCTP line: another shade of SCTP's colour, dashes and marker; every line
    # is thinner and above the ones drawn before it.
    assert style["SCTP unordered"]["color"] == plotting.PROTOCOL_SHADES["sctp"][1]
    assert style["SCTP unordered"]["color"] != style["SCTP ordered"]["color"]
    assert style["SCTP ordered"]["linestyle"] != style["SCTP unordered"]["linestyle"]
    assert style["SCTP ordered"]["marker"] != style["SCTP unordered"]["marker"]
    widths = [s["linewidth"] for s in style.values()]
    zorders = [s["zorder"] for s in style.values()]
    assert widths == sorted(widths, reverse=True) and len(set(widths)) == 4
    assert zorders == sorted(zorders) and len(set(zorders)) == 4
    # A non-protocol category never takes a protocol colour.
    others = plotting.styles(["fixed", "adaptive", "cjm"])
    shades = {c for colors in plotting.PROTOCOL_SHADES.values() for c in colors}
    assert not {s["color"] for s in others.values()} & shades


def test_bar_styles_hatch_the_second_bar_of_a_protocol():
    bars = plotting.bar_styles(["sctp-streams", "sctp-one-stream", "tcp-one", "tcp-per-object"])
    assert [b["hatch"] for b in bars.values()] == ["", "//", "", "//"]
    assert bars["tcp-one"]["color"] == plotting.PROTOCOL_COLORS["tcp"]


def test_ci_lower_end_clipped_at_zero_for_non_negative_quantities():
    # Hand-built: mean 10 with a Student-t CI [-5, 25] (n = 2); mean 2 within [1, 3];
    # one run (NaN ends) draws no bar.
    errors = plotting.ci_errors([10.0, 2.0, 4.0], [-5.0, 1.0, math.nan], [25.0, 3.0, math.nan])
    np.testing.assert_array_equal(errors, [[10.0, 1.0, 0.0], [15.0, 1.0, 0.0]])
    unclipped = plotting.ci_errors([10.0], [-5.0], [25.0], nonnegative=False)
    np.testing.assert_array_equal(unclipped, [[15.0], [15.0]])

    fig, ax = plotting.subplots()
    plotting.errorbar(ax, [0, 1], [10.0, 2.0], [-5.0, 1.0], [25.0, 3.0])
    fig.canvas.draw()
    lowest = min(
        segment[:, 1].min() for c in ax.collections for segment in c.get_segments()
    )  # the error bar segments
    assert lowest == 0.0
    plt.close(fig)


def test_save_writes_png_and_identical_svg_beside_it(tmp_path):
    fig, ax = plotting.subplots()
    ax.plot([0, 1], [0, 1], label="SCTP")
    written = plotting.save(fig, tmp_path / "f.png")
    assert [p.name for p in written] == ["f.png", "f.svg"]
    assert (tmp_path / "f.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    first = (tmp_path / "f.svg").read_text()
    assert first.lstrip().startswith("<?xml") and "<svg" in first
    plotting.save(fig, tmp_path / "f.png")
    assert (tmp_path / "f.svg").read_text() == first  # no date, no random ids
    assert sorted(p.name for p in tmp_path.iterdir()) == ["f.png", "f.svg"]  # no temporaries
    plt.close(fig)


def test_save_figure_puts_svg_beside_png(tmp_path, monkeypatch):
    monkeypatch.setattr(plotting, "figures_dir", lambda study, quick: tmp_path / study)
    fig, ax = plotting.subplots()
    ax.plot([0, 1], [1, 0])
    target = plotting.save_figure(fig, "s", "name", n_runs=3)
    assert target == tmp_path / "s" / "name.png"
    assert (tmp_path / "s" / "name.svg").is_file()
    assert "n = 3 runs" in (tmp_path / "s" / "name.svg").read_text()
    plt.close(fig)


# --------------------------------------------------------------------------- figure code


@pytest.mark.parametrize("path", FIGURE_MODULES, ids=lambda p: p.parent.name)
def test_figure_code_uses_the_project_palette(path):
    """No figure code picks its own colours or bypasses the theme."""
    source = path.read_text()
    assert not re.search(r"""["']tab:\w+["']""", source), "matplotlib tab: colour"
    assert "plt.cm." not in source, "colour map instead of the palette"
    assert "plt.subplots(" not in source, "plt.subplots bypasses plotting.subplots (theme)"
    # A module that creates figures itself (rather than delegating, as sctp_validation
    # does to transportlab.studies.sctp_validation) creates every one through plotting.subplots.
    tree = ast.parse(source)
    creates = [
        node
        for node in ast.walk(tree)
        if isinstance(node, ast.Attribute) and node.attr in ("subplots", "figure", "subplot")
    ]
    assert all(
        isinstance(node.value, ast.Name) and node.value.id == "plotting" for node in creates
    ), "a figure created outside plotting.subplots"


def _close(fig):
    plt.close(fig)


def test_sip_figures_one_palette():
    from transportlab.studies.sip_over_sctp import reproduction as sip  # noqa: PLC0415

    rows = [
        {"protocol": p, "message_size": size, "goodput_mbps": g, "wire_bound_mbps": g * 1.1}
        for p, base in (("udp", 90.0), ("tcp", 80.0), ("sctp", 70.0))
        for size, g in ((256, base / 2), (1024, base))
    ]
    results = FakeResults({"throughput": {"summary": pd.DataFrame(rows)}})
    fig, _ = sip.throughput_figure(results)
    assert_one_palette(fig)
    labels = {line.get_label(): line for line in fig.axes[0].get_lines()}
    for protocol in sip._protocols(results):
        line = labels[protocol.upper()]
        assert to_hex(line.get_color()) == plotting.PROTOCOL_COLORS[protocol]
    _close(fig)


def test_voip_rate_delay_lines_all_visible_and_one_palette():
    from transportlab.studies.voip_cjm import reproduction as voip  # noqa: PLC0415

    configs = [
        {"protocol": "udp", "sctp_delivery": "ordered"},
        {"protocol": "tcp", "sctp_delivery": "ordered"},
        {"protocol": "sctp", "sctp_delivery": "ordered"},
        {"protocol": "sctp", "sctp_delivery": "unordered"},
    ]
    per_second = pd.DataFrame(
        [
            dict(c, run=1, second=s, frames=2400, delay_max_ms=60.0)
            for c in configs
            for s in range(60)
        ]
    )
    sample = pd.DataFrame(
        [
            dict(c, run=1, send=0.02 * i, arrival=0.02 * i + 0.024)
            for c in configs
            for i in range(50)
        ]
    )
    results = FakeResults({"main": {"per_second": per_second, "sample": sample}})
    fig, _ = voip.rate_delay_figure(results)
    assert_one_palette(fig)
    # Identical series in the first panel: no two lines may look the same.
    lines = [line for line in fig.axes[0].get_lines() if not line.get_label().startswith("_")]
    assert len(lines) == 4
    looks = {
        (to_hex(line.get_color()), str(line.get_linestyle()), line.get_linewidth(),
         line.get_marker())
        for line in lines
    }  # fmt: skip
    assert len(looks) == 4
    _close(fig)


def test_multihoming_voice_delay_lines_all_visible_and_one_palette():
    from transportlab.studies.multihoming_failover import reproduction as mh  # noqa: PLC0415

    rows = []
    for policy, value in mh.POLICIES:
        for i in range(40):
            delay = 0.010 if policy in ("udp", "rtx") and value == 0 else 0.010 + 0.001 * i
            rows.append({"policy": policy, "pr_value": value, "loss_rate": 0.05, "delay_s": delay})
    results = FakeResults({"prsctp_voice": {"delays": pd.DataFrame(rows)}}, params={})
    fig, _ = mh.voice_delay_figure(results)
    assert_one_palette(fig)
    lines = [line for line in fig.axes[0].get_lines() if not line.get_label().startswith("_")]
    assert len(lines) == len(mh.POLICIES)
    looks = {(str(line.get_linestyle()), line.get_linewidth()) for line in lines}
    assert len(looks) == len(lines)
    udp = next(line for line in lines if line.get_label() == "UDP")
    assert to_hex(udp.get_color()) == plotting.PROTOCOL_COLORS["udp"]
    sctp = [line for line in lines if line.get_label() != "UDP"]
    assert {to_hex(line.get_color()) for line in sctp} <= set(plotting.PROTOCOL_SHADES["sctp"])
    _close(fig)


def test_wsn_metrics_figure_clips_ci_at_zero_and_one_palette():
    from transportlab.studies.wsn_reporting_interval import analysis  # noqa: PLC0415
    from transportlab.studies.wsn_reporting_interval import reproduction as wsn  # noqa: PLC0415

    rows = []
    # Two runs far apart: the Student-t interval of the mean (t = 12.7) reaches far below 0.
    for protocol in ("udp", "tcp", "sctp"):
        for interval in (1.0, 5.0):
            for run, value in ((1, 0.5), (2, 9.5)):
                row = {"protocol": protocol, "reporting_interval": interval, "run": run}
                row.update({column: value for column in analysis.METRICS})
                rows.append(row)
    results = FakeResults(
        {"intervals": {"summary": pd.DataFrame(rows)}}, study=studies.get("wsn_reporting_interval")
    )
    fig, _ = wsn.metrics_vs_interval_figure(results)
    assert_one_palette(fig)
    fig.canvas.draw()
    for ax in fig.axes:
        segments = [s for c in ax.collections for s in c.get_segments()]
        assert segments and min(s[:, 1].min() for s in segments) >= 0.0
    assert "clipped at 0" in fig._suptitle.get_text()
    _close(fig)
