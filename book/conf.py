"""Sphinx configuration of the results book (copied into the generated sources).

scripts/build_book.py writes the pages and ``_book.json`` (settings it worked out: the
repository address, the commit) beside this file, then runs sphinx-build. Nothing is
executed: MyST-NB shows the outputs stored in the committed notebooks.
"""

import json
from pathlib import Path

settings = json.loads((Path(__file__).parent / "_book.json").read_text(encoding="utf-8"))

project = "transportlab results"
author = "transportlab maintainers"
copyright = "transportlab maintainers, GPL-2.0-only"  # noqa: A001 - Sphinx's name
release = settings.get("version", "")

extensions = ["myst_nb"]
source_suffix = {".md": "myst-nb", ".ipynb": "myst-nb"}
root_doc = "index"
exclude_patterns = ["_build", "_extra", "Thumbs.db", ".DS_Store"]

# The book shows what is committed and never runs a notebook.
nb_execution_mode = "off"
# tqdm progress bars (stderr) of the sweeps say nothing about the results.
nb_output_stderr = "remove"
nb_merge_streams = True
# No dollar math: the notebooks quote NS-2 Tcl (`$ns at 1000 "finish"`).
myst_enable_extensions = ["colon_fence", "deflist"]
myst_heading_anchors = 3
# Included READMEs start at level 2 or 3 below a page title.
suppress_warnings = ["myst.header"]

html_theme = "sphinx_book_theme"
html_title = "transportlab: results"
html_favicon = "_static/favicon.svg"
html_static_path = ["_static"]
html_extra_path = ["_extra"]
html_css_files = [
    "vendor/datatables/dataTables.dataTables.min.css",
    "vendor/datatables/select.dataTables.min.css",
    "vendor/datatables/searchPanes.dataTables.min.css",
    "book.css",
]
html_js_files = [
    "vendor/jquery/jquery.min.js",
    "vendor/datatables/dataTables.min.js",
    "vendor/datatables/dataTables.dataTables.min.js",
    "vendor/datatables/dataTables.select.min.js",
    "vendor/datatables/select.dataTables.min.js",
    "vendor/datatables/dataTables.searchPanes.min.js",
    "vendor/datatables/searchPanes.dataTables.min.js",
    "book.js",
]
html_last_updated_fmt = None
html_copy_source = False
html_show_sourcelink = False
# The tables are wide and light-coloured: one mode for every reader.
html_context = {"default_mode": "light"}
html_theme_options = {
    "home_page_in_toc": True,
    "show_toc_level": 2,
    "use_download_button": False,
    "use_fullscreen_button": False,
    "extra_footer": settings.get("footer", ""),
}
if settings.get("repository_url"):
    html_theme_options |= {
        "repository_url": settings["repository_url"],
        "repository_branch": settings.get("repository_branch", "HEAD"),
        "use_repository_button": True,
    }
