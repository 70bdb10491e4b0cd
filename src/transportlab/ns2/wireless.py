"""What a wireless NS-2 script builds, as NS-2 itself sees it (the wireless counterpart of
:func:`transportlab.ns2.structure.describe`).

:func:`describe_wireless` runs the script with a prelude that, in place of ``$ns run``,
writes every mobile node's position (wireless nodes are not in the simulator's
``Node_`` array: ``node`` is wrapped to record them) and the bound variables of its
interface's objects (``netif_(0)``: the radio, ``mac_(0)``, ``ifq_(0)``, ``ll_(0)``), the class of
its routing agent and of each of those objects, and the simulator's ``node-config``
settings; then the wired prelude's dump follows (agents and their peers, applications,
their bound variables, the schedule) and NS-2 exits without simulating. Everything comes
back in :class:`~transportlab.ns2.structure.Structure`'s ``variables``, keyed by pseudo
objects: ``node(3)`` (``X_``, ``Y_``, ``Z_``), ``netif(3)``, ``mac(3)``, ``ifq(3)``,
``ll(3)`` (their bound variables, and ``class``), ``ragent(3)`` (``class``), ``antenna``
(the antenna class's defaults, which every node's antenna copied: the antenna is no node
variable) and ``config`` (``propType_``, ``routingAgent_``... as ``node-config`` stored them, and
``mobile_nodes``, their number).
:func:`node_table` puts one of those objects' variables beside every node.
"""

from __future__ import annotations

import pandas as pd

from transportlab.ns2.structure import Structure, describe

__all__ = ["WIRELESS_PRELUDE", "describe_wireless", "node_table"]

#: the simulator's node-config settings written out (those that exist)
_CONFIG = (
    "adhocRouting_ routingAgent_ llType_ macType_ ifqType_ ifqlen_ phyType_ propType_ antType_ "
    "channelType_ energyModel_ initialEnergy_ txPower_ rxPower_ idlePower_ sleepPower_ "
    "agentTrace_ routerTrace_ macTrace_ movementTrace_"
)

WIRELESS_PRELUDE = (
    r"""
Simulator instproc tl_structure_run {} [Simulator info instbody run]
set ::tl_mobile_nodes {}
Simulator instproc tl_node_original args [Simulator info instbody node]
Simulator instproc node args {
    set node [eval [list $self tl_node_original] $args]
    lappend ::tl_mobile_nodes $node
    return $node
}
proc tl_object_vars {label object} {
    tl_emit var $label class [$object info class]
    foreach pair [tl_bound_vars $object] {
        tl_emit var $label {*}[split $pair "\t"]
    }
}
Simulator instproc run {} {
    foreach name {"""
    + _CONFIG
    + r"""} {
        if {![catch {$self set $name} value]} { tl_emit var config $name $value }
    }
    tl_emit var config mobile_nodes [llength $::tl_mobile_nodes]
    # the antenna is no node variable: its class defaults, which every instance copied
    if {![catch {$self set antType_} antenna]} {
        foreach v [lsort [$antenna info vars]] { tl_emit var antenna $v [$antenna set $v] }
    }
    foreach node $::tl_mobile_nodes {
        set id [$node id]
        foreach v {X_ Y_ Z_} { tl_emit var node($id) $v [$node set $v] }
        foreach part {netif mac ifq ll} {
            if {![catch {$node set ${part}_(0)} object]} { tl_object_vars $part\($id\) $object }
        }
        if {![catch {$node set ragent_} agent]} {
            tl_emit var ragent($id) class [$agent info class]
        }
    }
    $self tl_structure_run
}
"""
)


def describe_wireless(script: str, *, timeout: float = 120.0) -> Structure:
    """Build ``script``'s scenario in NS-2 (without simulating) and describe it, the
    mobile nodes included (module docstring)."""
    return describe(WIRELESS_PRELUDE + "\n" + script, timeout=timeout)


def node_table(structure: Structure, part: str, variables: list[str]) -> pd.DataFrame:
    """``variables`` of ``part`` (``node``, ``netif``, ``mac``, ``ifq``, ``ll``, ``ragent``)
    for every node: one row per node id, one column per variable (text as NS-2 prints it)."""
    found = structure.variables
    prefix = f"{part}("
    mine = found[found["object"].str.startswith(prefix) & found["variable"].isin(variables)]
    table = mine.assign(node=mine["object"].str[len(prefix) : -1].astype(int)).pivot(
        index="node", columns="variable", values="value"
    )
    missing = [v for v in variables if v not in table.columns]
    if missing:
        raise KeyError(f"{part} has no variable(s) {missing}")
    return table[variables].sort_index()
