"""Print the project's runtime dependencies (and optional extras) from pyproject.toml.

Used by the Makefile to install dependencies before building the package without
build isolation: ``python scripts/project_requirements.py test``. With ``--only``, the
extras alone (``--only book``: what `make book` needs, without the package's own).
"""

import sys
import tomllib
from pathlib import Path

project = tomllib.loads((Path(__file__).resolve().parents[1] / "pyproject.toml").read_text())[
    "project"
]
extras = sys.argv[1:]
only = "--only" in extras
requirements = [] if only else list(project["dependencies"])
for extra in extras:
    if extra != "--only":
        requirements += project["optional-dependencies"][extra]
print(" ".join(requirements))
