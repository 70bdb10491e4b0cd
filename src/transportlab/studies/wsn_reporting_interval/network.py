"""The sensor field without ns-3: node placement, ranges and NS-2's two-ray radio arithmetic.

Pure Python (tested against hand calculations); the scenario builds ns-3 from it.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

import numpy as np
import pandas as pd

from transportlab.studies.wsn_reporting_interval.parameters import (
    ANTENNA_HEIGHT_M,
    CLUSTER_DX_M,
    CLUSTER_DY_M,
    CLUSTER_SENSOR_DX_M,
    CLUSTER_SENSOR_DY_M,
    COLUMN_SPACING_M,
    COLUMNS,
    DEFAULT_PLACEMENT,
    FIELD_X_M,
    FIELD_Y_M,
    GATEWAY_ROW,
    GATEWAYS,
    LONG_RANGE_M,
    N_NODES,
    ROW_SPACING_M,
    ROWS,
    SHORT_RANGE_M,
    SINK,
    SINK_COLUMN,
    SINK_ROW,
    SPEED_OF_LIGHT,
    effective_interval_s,
    sources,
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
#
# The seed fixes: node 0 is the sink, nodes 1-7 are gateways, sink and gateways reach
# 150 m, the other 48 sensors 60 m, 56 nodes on 800 m x 400 m (Table 1). Figure 1, the
# field itself, is missing from the text, so where the nodes stand is a choice: the
# ``placement`` parameter offers four. The declared default, ``field``, follows the
# placement rule of the package docstring (what the seed states, nothing else).


def _column_positions() -> list[tuple[float, float]]:
    """``columns``: the layout used before placements became a parameter (see the docstring)."""

    def place(column: int, row: int) -> tuple[float, float]:
        return ((column + 0.5) * COLUMN_SPACING_M, (row + 0.5) * ROW_SPACING_M)

    result = [place(SINK_COLUMN, SINK_ROW)]
    result += [place(column, GATEWAY_ROW) for column in range(COLUMNS)]
    taken = {(SINK_COLUMN, SINK_ROW)} | {(c, GATEWAY_ROW) for c in range(COLUMNS)}
    for column in range(COLUMNS):
        for row in range(ROWS):
            if (column, row) not in taken:
                result.append(place(column, row))
    return result


def _cluster_positions() -> list[tuple[float, float]]:
    """``clusters``: every link symmetric, every sensor one 60-m hop from a 150-m node.

    Why this shape: a 60-m sensor that hears a 150-m node must be within 60 m of it,
    or the 150-m node reaches it one way only (the asymmetric links of ``columns``);
    and a sensor two 60-m hops from a 150-m node is within 120 m of it, so every
    sensor must sit within 60 m of one 150-m node and more than 150 m from all the
    others. The eight 150-m nodes form a zig-zag backbone across the field,
    :data:`CLUSTER_DX_M` apart in x and alternately :data:`CLUSTER_DY_M` above and
    below y = 200 m (145 m per backbone hop); each holds a cluster of six sensors in a
    3 x 2 grid (15 m apart in x, 25 and 50 m out in y) on its outer side. The margins
    to the two ranges are at least 4 m (sensor to own head <= 52.2 m, to any other
    150-m node >= 154.0 m, backbone hop 145.0 m), so no link is at the edge of a range.
    The sink is the fourth backbone node (x = 347.5 m); sensors 8 + 6k ... 13 + 6k
    belong to 150-m node k (k = 0 is the sink). One-way links are removed by this
    criterion of ours, which the seed does not state.
    """
    heads = [
        (400.0 + CLUSTER_DX_M * (i - 3.5), 200.0 + (CLUSTER_DY_M if i % 2 == 0 else -CLUSTER_DY_M))
        for i in range(8)
    ]
    # Backbone position of the sink and of gateways 1..7, in node order.
    order = [3, 0, 1, 2, 4, 5, 6, 7]
    result = [heads[i] for i in order]
    for i in order:
        x, y = heads[i]
        outward = 1.0 if y > 200.0 else -1.0
        for dy in CLUSTER_SENSOR_DY_M:
            for dx in CLUSTER_SENSOR_DX_M:
                result.append((x + dx, y + outward * dy))
    return result


def _random_positions(rng: np.random.Generator) -> list[tuple[float, float]]:
    """``random``: a random deployment with the seed's roles (stop 18's layout).

    The sink at the field's centre; each gateway uniform at 100-145 m from a
    uniformly chosen node already placed among the sink and earlier gateways (so
    the 150-m backbone is connected, as gateways "act as gateway to sink node");
    each 60-m sensor uniform in the disk of radius 55 m around a uniformly chosen
    150-m node. Points outside the field are drawn again. Nothing keeps a sensor
    away from the other 150-m nodes, so some links are one-way and some sensors
    may have no two-way route (``connectivity`` says how many). The centre, the
    100-145 m spacing and the 55-m margin are choices of ours, not the seed's.
    """

    def inside(x: float, y: float) -> bool:
        return 0.0 <= x <= FIELD_X_M and 0.0 <= y <= FIELD_Y_M

    def around(centre, low: float, high: float) -> tuple[float, float]:
        while True:
            r = math.sqrt(rng.uniform(low * low, high * high))  # uniform over the annulus
            a = rng.uniform(0.0, 2.0 * math.pi)
            x, y = centre[0] + r * math.cos(a), centre[1] + r * math.sin(a)
            if inside(x, y):
                return (float(x), float(y))

    heads = [(FIELD_X_M / 2, FIELD_Y_M / 2)]
    for _ in GATEWAYS:
        heads.append(around(heads[int(rng.integers(len(heads)))], 100.0, 145.0))
    sensors = [
        around(heads[int(rng.integers(len(heads)))], 0.0, 55.0) for _ in range(N_NODES - len(heads))
    ]
    return heads + sensors


def _field_positions(
    rng: np.random.Generator, long_range_m: float, short_range_m: float
) -> list[tuple[float, float]]:
    """``field`` (the declared default): the placement rule of the package docstring.

    Every node uniform over the 800 m x 400 m field, subject only to what the seed's
    text makes of the roles: the sink anywhere; gateway k (1..7, in order) anywhere
    within ``long_range_m`` of the sink or of a gateway placed before it (the 150-m
    nodes "act as gate way to sink node": each reaches the sink over 150-m nodes);
    each 60-m sensor anywhere within ``short_range_m`` of the sink or a gateway (it
    "can transmit only to a short distance": to a 150-m node). Each is drawn uniform
    over the whole field and drawn again until it satisfies its condition, so it is
    uniform over the part of the field its role allows. Nothing else is imposed: a
    sensor between 60 and 150 m from another 150-m node hears it one way (the seed's
    mixed ranges create one-way links), sensors can be close to several 150-m nodes or
    to each other.
    """

    def draw() -> tuple[float, float]:
        return (float(rng.uniform(0.0, FIELD_X_M)), float(rng.uniform(0.0, FIELD_Y_M)))

    def near(point: tuple[float, float], centres, radius: float) -> bool:
        return any(math.dist(point, c) <= radius for c in centres)

    def draw_near(centres, radius: float) -> tuple[float, float]:
        while True:
            point = draw()
            if near(point, centres, radius):
                return point

    heads = [draw()]
    for _ in GATEWAYS:
        heads.append(draw_near(heads, long_range_m))
    sensors = [draw_near(heads, short_range_m) for _ in range(N_NODES - len(heads))]
    return heads + sensors


def _placement_rng(params: Mapping[str, Any], seed: int | None, run: int | None):
    """The generator of a random placement: fixed field ``placement_seed`` k >= 1, or
    (``placement_seed`` 0) the replication's own field, from (seed, run)."""
    fixed = int(params.get("placement_seed", 0))
    if fixed > 0:
        return np.random.default_rng(np.random.SeedSequence([fixed]))
    if seed is None or run is None:
        raise ValueError(
            f"placement {params.get('placement')!r} with placement_seed 0 draws a field per "
            "replication: pass its seed and run (or a placement_seed >= 1)"
        )
    return np.random.default_rng(replication_seed_sequence(seed, run, FIELD_STREAM))


#: independent random streams of one replication drawn outside the simulators, the same
#: for ns-3 and NS-2 (``replication_seed_sequence``)
FIELD_STREAM, START_STREAM = 0, 1


def replication_seed_sequence(seed: int, run: int, stream: int) -> np.random.SeedSequence:
    """numpy's seed of stream ``stream`` (:data:`FIELD_STREAM`, :data:`START_STREAM`) of
    replication (``seed``, ``run``): what both simulators place and start a run from."""
    for label, value in (("seed", seed), ("run", run)):
        if isinstance(value, bool) or not isinstance(value, int | np.integer) or value < 1:
            raise ValueError(f"{label} must be an int >= 1, got {value!r}")
    return np.random.SeedSequence([int(seed), int(run), int(stream)])


def positions(
    params: Mapping[str, Any] | None = None, seed: int | None = None, run: int | None = None
) -> list[tuple[float, float]]:
    """(x, y) of nodes 0..55 in metres for ``params['placement']`` (default: the default).

    ``field`` and ``random`` with ``placement_seed`` 0 draw the field of replication
    (``seed``, ``run``); with ``placement_seed`` k >= 1 the one field k.
    """
    params = params or {}
    placement = params.get("placement", DEFAULT_PLACEMENT)
    if placement == "clusters":
        result = _cluster_positions()
    elif placement == "columns":
        result = _column_positions()
    elif placement == "random":
        if int(params.get("placement_seed", 0)) > 0:  # stop 18's fields 1-5, as committed
            result = _random_positions(np.random.default_rng(int(params["placement_seed"])))
        else:
            result = _random_positions(_placement_rng(params, seed, run))
    elif placement == "field":
        result = _field_positions(
            _placement_rng(params, seed, run),
            float(params.get("long_range_m", LONG_RANGE_M)),
            float(params.get("short_range_m", SHORT_RANGE_M)),
        )
    else:
        raise ValueError(f"unknown placement {placement!r}")
    assert len(result) == N_NODES
    return result


def start_times(params: Mapping[str, Any], seed: int, run: int) -> dict[int, float]:
    """When each reporting sensor's CBR starts (its first report), the same in ns-3 and NS-2.

    ``start_mode`` ``staggered``: ``start_time`` plus a uniform draw from [0, interval) per
    sensor, in the order of ``parameters.sources``, from the replication's own stream
    (:data:`START_STREAM`); ``synchronized``: every sensor at ``start_time``.
    """
    nodes = sources(params)
    start = float(params["start_time"])
    if params["start_mode"] == "synchronized":
        return dict.fromkeys(nodes, start)
    rng = np.random.default_rng(replication_seed_sequence(seed, run, START_STREAM))
    draws = rng.uniform(0.0, effective_interval_s(params), size=len(nodes))
    return {node: start + float(draw) for node, draw in zip(nodes, draws, strict=True)}


def is_long_range(node: int) -> bool:
    return node == SINK or node in GATEWAYS


def node_ranges(params: Mapping[str, Any]) -> list[float]:
    return [
        params["long_range_m"] if is_long_range(n) else params["short_range_m"]
        for n in range(N_NODES)
    ]


def link_table(
    params: Mapping[str, Any], seed: int | None = None, run: int | None = None
) -> pd.DataFrame:
    """Every ordered pair (a, b) with its distance and whether b receives a's frames."""
    pos = positions(params, seed, run)
    ranges = node_ranges(params)
    rows = []
    for a in range(N_NODES):
        for b in range(N_NODES):
            if a != b:
                d = math.dist(pos[a], pos[b])
                rows.append({"tx": a, "rx": b, "distance_m": d, "receives": d <= ranges[a]})
    return pd.DataFrame(rows)


def connectivity(
    params: Mapping[str, Any], seed: int | None = None, run: int | None = None
) -> dict[str, Any]:
    """Link facts of a placement: what decides the default, before anything is simulated.

    ``asymmetric_links``: unordered pairs where one node receives the other but not the
    reverse (802.11 unicast needs both directions: RTS/CTS, DATA/ACK); ``connected_sensors``:
    sensors with a path of symmetric links to the sink (the ones AODV can serve);
    ``max_hops``: the longest such shortest path.
    """
    links = link_table(params, seed, run)
    receives = {
        (a, b) for a, b, r in zip(links["tx"], links["rx"], links["receives"], strict=True) if r
    }
    # An unordered pair with one direction only appears once among the ordered pairs.
    asymmetric = sum(1 for a, b in receives if (b, a) not in receives)
    neighbours: dict[int, list[int]] = {n: [] for n in range(N_NODES)}
    for a, b in receives:
        if (b, a) in receives:
            neighbours[a].append(b)
    hops = {SINK: 0}
    frontier = [SINK]
    while frontier:
        nxt = []
        for node in frontier:
            for other in neighbours[node]:
                if other not in hops:
                    hops[other] = hops[node] + 1
                    nxt.append(other)
        frontier = nxt
    return {
        "placement": params.get("placement", DEFAULT_PLACEMENT),
        "placement_seed": params.get("placement_seed", 0),
        "run": run if int(params.get("placement_seed", 0)) == 0 else None,
        "links": len(receives),
        "asymmetric_links": asymmetric,
        "connected_sensors": len(hops) - 1,
        "max_hops": max(hops.values()),
        "mean_hops": float(np.mean([h for n, h in hops.items() if n != SINK]))
        if len(hops) > 1
        else float("nan"),
    }
