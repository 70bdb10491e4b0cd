"""A small ns-3 scenario with randomness, for the reproducibility tests.

Two nodes, 1 Mb/s and 10 ms; an OnOff UDP source with exponential on and off
times (mean 0.3 s each) and a RateErrorModel (5 % of packets) on the receiver.
Both random variables draw from ns-3 streams, so the result depends on the
seed and the run and on nothing else.
"""

from __future__ import annotations

import hashlib

import pandas as pd
from pandas.util import hash_pandas_object


def scenario(seed: int = 1, run: int = 1, stop: float = 6.0) -> pd.DataFrame:
    from transportlab.ns3.recording import PacketRecorder, enable_seq_ts_size
    from transportlab.ns3.simulation import run_until, simulation

    with simulation(seed=seed, run=run) as ns:
        nodes = ns.NodeContainer()
        nodes.Create(2)
        link = ns.PointToPointHelper()
        link.SetDeviceAttribute("DataRate", ns.StringValue("1Mbps"))
        link.SetChannelAttribute("Delay", ns.StringValue("10ms"))
        devices = link.Install(nodes)
        errors = ns.CreateObject[ns.RateErrorModel]()
        errors.SetAttribute("ErrorUnit", ns.StringValue("ERROR_UNIT_PACKET"))
        errors.SetAttribute("ErrorRate", ns.DoubleValue(0.05))
        devices.Get(1).SetAttribute("ReceiveErrorModel", ns.PointerValue(errors))
        ns.InternetStackHelper().Install(nodes)
        addresses = ns.Ipv4AddressHelper()
        addresses.SetBase(ns.Ipv4Address("10.0.0.0"), ns.Ipv4Mask("255.255.255.0"))
        interfaces = addresses.Assign(devices)

        sink_address = ns.InetSocketAddress(interfaces.GetAddress(1), 9).ConvertTo()
        source = ns.OnOffHelper("ns3::UdpSocketFactory", sink_address)
        source.SetAttribute("OnTime", ns.StringValue("ns3::ExponentialRandomVariable[Mean=0.3]"))
        source.SetAttribute("OffTime", ns.StringValue("ns3::ExponentialRandomVariable[Mean=0.3]"))
        source.SetAttribute("DataRate", ns.StringValue("500kbps"))
        source.SetAttribute("PacketSize", ns.UintegerValue(1000))
        sink = ns.PacketSinkHelper(
            "ns3::UdpSocketFactory", ns.InetSocketAddress(ns.Ipv4Address.GetAny(), 9).ConvertTo()
        )
        enable_seq_ts_size(source, sink)
        sources, sinks = source.Install(nodes.Get(0)), sink.Install(nodes.Get(1))
        sources.Start(ns.Seconds(0.5))
        recorder = PacketRecorder()
        recorder.watch_sender(sources.Get(0), flow=1)
        recorder.watch_receiver(sinks.Get(0), flow=1)
        run_until(stop)
        return recorder.to_frame()


def digest(frame: pd.DataFrame) -> str:
    """SHA-256 of a DataFrame's values, index and column names."""
    sha = hashlib.sha256(hash_pandas_object(frame, index=True).to_numpy().tobytes())
    sha.update(",".join(map(str, frame.columns)).encode())
    return sha.hexdigest()


if __name__ == "__main__":
    import sys

    print(digest(scenario(int(sys.argv[1]), int(sys.argv[2]))))
