"""Named SCTP stack presets (SctpStackHelper::GetPreset / SetPreset): RFC 9260, Linux,
FreeBSD/usrsctp. Each preset must set, on sockets created afterwards, every attribute it
lists; the RFC 9260 preset is the model's own defaults; SCTP-PF is on only for Linux.
"""

from __future__ import annotations

import pytest

from transportlab.ns3.simulation import simulation

PRESETS = ("rfc9260", "linux", "freebsd", "usrsctp")
PREFIX = "ns3::SctpSocket::"


def _preset(ns, name: str) -> dict[str, str]:
    return {str(k): str(v) for k, v in ns.SctpStackHelper.GetPreset(name)}


def _canonical(ns, attribute: str, value: str) -> str:
    """The attribute value as ns-3 serialises it (\"3s\" -> \"+3s\", \"0.125\" -> ...)."""
    info = ns.TypeId.AttributeInformation()
    assert ns.TypeId.LookupByName("ns3::SctpSocket").LookupAttributeByName(attribute, info)
    valid = info.checker.CreateValidValue(ns.StringValue(value))
    assert valid, (attribute, value)
    return str(valid.SerializeToString(info.checker))


def _socket_value(ns, socket, attribute: str) -> str:
    value = ns.StringValue()  # ns-3 serialises the attribute with its own checker
    socket.GetAttribute(attribute, value)
    return str(value.Get())


@pytest.mark.parametrize("name", PRESETS)
def test_preset_sets_every_attribute_it_lists(name):
    with simulation(seed=1, run=1) as ns:
        preset = _preset(ns, name)
        assert len(preset) >= 12
        ns.SctpStackHelper.SetPreset(name)
        socket = ns.CreateObject[ns.SctpSocket]()
        for full, value in preset.items():
            assert full.startswith(PREFIX)
            attribute = full[len(PREFIX) :]
            assert _socket_value(ns, socket, attribute) == _canonical(ns, attribute, value), (
                name,
                attribute,
            )


def test_rfc9260_preset_is_the_model_default():
    with simulation(seed=1, run=1) as ns:
        socket = ns.CreateObject[ns.SctpSocket]()  # no preset applied
        for full, value in _preset(ns, "rfc9260").items():
            attribute = full[len(PREFIX) :]
            assert _socket_value(ns, socket, attribute) == _canonical(ns, attribute, value), (
                attribute
            )


def _pf_enabled(preset: dict[str, str]) -> bool:
    return int(preset[PREFIX + "PotentiallyFailedMaxRetrans"]) < int(
        preset[PREFIX + "PathMaxRetrans"]
    )


def test_documented_values():
    from transportlab import ns

    rfc, linux, bsd = (_preset(ns, n) for n in ("rfc9260", "linux", "freebsd"))
    # RFC 9260 section 16: RTO.Initial 1 s; Linux rto_initial 3000 ms; FreeBSD rto_initial
    # SCTP_RTO_INITIAL 1000 ms (3000 before 2021; tests/sctp/test_preset_sources.py).
    assert rfc[PREFIX + "RtoInitial"] == bsd[PREFIX + "RtoInitial"] == "1s"
    assert linux[PREFIX + "RtoInitial"] == "3s"
    for preset in (rfc, linux, bsd):
        assert preset[PREFIX + "PathMaxRetrans"] == "5"
        assert preset[PREFIX + "AssociationMaxRetrans"] == "10"
        assert preset[PREFIX + "HbInterval"] == "30s"
        assert preset[PREFIX + "SackDelay"] == "200ms"
        assert preset[PREFIX + "MaxBurst"] == "4"
    # SCTP-PF: Linux pf_enable 1 / pf_retrans 0; FreeBSD path_pf_threshold 0xFFFF (off).
    assert _pf_enabled(linux) and linux[PREFIX + "PotentiallyFailedMaxRetrans"] == "0"
    assert not _pf_enabled(rfc)
    assert not _pf_enabled(bsd)
    assert _preset(ns, "usrsctp") == bsd


def test_unknown_preset_is_a_clear_error():
    from transportlab import ns

    with pytest.raises(Exception, match="unknown preset 'solaris'"):
        ns.SctpStackHelper.GetPreset("solaris")


def test_presets_do_not_leak_into_the_next_simulation():
    with simulation(seed=1, run=1) as ns:
        ns.SctpStackHelper.SetLinuxDefaults()
        socket = ns.CreateObject[ns.SctpSocket]()
        assert _socket_value(ns, socket, "PotentiallyFailedMaxRetrans") == "0"
    with simulation(seed=1, run=1) as ns:
        socket = ns.CreateObject[ns.SctpSocket]()
        assert _socket_value(ns, socket, "PotentiallyFailedMaxRetrans") == "65535"
