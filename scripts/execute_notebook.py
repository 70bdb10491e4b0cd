"""Regenerate a notebook's committed quick-mode outputs from its jupytext pair.

    python scripts/execute_notebook.py notebooks/00_bottleneck_example.py [...]

Reads the percent-format ``.py`` (the reviewed source), runs every cell in this
environment's Jupyter kernel (``transportlab``, registered if needed) with the
parameters cell as written (``quick = True``), and writes the paired ``.ipynb``
with its outputs, which nbval then checks. The sweep cache is bypassed (a
temporary one is used) so the outputs come from fresh simulations. Uses nbclient
directly: no papermill metadata or timing noise in the committed file.
"""

import os
import sys
import tempfile
from pathlib import Path

import jupytext
import nbclient

from transportlab.notebooks import ensure_kernel


def execute(source: Path) -> Path:
    notebook = jupytext.read(source)
    notebook.metadata.setdefault("jupytext", {})["formats"] = "ipynb,py:percent"
    with tempfile.TemporaryDirectory() as cache:
        os.environ["TRANSPORTLAB_RESULTS_CACHE"] = cache
        client = nbclient.NotebookClient(
            notebook,
            timeout=1800,
            kernel_name=ensure_kernel(),
            resources={"metadata": {"path": str(source.parent)}},
            # The Explore section's controls are live widgets: their state (random model
            # ids, ~40 kB) would change the committed file at every run and shows nothing
            # without a kernel.
            store_widget_state=False,
        )
        client.execute()
    target = source.with_suffix(".ipynb")
    jupytext.write(notebook, target, fmt="ipynb")
    return target


if __name__ == "__main__":
    for name in sys.argv[1:] or sorted(str(p) for p in Path("notebooks").glob("*.py")):
        print(execute(Path(name)))
