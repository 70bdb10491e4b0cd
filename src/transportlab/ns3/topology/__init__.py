"""Topologies shared by the studies and the tests, one module each.

* :mod:`~transportlab.ns3.topology.chain`: hosts and routers in a line of point-to-point
  links (a two-node link is a chain of one link);
* :mod:`~transportlab.ns3.topology.dumbbell`: the wired study's dumbbell;
* :mod:`~transportlab.ns3.topology.multihomed`: SCTP multi-homing topologies.

Each function takes the ``ns`` namespace and builds inside the current simulation
(:func:`transportlab.ns3.simulation.simulation`); nothing here imports ns-3 at import
time. The construction order (nodes, devices, addresses) is part of a scenario's
random-stream assignment, so changing it changes results: tests pin it.
"""
