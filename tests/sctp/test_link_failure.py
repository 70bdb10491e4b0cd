"""``LinkFailure`` unplugs a device that has a receive error model of its own (issue 28).

A device has one ``ReceiveErrorModel``; ``LinkFailure`` needs it to drop everything while
the cable is out. It used to abort the process when the device already had another model
(random loss, a drop list); now it wraps that model, which keeps judging every packet
while the cable is plugged in, whichever was set first.
"""

from __future__ import annotations

import gc

import cppyy
import pytest

from tests.sctp._support import cxx, make_pair
from transportlab.ns3.simulation import run_until, simulation

PORT = 5000
UNPLUG, PLUG = 1.0, 2.0
DROP_LIST = [3, 7]  # the 3rd and 7th packets the inner model sees at B
N_MESSAGES = 125

_HELPERS = """
#include "ns3/network-module.h"
namespace linkfailuretest {
using namespace ns3;
/** Counts the PhyRxDrop trace of a device (every packet its receive error model drops). */
class DropCounter : public SimpleRefCount<DropCounter> {
  public:
    uint32_t drops{0};
    void Watch(Ptr<NetDevice> d) {
        d->TraceConnectWithoutContext("PhyRxDrop", MakeCallback(&DropCounter::On, this));
    }
    void On(Ptr<const Packet>) { ++drops; }
};
}
"""


def _helpers():
    cxx()
    if not hasattr(cppyy.gbl, "linkfailuretest"):
        cppyy.cppdef(_HELPERS)
    return cppyy.gbl.linkfailuretest


def _receive_model(ns, device):
    value = ns.PointerValue()
    device.GetAttribute("ReceiveErrorModel", value)
    return value.GetObject()


@pytest.mark.parametrize(
    "model_first", [True, False], ids=["model-then-unplug", "unplug-then-model"]
)
def test_unplug_coexists_with_a_receive_error_model(model_first):
    with simulation(seed=1, run=1) as ns:
        c = cxx()
        pair = make_pair("10Mbps", "10ms")
        b_device = pair.devices.Get(1)
        counter = _helpers().DropCounter()
        counter.Watch(b_device)
        server = pair.socket(1)
        server.Bind(ns.InetSocketAddress(ns.Ipv4Address.GetAny(), PORT).ConvertTo())
        collector = c.Collector()
        collector.Listen(server)
        client = pair.socket(0)
        sender = c.Sender()
        sender.socket = client
        sender.ConnectAt(0.1, pair.endpoint(1, PORT))
        for k in range(N_MESSAGES):
            sender.At(0.5 + 0.02 * k, 200, 0, False, k + 1)
        # A's cable is pulled: B's end drops too (point-to-point), and B's end has a
        # drop list of its own, set before or after the failure is scheduled.
        if model_first:
            drop_list = pair.drop_received(1, DROP_LIST)
            ns.LinkFailure.ScheduleUnplug(ns.Seconds(UNPLUG), pair.devices.Get(0))
        else:
            ns.LinkFailure.ScheduleUnplug(ns.Seconds(UNPLUG), pair.devices.Get(0))
            drop_list = pair.drop_received(1, DROP_LIST)
        ns.LinkFailure.SchedulePlug(ns.Seconds(PLUG), pair.devices.Get(0))
        run_until(UNPLUG + 0.5)
        assert ns.LinkFailure.IsUnplugged(b_device)
        wrapper = ns.DynamicCast[ns.UnpluggedErrorModel](_receive_model(ns, b_device))
        assert wrapper and wrapper.GetInner() == drop_list
        dropped_before = int(counter.drops)
        assert dropped_before >= len(DROP_LIST)  # the list model worked before the unplug
        run_until(10.0)
        assert not ns.LinkFailure.IsUnplugged(b_device)
        unplugged_drops = int(wrapper.GetDropped())
        assert unplugged_drops > 0
        # Every drop at B is either one of the list's two or one while unplugged.
        assert int(counter.drops) == len(DROP_LIST) + unplugged_drops
        # SCTP recovered everything: every message once, in order.
        assert int(collector.Count()) == N_MESSAGES
        assert all(collector.Matches(i, i + 1) for i in range(N_MESSAGES))
        del pair, counter, server, collector, client, sender, drop_list, wrapper
    gc.collect()
