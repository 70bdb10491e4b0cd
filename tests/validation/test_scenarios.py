"""Scenario descriptions: validation before anything runs, and the shared random loss
(pure Python; no ns-3, no usrsctp)."""

from __future__ import annotations

import pytest

from transportlab.studies.sctp_validation import stacks


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"rate_mbps": 0}, "rate_mbps"),
        ({"mtu": 200}, "mtu"),
        ({"message_size": 0}, "message_size"),
        ({"message_size": 200_000, "sndbuf": 131072}, "message_size"),
        ({"drop_packets": (0,)}, "drop_packets"),
        ({"drop_tsns": ((5, 0),)}, "drop_tsns"),
        ({"drop_tsns": ((5, 1), (5, 2))}, "repeat"),
        ({"loss_rate": 0.9}, "loss_rate"),
        ({"rto_min_ms": 2000, "rto_initial_ms": 1000}, "rto_min_ms"),
        ({"sack_delay_ms": 600}, "sack_delay_ms"),
        ({"streams": 0}, "streams"),
        ({"expect": ("no_such_difference",)}, "unknown expected"),
        ({"name": "a,b"}, "name"),
    ],
)
def test_bad_scenarios_are_refused_with_the_field_named(changes, message):
    with pytest.raises(stacks.ScenarioError, match=message):
        stacks.Scenario(name=changes.pop("name", "bad"), **changes)


def test_unknown_profile_is_refused():
    with pytest.raises(stacks.ScenarioError, match="profile"):
        stacks.Scenario(name="x").oracle_args("nonsense")


def test_oracle_arguments_carry_every_knob():
    sc = stacks.Scenario(name="x", drop_packets=(7, 9), drop_tsns=((3, 2),), loss_rate=0.05)
    args = dict(a.split("=", 1) for a in sc.oracle_args("aligned", seed=4))
    assert args["drop_packets"] == "7,9"
    assert args["drop_tsns"] == "3:2"
    assert float(args["loss_rate"]) == 0.05
    assert args["seed"] == "4"
    assert args["abc_l"] == "1" and args["cwnd_maxburst"] == "0"
    assert "abc_l" not in dict(a.split("=", 1) for a in sc.oracle_args("default"))


def test_scenario_sets_are_valid_and_large_enough():
    quick, full = stacks.quick_scenarios(), stacks.full_scenarios()
    assert 10 <= len(quick) <= 14
    assert len(full) >= 40
    names = [s.name for s in full]
    assert len(set(names)) == len(names)
    groups = {s.group for s in full}
    assert {"no loss", "single loss", "burst", "random", "rto", "rwnd", "streams"} <= groups


def test_random_loss_is_a_function_of_seed_tsn_and_transmission():
    a = stacks.random_loss_tsns(0.1, 1, 5000)
    assert a == stacks.random_loss_tsns(0.1, 1, 5000)
    assert a != stacks.random_loss_tsns(0.1, 2, 5000)
    assert 0.08 < len(a) / 5000 < 0.12
    assert stacks.random_loss_tsns(0.0, 1, 1000) == []
    # a retransmission of a lost TSN is an independent draw
    lost = a[:200]
    again = [t for t in lost if stacks.random_loss(0.1, 1, t, 1)]
    assert len(again) < len(lost) / 3


def test_importing_the_module_does_not_load_ns3():
    import subprocess
    import sys

    code = (
        "import sys, transportlab.studies.sctp_validation; "
        "print(any(m == 'cppyy' or m.startswith('ns3') for m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"
