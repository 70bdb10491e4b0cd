"""The sensor field without ns-3: node placement, ranges and NS-2's two-ray radio arithmetic.

Pure Python (tested against hand calculations); the scenario builds ns-3 from it.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

import pandas as pd

from transportlab.studies.wsn_reporting_interval.parameters import (
    ANTENNA_HEIGHT_M,
    COLUMN_SPACING_M,
    COLUMNS,
    GATEWAY_ROW,
    GATEWAYS,
    N_NODES,
    ROW_SPACING_M,
    ROWS,
    SINK,
    SINK_COLUMN,
    SINK_ROW,
    SPEED_OF_LIGHT,
)

# --- radio arithmetic ----------------------------------------------------------------------------


def wavelength_m(frequency_hz: float) -> float:
    return SPEED_OF_LIGHT / frequency_hz


def crossover_distance_m(frequency_hz: float, height_m: float = ANTENNA_HEIGHT_M) -> float:
    """NS-2 TwoRayGround's crossover distance 4 pi ht hr / lambda."""
    return 4.0 * math.pi * height_m * height_m / wavelength_m(frequency_hz)


def two_ray_rx_power_w(
    tx_power_w: float,
    distance_m: float,
    frequency_hz: float,
    height_m: float = ANTENNA_HEIGHT_M,
    system_loss: float = 1.0,
) -> float:
    """Received power under NS-2's (and ns-3's) TwoRayGround with unit antenna gains."""
    if distance_m <= crossover_distance_m(frequency_hz, height_m):
        lam = wavelength_m(frequency_hz)
        return tx_power_w * lam * lam / ((4.0 * math.pi * distance_m) ** 2 * system_loss)
    return tx_power_w * height_m**4 / (distance_m**4 * system_loss)


def tx_power_for_range_w(
    range_m: float,
    rx_threshold_w: float,
    frequency_hz: float,
    height_m: float = ANTENNA_HEIGHT_M,
    system_loss: float = 1.0,
) -> float:
    """Transmit power that puts exactly ``rx_threshold_w`` at ``range_m`` (NS-2 threshold.cc)."""
    return rx_threshold_w / two_ray_rx_power_w(1.0, range_m, frequency_hz, height_m, system_loss)


def range_for_threshold_m(
    tx_power_w: float, threshold_w: float, frequency_hz: float, height_m: float = ANTENNA_HEIGHT_M
) -> float:
    """Distance at which the received power falls to ``threshold_w`` (e.g. carrier-sense range)."""
    lam = wavelength_m(frequency_hz)
    friis = lam / (4.0 * math.pi) * math.sqrt(tx_power_w / threshold_w)
    if friis <= crossover_distance_m(frequency_hz, height_m):
        return friis
    return (tx_power_w * height_m**4 / threshold_w) ** 0.25


def w_to_dbm(watts: float) -> float:
    return 10.0 * math.log10(watts * 1000.0)


# --- placement -----------------------------------------------------------------------------------


def positions() -> list[tuple[float, float]]:
    """(x, y) of nodes 0..55 in metres; see the package docstring."""

    def place(column: int, row: int) -> tuple[float, float]:
        return ((column + 0.5) * COLUMN_SPACING_M, (row + 0.5) * ROW_SPACING_M)

    result = [place(SINK_COLUMN, SINK_ROW)]
    result += [place(column, GATEWAY_ROW) for column in range(COLUMNS)]
    taken = {(SINK_COLUMN, SINK_ROW)} | {(c, GATEWAY_ROW) for c in range(COLUMNS)}
    for column in range(COLUMNS):
        for row in range(ROWS):
            if (column, row) not in taken:
                result.append(place(column, row))
    assert len(result) == N_NODES
    return result


def is_long_range(node: int) -> bool:
    return node == SINK or node in GATEWAYS


def node_ranges(params: Mapping[str, Any]) -> list[float]:
    return [
        params["long_range_m"] if is_long_range(n) else params["short_range_m"]
        for n in range(N_NODES)
    ]


def link_table(params: Mapping[str, Any]) -> pd.DataFrame:
    """Every ordered pair (a, b) with its distance and whether b receives a's frames."""
    pos = positions()
    ranges = node_ranges(params)
    rows = []
    for a in range(N_NODES):
        for b in range(N_NODES):
            if a != b:
                d = math.dist(pos[a], pos[b])
                rows.append({"tx": a, "rx": b, "distance_m": d, "receives": d <= ranges[a]})
    return pd.DataFrame(rows)
