"""A wifi channel whose path loss is set per pair of nodes, for PHY tests that need exact
received powers (hidden terminals, capture margins) rather than a geometry."""

from __future__ import annotations


def matrix_loss_channel(ns, count: int, default_db: float, losses: dict[tuple[int, int], float]):
    """``count`` nodes at fixed positions and a YansWifiChannel between them: the loss of
    every pair is ``default_db`` except the pairs of ``losses`` (node indices -> dB; ns-3's
    MatrixPropagationLossModel sets each both ways). Returns ``(nodes, channel)``."""
    nodes = ns.NodeContainer()
    nodes.Create(count)
    mobility = ns.MobilityHelper()
    mobility.SetMobilityModel("ns3::ConstantPositionMobilityModel")
    mobility.Install(nodes)
    where = [nodes.Get(i).GetObject[ns.MobilityModel]() for i in range(count)]
    loss = ns.CreateObject[ns.MatrixPropagationLossModel]()
    loss.SetDefaultLoss(default_db)
    for (a, b), db in losses.items():
        loss.SetLoss(where[a], where[b], db)
    channel = ns.CreateObject[ns.YansWifiChannel]()
    channel.SetPropagationLossModel(loss)
    channel.SetPropagationDelayModel(ns.CreateObject[ns.ConstantSpeedPropagationDelayModel]())
    return nodes, channel
