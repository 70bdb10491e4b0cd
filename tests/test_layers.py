"""The package's layers, read from its import statements (docs/architecture.md, "Layers").

Bottom to top: ``models`` (pure models), ``engine`` (runs, caches and compares studies),
``ns3`` (ns-3 and transportlab's native library) beside ``ns2`` (NS-2.35 run as a
program, the other simulator), ``studies`` (the registry and one package
per study), and the front: ``cli``, ``notebooks``, ``summary`` and the package itself. A
module imports its own layer or lower ones, never a higher one; there is no import cycle;
a study imports no other study; and nothing below ``ns3`` loads ns-3.
"""

from __future__ import annotations

import ast
import graphlib
import subprocess
import sys
from pathlib import Path

import pytest

from transportlab.engine.fingerprint import package_root

LAYERS = {"models": 0, "engine": 1, "ns3": 2, "ns2": 2, "studies": 3}
FRONT = 4  # transportlab itself, best_configuration, cli, explore, headlines, notebooks,
# summary, teaching
#: Third-party modules that may only be imported inside the functions that need them:
#: ns-3 itself, and optional or heavy dependencies a simulation worker does not need.
LAZY_THIRD_PARTY = {
    "cppyy", "libcppyy", "ns",  # ns-3
    "dask", "distributed", "tqdm",  # cluster runs and progress bars
    "matplotlib", "seaborn", "scipy",  # figures and statistics
    "papermill", "jupyter_client", "ipykernel",  # notebooks
}  # fmt: skip
NS3_TOP_LEVEL = {"ns", "ns3", "cppyy", "libcppyy"}


def _module_name(path: Path, root: Path) -> str:
    parts = ["transportlab", *path.relative_to(root).with_suffix("").parts]
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _modules() -> dict[str, Path]:
    root = package_root()
    return {_module_name(path, root): path for path in sorted(root.rglob("*.py"))}


MODULES = _modules()


def _resolve(name: str) -> str | None:
    """The transportlab module ``name`` (or its longest existing prefix) names, or None."""
    parts = name.split(".")
    while parts:
        if ".".join(parts) in MODULES:
            return ".".join(parts)
        parts.pop()
    return None


def _imports(module: str) -> list[tuple[str, bool]]:
    """(imported module, inside a function) for every import statement of ``module``, also
    those under ``if TYPE_CHECKING``; transportlab modules resolved, others by top name."""
    path = MODULES[module]
    tree = ast.parse(path.read_text(), filename=str(path))
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    found = []

    def visit(node: ast.AST, in_function: bool) -> None:
        for child in ast.iter_child_nodes(node):
            inside = in_function or isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef)
            if isinstance(child, ast.Import):
                found.extend((alias.name, inside) for alias in child.names)
            elif isinstance(child, ast.ImportFrom):
                if child.level:
                    anchor = package.split(".")[: len(package.split(".")) - (child.level - 1)]
                    base = ".".join([*anchor, child.module] if child.module else anchor)
                else:
                    base = child.module or ""
                for alias in child.names:
                    found.append((f"{base}.{alias.name}" if base else alias.name, inside))
            visit(child, inside)

    visit(tree, False)
    return [(_resolve(name) or name.split(".")[0], inside) for name, inside in found]


def _arrows() -> dict[str, set[str]]:
    """Module -> the transportlab modules it imports (anywhere in its file)."""
    return {
        module: {name for name, _ in _imports(module) if name in MODULES and name != module}
        for module in MODULES
    }


def layer(module: str) -> int:
    parts = module.split(".")
    return LAYERS.get(parts[1], FRONT) if len(parts) > 1 else FRONT


FRONT_MODULES = {
    "transportlab",
    "transportlab.cli",
    "transportlab.best_configuration",
    "transportlab.explore",
    "transportlab.headlines",
    "transportlab.notebooks",
    "transportlab.summary",
    "transportlab.teaching",
}


def test_every_module_belongs_to_a_layer():
    loose = sorted(m for m in MODULES if layer(m) == FRONT and m not in FRONT_MODULES)
    assert not loose, f"modules outside models/, engine/, ns3/, ns2/ and studies/: {loose}"


def test_the_package_has_no_import_cycle():
    try:
        graphlib.TopologicalSorter(_arrows()).prepare()
    except graphlib.CycleError as cycle:
        pytest.fail(f"import cycle: {' -> '.join(cycle.args[1])}")


def test_no_module_imports_a_higher_layer():
    upward = [
        f"{module} -> {imported}"
        for module, imported_modules in _arrows().items()
        for imported in sorted(imported_modules)
        if layer(imported) > layer(module)
    ]
    assert not upward, "upward imports:\n" + "\n".join(upward)


def test_studies_import_no_other_study_and_not_the_registry():
    found = []
    for module, imported_modules in _arrows().items():
        parts = module.split(".")
        if len(parts) < 3 or parts[1] != "studies":
            continue
        for imported in sorted(imported_modules):
            other = imported.split(".")
            if other[1] == "studies" and (len(other) < 3 or other[2] != parts[2]):
                found.append(f"{module} -> {imported}")
    assert not found, "\n".join(found)


def test_the_engine_and_the_models_import_neither_studies_nor_ns3():
    found = []
    for module in MODULES:
        if layer(module) >= LAYERS["ns3"]:
            continue
        for name, _ in _imports(module):
            higher = name in MODULES and layer(name) >= LAYERS["ns3"]
            if higher or (name not in MODULES and name in NS3_TOP_LEVEL):
                found.append(f"{module} -> {name}")
    assert not found, "\n".join(found)


def test_importing_the_engine_loads_no_study_and_no_ns3():
    """In a fresh process: every engine and models module, and nothing of ns-3 or a study."""
    lower = [m for m in MODULES if layer(m) < LAYERS["ns3"]]
    code = (
        "import importlib, sys\n"
        f"for name in {lower!r}:\n"
        "    importlib.import_module(name)\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] in "
        f"{sorted(NS3_TOP_LEVEL)!r} or m.startswith(('transportlab.studies', 'transportlab.ns3'))))"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=300
    )
    assert result.stdout.strip() == "[]"


def test_imports_inside_functions_only_keep_ns3_or_an_optional_dependency_from_loading():
    allowed_inside = {("transportlab", "transportlab.ns3.native")}  # `from transportlab import ns`
    found = [
        f"{module}: {name}"
        for module in MODULES
        for name, inside in _imports(module)
        if inside
        and (module, name) not in allowed_inside
        and (name in MODULES or name not in LAZY_THIRD_PARTY)
    ]
    assert not found, "imports inside functions that could be at the top:\n" + "\n".join(found)
