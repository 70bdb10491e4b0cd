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
# # SCTP vs TCP with UDP cross traffic on a wired best-effort network
#
# **Study:** `wired_best_effort`, reproducing two NS-2 papers on one experiment:
# seed `000_efd8d8b62659a846.txt` (Tables 2-4) and the MSc thesis seed
# `004_c8175ad9bda103cf.txt` (Tables 4.1-4.7), whose Appendix A gives the Tcl
# scripts and Appendix B the AWK scripts that computed the metrics.
#
# ```
# sources 2..6  (FTP) ─┐                                          ┌─ sinks 12..16 (FTP)
#                      ├─ 1 Mb/s ─ router 0 ═ 0.5 Mb/s ═ router 1 ─ 1 Mb/s ─┤
# sources 7..11 (CBR) ─┘   10 ms        100 ms, DropTail 50       30 ms    └─ sinks 17..21 (CBR)
# ```
#
# Five FTP flows (infinite backlog) over TCP in one experiment and over SCTP in
# the other share the bottleneck with five CBR/UDP flows of 0.01 Mb/s. The papers
# report, per node pair, an average throughput, delay and jitter, and conclude that
# "TCP has better performance than SCTP": about 30 % more throughput, 30 % less
# delay and 60 % less jitter.
#
# This notebook runs the scenario in ns-3 as the scripts configure it, computes the
# metrics with the AWK definitions and with standard ones, compares them with every
# published number, and then looks for what produces each difference.
#
# **What differs from the original** (details in sections 2 and 3):
#
# | | NS-2 run | here | why |
# |---|---|---|---|
# | TCP | Agent/TCP = Tahoe | `TcpTahoe` + `TcpTahoeRecovery` (`src/tcp-tahoe`) | ns-3 has no Tahoe; with several losses per window ns-3 retransmits hole by hole where Tahoe goes back N (section 7.2 sweeps the alternatives) |
# | headers | TCP 1040 B, UDP 1000 B, no link header | real IP/TCP/UDP headers + 2 B PPP | ns-3 builds real packets (+0.2 % TCP, +3 % UDP airtime) |
# | SCTP | ns-2.35 Agent/SCTP | `src/sctp` with the NS-2.35 preset | our own model |
# | start times | exactly as scripted | + U(0, 100 ms) per replication | NS-2 is deterministic; the jitter measures how much the phase of the flows matters |
# | flow ids | all 0 (fid_ commented out) | one per pair | the AWK scripts then separate flows by node only, as here |

# %% tags=["parameters"]
quick = True  # quick mode: 300-s runs, 2 replications (tests, CI, Binder)
scheduler = None  # None: in this process when quick, a local Dask cluster otherwise
runs = None  # replications (ns-3 RngRun 1..runs) per point; None: 2 quick, 10 full
params = {}  # study parameters that differ from the defaults (see the table below)

# %% [markdown]
# ## 1. Parameters
#
# The defaults are the NS-2 scripts' values (`transportlab list` shows them all).
# `protocol` is the axis of the reproduction; the sweeps in section 7 vary the TCP
# configuration, the bottleneck rate and the modern presets.

# %%
import numpy as np
import pandas as pd

from transportlab import sweep
from transportlab.studies import wired_best_effort as wbe

PARAMS = wbe.STUDY.validate(params, quick=quick)
RUNS = runs or (2 if quick else 10)
SWEEP_RUNS = 1 if quick else 5
pd.set_option("display.width", 200)
wbe.STUDY.parameters.describe().assign(value=[PARAMS[n] for n in PARAMS])[
    ["name", "value", "unit", "help"]
]

# %%
# NBVAL_IGNORE_OUTPUT
# ns-3 with the transportlab library (~2 s with the precompiled header, 10+ s without).
from transportlab import ns  # noqa: F401

PROTOCOLS = ["tcp"] + (["sctp"] if wbe.sctp_available() else [])
print("transports of the FTP flows:", PROTOCOLS)

# %% [markdown]
# ## 2. The scenario, read off the scripts
#
# Where the papers' text and the Tcl scripts disagree we follow the scripts, which
# are what ran:
#
# | | text (000 and 004 ch. 4) | scripts (004 App. A) | used |
# |---|---|---|---|
# | bottleneck | 512 kbps | `0.5Mb` = 500 000 b/s (NS-2 units) | 500 kb/s; 512 kb/s in section 7 |
# | start times | 10 ms, 15 ms, ... | `$ns at 10 "$ftp2 start"`, ... (seconds) | seconds |
# | packets | "1000 kB at 1000 packets per second" | CBR `packetSize_ 1000`, `rate_ 0.01Mb`: one every 0.8 s | the scripts |
# | FTP | — | the SCTP script sets `packetSize_`, `rate_`, `random_` on `Application/FTP`, which binds none of them | no effect: FTP sends an infinite backlog |
# | end | "starts running from 10 sec and stops at 1000 sec" | `$ns at 1000 "finish"` | 1000 s (quick mode: 300 s) |
#
# Every link is `DropTail` with NS-2's default `limit_` of 50: NS-2 drops an arriving
# packet when 49 are waiting, the 50th being the one on the wire. An ns-3
# point-to-point device takes the packet it transmits out of its queue, so the
# device queue holds `limit - 1`; without flow control to a queue disc, the device
# queue itself drops the 50th arrival in event order (tested in
# `tests/studies/test_wired_best_effort.py` with a burst of 60 simultaneous packets:
# 50 leave, 10 are dropped). Nodes keep NS-2's numbers.

# %%
# NBVAL_CHECK_OUTPUT
print(wbe.node_pairs(PARAMS)[["pair", "application", "transport", "script_start"]]
      .to_string(index=False))
print("queue (NS-2 limit_ = %d):" % PARAMS["queue_limit"], wbe.queue_layout(PARAMS))
print(f"CBR interval: {wbe.cbr_interval(PARAMS):.2f} s")

# %% [markdown]
# **Packet sizes.** NS-2 gives a TCP packet one 40-byte header, a UDP packet none and
# an SCTP packet its 12-byte common header plus a 20-byte IP header; it has no link
# header. ns-3 builds real headers and the point-to-point link adds 2 bytes of PPP.
# At 0.5 Mb/s every byte is 16 µs of bottleneck time:

# %%
# NBVAL_CHECK_OUTPUT
print(wbe.packet_sizes(PARAMS).round(3).to_string(index=False))

# %% [markdown]
# A TCP data packet occupies the bottleneck 0.2 % longer than in NS-2 and a CBR
# packet 3 % longer: the five CBR flows take 51.5 kb/s instead of 50 kb/s, leaving
# ~1.5 kb/s less to the FTP flows (0.3 % of the link). An SCTP packet carrying 1452
# bytes of data is 1500 bytes in NS-2, 1502 on ns-3's wire.
#
# ## 3. TCP: NS-2's Agent/TCP in ns-3
#
# NS-2's default `Agent/TCP` is Tahoe with a 20-packet window, 1000-byte segments,
# an ACK for every packet and no options. ns-3 has no Tahoe, so `src/tcp-tahoe`
# adds NS-2's rules as a congestion control (`TcpTahoe`: growth per ACK,
# `ssthresh = int(window/2)` segments) and a loss recovery (`TcpTahoeRecovery`:
# after three duplicate ACKs retransmit and restart from one segment, no window
# inflation); `tests/test_tcp_tahoe.py` checks the window trajectory segment by
# segment. Every setting and what remains different:

# %%
wbe.TCP_DIFFERENCES

# %% [markdown]
# ## 4. Reproduction: both experiments, `RUNS` replications each
#
# Every replication (ns-3 RngRun) draws the flows' start times in
# [script time, script time + 100 ms). Results are cached per point and run
# (`transportlab.sweep`): re-running the notebook only computes what is missing.

# %%
reproduction = sweep.run(
    wbe.STUDY,
    [dict(PARAMS, protocol=p, record_series=False) for p in PROTOCOLS],
    runs=RUNS, quick=quick, scheduler=scheduler,
)
flows, runs_table = reproduction["flows"], reproduction["run"]
print(f"{len(PROTOCOLS)} experiments x {RUNS} runs = {len(runs_table)} simulations")

# %% [markdown]
# Per node pair: the papers' metrics (AWK scripts of seed 004 Appendix B, `tic` = 1 s,
# `pkt` = 1000 B; a table entry is the mean of the values a script prints) and the
# standard ones, mean over the replications:

# %%
# NBVAL_CHECK_OUTPUT
summary = wbe.per_pair_summary(flows)
table = summary.pivot_table(index=["protocol", "flow", "pair"], columns="metric", values="mean",
                            observed=True)[list(wbe.METRICS)].droplevel("flow")
print(table.round(1).to_string())

# %% [markdown]
# The same with 95 % confidence intervals (Student t over the runs) for the FTP pairs:

# %%
ftp_summary = summary[summary["application"] == "ftp"].copy()
ftp_summary["mean ± half CI"] = [
    f"{m:.4g} ± {(h - l) / 2:.2g}" if np.isfinite(h) else f"{m:.4g}"
    for m, l, h in zip(ftp_summary["mean"], ftp_summary["ci_low"], ftp_summary["ci_high"],
                       strict=True)
]
ftp_summary.pivot_table(index=["protocol", "flow", "pair"], columns="metric",
                        values="mean ± half CI", aggfunc="first")[list(wbe.METRICS)]

# %% [markdown]
# Bottleneck utilisation (bits on the wire, headers included, over capacity × time
# since the first start), drops on the bottleneck and Jain's fairness index of the
# five FTP flows (goodput and AWK throughput):

# %%
# NBVAL_CHECK_OUTPUT
per_run = runs_table.groupby("protocol")[
    ["bottleneck_utilisation", "bottleneck_drops", "jain_goodput", "jain_awk_throughput"]
].mean()
print(per_run.round(3).to_string())

# %% [markdown]
# ## 5. Comparison with the published numbers
#
# `transportlab.published.compare` takes every published number of Tables 2-4
# (seed 000) and 4.1-4.7 (seed 004) that has a reproduction and gives a verdict:
# `matches` (within 20 %), `same-direction` (the TCP-SCTP ordering agrees) or
# `differs`.
#
# Which quantity stands for the published "average delay" has to be decided
# first. The thesis defines it as "the time between the start and receive times"
# (section 4.4.1), and its delay script computes exactly that, `e2eDelay =
# recvTime - sendTime`, but prints another variable, `delay = recvTime -
# prev_time`, the gap between two arrivals. Section 6 shows that the tables cannot
# hold the printed gap and do hold the one-way delay, so `comparison.csv` uses the
# `e2eDelay` of the packets the script prints at; the verdicts under the printed
# reading are shown next to it.

# %%
from transportlab import published

comparison = published.compare(wbe.STUDY.name, wbe.reproduced_values(flows, delay="e2e"),
                               quick=quick)
comparison_printed = published.compare(
    wbe.STUDY.name, wbe.reproduced_values(flows, delay="printed"), quick=quick, write=False)
comparison[["seed_file", "source", "protocol", "metric", "row", "unit", "published",
            "reproduced", "ci_low", "ci_high", "n_runs", "verdict"]].round(2)

# %%
# NBVAL_CHECK_OUTPUT
counts = pd.concat({
    "e2eDelay reading (comparison.csv)": comparison.groupby(["metric", "protocol"])["verdict"]
    .value_counts().unstack(fill_value=0),
    "printed reading": comparison_printed[comparison_printed["metric"] == "awk_delay"]
    .groupby(["metric", "protocol"])["verdict"].value_counts().unstack(fill_value=0),
}).fillna(0).astype(int)
print(counts.to_string())

# %% [markdown]
# ### Figures like the papers' figures 4.5-4.43
#
# Per-pair averages (bars: mean of the replications, whiskers: 95 % CI) next to
# the published values of both seeds.

# %%
import matplotlib.pyplot as plt

from transportlab.figures import save_figure
from transportlab.paths import project_root

plt.rcParams["figure.dpi"] = 60  # inline previews; the saved PNGs have their own resolution

PUBLISHED = published.load(wbe.STUDY.name)
COLORS = {"tcp": "tab:blue", "sctp": "tab:red"}
PANELS = [("awk_throughput", "awk_throughput_kbps", "kbps", "AWK throughput (kb/s)", 1.0),
          ("awk_jitter", "awk_jitter_ms", "ms", "AWK jitter (ms)", 1.0),
          ("awk_delay", "awk_e2e_delay_ms", "ms", "AWK e2eDelay (ms)", 1.0)]
fig, axes = plt.subplots(1, 3, figsize=(13, 3.8))
pairs = [f"nodes {s}-{s + 10}" for s in range(2, 7)]
x = np.arange(len(pairs))
for ax, (metric, column, unit, label, _) in zip(axes, PANELS, strict=True):
    for i, protocol in enumerate(PROTOCOLS):
        rows = ftp_summary[(ftp_summary["protocol"] == protocol)
                           & (ftp_summary["metric"] == column)].set_index("pair").loc[pairs]
        offset = (i - 0.5) * 0.25
        ax.bar(x + offset, rows["mean"], width=0.25, color=COLORS[protocol],
               label=f"{protocol.upper()} ns-3")
        ax.errorbar(x + offset, rows["mean"], yerr=[rows["mean"] - rows["ci_low"],
                    rows["ci_high"] - rows["mean"]], fmt="none", color="black", linewidth=1)
    for protocol in ("TCP", "SCTP"):
        for seed, marker in (("000_efd8d8b62659a846.txt", "o"), ("004_c8175ad9bda103cf.txt", "s")):
            pub = PUBLISHED[(PUBLISHED["protocol"] == protocol) & (PUBLISHED["metric"] == metric)
                            & (PUBLISHED["seed_file"] == seed) & PUBLISHED["row"].isin(pairs)]
            if len(pub):
                pub = pub.set_index("row").loc[pairs]
                ax.scatter(x + (-0.125 if protocol == "TCP" else 0.125), pub["value"],
                           marker=marker, color=COLORS[protocol.lower()], edgecolor="black",
                           zorder=3, label=f"{protocol} seed {seed[:3]}")
    ax.set_xticks(x, [p.replace("nodes ", "") for p in pairs])
    ax.set_xlabel("node pair")
    ax.set_title(label, fontsize=10)
axes[0].legend(fontsize=7, loc="lower left")
fig.tight_layout()
path = save_figure(fig, wbe.STUDY.name, "per_pair_averages", quick=quick, n_runs=RUNS)
print(path.relative_to(project_root()))

# %% [markdown]
# Time series of one replication (RngRun 1), like the papers' per-stream figures
# 4.12-4.16 (delay), 4.25-4.29 (jitter) and 4.38-4.42 (throughput): the AWK scripts'
# output per 1-s window, plus the bottleneck queue and the congestion windows.

# %%
detail = {p: wbe.simulate(dict(PARAMS, protocol=p, record_packets=True), seed=1, run=1)
          for p in PROTOCOLS}
fig, axes = plt.subplots(5, 3, figsize=(14, 12), sharex=True)
for row, flow in enumerate(range(5)):
    for col, metric in enumerate(["awk_throughput_kbps", "awk_jitter_ms", "awk_e2e_delay_ms"]):
        ax = axes[row, col]
        for protocol in PROTOCOLS:
            series = detail[protocol]["series"]
            part = series[(series["flow"] == flow) & (series["metric"] == metric)]
            ax.plot(part["time"], part["value"], color=COLORS[protocol], linewidth=0.6,
                    label=protocol.upper())
        if row == 0:
            ax.set_title(wbe.METRICS[metric][0] + f" ({wbe.METRICS[metric][1]})", fontsize=10)
        if col == 0:
            ax.set_ylabel(f"nodes {2 + flow}-{12 + flow}")
axes[0, 0].legend(fontsize=8)
for ax in axes[-1]:
    ax.set_xlabel("time (s)")
fig.tight_layout()
path = save_figure(fig, wbe.STUDY.name, "per_stream_series", quick=quick, n_runs=1)
print(path.relative_to(project_root()))

# %%
fig, axes = plt.subplots(1 + len(PROTOCOLS), 1, figsize=(12, 2.6 * (1 + len(PROTOCOLS))),
                         sharex=True)
for protocol in PROTOCOLS:
    series = detail[protocol]["series"]
    queue = series[series["metric"] == "queue_mean_packets"]
    axes[0].plot(queue["time"], queue["value"], color=COLORS[protocol], linewidth=0.7,
                 label=f"{protocol.upper()} experiment")
axes[0].axhline(PARAMS["queue_limit"] - 1, color="black", linestyle=":", linewidth=0.8)
axes[0].set_ylabel("bottleneck queue\n(packets, 1-s mean)")
axes[0].legend(fontsize=8)
for ax, protocol in zip(axes[1:], PROTOCOLS, strict=True):
    series = detail[protocol]["series"]
    for flow in range(5):
        cwnd = series[(series["flow"] == flow) & (series["metric"] == "cwnd_bytes")]
        ax.plot(cwnd["time"], cwnd["value"] / 1e3, linewidth=0.6, label=f"nodes {2 + flow}-{12 + flow}")
    ax.set_ylabel(f"{protocol.upper()} cwnd (kB)")
axes[1].legend(fontsize=7, ncol=5)
axes[-1].set_xlabel("time (s)")
fig.tight_layout()
path = save_figure(fig, wbe.STUDY.name, "queue_cwnd", quick=quick, n_runs=1)
print(path.relative_to(project_root()))

# %% [markdown]
# ## 6. What the "delay" tables hold, and how `tic` matters
#
# The delay script of Appendix B prints `delay = recvTime[i] - prev_time`, the gap
# between two arrivals, at the packet that closes each `tic` window; the one-way
# delay `e2eDelay` is computed and never printed. The printed value depends on
# `tic` (a longer window is more likely to be closed by a packet after a long gap),
# which the thesis does not give. The jitter script averages per window too, so
# windows holding a single packet after a pause count as much as full ones.
# Recomputing from the packets of RngRun 1 with several windows:

# %%
# NBVAL_CHECK_OUTPUT
from transportlab import metrics

rows = []
for protocol in PROTOCOLS:
    packets = detail[protocol]["packets"]
    records = wbe.packet_records(packets, PARAMS["awk_pkt"])
    for tic in (0.1, 0.5, 1.0, 2.0, 5.0):
        printed, e2e, jitter = [], [], []
        for flow in range(5):
            mine = records[records["flow"] == flow]
            delay = metrics.awk_delay_series(mine, tic=tic, pkt=PARAMS["awk_pkt"])
            kept = delay[~delay["gap_marker"]]
            printed.append(kept["value"].mean())
            by_time = mine[mine["event"] == "received"].set_index("time")["delay"]
            e2e.append(by_time.reindex(kept["time"]).mean())
            jitter.append(metrics.awk_table_average(
                metrics.awk_jitter_series(mine, tic=tic, pkt=PARAMS["awk_pkt"])))
        rows.append((protocol, tic, 1e3 * np.mean(printed), 1e3 * np.mean(e2e), np.mean(jitter)))
    # The jitter script's terms pooled over all windows: the mean |e2eDelay difference|
    # of packets received consecutively in sending order, per packet instead of per window.
    pooled = []
    for flow in range(5):
        received = records[(records["flow"] == flow) & (records["event"] == "received")]
        pooled.append(received.sort_values("seq")["delay"].diff().abs().mean() * 1e3)
    rows.append((protocol, "pooled", np.nan, np.nan, np.mean(pooled)))
tic_table = pd.DataFrame(rows, columns=["protocol", "tic_s", "printed_delay_ms", "e2e_delay_ms",
                                        "awk_jitter_ms"])
print(tic_table.round(1).to_string(index=False))

# %% [markdown]
# The printed gap moves with `tic` by a factor of several; the one-way delay of the
# same packets does not, and it sits where the published tables are (TCP 780-975 ms).
# It is also what the queue dictates: with a mostly full 49-packet queue, a packet
# waits up to 49 transmission times, which depend on the packet size:

# %%
# NBVAL_CHECK_OUTPUT
for label, size in (("TCP (1040-B datagrams)", 1040), ("SCTP (1500-B datagrams)", 1500)):
    print(f"{label}: full-queue one-way delay {wbe.expected_queueing_delay(PARAMS, size) * 1e3:.0f} ms")
published_delay = PUBLISHED[(PUBLISHED["metric"] == "awk_delay")
                            & PUBLISHED["row"].str.startswith("nodes")]
print(published_delay.groupby(["seed_file", "protocol"])["value"].mean().round(1).to_string())

# %% [markdown]
# The published SCTP/TCP delay ratio (about 1.4 in both seeds) is the ratio of the
# packet sizes on the wire (1502/1042 = 1.44): a queue of 49 SCTP packets takes 1.44
# times as long to drain (section 7.3 tests this). The delay rows of the comparison,
# under both readings:

# %%
delay_rows = comparison[comparison["metric"] == "awk_delay"][
    ["seed_file", "source", "protocol", "row", "published", "reproduced", "verdict"]]
delay_rows.assign(printed=comparison_printed.loc[delay_rows.index, "reproduced"],
                  verdict_printed=comparison_printed.loc[delay_rows.index, "verdict"]).round(1)

# %% [markdown]
# One row differs under both readings: Table 4.7 gives TCP's mean delay as
# 1269.56 ms, while the mean of the thesis' own Table 4.2 is 795.7 ms (printed
# above); the reproduction agrees with Table 4.2.
#
# **Jitter.** The same windows hurt the AWK jitter: a window that holds one packet
# after a pause counts as much as a full one. Pooled over all packets ("pooled"
# rows above) TCP's jitter is close to the published 13.6 ms, while the
# per-window mean is higher; SCTP's flows never pause that long and both ways
# agree with the published ~33 ms.

# %% [markdown]
# ## 7. Why the other numbers differ: parameter sweeps
#
# ### 7.1 Throughput: what the AWK script counts
#
# The throughput script "rips off the header" as `size - size % pkt`: a 1040-byte
# TCP packet counts 1000 bytes, and a 1500-byte SCTP packet (1452 data bytes) also
# counts 1000. With `pkt` = 1000 SCTP's AWK throughput is therefore 1000/1452 = 69 %
# of the data it delivers. The published SCTP/TCP throughput ratio:

# %%
# NBVAL_CHECK_OUTPUT
pub_tp = PUBLISHED[(PUBLISHED["metric"] == "awk_throughput")].groupby(
    ["seed_file", "protocol"])["value"].sum().unstack()
print((pub_tp["SCTP"] / pub_tp["TCP"]).round(3).to_string())
print(f"counted / carried for a full SCTP packet: {1000 / 1452:.3f}")
print(f"goodput per pair (standard), mean of FTP pairs:")
print(flows[flows["application"] == "ftp"].groupby("protocol")[
    ["goodput_kbps", "awk_throughput_kbps"]].mean().round(1).to_string())

# %% [markdown]
# Both seeds' SCTP/TCP ratio (0.70, 0.71) is what the header rip-off alone predicts
# when both transports fill the link equally. The goodput (application bytes per
# second) of the two transports is what decides which one moves more data.
#
# The conclusion hangs on the script argument `pkt`. Recomputing the AWK
# throughput of RngRun 1 with other values (a packet counts `size - size % pkt`
# bytes; `pkt` = 1 counts whole IP datagrams):

# %%
# NBVAL_CHECK_OUTPUT
rows = []
for protocol in PROTOCOLS:
    packets = detail[protocol]["packets"]
    start = float(packets["time"].min())
    for pkt in (1000, 500, 100, 1):
        records = wbe.packet_records(packets, pkt)
        values = [metrics.awk_table_average(metrics.awk_throughput_series(
            records[records["flow"] == flow], tic=PARAMS["awk_tic"], pkt=pkt, trace_start=start))
            for flow in range(5)]
        rows.append((protocol, pkt, np.mean(values)))
pkt_table = pd.DataFrame(rows, columns=["protocol", "pkt", "awk_throughput_kbps"]).pivot(
    index="pkt", columns="protocol", values="awk_throughput_kbps")
print(pkt_table.round(1).to_string())
#
# ### 7.2 TCP's loss recovery, the flows' phase and the bottleneck rate
#
# The jitter and the per-pair shares depend on what TCP does after a loss. Tahoe
# (our default) restarts from one segment; ns-3's own TCPs halve the window
# instead: NewReno's classic fast recovery, Proportional Rate Reduction (PRR),
# with SACK, with limited transmit. Two more sources of difference: the exact
# scripted start times and the text's 512 kb/s bottleneck:

# %%
NEWRENO = {"tcp_congestion": "TcpNewReno", "tcp_recovery": "TcpClassicRecovery"}
TCP_VARIANTS = {
    "Tahoe (default)": {},
    "NewReno classic": NEWRENO,
    "NewReno PRR": dict(NEWRENO, tcp_recovery="TcpPrrRecovery"),
    "NewReno classic + SACK": dict(NEWRENO, tcp_sack=True),
    "NewReno classic + limited transmit": dict(NEWRENO, tcp_limited_transmit=True),
    "Tahoe, scripted start times": {"start_jitter_ms": 0.0},
    "Tahoe, bottleneck 512 kb/s (the text)": {"bottleneck_rate_mbps": 0.512},
}
variant_points = [dict(PARAMS, protocol="tcp", record_series=False, **v)
                  for v in TCP_VARIANTS.values()]
variants = sweep.run(wbe.STUDY, variant_points, runs=SWEEP_RUNS, quick=quick,
                     scheduler=scheduler)
keys = ["tcp_congestion", "tcp_recovery", "tcp_sack", "tcp_limited_transmit",
        "start_jitter_ms", "bottleneck_rate_mbps"]
labels = {tuple(dict(PARAMS, **v)[k] for k in keys): name for name, v in TCP_VARIANTS.items()}
vflows = variants["flows"]
vflows = vflows[vflows["application"] == "ftp"]
vflows = vflows.assign(variant=[labels[tuple(r)] for r in vflows[keys].itertuples(index=False)])

# %%
# NBVAL_CHECK_OUTPUT
cols = ["awk_throughput_kbps", "awk_jitter_ms", "awk_e2e_delay_ms", "goodput_kbps",
        "rfc3550_jitter_ms", "loss_ratio"]
print(vflows.groupby("variant", sort=False)[cols].mean().round(2).to_string())
published_tcp = PUBLISHED[(PUBLISHED["protocol"] == "TCP") & PUBLISHED["row"].str.startswith("nodes")]
print(published_tcp.groupby(["metric", "seed_file"])["value"].mean().round(2).to_string())

# %% [markdown]
# ### 7.3 SCTP: packet size
#
# SCTP's FTP writes 1452-byte messages, one full 1500-byte packet each (NS-2's
# `dataChunkSize_` 1468). With 992-byte messages its packets are 1040 bytes, as
# TCP's: if the packet size is what makes SCTP's delay and jitter larger, they
# should fall to TCP's values (and its AWK throughput rise, 1040 % 1000 = 40 bytes
# being ripped off instead of 500):

# %%
if "sctp" in PROTOCOLS:
    size_points = [dict(PARAMS, protocol="sctp", record_series=False, sctp_message_size=size)
                   for size in (1452, 992)]
    sizes = sweep.run(wbe.STUDY, size_points, runs=SWEEP_RUNS, quick=quick, scheduler=scheduler)
    sflows = sizes["flows"]
    sflows = sflows[sflows["application"] == "ftp"]

# %%
# NBVAL_CHECK_OUTPUT
if "sctp" in PROTOCOLS:
    cols = ["awk_throughput_kbps", "awk_jitter_ms", "awk_e2e_delay_ms", "goodput_kbps",
            "rfc3550_jitter_ms", "loss_ratio"]
    print(sflows.groupby("sctp_message_size")[cols].mean().round(2).to_string())
    tcp_mean = flows[(flows["application"] == "ftp") & (flows["protocol"] == "tcp")][cols].mean()
    print("TCP (section 4):", tcp_mean.round(2).to_dict())
else:
    print("SCTP model not built in: skipped")

# %% [markdown]
# ### 7.4 Modern settings
#
# The same network with present-day hosts (`PRESETS["modern"]`: CUBIC, SACK, PRR,
# timestamps, window scaling, IW10, delayed ACKs, 1448-byte segments, SCTP with
# RFC 9260's parameters) and with an AQM on the routers (`modern_aqm`: FQ-CoDel,
# same 50-packet buffer):

# %%
modern_points = [dict(PARAMS, protocol=p, record_series=False, **wbe.PRESETS[name])
                 for name in ("modern", "modern_aqm") for p in PROTOCOLS]
modern = sweep.run(wbe.STUDY, modern_points, runs=SWEEP_RUNS, quick=quick, scheduler=scheduler)
mflows = modern["flows"]
mflows = mflows[mflows["application"] == "ftp"]

# %%
# NBVAL_CHECK_OUTPUT
cols = ["goodput_kbps", "delay_ms", "rfc3550_jitter_ms", "awk_throughput_kbps", "awk_jitter_ms",
        "loss_ratio"]
print(mflows.groupby(["queue_discipline", "protocol"])[cols].mean().round(1).to_string())
print(modern["run"].groupby(["queue_discipline", "protocol"])[
    ["bottleneck_utilisation", "jain_goodput"]].mean().round(3).to_string())

# %% [markdown]
# ## 8. Summary
#
# Full mode (10 replications per experiment, 5 per sweep point; `comparison.csv`
# in `data/results/wired_best_effort/`). What the verdicts say and what produces
# each difference:
#
# * **Throughput (Tables 2, 4.5, 4.6): matches.** With NS-2's Tahoe and NS-2's
#   DropTail limit, ns-3 reproduces every per-pair AWK throughput of both seeds
#   within 20 %, TCP's ~90 kb/s as well as SCTP's ~60 kb/s. SCTP's lower number is
#   the AWK script's header rip-off (`size - size % 1000` counts 1000 of a 1500-byte
#   SCTP packet that carries 1452 data bytes, section 7.1): in application bytes
#   (goodput) SCTP moves as much as TCP, and with `pkt` = 500 the same script
#   would rank SCTP first. The papers' "TCP has the higher throughput" does not
#   survive a look at the data delivered.
# * **Delay (Tables 4, 4.1, 4.2): matches as one-way delay.** What the appendix's
#   script prints is an inter-arrival gap that depends on the window length and
#   lies far below every table (20 of 22 rows `differs` under that reading); the
#   one-way delay of the same packets matches 19 of 22 rows (2 of seed 000's are
#   `same-direction`; Table 4.7's TCP entry contradicts the thesis' own Table 4.2).
#   SCTP's larger delay is mostly its larger packet in a queue counted in packets:
#   with TCP-sized packets SCTP's one-way delay falls from ~1.12 s most of the way
#   to TCP's ~0.78 s (section 7.3); the rest is SCTP keeping the queue fuller (its
#   64-kB receive window against TCP's 20 segments).
# * **Jitter (Tables 3, 4.3, 4.4, 4.7): SCTP matches, TCP same-direction.** ns-3's
#   TCP gives ~19 ms per-window AWK jitter against the published ~13.6 ms; pooled
#   over packets it is ~15 ms. The per-window mean weights the few packets sent
#   after a loss pause like full windows; it moves with TCP's recovery (PRR or SACK
#   give ~14 ms, section 7.2) and with the bottleneck rate. About two thirds of
#   SCTP's extra jitter goes with its packet size (section 7.3).
# * **Modern settings** (section 7.4): with present-day defaults both transports
#   deliver the same goodput; CUBIC's 1448-byte segments make 1500-byte packets,
#   which suffer the same AWK rip-off and the same ~1.1 s queueing delay as SCTP's.
#   FQ-CoDel on the routers cuts the one-way delay to ~0.27 s and gives every flow
#   its share (Jain's index 1.0); TCP's jitter then rises, SCTP's falls.
#
# `transportlab reproduce` collects `comparison.csv` into the project summary.

# %%
from transportlab.paths import results_dir

print((results_dir(wbe.STUDY.name, quick) / "comparison.csv").relative_to(project_root()))
