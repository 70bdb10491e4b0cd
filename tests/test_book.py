"""The results book (`make book`, scripts/build_book.py).

The page sources are checked against the committed files (no Sphinx needed); the
browser test builds the whole book from the committed files into a temporary folder,
serves it on localhost and visits every page in headless Chromium: it fails on a
broken link or anchor, a missing image, a failed or outside request, or a JavaScript
error, checks the Binder links and the provenance beside every figure, filters the
claims table to one study and saves a screenshot of every study page under
build/book-screenshots/.
"""

from __future__ import annotations

import csv
import functools
import http.server
import importlib.util
import json
import shutil
import sys
import threading
import urllib.parse
from collections import Counter
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SCREENSHOTS = ROOT / "build" / "book-screenshots"
CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_FLAGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
]  # fmt: skip


def _load_builder():
    spec = importlib.util.spec_from_file_location("build_book", ROOT / "scripts" / "build_book.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules["build_book"] = module
    spec.loader.exec_module(module)
    return module


build_book = _load_builder()


def _csv(path: Path) -> list[dict[str, str]]:
    with open(path, newline="", encoding="utf-8") as stream:
        return list(csv.DictReader(stream))


# ----------------------------------------------------------------------------- sources


@pytest.fixture(scope="module")
def book(tmp_path_factory):
    return build_book.Book(ROOT, tmp_path_factory.mktemp("book") / "src")


def test_verdict_counts_are_those_of_the_committed_claims(book):
    header, rows = book.claims()
    count_header, count_rows = book.counts(header, rows)
    committed = {row["study"]: row for row in _csv(ROOT / "data/results/summary-counts.csv")}
    assert {row[0] for row in count_rows} == set(committed)
    for row in count_rows:
        for label, value in zip(count_header[1:], row[1:], strict=True):
            assert int(value) == int(committed[row[0]][label]), (row[0], label)


def test_every_study_notebook_has_a_page_and_every_seed_study_its_citation(book):
    notebooks = sorted(p.stem for p in (ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb"))
    assert sorted(s.notebook.stem for s in book.studies if s.notebook) == notebooks
    cited = {s.name for s in book.studies if s.seeds}
    # every study the README names a seed for (00 is the template, 06 the usrsctp validation)
    assert cited == {
        "wired_best_effort", "voip_cjm", "sip_over_sctp", "wsn_reporting_interval",
        "multihoming_failover",
    }  # fmt: skip
    page = book.study_page(book.study("sip_over_sctp"))
    assert "Thomas Kwok-Cheong Pang" in page and "Simon Fraser University" in page


def test_a_new_column_and_a_new_verdict_label_show_up_without_code_changes(tmp_path):
    # a copy of the project's book inputs with an NS-2 column and a label nobody declared
    for relative in (
        "README.md", "CITATION.cff", "book/book.toml", "book/pages/index.md",
        "data/published/README.md",
    ):  # fmt: skip
        (tmp_path / relative).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(ROOT / relative, tmp_path / relative)
    results = tmp_path / "data" / "results"
    shutil.copytree(ROOT / "data/results/voip_cjm", results / "voip_cjm")
    rows = _csv(ROOT / "data/results/summary.csv")[:3]
    for row in rows:
        row["ns2"] = "1.5"
        row["ns2_verdict"] = "ns2-agrees"
    rows[0]["verdict"] = "not-yet-a-label"
    with open(results / "summary.csv", "w", newline="") as stream:
        writer = csv.DictWriter(stream, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)
    (tmp_path / "notebooks").mkdir()
    page = build_book.Book(tmp_path, tmp_path / "src").overview()
    assert "<th>ns2</th>" in page and "<th>ns2_verdict</th>" in page
    assert "<th>not-yet-a-label</th>" in page  # a column of the verdict counts
    assert 'class="verdict-not-yet-a-label"' in page
    header, _ = build_book.reorder(list(rows[0]), [])  # as the page shows them
    assert header.index("ns2") > header.index("note")  # new columns after the leading ones
    panes = {header.index(n) for n in ("study", "protocol", "verdict", "ns2_verdict")}
    assert f'data-panes="{",".join(map(str, sorted(panes)))}"' in page


def test_binder_links():
    binder = build_book.Binder("gh/someone/transportlab")
    assert binder.launch_url("notebooks/01_wired_best_effort.ipynb") == (
        "https://mybinder.org/v2/gh/someone/transportlab/HEAD"
        "?labpath=notebooks%2F01_wired_best_effort.ipynb"
    )
    assert binder.source_url("src/sctp/doc/sctp.md") == (
        "https://github.com/someone/transportlab/blob/HEAD/src/sctp/doc/sctp.md"
    )
    assert build_book.Binder("").launch_url("notebooks/x.ipynb") == "https://mybinder.org/"
    assert build_book.binder_from_remote("git@github.com:a/b.git") == "gh/a/b"
    assert build_book.binder_from_remote("https://gitlab.com/g/s/r") == "gl/g/s/r"
    assert build_book.binder_from_remote("/work/local/clone") == ""


def test_included_markdown_links_go_to_book_pages_or_name_the_file(book):
    text = (
        "[guide](assignments/README.md#time), [one](assignments/01_bottleneck_basics/x.py), "
        "[web](https://example.org), [here](#references), `[not](a link)`\n"
        "```\n[in](code.py)\n```\n"
    )
    rewritten = book.links.rewrite(text, ROOT / "README.md", "studies/x")
    if book.binder.repository:
        pytest.skip("a repository address is configured: file links go to its web pages")
    assert "[guide](../teaching.html#time)" in rewritten
    assert "one (`assignments/01_bottleneck_basics/x.py`)" in rewritten
    assert "[web](https://example.org)" in rewritten and "[here](#references)" in rewritten
    assert "[in](code.py)" in rewritten  # code stays code


def test_provenance_box_flags_a_file_changed_after_its_provenance(tmp_path):
    (tmp_path / "data/results/s").mkdir(parents=True)
    table = tmp_path / "data/results/s/t.csv"
    table.write_text("a,n_runs\n1,5\n")
    document = {
        "format": build_book.PROVENANCE_FORMAT, "study": "s", "mode": "full",
        "command": "transportlab reproduce --study s", "code_fingerprint": "f" * 64,
        "commit": "c" * 40, "dirty": False, "experiments": [], "unknown": [],
        "outputs": [{"path": "data/results/s/t.csv", "kind": "table", "n_runs": 5,
                     "sha256": build_book.sha256_of(table)}],
    }  # fmt: skip
    study = build_book.StudyInfo("s", None, tmp_path / "data/results/s", tmp_path, document, "S")
    box = build_book.Provenance(study, "data/results/s/t.csv", tmp_path).html("p")
    assert "SHA-256 as recorded" in box and "5 runs" in box and "ffffffffffffffff" in box
    assert "transportlab reproduce --study s" in box and "cccccccccccc" in box
    table.write_text("a,n_runs\n2,5\n")
    box = build_book.Provenance(study, "data/results/s/t.csv", tmp_path).html("p")
    assert "changed since recorded" in box


def test_every_committed_output_has_provenance(book):
    """Each committed full-mode figure and table is listed, with its SHA-256, in its
    study's provenance.json (regenerate: transportlab reproduce --study <study>)."""
    for study in book.studies:
        assert study.provenance, f"{study.name}: no data/results/{study.name}/provenance.json"
        recorded = {o["path"]: o["sha256"] for o in study.provenance["outputs"]}
        files = [*study.results.glob("*.csv"), *study.figures.glob("*.png")]
        for path in files:
            relative = path.relative_to(ROOT).as_posix()
            assert relative in recorded, f"{relative} has no provenance"
            assert recorded[relative] == build_book.sha256_of(path), f"{relative} changed"


# ----------------------------------------------------------------------------- browser


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    pytest.importorskip("myst_nb", reason="the book's Sphinx packages: make book installs them")
    output = tmp_path_factory.mktemp("book-site")
    assert build_book.main(["--output", str(output)]) == 0
    return output / "html"


@pytest.fixture(scope="module")
def server(site):
    handler = functools.partial(_QuietHandler, directory=str(site))
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}/"
    httpd.shutdown()
    httpd.server_close()


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


@pytest.fixture(scope="module")
def browser(tmp_path_factory):
    if not CHROMIUM.exists():
        pytest.skip(f"no Chromium at {CHROMIUM} (apt-get install chromium; .ci/run does)")
    sync_api = pytest.importorskip("playwright.sync_api", reason="playwright (test extra)")
    profile = tmp_path_factory.mktemp("chromium-profile")
    with sync_api.sync_playwright() as playwright:
        context = playwright.chromium.launch_persistent_context(
            str(profile), executable_path=str(CHROMIUM), headless=True, args=CHROMIUM_FLAGS,
            viewport={"width": 1400, "height": 1000},
        )  # fmt: skip
        yield context
        context.close()


class Visit:
    """Loads one page and records everything that went wrong on it."""

    def __init__(self, context, origin: str):
        self.context = context
        self.origin = origin
        self.problems: list[str] = []

    def open(self, url: str):
        page = self.context.new_page()
        where = url.removeprefix(self.origin)

        def on_console(message):
            if message.type == "error":
                self.problems.append(f"{where}: console error: {message.text}")

        def on_response(response):
            if response.status >= 400:
                self.problems.append(f"{where}: HTTP {response.status} for {response.url}")

        def on_request(route):
            if route.request.url.startswith(self.origin) or route.request.url.startswith("data:"):
                route.continue_()
            else:
                self.problems.append(f"{where}: request outside the book: {route.request.url}")
                route.abort()

        page.on("console", on_console)
        page.on("pageerror", lambda error: self.problems.append(f"{where}: JavaScript: {error}"))
        page.on("response", on_response)
        page.on("requestfailed", lambda r: self.problems.append(f"{where}: failed: {r.url}"))
        page.route("**/*", on_request)
        page.goto(url, wait_until="load")
        page.wait_for_load_state("networkidle")
        broken = page.evaluate(
            "Array.from(document.images).filter(i => !i.complete || i.naturalWidth === 0)"
            ".map(i => i.currentSrc || i.src)"
        )
        self.problems += [f"{where}: image not shown: {src}" for src in broken]
        return page


@pytest.mark.browser
def test_book_in_a_browser(site, server, browser):
    visit = Visit(browser, server)
    pages: dict[str, set[str]] = {}  # page URL -> element ids
    links: list[tuple[str, str]] = []  # (from page, absolute href)
    queue = [server + "index.html"]
    notebook_pages, study_pages = [], []
    while queue:
        url = queue.pop(0)
        if url in pages:
            continue
        page = visit.open(url)
        pages[url] = set(
            page.evaluate("Array.from(document.querySelectorAll('[id]')).map(e => e.id)")
        )
        for href in page.evaluate(
            "Array.from(document.querySelectorAll('a[href]')).map(a => a.href)"
        ):
            links.append((url, href))
            target = href.split("#")[0]
            if target.startswith(server) and target.endswith(".html") and target not in pages:
                queue.append(target)
        path = url.removeprefix(server)
        if path.startswith("notebooks/"):
            notebook_pages.append(path)
            buttons = page.locator("a.tl-binder-button")
            assert buttons.count() >= 1, f"{path}: no Launch on Binder link"
            assert buttons.first.get_attribute("href").startswith("https://mybinder.org/")
            assert page.locator(".cell_output img").count() >= 1, f"{path}: no stored output figure"
        if path.startswith("studies/"):
            study_pages.append(path)
            _check_study_page(page, path)
            SCREENSHOTS.mkdir(parents=True, exist_ok=True)
            page.screenshot(path=str(SCREENSHOTS / f"{Path(path).stem}.png"), full_page=True)
        page.close()

    for source, href in links:
        target, _, fragment = href.partition("#")
        if not target.startswith(server):
            continue  # the web (Binder, RFCs): not reachable from here, not checked
        if target.endswith(".html") or target.endswith("/"):
            target = target if target.endswith(".html") else target + "index.html"
            if fragment and urllib.parse.unquote(fragment) not in pages.get(target, set()):
                visit.problems.append(f"{source}: broken anchor {href}")
        else:
            response = browser.request.get(target)
            if not response.ok:
                visit.problems.append(f"{source}: broken link {href} (HTTP {response.status})")

    notebooks = sorted(p.stem for p in (ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb"))
    assert sorted(Path(p).stem for p in notebook_pages) == notebooks
    assert len(study_pages) == len(notebooks)
    assert not visit.problems, "\n".join(visit.problems)


def _check_study_page(page, path: str) -> None:
    study = Path(path).stem
    figures = page.locator("figure.tl-figure")
    committed = sorted((ROOT / "figures" / study).glob("*.png"))
    assert figures.count() == len(committed), f"{path}: {figures.count()} figures"
    for index in range(figures.count()):
        provenance = figures.nth(index).locator("xpath=following-sibling::div[1]")
        text = provenance.inner_text()
        assert "tl-provenance" in (provenance.get_attribute("class") or ""), path
        for field in ("study", "parameters", "runs", "code fingerprint", "command"):
            assert field in text, f"{path}: figure {index} provenance lacks {field}"
        # the study's command, or that of a study module writing the file itself
        commands = (f"transportlab reproduce --study {study}", f"transportlab.studies.{study}.")
        assert any(command in text for command in commands), f"{path}: figure {index} command"


@pytest.mark.browser
def test_claims_table_filters_to_one_study(site, server, browser):
    claims = _csv(ROOT / "data/results/summary.csv")
    counts = Counter(row["study"] for row in claims)
    study = "sip_over_sctp"
    visit = Visit(browser, server)
    page = visit.open(server + "index.html")
    # everything at first
    info = page.evaluate("() => new DataTable.Api('#claims').page.info()")
    assert info["recordsDisplay"] == len(claims)
    # click the study in the study pane (SearchPanes), show every row, read the table
    pane = page.locator("div.dtsp-searchPane").filter(
        has=page.locator("input[placeholder='study']")
    )
    pane.locator("span.dtsp-name", has_text=study).first.click()
    page.locator("#claims_wrapper select").first.select_option("-1")
    page.wait_for_function(
        f"() => new DataTable.Api('#claims').page.info().recordsDisplay === {counts[study]}"
    )
    headers = page.evaluate(
        "() => new DataTable.Api('#claims').columns().header().toArray().map(h => h.textContent)"
    )
    column = headers.index("study")
    shown = page.locator("#claims tbody tr").evaluate_all(
        f"rows => rows.map(r => r.children[{column}].textContent)"
    )
    assert len(shown) == counts[study] and set(shown) == {study}
    assert not visit.problems, "\n".join(visit.problems)
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / f"claims-filtered-{study}.png"))


def test_the_built_site_commits_nothing():
    ignored = (ROOT / ".gitignore").read_text().split()
    assert "build/" in ignored or "/build/" in ignored  # build/book and the screenshots
    assert "node_modules/" in ignored or "/book/node_modules/" in ignored
    assert json.loads((ROOT / "book" / "package-lock.json").read_text())["lockfileVersion"] >= 2
