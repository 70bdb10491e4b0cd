"""The cache key's code part: the run step's import closure, and nothing of the analysis."""

from __future__ import annotations

import importlib.metadata
import shutil
from pathlib import Path

import pytest

from transportlab import studies
from transportlab.engine import fingerprint
from transportlab.engine.runtime import Runtime
from transportlab.ns3 import runtime as ns3_runtime
from transportlab.ns3.runtime import NS3

ANALYSIS_MODULES = (
    "transportlab.models.metrics",
    "transportlab.engine.stats",
    "transportlab.engine.published",
    "transportlab.engine.verdicts",
    "transportlab.engine.plotting",
    "transportlab.models.playout",
    "transportlab.models.emodel",
    "transportlab.engine.results",
)


def run_modules() -> dict[str, str]:
    """Study name -> the module of its run step."""
    return {name: studies.get(name).run.__module__ for name in studies.names()}


@pytest.fixture
def package_copy(tmp_path) -> Path:
    """A copy of the transportlab sources to edit."""
    root = tmp_path / "transportlab"
    shutil.copytree(
        fingerprint.package_root(), root, ignore=shutil.ignore_patterns("__pycache__", "*.so")
    )
    return root


def fingerprints(root: Path) -> dict[str, str]:
    return {
        name: fingerprint.code_fingerprint(module, root=root)
        for name, module in run_modules().items()
    }


def edit(root: Path, module: str) -> None:
    path = fingerprint._module_file(module, root)
    path.write_text(path.read_text() + "\n# an edit\n")


def test_closure_follows_imports_inside_functions_and_skips_passed_through_packages():
    # The package's `ns` attribute imports the ns-3 loader inside a function.
    assert "transportlab.ns3.native" in fingerprint.module_closure(["transportlab"])
    closure = fingerprint.module_closure(["transportlab.studies.bottleneck_example.scenario"])
    assert "transportlab.ns3.recording" in closure
    assert "transportlab.ns3.simulation" in closure
    assert "transportlab.ns3.topology.chain" in closure
    # the study's package __init__ (which imports the analysis) is only passed through
    assert "transportlab.studies.bottleneck_example" not in closure
    assert "transportlab.studies.bottleneck_example.analysis" not in closure


@pytest.mark.parametrize("study", studies.names())
def test_no_run_step_imports_analysis_code(study):
    closure = fingerprint.module_closure([run_modules()[study]])
    leaked = [
        m for m in closure if m in ANALYSIS_MODULES or m.endswith((".analysis", ".reproduction"))
    ]
    assert not leaked, f"{study}'s run step imports analysis code: {leaked}"


@pytest.mark.slow
def test_editing_a_module_invalidates_exactly_the_studies_that_import_it(package_copy):
    before = fingerprints(package_copy)
    closures = {name: fingerprint.module_closure([m]) for name, m in run_modules().items()}
    shared = sorted({m for c in closures.values() for m in c})
    for module in shared:
        edit(package_copy, module)
        after = fingerprints(package_copy)
        changed = {name for name in before if after[name] != before[name]}
        expected = {name for name, closure in closures.items() if module in closure}
        assert changed == expected, module
        before = after


def test_editing_analysis_code_invalidates_nothing(package_copy):
    before = fingerprints(package_copy)
    analysis = [m for m in ANALYSIS_MODULES if fingerprint._module_file(m, package_copy)]
    for name in studies.names():
        analysis += [
            f"transportlab.studies.{name}.{part}"
            for part in ("analysis", "reproduction")
            if fingerprint._module_file(f"transportlab.studies.{name}.{part}", package_copy)
        ]
    assert len(analysis) >= 5
    for module in analysis:
        edit(package_copy, module)
    assert fingerprints(package_copy) == before


def test_compiled_code_and_versions_the_runtime_names_are_part_of_the_fingerprint(tmp_path):
    library = tmp_path / "libtransportlab.so"
    library.write_bytes(b"one")

    class Fixed(Runtime):
        version = "3.44"

        def code_files(self):
            return [("native", library)]

        def versions(self):
            return {"ns3": self.version}

    runtime = Fixed()
    module = studies.get("bottleneck_example").run.__module__
    first = fingerprint.code_fingerprint(module, runtime=runtime)
    assert fingerprint.code_fingerprint(module, runtime=runtime) == first
    library.write_bytes(b"two")
    second = fingerprint.code_fingerprint(module, runtime=runtime)
    assert second != first
    runtime.version = "9.99"
    assert fingerprint.code_fingerprint(module, runtime=runtime) != second
    library.unlink()  # a missing library is a state of its own, not an error
    assert fingerprint.code_fingerprint(module, runtime=runtime) not in (first, second)
    assert fingerprint.code_fingerprint(module) != first  # pure Python: none of it


def test_the_ns3_runtime_names_the_native_library_its_programs_and_the_ns3_version():
    assert all(study.runtime is NS3 for study in studies.all_studies().values())
    files = dict(NS3.code_files())
    assert files["native"] == ns3_runtime.native_library() and files["native"].is_file()
    assert {f"bin/{p.name}" for p in ns3_runtime.native_programs()} == set(files) - {"native"}
    assert NS3.versions() == {"ns3": importlib.metadata.version("ns3")}


@pytest.mark.parametrize("study", studies.names())
def test_analysis_only_parameters_are_not_read_by_the_run_step(study):
    """A parameter left out of the cache key must not change what the run step computes."""
    declared = studies.get(study).parameters
    analysis_only = [p.name for p in declared if p.analysis_only]
    closure = fingerprint.module_closure([run_modules()[study]])
    # The module that declares the parameters (and checks their consistency) names them all.
    declaring = f"transportlab.studies.{study}.parameters"
    sources = "\n".join(path.read_text() for name, path in closure.items() if name != declaring)
    read = [name for name in analysis_only if f'"{name}"' in sources or f"'{name}'" in sources]
    assert not read, f"{study}: the run step reads analysis-only parameters {read}"


def test_fingerprints_computed_in_several_threads_at_once_agree(package_copy):
    """CPython 3.11's parser fails when threads parse at once; the fingerprint must not."""
    import concurrent.futures  # noqa: PLC0415

    modules = list(run_modules().values()) * 4
    with concurrent.futures.ThreadPoolExecutor(max_workers=8) as pool:
        found = list(
            pool.map(lambda m: fingerprint.code_fingerprint(m, root=package_copy),
                     modules)
        )  # fmt: skip
    expected = fingerprints(package_copy)
    assert found == [expected[name] for name in run_modules()] * 4
