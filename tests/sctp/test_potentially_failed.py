"""SCTP-PF (RFC 7829): the Potentially-Failed destination state and Primary Path Switchover.

The scenario of issue 14: B (one address, 10.3.1.2) sends 12 MB to A, which has two
addresses (10.1.1.1 on network 1, 10.2.1.1 on network 2). A's two links and B's link meet
at a router R; every link is 10 Mb/s, 10 ms. B's association has two destinations, A's
first address (the primary) and A's second. At ``FAIL`` A's first interface goes down at
both ends (IP-aware: R has no route to 10.1.1.0/24 any more), so everything B sends to
the primary is lost. A always answers through network 2.

* PF on (PFMR 0, RFC 7829 section 6's suggestion): the first T3-rtx expiry on the primary
  makes it PF, new data moves to the alternate at once and the transfer ends within 10 s
  of the failure.
* PF off (the default, RFC 9260): the primary turns inactive only when its error counter
  exceeds Path.Max.Retrans (5), i.e. at the 6th consecutive T3-rtx expiry; with RTO.Min
  = RTO.Initial = 1 s the RTO before the failure is 1 s and doubles at each expiry (6.3.3
  E2), so that expiry comes 1 + 2 + 4 + 8 + 16 + 32 = 63 s after the first unacknowledged
  transmission to the dead primary; the rest of the transfer follows on the alternate.
"""

from __future__ import annotations

import gc

import numpy as np
import pytest

from tests.sctp._support import cxx
from transportlab.ns3.sctp_recording import SctpRecorder
from transportlab.ns3.simulation import run_until, simulation

PORT = 7000
TOTAL = 12_000_000
SEND_SIZE = 1452
FAIL = 5.0
#: RFC 9260 timers of the model's defaults: RTO.Min 1 s, RTO doubled per T3-rtx expiry,
#: Path.Max.Retrans 5 -> inactive at the 6th expiry.
PF_OFF_DETECTION = 1 + 2 + 4 + 8 + 16 + 32


def _topology(ns):
    """A (two interfaces) = R = B (one interface); A routes to B through network 2 only."""
    p2p = ns.PointToPointHelper()
    p2p.SetDeviceAttribute("DataRate", ns.StringValue("10Mbps"))
    p2p.SetChannelAttribute("Delay", ns.StringValue("10ms"))
    p2p.SetQueue("ns3::DropTailQueue", "MaxSize", ns.StringValue("100p"))
    nodes = ns.NodeContainer()
    nodes.Create(3)
    a, b, r = nodes.Get(0), nodes.Get(1), nodes.Get(2)
    ns.InternetStackHelper().Install(nodes)
    ns.SctpStackHelper().Install(nodes)
    addresses = ns.Ipv4AddressHelper()
    keep = [p2p]
    links = []
    for subnet, (x, y) in zip(
        ("10.1.1.0", "10.2.1.0", "10.3.1.0"), ((a, r), (a, r), (r, b)), strict=True
    ):
        devices = p2p.Install(x, y)
        addresses.SetBase(ns.Ipv4Address(subnet), ns.Ipv4Mask("255.255.255.0"))
        interfaces = addresses.Assign(devices)
        keep += [devices, interfaces]
        links.append((devices, interfaces))
    static = ns.Ipv4StaticRoutingHelper()
    a_ipv4 = a.GetObject[ns.Ipv4]()
    a_routing = static.GetStaticRouting(a_ipv4)
    routes = []
    for k, metric in ((1, 0), (0, 1)):
        routes.append(
            (
                a_routing,
                ns.Ipv4Address("10.3.1.0"),
                ns.Ipv4Mask("255.255.255.0"),
                links[k][1].GetAddress(1),
                a_ipv4.GetInterfaceForDevice(links[k][0].Get(0)),
                metric,
            )
        )
    a_routing.AddNetworkRouteTo(*routes[0][1:])  # network 2 (see the module docstring)
    b_ipv4 = b.GetObject[ns.Ipv4]()
    static.GetStaticRouting(b_ipv4).SetDefaultRoute(
        links[2][1].GetAddress(0), b_ipv4.GetInterfaceForDevice(links[2][0].Get(1))
    )
    return {
        "a": a,
        "b": b,
        "r": r,
        "a_primary": links[0][1].GetAddress(0),
        "link1": links[0][0],
        "route1": routes[1],
        "keep": keep,
    }


_HELPERS = """
#include "ns3/internet-module.h"
namespace pftest {
using namespace ns3;
inline void AddRoute(Ptr<Ipv4StaticRouting> r, Ipv4Address net, Ipv4Mask mask, Ipv4Address gw,
                     uint32_t iface, uint32_t metric) {
    r->AddNetworkRouteTo(net, mask, gw, iface, metric);
}
inline void ScheduleAddRoute(double t, Ptr<Ipv4StaticRouting> r, Ipv4Address net, Ipv4Mask mask,
                             Ipv4Address gw, uint32_t iface, uint32_t metric) {
    Simulator::Schedule(Seconds(t) - Simulator::Now(), &AddRoute, r, net, mask, gw, iface, metric);
}
}
"""


def _helpers():
    import cppyy

    cxx()
    if not hasattr(cppyy.gbl, "pftest"):  # once per process
        cppyy.cppdef(_HELPERS)
    return cppyy.gbl.pftest


def _interface(ns, node, device) -> int:
    return int(node.GetObject[ns.Ipv4]().GetInterfaceForDevice(device))


def run_failover(
    pfmr: int | None,
    psmr: int | None = None,
    repair: float | None = None,
    stop: float = 120.0,
    total: int = TOTAL,
) -> dict:
    """The issue's scenario; ``pfmr``/``psmr`` None keep the model's defaults."""
    with simulation(seed=1, run=1) as ns:
        if pfmr is not None:
            ns.Config.SetDefault(
                "ns3::SctpSocket::PotentiallyFailedMaxRetrans", ns.UintegerValue(pfmr)
            )
        if psmr is not None:
            ns.Config.SetDefault(
                "ns3::SctpSocket::PrimarySwitchoverMaxRetrans", ns.UintegerValue(psmr)
            )
        c = cxx()
        net = _topology(ns)
        recorder = SctpRecorder()
        recorder.watch_node(net["b"], 1)
        recorder.watch_node(net["a"], 0)
        factory = ns.TypeId.LookupByName("ns3::SctpSocketFactory")
        server = ns.Socket.CreateSocket(net["a"], factory)
        server.Bind(ns.InetSocketAddress(ns.Ipv4Address.GetAny(), PORT).ConvertTo())
        collector = c.Collector()
        collector.Listen(server)
        bulk = ns.BulkSendHelper(
            "ns3::SctpSocketFactory",
            ns.InetSocketAddress(net["a_primary"], PORT).ConvertTo(),
        )
        bulk.SetAttribute("SendSize", ns.UintegerValue(SEND_SIZE))
        bulk.SetAttribute("MaxBytes", ns.UintegerValue(total))
        apps = bulk.Install(net["b"])
        apps.Start(ns.Seconds(0.1))
        # A's first interface goes down at both ends of network 1 (A and R).
        for node, device in ((net["a"], net["link1"].Get(0)), (net["r"], net["link1"].Get(1))):
            ipv4 = node.GetObject[ns.Ipv4]()
            k = _interface(ns, node, device)
            ns.LinkFailure.ScheduleInterfaceDown(ns.Seconds(FAIL), ipv4, k)
            if repair is not None:
                ns.LinkFailure.ScheduleInterfaceUp(ns.Seconds(repair), ipv4, k)
        if repair is not None:
            # With the repair A also gets a route to B through network 1, so that it can
            # answer a HEARTBEAT to its first address from that address (section 8.3).
            _helpers().ScheduleAddRoute(repair, *net["route1"])
        run_until(stop)
        times = np.array(list(collector.times), dtype=float)
        sizes = np.array([collector.Size(i) for i in range(int(collector.Count()))])
        result = {
            "bytes": int(sizes.sum()),
            "messages": int(collector.Count()),
            "tsns": np.array(list(collector.tsns), dtype=np.int64),
            "done": float(times[-1]) if len(times) else float("nan"),
            "done_at": float(times[np.cumsum(sizes) >= total][0])
            if sizes.sum() >= total
            else float("nan"),
            "error_closes": int(collector.errorCloses),
            "paths": recorder.paths(),
            "chunks": recorder.chunks(),
        }
        del net, recorder, server, collector, bulk, apps
    gc.collect()
    return result


def _events(result, event: str, path: int) -> np.ndarray:
    p = result["paths"]
    return p[(p.node == 1) & (p.path == path) & (p.event == event)].time.to_numpy()


def _chunks_after(result, t: float, path: int, chunk: str = "DATA", new_only: bool = True):
    c = result["chunks"]
    rows = c[(c.node == 1) & (c.chunk == chunk) & (c.time > t) & (c.path == path)]
    return rows[~rows.retransmission] if new_only else rows


def _exactly_once(result) -> None:
    assert result["bytes"] == TOTAL
    assert result["messages"] == -(-TOTAL // SEND_SIZE)
    assert len(np.unique(result["tsns"])) == len(result["tsns"])  # no message twice
    assert result["error_closes"] == 0


@pytest.fixture(scope="module")
def pf_on():
    return run_failover(pfmr=0, stop=40.0)


@pytest.fixture(scope="module")
def pf_off():
    return run_failover(pfmr=None, stop=120.0)


def test_pf_is_off_by_default():
    with simulation(seed=1, run=1) as ns:
        socket = ns.CreateObject[ns.SctpSocket]()
        for name in ("PotentiallyFailedMaxRetrans", "PrimarySwitchoverMaxRetrans"):
            value = ns.UintegerValue()
            socket.GetAttribute(name, value)
            assert value.Get() == 65535
        pmr = ns.UintegerValue()
        socket.GetAttribute("PathMaxRetrans", pmr)
        assert pmr.Get() == 5


def test_pf_on_completes_within_10_s_of_the_failure(pf_on):
    _exactly_once(pf_on)
    assert pf_on["done_at"] < FAIL + 10.0, pf_on["done_at"]


def test_pf_on_primary_becomes_potentially_failed_and_new_data_moves(pf_on):
    pf = _events(pf_on, "POTENTIALLY_FAILED", 0)
    assert len(pf) == 1
    # The first T3-rtx expiry: one RTO (1 s) after the last acknowledgement before the
    # failure.
    assert FAIL + 0.9 < pf[0] < FAIL + 1.5, pf
    switch = _events(pf_on, "DATA_PATH", 1)
    assert len(switch) == 1 and switch[0] == pf[0]
    assert len(_events(pf_on, "UNREACHABLE", 0)) == 0  # PF is not inactive
    assert len(_chunks_after(pf_on, pf[0], 0)) == 0  # no new data to the PF primary


def test_pf_heartbeats_every_rto_without_back_off(pf_on):
    pf = _events(pf_on, "POTENTIALLY_FAILED", 0)[0]
    hb = _chunks_after(pf_on, pf - 1e-9, 0, chunk="HEARTBEAT").time.to_numpy()
    assert len(hb) >= 3
    assert hb[0] == pf  # the first one at once
    gaps = np.diff(hb)
    # RTO = 2 s (doubled once by the T3-rtx expiry, E2), then constant: no doubling per
    # unanswered HEARTBEAT, no HB.interval (30 s).
    assert np.allclose(gaps, 2.0, atol=1e-6), gaps


def test_pf_off_completes_once_the_primary_is_inactive(pf_off):
    _exactly_once(pf_off)
    assert len(_events(pf_off, "POTENTIALLY_FAILED", 0)) == 0
    inactive = _events(pf_off, "UNREACHABLE", 0)
    assert len(inactive) == 1
    # 6th consecutive T3-rtx expiry: 1 + 2 + 4 + 8 + 16 + 32 = 63 s after the failure
    # (plus the time between the last acknowledgement and the failure).
    assert FAIL + PF_OFF_DETECTION < inactive[0] < FAIL + PF_OFF_DETECTION + 1.5, inactive
    switch = _events(pf_off, "DATA_PATH", 1)
    assert len(switch) == 1 and switch[0] == inactive[0]
    # Until then new data kept going to the dead primary, one chunk per expiry.
    assert len(_chunks_after(pf_off, FAIL + 0.5, 0)) >= 5
    # The rest (5.7 MB) at 10 Mb/s takes about 5 s more.
    assert inactive[0] + 4.0 < pf_off["done_at"] < inactive[0] + 10.0


def test_pf_saves_a_minute(pf_on, pf_off):
    assert pf_off["done_at"] - pf_on["done_at"] > 55.0


def test_pfmr_at_path_max_retrans_switches_pf_off(pf_off):
    same = run_failover(pfmr=5, stop=120.0)
    assert len(_events(same, "POTENTIALLY_FAILED", 0)) == 0
    assert same["done_at"] == pf_off["done_at"]
    assert np.array_equal(same["tsns"], pf_off["tsns"])


REPAIR = 8.0


@pytest.mark.parametrize("pfmr", [0, None])
def test_primary_that_comes_back_is_used_again(pfmr):
    """Without Primary Path Switchover new data returns to the primary (ReturnToPrimary)."""
    result = run_failover(pfmr=pfmr, repair=REPAIR, stop=30.0)
    _exactly_once(result)
    assert len(_events(result, "MADE_PRIMARY", 1)) == 0
    if pfmr == 0:
        back = _events(result, "AVAILABLE", 0)
        assert len(back) == 1 and REPAIR < back[0] < REPAIR + 0.5  # the next HEARTBEAT ACK
        assert _events(result, "DATA_PATH", 0)[-1] == back[0]
        start = back[0]
    else:
        start = REPAIR + 0.5  # never left the primary: only 3 expiries
        assert len(_events(result, "UNREACHABLE", 0)) == 0
    after = result["chunks"]
    after = after[(after.node == 1) & (after.chunk == "DATA") & (after.time > start + 0.5)]
    after = after[~after.retransmission]
    assert len(after) > 1000 and set(after.path) == {0}


def test_primary_path_switchover_keeps_the_new_primary():
    """PSMR 0 (RFC 7829 section 5): the alternate becomes the primary and stays so."""
    result = run_failover(pfmr=0, psmr=0, repair=REPAIR, stop=30.0)
    _exactly_once(result)
    pf = _events(result, "POTENTIALLY_FAILED", 0)
    made = _events(result, "MADE_PRIMARY", 1)
    assert len(made) == 1 and made[0] == pf[0]
    back = _events(result, "AVAILABLE", 0)
    assert len(back) == 1 and REPAIR < back[0] < REPAIR + 0.5  # the old primary is active
    c = result["chunks"]
    after = c[(c.node == 1) & (c.chunk == "DATA") & (c.time > back[0]) & ~c.retransmission]
    assert len(after) > 1000 and set(after.path) == {1}  # ... but data stays on the new one


def test_recorder_knows_the_pf_event():
    from transportlab.ns3.sctp_recording import PATH_EVENTS

    assert PATH_EVENTS[5] == "POTENTIALLY_FAILED"
