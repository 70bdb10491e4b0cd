"""What code a simulation runs, as a hash: the part of a cache key that goes stale.

A cached simulation result is valid as long as the code that produced it has not
changed. That code is the study's run step (``Study.run``), every transportlab
module it imports, directly or through other transportlab modules (found by
reading their ``import`` statements, also those inside functions), and what the
study's :class:`~transportlab.engine.runtime.Runtime` names: compiled code (for ns-3
studies the native library ``libtransportlab.so`` and its programs) and package
versions (the ``ns3`` wheel). Analysis code (metrics,
statistics, comparisons, figures) is deliberately outside: a study's analysis
module is not imported by its run step, so changing a metric never costs a
simulation.

Package ``__init__`` files that are only passed through on the way to a submodule
(``from transportlab.studies.x.scenario import y`` runs ``studies/__init__.py`` and
``studies/x/__init__.py``) are not part of the closure: they declare and register,
they do not simulate.
"""

from __future__ import annotations

import ast
import functools
import hashlib
import sys
import threading
from collections.abc import Callable, Iterable
from pathlib import Path

from transportlab.engine.runtime import PYTHON, Runtime

__all__ = ["code_fingerprint", "file_digest", "module_closure", "package_root"]

PACKAGE = "transportlab"


def package_root() -> Path:
    """The folder of the ``transportlab`` package (``src/transportlab`` in a checkout)."""
    return Path(__file__).resolve().parents[1]


def _module_file(name: str, root: Path) -> Path | None:
    """The source file of module ``name`` (``transportlab.a.b``) under ``root``, or None."""
    parts = name.split(".")
    if parts[0] != PACKAGE:
        return None
    base = root.joinpath(*parts[1:])
    for candidate in (base.with_suffix(".py"), base / "__init__.py"):
        if candidate.is_file():
            return candidate
    if len(parts) == 1 and (root / "__init__.py").is_file():
        return root / "__init__.py"
    return None


def _module_name(path: Path, root: Path) -> str:
    relative = path.relative_to(root).with_suffix("")
    parts = [PACKAGE, *relative.parts]
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


# CPython 3.11's parser is not safe to run in several threads at once ("AST constructor
# recursion depth mismatch"): worker threads may fingerprint concurrently.
_PARSE_LOCK = threading.Lock()


@functools.lru_cache(maxsize=512)
def _parsed(path: str, size: int, mtime_ns: int) -> ast.Module:
    with _PARSE_LOCK:
        return ast.parse(Path(path).read_text(encoding="utf-8"), filename=path)


def _imports(path: Path, root: Path, own: str | None = None) -> set[str]:
    """transportlab modules named by the import statements of ``path`` (module ``own``)."""
    stat = path.stat()
    tree = _parsed(str(path), stat.st_size, stat.st_mtime_ns)
    own = own or _module_name(path, root)
    package = own if path.name == "__init__.py" else own.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.split(".")[0] == PACKAGE:
                    found.add(alias.name)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                anchor = package.split(".")
                anchor = anchor[: len(anchor) - (node.level - 1)]
                base = ".".join([*anchor, node.module] if node.module else anchor)
            else:
                base = node.module or ""
            if base.split(".")[0] != PACKAGE:
                continue
            for alias in node.names:
                submodule = f"{base}.{alias.name}"
                found.add(submodule if _module_file(submodule, root) else base)
    return found


def module_closure(modules: Iterable[str], root: Path | None = None) -> dict[str, Path]:
    """Every transportlab module reachable by imports from ``modules``: name -> file."""
    root = root or package_root()
    closure: dict[str, Path] = {}
    pending = list(modules)
    while pending:
        name = pending.pop()
        if name in closure:
            continue
        path = _module_file(name, root)
        if path is None:
            continue
        closure[name] = path
        pending.extend(sorted(_imports(path, root) - set(closure)))
    return dict(sorted(closure.items()))


def _file_digest(path: Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as stream:
        for block in iter(lambda: stream.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


@functools.lru_cache(maxsize=256)
def _cached_digest(path: str, size: int, mtime_ns: int) -> str:
    return _file_digest(Path(path))


def file_digest(path: Path) -> str:
    """SHA-256 of a file, memoised on (path, size, modification time)."""
    stat = path.stat()
    return _cached_digest(str(path), stat.st_size, stat.st_mtime_ns)


def _module_of(function: Callable) -> str:
    name = getattr(function, "__module__", None)
    if not name or name not in sys.modules:
        raise ValueError(f"cannot tell which module defines {function!r}")
    return name


def code_fingerprint(
    run: Callable | str, root: Path | None = None, runtime: Runtime = PYTHON
) -> str:
    """SHA-256 over the code behind ``run`` (a function or a module name).

    Covers every module of :func:`module_closure` (name and content), then the compiled
    code and the versions ``runtime`` names (:class:`~transportlab.engine.runtime.Runtime`;
    the default, a pure Python run step, names none).
    """
    module = run if isinstance(run, str) else _module_of(run)
    root = root or package_root()
    digest = hashlib.sha256()
    start = [module]
    if _module_file(module, root) is None:
        # A run step outside the package (a user's or a test's study): its own file,
        # then the transportlab modules it imports.
        loaded = sys.modules.get(module)
        path = Path(getattr(loaded, "__file__", None) or "")
        if not path.is_file():
            raise ValueError(f"cannot find the source of module {module!r}")
        digest.update(f"{module}={file_digest(path)};".encode())
        start = sorted(_imports(path, root, own=module))
    for name, path in module_closure(start, root).items():
        digest.update(f"{name}={file_digest(path)};".encode())
    for label, path in runtime.code_files():
        content = file_digest(path) if path is not None and path.is_file() else "missing"
        digest.update(f"{label}={content};".encode())
    for package, version in runtime.versions().items():
        digest.update(f"{package}={version};".encode())
    return digest.hexdigest()
