"""transportlab.ns3.simulation: the same parameters, seed and run give bit-identical results."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest
import random_scenario

from transportlab.ns3.simulation import RunIdentity, run_until, simulation

TESTS = Path(__file__).resolve().parent


@pytest.fixture(scope="module")
def first():
    return random_scenario.scenario(seed=1, run=1)


def test_the_scenario_is_random_enough_to_matter(first):
    sent = first[first["event"] == "sent"]
    received = first[first["event"] == "received"]
    assert len(sent) > 50
    assert 0 < len(sent) - len(received) < len(sent) // 5  # the error model dropped some


def test_two_runs_in_one_process_are_identical(first):
    pd.testing.assert_frame_equal(random_scenario.scenario(seed=1, run=1), first)


def test_another_run_number_or_seed_differs(first):
    other_run = random_scenario.scenario(seed=1, run=2)
    other_seed = random_scenario.scenario(seed=2, run=1)
    assert random_scenario.digest(other_run) != random_scenario.digest(first)
    assert random_scenario.digest(other_seed) != random_scenario.digest(first)
    assert random_scenario.digest(other_seed) != random_scenario.digest(other_run)


@pytest.mark.slow
def test_two_fresh_processes_give_the_same_result_as_this_one(first):
    env = dict(os.environ, PYTHONPATH=str(TESTS))
    command = [sys.executable, str(TESTS / "random_scenario.py"), "1", "1"]
    processes = [
        subprocess.Popen(command, env=env, stdout=subprocess.PIPE, text=True) for _ in range(2)
    ]
    digests = [process.communicate(timeout=300)[0].split()[-1] for process in processes]
    assert [process.returncode for process in processes] == [0, 0]
    assert digests == [random_scenario.digest(first)] * 2


def _packet_size_default(ns) -> int:
    app = ns.CreateObject[ns.OnOffApplication]()
    value = ns.UintegerValue()
    app.GetAttribute("PacketSize", value)
    return int(value.Get())


def test_config_defaults_and_the_simulator_are_reset_between_runs():
    with simulation() as ns:
        original = _packet_size_default(ns)
        ns.Config.SetDefault("ns3::OnOffApplication::PacketSize", ns.UintegerValue(77))
        assert _packet_size_default(ns) == 77
        nodes = ns.NodeContainer()
        nodes.Create(3)
        run_until(1.5)
        assert ns.Simulator.Now().GetSeconds() == 1.5
    assert ns.Simulator.Now().GetSeconds() == 0.0
    with simulation() as ns:
        assert _packet_size_default(ns) == original
        assert ns.NodeList.GetNNodes() == 0
        enabled = ns.BooleanValue()
        ns.GlobalValue.GetValueByName("ChecksumEnabled", enabled)
        assert enabled.Get()


def test_the_simulator_is_destroyed_even_when_the_block_raises():
    with pytest.raises(RuntimeError, match="boom"), simulation() as ns:
        ns.NodeContainer().Create(2)
        raise RuntimeError("boom")
    assert ns.NodeList.GetNNodes() == 0


@pytest.mark.parametrize(
    ("seed", "run", "error"),
    [(0, 1, ValueError), (1, 0, ValueError), (True, 1, TypeError), (1, 2.0, TypeError)],
)
def test_bad_seed_or_run_is_refused(seed, run, error):
    with pytest.raises(error):
        RunIdentity(seed, run)


def test_run_until_needs_a_positive_time():
    with pytest.raises(ValueError, match="stop time must be > 0"):
        run_until(0)


def test_run_until_takes_absolute_times():
    with simulation() as ns:
        ns.NodeContainer().Create(1)
        run_until(1.0)
        run_until(2.5)  # until 2.5 s, not 1.0 + 2.5 s
        assert ns.Simulator.Now().GetSeconds() == 2.5
        run_until(2.5)  # already there: nothing to do
        assert ns.Simulator.Now().GetSeconds() == 2.5
        with pytest.raises(ValueError, match="before the current simulated time"):
            run_until(2.0)
        assert ns.Simulator.Now().GetSeconds() == 2.5


def _ticks_during_a_run() -> tuple[int, float]:
    """Turns a 5-ms ticker thread gets while ns-3 simulates 12 s of a 50 Mb/s flow.

    12 s take about 0.7 s on an idle machine (4 s took 0.23-0.28 s, too short to tell).
    """
    import threading
    import time

    from transportlab.ns3.simulation import run_until, simulation

    ticks = []
    done = threading.Event()

    def ticker():
        while not done.is_set():
            ticks.append(time.perf_counter())
            time.sleep(0.005)

    with simulation(seed=1, run=1) as ns:
        nodes = ns.NodeContainer()
        nodes.Create(2)
        p2p = ns.PointToPointHelper()
        p2p.SetDeviceAttribute("DataRate", ns.StringValue("100Mbps"))
        devices = p2p.Install(nodes)
        ns.InternetStackHelper().Install(nodes)
        addresses = ns.Ipv4AddressHelper()
        addresses.SetBase(ns.Ipv4Address("10.9.1.0"), ns.Ipv4Mask("255.255.255.0"))
        interfaces = addresses.Assign(devices)
        sink = ns.PacketSinkHelper(
            "ns3::UdpSocketFactory", ns.InetSocketAddress(ns.Ipv4Address.GetAny(), 9).ConvertTo()
        )
        sink.Install(nodes.Get(1))
        source = ns.OnOffHelper(
            "ns3::UdpSocketFactory", ns.InetSocketAddress(interfaces.GetAddress(1), 9).ConvertTo()
        )
        source.SetConstantRate(ns.DataRate("50Mbps"), 1000)
        source.Install(nodes.Get(0)).Start(ns.Seconds(0.1))
        thread = threading.Thread(target=ticker)
        thread.start()
        time.sleep(0.02)  # the ticker is running before Run starts
        start = time.perf_counter()
        run_until(12.0)
        elapsed = time.perf_counter() - start
        done.set()
        thread.join()
    assert elapsed > 0.3, "the run was too short to tell"
    # the first tick may land just after Run started, before the switch
    during = [t for t in ticks if start + 0.01 < t < start + elapsed]
    return len(during), elapsed


@pytest.mark.slow
def test_simulator_run_lets_other_python_threads_run_when_asked():
    """A Dask worker must answer heartbeats while ns-3 runs: Run releases the GIL there."""
    import gc

    from transportlab.ns3.simulation import other_threads_run_during_simulations

    with other_threads_run_during_simulations():
        assert not gc.isenabled()
        ticks, elapsed = _ticks_during_a_run()
    assert gc.isenabled()
    assert ticks >= 0.2 * elapsed / 0.005


def test_simulator_run_keeps_the_gil_by_default():
    """In a notebook kernel, no other Python thread runs while ns-3 does."""
    ticks, elapsed = _ticks_during_a_run()
    assert ticks <= 2, f"{ticks} ticks in {elapsed:.2f} s"
