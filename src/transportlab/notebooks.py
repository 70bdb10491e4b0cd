"""Execute study notebooks with papermill.

Every study notebook starts with a cell tagged ``parameters`` holding at least::

    quick = True       # quick mode: short runs, few replications (tests, CI, Binder)
    scheduler = None   # None: in-process when quick, a local Dask cluster otherwise
    runs = None        # replications per point; None: the notebook's quick/full default
    params = {}        # study parameters that differ from the defaults

:func:`execute` validates ``params`` against the study's parameter space first
(so a bad value stops before a kernel starts), then runs the notebook with
papermill into ``output[/quick]/<study>.ipynb``. The notebook runs under a Jupyter
kernel of *this* Python environment: :func:`ensure_kernel` registers a kernelspec
named ``transportlab`` in ``<sys.prefix>/share/jupyter/kernels`` (the same as
``python -m ipykernel install --sys-prefix --name transportlab``) whose command
is this interpreter, and checks that Jupyter resolves the name to it.
"""

from __future__ import annotations

import ast
import contextlib
import json
import os
import sys
import tempfile
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from transportlab import studies
from transportlab.engine import paths
from transportlab.engine.results import Results
from transportlab.engine.study import Study

KERNEL_NAME = "transportlab"
NOTEBOOK_PARAMETERS = ("quick", "scheduler", "runs", "params")
_IPYTHON_NAMES = {"In", "Out", "get_ipython", "exit", "quit", "open"}
_LITERAL_TYPES = (bool, int, float, str, list, dict, tuple, type(None))


class NotebookParameterError(ValueError):
    """A notebook parameter is unknown or of the wrong type (raised in the first code cell)."""


def start(study: str | Study, namespace: Mapping[str, Any]):
    """Check a study notebook's parameters; return its
    :class:`~transportlab.engine.results.Results`.

    Call it in the cell right after the ``parameters`` cell, with ``globals()``::

        results = start("bottleneck_example", globals())

    It checks, before ns-3 is loaded, ``quick`` (bool), ``scheduler`` (None or a
    string), ``runs`` (None or an int >= 1) and ``params`` (a dict of study parameters,
    validated against the study), and that papermill injected no other name
    (``papermill -p nosuch 3`` is an error, not ignored; a study parameter passed on
    its own is pointed to ``params``). Only what papermill injected is checked for
    unknown names: in a kernel (``globals()`` holds IPython's ``In``), the names its
    ``# Parameters`` cell assigns, if that cell ran just before this one; with a plain
    dict, every literal in it. The notebook's own globals of an earlier Run All
    (``PARAMS``, ``tcp``, ...) are no parameters, so Run All twice in one kernel works.
    """
    study = study if isinstance(study, Study) else studies.get(study)
    problems = []
    missing = [n for n in NOTEBOOK_PARAMETERS if n not in namespace]
    if missing:
        problems.append(f"the parameters cell lacks {missing}")
    for name in _unknown_injected(namespace):
        if name in study.parameters:
            problems.append(
                f"{name!r} is a study parameter: pass it inside params, e.g. "
                f'papermill -y "params: {{{name}: ...}}"'
            )
        else:
            problems.append(
                f"unknown notebook parameter {name!r}; the parameters are "
                f"{', '.join(NOTEBOOK_PARAMETERS)} (study parameters go inside params)"
            )
    quick, scheduler = namespace.get("quick"), namespace.get("scheduler")
    runs, params = namespace.get("runs"), namespace.get("params")
    if not isinstance(quick, bool):
        problems.append(f"quick must be True or False, got {quick!r}")
    if scheduler is not None and not isinstance(scheduler, str):
        problems.append(f"scheduler must be None or an address string, got {scheduler!r}")
    if runs is not None and (isinstance(runs, bool) or not isinstance(runs, int) or runs < 1):
        problems.append(f"runs must be None or an int >= 1, got {runs!r}")
    if not isinstance(params, dict):
        problems.append(
            f"params must be a dict of study parameters, got {params!r}; with papermill: "
            f'-y "params: {{{example_override(study)}}}"'
        )
    if problems:
        raise NotebookParameterError(f"{study.name} notebook: " + "; ".join(problems))
    publish = os.environ.get(PUBLISH_ENV) == "1"
    return Results(
        study, quick=quick, params=params, runs=runs, scheduler=scheduler, publish=publish,
        progress_bar=notebook_progress_bar(namespace),
    )  # fmt: skip


def notebook_progress_bar(namespace: Mapping[str, Any]):
    """tqdm's notebook bar (an ipywidgets widget) when ``namespace`` is the globals of a
    Jupyter kernel (IPython's ``get_ipython`` there returns a ZMQ shell), else None
    (tqdm's text bar on stderr): JupyterLab shows stderr as red text, like an error."""
    get_ipython = namespace.get("get_ipython")
    shell = get_ipython() if callable(get_ipython) else None
    if shell is None or type(shell).__name__ != "ZMQInteractiveShell":
        return None
    from tqdm.notebook import tqdm  # noqa: PLC0415 - ipywidgets, only in a kernel

    return tqdm


#: Set (to "1") by :func:`execute` for ``transportlab reproduce --notebook`` only: then a
#: notebook in its study's declared mode writes data/results like ``transportlab
#: reproduce``; every other notebook run writes data/explore (``Results.results_dir``).
PUBLISH_ENV = "TRANSPORTLAB_PUBLISH"


#: The comment papermill writes at the top of the cell it injects (its Python translator).
PAPERMILL_INJECTED = "# Parameters"


def _unknown_injected(namespace: Mapping[str, Any]) -> list[str]:
    """Injected names that are no notebook parameter (see :func:`start`)."""
    history = namespace.get("In")
    if isinstance(history, list) and all(isinstance(cell, str) for cell in history):
        # IPython appends a cell's source to In before running it: In[-1] is the cell
        # calling start(), In[-2] the one that ran just before.
        previous = history[-2] if len(history) >= 2 else ""
        injected = (
            _assigned_names(previous) if previous.lstrip().startswith(PAPERMILL_INJECTED) else []
        )
    else:
        injected = [
            name
            for name, value in namespace.items()
            if not name.startswith("_")
            and name not in _IPYTHON_NAMES
            and isinstance(value, _LITERAL_TYPES)
        ]
    return sorted(set(injected) - set(NOTEBOOK_PARAMETERS))


def _assigned_names(source: str) -> list[str]:
    """The names a cell's top-level assignments bind (``quick = False`` -> quick)."""
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return []
    names = []
    for node in tree.body:
        targets = node.targets if isinstance(node, ast.Assign) else []
        if isinstance(node, ast.AnnAssign | ast.AugAssign):
            targets = [node.target]
        names += [target.id for target in targets if isinstance(target, ast.Name)]
    return names


def example_override(study: Study) -> str:
    """A valid ``params`` entry for hints, in YAML: a parameter no experiment sets itself
    (an override of one would be refused), with its default, e.g. ``duration: 50``."""
    fixed = {
        name
        for experiment in study.reproduction.experiments
        for quick in (True, False)
        for point in experiment.point_list(study.parameters.defaults(quick), quick)
        for name in point
    }
    for name, param in study.parameters.params.items():
        if name not in fixed and not param.analysis_only and param.kind in (int, float, str):
            return f"{name}: {param.default}"
    return ""


class NotebookError(RuntimeError):
    """A cell raised; the executed notebook (with the traceback) is kept for inspection."""

    def __init__(self, message: str, notebook: Path) -> None:
        super().__init__(message)
        self.notebook = notebook


def notebook_path(study: Study) -> Path:
    """``notebooks/<study.notebook>`` in the project folder."""
    path = paths.project_root() / "notebooks" / study.notebook
    if not path.is_file():
        raise FileNotFoundError(f"notebook of study {study.name!r} not found: {path}")
    return path


def output_path(study: Study, quick: bool, output_dir: str | Path | None = None) -> Path:
    """``output/<study>.ipynb`` (full mode) or ``output/quick/<study>.ipynb``."""
    if output_dir is None:
        output_dir = paths.project_root() / "output"
        if quick:
            output_dir = output_dir / "quick"
    return Path(output_dir) / f"{study.name}.ipynb"


def _same_interpreter(argv0: str) -> bool:
    # jupyter_client runs a kernelspec whose command is plain "python"/"python3"/
    # "python3.X" with the interpreter that starts the kernel, i.e. this one.
    major, minor = sys.version_info[:2]
    plain = {"python", f"python{major}", f"python{major}.{minor}"}
    if argv0 in plain:
        return True
    with contextlib.suppress(OSError):
        return os.path.samefile(argv0, sys.executable)
    return False


def ensure_kernel(name: str = KERNEL_NAME) -> str:
    """Register (if needed) a kernelspec ``name`` running this interpreter; return the name.

    The spec goes to ``<sys.prefix>/share/jupyter/kernels/<name>``. Raises
    RuntimeError with instructions if Jupyter resolves ``name`` to another
    interpreter (e.g. a user-level spec of the same name shadows it).
    """
    from jupyter_client.kernelspec import KernelSpecManager, NoSuchKernel  # noqa: PLC0415

    manager = KernelSpecManager()
    try:
        spec = manager.get_kernel_spec(name)
        if _same_interpreter(spec.argv[0]):
            return name
    except NoSuchKernel:
        spec = None
    if spec is None or Path(spec.resource_dir).is_relative_to(sys.prefix):
        from ipykernel.kernelspec import install  # noqa: PLC0415

        install(
            kernel_spec_manager=manager,
            kernel_name=name,
            display_name=f"Python {sys.version_info[0]}.{sys.version_info[1]} (transportlab)",
            prefix=sys.prefix,
        )
        spec = KernelSpecManager().get_kernel_spec(name)
        if _same_interpreter(spec.argv[0]):
            return name
    raise RuntimeError(
        f"the Jupyter kernel {name!r} runs {spec.argv[0]}, not this interpreter "
        f"({sys.executable}); its spec in {spec.resource_dir} shadows the one of this "
        f"environment. Remove it (jupyter kernelspec remove {name}) or pass another "
        "kernel name."
    )


def notebook_parameters(path: Path) -> dict[str, Any]:
    """Names and values declared in the notebook's ``parameters`` cell (papermill's view)."""
    import papermill  # noqa: PLC0415

    return {p["name"]: p["default"] for p in papermill.inspect_notebook(str(path)).values()}


def execute(
    study: str | Study,
    *,
    quick: bool = False,
    scheduler: str | None = None,
    params: Mapping[str, Any] | None = None,
    runs: int | None = None,
    output_dir: str | Path | None = None,
    kernel_name: str | None = None,
    log_output: bool = False,
    publish: bool = False,
) -> Path:
    """Run the study's notebook with papermill; return the executed notebook's path.

    ``params`` is validated (``ParameterError``) before the kernel starts. The
    executed notebook is written under a temporary name and renamed when every
    cell has run; if a cell fails, it is kept as ``<study>.failed.ipynb`` and
    :class:`NotebookError` is raised. ``publish`` (``transportlab reproduce --notebook``)
    lets the notebook's ``results.write()`` write ``data/results`` in a declared mode;
    otherwise it writes ``data/explore``.
    """
    import papermill  # noqa: PLC0415

    study = study if isinstance(study, Study) else studies.get(study)
    params = dict(params or {})
    study.parameters.validate(params, quick=quick)
    if runs is not None and (isinstance(runs, bool) or not isinstance(runs, int) or runs < 1):
        raise ValueError(f"runs must be an int >= 1, got {runs!r}")
    source = notebook_path(study)
    declared = notebook_parameters(source)
    missing = {"quick", "scheduler", "runs", "params"} - set(declared)
    if missing:
        raise ValueError(f"{source.name}: its parameters cell lacks {sorted(missing)}")
    target = output_path(study, quick, output_dir)
    target.parent.mkdir(parents=True, exist_ok=True)
    kernel = kernel_name or ensure_kernel()

    # papermill saves the notebook after every cell: run under a temporary name.
    fd, partial_name = tempfile.mkstemp(
        dir=target.parent, prefix=f".{study.name}.", suffix=".partial.ipynb"
    )
    os.close(fd)
    partial = Path(partial_name)
    failed = target.with_name(f"{study.name}.failed.ipynb")
    # JSON round trip: papermill writes the values as Python literals into the notebook.
    parameters = {
        "quick": bool(quick),
        "scheduler": scheduler,
        "runs": runs,
        "params": json.loads(json.dumps(params)),
    }
    try:
        with _environment(PUBLISH_ENV, "1" if publish else None):
            papermill.execute_notebook(
                str(source),
                str(partial),
                parameters=parameters,
                kernel_name=kernel,
                cwd=str(source.parent),
                progress_bar=False,
                log_output=log_output,
            )
    except papermill.PapermillExecutionError as exc:
        os.replace(partial, failed)
        with contextlib.suppress(FileNotFoundError):
            target.unlink()  # an older result would no longer describe the current code
        raise NotebookError(
            f"{source.name} failed in cell {exc.exec_count}: {exc.ename}: {exc.evalue}", failed
        ) from exc
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            partial.unlink()
        raise
    os.replace(partial, target)
    with contextlib.suppress(FileNotFoundError):
        failed.unlink()
    return target


@contextlib.contextmanager
def _environment(name: str, value: str | None):
    """``os.environ[name]`` set to ``value`` (or removed, for None) inside the block: the
    kernel papermill starts inherits this process's environment."""
    before = os.environ.get(name)
    if value is None:
        os.environ.pop(name, None)
    else:
        os.environ[name] = value
    try:
        yield
    finally:
        if before is None:
            os.environ.pop(name, None)
        else:
            os.environ[name] = before
