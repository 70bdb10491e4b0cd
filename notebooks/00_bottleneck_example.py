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
# # Example: one flow through a bottleneck, checked by hand
#
# **Study:** `bottleneck_example` — not a published study. It shows the whole
# path every transportlab study takes (declared parameters, a sweep over points and
# ns-3 replications, cached results, a figure, a comparison table, papermill and
# nbval) on a scenario small enough to check with pen and paper:
#
# ```
# source ---- 10 Mb/s, 2 ms ---- router ---- 1 Mb/s, 20 ms ---- sink
#                                  DropTail queue, 50 packets
# ```
#
# One flow from source to sink: UDP constant bit rate (0.5 Mb/s of 1000-byte
# packets) or a TCP bulk transfer (1000-byte segments). An optional packet error
# rate on the bottleneck (ns-3 `RateErrorModel`) is the only random element.
# The queues are plain DropTail device queues, as on NS-2 links (ns-3's traffic
# control layer is removed); NS-2's default queue limit is 50 packets.
#
# Since nothing is reproduced from a paper, the "published" column of the
# comparison table holds the hand calculations of section 2.

# %% tags=["parameters"]
quick = True  # quick mode: 5 s flows, 2 replications (tests, CI, Binder)
scheduler = None  # None: in this process when quick, a local Dask cluster otherwise
runs = None  # replications (ns-3 RngRun 1..runs) per point; None: 2 quick, 10 full
params = {}  # study parameters that differ from the defaults (see the table below)

# %% [markdown]
# ## 1. Parameters
#
# `transportlab list` shows every parameter of every study; the cell below
# validates the values this notebook was given (an unknown name, a wrong type or an
# impossible value stops here, before anything runs). `protocol` and `error_rate`
# are the axes of the sweep below; the other parameters are the same for every point.

# %%
from transportlab import sweep
from transportlab.studies import bottleneck_example as example

PARAMS = example.STUDY.validate(params, quick=quick)
RUNS = runs or (2 if quick else 10)
ERROR_RATES = [0.0, 0.01]
example.STUDY.parameters.describe().assign(value=[PARAMS[n] for n in PARAMS])[
    ["name", "value", "unit", "help"]
]

# %%
# NBVAL_IGNORE_OUTPUT
# ns-3 with the transportlab library (~2 s with the precompiled header, 10+ s without).
from transportlab import ns  # noqa: F401

# %% [markdown]
# ## 2. Hand calculation
#
# A UDP packet of 1000 application bytes carries an 8-byte UDP header, a 20-byte
# IPv4 header and, on a point-to-point link, a 2-byte PPP header: 1030 bytes =
# 8240 bits on the wire. A TCP segment of 1000 bytes carries a 32-byte TCP header
# (20 bytes plus the timestamp option ns-3 sends on every segment): 1054 bytes.
#
# * **UDP delay.** Below capacity nothing queues. Store and forward over two hops:
#   8240 bit / 10 Mb/s + 2 ms + 8240 bit / 1 Mb/s + 20 ms = 0.824 + 2 + 8.24 + 20
#   = **31.064 ms**, exactly (ns-3 adds no processing time).
# * **UDP goodput** = the sending rate times the delivered fraction:
#   0.5 Mb/s × (1 − error rate).
# * **UDP jitter** (RFC 3550 interarrival jitter): every packet has the same delay,
#   so **0**.
# * **UDP loss** = the error rate, within binomial noise.
# * **TCP goodput.** With a queue (50 packets) much larger than the
#   bandwidth-delay product (1 Mb/s × ~53 ms ≈ 6.6 kB ≈ 6 segments), the bottleneck
#   never idles after slow start, so TCP delivers 1 Mb/s × 1000/1054 =
#   **948.8 kb/s** of application data (an upper bound; the first second after the
#   start is excluded from the measurement).

# %%
# NBVAL_CHECK_OUTPUT
udp, tcp = dict(PARAMS, protocol="udp"), dict(PARAMS, protocol="tcp")
print(f"UDP wire bytes {example.wire_bytes(udp)}, TCP wire bytes {example.wire_bytes(tcp)}")
print(f"UDP one-way delay: {example.expected_udp_delay(udp) * 1e3:.3f} ms")
print(f"UDP goodput: {example.expected_goodput(udp) / 1e3:.1f} kb/s")
print(f"TCP goodput bound: {example.expected_goodput(tcp) / 1e3:.1f} kb/s")

# %% [markdown]
# ## 3. Simulation
#
# Each point of the grid runs `RUNS` times (ns-3 RngRun 1..RUNS). Results are
# cached per point and run, so re-running this notebook computes only what is
# missing (`transportlab.sweep`).

# %%
points = [dict(PARAMS, **point) for point in sweep.grid(protocol=["udp", "tcp"],
                                                         error_rate=ERROR_RATES)]
tables = sweep.run(example.STUDY, points, runs=RUNS, quick=quick, scheduler=scheduler)
summary = tables["summary"]
print(f"{len(points)} points x {RUNS} runs = {len(summary)} simulations")

# %% [markdown]
# ## 4. Checks against the hand calculation
#
# Every UDP packet of the lossless runs arrives exactly 31.064 ms after it was
# sent (delays compared in integer nanoseconds, ns-3's time resolution):

# %%
# NBVAL_CHECK_OUTPUT
packets = tables["packets"]
udp_received = packets[(packets["protocol"] == "udp") & (packets["error_rate"] == 0.0)
                       & (packets["event"] == "received")]
delay_ns = (udp_received["delay"] * 1e9).round().astype("int64")
expected_ns = round(example.expected_udp_delay(udp) * 1e9)
print(f"{len(delay_ns)} UDP packets, delays {delay_ns.min()}..{delay_ns.max()} ns, "
      f"hand calculation {expected_ns} ns, all equal: {bool((delay_ns == expected_ns).all())}")

# %% [markdown]
# Goodput and loss per point (mean over the runs; `transportlab.metrics`). The
# application's loss is what UDP loses; TCP retransmits, so its losses show only at
# IP (FlowMonitor). Without errors the scenario has no random element, so all
# replications are identical, as they must be; with errors they differ.

# %%
# NBVAL_CHECK_OUTPUT
per_point = summary.groupby(["protocol", "error_rate"]).agg(
    goodput_kbps=("goodput_bps", lambda g: round(g.mean() / 1e3, 1)),
    loss_percent=("loss_ratio", lambda g: round(g.mean() * 100, 2)),
    ip_loss_percent=("ip_loss_ratio", lambda g: round(g.mean() * 100, 2)),
    distinct_runs=("packets_received", "nunique"),
)
print(per_point.to_string())

# %% [markdown]
# With errors, TCP's goodput over the short quick-mode window can exceed the
# lossless bound: after a loss the receiver holds later segments until the
# retransmission fills the hole, then hands them to the application at once, so
# bytes that crossed the link before the window opened are counted inside it.
#
# TCP's application-level delay is far above the path's 31 ms: `BulkSend` fills
# TCP's 128 KiB send buffer, so each byte waits there (about 1 s at 1 Mb/s) and in
# the 50-packet bottleneck queue (up to 0.42 s) before it is sent. The slow-start
# overshoot fills the queue and loses a few segments even without errors.

# %%
# NBVAL_CHECK_OUTPUT
comparison = example.compare_with_hand_calculation(summary, PARAMS)
print(comparison[["protocol", "metric", "row", "unit", "published", "reproduced", "verdict"]]
      .round(3).to_string(index=False))

# %% [markdown]
# ## 5. Figure

# %%
import matplotlib.pyplot as plt

from transportlab.figures import save_figure
from transportlab.paths import project_root

fig, (left, right) = plt.subplots(1, 2, figsize=(10, 3.8))
for offset, (protocol, group) in zip((-0.2, 0.2), summary.groupby("protocol"), strict=True):
    means = group.groupby("error_rate")["goodput_bps"].mean() / 1e3
    spread = group.groupby("error_rate")["goodput_bps"].agg(["min", "max"]) / 1e3
    x = [i + offset for i in range(len(means))]
    left.bar(x, means.values, width=0.38, label=protocol.upper())
    left.vlines(x, spread["min"], spread["max"], color="black", linewidth=1)
    hand = [example.expected_goodput(dict(PARAMS, protocol=protocol, error_rate=e)) / 1e3
            for e in means.index]
    left.scatter(x, hand, marker="_", s=400, color="black", zorder=3)
left.set_xticks(range(len(ERROR_RATES)), [f"{e:g}" for e in ERROR_RATES])
left.set_xlabel("packet error rate on the bottleneck")
left.set_ylabel("goodput (kb/s)")
left.set_title("Goodput (bars: mean, lines: min-max over runs,\n— : hand calculation)",
               fontsize=9)
left.legend(loc="lower left")
lossless = packets[(packets["error_rate"] == 0.0) & (packets["event"] == "received")]
for protocol, group in lossless.groupby("protocol"):
    delays = group["delay"].sort_values() * 1e3
    right.step(delays, [(i + 1) / len(delays) for i in range(len(delays))], where="post",
               label=protocol.upper())
right.axvline(example.expected_udp_delay(udp) * 1e3, color="black", linestyle=":",
              label="hand calc. (UDP)")
right.set_xscale("log")
right.set_xlabel("application one-way delay (ms)")
right.set_ylabel("fraction of packets")
right.set_title("Delay distribution, no errors", fontsize=9)
right.legend(loc="lower right")
fig.tight_layout()
path = save_figure(fig, example.STUDY.name, "goodput_delay", quick=quick, n_runs=RUNS)
print(path.relative_to(project_root()))

# %% [markdown]
# ## 6. Comparison table
#
# `transportlab reproduce` collects every study's `comparison.csv` into
# `data/results[/quick]/summary.csv`.

# %%
from transportlab.files import write_csv
from transportlab.paths import results_dir

write_csv(comparison, results_dir(example.STUDY.name, quick) / "comparison.csv")
comparison
