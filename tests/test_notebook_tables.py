"""Comparison tables the notebooks show carry no column that is empty in every row.

Issue 27: the committed full-mode comparison was displayed with every column of
``comparison.csv``, six of them empty for the bottleneck example (seed_file, also_in,
kind, alternative, deterministic, note). The CSV keeps them (one layout for every
study); the notebooks drop them where they display it. Checked on the committed
outputs, which are what a reader sees.
"""

from __future__ import annotations

import re
from pathlib import Path

import nbformat
import pytest

from transportlab.engine.results import committed_comparison

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOKS = sorted((ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb"))


def _displayed_committed_comparison(path: Path):
    """(study, the column headers of the HTML table) of the cell showing the committed one."""
    notebook = nbformat.read(path, as_version=4)
    for cell in notebook.cells:
        match = re.search(r'committed_comparison\("(\w+)"\)', cell.source)
        if cell.cell_type != "code" or not match:
            continue
        for output in cell.get("outputs", []):
            table = output.get("data", {}).get("text/html")
            if table:
                head = re.search(r"<thead>(.*?)</thead>", "".join(table), flags=re.S).group(1)
                return match.group(1), [h for h in re.findall(r"<th>(.*?)</th>", head) if h]
    return None


SHOWN = {path.name: _displayed_committed_comparison(path) for path in NOTEBOOKS}


@pytest.mark.parametrize("name", [name for name, shown in SHOWN.items() if shown])
def test_the_committed_comparison_is_shown_without_empty_columns(name):
    study, headers = SHOWN[name]
    committed = committed_comparison(study)
    empty = [column for column in committed.columns if committed[column].isna().all()]
    assert not set(headers) & set(empty), f"{name} shows empty columns {set(headers) & set(empty)}"
    # and every column with a value is still there
    assert set(committed.columns) - set(empty) - {"study"} <= set(headers)


def test_some_committed_comparison_has_empty_columns_to_drop():
    """Otherwise the test above would hold whatever the notebooks display."""
    assert any(
        committed_comparison(shown[0]).isna().all().any() for shown in SHOWN.values() if shown
    )
