"""The ns-3 side: loading ns-3 with transportlab's C++ library, reproducible simulations,
recorders, topologies and the small helpers every scenario uses.

Importing these modules does not load ns-3; their functions do, when a simulation needs it
(:func:`transportlab.ns3.native.load`, also reached as ``from transportlab import ns``).
"""
