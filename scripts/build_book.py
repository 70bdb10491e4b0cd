#!/usr/bin/env python3
"""Build the results book: a static HTML site from the committed files, executing nothing.

    python scripts/build_book.py [--output build/book] [--jobs N] [--sources-only]

Reads only committed files: ``data/results/**`` (comparison and result tables, their
``provenance.json``), ``data/published/README.md``, ``notebooks/NN_<study>.ipynb`` (their
stored quick-mode outputs), ``figures/**``, ``README.md``, ``CITATION.cff``,
``src/sctp/doc/sctp.md``, ``assignments/README.md`` and ``book/`` (the Sphinx
configuration, ``book.toml``, the page templates, script and style, and
``book/node_modules`` with the pinned DataTables that ``npm ci --prefix book`` installs).
Writes the Sphinx sources to ``<output>/src`` and the site to ``<output>/html`` (open
``index.html``, or serve the folder with ``python3 -m http.server``).

Pages: the overview (mission, the studies with their citations, the verdict counts and
the interactive claims table), one results page per study (published vs reproduced, every
full-mode figure and table with its provenance), one page per study notebook (its stored
outputs, a "Launch on Binder" link), the SCTP model with its validation, the teaching
material and how to reproduce. It imports nothing of transportlab: the files are its only
input, so it keeps working while the package moves. Columns and verdict labels are taken
from the files as they are: a new column or label shows up without a change here.
"""

from __future__ import annotations

import argparse
import csv
import hashlib
import html
import json
import math
import os
import re
import shutil
import string
import subprocess
import sys
import time
import tomllib
import urllib.parse
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
PROVENANCE_FORMAT = "transportlab-provenance/1"

# What the page script and style need, copied from book/node_modules (npm ci --prefix book).
_DT = "vendor/datatables/"
VENDOR_FILES = {
    "vendor/jquery/jquery.min.js": "jquery/dist/jquery.min.js",
    "vendor/jquery/LICENSE.txt": "jquery/LICENSE.txt",
    _DT + "LICENSE.txt": "datatables.net/License.txt",
    _DT + "dataTables.min.js": "datatables.net/js/dataTables.min.js",
    _DT + "dataTables.dataTables.min.js": "datatables.net-dt/js/dataTables.dataTables.min.js",
    _DT + "dataTables.dataTables.min.css": "datatables.net-dt/css/dataTables.dataTables.min.css",
    _DT + "dataTables.select.min.js": "datatables.net-select/js/dataTables.select.min.js",
    _DT + "select.dataTables.min.js": "datatables.net-select-dt/js/select.dataTables.min.js",
    _DT + "select.dataTables.min.css": "datatables.net-select-dt/css/select.dataTables.min.css",
    _DT + "dataTables.searchPanes.min.js":
        "datatables.net-searchpanes/js/dataTables.searchPanes.min.js",
    _DT + "searchPanes.dataTables.min.js":
        "datatables.net-searchpanes-dt/js/searchPanes.dataTables.min.js",
    _DT + "searchPanes.dataTables.min.css":
        "datatables.net-searchpanes-dt/css/searchPanes.dataTables.min.css",
}  # fmt: skip

# Comparison tables show these first (a reader compares published with reproduced); every
# other column follows in the file's order, so a column added later (e.g. an NS-2 value)
# appears without a change here.
LEADING_COLUMNS = [
    "study", "protocol", "metric", "row", "unit", "published", "reproduced", "ci_low", "ci_high",
    "n_runs", "ratio", "verdict", "note",
]  # fmt: skip
# Prose columns get room to wrap.
LONG_COLUMNS = {"note", "evidence", "aligned_evidence", "description"}


class BookError(RuntimeError):
    """Something the book needs is missing or malformed (one line, before Sphinx runs)."""


# ----------------------------------------------------------------------------- reading


def read_csv(path: Path) -> tuple[list[str], list[list[str]]]:
    with open(path, newline="", encoding="utf-8") as stream:
        rows = list(csv.reader(stream))
    return (rows[0], rows[1:]) if rows else ([], [])


def reorder(header: list[str], rows: list[list[str]]) -> tuple[list[str], list[list[str]]]:
    """``LEADING_COLUMNS`` first (those present), then the others in their order."""
    order = [header.index(c) for c in LEADING_COLUMNS if c in header]
    order += [i for i in range(len(header)) if i not in order]
    padded = [row + [""] * (len(header) - len(row)) for row in rows]
    return [header[i] for i in order], [[row[i] for i in order] for row in padded]


def drop_column(header, rows, name):
    keep = [i for i, column in enumerate(header) if column != name]
    return [header[i] for i in keep], [[row[i] for i in keep] for row in rows]


def sha256_of(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def git(root: Path, *args: str) -> str | None:
    try:
        result = subprocess.run(
            ["git", "-C", str(root), *args], capture_output=True, text=True, timeout=30
        )
    except (OSError, subprocess.SubprocessError):
        return None
    return result.stdout.strip() if result.returncode == 0 else None


def _fences(lines: list[str]):
    """(line, inside a code fence) for each line."""
    fence = None
    for line in lines:
        stripped = line.lstrip()
        if stripped.startswith(("```", "~~~")):
            if fence is None:
                fence = stripped[:3]
                yield line, True
                continue
            if stripped.startswith(fence):
                fence = None
                yield line, True
                continue
        yield line, fence is not None


def markdown_sections(text: str) -> dict[str, str]:
    """Every heading of a markdown text (outside code fences) -> its section body."""
    lines = text.splitlines()
    headings = []
    for index, (line, in_code) in enumerate(_fences(lines)):
        match = None if in_code else re.match(r"(#{1,6})\s+(.*?)\s*#*\s*$", line)
        if match:
            headings.append((index, len(match.group(1)), match.group(2)))
    sections = {}
    for position, (index, level, title) in enumerate(headings):
        later = [i for i, lvl, _ in headings[position + 1 :] if lvl <= level]
        end = later[0] if later else len(lines)
        sections[title] = "\n".join(lines[index + 1 : end]).strip("\n")
    return sections


def section(text: str, title: str, where: str) -> str:
    sections = markdown_sections(text)
    if title not in sections:
        raise BookError(f"{where} has no section {title!r} (the book includes it)")
    return sections[title]


def markdown_table(text: str) -> list[dict[str, str]]:
    """The first pipe table of a markdown text as dicts (header cells as keys)."""
    rows = [line.strip() for line in text.splitlines() if line.strip().startswith("|")]
    if len(rows) < 2:
        return []

    def cells(line: str) -> list[str]:
        return [cell.strip() for cell in line.strip().strip("|").split("|")]

    header = cells(rows[0])
    return [dict(zip(header, cells(row), strict=False)) for row in rows[2:]]


def bare(cell: str) -> str:
    return cell.strip().strip("`").strip()


def shift_headings(text: str, by: int) -> str:
    """Move every markdown heading (outside code fences) ``by`` levels down."""
    return "\n".join(
        "#" * by + line if not in_code and re.match(r"#{1,6}\s", line) else line
        for line, in_code in _fences(text.splitlines())
    )


# ----------------------------------------------------------------------------- settings


@dataclass
class Binder:
    """Where "Launch on Binder" goes: mybinder.org's URL for the repository, if known."""

    repository: str  # gh/<owner>/<repo>, gl/<group>/<repo>, git/<url>; "" if unknown
    ref: str = "HEAD"
    url: str = "https://mybinder.org"

    def launch_url(self, notebook: str) -> str:
        if not self.repository:
            return self.url.rstrip("/") + "/"
        query = urllib.parse.urlencode({"labpath": notebook})
        return f"{self.url.rstrip('/')}/v2/{self.repository}/{self.ref}?{query}"

    def web_url(self) -> str | None:
        """The repository's web page (GitHub and GitLab), or None."""
        kind, _, name = self.repository.partition("/")
        host = {"gh": "https://github.com", "gl": "https://gitlab.com"}.get(kind)
        return f"{host}/{name}" if host and name else None

    def source_url(self, path: str) -> str | None:
        """The web page of a repository file (GitHub and GitLab), or None."""
        web = self.web_url()
        if not web:
            return None
        infix = "/-/blob/" if self.repository.startswith("gl/") else "/blob/"
        return f"{web}{infix}{self.ref}/{path}"


def binder_from_remote(url: str | None) -> str:
    """``gh/<owner>/<repo>`` (or ``gl/...``) from a GitHub or GitLab clone URL, else ""."""
    match = re.match(
        r"(?:https?://|ssh://git@|git@)(github\.com|gitlab\.com)[/:](.+?)(?:\.git)?/?$", url or ""
    )
    if not match:
        return ""
    return ("gh/" if match.group(1) == "github.com" else "gl/") + match.group(2)


def load_settings(root: Path) -> tuple[Binder, list[str]]:
    config = tomllib.loads((root / "book" / "book.toml").read_text(encoding="utf-8"))
    binder = config.get("binder", {})
    repository = (
        os.environ.get("BINDER_REPOSITORY")
        or binder.get("repository")
        or binder_from_remote(git(root, "remote", "get-url", "origin"))
    )
    panes = list(config.get("claims", {}).get("panes", ["study", "protocol", "verdict"]))
    binder = Binder(repository.strip("/"), binder.get("ref", "HEAD"), binder.get("url", Binder.url))
    return binder, panes


# ----------------------------------------------------------------------------- studies


@dataclass
class StudyInfo:
    name: str
    notebook: Path | None
    results: Path
    figures: Path
    provenance: dict[str, Any] | None
    title: str
    readme_row: dict[str, str] = field(default_factory=dict)
    seeds: list[dict[str, str]] = field(default_factory=list)

    @property
    def page(self) -> str:
        return f"studies/{self.name}"

    @property
    def notebook_page(self) -> str | None:
        return f"notebooks/{self.notebook.stem}" if self.notebook else None


def notebook_title(path: Path) -> str | None:
    notebook = json.loads(path.read_text(encoding="utf-8"))
    for cell in notebook.get("cells", []):
        if cell.get("cell_type") == "markdown":
            for line in "".join(cell.get("source", "")).splitlines():
                if line.startswith("# "):
                    return line[2:].strip()
    return None


def read_provenance(folder: Path) -> dict[str, Any] | None:
    path = folder / "provenance.json"
    if not path.is_file():
        return None
    document = json.loads(path.read_text(encoding="utf-8"))
    if document.get("format") != PROVENANCE_FORMAT:
        raise BookError(f"{path}: unknown provenance format {document.get('format')!r}")
    return document


def discover_studies(root: Path, readme: str) -> list[StudyInfo]:
    """Every study with a notebook ``notebooks/NN_<study>.ipynb`` or a results folder,
    in the notebooks' order."""
    notebooks = {p.stem[3:]: p for p in sorted((root / "notebooks").glob("[0-9][0-9]_*.ipynb"))}
    results_root = root / "data" / "results"
    folders = {
        p.name
        for p in results_root.iterdir()
        if p.is_dir() and p.name != "quick" and any(p.glob("*.csv"))
    }
    sections = markdown_sections(readme)
    readme_rows = {
        bare(r.get("study", "")): r for r in markdown_table(sections.get("The studies", ""))
    }
    seeds_table = markdown_table(sections.get("The reproduced studies (seeds)", ""))

    def order(name: str) -> tuple:
        return (name not in notebooks, str(notebooks.get(name, "")), name)

    studies = []
    for name in sorted(set(notebooks) | folders, key=order):
        notebook = notebooks.get(name)
        provenance = read_provenance(results_root / name)
        title = (provenance or {}).get("title") or (notebook and notebook_title(notebook)) or name
        seeds = [r for r in seeds_table if notebook and notebook.stem in r.get("notebooks", "")]
        studies.append(
            StudyInfo(
                name=name,
                notebook=notebook,
                results=results_root / name,
                figures=root / "figures" / name,
                provenance=provenance,
                title=title,
                readme_row=readme_rows.get(name, {}),
                seeds=seeds,
            )
        )
    return studies


# ----------------------------------------------------------------------------- links


class Links:
    """Rewrites the relative links of an included markdown file for its place in the book.

    A link to a file the book has a page for goes to that page; a link to any other
    repository file goes to the repository's web page when the Binder settings name a
    GitHub or GitLab repository, else it becomes the file's path as code; anchors and
    web addresses stay. Code blocks are left alone.
    """

    LINK = re.compile(r"(?<!!)\[([^\]]+)\]\(([^)\s]+)\)")

    def __init__(self, root: Path, binder: Binder, pages: dict[str, str]):
        self.root = root.resolve()
        self.binder = binder
        self.pages = pages  # repository path -> book page (without suffix)

    def rewrite(self, text: str, source: Path, page: str) -> str:
        up = "../" * page.count("/")

        def replace(match: re.Match) -> str:
            label, target = match.group(1), match.group(2)
            if re.match(r"[a-z]+:", target) or target.startswith("#"):
                return match.group(0)
            path, _, anchor = target.partition("#")
            try:
                relative = (source.parent / path).resolve().relative_to(self.root).as_posix()
            except ValueError:
                return label
            if relative in self.pages:
                fragment = f"#{anchor}" if anchor else ""
                return f"[{label}]({up}{self.pages[relative]}.html{fragment})"
            url = self.binder.source_url(relative)
            if url:
                return f"[{label}]({url})"
            return label if f"`{relative}`" in label else f"{label} (`{relative}`)"

        out, block = [], []
        for line, in_code in _fences(text.splitlines(keepends=True)):
            if in_code:
                out += [self.LINK.sub(replace, "".join(block)), line]
                block = []
            else:
                block.append(line)
        out.append(self.LINK.sub(replace, "".join(block)))
        return "".join(out)


# ----------------------------------------------------------------------------- HTML pieces


def esc(value: Any) -> str:
    return html.escape(str(value), quote=True)


def raw_html(content: str) -> str:
    return f"\n`````{{raw}} html\n{content}\n`````\n"


def slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")


def short(value: str | None, length: int) -> str:
    """``<code>`` with the first ``length`` characters, the whole value on hover."""
    return f'<code title="{esc(value)}">{esc((value or "")[:length])}</code>'


def format_cell(value: str) -> tuple[str, str | None]:
    """(shown text, sort key or None): floats to 4 significant digits, text as it is."""
    text = value.strip()
    try:
        number = float(text)
    except ValueError:
        return text, None
    if math.isnan(number):
        return "", None
    if re.fullmatch(r"[+-]?\d+", text):
        return text, text
    return f"{number:.4g}", repr(number)


def html_table(header, rows, table_id, panes=None, page_length=10, simple=False) -> str:
    """A table that book.js turns into a DataTable (sort, search, pages; ``simple``: sort
    only); ``panes``: the column indices that get a SearchPanes filter."""
    body = []
    for row in rows:
        cells = []
        for name, value in zip(header, row + [""] * (len(header) - len(row)), strict=True):
            shown, order = format_cell(value)
            classes = [f"verdict-{slug(shown)}"] if name.endswith("verdict") and shown else []
            classes += ["tl-long"] if name in LONG_COLUMNS else []
            attributes = f' class="{" ".join(classes)}"' if classes else ""
            if order is not None and shown != value.strip():
                attributes += f' data-order="{esc(order)}" title="{esc(value.strip())}"'
            cells.append(f"<td{attributes}>{esc(shown)}</td>")
        body.append("<tr>" + "".join(cells) + "</tr>")
    data = f' data-page-length="{page_length}"'
    data += f' data-panes="{",".join(map(str, panes))}"' if panes else ""
    data += ' data-simple="true"' if simple else ""
    head = "".join(f"<th>{esc(name)}</th>" for name in header)
    return (
        f'<table id="{esc(table_id)}" class="tl-datatable display compact"{data}>'
        f"<thead><tr>{head}</tr></thead><tbody>{''.join(body)}</tbody></table>"
    )


def definition_list(items: list[tuple[str, str]], css: str = "tl-provenance") -> str:
    rows = "".join(f"<dt>{esc(term)}</dt><dd>{value}</dd>" for term, value in items)
    return f'<div class="{css}"><dl>{rows}</dl></div>'


WARN = '<span class="tl-warning">{}</span>'


# ----------------------------------------------------------------------------- provenance


def svg_runs_label(svg: Path) -> str | None:
    """The 'n = N runs' label every saved figure carries (kept as a comment in its SVG)."""
    if not svg.is_file():
        return None
    match = re.search(r"<!-- (n = \d+ runs?) -->", svg.read_text("utf-8", "replace"))
    return match.group(1) if match else None


def runs_text(record: dict | None, document: dict, figure_label: str | None = None) -> str:
    runs = (record or {}).get("n_runs")
    if isinstance(runs, dict):
        return f"{runs.get('min')}-{runs.get('max')} runs per row"
    if isinstance(runs, int):
        return f"{runs} run{'s' if runs != 1 else ''}"
    if figure_label:
        return figure_label + " (the figure's label)"
    experiments = "; ".join(
        f"{e.get('name')}: {e.get('runs')} x {e.get('points')} points"
        for e in document.get("experiments", [])
    )
    return f"not stated by the file; runs x points per experiment: {experiments or '?'}"


@dataclass
class Provenance:
    """What the book says about one output file (a path relative to the project root)."""

    study: StudyInfo
    path: str
    root: Path

    def record(self) -> dict[str, Any] | None:
        outputs = (self.study.provenance or {}).get("outputs", [])
        return next((o for o in outputs if o.get("path") == self.path), None)

    def html(self, parameters_anchor: str, figure_label: str | None = None) -> str:
        document, record, name = self.study.provenance, self.record(), self.study.name
        items = [("study", f"<code>{esc(name)}</code> ({esc(self.study.title)})")]
        if not document:
            missing = f"no <code>data/results/{esc(name)}/provenance.json</code>"
            write = f"<code>transportlab reproduce --study {esc(name)}</code> writes it"
            items.append(("provenance", f"{WARN.format('not recorded')}: {missing}; {write}"))
            items.append(("runs", esc(figure_label or "not stated")))
            return definition_list(items)
        unknown = set(document.get("unknown", []))
        overrides = document.get("overrides") or {}
        changed = ", ".join(f"<code>{esc(k)}={esc(v)}</code>" for k, v in overrides.items())
        items.append(
            (
                "parameters",
                f"{esc(document.get('mode', '?'))} mode, "
                f'<a href="#{parameters_anchor}">the study\'s parameters</a>'
                + (f"; changed: {changed}" if changed else " (no overrides)"),
            )
        )
        if record is None:
            items.append(("provenance", WARN.format("this file is not in provenance.json")))
        items.append(("runs", esc(runs_text(record, document, figure_label))))
        fingerprint = document.get("code_fingerprint")
        if fingerprint:
            ns3 = esc(document.get("ns3") or "?")
            text = f"{short(fingerprint, 16)} (run step, native library, ns3 {ns3})"
        else:
            text = WARN.format("not recorded")
        items.append(("code fingerprint", text))
        commit = (record or {}).get("commit") or document.get("commit")
        label = "committed in" if (record or {}).get("commit") else "commit"
        dirty = " + uncommitted code changes" if document.get("dirty") else ""
        text = short(commit, 12) + esc(dirty) if commit else WARN.format("not recorded")
        items.append((label, text))
        command = (record or {}).get("command") or document.get("command", "")
        items.append(("command", f"<code>{esc(command)}</code>"))
        if record is not None:
            same = record.get("sha256") == sha256_of(self.root / self.path)
            check = "SHA-256 as recorded" if same else WARN.format("changed since recorded")
            items.append(("file", f"<code>{esc(self.path)}</code>, {check}"))
        if unknown:
            by = f" ({esc(document['derived_by'])})" if document.get("derived_by") else ""
            names = ", ".join(f"<code>{esc(u)}</code>" for u in sorted(unknown))
            items.append(("derived", f"after the fact{by}; not known: {names}"))
        return definition_list(items)


# ----------------------------------------------------------------------------- pages


class Book:
    """The pages of the book of the project at ``root``, written as Sphinx sources to ``src``."""

    def __init__(self, root: Path, src: Path):
        self.root = root
        self.src = src
        self.readme = (root / "README.md").read_text(encoding="utf-8")
        self.binder, self.panes = load_settings(root)
        self.studies = discover_studies(root, self.readme)
        pages = {
            "README.md": "index",
            "data/published/README.md": "index",
            "src/sctp/doc/sctp.md": "sctp-model",
            "assignments/README.md": "teaching",
        }
        for study in self.studies:
            if study.notebook:
                pages[f"notebooks/{study.notebook.name}"] = study.notebook_page
                pages[f"notebooks/{study.notebook.stem}.py"] = study.notebook_page
        self.links = Links(root, self.binder, pages)
        self.commit = git(root, "rev-parse", "HEAD")

    def study(self, name: str) -> StudyInfo | None:
        return next((s for s in self.studies if s.name == name), None)

    def relative(self, path: Path) -> str:
        return path.resolve().relative_to(self.root.resolve()).as_posix()

    def include(self, relative: str, page: str, title: str | None = None, shift: int = 0) -> str:
        """A markdown file of the repository (or one of its sections) for ``page``."""
        source = self.root / relative
        text = source.read_text(encoding="utf-8")
        if title is not None:
            text = section(text, title, relative)
        return shift_headings(self.links.rewrite(text, source, page), shift)

    def template(self, name: str, **values: str) -> str:
        text = (self.root / "book" / "pages" / name).read_text(encoding="utf-8")
        return string.Template(text).substitute(values)

    # -- overview --------------------------------------------------------------------

    def claims(self) -> tuple[list[str], list[list[str]]]:
        """Every comparison row of every study (data/results/summary.csv), leading columns first."""
        path = self.root / "data" / "results" / "summary.csv"
        if not path.is_file():
            raise BookError(f"{path} is missing (transportlab reproduce writes it)")
        header, rows = read_csv(path)
        for needed in ("study", "verdict"):
            if needed not in header:
                raise BookError(f"{path} has no column {needed!r}")
        return reorder(header, rows)

    def counts(self, header: list[str], rows: list[list[str]]):
        """Verdict counts per study, computed from the claims: the labels summary-counts.csv
        lists, then any other label in order of first use, then the total."""
        study, verdict = header.index("study"), header.index("verdict")
        counted = Counter((row[study], row[verdict]) for row in rows)
        known = self.root / "data" / "results" / "summary-counts.csv"
        labels = [c for c in read_csv(known)[0][1:] if c != "total"] if known.is_file() else []
        labels += [v for v in dict.fromkeys(row[verdict] for row in rows) if v not in labels]
        studies = list(dict.fromkeys(row[study] for row in rows))
        table = [
            [s, *(str(counted[s, v]) for v in labels), str(sum(counted[s, v] for v in labels))]
            for s in studies
        ]
        totals = [str(sum(counted[s, v] for s in studies)) for v in labels]
        table.append(["all", *totals, str(len(rows))])
        return ["study", *labels, "total"], table

    def overview(self) -> str:
        header, rows = self.claims()
        count_header, count_rows = self.counts(header, rows)
        panes = [i for i, n in enumerate(header) if n in self.panes or n.endswith("verdict")]
        studies = []
        for s in self.studies:
            line = f"* [{s.title}]({s.page}.md) (`{s.name}`)"
            if s.notebook:
                line += f", notebook [{s.notebook.stem}]({s.notebook_page}.ipynb)"
            studies.append(line)
        seeds = self.include("README.md", "index", "The reproduced studies (seeds)")
        for s in self.studies:
            if s.notebook:
                seeds = seeds.replace(f"`{s.notebook.stem}`", f"[`{s.notebook.stem}`]({s.page}.md)")
        seed_pages = [s.page for s in self.studies if not s.name.startswith("sctp_")]
        toctrees = "\n".join(
            [
                "```{toctree}", ":hidden:", ":caption: Studies", "", *seed_pages, "```", "",
                "```{toctree}", ":hidden:", ":caption: The SCTP model, teaching, reproducing", "",
                "sctp-model", "teaching", "reproduce", "```",
            ]
        )  # fmt: skip
        return self.template(
            "index.md",
            mission=self._mission(),
            toctrees=toctrees,
            studies="\n".join(studies),
            seeds=seeds,
            cited=self.include(
                "README.md", "index", "Works the studies cite that are reproduced here"
            ),
            n_claims=str(len(rows)),
            counts=raw_html(html_table(count_header, count_rows, "verdict-counts", simple=True)),
            panes=", ".join(header[i] for i in panes),
            claims=raw_html(html_table(header, rows, "claims", panes=panes, page_length=25)),
            claims_provenance=raw_html(self._claims_provenance(header, rows)),
            method=self.include(
                "data/published/README.md", "index", "The comparison method", shift=1
            ),
            citation=self._citation(),
        )

    def _mission(self) -> str:
        # The README's paragraph "transportlab is ..." and its example, up to its first section.
        match = re.search(r"^transportlab is .*?(?=^## )", self.readme, re.S | re.M)
        if match is None:
            raise BookError("README.md has no paragraph starting 'transportlab is ' (the mission)")
        return self.links.rewrite(match.group(0).strip(), self.root / "README.md", "index")

    def _claims_provenance(self, header: list[str], rows: list[list[str]]) -> str:
        study_at = header.index("study")
        runs_at = header.index("n_runs") if "n_runs" in header else None
        table = []
        for name in dict.fromkeys(row[study_at] for row in rows):
            info = self.study(name)
            document = (info.provenance if info else None) or {}
            runs = sorted(
                {int(float(r[runs_at])) for r in rows if r[study_at] == name and r[runs_at]}
                if runs_at is not None
                else set()
            )
            runs_shown = "?" if not runs else str(runs[0]) + (f"-{runs[-1]}" if runs[1:] else "")
            outputs = document.get("outputs", [])
            record = next((o for o in outputs if o.get("kind") == "comparison"), {})
            commit = record.get("commit") or document.get("commit")
            fingerprint = document.get("code_fingerprint")
            link = f'<a href="{esc(info.page)}.html">{esc(name)}</a>' if info else esc(name)
            table.append(
                f"<tr><td>{link}</td><td>{esc(document.get('mode', '?'))}</td>"
                f"<td>{esc(runs_shown)}</td>"
                f"<td>{short(fingerprint, 16) if fingerprint else 'not recorded'}</td>"
                f"<td>{short(commit, 12) if commit else 'not recorded'}</td>"
                f"<td><code>{esc(document.get('command', ''))}</code></td></tr>"
            )
        head = "".join(
            f"<th>{h}</th>"
            for h in ("study", "mode", "runs per row", "code fingerprint", "commit", "command")
        )
        return (
            '<table id="claims-provenance" class="tl-datatable display compact" '
            f'data-simple="true"><thead><tr>{head}</tr></thead><tbody>{"".join(table)}</tbody>'
            "</table>"
        )

    def _citation(self) -> str:
        import yaml  # noqa: PLC0415 - PyYAML comes with myst-parser

        cff = yaml.safe_load((self.root / "CITATION.cff").read_text(encoding="utf-8"))
        authors = ", ".join(
            a.get("name") or f"{a.get('given-names', '')} {a.get('family-names', '')}".strip()
            for a in cff.get("authors", [])
        )
        return (
            f"{authors}. *{cff.get('title')}*. Version {cff.get('version')}, "
            f"license {cff.get('license')} (`CITATION.cff`). Please cite the reproduced "
            "studies above as well."
        )

    # -- study pages -------------------------------------------------------------------

    def study_page(self, study: StudyInfo) -> str:
        parts = [f"# {study.title}", "", f"**Study** `{study.name}`."]
        reproduces = study.readme_row.get("reproduces")
        beyond = study.readme_row.get("beyond the seed")
        if reproduces:
            parts += ["", f"**Reproduces:** {reproduces}"]
        if beyond and beyond != "—":
            parts += ["", f"**Beyond the seed:** {beyond}"]
        if study.seeds:
            parts += ["", "**The seed studies** (README, References):", ""]
            parts += [
                f"* seed {bare(s.get('seed', ''))}: {s.get('study', '')}" for s in study.seeds
            ]
        if study.notebook:
            notebook = f"[{study.notebook.stem}](../{study.notebook_page}.ipynb)"
            parts += [
                "",
                f"The notebook, with the outputs it is committed with (quick mode): {notebook}.",
                raw_html(self.binder_button(study)),
            ]
        headline = self._headline(study.name)
        if headline:
            parts += ["", ":::{admonition} In short (README, Results)", ":class: note", ""]
            parts += [headline, ":::"]
        if study.notebook:
            parts += ["", "```{toctree}", ":hidden:", "", f"../{study.notebook_page}", "```"]
        parts += self._results_sections(study)
        return "\n".join(parts) + "\n"

    def _headline(self, name: str) -> str | None:
        results = markdown_sections(self.readme).get(
            "Results (full mode, committed in `data/results/`)", ""
        )
        row = next((r for r in markdown_table(results) if bare(r.get("study", "")) == name), {})
        return row.get("headline")

    def binder_button(self, study: StudyInfo) -> str:
        url = self.binder.launch_url(f"notebooks/{study.notebook.name}")
        note = ""
        if not self.binder.repository:
            note = (
                ' <span class="tl-binder-note">(the repository\'s public address is not set: '
                "<code>make book BINDER_REPOSITORY=gh/&lt;owner&gt;/&lt;repo&gt;</code> or "
                "<code>book/book.toml</code>; the link opens mybinder.org)</span>"
            )
        return f'<p><a class="tl-binder-button" href="{esc(url)}">Launch on Binder</a>{note}</p>'

    def _results_sections(self, study: StudyInfo) -> list[str]:
        parts: list[str] = []
        anchor = f"parameters-{slug(study.name)}"
        comparison = study.results / "comparison.csv"
        if comparison.is_file():
            header, rows = reorder(*read_csv(comparison))
            if "study" in header and {r[header.index("study")] for r in rows} <= {study.name}:
                header, rows = drop_column(header, rows, "study")
            table = html_table(header, rows, f"comparison-{slug(study.name)}", page_length=25)
            provenance = Provenance(study, self.relative(comparison), self.root).html(anchor)
            parts += [
                "",
                "## Published vs reproduced",
                "",
                f"`comparison.csv`: the {len(rows)} published numbers of this study beside the "
                "full-mode reproduction (95 % interval, runs, verdict and the deciding note).",
                raw_html(table + provenance),
            ]
        pngs = sorted(study.figures.glob("*.png")) if study.figures.is_dir() else []
        if pngs:
            parts += ["", "## Figures (full mode)", ""]
        for png in pngs:
            svg = png.with_suffix(".svg")
            links = f'<a href="../{esc(self.relative(png))}">PNG</a>'
            if svg.is_file():
                links += f', <a href="../{esc(self.relative(svg))}">SVG</a>'
            figure = (
                f'<figure class="tl-figure" id="figure-{slug(study.name)}-{slug(png.stem)}">'
                f'<img src="../{esc(self.relative(png))}" alt="{esc(study.name)}: {esc(png.stem)}">'
                f"<figcaption><code>{esc(png.stem)}</code> ({links})</figcaption></figure>"
            )
            provenance = Provenance(study, self.relative(png), self.root)
            parts += [
                f"### {png.stem}",
                raw_html(figure + provenance.html(anchor, svg_runs_label(svg))),
            ]
        tables = [p for p in sorted(study.results.glob("*.csv")) if p.name != "comparison.csv"]
        if tables:
            parts += ["", "## Result tables (full mode)", ""]
        for path in tables:
            header, rows = read_csv(path)
            summary = (
                f"<summary><code>{esc(path.name)}</code>: {len(rows)} rows, {len(header)} "
                f'columns (<a href="../{esc(self.relative(path))}">CSV</a>)</summary>'
            )
            table = html_table(header, rows, f"table-{slug(study.name)}-{slug(path.stem)}")
            provenance = Provenance(study, self.relative(path), self.root).html(anchor)
            details = f'<details class="tl-table-details">{summary}{table}</details>'
            parts += [f"### {path.stem}", raw_html(details + provenance)]
        notes = study.results / "README.md"
        if notes.is_file():
            relative = self.relative(notes)
            parts += ["", "## Notes on these results", "", f"From `{relative}`:", ""]
            parts += [self.include(relative, study.page, shift=2)]
        parameters = f'<span id="{anchor}"></span>' + self._parameters(study)
        parts += ["", "## Parameters and experiments", "", raw_html(parameters)]
        return parts

    def _parameters(self, study: StudyInfo) -> str:
        document = study.provenance
        if not document:
            return (
                f"<p>{WARN.format('No provenance.json')}: the parameters of these results "
                f"were not recorded; <code>transportlab reproduce --study {esc(study.name)}"
                "</code> writes it.</p>"
            )
        rows = [
            [name, value if isinstance(value, str) else json.dumps(value)]
            for name, value in document.get("parameters", {}).items()
        ]
        experiments = document.get("experiments", [])
        keys = list(dict.fromkeys(k for e in experiments for k in e))
        experiment_rows = [[str(e.get(k, "")) for k in keys] for e in experiments]
        note = f" {esc(document['note'])}" if document.get("note") else ""
        relative = self.relative(study.results / "provenance.json")
        return (
            f"<p>{esc(document.get('mode', '?'))} mode, seed {esc(document.get('seed', '?'))}, "
            f"command <code>{esc(document.get('command', ''))}</code>.{note} As recorded: "
            f'<a href="../{esc(relative)}"><code>{esc(relative)}</code></a>.</p>'
            "<p>The experiments (runs per point, points, simulations):</p>"
            + html_table(keys, experiment_rows, f"experiments-{slug(study.name)}", simple=True)
            + "<p>The base parameters of every experiment (each experiment sets its own axes):</p>"
            + html_table(["parameter", "value"], rows, f"{study.name}-parameters", simple=True)
        )

    # -- notebooks ---------------------------------------------------------------------

    def notebook_copy(self, study: StudyInfo) -> dict[str, Any]:
        """The committed notebook with the book's header cell and its links rewritten."""
        notebook = json.loads(study.notebook.read_text(encoding="utf-8"))
        committed = git(self.root, "log", "-1", "--format=%H", "--", self.relative(study.notebook))
        quick = f"transportlab reproduce --quick --study {study.name} --notebook"
        items = [
            ("study", f"<code>{esc(study.name)}</code> ({esc(study.title)})"),
            (
                "outputs",
                "stored in the committed notebook, executed in quick mode (<code>quick = True"
                "</code>: few runs per point, a check of the pipeline, not the study's result); "
                "the book runs nothing. Each figure states its runs in its label.",
            ),
            ("parameters", "the <code>parameters</code> cell below (papermill), quick mode"),
            ("committed in", short(committed, 12) if committed else "not known (no git)"),
            (
                "regenerate",
                f"<code>make notebooks NOTEBOOKS=notebooks/{esc(study.notebook.stem)}.py</code> "
                f"(or <code>{esc(quick)}</code>, into <code>output/quick/</code>)",
            ),
            (
                "full mode",
                f'<a href="../{esc(study.page)}.html">the study\'s results page</a>, '
                "each figure and table with its provenance",
            ),
        ]
        header = raw_html(self.binder_button(study) + definition_list(items))
        notebook["cells"].insert(
            0, {"cell_type": "markdown", "id": "book-header", "metadata": {}, "source": header}
        )
        for cell in notebook["cells"][1:]:
            if cell.get("cell_type") == "markdown":
                source = "".join(cell.get("source", ""))
                cell["source"] = self.links.rewrite(source, study.notebook, study.notebook_page)
        return notebook

    # -- SCTP model, teaching, reproducing --------------------------------------------------

    def sctp_page(self) -> str:
        parts = [
            self.include("src/sctp/doc/sctp.md", "sctp-model"),
            "",
            "## Validation",
            "",
            self.include(
                "README.md", "sctp-model", "How the SCTP model is validated: against usrsctp"
            ),
        ]
        validations = [s for s in self.studies if s.name.startswith("sctp_")]
        for study in validations:
            where = f"The results page: [{study.name}]({study.page}.md)"
            if study.notebook:
                where += f"; the notebook: [{study.notebook.stem}]({study.notebook_page}.ipynb)"
            parts += ["", f"### {study.title}", "", where + ".", "", *self._verdict_summary(study)]
        parts += ["", "```{toctree}", ":hidden:", "", *(s.page for s in validations), "```", ""]
        return "\n".join(parts)

    def _verdict_summary(self, study: StudyInfo) -> list[str]:
        """Counts of each verdict column of a validation's tables (e.g. agrees, explained)."""
        lines = []
        for path in sorted(study.results.glob("*.csv")):
            header, rows = read_csv(path)
            for index, name in enumerate(header):
                if name.endswith("verdict") and rows:
                    counts = Counter(row[index] for row in rows if index < len(row))
                    text = ", ".join(f"{n} `{label}`" for label, n in counts.most_common())
                    lines.append(f"* `{path.name}`, `{name}`: {len(rows)} scenarios: {text}")
        return lines

    def teaching_page(self) -> str:
        return self.include("assignments/README.md", "teaching")

    def reproduce_page(self) -> str:
        top = self.readme.split("\n## ", 1)[0]
        commands = re.search(r"```sh\n.*?```", top, re.S)
        rows = []
        for study in self.studies:
            document = study.provenance or {}
            experiments = document.get("experiments", [])
            known = all(e.get("simulations") is not None for e in experiments) and experiments
            simulations = str(sum(e["simulations"] for e in experiments)) if known else "?"
            command = document.get("command") or f"transportlab reproduce --study {study.name}"
            rows.append([study.name, command, simulations])
        header = ["study", "writes its full-mode files again", "simulations (full mode)"]
        return self.template(
            "reproduce.md",
            commands=commands.group(0) if commands else "",
            commands_table=raw_html(html_table(header, rows, "reproduce-commands", simple=True)),
            readme_section=self.include(
                "README.md", "reproduce", "Reproducing, sweeping, papermill", shift=1
            ),
        )

    # -- writing -----------------------------------------------------------------------

    def write(self) -> None:
        """Every page, the notebooks, the figures and tables, the static files, into ``src``."""
        if self.src.exists():
            shutil.rmtree(self.src)
        (self.src / "studies").mkdir(parents=True)
        (self.src / "notebooks").mkdir()
        book = self.root / "book"
        shutil.copy2(book / "conf.py", self.src / "conf.py")
        shutil.copytree(book / "_static", self.src / "_static")
        vendor(book / "node_modules", self.src / "_static")
        built = f" from commit <code>{esc(self.commit[:12])}</code>" if self.commit else ""
        settings = {
            "footer": f"Built{built} by <code>make book</code>.",
            "repository_url": self.binder.web_url(),
            "repository_branch": self.binder.ref,
        }
        (self.src / "_book.json").write_text(json.dumps(settings, indent=1), encoding="utf-8")
        # Figures and tables keep their repository paths in the site (html_extra_path).
        extra = self.src / "_extra"
        for study in self.studies:
            if study.figures.is_dir():
                shutil.copytree(study.figures, extra / "figures" / study.name)
            if study.results.is_dir():
                target = extra / "data" / "results" / study.name
                shutil.copytree(study.results, target, ignore=shutil.ignore_patterns("*.md"))
        pages = {
            "index.md": self.overview(),
            "sctp-model.md": self.sctp_page(),
            "teaching.md": self.teaching_page(),
            "reproduce.md": self.reproduce_page(),
        }
        for study in self.studies:
            pages[f"{study.page}.md"] = self.study_page(study)
            if study.notebook:
                pages[f"{study.notebook_page}.ipynb"] = json.dumps(self.notebook_copy(study))
        for name, text in pages.items():
            (self.src / name).write_text(text, encoding="utf-8")


def vendor(node_modules: Path, static: Path) -> None:
    """Copy the pinned DataTables and jQuery files into the site's static folder."""
    missing = [source for source in VENDOR_FILES.values() if not (node_modules / source).is_file()]
    if missing:
        raise BookError(
            f"{node_modules} lacks {missing[0]} (and {len(missing) - 1} more): "
            "run `npm ci --prefix book` (make book does)"
        )
    for target, source in VENDOR_FILES.items():
        (static / target).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(node_modules / source, static / target)


def run_sphinx(src: Path, html_dir: Path, jobs: int) -> None:
    """sphinx-build, failing on any warning (a broken reference, a missing file)."""
    if html_dir.exists():
        shutil.rmtree(html_dir)
    doctrees = src.parent / "doctrees"
    command = [sys.executable, "-m", "sphinx", "-b", "html", "-q", "-W", "--keep-going",
               "-j", str(jobs), "-d", str(doctrees), str(src), str(html_dir)]  # fmt: skip
    result = subprocess.run(command)
    if result.returncode:
        raise BookError(f"sphinx-build failed (exit {result.returncode}); its warnings are above")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--output", type=Path, default=ROOT / "build" / "book")
    parser.add_argument("--jobs", type=int, default=min(2, os.cpu_count() or 1))
    parser.add_argument("--sources-only", action="store_true", help="write the sources only")
    args = parser.parse_args(argv)
    started = time.monotonic()
    output = args.output.resolve()
    try:
        Book(ROOT, output / "src").write()
        if not args.sources_only:
            run_sphinx(output / "src", output / "html", args.jobs)
    except BookError as exc:
        print(f"make book: {exc}", file=sys.stderr)
        return 1
    where = output / ("src" if args.sources_only else "html/index.html")
    print(f"book: {where} ({time.monotonic() - started:.1f} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
