"""Print the project's runtime dependencies (and optional extras) from pyproject.toml.

Used by the Makefile to install dependencies before building the package without
build isolation: ``python scripts/project_requirements.py test``.
"""

import sys
import tomllib
from pathlib import Path

project = tomllib.loads((Path(__file__).resolve().parents[1] / "pyproject.toml").read_text())[
    "project"
]
requirements = list(project["dependencies"])
for extra in sys.argv[1:]:
    requirements += project["optional-dependencies"][extra]
print(" ".join(requirements))
