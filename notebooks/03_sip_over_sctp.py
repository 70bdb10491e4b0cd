# ---
# jupyter:
#   jupytext:
#     formats: ipynb,py:percent
#     text_representation:
#       extension: .py
#       format_name: percent
#       format_version: '1.3'
#       jupytext_version: 1.19.6
#   kernelspec:
#     display_name: Python 3 (ipykernel)
#     language: python
#     name: python3
# ---

# %% [markdown]
# # SIP over UDP, TCP and SCTP: transactions, loss and multi-streaming
#
# **Study:** `sip_over_sctp`, reproducing seed `002_8ca3fd7f92b4e1a6.txt`, a 2003
# project report: the SIP proxy Partysip and the user agent Linphone modified to run
# over SCTP (Linux LKSCTP 2.4.18-0.4.6), measured on a testbed of Pentium machines
# with Ethereal and NIST Net packet loss. Four experiments:
#
# | | seed | here |
# |---|---|---|
# | 1 | Figure 5.2: ttcp (and an SCTP test program) throughput against message size, 100 Mb/s LAN, no data above 1024 B for SCTP (fragmentation did not work) | ns-3 BulkSend/OnOff over UDP, TCP, SCTP, 100 Mb/s point-to-point link, up to 8 kB messages (IP fragmentation, TCP segmentation, SCTP DATA-chunk fragmentation) |
# | 2 | Section 5.3: registration, call set-up, call termination over UDP and SCTP, one session, no loss: 7 vs 14 ms, 4.6 vs 6 s, 2.4 vs 1.7 s | the same transactions in our SIP model over UDP, TCP and SCTP, with and without connection/association set-up |
# | 3 | Section 5.4, Table 5.3: eight user agents per side, all traffic through a router dropping 5-30 % of packets; SIP call transactions handled | eight caller/callee pairs through the proxy, packet drops at the router, completed calls in a measurement window, with replications |
# | 4 | Section 3.4 (Rajamani et al.): eight transfers under loss, SCTP multi-streaming against TCP (figures only) | eight concurrent transfers over one SCTP association with eight streams or one stream, one TCP connection, eight TCP connections |
#
# **The SIP model** (`src/sip`, C++): user agents and a stateful proxy with a registrar
# that exchange real SIP text (REGISTER, INVITE, 100 Trying, 180 Ringing, 200 OK, ACK,
# BYE, with SDP bodies) through the RFC 3261 transaction layer: INVITE and non-INVITE
# client and server transactions with Timers A, B, D, E, F, G, H, I, J, K (T1 = 500 ms,
# T2 = 4 s, T4 = 5 s), retransmissions over UDP only, Content-Length framing on TCP,
# one SIP message per SCTP user message over SCTP (RFC 4168) with each concurrent call
# on its own stream. The proxy record-routes, so ACK and BYE pass through it, as in the
# seed's Figure 2.5.
#
# **What differs from the original, and why**
#
# * A simulation, not a testbed: no CPU time, no sound devices, no people. Messages
#   are processed in zero time unless a processing delay is set (section 4 uses it to
#   separate protocol time from host time). The seed's absolute times are dominated by
#   what the simulation leaves out; we say where.
# * The SCTP model is ours (`src/sctp`, RFC 9260), not LKSCTP 0.4.6: RTO.Initial = RTO.Min
#   = 1 s, RTO.Max = 60 s, delayed SACK 200 ms, fragmentation works, DATA is not bundled
#   with COOKIE ECHO (the seed's REGISTER rode in the COOKIE ECHO).
# * Association layout as in the seed (section 5.3.1): the proxy listens on 5060 and
#   sends everything from an outbound socket (port 5061), so there is one association
#   per user-agent host and direction; ns-3 sockets are one-to-one, so the user agents
#   open theirs from an ephemeral port instead of 5060, and only the first outbound
#   association of the proxy gets port 5061 (numbers only; the timing is the same).
#   Section 5 also shows the single-association layout (`layout = "shared"`).
# * Seed multi-session details we had to choose: the measurement window (not stated;
#   `window`), the call pattern of the eight user agents (not stated; back-to-back calls
#   with `call_duration` of talk and `call_interval` between calls, answered at once),
#   and where NIST Net dropped packets (we drop every packet crossing the router with the
#   same probability, both directions). Registrations happen before the loss starts.
#   Absolute counts therefore scale with our window and call pattern; the comparison is
#   about the shape of the curves and the order of the transports.

# %% tags=["parameters"]
quick = True  # quick mode: short windows and few replications (tests, CI, Binder)
scheduler = None  # None: in this process when quick, a local Dask cluster otherwise
runs = None  # replications (ns-3 RngRun 1..runs) per point; None: 2 quick, 10 full
params = {}  # study parameters that differ from the defaults (see the table below)

# %% [markdown]
# ## 1. Parameters
#
# `experiment` selects one of the four experiments; the sweeps below set it (and the
# transport, message size, loss rate...) per point. Everything else comes from this
# table.

# %%
import numpy as np
import pandas as pd

from transportlab import sweep
from transportlab.studies import sip_over_sctp as study

STUDY = study.STUDY
PARAMS = STUDY.validate(params, quick=quick)
RUNS = runs or (2 if quick else 10)
TRANSPORTS = ["udp", "tcp", "sctp"] if study.sctp_available() else ["udp", "tcp"]
SIZES = [128, 512, 1024, 1472, 4096] if quick else [64, 128, 256, 512, 1024, 1472, 2048,
                                                    4096, 8192]
LOSSES = [0.05, 0.10, 0.20, 0.30]  # Table 5.3
HOL_LOSSES = [0.0, 0.02, 0.05] if quick else [0.0, 0.01, 0.02, 0.05, 0.10]
pd.set_option("display.width", 120)
STUDY.parameters.describe().assign(value=[PARAMS[n] for n in PARAMS])[
    ["name", "value", "unit", "help"]
]

# %%
# NBVAL_IGNORE_OUTPUT
# ns-3 with the transportlab library (~2 s with the precompiled header, 10+ s without).
from transportlab import ns  # noqa: F401

# %% [markdown]
# ## 2. The SIP model, one call at a time
#
# One caller (a1 on host A) registers, calls b1 (host B) through the proxy, talks for a
# second and hangs up. The table lists what host A sends and receives, with the size of
# each SIP message (bytes of SIP text; the seed: "the average size of SIP messages is
# about 500 bytes"). Over SCTP the same SIP messages travel, one per SCTP user message,
# on the stream of their call.
# %%
# NBVAL_CHECK_OUTPUT
from transportlab import sip
from transportlab.simulation import run_until, simulation


def one_call(transport):
    with simulation(seed=1, run=1):
        testbed = sip.build_testbed(transport, 1, max_calls=1, record_messages=True)
        run_until(4.0)
        return testbed.recorder.messages()


flows = {t: one_call(t) for t in TRANSPORTS}
host_a = {t: m[m["endpoint"] == "host_a"].reset_index(drop=True) for t, m in flows.items()}
table = host_a["udp"][["direction", "kind"]].copy()
for t in TRANSPORTS:
    table[f"{t} bytes"] = host_a[t]["size"]
    table[f"{t} ms"] = (host_a[t]["time"] * 1e3).round(3)
print(table.to_string(index=False))
print("mean SIP message size (all elements, UDP):",
      round(flows["udp"][flows["udp"]["direction"] == "sent"]["size"].mean()), "bytes")

# %% [markdown]
# Over TCP and SCTP the REGISTER leaves later (0.42 ms and 0.86 ms after the UDP one):
# the connection (three-way handshake) or the association (INIT, INIT ACK, COOKIE ECHO,
# COOKIE ACK) is set up first. The 200 OK needs a second set-up, because the proxy
# answers from its outbound port (seed section 5.3.1). The messages grow by 2-4 bytes
# ("SIP/2.0/SCTP" in Via, "transport=sctp" in URIs). Once everything is up, the call
# takes the same time over all three transports: on a loss-free LAN a reliable
# transport costs nothing more.
#
# The seed's Figure 5.5 as our SCTP model puts it on the wire (the proxy's link,
# decoded by tshark):

# %%
# NBVAL_IGNORE_OUTPUT
import shutil
import subprocess
import tempfile
from pathlib import Path

if "sctp" in TRANSPORTS and shutil.which("tshark"):
    with tempfile.TemporaryDirectory() as folder:
        with simulation(seed=1, run=1):
            sip.build_testbed("sctp", 1, max_calls=0, pcap_prefix=str(Path(folder) / "proxy"))
            run_until(0.3)
        pcap = next(Path(folder).glob("proxy-*.pcap"))
        fields = ["frame.time_relative", "ip.src", "sctp.srcport", "ip.dst", "sctp.dstport",
                  "_ws.col.Info"]
        decoded = subprocess.run(
            ["tshark", "-r", str(pcap), "-o", "sctp.checksum:crc-32c", "-T", "fields"]
            + [a for f in fields for a in ("-e", f)], capture_output=True, text=True).stdout
    rows = [line.split("\t") for line in decoded.splitlines()]
    print(pd.DataFrame(rows, columns=["t (s)", "from", "port", "to", "port ", "tshark"])
          .query("`from` == '10.1.1.2' or `to` == '10.1.1.2'").to_string(index=False))
else:
    print("needs the SCTP module and tshark")

# %% [markdown]
# ## 3. Experiment 1: throughput against message size (seed Figure 5.2)
#
# ttcp writes `-l`-byte buffers as fast as the socket takes them; the seed's SCTP
# program sent messages the same way. Here: TCP and SCTP through ns-3 `BulkSend`
# (one message per `Send`, TCP_NODELAY as `ttcp -D`), UDP through an `OnOff` source
# offering 5 % more than the link carries (the excess waits in the sender's queue, as
# a blocking `sendto` would wait). Goodput at the receiver after a 0.5 s warm-up.
# Without randomness every replication is identical: one run per point.
#
# The dashed lines are a hand calculation: the link rate times the share of payload in
# the bytes on the wire (UDP/IP/PPP headers per datagram and per IP fragment; full
# 1448-byte TCP segments with the timestamp option whatever the write size; SCTP DATA
# chunks of 16 + message bytes bundled into 1500-byte packets, or fragmented above it).

# %%
throughput_points = [dict(PARAMS, experiment="throughput", transport=t, message_size=s)
                     for t in TRANSPORTS for s in SIZES]
throughput = sweep.run(STUDY, throughput_points, runs=1, quick=quick,
                       scheduler=scheduler)["summary"]

# %%
# NBVAL_CHECK_OUTPUT
goodput = throughput.pivot_table(index="message_size", columns="transport",
                                 values="goodput_mbps").round(1)
bound = throughput.pivot_table(index="message_size", columns="transport",
                               values="wire_bound_mbps").round(1)
bound.columns = [f"{c} bound" for c in bound.columns]
print(goodput.join(bound).to_string())

# %%
import matplotlib.pyplot as plt

from transportlab.figures import save_figure
from transportlab.paths import project_root

COLORS = {"udp": "tab:blue", "tcp": "tab:orange", "sctp": "tab:green"}
fig, ax = plt.subplots(figsize=(6.5, 3.8))
for t in TRANSPORTS:
    rows = throughput[throughput["transport"] == t].sort_values("message_size")
    ax.plot(rows["message_size"], rows["goodput_mbps"], "o-", color=COLORS[t],
            label=t.upper())
    ax.plot(rows["message_size"], rows["wire_bound_mbps"], "--", color=COLORS[t], lw=0.8)
ax.axvline(1472, color="0.6", lw=0.6)
ax.text(1472, ax.get_ylim()[0] + 1, " MTU", color="0.4", fontsize=8)
ax.set_xscale("log", base=2)
ax.set_xlabel("message size (bytes)")
ax.set_ylabel("goodput (Mb/s)")
ax.set_title("Throughput on a 100 Mb/s link (dashed: header-overhead bound)", fontsize=9)
ax.legend()
fig.tight_layout()
path = save_figure(fig, STUDY.name, "throughput", quick=quick, n_runs=1)
print(path.relative_to(project_root()))

# %% [markdown]
# **Against the seed.** The seed found UDP > TCP > SCTPLIB > LKSCTP at every size, TCP
# and SCTP far below UDP for small messages, and blamed framing overhead and unoptimised
# SCTP stacks. In the simulation the link, not the hosts, is the limit, and the order is
# set by headers alone: for small messages TCP is best (many messages share one
# segment), SCTP next (many messages share a packet, but each DATA chunk carries 16
# bytes of header), UDP last (28 bytes of headers per message); from about 1 kB on all
# # three reach 93-98 %. TCP stays a few percent under its bound for writes just under or
# above the segment size (1024, 1472 bytes): with TCP_NODELAY (ttcp -D) a write that
# does not fill a segment leaves as a short segment whenever the window is open. The
# seed's curves are CPU-bound: a 400-500 MHz Pentium spent more
# time per `send` than the wire per byte, so fewer, larger writes won, and a user-space
# or young kernel SCTP paid most. That is the testbed, not the protocols. Above the MTU
# our UDP datagrams travel as IP fragments and SCTP messages as fragmented DATA chunks;
# both work (the seed's kernel could not fragment).
#
# ## 4. Experiment 2: single-session transaction times (seed section 5.3)
#
# One user agent per side, no loss. Registration (the caller's REGISTER transaction,
# with connection/association set-up, then a refresh 0.2 s later when everything is
# up), call set-up (the caller's INVITE transaction, minus the callee's answer delay:
# the seed subtracted its manual answering time T1), call termination (the caller's BYE
# transaction). `seed` layout: the proxy sends from its outbound port (two associations
# per user agent); `shared`: one association per user agent.

# %%
single_points = [dict(PARAMS, experiment="single_session", transport=t, layout=layout)
                 for t in TRANSPORTS for layout in ("seed", "shared")]
single = sweep.run(STUDY, single_points, runs=1, quick=quick,
                   scheduler=scheduler)["summary"]

# %%
# NBVAL_CHECK_OUTPUT
columns = ["registration_ms", "registration_warm_ms", "call_setup_s", "call_termination_s"]
shown = single.set_index(["transport", "layout"])[columns].copy()
shown["call_setup_s"] *= 1e3
shown["call_termination_s"] *= 1e3
print(shown.rename(columns={"call_setup_s": "call_setup_ms",
                            "call_termination_s": "call_termination_ms"}).round(3).to_string())

# %% [markdown]
# What the protocols cost on a LAN with 0.1 ms links: registration is one round trip
# over UDP (0.53 ms); over TCP two three-way handshakes come first (+0.85 ms: UA to
# proxy, then proxy port 5061 back to the UA), over SCTP two four-way handshakes
# (+1.73 ms). With the shared layout one set-up suffices. With the connection or
# association up, all transports take the same 0.53-0.54 ms, and call set-up and
# termination take 1.1-1.4 ms everywhere.
#
# **The seed's numbers are mostly the testbed.** Its 4.6 s / 6 s call set-up (after
# subtracting the answer time) and 2.4 s / 1.7 s termination are three to four orders
# of magnitude above any protocol time on a LAN without loss: no SIP or SCTP mechanism
# produces seconds there (a lost message would: T1 = 0.5 s, RTO.Min = 1 s, but the test
# had no loss). They measure Linphone 0.9 and its host: the GUI, opening and closing the
# sound device, the RTP session, Ethereal capturing on the proxy host, and the human's
# answering that could only be subtracted approximately. Note also that the seed
# contradicts itself on termination: section 5.3.3 gives 1.7 s for SCTP and 2.4 s for
# UDP, Table 5.5 the reverse.
#
# Registration, 7 ms (UDP) and 14 ms (SCTP), is closer. How much per-message processing
# would explain it? The sweep below adds a processing time per received SIP message at
# the proxy (and the same at the user-agent hosts), served one at a time: UDP
# registration then grows by two processing times (request at the proxy, response at
# the UA). Reading the seed's 7 ms as about 3 ms per message on its 233 MHz proxy and
# 400 MHz UA, SCTP adds only the handshakes' round trips (1.7 ms) on top: about 8.7 ms,
# not 14. The other 5 ms are SCTP's own per-packet cost in the 2002 kernel (eight more
# packets: the handshakes and SACKs), which our processing model, applied to SIP
# messages only, leaves out. This is an estimate, not a fit: nothing is tuned, the lines
# show how the times scale.

# %%
processing = [0.0, 1.0, 2.0, 3.0, 4.0]
what_if_points = [dict(PARAMS, experiment="single_session", transport=t,
                       proxy_processing_ms=p, agent_processing_ms=p)
                  for t in TRANSPORTS for p in processing]
what_if = sweep.run(STUDY, what_if_points, runs=1, quick=quick,
                    scheduler=scheduler)["summary"]

# %%
# NBVAL_CHECK_OUTPUT
print(what_if.pivot_table(index="proxy_processing_ms", columns="transport",
                          values="registration_ms").round(2).to_string())

# %%
fig, ax = plt.subplots(figsize=(6.0, 3.6))
for t in TRANSPORTS:
    rows = what_if[what_if["transport"] == t].sort_values("proxy_processing_ms")
    ax.plot(rows["proxy_processing_ms"], rows["registration_ms"], "o-", color=COLORS[t],
            label=f"{t.upper()} (simulated)")
for protocol, value in (("udp", 7.0), ("sctp", 14.0)):
    ax.axhline(value, color=COLORS[protocol], ls=":", lw=1)
    ax.text(0.05, value + 0.2, f"seed {protocol.upper()}: {value:g} ms",
            color=COLORS[protocol], fontsize=8)
ax.set_xlabel("processing time per received SIP message (ms), proxy and user agents")
ax.set_ylabel("registration time (ms)")
ax.set_title("Registration with association/connection set-up", fontsize=9)
ax.legend(fontsize=8)
fig.tight_layout()
path = save_figure(fig, STUDY.name, "registration_processing", quick=quick, n_runs=1)
print(path.relative_to(project_root()))

# %% [markdown]
# ## 5. Experiment 3: calls under loss (seed section 5.4, Table 5.3)
#
# Eight callers a1..a8 on host A call b1..b8 on host B through the proxy, back to back
# (INVITE, answered at once, `call_duration` of talk, BYE, `call_interval` pause, next
# INVITE). From the first INVITE on, the router drops every packet with probability
# `loss_rate`. Counted: calls completed (INVITE and BYE both answered 200) within
# `window` seconds. A caller that has no final response 32 s (64 T1) after its INVITE
# gives up the call. Mean over the replications with a 95 % confidence interval
# (Student's t).

# %%
multi_points = [dict(PARAMS, experiment="multi_session", transport=t, loss_rate=loss)
                for t in TRANSPORTS for loss in LOSSES]
multi = sweep.run(STUDY, multi_points, runs=RUNS, quick=quick, scheduler=scheduler)
multi_summary = multi["summary"]

# %%
# NBVAL_CHECK_OUTPUT
from transportlab.published import confidence_interval


def mean_ci(values):
    mean, low, high, _ = confidence_interval(values)
    return pd.Series({"mean": mean, "ci_low": low, "ci_high": high})


calls_table = (multi_summary.groupby(["transport", "loss_rate"])["completed_calls"]
               .apply(mean_ci).unstack())
print(f"completed calls in {PARAMS['window']:g} s, {RUNS} runs per point")
print(calls_table.round(1).to_string())
seed_table = pd.DataFrame({"udp": [70, 40, 32, 20], "sctp": [60, 43, 37, 26]},
                          index=pd.Index(LOSSES, name="loss_rate"))
ratio = (calls_table["mean"].unstack(0)["sctp"] / calls_table["mean"].unstack(0)["udp"]
         if "sctp" in TRANSPORTS else None)
if ratio is not None:
    print("SCTP / UDP:   ours", ratio.round(2).tolist(),
          "  seed", (seed_table["sctp"] / seed_table["udp"]).round(2).tolist())
relative = calls_table["mean"].unstack(0) / calls_table["mean"].unstack(0).loc[0.05]
print("relative to 5 % loss, ours:")
print(relative.round(2).to_string())
print("relative to 5 % loss, seed:")
print((seed_table / seed_table.loc[0.05]).round(2).to_string())

# %%
fig, (left, right) = plt.subplots(1, 2, figsize=(10, 3.8))
for t in TRANSPORTS:
    rows = calls_table.loc[t]
    left.errorbar(np.array(LOSSES) * 100, rows["mean"],
                  yerr=[rows["mean"] - rows["ci_low"], rows["ci_high"] - rows["mean"]],
                  fmt="o-", color=COLORS[t], capsize=3, label=f"{t.upper()} (simulated)")
for t in ("udp", "sctp"):
    right.plot(np.array(LOSSES) * 100, seed_table[t], "s--", color=COLORS[t],
               label=f"{t.upper()} (seed Table 5.3)")
    if t in TRANSPORTS:
        right.plot(np.array(LOSSES) * 100, relative[t] * seed_table.loc[0.05, t], "o-",
                   color=COLORS[t], alpha=0.5, label=f"{t.upper()} simulated, scaled at 5 %")
left.set_xlabel("packet loss at the router (%)")
left.set_ylabel(f"completed calls in {PARAMS['window']:g} s")
left.set_title("Eight call pairs through the proxy (95 % CI)", fontsize=9)
left.legend(fontsize=8)
right.set_xlabel("packet loss at the router (%)")
right.set_ylabel("SIP call transactions")
right.set_title("Seed, and our curves scaled to the seed's 5 % value", fontsize=9)
right.legend(fontsize=7)
fig.tight_layout()
path = save_figure(fig, STUDY.name, "calls_under_loss", quick=quick, n_runs=RUNS)
print(path.relative_to(project_root()))

# %% [markdown]
# **Where SCTP and UDP cross.** Per replication, the difference SCTP - UDP against the
# loss rate, interpolated linearly where it changes sign:

# %%
# NBVAL_CHECK_OUTPUT


def crossing(frame):
    """Loss rates (%) where SCTP - UDP changes sign, and on which side SCTP is ahead."""
    per_loss = frame.pivot_table(index="loss_rate", columns="transport",
                                 values="completed_calls")
    difference = (per_loss["sctp"] - per_loss["udp"]).to_numpy()
    losses = per_loss.index.to_numpy() * 100
    found = []
    for i in range(len(difference) - 1):
        a, b = difference[i], difference[i + 1]
        if a * b < 0 or (a == 0 and b != 0 and i > 0 and difference[i - 1] * b < 0):
            x = losses[i] + (losses[i + 1] - losses[i]) * a / (a - b)
            found.append((round(float(x), 1),
                          "SCTP ahead above" if b > 0 else "SCTP ahead below"))
    return found


if "sctp" in TRANSPORTS:
    crossings = {run: crossing(group) for run, group in multi_summary.groupby("run")}
    for run, found in crossings.items():
        print(f"run {run}: {found or 'no crossing'}")
    mean_calls = multi_summary.groupby(["loss_rate", "transport"])["completed_calls"].mean()
    print("means:", crossing(mean_calls.reset_index()))

# %% [markdown]
# **Against the seed.** Loss hurts UDP in the simulation in nearly the same proportion as
# in the seed: from 5 % to 30 % the completed calls fall to about 0.3 of their value in
# both. SCTP behaves differently: the simulation has it ahead of UDP at low loss and far
# behind at high loss, the seed the reverse (UDP 70 vs SCTP 60 at 5 %, SCTP ahead from
# 10 % on). The mechanisms, visible in the transaction tables:
#
# * At low loss, eight calls keep the associations busy, so most lost DATA chunks are
#   repaired by fast retransmit within a few milliseconds, while SIP over UDP waits for
#   Timer A/E (500 ms) per lost message.
# * At high loss, SCTP's retransmission timer, shared by all calls of an association,
#   backs off (1, 2, 4 ... up to 60 s) after consecutive losses of a DATA chunk or its
#   SACK, and Karn's rule keeps it high until a clean round trip; every call on that
#   association stalls (on their own streams, but behind one timer). SIP over UDP has a
#   fresh T1 = 500 ms for every new transaction and never backs off beyond 4 s (T2) for
#   non-INVITE requests. At 30 % loss a packet and its acknowledgement both survive only
#   half the time, so SCTP's timer rarely comes down.
# * TCP has both problems and head-of-line blocking between the eight calls on one
#   connection: it is worst throughout.
#
# Why the seed saw otherwise cannot be settled from the report: its loss configuration
# is given only as an example NIST Net entry between the two user-agent machines (with
# all SIP traffic going through the proxy), the window and call pattern are not stated,
# the counts come from single runs with people clicking eight GUIs per machine, and
# LKSCTP 0.4.6's retransmission and backoff may not have followed RFC 2960. The seed's
# own conclusion is cautious: "we currently cannot conclude that proxy server using SCTP
# performs better than the one using UDP".
#
# **Does multi-streaming matter for SIP?** The same 10 % loss with each call on its own
# stream, all messages on stream 0 unordered (RFC 4168's simplest mapping), all on stream
# 0 in order (a plain `sendmsg` without stream information), and with a single
# association per user-agent host (`shared` layout):

# %%
if "sctp" in TRANSPORTS:
    mapping_points = [dict(PARAMS, experiment="multi_session", transport="sctp",
                           loss_rate=0.10, stream_mapping=m)
                      for m in ("per-call", "single-unordered", "single-ordered")]
    mapping_points.append(dict(PARAMS, experiment="multi_session", transport="sctp",
                               loss_rate=0.10, layout="shared"))
    mapping = sweep.run(STUDY, mapping_points, runs=RUNS, quick=quick,
                        scheduler=scheduler)["summary"]

# %%
# NBVAL_CHECK_OUTPUT
if "sctp" in TRANSPORTS:
    print(mapping.groupby(["layout", "stream_mapping"])[
        ["completed_calls", "mean_setup_s", "mean_teardown_s"]].mean().round(3).to_string())

# %% [markdown]
# Head-of-line blocking between calls does show: with every message of every call on
# one ordered stream, a lost message holds up the messages of the other calls that
# arrived after it until its retransmission, and set-up and tear-down take longer and
# fewer calls complete. Unordered delivery (RFC 4168's recommendation) removes the
# blocking entirely; a stream per call removes it between calls, while the messages of
# one call still wait for each other. The single-association layout changes little. What
# neither can remove is the shared retransmission timer, which dominates at high loss.
#
# ## 6. Experiment 4: head-of-line blocking (seed section 3.4, Rajamani et al.)
#
# Eight transfers of `object_size` bytes start together over a 10 Mb/s link with
# `hol_delay_ms` one-way delay and independent packet loss in both directions: over one
# SCTP association with a stream per transfer, one association with one stream, one TCP
# connection (records of the eight transfers interleaved), or eight TCP connections.
# Completion time of each transfer, from the first record written.

# %%
hol_points = [dict(PARAMS, experiment="hol", hol_config=c, loss_rate=loss)
              for c in study.HOL_CONFIGS
              if c.startswith("tcp") or "sctp" in TRANSPORTS
              for loss in HOL_LOSSES]
hol = sweep.run(STUDY, hol_points, runs=RUNS, quick=quick, scheduler=scheduler)

# %%
# NBVAL_CHECK_OUTPUT
hol_summary = hol["summary"]
print(f"{PARAMS['objects']} objects of {PARAMS['object_size']} bytes, {RUNS} runs per point;"
      " seconds")
print(hol_summary.groupby(["hol_config", "loss_rate"])[
    ["mean_completion_s", "max_completion_s", "mean_record_delay_s", "p99_record_delay_s"]]
    .mean().round(3).to_string())

# %%
fig, axes = plt.subplots(1, 2, figsize=(10, 3.8))
configs = sorted(hol_summary["hol_config"].unique())
for offset, config in enumerate(configs):
    rows = hol_summary[hol_summary["hol_config"] == config]
    for ax, column in zip(axes, ("mean_completion_s", "p99_record_delay_s"), strict=True):
        means = rows.groupby("loss_rate")[column].mean()
        x = np.arange(len(means)) + (offset - (len(configs) - 1) / 2) * 0.2
        ax.bar(x, means.values, width=0.2, label=config)
for ax, label in zip(axes, ("mean completion time (s)", "99th percentile record delay (s)"),
                     strict=True):
    ax.set_xticks(range(len(HOL_LOSSES)), [f"{loss:.0%}" for loss in HOL_LOSSES])
    ax.set_xlabel("packet loss (both directions)")
    ax.set_ylabel(label)
axes[0].set_title("Eight concurrent transfers", fontsize=9)
axes[1].set_title("How long a record waits from write to delivery", fontsize=9)
axes[0].legend(fontsize=8)
fig.tight_layout()
path = save_figure(fig, STUDY.name, "head_of_line", quick=quick, n_runs=RUNS)
print(path.relative_to(project_root()))

# %% [markdown]
# Without loss the eight transfers end together in every configuration: the window, not
# the streams, sets the pace, and eight TCP connections (eight congestion windows) are a
# little faster. Under loss three effects separate:
#
# * *Head-of-line blocking* (one SCTP association, eight streams against one stream; same
#   packets, same losses): a record of another transfer no longer waits for a lost one,
#   so records arrive sooner (lower mean and 99th-percentile delay) and, from a few
#   percent of loss on, transfers finish somewhat earlier. The gain is modest, because
#   interleaved transfers all need the whole window's worth of repairs anyway.
# * *Loss recovery*: at 1-2 % loss one TCP connection carrying all eight transfers is
#   ahead of one SCTP association, at 5-10 % it falls far behind (ns-3's TCP backs off its
#   retransmission timer after repeated losses, much as SCTP does in section 5). In that
#   range SCTP, with or without streams, beats a single TCP connection, as Rajamani et al.
#   found for HTTP (figures only in the seed).
# * *Aggressiveness*: eight TCP connections are eight congestion controllers that halve
#   only an eighth of the sending rate per loss; they finish first, with the widest spread
#   between the first and the last transfer: not head-of-line blocking but a larger share
#   of the link than one flow would take.
#
# ## 7. Comparison with the published numbers
#
# `data/published/sip_over_sctp.csv` holds the seed's numbers (sections 5.3.x, Tables
# 5.3 and 5.5). Reproduced: the single-session times of the seed layout (the seed's
# set-up), completed calls per loss rate, and the loss rate above which SCTP completes
# more calls than UDP (none in the simulation: NaN).

# %%
rows = []
seed_single = single[single["layout"] == "seed"]
for transport in ("udp", "sctp"):
    if transport not in TRANSPORTS:
        continue
    record = seed_single[seed_single["transport"] == transport].iloc[0]
    for metric_row, column, unit in (("SIP registration", "registration_ms", "ms"),
                                     ("SIP call setup", "call_setup_s", "s"),
                                     ("SIP call termination", "call_termination_s", "s")):
        rows.append({"protocol": transport.upper(), "metric": "transaction_response_time",
                     "row": metric_row, "unit": unit, "value": record[column]})
    for _, run in multi_summary[multi_summary["transport"] == transport].iterrows():
        rows.append({"protocol": transport.upper(), "metric": "sip_call_transactions",
                     "row": f"packet loss {run['loss_rate']:.0%}", "unit": "transactions",
                     "value": run["completed_calls"]})
if "sctp" in TRANSPORTS:
    # The seed's crossover: the loss rate above which SCTP handles more calls, read off
    # the mean curves (NaN: there is none).
    above = [x for x, direction in crossing(mean_calls.reset_index())
             if direction == "SCTP ahead above"]
    rows.append({"protocol": "SCTP", "metric": "crossover_loss_rate",
                 "row": "SCTP vs UDP, eight user agents per side", "unit": "%",
                 "value": above[0] if above else np.nan})
reproduced = pd.DataFrame(rows)

# %%
# NBVAL_CHECK_OUTPUT
from transportlab.published import compare

comparison = compare(STUDY.name, reproduced, quick=quick)
print(comparison[["source", "protocol", "metric", "row", "unit", "published", "reproduced",
                  "n_runs", "verdict"]].round(4).to_string(index=False))

# %% [markdown]
# **Every verdict, explained.** A `same-direction` on the single-session rows only says
# that the order of UDP and SCTP agrees, by fractions of a millisecond here against
# seconds in the seed; it is not agreement. A `matches` on a Table 5.3 count is a
# coincidence of our choice of window and call pattern (the seed states neither).
#
# * *Registration* (7 and 14 ms published; 0.53 and 2.26 ms here). The simulation has no
#   host processing; on the seed's LAN the round trips are a fraction of a millisecond,
#   so its 7 ms are mostly the proxy's and user agent's processing, and the extra 7 ms of
#   SCTP mostly the cost of handling eight more SCTP packets (handshakes, SACKs) in a 2002
#   kernel on a 233 MHz machine (section 4: with 3 ms per SIP message, UDP lands at
#   7 ms, SCTP at 8.7 ms). What does carry over: SCTP registration is longer because
#   associations are set up first, twice with the seed's separate outbound port, and
#   about as long as UDP once they are up.
# * *Call set-up* (4.6 / 6 s) and *call termination* (2.4 / 1.7 s, or the reverse per
#   Table 5.5): about 1 ms here on every transport. No protocol mechanism makes seconds on
#   a loss-free LAN; the seed measured Linphone, its audio devices and a human answering
#   (subtracted by hand).
# * *Calls under loss* (Table 5.3): absolute counts depend on the unstated window and call
#   pattern (ours: 8 pairs calling back to back for `window` seconds), so they differ by
#   construction; the verdict `same-direction` marks the loss rates where the order of
#   UDP and SCTP agrees with the seed. Where it does not, the reason is section 5: SCTP's
#   shared, backed-off retransmission timer at high loss, fast retransmit at low loss.
# * *Crossover* (10 %): the simulated curves do cross near 10 % (section 5), but in the
#   other direction: SCTP is ahead below the crossing and behind above it. There is no
#   loss rate above which SCTP handles more calls, hence NaN.

# %%
from transportlab.files import write_csv
from transportlab.paths import results_dir

write_csv(comparison, results_dir(STUDY.name, quick) / "comparison.csv")
comparison
