"""multihoming_failover's ``lossy_many`` in ns-3 with the model attributes for NS-2.35's
rules (``rules_scenario``, ``ns2_baseline.goodput_rules``): the run step, the points, the
table and the committed ``ns2_goodput_rules.csv``."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from transportlab.engine import paths
from transportlab.engine.fingerprint import module_closure
from transportlab.studies import multihoming_failover as mh
from transportlab.studies.multihoming_failover import ns2_baseline, rules_scenario
from transportlab.studies.sctp_validation.ns2_baseline import NS2_RULES


def lossy(**overrides):
    return rules_scenario.PARAMETERS.validate(
        dict({"scenario": "lossy", "homing": "single", "duration": 8.0}, **overrides)
    )


def test_rule_sets_are_sctp_validations_attributes():
    assert rules_scenario.RULE_SETS["all"] == NS2_RULES
    assert rules_scenario.RULE_SETS["none"] == {}
    singles = [v for k, v in rules_scenario.RULE_SETS.items() if k not in ("all", "none")]
    assert all(len(s) == 1 for s in singles) and len(singles) == len(NS2_RULES)


def test_run_step_leaves_the_study_and_baseline_out_of_its_fingerprint():
    closure = set(module_closure(["transportlab.studies.multihoming_failover.rules_scenario"]))
    assert "transportlab.studies.multihoming_failover.scenario" in closure
    assert "transportlab.studies.multihoming_failover.ns2_baseline" not in closure


def test_points_run_every_rule_set_for_both_configurations():
    study = ns2_baseline.rules_study(("none", "all"), runs=3)
    (experiment,) = study.reproduction.experiments
    points = experiment.points(study.parameters.defaults())
    assert [(p["ns2_rules"], p["homing"]) for p in points] == [
        ("none", "single"), ("none", "multi"), ("all", "single"), ("all", "multi"),
    ]  # fmt: skip
    assert experiment.runs == 3
    with pytest.raises(ValueError):
        rules_scenario.run(lossy(scenario="failover"), 1, 1)


def test_none_is_the_studys_run_and_the_rules_change_it():
    values = lossy()
    assert values["ns2_rules"] == "none"
    plain = mh.STUDY.run(values, 1, 2)
    none = rules_scenario.run(values, 1, 2)
    for name, table in plain.items():
        pd.testing.assert_frame_equal(none[name], table)
    ruled = rules_scenario.run(lossy(ns2_rules="all"), 1, 2)
    assert not ruled["chunks"].equals(plain["chunks"])


def test_rules_table_pairs_each_rule_set_with_ns2():
    rng = np.random.default_rng(1)

    def summary(goodput, **extra):
        n = 20
        return pd.DataFrame({
            "homing": ["single"] * n + ["multi"] * n, "pf_max_retrans": 65535,
            "path_max_retrans": 5, "first_loss_s": 1.0, "first_loss_stall_s": 0.1,
            "max_stall_s": rng.uniform(1, 2, 2 * n),
            "goodput_mbps": goodput + rng.uniform(0, 0.01, 2 * n), **extra,
        })  # fmt: skip

    ns3 = pd.concat([summary(0.2, ns2_rules="none"), summary(0.5, ns2_rules="all")])
    table = ns2_baseline.rules_table(summary(0.2), ns3)
    assert len(table) == 2 * 2 * len(ns2_baseline.RULES_METRICS)
    assert (table["n_runs"] == 20).all() and (table["ns2_runs"] == 20).all()
    goodput = table[table["metric"] == "goodput_mbps"].set_index(["ns2_rules", "config"])
    assert goodput.loc[("all", "single-homed"), "p_same"] < 1e-6
    assert goodput.loc[("none", "single-homed"), "p_same"] > 1e-3
    assert goodput.loc[("all", "multi-homed"), "ns3_mean"] > 0.5


def test_committed_table_none_reproduces_the_distribution():
    folder = paths.results_dir("multihoming_failover")
    rules = pd.read_csv(folder / f"{ns2_baseline.GOODPUT_RULES}.csv")
    assert list(dict.fromkeys(rules["ns2_rules"])) == list(ns2_baseline.RULE_SETS)
    assert (rules["n_runs"] == ns2_baseline.MANY_RUNS).all()
    assert (rules["ns2_runs"] == ns2_baseline.MANY_RUNS).all()
    distribution = pd.read_csv(folder / "ns2_lossy_distribution.csv")
    ns3 = distribution[distribution["simulator"] == "ns-3"].set_index(["config", "metric"])
    none = rules[rules["ns2_rules"] == "none"].set_index(["config", "metric"])
    for key, row in none.iterrows():
        assert row["ns3_mean"] == pytest.approx(ns3.loc[key, "mean"])
        assert row["p_same"] == pytest.approx(ns3.loc[key, "p_same"])
