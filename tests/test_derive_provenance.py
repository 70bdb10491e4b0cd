"""scripts/derive_provenance.py: which module writes a study's own files, what wrote each."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def derive():
    spec = importlib.util.spec_from_file_location(
        "derive_provenance", ROOT / "scripts" / "derive_provenance.py"
    )
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_own_writer_is_the_module_of_the_stem_or_of_its_beginning(derive):
    command = "python -m transportlab.studies.wsn_reporting_interval.ns2_baseline"
    assert derive.own_writer("wsn_reporting_interval", "ns2_baseline") == command
    assert derive.own_writer("wsn_reporting_interval", "ns2_baseline_trace") == command
    # named by OUTPUTS, not by the longest module name it begins with (ns2_gap)
    discoveries = "python -m transportlab.studies.wsn_reporting_interval.ns2_gap_discoveries"
    assert derive.own_writer("wsn_reporting_interval", "ns2_gap_first_copy_runs") == discoveries
    # a module without a main writes nothing itself; an unknown stem has no writer
    assert derive.own_writer("wsn_reporting_interval", "ns2_scenario_tables") is None
    assert derive.own_writer("wsn_reporting_interval", "placements") is None


def test_written_by_options(derive):
    assert derive.parse_written_by(["a,b=old code", "c=x=y"]) == {
        "a": "old code", "b": "old code", "c": "x=y"
    }  # fmt: skip
    with pytest.raises(SystemExit, match="STEM"):
        derive.parse_written_by(["no text"])
