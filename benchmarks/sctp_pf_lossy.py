"""Brennan et al.'s lossy experiment (seed 002 section 3.5; study ``multihoming_failover``,
section ``lossy``) with SCTP-PF (RFC 7829) off and on: the longest delivery stall of a
20-s bulk transfer over a path losing 15 % of its packets each way, single-homed vs
multi-homed (a second, loss-free path). Published: single-homed > 3 s, multi-homed ~0.5 s.

    .venv/bin/python benchmarks/sctp_pf_lossy.py [--runs 10]

The scenario follows the study's (the same topology, defaults and metric: RTO.Initial
3 s, RTO.Min 1 s, Path.Max.Retrans 5, RtxToAlt ALTERNATE, loss from 0.6 s on network 0,
the longest gap between deliveries from the first one to the end); "PF on" only adds
PotentiallyFailedMaxRetrans 0.
"""

from __future__ import annotations

import argparse
import gc

import numpy as np

PORT = 7000
START, LOSS_START, DURATION, LOSS = 0.5, 0.6, 20.0, 0.15


def one_run(homing: str, pfmr: int | None, run: int) -> float:
    from transportlab.sctp_recording import SctpRecorder
    from transportlab.simulation import run_until, simulation
    from transportlab.topology import multihomed as multihoming

    with simulation(seed=1, run=run) as ns:
        s = "ns3::SctpSocket::"
        ns.Config.SetDefault(s + "RtoInitial", ns.TimeValue(ns.Seconds(3.0)))
        ns.Config.SetDefault(s + "RtxToAlt", ns.StringValue("ALTERNATE"))
        if pfmr is not None:
            ns.Config.SetDefault(s + "PotentiallyFailedMaxRetrans", ns.UintegerValue(pfmr))
        net = multihoming.two_networks(ns, rate="10Mbps", delay="10ms")
        single = homing == "single"
        recorder = SctpRecorder(data_chunks_only=True)
        recorder.watch_node(net.b, 1)
        remote = ns.InetSocketAddress(net.b_addresses[0], PORT).ConvertTo()
        local_b = (
            ns.InetSocketAddress(net.b_addresses[0], PORT)
            if single
            else ns.InetSocketAddress(ns.Ipv4Address.GetAny(), PORT)
        )
        sink = ns.PacketSinkHelper("ns3::SctpSocketFactory", local_b.ConvertTo())
        sink_apps = sink.Install(net.b)
        sink_apps.Start(ns.Seconds(0.0))
        source = ns.BulkSendHelper("ns3::SctpSocketFactory", remote)
        source.SetAttribute("SendSize", ns.UintegerValue(1452))
        if single:
            local_a = ns.InetSocketAddress(net.a_addresses[0], 0).ConvertTo()
            source.SetAttribute("Local", ns.AddressValue(local_a))
        source_apps = source.Install(net.a)
        source_apps.Start(ns.Seconds(START))
        source_apps.Stop(ns.Seconds(DURATION))
        models = []
        for _ in range(2):
            m = ns.CreateObject[ns.RateErrorModel]()
            m.SetAttribute("ErrorUnit", ns.StringValue("ERROR_UNIT_PACKET"))
            m.SetAttribute("ErrorRate", ns.DoubleValue(LOSS))
            models.append(m)
        run_until(LOSS_START)
        net.a_devices[0].SetAttribute("ReceiveErrorModel", ns.PointerValue(models[0]))
        net.b_devices[0].SetAttribute("ReceiveErrorModel", ns.PointerValue(models[1]))
        run_until(DURATION)
        d = recorder.delivered()
        times = np.sort(d[d.node == 1].time.to_numpy())
        stall = (
            float(np.diff(np.concatenate((times, [DURATION]))).max()) if len(times) else DURATION
        )
        del net, recorder, sink, sink_apps, source, source_apps, models
    gc.collect()
    return stall


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=10)
    args = parser.parse_args()
    print("homing  PF   runs  longest stall: mean  [~95% CI]   median   (published)")
    for homing, pfmr, published in (
        ("single", None, "> 3 s"),
        ("multi", None, "~0.5 s"),
        ("multi", 0, "~0.5 s"),
    ):
        s = np.array([one_run(homing, pfmr, r) for r in range(1, args.runs + 1)])
        half = 1.96 * s.std(ddof=1) / np.sqrt(len(s)) if len(s) > 1 else float("nan")
        print(
            f"{homing:7} {'on' if pfmr is not None else 'off':4} {len(s):4}  "
            f"{s.mean():6.2f} s [{s.mean() - half:5.2f}, {s.mean() + half:5.2f}]  "
            f"{np.median(s):6.2f} s   {published}",
            flush=True,
        )


if __name__ == "__main__":
    main()
