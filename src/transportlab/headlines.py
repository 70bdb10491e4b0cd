"""The README's prose about results, generated from the committed full-mode tables.

Beside the count blocks of :mod:`transportlab.summary`, the README states results in
words: the results table (``| study | runs per point | headline |``, one headline per
study) and the paragraphs of the NS-2 baseline (wired, VoIP, multi-homing, the SCTP
model). Every number in them that restates a result is filled in here from the files
under ``data/results/`` (each helper says which), so a re-run or a re-judgement that
changes a table changes the prose with it; ``scripts/rejudge.py`` writes them with the
other blocks (:func:`transportlab.summary.update_readme`) and
``tests/test_published_summary.py`` fails when the README and the tables disagree.
What is configuration (48 calls, 15 minutes, 802.11 at 1 Mb/s) stays in the words.
"""

from __future__ import annotations

import re
from pathlib import Path

import pandas as pd

from transportlab.engine import paths
from transportlab.engine.provenance import tables_not_rerun
from transportlab.ns2.baseline import baseline_counts
from transportlab.studies.wsn_reporting_interval.parameters import MICA2, NS2_ENERGY

__all__ = ["HEADLINE_BLOCKS", "NOTEBOOK_NUMBERS", "headline_blocks", "notebook_numbers"]

#: The README blocks this module renders (name -> renderer below).
HEADLINE_BLOCKS = (
    "results-headlines", "ns2-wired", "ns2-voip", "ns2-multihoming", "ns2-sensors",
    "ns2-sctp-model",
)  # fmt: skip


# ------------------------------------------------------------------ small helpers


def _read(folder: Path, study: str, name: str) -> pd.DataFrame:
    return pd.read_csv(folder / study / f"{name}.csv", keep_default_na=False, na_values=[""])


def _span(values, fmt: str) -> str:
    """``low-high`` of ``values`` with ``fmt`` (one number when both print the same)."""
    values = pd.Series(values, dtype=float)
    low, high = format(values.min(), fmt), format(values.max(), fmt)
    return low if low == high else f"{low}-{high}"


def _pick(table: pd.DataFrame, **where) -> pd.Series:
    """The one row of ``table`` whose columns equal ``where``; anything else is an error."""
    mask = pd.Series(True, index=table.index)
    for column, value in where.items():
        mask &= table[column] == value
    rows = table[mask]
    if len(rows) != 1:
        raise ValueError(f"expected one row with {where}, found {len(rows)}")
    return rows.iloc[0]


def _welch_p(note: str) -> float:
    """The Welch p-value a comparison note states (``... (Welch p = 0.186)``)."""
    match = re.search(r"Welch p = ([0-9.eE+-]+)", str(note))
    if match is None:
        raise ValueError(f"no Welch p-value in {note!r}")
    return float(match.group(1))


def _published(values) -> str:
    """Published values as printed, joined by slashes (``70/40/32/20``)."""
    return "/".join(f"{float(v):g}" for v in values)


def _sci(value: float, digits: int = 0) -> str:
    """``1.5e-5`` rather than Python's ``1.5e-05``."""
    mantissa, exponent = f"{value:.{digits}e}".split("e")
    return f"{mantissa}e{int(exponent)}"


def _count(n: int, noun: str) -> str:
    """``no delay rows``, ``1 delay row``, ``3 delay rows``."""
    return f"{'no' if n == 0 else n} {noun}{'' if n == 1 else 's'}"


def _runs(table: pd.DataFrame, column: str = "n_runs") -> str:
    return _span(table[column], ".0f")


# ------------------------------------------------------------------ the results table


def _wired_headline(folder: Path) -> tuple[str, str]:
    c = _read(folder, "wired_best_effort", "comparison")
    table2 = c[(c["source"] == "Table 2") & (c["metric"] == "awk_throughput")]
    sctp, tcp = table2[table2["protocol"] == "SCTP"], table2[table2["protocol"] == "TCP"]
    mean_delay = _pick(c, source="Table 4.7", protocol="SCTP", metric="awk_delay")
    tcp_mean = _pick(c, source="Table 4.7", protocol="TCP", metric="awk_delay")
    per_pair = c[(c["source"] == "Table 4.2") & (c["metric"] == "awk_delay")]
    claims = pd.read_csv(folder / "summary-claims.csv")
    inconsistent = claims[
        (claims["study"] == "wired_best_effort")
        & (claims["verdict"] == "seed-inconsistent")
        & (claims["metric"] == "awk_delay")
    ]
    pairs = ", ".join(
        f"{r['protocol']} {r['row'].removeprefix('nodes ')}" for _, r in inconsistent.iterrows()
    )
    headline = (
        f"SCTP {_span(sctp['reproduced'], '.1f')} kb/s per pair vs published "
        f"{_span(sctp['published'], '.1f')} (Table 2); TCP {_span(tcp['reproduced'], '.1f')} vs "
        f"{_span(tcp['published'], '.1f')}; SCTP's AWK delay {mean_delay['reproduced']:.0f} ms vs "
        f"{float(mean_delay['published']):.0f} (Table 4.7). TCP's jitter is above both seeds' "
        f"(the `same-direction` rows: ordering significant, within 2x). Seed 004's Table 4.7 TCP "
        f"mean delay ({float(tcp_mean['published']):.0f} ms) contradicts its own per-pair Table "
        f"4.2 ({_span(per_pair['published'], '.0f')} ms; ours "
        f"{_span(per_pair['reproduced'], '.0f')}): `{tcp_mean['verdict']}`. Where 000 and 004 "
        f"print one pair's delay more than the tolerance apart ({pairs}), the claim is "
        f"`seed-inconsistent` too"
    )
    return _runs(c), headline


def _voip_headline(folder: Path) -> tuple[str, str]:
    c = _read(folder, "voip_cjm", "comparison")
    load = _read(folder, "voip_cjm", "load")
    summary = _read(folder, "voip_cjm", "summary")
    sctp_rate = _pick(c, protocol="SCTP", metric="packets_received_per_second")
    tcp_rate = _pick(c, protocol="TCP", metric="packets_received_per_second")
    sctp_max = _pick(c, protocol="SCTP", metric="delay_max")
    tcp_max = _pick(c, protocol="TCP", metric="delay_max")
    jitter = _pick(c, protocol="SCTP", metric="jitter")
    bound = float(str(jitter["published"]).lstrip("<="))
    reliable = load["configuration"].isin(["TCP", "SCTP ordered"])
    full = load[
        reliable
        & (((load["n_calls"] == 48) & load["cross_mbps"].isin([1.0, 1.5]))
           | ((load["n_calls"] == 64) & (load["cross_mbps"] == 0)))
    ]  # fmt: skip
    tcp_full = _pick(load, configuration="TCP", n_calls=48, cross_mbps=1.5)
    udp = load[load["configuration"] == "UDP"]
    cjm = _pick(summary, configuration="SCTP ordered", policy="cjm")
    fixed = _pick(summary, configuration="SCTP ordered", policy="fixed")
    runs = f"{_runs(c)} (15 min each; TCP is NS-2's Tahoe); section 5: {_runs(load)} runs of 1 min"
    headline = (
        f"SCTP's {float(sctp_rate['published']):.0f} frames/s is an `{sctp_rate['verdict']}` (48 "
        f"calls x 50 frames/s were chosen from it); TCP delivers {tcp_rate['reproduced']:.0f} too "
        f"(published {float(tcp_rate['published']):.0f}). Max one-way delay "
        f"{sctp_max['reproduced']:.1f} (SCTP) and {tcp_max['reproduced']:.1f} ms (TCP) vs "
        f"{float(sctp_max['published']):.0f} and {float(tcp_max['published']):.0f} ms: the "
        f"ordering is as published but not significant (Welch p = "
        f"{_welch_p(sctp_max['note']):.2g}). SCTP jitter {_sci(jitter['reproduced'], 1)} ms is "
        f"inside the published `{jitter['published']}` by "
        f"{_sci(bound / jitter['reproduced'])}x (flagged "
        f"vacuous). Why (notebook 02, section 5.3c, the load sweep): with no cross traffic the "
        f"periodic calls see the same queue every period; with 1-1.5 Mb/s of bursty cross "
        f"traffic (or 64 calls) the link is full and TCP/SCTP jitter is "
        f"{_span(full['before_jitter_ms'], '.0f')} ms and TCP delivers "
        f"{tcp_full['frames_per_s']:.0f} frames/s, the seed's values, but SCTP then falls below "
        f"2400 too and the application-level maximum delay is "
        f"{_span(full['delay_max_ms'] / 1e3, '.0f')} s, never 150-180 ms (UDP's stays at or "
        f"under {udp['delay_max_ms'].max():.0f} ms). CJM's 1-s chunks give a mean playout delay "
        f"of {cjm['playout_delay_mean_ms']:.0f} ms (R {cjm['R']:.0f}) against R {fixed['R']:.1f} "
        f"for a fixed {fixed['playout_delay_mean_ms']:.0f}-ms point"
    )
    return runs, headline


def _sip_headline(folder: Path) -> tuple[str, str]:
    c = _read(folder, "sip_over_sctp", "comparison")
    cycle = _read(folder, "sip_over_sctp", "call_cycle")
    trace = _read(folder, "sip_over_sctp", "sctp_loss_trace")
    registration = c[c["row"] == "SIP registration"].set_index("protocol")
    setup = c[c["row"] == "SIP call setup"].set_index("protocol")
    calls = c[c["metric"] == "sip_call_transactions"]
    udp, sctp = calls[calls["protocol"] == "UDP"], calls[calls["protocol"] == "SCTP"]
    relative = c[c["metric"] == "completed transactions relative to 5 % loss"]
    rel_udp = _pick(relative, protocol="UDP", row="packet loss 30%")
    rel_sctp = _pick(relative, protocol="SCTP", row="packet loss 30%")
    crossover = _pick(c, metric="crossover_loss_rate")
    ahead = re.search(r"below ([0-9.]+-[0-9.]+ %)", str(crossover["note"]))
    predicted = cycle[(cycle["protocol"].isin(["udp", "sctp"])) & (cycle["loss_rate"] <= 0.2)]
    worst = (predicted["completed_per_predicted"] - 1).abs().max()
    worst_loss = trace[trace["loss_rate"] == trace["loss_rate"].max()].iloc[0]
    sctp_cycle = _pick(cycle, protocol="sctp", loss_rate=worst_loss["loss_rate"])
    associations = _read(folder, "sip_over_sctp", "sctp_associations")
    aborts = "no association aborts" if associations["aborts"].sum() == 0 and (
        trace["aborts"].sum() == 0) else "associations abort"  # fmt: skip
    single = c[c["verdict"] == "by-construction"]
    runs = f"{_runs(calls)} (loss), {_runs(single)} (deterministic single session)"
    headline = (
        f"Single-session times are `by-construction` (the seed's "
        f"{_published(registration.loc[['UDP', 'SCTP'], 'published'])} ms registration and "
        f"{float(setup.loc['UDP', 'published']):g}-{float(setup.loc['SCTP', 'published']):g} s "
        f"call set-up are its 233-MHz proxy, Linphone and a human answering; ours "
        f"{registration.loc['UDP', 'reproduced']:.2f}/{registration.loc['SCTP', 'reproduced']:.2f}"
        f" ms and {setup['reproduced'].mean() * 1e3:.1f} ms); call termination is "
        f"`seed-inconsistent` (text and Table 5.5 swap UDP and SCTP). Calls under 5-30 % loss: "
        f"UDP {'/'.join(f'{v:.0f}' for v in udp['reproduced'])}, SCTP "
        f"{'/'.join(f'{v:.0f}' for v in sctp['reproduced'])} against the seed's "
        f"{_published(udp['published'])} and {_published(sctp['published'])}; relative to the "
        f"5 % row (derived rows) UDP falls like the seed's ({rel_udp['reproduced']:.2f} vs "
        f"{float(rel_udp['published']):.2f} at 30 %, `{rel_udp['verdict']}`), SCTP much faster "
        f"({rel_sctp['reproduced']:.2f} vs {float(rel_sctp['published']):.2f}). Why (notebook "
        f"03): the call cycle (set-up + talk + tear-down + pause) predicts every count within "
        f"{worst:.1%} up to 20 % loss; at 30 % the trace shows SCTP's T3-rtx back-off (up to "
        f"{worst_loss['longest_wait_s']:.0f} s between two sends of a chunk), shared by all calls "
        f"of an association, so ~{sctp_cycle['transaction_timeouts']:.0f} caller transactions "
        f"per run pass SIP's 32-s Timer B/F; {aborts} in the window. No crossover: in every run "
        f"the curves cross the other way (SCTP ahead below {ahead.group(1) if ahead else '?'})"
    )
    return runs, headline


def _wsn_headline(folder: Path) -> tuple[str, str]:
    c = _read(folder, "wsn_reporting_interval", "comparison")
    baseline = _read(folder, "wsn_reporting_interval", "ns2_baseline")
    within = baseline.groupby("metric")["ns3_within_tolerance_of_ns2"].agg(["sum", "count"])
    inside = c["verdict"].isin(["matches", "consistent"]).sum()
    sctp = _pick(baseline, protocol="SCTP", metric="throughput", row="Avg")

    def rows(metric: str) -> int:
        return int(within.loc[metric, "sum"])

    stale = tables_not_rerun(folder / "wsn_reporting_interval")
    names = ", ".join(f"`{n}`" for n in stale)
    runs = f"{_runs(c)} (at 1 Mb/s); NS-2.35: {_runs(baseline, 'ns2_runs')}" + (
        f"; {names} from the 2-Mb/s code (not re-run)" if stale else ""
    )
    headline = (
        "Issue 25: 802.11 at NS-2.35's 1 Mb/s (was 2 Mb/s from a wrong reference), the declared "
        "`field` placement (the seed's stated geometry, a field per run, one-way links as they "
        "fall), NS-2's receiver lock (from a frame's first bit), retry counts and carrier-sense "
        "culling, preloaded neighbour caches (no ARP frames), AODV neighbour entries that never "
        "expire (NS-2.35 runs no neighbour timer) and a first route search network-wide (as "
        f"ns-2.35's sendRequest). The comparison was re-run with {_runs(c)} runs per point "
        "(declared: 10; the full mode's simulations did not fit on the shared machine), and "
        "so were the other experiments (declared: 5)"
        + (
            f", but {_count(len(stale), 'table')} ({names}) still "
            f"come{'s' if len(stale) == 1 else ''} from the 2-Mb/s `clusters` configuration "
            "(`provenance.json`, `written_by`)"
            if stale
            else ""
        )
        + f". Verdicts in the counts above: {inside} of "
        f"{len(c)} values lie within 20 % of the published one with their mean, most only "
        "`consistent` (intervals of few runs are wide); UDP's throughput is an `input` (the "
        "interval reading was chosen from it) and the energies are `by-construction`. Against "
        "NS-2.35 on the same fields (the NS-2 table above) ns-3 is within 20 % of NS-2 on "
        f"{rows('throughput')} of "
        f"{within.loc['throughput', 'count']} throughput rows and {rows('consumed_energy')} "
        f"energy rows, on {_count(rows('e2e_delay'), 'delay row')} and "
        f"{_count(rows('dropped_packets'), 'dropped-packets row')}. NS-2's SCTP fed by CBR "
        f"stalls ({sctp['ns2']:.1f} kb/s on "
        f"average against the seed's {float(sctp['published']):.1f} and ns-3's "
        f"{sctp['ns3']:.1f}), so the seed's SCTP numbers are not what NS-2.35 gives with its "
        "stated configuration"
    )
    return runs, headline


def _multihoming_headline(folder: Path) -> tuple[str, str]:
    c = _read(folder, "multihoming_failover", "comparison")
    single = _pick(c, protocol="SCTP (single-homed)", metric="transmission_stall", role="claim")
    mean = _pick(c, protocol="SCTP (single-homed)", metric="transmission_stall", role="derived")
    multi = _pick(c, protocol="SCTP (multi-homed)", metric="transmission_stall")
    ordering = _pick(_read(folder, "multihoming_failover", "qualitative"),
                     metric="transmission_stall")  # fmt: skip
    first = _pick(c, protocol="SCTP (single-homed)", metric="first_loss_time")
    brennan = _read(folder, "multihoming_failover", "lossy_brennan")
    medians = brennan.set_index(["config", "metric"])["median"]
    presets = _read(folder, "multihoming_failover", "presets").set_index("stack_preset")
    timers = _read(folder, "multihoming_failover", "failover_timers")
    voice = _read(folder, "multihoming_failover", "voice")
    five = voice[voice["loss_rate"] == 0.05].set_index("policy")
    lifetime, reliable, udp = five.loc["ttl(150)"], five.loc["reliable(0)"], five.loc["udp(0)"]
    exceed = _exceedance_text(folder)
    inside = timers["in_window"].astype(str).eq("True")
    outside = timers[~inside]
    timers_text = (
        f"inside the RFC timer window in {inside.sum()} of {len(timers)} timer settings"
        + ("" if outside.empty else " (not with HB.interval "
           + ", ".join(f"{v:g} s" for v in outside["hb_interval"]) + ": earlier)")
    )  # fmt: skip
    headline = (
        f"Brennan et al. under 15 % loss, with the seed's statistic (the stall around the first "
        f"loss, not the longest gap of a run). The seed's `>3` is one trace, a `{single['kind']}`"
        f" claim judged by the probability of that event in our runs (`{single['verdict']}`): "
        f"{exceed}. Judged as a bound on the mean stall (a derived row, `{mean['verdict']}`): "
        f"single-homed {mean['reproduced']:.2f} s ({_interval_text(folder, 'single-homed')}; "
        f"median {medians.loc[('single-homed', 'transmission_stall')]:.2f}) vs > 3 s, multi-homed "
        f"{multi['reproduced']:.2f} s ({_interval_text(folder, 'multi-homed')}) vs ~0.5 s; the "
        f"ordering is as published but not significant (Welch p = "
        f"{_welch_p(ordering['test']):.2f}, the qualitative claim: `{ordering['verdict']}`); "
        f"first lost packet at {first['reproduced']:.2f} s vs "
        f"~1.5 s. Most first losses are repaired by one fast retransmission. SCTP-PF changes the "
        f"longest stalls, not the first one. Presets, primary dies at 5 s: all resume on the "
        f"alternate after one RTO ({_span(presets['resume_s'], '.2f')} s); RFC 9260 and FreeBSD "
        f"keep sending new data to the dead primary until it turns inactive "
        f"{presets.loc['rfc9260', 'failover_s']:.0f} s later (longest stall "
        f"{presets.loc['rfc9260', 'max_stall_s']:.0f} s), Linux (PF on) moves it at once "
        f"({presets.loc['linux', 'max_stall_s']:.2f} s). Failover times {timers_text}; PR-SCTP "
        f"voice at 5 % loss: lifetime 150 ms loses {lifetime['residual_loss_pct']:.2f} % (max "
        f"delay {lifetime['delay_max_ms']:.0f} ms), fully reliable loses "
        f"{'nothing' if reliable['residual_loss_pct'] == 0 else reliable['residual_loss_pct']} "
        f"but {reliable['late_or_lost_pct']:.0f} % arrive late, UDP loses "
        f"{udp['residual_loss_pct']:.1f} %"
    )
    return _runs(c), headline


def _exceedance_path(folder: Path) -> Path:
    return folder / "multihoming_failover" / "lossy_exceedance.csv"


def _exceedance_text(folder: Path) -> str:
    path = _exceedance_path(folder)
    if not path.is_file():
        return "its probability needs the per-run values, which are not committed"
    table = pd.read_csv(path).set_index("config")
    parts = [
        f"{config} {int(r['runs_above'])} of {int(r['n_runs'])} runs stall more than "
        f"{r['threshold_s']:g} s after their first DATA loss, P = {r['p_above']:.2f} (95 % "
        f"exact interval {r['p_ci_low']:.2f}-{r['p_ci_high']:.2f}; longest "
        f"{r['stall_max_s']:.1f} s)"
        for config, r in table.iterrows()
        if config in ("single-homed", "multi-homed")
    ]
    return "; ".join(parts) + " (`lossy_exceedance.csv`)"


def _interval_text(folder: Path, config: str) -> str:
    path = _exceedance_path(folder)
    if path.is_file():
        r = pd.read_csv(path).set_index("config").loc[config]
        return f"95 % bootstrap CI {r['stall_boot_low_s']:.2f}-{r['stall_boot_high_s']:.2f}"
    brennan = _read(folder, "multihoming_failover", "lossy_brennan")
    r = _pick(brennan, config=config, metric="transmission_stall")
    return f"95 % CI {r['ci_low']:.2f}-{r['ci_high']:.2f}"


HEADLINES = {
    "wired_best_effort": _wired_headline,
    "voip_cjm": _voip_headline,
    "sip_over_sctp": _sip_headline,
    "wsn_reporting_interval": _wsn_headline,
    "multihoming_failover": _multihoming_headline,
}


def _results_table(folder: Path) -> str:
    lines = ["| study | runs per point | headline |", "|---|---|---|"]
    for study, render in HEADLINES.items():
        runs, headline = render(folder)
        lines.append(f"| `{study}` | {runs} | {headline} |")
    return "\n".join(lines)


# ------------------------------------------------------------------ NS-2 paragraphs


def _ns2_wired(folder: Path) -> str:
    b = _read(folder, "wired_best_effort", "ns2_baseline")
    within = b["ns3_within_tolerance_of_ns2"].astype(str).eq("True")
    runs = _runs(b, "ns3_runs")
    tcp_jitter = b[(b["protocol"] == "TCP") & (b["metric"] == "awk_jitter")]
    misses = b[(b["paper_vs_ns2"] != "matches") & ~((b["protocol"] == "TCP")
                                                    & (b["metric"] == "awk_jitter"))]  # fmt: skip
    sctp_miss = _pick(misses, protocol="SCTP", metric="awk_delay")
    everywhere = "every row" if within.all() else f"{within.sum()} of {len(b)} rows"
    return (
        "**Wired** (`wired_best_effort`).\n"
        "Our generated script builds what seed 004's Appendix A scripts build and gives exactly "
        f"their trace (a test runs both). In full mode ({runs} runs each; counts in the table "
        f"above) ns-3 lies within 20 % of NS-2 on {everywhere}. The {len(tcp_jitter)} TCP "
        f"jitter rows are {_span(tcp_jitter['published'], '.1f')} ms published against "
        f"{_span(tcp_jitter['ns2'], '.1f')} ms in NS-2, so those published values are not what "
        f"NS-2 gives with a 1-s AWK window; the other {len(misses)} misses are seed 000's SCTP "
        f"delay of pair {sctp_miss['row'].removeprefix('nodes ')} "
        f"({float(sctp_miss['published']):.0f} ms, "
        f"{float(sctp_miss['published_over_ns2']) - 1:.0%} above NS-2) and Table 4.7's "
        "self-contradicting TCP mean delay."
    )


def _ns2_voip(folder: Path) -> str:
    table = _read(folder, "voip_cjm", "ns2_baseline")
    network = _read(folder, "voip_cjm", "ns2_network")
    b = table[table["topology"] == "homogeneous"]
    net = network[network["topology"] == "homogeneous"]
    rate = _pick(b, protocol="TCP", metric="packets_received_per_second")
    jitter = _pick(b, protocol="SCTP", metric="jitter")
    tcp_jitter = _pick(b, protocol="TCP", metric="jitter")
    agree = b[b["paper_vs_ns2"] == "matches"]
    ns2_sctp = _pick(net, simulator="NS-2.35", configuration="SCTP ordered")
    ns3_sctp = _pick(net, simulator="ns-3", configuration="SCTP ordered")
    ns2_tcp = _pick(net, simulator="NS-2.35", configuration="TCP")
    ns3_tcp = _pick(net, simulator="ns-3", configuration="TCP")
    agreeing = "one row" if len(agree) == 1 else f"{len(agree)} rows"
    trunk = table[table["topology"] == "trunk"]
    if trunk.empty:
        trunk_runs = (
            "; the trunk reading, which the module also runs (`--trunk-runs`), is not in the "
            "committed table yet"
        )
    else:
        trunk_runs = (
            f", and on the trunk reading (every call between one pair of hosts) "
            f"{_runs(trunk, 'ns2_runs')} runs in both simulators"
        )
    return (
        "**VoIP** (`voip_cjm`, notebook 02 section 7): `main` in NS-2.35 on the homogeneous "
        "reading, each call a CBR into its own `Agent/UDP`, `Agent/TCP` (Tahoe) or "
        f"`Agent/SCTP`, {_runs(b, 'ns2_runs')} runs per configuration beside the committed ns-3 "
        f"comparison ({_runs(b, 'ns3_runs')} runs){trunk_runs}. "
        f"The {agreeing} where the paper agrees with NS-2 is TCP's packets per second, "
        f"non-discriminating ({rate['ns2']:.0f} in NS-2 and {rate['ns3']:.0f} in ns-3, published "
        f"{float(rate['published']):.0f} within 20 %); NS-2's SCTP jitter of "
        f"{jitter['ns2']:.1f} ms lies just above the published `{jitter['published']}` over its "
        "whole interval. The rest are two named model differences of NS-2's agents: its "
        "`Agent/SCTP` fed by a CBR sends only when a SACK arrives, so its messages leave in "
        f"bursts (maximum delay {ns2_sctp['delay_max_ms']:.0f} ms, mean "
        f"{ns2_sctp['delay_mean_ms']:.0f} ms against ns-3's {ns3_sctp['delay_max_ms']:.0f} and "
        f"{ns3_sctp['delay_mean_ms']:.0f} ms), and its one-way `Agent/TCP` opens the connection "
        f"with the first message (maximum {ns2_tcp['delay_max_ms']:.0f} ms at the start-up, "
        f"{ns2_tcp['steady_delay_max_ms']:.0f} ms after it, where ns-3 has "
        f"{ns3_tcp['delay_max_ms']:.0f} ms); the published TCP jitter "
        f"({tcp_jitter['published']} ms) is neither simulator's (NS-2 {tcp_jitter['ns2']:.2f} ms, "
        f"ns-3 {_sci(tcp_jitter['ns3'])} ms)."
        + ("" if trunk.empty else " " + _ns2_voip_trunk(trunk, network))
    )


def _ns2_voip_trunk(trunk: pd.DataFrame, network: pd.DataFrame) -> str:
    """The trunk reading's sentences of the VoIP paragraph, each value beside the
    homogeneous reading's (``ns2_baseline.csv`` and ``ns2_network.csv``)."""
    counted = baseline_counts(trunk, by=["protocol"]).set_index("protocol").loc["all"]

    def value(simulator: str, configuration: str, column: str, topology: str) -> float:
        rows = network[(network["simulator"] == simulator)
                       & (network["configuration"] == configuration)]  # fmt: skip
        return _pick(rows, topology=topology)[column]

    def side(simulator: str, configuration: str, column: str, fmt: str = ".0f") -> str:
        """``trunk (homogeneous)`` of one value of ``ns2_network.csv``."""
        trunk_value, homogeneous = (
            format(value(simulator, configuration, column, topology), fmt)
            for topology in ("trunk", "homogeneous")
        )
        return f"{trunk_value} ({homogeneous})"

    worse = value("NS-2.35", "SCTP ordered", "delay_max_ms", "trunk") > value(
        "NS-2.35", "SCTP ordered", "delay_max_ms", "homogeneous")  # fmt: skip
    return (
        f"On the trunk reading the paper agrees with NS-2 on {counted['paper_matches_ns2']} of "
        f"its {counted['rows']} rows and with ns-3 on {counted['paper_matches_ns3']}, and ns-3 "
        f"lies within the tolerance of NS-2 on {counted['ns3_within_tolerance_of_ns2']}. There "
        "every call takes one path (trunk reading, the homogeneous one in brackets): UDP's mean "
        f"delay is {side('NS-2.35', 'UDP', 'delay_mean_ms', '.1f')} ms in NS-2 and "
        f"{side('ns-3', 'UDP', 'delay_mean_ms', '.1f')} ms in ns-3; NS-2's TCP maximum "
        f"{side('NS-2.35', 'TCP', 'delay_max_ms')} ms, "
        f"{side('NS-2.35', 'TCP', 'steady_delay_max_ms', '.1f')} ms after the start-up; and "
        f"NS-2's SACK-clocked SCTP bursts {'get worse' if worse else 'are milder'}: ordered "
        f"SCTP's mean delay {side('NS-2.35', 'SCTP ordered', 'delay_mean_ms')} ms, maximum "
        f"{side('NS-2.35', 'SCTP ordered', 'delay_max_ms')} ms, jitter "
        f"{side('NS-2.35', 'SCTP ordered', 'before_jitter_ms', '.1f')} ms, where ns-3's "
        f"maximum is {side('ns-3', 'SCTP ordered', 'delay_max_ms')} ms."
    )


_WSN = "wsn_reporting_interval"


def _ns2_sensors(folder: Path) -> str:
    """The Sensors paragraph: the ns2_gap experiment's attribution of the delay and
    dropped-packets gaps (``ns2_gap_delay.csv``, ``ns2_gap_drops.csv``; UDP, run 1) and
    the broadcast collisions' pairing (``ns2_gap_broadcasts.csv``)."""
    delay = _read(folder, _WSN, "ns2_gap_delay")
    drops = _read(folder, _WSN, "ns2_gap_drops")
    fast, slow = delay["reporting_interval"].min(), delay["reporting_interval"].max()
    at_fast = delay[delay["reporting_interval"] == fast]
    gap = _pick(at_fast, quantity="gap: mean(NS-2) - mean(ns-3) (ms)")["ns2"]
    same = _pick(at_fast, quantity="gap part: the same reports (ms)")["ns2"]
    own = {
        name: _pick(at_fast, quantity=f"gap part: {name}'s own reports (ms)")["ns2"]
        for name in ("NS-2", "ns-3")
    }
    against = min(own, key=lambda name: own[name] * gap)  # the part most against the gap
    hops = _pick(at_fast, quantity="hops per report")
    only = _pick(at_fast, quantity="reports delivered by this simulator only")["ns2"]
    given_up = _pick(drops, reporting_interval=fast, cause="MAC retry limit", kind="data")
    retry_limit = "the data packets ns-3's MACs gave up at the retry limit"
    if round(only) == round(given_up["ns3"]):
        only_ns2 = f"are as many ({only:.0f}) as {retry_limit}"
    else:
        only_ns2 = f"number {only:.0f}, {retry_limit} {given_up['ns3']:.0f}"
    total = _pick(drops, reporting_interval=slow, cause="total", kind="all")
    total_fast = _pick(drops, reporting_interval=fast, cause="total", kind="all")
    rts = _pick(drops, reporting_interval=slow, cause="MAC retry limit", kind="RTS/CTS/ACK")
    lost = _routing_collisions(_read(folder, _WSN, "ns2_gap_collisions"), slow)
    broadcasts = _read(folder, _WSN, "ns2_gap_broadcasts")
    rreq = {
        simulator: float(_pick(broadcasts, reporting_interval=slow, simulator=simulator,
                               group="per frame sent", category="RREQ")["share"])
        for simulator in ("ns3", "ns3_preamble", "ns2")
    }  # fmt: skip
    return (
        "**Sensors** (`wsn_reporting_interval`, notebook 04 section 8):\n"
        "`python -m transportlab.studies.wsn_reporting_interval.ns2_baseline` runs seed 003's "
        "Table 1 with NS-2's own defaults on the same fields and start times as the ns-3 runs "
        "(`ns2_baseline.csv`, the model differences in `ns2_baseline_trace.csv`, "
        "`_priqueue.csv`, `_culling.csv`); its counts are in the table above. ns-3 lies within "
        "20 % of NS-2 on few delay and dropped-packets rows; "
        "`python -m transportlab.studies.wsn_reporting_interval.ns2_gap` traces UDP at "
        f"{fast:g} s and {slow:g} s (run 1, one run of each simulator) report by report and "
        "drop by drop and attributes both gaps (`ns2_gap_*.csv`, notebook 04 section 8.6). At "
        f"{fast:g} s NS-2's reports are slower on the same reports ({same:.0f} of its "
        f"{gap:.0f} ms more, {against}'s own extra reports pulling the other way): a longer "
        "wait for "
        f"a route at the start-up and more, slower hops ({hops['ns2']:.2f} against "
        f"{hops['ns3']:.2f}); the reports only NS-2 delivers {only_ns2}, where NS-2's gave up "
        f"{given_up['ns2']:.0f}.\n"
        f"At {slow:g} s NS-2 counts {total['ns2']:.0f} drops against ns-3's {total['ns3']:.0f} "
        f"(at {fast:g} s {total_fast['ns2']:.0f} against {total_fast['ns3']:.0f}). "
        "Both count as NS-2's trace does: the RTS of a frame given up at the RTS retry limit "
        f"is a drop of its own ({rts['ns2']:.0f} in NS-2, {rts['ns3']:.0f} in ns-3), and an "
        "overheard frame for another node lost in a collision is none. AODV broadcasts lost "
        f"in collisions: {lost['ns2']:.2f} losses per routing frame sent in NS-2 against "
        f"{lost['ns3']:.2f} in ns-3. Pairing each loss with the frame it "
        "collided with (`ns2_gap_broadcasts.csv`, section 8.7) shows that both simulators "
        "lose RREQ rebroadcasts to frames started in the same backoff slot. Those arrive "
        "within ns-3's 4-us preamble detection window of each other, which the port of "
        "NS-2's rule used to leave to ns-3's preamble detection; it now applies the rule from "
        f"a frame's first bit, and ns-3 loses {rreq['ns3']:.2f} RREQs per RREQ sent against "
        f"NS-2's {rreq['ns2']:.2f} (a recount of the frames ns-3's preamble detection "
        f"dropped: {rreq['ns3_preamble']:.2f})."
    )


def _routing_collisions(collisions: pd.DataFrame, interval: float) -> pd.Series:
    """Per simulator, the routing frames lost in collisions that NS-2's trace shows, per
    routing frame sent, at ``interval`` (``ns2_gap_collisions.csv``)."""
    return _pick(collisions, reporting_interval=interval, kind="routing",
                 quantity="traced collision losses per frame sent")  # fmt: skip


def _wsn_ns2_gap(folder: Path) -> str:
    """Notebook 04 section 8.6: per traced interval, both simulators' dropped packets, the
    frames given up at the RTS retry limit (their RTS lines), the routing frames sent and
    lost in collisions that NS-2's trace shows, and ns-3's collided frames for another
    node that NS-2 frees untraced (``ns2_gap_drops.csv``, ``ns2_gap_collisions.csv``)."""
    drops = _read(folder, _WSN, "ns2_gap_drops")
    collisions = _read(folder, _WSN, "ns2_gap_collisions")
    lines = []
    for interval in sorted(set(drops["reporting_interval"])):
        total = _pick(drops, reporting_interval=interval, cause="total", kind="all")
        rts = drops[
            (drops["reporting_interval"] == interval)
            & (drops["cause"] == "MAC retry limit")
            & (drops["kind"] == "RTS/CTS/ACK")
        ]
        rts_lines = rts[["ns3", "ns2"]].sum()

        def row(kind, quantity, interval=interval):
            return _pick(collisions, reporting_interval=interval, kind=kind, quantity=quantity)

        sent = row("routing", "frames sent")
        lost = row("routing", "decodable frames lost in collisions, NS-2 traces them")
        per = row("routing", "traced collision losses per frame sent")
        every = row("all", "decodable frames lost in collisions, NS-2 traces them")
        other = row("all", "lost frames for another node, NS-2 frees them untraced")
        lines += [
            f"{interval:g} s: dropped packets ns-3 {total['ns3']:.0f}, NS-2 {total['ns2']:.0f}; "
            f"RTS lines of frames given up at the RTS retry limit ns-3 {rts_lines['ns3']:.0f}, "
            f"NS-2 {rts_lines['ns2']:.0f}",
            f"  routing frames sent ns-3 {sent['ns3']:.0f}, NS-2 {sent['ns2']:.0f}; lost in "
            f"collisions (NS-2's COL lines) ns-3 {lost['ns3']:.0f} ({per['ns3']:.3f} per frame "
            f"sent), NS-2 {lost['ns2']:.0f} ({per['ns2']:.3f})",
            f"  every kind: lost in collisions ns-3 {every['ns3']:.0f}, NS-2 {every['ns2']:.0f}; "
            f"ns-3's collided frames for another node (NS-2 frees them untraced, not counted) "
            f"{other['ns3']:.0f}",
        ]  # fmt: skip
    return "\n".join(lines)


def _wsn_ns2_gap_routes(folder: Path) -> str:
    """Notebook 04 section 8.8: per traced interval, NS-2's and each ns-3 model's delivered
    reports, first hops whose next hop cannot hear the sender, data frames given up at the
    retry limit (on such hops; of those, sent straight to the sink after a RREQ from it),
    RREQs for other nodes than the sink, the sink's AODV broadcasts and the RERRs sent
    (``ns2_gap_routes.csv``; UDP, run 1)."""
    table = _read(folder, _WSN, "ns2_gap_routes")
    one_way = "one-way: next hop out of the sender's reach"

    def count(mine, quantity, hop_class="all", simulator="ns3"):
        rows = mine[(mine["quantity"] == quantity) & (mine["hop_class"] == hop_class)]
        return int(rows[simulator].sum())

    def describe(mine, simulator):
        return (
            f"reports delivered {count(mine, 'of them delivered to the sink', 'all', simulator)}"
            f", first hops that cannot hear the sender "
            f"{count(mine, 'reports whose first hop is of this class', one_way, simulator)}; "
            "data frames given up at the retry limit "
            f"{count(mine, 'data frames given up at the retry limit', 'all', simulator)} ("
            f"{count(mine, 'data frames given up at the retry limit', one_way, simulator)} "
            "to such next hops"
        )

    lines = []
    for interval, point in table.groupby("reporting_interval", sort=True):
        first = point[point["ns3_model"] == point["ns3_model"].iloc[0]]
        direct = "given up at the retry limit, next hop the sink, the last AODV message heard " \
            "from it: RREQ"  # fmt: skip
        broadcasts = count(first, "AODV messages the sink broadcast", "all", "ns2")
        lines.append(
            f"{interval:g} s, NS-2: {describe(first, 'ns2')}); RREQs for other nodes than the "
            f"sink {count(first, 'RREQs originated for another node', 'all', 'ns2')}, AODV "
            f"messages the sink broadcast {broadcasts}, "
            f"RERRs {count(first, 'RERRs sent', 'all', 'ns2')}"
        )  # fmt: skip
        for model, mine in point.groupby("ns3_model", sort=False):
            lines.append(
                f"  ns-3 {model}: {describe(mine, 'ns3')}, "
                f"{count(mine, direct, one_way)} straight to the sink after a RREQ from it); "
                f"RREQs for other nodes than the sink "
                f"{count(mine, 'RREQs originated for another node')}, AODV messages the sink "
                f"broadcast {count(mine, 'AODV messages the sink broadcast')}, RERRs "
                f"{count(mine, 'RERRs sent')}"
            )  # fmt: skip
    return "\n".join(lines)


def _wsn_ns2_gap_broadcasts(folder: Path) -> str:
    """Notebook 04 section 8.7: per traced interval, the losses per frame sent (RREQ,
    routing, RTS) of ns-3 as its NS-2 rule counts them, ns-3 with the preamble-window
    losses NS-2 would count, and NS-2; and how NS-2's and the recounted ns-3's routing
    collisions split into same-slot starts of senders that sense each other and hidden
    terminals (``ns2_gap_broadcasts.csv``)."""
    table = _read(folder, _WSN, "ns2_gap_broadcasts")
    names = {"ns3": "ns-3", "ns3_preamble": "ns-3 + preamble window", "ns2": "NS-2"}
    same_slot = "same slot (< 20 us) | later sender senses the earlier"
    waited = "within 670 us of a sensed frame's end (waited, then backoff)"
    lines = []
    for interval in sorted(set(table["reporting_interval"])):

        def share(group, category, simulator, interval=interval):
            key = {"reporting_interval": interval, "simulator": simulator, "group": group}
            return float(_pick(table, **key, category=category)["share"])

        def per_frame(kind):
            return ", ".join(
                f"{name} {share('per frame sent', kind, sim):.3f}" for sim, name in names.items()
            )

        lines += [
            f"{interval:g} s: losses per frame sent, RREQ: {per_frame('RREQ')}",
            f"  routing (RREQ, RREP, RERR): {per_frame('routing')}; RTS: {per_frame('RTS')}",
            "  routing collisions in the same slot, senders that sense each other: "
            + ", ".join(
                f"{name} {share('routing: offset and sensing', same_slot, sim):.1%}"
                for sim, name in names.items()
            )
            + "; hidden terminals: "
            + ", ".join(
                f"{name} {share('routing: sensing', 'hidden terminal', sim):.1%}"
                for sim, name in names.items()
            ),
            "  RREQs sent within DIFS + first backoff of a frame their sender heard end: "
            + ", ".join(
                f"{names[sim]} {share('RREQ: idle before start', waited, sim):.1%}"
                for sim in ("ns3", "ns2")
            ),
        ]
    return "\n".join(lines)


def _goodput_rules_text(rules: pd.DataFrame, single_p: float, multi_p: float) -> str:
    """The goodput gap between the stacks and what the model's attributes for NS-2.35's
    SCTP rules do to it (``ns2_goodput_rules.csv``: ns-3's ``lossy_many`` again with each
    rule set against NS-2's runs)."""
    goodput = rules[rules["metric"] == "goodput_mbps"].set_index(["ns2_rules", "config"])

    def means(rule_set: str) -> str:
        return " and ".join(
            f"{goodput.loc[(rule_set, c), 'ns3_mean']:.3f}" for c in ("single-homed", "multi-homed")
        )

    ns2 = " and ".join(
        f"{goodput.loc[('none', c), 'ns2_mean']:.3f}" for c in ("single-homed", "multi-homed")
    )
    everything = goodput.loc[("all", "multi-homed")]
    return (
        f"Goodput differs between the two stacks (Mann-Whitney p = {_sci(single_p)} and "
        f"{multi_p:.2g}; single- and multi-homed means {means('none')} Mb/s in ns-3 against "
        f"{ns2} in NS-2, {_runs(goodput.reset_index())} runs each). No SCTP parameter differs "
        "(notebook 05 section 5), and the model's attributes for NS-2.35's SCTP rules do not "
        f"close it (`ns2_goodput_rules.csv`): all three give {means('all')} Mb/s (multi-homed "
        f"p = {_sci(everything['p_same'])}); only `CwndGrowthOnCumAckOnly` moves it "
        f"({means('cum_ack_growth')}), towards NS-2 single-homed and away from it "
        "multi-homed, so NS-2's multi-homed sender makes up for that rule elsewhere; not yet "
        "found."
    )


def _ns2_multihoming(folder: Path) -> str:
    b = _read(folder, "multihoming_failover", "ns2_baseline")
    dist = _read(folder, "multihoming_failover", "ns2_lossy_distribution")
    first = _pick(b, protocol="SCTP (single-homed)", metric="first_loss_time")
    stalls = b[(b["protocol"] == "SCTP (single-homed)") & (b["metric"] == "transmission_stall")]
    # Brennan's single published trace is a realisation (its probability in our runs) with
    # the mean over the runs beside it as a derived row; a table written before the claim
    # kind existed has the mean alone
    realisation = stalls[stalls["kind"] == "realisation"]
    single = _pick(stalls[stalls["kind"] != "realisation"], metric="transmission_stall")
    multi = _pick(b, protocol="SCTP (multi-homed)", metric="transmission_stall")
    share = (
        f" (in {realisation['ns2'].iloc[0] * 100:.0f} % of NS-2's runs longer than "
        f"{single['published'].lstrip('>')} s, in {realisation['ns3'].iloc[0] * 100:.0f} % of "
        "ns-3's)"
        if len(realisation)
        else ""
    )
    agree = (b["paper_vs_ns2"] == "matches").sum()
    outside = (~b["ns3_within_tolerance_of_ns2"].astype(str).eq("True")).sum()
    stall = dist[dist["metric"] == "first_loss_stall_s"].set_index(["config", "simulator"])
    medians = {
        config: _span(stall.loc[config]["median"], ".3f")
        for config in ("single-homed", "multi-homed")
    }
    p_same = {config: stall.loc[config]["p_same"].iloc[0] for config in medians}
    goodput = dist[dist["metric"] == "goodput_mbps"].set_index("config")["p_same"]
    single_p, multi_p = (goodput.loc[c].iloc[0] for c in ("single-homed", "multi-homed"))
    goodput_text = (
        f"Goodput differs between the two stacks (Mann-Whitney p = {_sci(single_p)} and "
        f"{multi_p:.2g}), left open."
    )
    rules_path = folder / "multihoming_failover" / "ns2_goodput_rules.csv"
    if rules_path.is_file():
        rules = _read(folder, "multihoming_failover", "ns2_goodput_rules")
        goodput_text = _goodput_rules_text(rules, single_p, multi_p)
    many = _runs(dist)
    return (
        "**Multi-homing** (`multihoming_failover`, notebook 05 section 5): Brennan et al.'s "
        "transfer under 15 % loss in NS-2.35's multi-homed SCTP (core and interface nodes), "
        f"{_runs(b, 'ns2_runs')} runs per configuration as in ns-3 (SCTP-PF has no NS-2 "
        f"counterpart). The paper agrees with NS-2 on {agree or 'none'} of the {len(b)} rows: "
        f"NS-2's first loss comes at {first['ns2']:.2f} s (published {first['published']}) and "
        f"the stall after it lasts {single['ns2']:.2f} s single-homed and {multi['ns2']:.2f} s "
        f"multi-homed on average{share} (published > {single['published'].lstrip('>')} and "
        f"{multi['published']} s), "
        "so the seed's numbers are not what NS-2 gives from the configuration the seed states. "
        f"ns-3's means are outside 20 % of NS-2's on {outside} of the {len(b)} rows, but the "
        f"experiment `lossy_many` ({many} runs per configuration in both simulators, "
        "`ns2_lossy_distribution.csv`) shows the same stall distribution (median "
        f"{medians['single-homed']} s single-homed and {medians['multi-homed']} s multi-homed "
        f"in both; Mann-Whitney p = {p_same['single-homed']:.2f} and "
        f"{p_same['multi-homed']:.2f}): the heavy tail (a lost retransmission doubles the RTO) "
        f"makes means of a few runs chance. {goodput_text}"
    )


#: How the README names each difference of ``ns2_baseline.DIFFERENCES`` (in this order).
_NS2_SCTP_CAUSES = {
    "confirm_heartbeat": "NS-2's path-confirming HEARTBEAT",
    "gap_fill_sack": "its delayed SACK of a gap-filling retransmission",
    "idle_cwnd_decay": "its halving of the cwnd of a destination it has sent nothing to for "
    "an RTO, data outstanding or not",
    "utilization_test": "its growing the cwnd only when the bytes outstanding reach it "
    "(RFC 9260 7.2.2's test, which the model's default relaxes by one PMDCS; its "
    "`UtilizationAtCwnd` attribute applies it)",
    "cum_ack_growth": "its growing the cwnd only on a SACK that advances the cumulative TSN ack "
    "(RFC 4960's rule, which RFC 9260 dropped; the model's `CwndGrowthOnCumAckOnly` attribute "
    "applies it)",
    "first_data_sack": "the model's delayed SACK of the first DATA chunk, where RFC 9260 5.1 "
    "says the receiver MUST SACK at once: the model does with its `ImmediateFirstSack` "
    "attribute, default false until every SCTP study is re-run with it",
}


def _ns2_sctp_model(folder: Path) -> str:
    v = _read(folder, "sctp_validation", "ns2_baseline")
    agree = v["differing"].isna().sum()
    explained = v["explained_by"].notna().sum()
    other = len(v) - agree
    named = set(v["explained_by"].dropna().str.split(",").explode())
    causes = [text for key, text in _NS2_SCTP_CAUSES.items() if key in named]
    return (
        f"In full mode {agree} of {len(v)} scenarios agree on every metric; {explained} of the "
        f"other {other} are accounted for by {_listed(causes)}; {other - explained} "
        f"{'is' if other - explained == 1 else 'are'} not yet explained"
        f"{_ns2_rules_left(v)}. {_ns2_first_sack(folder)}"
    ).rstrip()


def _ns2_rules_left(v: pd.DataFrame) -> str:
    """What the run with all of NS-2's rules (``ns2_rules_*``) leaves of the unexplained
    scenarios it was tried on ("" when none or before those columns exist)."""
    if "ns2_rules_differing" not in v:
        return ""
    left = v[v["differing"].notna() & v["explained_by"].isna() & v["ns2_rules_agrees"].notna()]
    if not len(left):
        return ""
    names = {"completion_s": "completion time", "fast": "fast retransmissions",
             "t3": "T3 retransmissions", "timeouts": "T3 expiries",
             "queue_drops": "queue drops", "cwnd": "cwnd trajectory"}  # fmt: skip
    parts = []
    for r in left.itertuples():
        still = [names[m] for m in str(r.ns2_rules_differing).split(",") if m in names]
        part = f"`{r.scenario}` still differs in {_listed(still)}" if still else (
            f"`{r.scenario}` agrees")  # fmt: skip
        if "cwnd" in str(r.ns2_rules_differing).split(","):
            part += (f" ({100 * r.ns2_rules_cwnd_diff:.1f} %, "
                     f"{100 * r.ns2_rules_cwnd_diff_shifted:.1f} % with NS-2 moved back by its "
                     f"HEARTBEAT round trip; the trajectories part at {r.ns2_rules_parted_s:.3f} "
                     f"s, NS-2's cwnd {r.ns2_rules_ns2_cwnd:.0f} B and the model's "
                     f"{r.ns2_rules_ns3_cwnd:.0f} B)")  # fmt: skip
        parts.append(part)
    return (": with the model's attributes for all of NS-2's rules (`ImmediateFirstSack`, "
            "`UtilizationAtCwnd`, `CwndGrowthOnCumAckOnly`; NS-2's idle decays undone) "
            f"{_listed(parts)}")  # fmt: skip


def _listed(items: list[str]) -> str:
    """``a``, ``a and b``, ``a, b and c``."""
    return items[0] if len(items) == 1 else f"{', '.join(items[:-1])} and {items[-1]}"


def _ns2_first_sack(folder: Path) -> str:
    """What ``ns2_first_sack.csv`` measured: the ``first_data_sack`` scenarios with the
    model's ``ImmediateFirstSack`` on ("" before that table exists)."""
    if not (folder / "sctp_validation" / "ns2_first_sack.csv").is_file():
        return ""
    f = _read(folder, "sctp_validation", "ns2_first_sack")
    n = len(f)
    names = {"completion_s": "completion time", "fast": "fast retransmissions",
             "t3": "T3 retransmissions", "timeouts": "T3 expiries",
             "queue_drops": "queue drops", "cwnd": "cwnd trajectory"}  # fmt: skip
    counts = {metric: int(f[f"{metric}_agrees"].astype(bool).sum()) for metric in names}
    every = [names[m] for m, c in counts.items() if c == n]
    fewer = [f"{names[m]} in {c}" for m, c in counts.items() if c < n]
    left = f[~f["agrees"].astype(bool)]
    text = (
        f"With `ImmediateFirstSack` on, the {n} scenarios that the first DATA's delayed SACK "
        f"explains (`ns2_first_sack.csv`) agree with NS-2 on {_listed(every)} in all {n}"
        + (f" and on {_listed(fewer)}" if fewer else "")
        + f"; {n - len(left)} of {n} agree on every metric once NS-2 is moved back by its "
        "HEARTBEAT round trip and its cwnd rules are accounted for"
    )  # fmt: skip
    if len(left):
        pairs = zip(left["scenario"], left["still_differing"], strict=True)
        still = [f"`{name}` in {_listed([names[m] for m in str(differ).split(',')])}"
                 for name, differ in pairs]  # fmt: skip
        text += f"; {_listed(still)} still differ{'s' if len(left) == 1 else ''}"
    return text + "."


def headline_blocks(folder: Path) -> dict[str, str]:
    """The README's prose blocks rendered from the committed tables in ``folder``."""
    return {
        "results-headlines": _results_table(folder),
        "ns2-wired": _ns2_wired(folder),
        "ns2-voip": _ns2_voip(folder),
        "ns2-multihoming": _ns2_multihoming(folder),
        "ns2-sensors": _ns2_sensors(folder),
        "ns2-sctp-model": _ns2_sctp_model(folder),
    }


# ------------------------------------------------------------------ notebook prose
#
# The notebooks state results in words too. Where such a paragraph needs numbers, a
# cell right after it prints them with ``notebook_numbers(study, section)`` from the
# committed full-mode tables, so the words carry no typed result; nbval compares the
# printed lines with the committed outputs and ``tests/test_notebook_numbers.py`` the
# committed outputs with these functions.

_WIRED = "wired_best_effort"
_SIP = "sip_over_sctp"
_VOIP = "voip_cjm"


def _verdicts(rows: pd.DataFrame) -> str:
    counts = rows["verdict"].value_counts()
    return ", ".join(f"{n} {verdict}" for verdict, n in counts.items()) + f" of {len(rows)}"


def _ftp_means(folder: Path) -> pd.DataFrame:
    """Experiment ``main``: mean over the FTP pairs per protocol (columns: metrics)."""
    per_pair = _read(folder, _WIRED, "per_pair")
    ftp = per_pair[per_pair["application"] == "ftp"]
    return ftp.pivot_table(index="protocol", columns="metric", values="mean", aggfunc="mean")


def _wired_delay_readings(folder: Path) -> str:
    readings = _read(folder, _WIRED, "delay_readings")
    lines = []
    for column, reading in (("verdict_printed", "printed gap"), ("verdict", "one-way delay")):
        shown = ", ".join(f"{n} {v}" for v, n in readings[column].value_counts().items())
        lines.append(f"{reading} reading, full mode, {len(readings)} delay rows: {shown}")
    for verdict in ("same-direction", "differs"):
        rows = readings[readings["verdict"] == verdict]
        both = " under both readings" if verdict == "differs" else ""
        listed = "; ".join(
            f"{r.source} {r.protocol} {r.row} (published {r.published:.1f} ms, ours "
            f"{r.reproduced:.1f}, printed gap {r.printed:.1f})"
            for r in rows.itertuples()
        )
        lines.append(f"{_count(len(rows), 'row')} {verdict}{both}: {listed or '-'}")
    return "\n".join(lines)


def _wired_summary(folder: Path) -> str:
    c = _read(folder, _WIRED, "comparison")
    main = _ftp_means(folder)
    pkt = _read(folder, _WIRED, "awk_pkt").set_index("pkt")
    size = _read(folder, _WIRED, "sctp_packet_size").set_index("sctp_message_size")
    variants = _read(folder, _WIRED, "tcp_variants").set_index("variant")
    windows = _read(folder, _WIRED, "awk_windows")
    pooled = windows[windows["tic_s"].astype(str) == "pooled"].set_index("protocol")
    modern = _read(folder, _WIRED, "modern").set_index(["queue_discipline", "protocol"])
    lines = ["throughput (experiment main, AWK, kb/s per pair):"]
    for metric, unit, fmt in (
        ("awk_throughput", "kb/s", ".1f"), ("awk_jitter", "ms", ".1f"),
    ):  # fmt: skip
        for protocol in ("TCP", "SCTP"):
            rows = c[(c["metric"] == metric) & (c["protocol"] == protocol)]
            published = pd.to_numeric(rows["published"], errors="coerce")
            lines.append(
                f"  {protocol} {metric}: ours {_span(rows['reproduced'], fmt)} {unit} against "
                f"published {_span(published, fmt)}: {_verdicts(rows)}"
            )
        if metric == "awk_throughput":
            lines.append(
                f"  goodput (application bytes), mean of the FTP pairs: TCP "
                f"{main.loc['tcp', 'goodput_kbps']:.1f}, SCTP "
                f"{main.loc['sctp', 'goodput_kbps']:.1f} kb/s"
            )
            lines.extend(
                f"  AWK throughput with pkt = {p} (RngRun 1): TCP {pkt.loc[p, 'tcp']:.1f}, "
                f"SCTP {pkt.loc[p, 'sctp']:.1f} kb/s"
                for p in (1000, 500)
            )
            lines.append("jitter (AWK per-window mean unless said, ms):")
    tcp_jitter = variants.loc["Tahoe (default)", "awk_jitter_ms"]
    small, full = size.loc[992], size.loc[1452]
    with_size = (full["awk_jitter_ms"] - small["awk_jitter_ms"]) / (
        full["awk_jitter_ms"] - tcp_jitter
    )
    lines += [
        f"  TCP pooled over packets (RngRun 1): {pooled.loc['tcp', 'awk_jitter_ms']:.1f}; SCTP "
        f"{pooled.loc['sctp', 'awk_jitter_ms']:.1f}",
        f"  TCP recovery (section 7.2): Tahoe {tcp_jitter:.1f}, NewReno PRR "
        f"{variants.loc['NewReno PRR', 'awk_jitter_ms']:.1f}, NewReno + SACK "
        f"{variants.loc['NewReno classic + SACK', 'awk_jitter_ms']:.1f}",
        f"  SCTP 1452-B messages {full['awk_jitter_ms']:.1f}, 992-B "
        f"{small['awk_jitter_ms']:.1f}: {with_size:.0%} of SCTP's extra jitter over TCP's goes "
        f"with the packet size",
        "delay (one-way, s):",
        f"  SCTP 1452-B messages {full['awk_e2e_delay_ms'] / 1e3:.2f}, 992-B (TCP-sized packets) "
        f"{small['awk_e2e_delay_ms'] / 1e3:.2f}; TCP (experiment main) "
        f"{main.loc['tcp', 'awk_e2e_delay_ms'] / 1e3:.2f}",
        "modern settings (section 7.4; DropTail -> FQ-CoDel):",
    ]
    for protocol in ("tcp", "sctp"):
        drop, codel = modern.loc[("droptail", protocol)], modern.loc[("fq_codel", protocol)]
        lines.append(
            f"  {protocol.upper()}: goodput {drop['goodput_kbps']:.1f} -> "
            f"{codel['goodput_kbps']:.1f} kb/s, one-way delay {drop['delay_ms'] / 1e3:.2f} -> "
            f"{codel['delay_ms'] / 1e3:.2f} s, AWK jitter {drop['awk_jitter_ms']:.1f} -> "
            f"{codel['awk_jitter_ms']:.1f} ms, Jain's index (goodput) "
            f"{drop['jain_goodput']:.3f} -> {codel['jain_goodput']:.3f}"
        )
    return "\n".join(lines)


def _sip_message_flow(folder: Path) -> str:
    flow = _read(folder, _SIP, "message_flow").set_index(["direction", "kind"])
    register = flow.loc[("sent", "REGISTER")]
    lines = [
        f"REGISTER sent {register['tcp ms'] - register['udp ms']:.2f} ms (TCP) and "
        f"{register['sctp ms'] - register['udp ms']:.2f} ms (SCTP) after the UDP one"
    ]
    for protocol in ("tcp", "sctp"):
        grown = flow[f"{protocol} bytes"] - flow["udp bytes"]
        lines.append(f"{protocol.upper()} messages minus UDP's: {_span(grown, '.0f')} bytes")
    return "\n".join(lines)


def _sip_throughput(folder: Path) -> str:
    t = _read(folder, _SIP, "throughput").set_index("message_size")
    large = t[t.index >= 1024][["udp", "tcp", "sctp"]]
    lines = [f"from 1024-B messages on: {_span(large.stack(), '.1f')} % of the link"]
    lines += [
        f"TCP at {size} B: {t.loc[size, 'tcp']:.1f} % against its bound "
        f"{t.loc[size, 'tcp bound']:.1f} %"
        for size in (1024, 1472)
    ]
    return "\n".join(lines)


def _sip_single_session(folder: Path) -> str:
    s = _read(folder, _SIP, "single_session").set_index(["protocol", "layout"])
    udp = s.loc[("udp", "seed"), "registration_ms"]
    lines = [f"registration over UDP {udp:.2f} ms"]
    for protocol in ("tcp", "sctp"):
        extra = s.loc[protocol, "registration_ms"] - udp
        lines.append(
            f"registration over {protocol.upper()}: +{extra['seed']:.2f} ms (seed layout), "
            f"+{extra['shared']:.2f} ms (shared)"
        )
    lines += [
        f"registration with everything up: {_span(s['registration_warm_ms'], '.2f')} ms",
        f"call set-up {_span(s['call_setup_ms'], '.2f')} ms, call termination "
        f"{_span(s['call_termination_ms'], '.2f')} ms",
    ]
    return "\n".join(lines)


def _sip_registration_processing(folder: Path) -> str:
    p = _read(folder, _SIP, "registration_processing").set_index("proxy_processing_ms")
    c = _read(folder, _SIP, "comparison")
    registration = c[c["row"] == "SIP registration"].set_index("protocol")
    published = registration["published"].astype(float)
    handshakes = p.loc[0.0, "sctp"] - p.loc[0.0, "udp"]
    return (
        f"with 3 ms per SIP message: UDP {p.loc[3.0, 'udp']:.2f} ms, SCTP {p.loc[3.0, 'sctp']:.2f}"
        f" ms (seed: {published['UDP']:g} and {published['SCTP']:g} ms)\n"
        f"seed's UDP + our SCTP handshakes: {published['UDP']:g} + {handshakes:.2f} = "
        f"{published['UDP'] + handshakes:.1f} ms; left to SCTP's own per-packet cost: "
        f"{published['SCTP'] - published['UDP'] - handshakes:.1f} ms"
    )


def _sip_calls(folder: Path) -> str:
    calls = _read(folder, _SIP, "calls_under_loss").set_index(["protocol", "loss_rate"])
    relative = _read(folder, _SIP, "calls_relative").set_index(["protocol", "loss_rate"])
    c = _read(folder, _SIP, "comparison")
    seed = c[c["metric"] == "sip_call_transactions"].set_index(["protocol", "row"])["published"]
    udp = relative.loc[("udp", 0.3)]
    return (
        f"UDP at 30 % relative to 5 %: {udp['mean']:.2f} ({udp['n_runs']:.0f} runs), seed "
        f"{udp['seed']:.2f}\n"
        f"completed calls at 5 %: UDP {calls.loc[('udp', 0.05), 'mean']:.1f}, SCTP "
        f"{calls.loc[('sctp', 0.05), 'mean']:.1f} (seed {seed[('UDP', 'packet loss 5%')]} and "
        f"{seed[('SCTP', 'packet loss 5%')]}); at 30 %: UDP {calls.loc[('udp', 0.3), 'mean']:.1f}, "
        f"SCTP {calls.loc[('sctp', 0.3), 'mean']:.1f} (seed {seed[('UDP', 'packet loss 30%')]} "
        f"and {seed[('SCTP', 'packet loss 30%')]})"
    )


def _sip_trace(folder: Path) -> str:
    trace = _read(folder, _SIP, "sctp_loss_trace").set_index("loss_rate")
    cycle = _read(folder, _SIP, "call_cycle").set_index(["protocol", "loss_rate"])
    worst = trace.index.max()
    lines = [
        f"{trace['n_runs'].sum():.0f} traced runs ({_span(trace['n_runs'], '.0f')} per loss "
        f"rate): {trace['aborts'].sum():.0f} ABORTs, {trace['new_associations'].sum():.0f} new "
        f"associations"
    ]
    for column, what in (
        ("longest_wait_s", "longest wait between two sends of a chunk"),
        ("longest_silence_s", "longest stretch without new data"),
    ):
        shown = ", ".join(f"{v:.1f} s at {rate:.0%}" for rate, v in trace[column].items())
        lines.append(f"{what} (mean over the runs): {shown}")
    lines.append(
        f"at {worst:.0%}: {trace.loc[worst, 'chunks_over_timer_b']:.1f} chunks per run wait "
        f"longer than 32 s; {trace.loc[worst, 'transaction_timeouts']:.1f} caller transactions "
        f"per traced run time out ({cycle.loc[('sctp', worst), 'transaction_timeouts']:.1f} per "
        f"run over the {cycle.loc[('sctp', worst), 'n_runs']:.0f} runs of the call cycle); "
        f"{trace.loc[worst, 'completed_calls']:.1f} calls per traced run, "
        f"{cycle.loc[('sctp', worst), 'completed_calls']:.1f} over the call cycle's runs"
    )
    return "\n".join(lines)


def _sip_call_cycle(folder: Path) -> str:
    cycle = _read(folder, _SIP, "call_cycle").set_index(["protocol", "loss_rate"])
    lines = []
    for protocol in ("udp", "sctp", "tcp"):
        rows = cycle.loc[protocol]
        shown = ", ".join(
            f"{r.completed_per_predicted:.2f} at {rate:.0%}" for rate, r in rows.iterrows()
        )
        lines.append(
            f"{protocol.upper()} completed / predicted: {shown}; timed-out caller transactions "
            f"per run at {rows.index.max():.0%}: {rows['transaction_timeouts'].iloc[-1]:.1f} "
            f"({rows['completed_calls'].iloc[-1]:.1f} calls)"
        )
    return "\n".join(lines)


def _sip_head_of_line(folder: Path) -> str:
    hol = _read(folder, _SIP, "head_of_line").set_index(["hol_config", "loss_rate"])
    lines = ["mean completion (s) per loss rate:"]
    for config in ("sctp-streams", "sctp-one-stream", "tcp-one", "tcp-per-object"):
        rows = hol.loc[config]["mean_completion_s"]
        lines.append(f"  {config}: " + ", ".join(f"{v:.2f}" for v in rows))
    lines.append("loss rates: " + ", ".join(f"{r:.0%}" for r in rows.index))
    return "\n".join(lines)


def _sip_verdicts(folder: Path) -> str:
    c = _read(folder, _SIP, "comparison")
    single = c[c["metric"] == "transaction_response_time"]
    factor = 1 / single["ratio"]
    relative = c[c["metric"] == "completed transactions relative to 5 % loss"]
    crossover = _pick(c, metric="crossover_loss_rate")
    lines = [
        f"single-session rows: published / ours {_span(factor, '.0f')}; verdicts "
        f"{_verdicts(single)}"
    ]
    for r in single.itertuples():
        ours_ms = r.reproduced * (1e3 if r.unit == "s" else 1.0)
        lines.append(
            f"  {r.protocol} {r.row}: published {float(r.published):g} {r.unit}, ours "
            f"{ours_ms:.2f} ms"
        )
    for r in relative.itertuples():
        lines.append(
            f"relative to 5 %, {r.protocol} {r.row}: ours {r.reproduced:.2f}, seed "
            f"{float(r.published):.2f} ({r.verdict})"
        )
    sctp30 = _pick(c, metric="sip_call_transactions", protocol="SCTP", row="packet loss 30%")
    lines.append(f"SCTP at 30 %: {sctp30['verdict']} ({sctp30['flags']}): {sctp30['note']}")
    lines.append(f"crossover: {crossover['verdict']}: {crossover['note']}")
    return "\n".join(lines)


def _voip_ns2_readings(folder: Path) -> str:
    """Notebook 02 section 7: the trunk reading beside the homogeneous one, per simulator
    and configuration (``ns2_network.csv``) and the judgements per reading
    (``ns2_baseline.csv``)."""
    network = _read(folder, _VOIP, "ns2_network")
    table = _read(folder, _VOIP, "ns2_baseline")
    lines = ["network side, trunk reading (homogeneous reading in brackets):"]
    columns = (("delay_mean_ms", "mean delay", ".1f"), ("delay_max_ms", "max", ".0f"),
               ("steady_delay_max_ms", "max after the start-up", ".1f"),
               ("before_jitter_ms", "jitter", ".3g"))  # fmt: skip
    for (simulator, configuration), rows in network.groupby(
        ["simulator", "configuration"], sort=False
    ):
        by_reading = rows.set_index("topology")
        if "trunk" not in by_reading.index:
            continue
        trunk = by_reading.loc["trunk"]
        home = by_reading.loc["homogeneous"] if "homogeneous" in by_reading.index else None
        shown = []
        for column, name, fmt in columns:
            text = f"{name} {format(trunk[column], fmt)}"
            if home is not None and pd.notna(home[column]):
                text += f" ({format(home[column], fmt)})"
            shown.append(text)
        runs = f"{trunk['n_runs']:.0f}" + ("" if home is None else f" ({home['n_runs']:.0f})")
        lines.append(f"  {simulator}, {configuration}: {', '.join(shown)} ms; {runs} runs")
    for topology, rows in table.groupby("topology", sort=False):
        counted = baseline_counts(rows, by=["protocol"]).set_index("protocol").loc["all"]
        lines.append(
            f"{topology}: {counted['rows']} published rows; the paper agrees with NS-2 on "
            f"{counted['paper_matches_ns2']}, with ns-3 on {counted['paper_matches_ns3']}; "
            f"ns-3 within the tolerance of NS-2 on {counted['ns3_within_tolerance_of_ns2']}"
        )
    return "\n".join(lines)


_VALIDATION = "sctp_validation"


def _validation_interleaving(folder: Path) -> str:
    """Notebook 06, interleaving: the verdicts of the 20 cases, and per named cause the
    cases it explains with the numbers the prose reads (``interleaving.csv``)."""
    table = _read(folder, _VALIDATION, "interleaving")
    table["explained_by"] = table["explained_by"].fillna("")
    lines = [f"interleaving cases: {_verdicts(table)}"]
    causes: dict[str, list[str]] = {}
    for row in table.itertuples():
        for key in filter(None, row.explained_by.split(",")):
            causes.setdefault(key, []).append(row.scenario)
    for key, names in causes.items():
        lines.append(f"{key}: {len(names)} cases ({', '.join(names)})")
    for row in table[table["verdict"] != "agrees"].itertuples():
        lines.append(
            f"  {row.scenario}: small before the last bulk {row.usrsctp_small_before_last_bulk}"
            f" / {row.ns3_small_before_last_bulk}, median latency "
            f"{row.usrsctp_latency_median_s:.3f} / {row.ns3_latency_median_s:.3f} s, "
            f"complete {row.usrsctp_complete} / {row.ns3_complete}"
        )
    return "\n".join(lines)


def _validation_first_sack(folder: Path) -> str:
    """Notebook 06, the NS-2.35 comparison with ``ImmediateFirstSack`` on: per metric the
    ``first_data_sack`` scenarios that agree with it off and on, each scenario's T3 gap and
    first-SACK wait, and the README's sentence (``ns2_baseline.csv``, ``ns2_first_sack.csv``)."""
    f = _read(folder, _VALIDATION, "ns2_first_sack")
    base = _read(folder, _VALIDATION, "ns2_baseline").set_index("scenario").loc[f["scenario"]]
    n = len(f)
    lines = [f"first_data_sack scenarios: {n} ({', '.join(f['scenario'])})",
             "agreeing with NS-2.35 (ImmediateFirstSack false -> true):"]  # fmt: skip
    for metric in ("completion_s", "fast", "t3", "timeouts", "queue_drops", "cwnd"):
        off = int(base[f"{metric}_agrees"].astype(bool).sum())
        on = int(f[f"{metric}_agrees"].astype(bool).sum())
        lines.append(f"  {metric}: {off} -> {on} of {n}")
    lines.append(f"  every metric (after the HEARTBEAT shift): {int(f['agrees'].sum())} of {n}")
    for row in f.itertuples():
        gap = ""
        if not pd.isna(row.t3_gap_s):
            gap = f", T3 gap {1e3 * row.t3_gap_default_s:.1f} -> {1e3 * row.t3_gap_s:.1f} ms"
        lines.append(
            f"  {row.scenario}: completion {100 * row.completion_diff_default:+.1f} -> "
            f"{100 * row.completion_diff:+.1f} % ({100 * row.completion_diff_shifted:+.1f} % "
            f"shifted){gap}, first SACK after {1e3 * row.ns2_first_sack_s:.1f} ms (NS-2) / "
            f"{1e3 * row.ns3_first_sack_s:.1f} ms (model), still differing: "
            f"{row.still_differing if isinstance(row.still_differing, str) else 'none'}"
        )
    lines.append(_ns2_first_sack(folder))
    return "\n".join(lines)


def _voip_playout(folder: Path) -> str:
    """Notebook 02 section 3: the seed's configuration (``summary.csv``)."""
    s = _read(folder, _VOIP, "summary").set_index(["configuration", "policy"])
    arrival = s.xs("arrival", level="policy")
    adaptive = s.xs("adaptive", level="policy")
    cjm = s.xs("cjm", level="policy")
    fixed = s.xs("fixed", level="policy")
    lines = [
        f"frames/s delivered: {_span(arrival['frames_per_s'], '.0f')}; one-way delay "
        f"{_span(arrival['delay_mean_ms'], '.1f')} ms mean, {_span(arrival['delay_max_ms'], '.1f')}"
        f" ms max; jitter before playout {_span(arrival['before_jitter_ms'] * 1e6, '.0f')} ns "
        f"({_runs(s)} runs of 15 min)",
        f"fixed 130-ms point: late loss {_span(fixed['late_loss_rate'] * 100, '.1f')} %, R "
        f"{_span(fixed['R'], '.1f')}",
        f"CJM: playout delay {_span(cjm['playout_delay_mean_ms'] / 1e3, '.2f')} s, R "
        f"{_span(cjm['R'], '.1f')}",
        f"adaptive (no floor): late loss {_span(adaptive['late_loss_rate'] * 100, '.2f')} %, R "
        f"{_span(adaptive['R'], '.1f')}",
    ]
    return "\n".join(lines)


def _voip_verdicts(folder: Path) -> str:
    """Notebook 02 section 4: why each committed row matches or differs."""
    c = _read(folder, _VOIP, "comparison")
    summary = _read(folder, _VOIP, "summary")
    arrival = summary[summary["policy"] == "arrival"].set_index("configuration")
    lines = [
        f"{r.protocol} {r.metric}: published {r.published}, ours {r.reproduced:.4g} "
        f"({r.verdict}: {r.note})"
        for r in c.itertuples()
    ]
    packed = arrival["ip_packets_per_s"] - arrival["frames_per_s"]
    lines.append(
        "IP packets minus frames per second: "
        + ", ".join(f"{k} {v:.2f}" for k, v in packed.items())
        + f" ({_runs(arrival)} runs)"
    )
    return "\n".join(lines)


def _voip_loss(folder: Path) -> str:
    """Notebook 02 section 5.1: random loss (``loss.csv``)."""
    loss = _read(folder, _VOIP, "loss")
    lines = []
    for rate, rows in loss.groupby("loss_rate"):
        arrival = rows[rows["policy"] == "arrival"].set_index("configuration")
        fixed = rows[rows["policy"] == "fixed"].set_index("configuration")
        worst = ", ".join(f"{k} {v / 1e3:.2f} s" for k, v in arrival["delay_max_ms"].items())
        late = ", ".join(f"{k} {v:.1%}" for k, v in fixed["late_loss_rate"].items())
        lines.append(f"{rate:.0%} loss ({_runs(rows)} runs): worst delay {worst}")
        lines.append(f"  late loss at the fixed 130-ms point: {late}")
    return "\n".join(lines)


def _voip_cross_traffic(folder: Path) -> str:
    """Notebook 02 section 5.2: bursty cross traffic (``cross_traffic.csv``)."""
    x = _read(folder, _VOIP, "cross_traffic")
    arrival = x[x["policy"] == "arrival"].set_index("configuration")
    reliable = arrival.drop(index="UDP")
    by_policy = x[x["configuration"] != "UDP"].set_index(["policy", "configuration"])["R"]
    lines = [
        f"UDP frames lost in the network: {arrival.loc['UDP', 'network_loss_rate']:.1%}",
        "delivered of the offered 2400 frames/s: "
        + ", ".join(f"{k} {v / 2400:.1%}" for k, v in reliable["frames_per_s"].items()),
        f"TCP/SCTP jitter before playout {_span(reliable['before_jitter_ms'], '.0f')} ms, max "
        f"delay {_span(reliable['delay_max_ms'] / 1e3, '.0f')} s ({_runs(x)} runs)",
        "R, TCP and SCTP: fixed "
        + ", ".join(f"{k} {v:.2f}" for k, v in by_policy["fixed"].items())
        + "; adaptive "
        + ", ".join(f"{k} {v:.2f}" for k, v in by_policy["adaptive"].items())
        + "; CJM "
        + ", ".join(f"{k} {v:.1f}" for k, v in by_policy["cjm"].items()),
    ]
    return "\n".join(lines)


def _voip_load(folder: Path) -> str:
    """Notebook 02 section 5.3c and the summary: the load sweep (``load.csv``)."""
    load = _read(folder, _VOIP, "load")
    udp = load[load["configuration"] == "UDP"]
    reliable = load[load["configuration"] != "UDP"]
    seed_calls = reliable[reliable["n_calls"] == 48]

    def at(cross: float, calls: int = 48) -> pd.DataFrame:
        return reliable[(reliable["n_calls"] == calls) & (reliable["cross_mbps"] == cross)]

    one, one_half, sixty_four = at(1.0), at(1.5), at(0.0, 64)
    quiet, half = at(0.0), at(0.5)
    lines = [
        f"UDP, every point ({_runs(load)} runs each): max delay at most "
        f"{udp['delay_max_ms'].max():.0f} ms, jitter at most {udp['before_jitter_ms'].max():.1f} "
        f"ms, network loss up to {udp['network_loss_rate'].max():.0%}",
        f"TCP/SCTP jitter before playout: 1 Mb/s of cross traffic "
        f"({_span(one['offered_mbps'], '.1f')} Mb/s offered) "
        f"{_span(one['before_jitter_ms'], '.0f')} ms; 1.5 Mb/s "
        f"{_span(one_half['before_jitter_ms'], '.0f')} ms; 64 calls, no cross traffic "
        f"{_span(sixty_four['before_jitter_ms'], '.0f')} ms",
        "frames/s at 1.5 Mb/s of cross traffic: "
        + ", ".join(f"{r.configuration} {r.frames_per_s:.0f}" for r in one_half.itertuples()),
        f"TCP/SCTP max delay: {_span(quiet['delay_max_ms'], '.0f')} ms without cross traffic, "
        f"{_span(half['delay_max_ms'] / 1e3, '.0f')} s at 0.5 Mb/s, "
        f"{_span(seed_calls[seed_calls['cross_mbps'] > 0]['delay_max_ms'] / 1e3, '.0f')} s with "
        f"any cross traffic",
    ]
    return "\n".join(lines)


_WSN = "wsn_reporting_interval"


def _by_interval(rows: pd.DataFrame, column: str, fmt: str, scale: float = 1.0) -> str:
    """``v1 / v2 / ... at 1/5/20 s`` of ``column`` over the rows' reporting intervals."""
    rows = rows.sort_values("reporting_interval")
    values = " / ".join(format(v * scale, fmt) for v in rows[column])
    intervals = "/".join(f"{i:g}" for i in rows["reporting_interval"])
    return f"{values} at {intervals} s"


def _wsn_series(table: pd.DataFrame, by: list[str], columns, runs: bool = True) -> list[str]:
    """One line per group of ``by``: each (column, label, fmt[, scale]) over the intervals."""
    lines = []
    for key, rows in table.groupby(by, sort=True):
        key = key if isinstance(key, tuple) else (key,)
        shown = "; ".join(
            f"{label} {_by_interval(rows, column, fmt, *scale)}"
            for column, label, fmt, *scale in columns
        )
        count = f" ({_runs(rows)} runs)" if runs else ""
        lines.append(f"  {', '.join(str(k) for k in key)}{count}: {shown}")
    return lines


def _seed_throughput(folder: Path) -> pd.DataFrame:
    """The seed's throughput claims (Tables 2-4) of the sensor study's committed comparison,
    with ``protocol`` in lower case, ``reporting_interval`` from the row and
    ``published_kbps`` as a number (``published`` as the comparison writes it)."""
    c = _read(folder, _WSN, "comparison")
    seed = c[(c["metric"] == "throughput") & (c["role"] == "claim")]
    return seed.assign(
        protocol=seed["protocol"].str.lower(),
        reporting_interval=seed["row"].str.extract(r"(\d+)$")[0].astype(float),
        published_kbps=seed["published"].astype(float),
    )


def _wsn_placements(folder: Path) -> str:
    """Notebook 04 section 7.1 (``placements.csv``)."""
    p = _read(folder, _WSN, "placements")
    # the random placements as one kind; the declared field, clusters and columns apart
    kind = p["placement_label"].mask(p["placement_label"].str.startswith("random"), "random 1-5")
    p = p[p["placement_label"] != "random (all)"].assign(kind=kind)
    lines = [
        "delivery ratio, throughput (kb/s) and routing load per placement kind (span over "
        f"its placements, {_runs(p)} runs per point):"
    ]
    for (protocol, interval), rows in p.groupby(["protocol", "reporting_interval"]):
        shown = "; ".join(
            f"{k} {_span(g['delivery_ratio'], '.2f')}, {_span(g['throughput_kbps'], '.1f')}, "
            f"{_span(g['routing_load'], '.1f')}"
            for k, g in rows.groupby("kind")
        )
        lines.append(f"  {protocol} at {interval:g} s: {shown}")
    seed = _seed_throughput(folder)
    seed = seed[seed["reporting_interval"].isin(p["reporting_interval"].unique())]
    lines.append(
        "seed's throughput (kb/s): "
        + "; ".join(
            f"{r.protocol} at {r.reporting_interval:g} s {r.published_kbps:.1f}"
            for r in seed.sort_values(["protocol", "reporting_interval"]).itertuples()
        )
    )
    return "\n".join(lines)


def _wsn_transport_models(folder: Path) -> str:
    """Notebook 04 section 7.2 (``transport_models.csv`` against Tables 2 and 4)."""
    t = _read(folder, _WSN, "transport_models")
    published = _seed_throughput(folder)[["protocol", "reporting_interval", "published_kbps"]]
    published = published.rename(columns={"published_kbps": "published"})
    t = t.merge(published, on=["protocol", "reporting_interval"], how="left")
    t["agent_per_app"] = t["throughput_kbps"] / t["app_throughput_kbps"]
    t["per_published"] = t["throughput_kbps"] / t["published"]
    lines = _wsn_series(t, ["protocol", "stack_preset"], (
        ("throughput_kbps", "agent kb/s", ".1f"), ("agent_per_app", "agent / application", ".2f"),
        ("per_published", "agent / published", ".2f"), ("delivery_ratio", "delivery", ".2f"),
        ("mean_delay_ms", "agent delay ms", ".0f"), ("app_delay_ms", "application delay ms", ".0f"),
    ))  # fmt: skip
    seed_tcp = published[published["protocol"] == "tcp"].set_index("reporting_interval")
    seed_tcp = seed_tcp["published"]
    lines.append(
        "seed's TCP throughput falls by "
        + ", ".join(
            f"{seed_tcp[a] / seed_tcp[b]:.2f}x from {a:g} to {b:g} s"
            for a, b in zip(seed_tcp.index[:-1], seed_tcp.index[1:], strict=True)
        )  # fmt: skip
    )
    return "\n".join(lines)


def _wsn_interval_scale(folder: Path) -> str:
    """Notebook 04 section 7.5 (``interval_scale.csv``, UDP throughput)."""
    t = _read(folder, _WSN, "interval_scale")
    udp = t[t["protocol"] == "udp"]
    seed = _seed_throughput(folder)
    seed = seed[seed["protocol"] == "udp"]
    lines = [
        f"UDP throughput (kb/s), interval scale {scale:g} ({_runs(rows)} runs): "
        f"{_by_interval(rows, 'throughput_kbps', '.2f')}"
        for scale, rows in udp.groupby("interval_scale")
    ]
    lines.append("seed's UDP throughput (kb/s): " + " / ".join(seed["published"].astype(str)))
    # ours over the seed's, interval by interval (matched on the interval, not on row order)
    printed = udp[udp["interval_scale"] == 1.0].merge(
        seed[["reporting_interval", "published_kbps"]], on="reporting_interval"
    )
    ratio = printed.sort_values("reporting_interval").eval("throughput_kbps / published_kbps")
    lines.append("as printed / seed's: " + " / ".join(f"{r:.2f}" for r in ratio))
    return "\n".join(lines)


def _wsn_carrier_sense(folder: Path) -> str:
    """Notebook 04 section 7.6 (``carrier_sense.csv``)."""
    t = _read(folder, _WSN, "carrier_sense")
    t["seed_per_ours"] = t["published_routing_load"] / t["routing_load"]
    lines = _wsn_series(t, ["protocol", "carrier_sense"], (
        ("mac_drops", "MAC retry drops", ".1f"), ("routing_packets", "AODV packets", ".0f"),
        ("routing_load", "routing load", ".2f"), ("seed_per_ours", "seed / ours", ".1f"),
        ("delivery_ratio", "delivery", ".2f"), ("throughput_kbps", "kb/s", ".0f"),
        ("energy_per_node_j", "J per node", ".2f"),
    ))  # fmt: skip
    wide = t.pivot_table(
        index=["protocol", "reporting_interval"],
        columns="carrier_sense",
        values=["routing_packets", "energy_per_node_j"],
    )
    at1 = wide.xs(1.0, level="reporting_interval")
    packets = at1["routing_packets"]["= RXThresh"] / at1["routing_packets"]["NS-2 default"]
    energy = wide["energy_per_node_j"]["NS-2 default"] / wide["energy_per_node_j"]["= RXThresh"]
    lines.append(
        "AODV packets at 1 s, CSThresh = RXThresh / NS-2's: "
        + ", ".join(f"{k} {v:.1f}x" for k, v in packets.items())
    )
    lines.append(f"energy falls {_span(energy, '.1f')}x with CSThresh = RXThresh")
    return "\n".join(lines)


def _wsn_idle_power(folder: Path) -> str:
    """Notebook 04 section 7.7 (``implied_idle_power.csv``) against the MICA2 model's
    powers (``parameters.MICA2``, 3 V x the datasheet currents)."""
    volts = MICA2["voltage_v"]
    t = _read(folder, _WSN, "implied_idle_power")
    t["mw"] = t["implied_idle_power_w"] * 1e3
    model_idle_mw = volts * MICA2["idle_current_a"] * 1e3
    lines = [
        f"MICA2 model (parameters.MICA2, {volts:g} V): tx {volts * MICA2['tx_current_a'] * 1e3:.0f}"
        f" mW, rx {volts * MICA2['rx_current_a'] * 1e3:.0f} mW, idle {model_idle_mw:.0f} mW, "
        f"sleep {volts * MICA2['sleep_current_a'] * 1e6:.0f} uW; NS-2.35 default: tx "
        f"{NS2_ENERGY['tx_power_w'] * 1e3:.0f} mW, rx {NS2_ENERGY['rx_power_w'] * 1e3:.0f} mW, "
        f"idle 0"
    ]
    for (radio, sense), rows in t.groupby(["radio", "carrier_sense"]):
        positive = rows[rows["mw"] > 0]
        below = rows[(rows["mw"] > 0) & (rows["mw"] < model_idle_mw)]
        lines.append(
            f"  {radio}, CSThresh {sense}: implied idle power {rows['mw'].min():.1f} to "
            f"{rows['mw'].max():.1f} mW; "
            f"positive at {len(positive)} of {len(rows)} points"
            + (f" ({_span(positive['mw'], '.1f')} mW)" if len(positive) else "")
            + (f"; below the MICA2 model's idle at {len(below)}" if radio == "mica2" else "")
        )
        negative = rows[rows["mw"] <= 0]
        lines.extend(
            f"    not positive: {r.protocol} at {r.reporting_interval:g} s ({r.mw:.1f} mW)"
            for r in negative.itertuples()
            if radio == "mica2"
        )
    mica = t[(t["radio"] == "mica2") & (t["mw"] > 0)]
    lines.append(
        f"implied idle power / the MICA2 model's idle ({model_idle_mw:.0f} mW), where positive: "
        f"{_span(mica['mw'] / model_idle_mw, '.2f')}"
    )
    return "\n".join(lines)


def _wsn_reception_model(folder: Path) -> str:
    """Notebook 04 section 7.8 (``reception_model.csv``)."""
    t = _read(folder, _WSN, "reception_model")
    lines = []
    # NS-2's rule: `ns2_lock` (declared since issue 25, with the receiver lock) or `ns2`
    for sense, rows in t[t["reception_model"] != "ns3"].groupby("carrier_sense"):
        lines.append(
            f"NS-2's rule, CSThresh {sense}: receptions lost to collisions per run "
            f"{_span(rows['ns2_collisions'], '.0f')}"
        )
    at1 = t[t["reporting_interval"] == 1.0]
    lines += ["at 1 s:"] + _wsn_series(at1, ["protocol", "carrier_sense", "reception_model"], (
        ("mac_drops", "MAC retry drops", ".1f"), ("routing_load", "routing load", ".2f"),
        ("delivery_ratio", "delivery", ".2f"),
    ))  # fmt: skip
    later = t[t["reporting_interval"] > 1.0]
    lines += ["at 5 and 20 s:"] + _wsn_series(
        later, ["protocol", "carrier_sense", "reception_model"],
        (("routing_load", "routing load", ".2f"), ("mac_load", "MAC load", ".1f")),
    )  # fmt: skip
    return "\n".join(lines)


def _wsn_combined(folder: Path) -> str:
    """Notebook 04 section 7.9 (``combined.csv``)."""
    t = _read(folder, _WSN, "combined")
    t["seed_per_ours"] = t["published_routing_load"] / t["routing_load"]
    lines = _wsn_series(t, ["protocol", "links", "carrier_sense"], (
        ("routing_load", "routing load", ".2f"), ("seed_per_ours", "seed / ours", ".2f"),
        ("mac_load", "MAC load", ".0f"), ("mac_drops", "retry drops", ".1f"),
        ("delivery_ratio", "delivery", ".2f"), ("throughput_kbps", "kb/s", ".1f"),
        ("dropped_packets", "dropped", ".0f"), ("energy_per_node_j", "J per node", ".2f"),
        ("mean_delay_ms", "delay ms", ".0f"),
    ))  # fmt: skip
    seed = t.drop_duplicates(["protocol", "reporting_interval"])
    lines += ["seed:"] + _wsn_series(seed, ["protocol"], (
        ("published_routing_load", "routing load", ".1f"),
        ("published_mac_load", "MAC load", ".0f"),
        ("published_throughput_kbps", "kb/s", ".1f"),
        ("published_dropped_packets", "dropped", ".0f"),
        ("published_energy_j", "J per node", ".2f"),
        ("published_delay_ms", "delay ms", ".0f"),
    ), runs=False)  # fmt: skip
    return "\n".join(lines)


def _wsn_receiver_lock(folder: Path) -> str:
    """Notebook 04 section 7.10 (``receiver_lock.csv``)."""
    t = _read(folder, _WSN, "receiver_lock")
    lock = t[t["reception_model"] == "ns2_lock"]
    lines = [
        f"undecodable frames the PHYs lock on per run (all nodes): "
        f"{_span(lock['ns2_undecodable'] / 1e6, '.2f')} million"
    ]
    lines += _wsn_series(t, ["protocol", "reception_model"], (
        ("ns2_collisions", "collisions", ".0f"), ("mac_drops", "retry drops", ".1f"),
        ("routing_load", "routing load", ".2f"), ("mean_delay_ms", "delay ms", ".0f"),
    ))  # fmt: skip
    wide = t.pivot_table(
        index=["protocol", "reporting_interval"], columns="reception_model", values="routing_load"
    )
    later = wide[wide.index.get_level_values("reporting_interval") > 1.0]
    change = (later["ns2_lock"] / later["ns2"] - 1).abs()
    lines.append(
        f"routing load at 5 and 20 s, with the lock against without: within {change.max():.0%}"
    )
    return "\n".join(lines)


def _wsn_start_mode(folder: Path) -> str:
    """Notebook 04 section 7.11 (``start_mode.csv``)."""
    t = _read(folder, _WSN, "start_mode")
    t["ours_per_seed"] = t["mean_delay_ms"] / t["published_delay_ms"]
    t["within_2x"] = (t["ours_per_seed"] >= 0.5) & (t["ours_per_seed"] <= 2.0)
    lines = _wsn_series(t, ["protocol", "start_mode"], (
        ("mean_delay_ms", "mean delay ms", ".0f"), ("median_delay_ms", "median", ".0f"),
        ("p90_delay_ms", "90th percentile", ".0f"), ("ours_per_seed", "ours / seed", ".1f"),
        ("routing_load", "routing load", ".1f"), ("delivery_ratio", "delivery", ".2f"),
    ))  # fmt: skip
    for (mode, reliable), rows in t.groupby(["start_mode", t["protocol"] != "udp"]):
        who = "TCP and SCTP" if reliable else "UDP"
        lines.append(
            f"{who}, {mode}: within 2x of the seed's delay at "
            f"{int(rows['within_2x'].sum())} of {len(rows)} points"
        )
    seed = t.drop_duplicates(["protocol", "reporting_interval"])
    lines.append(
        "seed's delays (ms): "
        + "; ".join(
            f"{p} {_span(g['published_delay_ms'], '.0f')}" for p, g in seed.groupby("protocol")
        )
    )
    return "\n".join(lines)


NOTEBOOK_NUMBERS = {
    (_VALIDATION, "interleaving"): _validation_interleaving,
    (_VALIDATION, "first_sack"): _validation_first_sack,
    (_WIRED, "delay_readings"): _wired_delay_readings,
    (_WIRED, "summary"): _wired_summary,
    (_SIP, "message_flow"): _sip_message_flow,
    (_SIP, "throughput"): _sip_throughput,
    (_SIP, "single_session"): _sip_single_session,
    (_SIP, "registration_processing"): _sip_registration_processing,
    (_SIP, "calls"): _sip_calls,
    (_SIP, "trace"): _sip_trace,
    (_SIP, "call_cycle"): _sip_call_cycle,
    (_SIP, "head_of_line"): _sip_head_of_line,
    (_SIP, "verdicts"): _sip_verdicts,
    (_VOIP, "playout"): _voip_playout,
    (_VOIP, "verdicts"): _voip_verdicts,
    (_VOIP, "loss"): _voip_loss,
    (_VOIP, "cross_traffic"): _voip_cross_traffic,
    (_VOIP, "load"): _voip_load,
    (_VOIP, "ns2_readings"): _voip_ns2_readings,
    (_WSN, "ns2_gap"): _wsn_ns2_gap,
    (_WSN, "ns2_gap_broadcasts"): _wsn_ns2_gap_broadcasts,
    (_WSN, "ns2_gap_routes"): _wsn_ns2_gap_routes,
    (_WSN, "placements"): _wsn_placements,
    (_WSN, "transport_models"): _wsn_transport_models,
    (_WSN, "interval_scale"): _wsn_interval_scale,
    (_WSN, "carrier_sense"): _wsn_carrier_sense,
    (_WSN, "idle_power"): _wsn_idle_power,
    (_WSN, "reception_model"): _wsn_reception_model,
    (_WSN, "combined"): _wsn_combined,
    (_WSN, "receiver_lock"): _wsn_receiver_lock,
    (_WSN, "start_mode"): _wsn_start_mode,
}


def notebook_numbers(study: str, section: str, folder: Path | None = None) -> str:
    """The lines a notebook prints after a paragraph that states results in words: the
    numbers of ``study``'s committed full-mode tables in ``folder`` (default
    ``data/results``) the paragraph ``section`` relies on."""
    if (study, section) not in NOTEBOOK_NUMBERS:
        known = ", ".join(f"{s}/{n}" for s, n in NOTEBOOK_NUMBERS)
        raise KeyError(f"no notebook numbers {study}/{section}; known: {known}")
    if folder is None:
        folder = paths.results_dir(quick=False)
    return NOTEBOOK_NUMBERS[(study, section)](Path(folder))
