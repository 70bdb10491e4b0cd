"""What a wired NS-2 script builds, as NS-2 itself sees it: links, agents, applications,
schedule.

:func:`describe` runs the script in NS-2 with a prelude that records every
``attach-agent`` and ``at`` and replaces ``$ns run`` by a dump of the built scenario
(then NS-2 exits, nothing is simulated). So two scripts written differently (the seeds'
by hand, ours generated, loops or not, defaults written out or not) can be compared on
what matters: each link's ends, rate, delay, queue class and ``limit_``; each agent's
node, class and peer; each application's class and node; the times of every start, stop
and finish; and every bound variable of each agent, application and queue, read back
from the objects (a default and an explicitly set equal value look the same; a
variable that no C++ object binds, such as ``packetSize_`` on an ``Application/FTP``,
is not one of them and has no effect).
"""

from __future__ import annotations

from dataclasses import dataclass

import pandas as pd

from transportlab.ns2.runner import run_script

__all__ = ["Structure", "class_defaults", "describe"]

# Tcl: record attach-agent and at, dump at `$ns run` and exit. Bound variables are
# those with a class default along the class's heritage (TclCL initialises every
# bound variable from one: ns-default.tcl).
_PRELUDE = r"""
set ::tl_schedule {}
set ::tl_agents {}
Simulator instproc tl_at_original args [Simulator info instbody at]
Simulator instproc at args {
    lappend ::tl_schedule $args
    eval [list $self tl_at_original] $args
}
Simulator instproc tl_attach_original {node agent} [Simulator info instbody attach-agent]
Simulator instproc attach-agent {node agent} {
    lappend ::tl_agents [list [$node id] $agent]
    $self tl_attach_original $node $agent
}
proc tl_bound_vars {object} {
    set names {}
    set class [$object info class]
    foreach c [concat [list $class] [$class info heritage]] {
        foreach v [$c info vars] { lappend names $v }
    }
    set out {}
    foreach v [lsort -unique $names] {
        if {![catch {$object set $v} value]} { lappend out "$v\t$value" }
    }
    return $out
}
proc tl_emit {args} { puts [join $args "\t"] }
Simulator instproc run {} {
    tl_emit nodes [llength [$self array names Node_]]
    foreach key [lsort [$self array names link_]] {
        set l [$self set link_($key)]
        set q [$l queue]
        tl_emit link [[$l src] id] [[$l dst] id] [[$l link] set bandwidth_] \
            [[$l link] set delay_] [$q info class] $q
        foreach pair [tl_bound_vars $q] { tl_emit var $q $pair }
    }
    foreach entry $::tl_agents {
        set a [lindex $entry 1]
        tl_emit agent [lindex $entry 0] [$a info class] $a [$a set dst_addr_] [$a set dst_port_]
        foreach pair [tl_bound_vars $a] { tl_emit var $a $pair }
    }
    foreach entry $::tl_schedule {
        set time [lindex $entry 0]
        set command [lindex $entry 1]
        set target [lindex $command 0]
        if {[string match _o* $target] && [$target info class] ne ""
                && ![catch {$target agent} agent]} {
            tl_emit app [$target info class] $target $agent
            foreach pair [tl_bound_vars $target] { tl_emit var $target $pair }
            tl_emit at $time $target [lrange $command 1 end]
        } else {
            tl_emit at $time - $command
        }
    }
    exit 0
}
"""


@dataclass(frozen=True)
class Structure:
    """The scenario a script builds (see the module docstring).

    * ``links``: one row per simplex link: ``src``, ``dst`` (node ids),
      ``bandwidth`` (bit/s), ``delay`` (s), ``queue`` (class), ``limit`` (``limit_``);
    * ``agents``: ``node``, ``agent`` (class), ``peer_node``, ``peer_port``
      (``dst_addr_``, ``dst_port_`` after ``connect``), ``object``;
    * ``applications``: ``node`` (of its agent), ``application`` (class), ``object``;
    * ``schedule``: ``time``, ``node`` and ``application`` (for an application's
      command; NaN/None otherwise), ``command`` (``start``, ``stop``, or the Tcl of
      other events such as ``finish``);
    * ``variables``: ``object``, ``variable``, ``value`` (text as NS-2 prints it).
    """

    nodes: int
    links: pd.DataFrame
    agents: pd.DataFrame
    applications: pd.DataFrame
    schedule: pd.DataFrame
    variables: pd.DataFrame

    def settings(self, objects: pd.Series) -> pd.DataFrame:
        """The bound variables of the given objects, one column per object."""
        chosen = self.variables[self.variables["object"].isin(set(objects))]
        return chosen.pivot(index="variable", columns="object", values="value")


def describe(script: str, *, timeout: float = 120.0) -> Structure:
    """Build ``script``'s scenario in NS-2 (without simulating) and describe it."""
    with run_script(_PRELUDE + "\n" + script, timeout=timeout) as done:
        lines = done.stdout.splitlines()
    nodes = 0
    links, agents, apps, schedule, variables = [], [], [], [], []
    for line in lines:
        fields = line.split("\t")
        kind = fields[0]
        if kind == "nodes":
            nodes = int(fields[1])
        elif kind == "link":
            src, dst, bandwidth, delay, queue, queue_object = fields[1:7]
            links.append((int(src), int(dst), float(bandwidth), float(delay), queue, queue_object))
        elif kind == "agent":
            node, agent, obj, peer, peer_port = fields[1:6]
            agents.append((int(node), agent, int(peer), int(peer_port), obj))
        elif kind == "app":
            apps.append((fields[1], fields[2], fields[3]))
        elif kind == "at":
            schedule.append((float(fields[1]), fields[2], fields[3]))
        elif kind == "var":
            variables.append((fields[1], fields[2], fields[3] if len(fields) > 3 else ""))
    links = pd.DataFrame(
        links, columns=["src", "dst", "bandwidth", "delay", "queue", "queue_object"]
    )
    agents = pd.DataFrame(agents, columns=["node", "agent", "peer_node", "peer_port", "object"])
    node_of_agent = dict(zip(agents["object"], agents["node"], strict=True))
    applications = pd.DataFrame(apps, columns=["application", "object", "agent"]).drop_duplicates(
        "object"
    )
    applications["node"] = applications["agent"].map(node_of_agent)
    application_of = dict(zip(applications["object"], applications["application"], strict=True))
    node_of_application = dict(zip(applications["object"], applications["node"], strict=True))
    schedule = pd.DataFrame(schedule, columns=["time", "object", "command"])
    schedule["application"] = schedule["object"].map(application_of)
    schedule["node"] = schedule["object"].map(node_of_application)
    return Structure(
        nodes=nodes,
        links=links,
        agents=agents,
        applications=applications[["node", "application", "object", "agent"]],
        schedule=schedule[["time", "node", "application", "command", "object"]],
        variables=pd.DataFrame(variables, columns=["object", "variable", "value"]),
    )


def class_defaults(classes: list[str], *, timeout: float = 60.0) -> pd.DataFrame:
    """NS-2's default of every bound variable of ``classes`` (``Agent/TCP``,
    ``Mac/802_11``...): one row per (``class``, ``variable``, ``value``), the value as
    NS-2 prints it, inherited defaults included (as TclCL initialises a new object).

    Only Tcl-bound variables have defaults here; values a C++ constructor sets without
    binding them (e.g. ``WirelessPhy``'s ``Pt_consume_``) are not visible to Tcl.
    """
    lines = [
        "proc tl_defaults {class} {",
        "    set seen {}",
        "    foreach c [concat [list $class] [$class info heritage]] {",
        "        foreach v [lsort [$c info vars]] {",
        "            if {[lsearch -exact $seen $v] >= 0} { continue }",
        "            lappend seen $v",
        '            puts [join [list $class $v [$c set $v]] "\\t"]',
        "        }",
        "    }",
        "}",
        *[f"tl_defaults {name}" for name in classes],
    ]
    with run_script("\n".join(lines) + "\n", timeout=timeout) as done:
        rows = [line.split("\t") for line in done.stdout.splitlines() if "\t" in line]
    return pd.DataFrame(
        [r + [""] * (3 - len(r)) for r in rows], columns=["class", "variable", "value"]
    )
