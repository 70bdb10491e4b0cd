"""The values of the named SCTP stack presets against their sources, written out by hand.

Each expected value below was read off the document named next to it (not off the
helper), so a preset that drifts from its source fails here:

* Linux: Documentation/networking/ip-sysctl.rst, "/proc/sys/net/sctp/*" (net.sctp.*);
  values that are no sysctl there: include/net/sctp/constants.h (RTO alpha/beta),
  net/sctp/socket.c (sackfreq 2), net/sctp/associola.c (initial cwnd
  min(4*pathmtu, max(2*pathmtu, 4380)) = 4380 B at a 1500-B path MTU).
* FreeBSD / usrsctp: netinet/sctp_sysctl.h SCTPCTL_*_DEFAULT and netinet/sctp_constants.h
  (SCTP_RTO_INITIAL 1000 ms since 2021, SCTP_DEF_HBMAX_BURST 4, initial_cwnd 3 MTUs =
  3 x (1500 - 12) = 4464 B, path_pf_threshold 0xFFFF = PF off).
* RFC 9260 section 16.
"""

from __future__ import annotations

import pytest

from transportlab.ns3.simulation import simulation

PREFIX = "ns3::SctpSocket::"

SOURCED = {
    "linux": {
        "RtoInitial": "3s",  # rto_initial 3000
        "RtoMin": "1s",  # rto_min 1000
        "RtoMax": "60s",  # rto_max 60000
        "RtoAlpha": "0.125",  # SCTP_RTO_ALPHA 3 -> 1/8
        "RtoBeta": "0.25",  # SCTP_RTO_BETA 2 -> 1/4
        "PathMaxRetrans": "5",  # path_max_retrans 5
        "AssociationMaxRetrans": "10",  # association_max_retrans 10
        "MaxInitRetransmits": "8",  # max_init_retransmits 8
        "HbInterval": "30s",  # hb_interval 30000
        "SackDelay": "200ms",  # sack_timeout 200
        "SackFrequency": "2",  # sctp_init_sock: sackfreq 2
        "PotentiallyFailedMaxRetrans": "0",  # pf_enable 1, pf_retrans 0
        "PrimarySwitchoverMaxRetrans": "65535",  # ps_retrans 0xffff
        "MaxBurst": "4",  # max_burst 4
        "ValidCookieLife": "60s",  # valid_cookie_life 60000
        "CookiePreservative": "true",  # cookie_preserve_enable 1
        "InitialCwnd": "4380",  # min(4*1500, max(2*1500, 4380))
    },
    "freebsd": {
        "RtoInitial": "1s",  # rto_initial: SCTP_RTO_INITIAL 1000
        "RtoMin": "1s",  # rto_min: SCTP_RTO_LOWER_BOUND 1000
        "RtoMax": "60s",  # rto_max: SCTP_RTO_UPPER_BOUND 60000
        "RtoAlpha": "0.125",  # SCTP_RTT_SHIFT 3
        "RtoBeta": "0.25",  # SCTP_RTT_VAR_SHIFT 2
        "PathMaxRetrans": "5",  # path_rtx_max: SCTP_DEF_MAX_PATH_RTX 5
        "AssociationMaxRetrans": "10",  # assoc_rtx_max: SCTP_DEF_MAX_SEND 10
        "MaxInitRetransmits": "8",  # init_rtx_max: SCTP_DEF_MAX_INIT 8
        "HbInterval": "30s",  # heartbeat_interval: SCTP_HB_DEFAULT_MSEC 30000
        "HbMaxBurst": "4",  # hb_max_burst: SCTP_DEF_HBMAX_BURST 4
        "SackDelay": "200ms",  # delayed_sack_time: SCTP_RECV_MSEC 200
        "SackFrequency": "2",  # sack_freq: SCTP_DEFAULT_SACK_FREQ 2
        "PotentiallyFailedMaxRetrans": "65535",  # path_pf_threshold 0xFFFF: PF off
        "PrimarySwitchoverMaxRetrans": "65535",  # no PSMR sysctl
        "MaxBurst": "4",  # maxburst: SCTP_DEF_MAX_BURST 4
        "ValidCookieLife": "60s",  # valid_cookie_life: SCTP_DEFAULT_COOKIE_LIFE 60000
        "InitialCwnd": "4464",  # initial_cwnd 3 MTUs: 3 x (1500 - 12)
        "SndBufSize": "262144",  # maxdgram 256k
        "RcvBufSize": "262144",  # recvspace 256k
    },
    "rfc9260": {
        "RtoInitial": "1s",
        "RtoMin": "1s",
        "RtoMax": "60s",
        "RtoAlpha": "0.125",
        "RtoBeta": "0.25",
        "PathMaxRetrans": "5",
        "AssociationMaxRetrans": "10",
        "MaxInitRetransmits": "8",
        "HbInterval": "30s",
        "HbMaxBurst": "1",
        "SackDelay": "200ms",
        "MaxBurst": "4",
        "ValidCookieLife": "60s",
        "InitialCwnd": "0",  # the RFC 9260 7.2.1 rule
        "PotentiallyFailedMaxRetrans": "65535",  # RFC 9260 alone has no PF state
    },
}


def _canonical(ns, attribute: str, value: str) -> str:
    info = ns.TypeId.AttributeInformation()
    assert ns.TypeId.LookupByName("ns3::SctpSocket").LookupAttributeByName(attribute, info)
    valid = info.checker.CreateValidValue(ns.StringValue(value))
    assert valid, (attribute, value)
    return str(valid.SerializeToString(info.checker))


@pytest.mark.parametrize("name", sorted(SOURCED))
def test_preset_lists_the_sourced_values(name):
    from transportlab import ns

    preset = {str(k): str(v) for k, v in ns.SctpStackHelper.GetPreset(name)}
    for attribute, value in SOURCED[name].items():
        assert PREFIX + attribute in preset, (name, attribute)
        assert _canonical(ns, attribute, preset[PREFIX + attribute]) == _canonical(
            ns, attribute, value
        ), (name, attribute, preset[PREFIX + attribute], value)


@pytest.mark.parametrize("name", sorted(SOURCED))
def test_set_preset_gives_sockets_the_sourced_values(name):
    with simulation(seed=1, run=1) as ns:
        ns.SctpStackHelper.SetPreset(name)
        socket = ns.CreateObject[ns.SctpSocket]()
        for attribute, value in SOURCED[name].items():
            got = ns.StringValue()
            socket.GetAttribute(attribute, got)
            assert str(got.Get()) == _canonical(ns, attribute, value), (name, attribute)


def test_usrsctp_is_the_freebsd_preset():
    from transportlab import ns

    def preset(name):
        return {str(k): str(v) for k, v in ns.SctpStackHelper.GetPreset(name)}

    assert preset("usrsctp") == preset("freebsd")
