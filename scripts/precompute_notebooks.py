"""Run notebooks once so that their simulations are in the results cache.

    python scripts/precompute_notebooks.py assignments/*/*.ipynb

Binder's ``postBuild`` runs this on the student notebooks of a student release (see
assignments/README.md): every simulation a notebook starts with fixed points lands in
the image's results cache, so a student's first run loads it in a second instead of
simulating. Each notebook runs in a copy, in the ``transportlab`` kernel, from the top,
and errors do not stop it: a student notebook's answer cells hold ``...`` and fail, as
they should. A cell that is not an answer cell and calls ``execute.run`` must run without
an error, or this exits with status 1 (the image would ship without that cache).
The notebooks themselves are not changed.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

SIMULATION_CALL = "execute.run("
ANSWER_TAG = "otter_answer_cell"


def simulation_cells(notebook) -> list[int]:
    """Code cells that simulate with fixed points: they call execute.run and are no answer."""
    return [
        index
        for index, cell in enumerate(notebook.cells)
        if cell.cell_type == "code"
        and SIMULATION_CALL in cell.source
        and ANSWER_TAG not in cell.metadata.get("tags", [])
    ]


def _cache_entries(folder: Path) -> int:
    return sum(1 for path in folder.rglob("*") if path.is_file()) if folder.is_dir() else 0


def precompute(path: Path, kernel: str, timeout: int = 1800) -> tuple[int, list[str]]:
    """Execute ``path`` once; (number of simulation cells, their errors)."""
    import nbformat  # noqa: PLC0415
    from nbclient import NotebookClient  # noqa: PLC0415

    notebook = nbformat.read(path, as_version=4)
    client = NotebookClient(
        notebook,
        kernel_name=kernel,
        timeout=timeout,
        allow_errors=True,
        resources={"metadata": {"path": str(path.parent.resolve())}},
    )
    client.execute()
    errors = []
    cells = simulation_cells(notebook)
    for index in cells:
        for output in notebook.cells[index].get("outputs", []):
            if output.get("output_type") == "error":
                errors.append(f"cell {index}: {output.get('ename')}: {output.get('evalue')}")
    return len(cells), errors


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("notebooks", nargs="*", type=Path)
    args = parser.parse_args(argv)
    if not args.notebooks:
        print("no notebooks to precompute")
        return 0
    from transportlab.engine import paths  # noqa: PLC0415
    from transportlab.notebooks import ensure_kernel  # noqa: PLC0415

    kernel = ensure_kernel()
    cache = paths.cache_dir()
    failed = False
    for path in args.notebooks:
        before, started = _cache_entries(cache), time.monotonic()
        count, errors = precompute(path, kernel)
        added = _cache_entries(cache) - before
        print(f"{path}: {count} simulation cells, {added} new cache files "
              f"({time.monotonic() - started:.0f} s)")  # fmt: skip
        for error in errors:
            print(f"  FAILED {error}", file=sys.stderr)
        failed |= bool(errors)
    print(f"results cache: {cache}")
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
