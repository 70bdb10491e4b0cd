"""Loading only the ns-3 modules the studies use (``TRANSPORTLAB_NS3_MODULES=studies``).

The local Dask cluster's simulation workers load ns-3 so (less memory, faster import).
What must hold: every ns-3 name the package uses exists there, a simulation gives the
same results as with every module, bad module names are refused before anything loads,
and the workers get the setting while the parent process keeps its environment.
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

import pytest

from tests.test_native import fresh_env, run_python
from transportlab import studies
from transportlab.engine import execute, fingerprint
from transportlab.ns3 import native as _native


def test_default_and_all_load_every_module():
    wheel = _native.ns3_wheel_dir()
    assert _native.selected_modules(wheel, "") is None
    assert _native.selected_modules(wheel, "all") is None


def _fake_wheel(root, modules=("core", "network")):
    wheel = root / "ns3"
    (wheel / "lib64").mkdir(parents=True)
    (wheel / "include" / "ns3").mkdir(parents=True)
    for module in modules:
        (wheel / "lib64" / f"libns3.44-{module}.so").write_bytes(b"")
        (wheel / "include" / "ns3" / f"{module}-module.h").write_text("")
    return wheel


def test_under_a_path_with_test_every_module_is_loaded_by_transportlab(tmp_path, monkeypatch):
    # The wheel's loader drops every library whose path contains "test": there the
    # package loads the modules itself instead of `from ns import ns`.
    monkeypatch.delenv(_native.MODULES_VARIABLE, raising=False)
    plain = Path("/home/alice/venv/lib/python3.11/site-packages/ns3")  # only its name counts
    assert _native.wheel_loader_finds_libraries(plain)
    assert _native.modules_to_load(plain) is None
    shadowed = _fake_wheel(tmp_path / "home" / "tester" / "venv")
    assert not _native.wheel_loader_finds_libraries(shadowed)
    assert _native.modules_to_load(shadowed) == ["core", "network"]
    assert _native.modules_to_load(shadowed, ns_loaded=True) is None


def test_the_study_modules_are_closed_under_linking():
    wheel = _native.ns3_wheel_dir()
    # the closure of the list, as computed for any list of names, adds nothing to it
    chosen = _native.selected_modules(wheel, ",".join(_native.STUDY_MODULES))
    assert sorted(chosen) == sorted(_native.STUDY_MODULES)  # nothing missing from the list
    assert _native.selected_modules(wheel, "studies") == chosen
    assert "lte" not in chosen and "wifi" in chosen


def test_a_list_gets_the_modules_its_libraries_link():
    wheel = _native.ns3_wheel_dir()
    assert _native.linked_ns3_modules(wheel, "aodv") >= {"core", "network", "internet"}
    chosen = _native.selected_modules(wheel, "aodv")
    assert {"aodv", "internet", "network", "core", "wifi"} <= set(chosen)  # AODV links wifi
    assert "lte" not in chosen and "csma" not in chosen


def test_an_unknown_module_is_refused_with_the_choices():
    with pytest.raises(ValueError, match=r"no ns-3 module wiffi.*'studies'.*wifi"):
        _native.selected_modules(_native.ns3_wheel_dir(), "core,wiffi")


def test_the_lean_pch_has_its_own_key():
    wheel, include = _native.ns3_wheel_dir(), _native.native_dir() / "include"
    lean = _native.selected_modules(wheel, "studies")
    assert _native.pch_key(wheel, include, lean) != _native.pch_key(wheel, include)


def _ns3_names_used_by_the_package() -> list[str]:
    names = set()
    for path in fingerprint.package_root().rglob("*.py"):
        names |= set(re.findall(r"\bns\.([A-Z][A-Za-z0-9_]*)", path.read_text()))
    return sorted(names)


def test_every_ns3_name_the_package_uses_exists_with_the_study_modules():
    names = _ns3_names_used_by_the_package()
    assert len(names) > 50 and "AodvHelper" in names and "SctpSocketFactory" in names
    result = run_python(
        f"""
        import json
        from transportlab.ns3 import native as _native
        from transportlab import ns
        missing = [n for n in {names!r} if not hasattr(ns, n)]
        print(json.dumps({{"modules": _native.loaded_modules, "missing": missing,
                           "lte": hasattr(ns, "LteHelper"), "pch": str(_native.used_pch)}}))
        """,
        fresh_env(**{_native.MODULES_VARIABLE: "studies"}),
    )
    assert result.returncode == 0, result.stderr[-2000:]
    out = json.loads(result.stdout.strip().splitlines()[-1])
    assert sorted(out["modules"]) == sorted(_native.STUDY_MODULES)
    assert out["missing"] == []
    assert out["lte"] is False  # really not loaded
    assert "pch-" in out["pch"]  # with its own precompiled header


@pytest.mark.slow
def test_a_simulation_gives_identical_results_with_the_study_modules():
    code = """
        import hashlib, json
        import pandas as pd
        from transportlab.studies import wsn_reporting_interval as w
        r = w.simulate({"protocol": "udp", "duration": 3.0}, seed=1, run=2)
        digest = hashlib.sha256()
        for name in ("packets", "counts", "states", "agent"):
            digest.update(pd.util.hash_pandas_object(r[name], index=False).values.tobytes())
        print(json.dumps([digest.hexdigest(), int(r["summary"]["delivered"].iloc[0])]))
    """
    runs = {}
    for modules in ("all", "studies"):
        result = run_python(code, fresh_env(**{_native.MODULES_VARIABLE: modules}))
        assert result.returncode == 0, result.stderr[-2000:]
        runs[modules] = json.loads(result.stdout.strip().splitlines()[-1])
    assert runs["all"][1] > 20
    assert runs["studies"] == runs["all"]


#: any ns-3 study: its runtime chooses the workers' ns-3 modules
STUDY = studies.get("bottleneck_example")


def _worker_modules():
    from transportlab.ns3 import native

    return os.environ.get(native.MODULES_VARIABLE)


@pytest.mark.slow
def test_local_cluster_workers_load_the_study_modules_and_the_parent_keeps_its_environment(
    monkeypatch,
):
    monkeypatch.delenv(_native.MODULES_VARIABLE, raising=False)
    with execute.local_cluster(1, for_studies=[STUDY]) as client:
        [setting] = client.run(_worker_modules).values()
    assert setting == "studies"
    assert _native.MODULES_VARIABLE not in os.environ
    monkeypatch.setenv(_native.MODULES_VARIABLE, "all")  # the caller's choice wins
    with execute.local_cluster(1, for_studies=[STUDY]) as client:
        [setting] = client.run(_worker_modules).values()
    assert setting == "all"
