"""bottleneck_example's goodput/delay figure: readable delay axis at any bottleneck rate.

Issue 27: at 2 Mb/s the delays span less than a decade and the log axis labelled every
minor tick ("3x10^1 4x10^1 6x10^1 ..."), one on top of the other. The figure is drawn
from hand-built tables (no simulation) with the delay ranges the study gives at 1, 2
and 10 Mb/s.
"""

from __future__ import annotations

import itertools

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402
import pytest  # noqa: E402

from transportlab.studies.bottleneck_example import reproduction  # noqa: E402


class FakeResults:
    def __init__(self, tables, params):
        self._tables, self.params = tables, params

    def __getitem__(self, name):
        return self._tables[name]

    def runs(self, name):
        return 2


def _results(rate_mbps: float, udp_ms: float, tcp_ms: tuple[float, float]) -> FakeResults:
    params = {
        "protocol": "udp", "access_rate_mbps": 10.0, "access_delay_ms": 2.0,
        "bottleneck_rate_mbps": rate_mbps, "bottleneck_delay_ms": 20.0, "queue_packets": 50,
        "packet_size": 1000, "udp_rate_mbps": 0.5, "error_rate": 0.0, "duration": 6.0,
        "warmup": 1.0,
    }  # fmt: skip
    summary = pd.DataFrame(
        [
            {"protocol": p, "error_rate": e, "goodput_bps": g, "run": r}
            for p, g in (("udp", 5e5), ("tcp", 0.95e6 * rate_mbps))
            for e in reproduction.ERROR_RATES
            for r in (1, 2)
        ]
    )
    tcp = np.geomspace(*tcp_ms, 400) / 1e3
    packets = pd.concat(
        [
            pd.DataFrame({"protocol": "udp", "error_rate": 0.0, "event": "received",
                          "delay": np.full(300, udp_ms / 1e3)}),
            pd.DataFrame({"protocol": "tcp", "error_rate": 0.0, "event": "received",
                          "delay": tcp}),
        ],
        ignore_index=True,
    )  # fmt: skip
    return FakeResults({"main": {"summary": summary, "packets": packets}}, params)


@pytest.mark.parametrize(
    ("rate_mbps", "udp_ms", "tcp_ms"),
    [(1.0, 31.06, (31.9, 1571.0)), (2.0, 26.94, (27.1, 818.4)), (10.0, 23.6, (23.7, 60.0))],
)
def test_delay_axis_labels_are_plain_numbers_that_do_not_overlap(rate_mbps, udp_ms, tcp_ms):
    fig, _ = reproduction.goodput_delay_figure(_results(rate_mbps, udp_ms, tcp_ms))
    try:
        fig.canvas.draw()
        delay_axis = fig.axes[1]
        renderer = fig.canvas.get_renderer()
        low, high = delay_axis.get_xlim()
        labels = [
            label
            for label in delay_axis.get_xticklabels(which="both")
            if label.get_visible() and label.get_text() and low <= label.get_position()[0] <= high
        ]
        assert len(labels) >= 2, [label.get_text() for label in labels]
        boxes = sorted((label.get_window_extent(renderer) for label in labels), key=lambda b: b.x0)
        for left, right in itertools.pairwise(boxes):
            assert left.x1 <= right.x0, (rate_mbps, [label.get_text() for label in labels])
        for label in labels:  # plain numbers, no "3x10^1"
            float(label.get_text().replace("\u2212", "-"))
    finally:
        plt.close(fig)
