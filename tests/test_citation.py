"""LICENSE, CITATION.cff and the References: present, consistent with pyproject.toml.

``cffconvert --validate`` checks CITATION.cff against the CFF 1.2 schema (run when the
file changes; it is not a project dependency). These tests keep the essentials true.
"""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[1]


def _pyproject():
    return tomllib.loads((ROOT / "pyproject.toml").read_text())


def test_license_is_the_declared_gpl2():
    assert _pyproject()["project"]["license"] == {"text": "GPL-2.0-only"}
    text = (ROOT / "LICENSE").read_text()
    assert "GNU GENERAL PUBLIC LICENSE" in text and "Version 2, June 1991" in text
    assert "END OF TERMS AND CONDITIONS" in text  # the whole text, not a stub


def test_citation_cff_is_cff_1_2_and_matches_pyproject():
    cff = yaml.safe_load((ROOT / "CITATION.cff").read_text())
    project = _pyproject()["project"]
    assert cff["cff-version"] == "1.2.0"
    for key in ("message", "title", "authors"):
        assert cff[key]
    assert cff["license"] == project["license"]["text"]
    assert cff["version"] == project["version"]
    for reference in cff["references"]:
        assert reference["type"] and reference["title"] and reference["authors"], reference


def test_readme_names_every_seed_and_no_seed_file():
    readme = (ROOT / "README.md").read_text()
    references = readme.split("## References", 1)[1]
    for seed in ("000", "001", "002", "003", "004"):
        assert re.search(rf"^\| {seed} \| .+ \|", references, re.M), seed
    for name in ("Pang", "Waleed", "Chellaprabha", "Brennan", "Rajamani", "G.107", "RFC 9260"):
        assert name in references
    # Seed texts are not in the repository: their file names must not be how studies are named.
    assert not re.search(r"\d{3}_[0-9a-f]{16}\.txt", readme)


def test_every_notebook_has_references():
    for notebook in sorted((ROOT / "notebooks").glob("0*.py")):
        assert "# ## References" in notebook.read_text(), notebook.name
