"""The notebooks as people use them: JupyterLab in headless Chromium (issue 27).

A real ``jupyter lab`` server (token, no browser, on a free port) serves a temporary copy
of the project's committed files (``TRANSPORTLAB_ROOT``) with a fresh results cache
(``TRANSPORTLAB_RESULTS_CACHE``) and the project's kernel (``notebooks.ensure_kernel``);
Playwright drives Debian's Chromium through JupyterLab's own menus and widgets:

* item 1: notebook 00, Run > Run All Cells, wait until the kernel is idle, Run All again in
  the same kernel: no cell shows a traceback (the second Run All used to stop in the
  ``start`` cell with ``NotebookParameterError``) and each cell nbval checks shows its
  committed quick-mode text both times;
* item 3: in the Explore section, a number box changed by typing, **Run** pressed: the
  status line names the point's folder under ``data/explore/``, the progress bar is a
  widget (no stderr output), and every committed file under ``data/results`` and
  ``figures`` is byte for byte as before.

The notebook's stored outputs are removed from the copy, so everything the tests read
was produced in this session. Skipped (with the reason) only without Chromium, Playwright
or JupyterLab; ``make test`` installs all three.
"""

from __future__ import annotations

import hashlib
import importlib.util
import json
import os
import re
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import nbformat
import pytest

from transportlab import notebooks

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOK = "notebooks/00_bottleneck_example.ipynb"
SCREENSHOTS = ROOT / "build" / "lab-screenshots"
#: the browser scripts/ensure-chromium.sh installs (Debian's chromium), found on PATH
CHROMIUM = shutil.which("chromium")
CHROMIUM_FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run"]
#: JupyterLab's output MIME types for stream text (errors are shown as stderr too)
STDOUT = "application/vnd.jupyter.stdout"
STDERR = "application/vnd.jupyter.stderr"
#: generous: a cold cache simulates 8 points on a loaded 2-core machine
RUN_ALL_TIMEOUT_MS = 600_000
#: the committed files exploring must never change
COMMITTED = ("data/results", "figures")

pytestmark = [pytest.mark.browser, pytest.mark.slow]


# ----------------------------------------------------------------------------- fixtures


def _digests(root: Path) -> dict[str, str]:
    return {
        path.relative_to(root).as_posix(): hashlib.sha256(path.read_bytes()).hexdigest()
        for folder in COMMITTED
        for path in sorted((root / folder).rglob("*"))
        if path.is_file()
    }


def _git_status(*paths: str) -> str:
    return subprocess.run(
        ["git", "status", "--porcelain", "--", *paths],
        cwd=ROOT, capture_output=True, text=True, check=True,
    ).stdout  # fmt: skip


@pytest.fixture(scope="module")
def project(tmp_path_factory) -> Path:
    """The committed project files a notebook reads (pyproject.toml, data/, figures/,
    notebook 00 without its stored outputs) in a temporary folder."""
    copy = tmp_path_factory.mktemp("lab") / "project"
    listed = subprocess.run(
        ["git", "ls-files", "-z", "--", "pyproject.toml", "data", "figures", NOTEBOOK],
        cwd=ROOT, capture_output=True, check=True,
    ).stdout.decode().split("\0")  # fmt: skip
    for relative in filter(None, listed):
        (copy / relative).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(ROOT / relative, copy / relative)
    notebook = nbformat.read(copy / NOTEBOOK, 4)
    for cell in notebook.cells:
        if cell.cell_type == "code":
            cell.outputs, cell.execution_count = [], None
    nbformat.write(notebook, copy / NOTEBOOK)
    return copy


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@pytest.fixture(scope="module")
def lab(project, tmp_path_factory):
    """A JupyterLab server on ``project``; yields ``(base URL, token)``, stops it after."""
    if CHROMIUM is None:
        pytest.skip("no chromium on PATH (make chromium, or apt-get install chromium)")
    if importlib.util.find_spec("jupyterlab") is None:
        pytest.skip("JupyterLab is not installed (the lab extra; make install installs it)")
    pytest.importorskip("playwright.sync_api", reason="playwright (the test extra)")
    kernel = notebooks.ensure_kernel()
    assert nbformat.read(project / NOTEBOOK, 4).metadata.kernelspec.name == kernel
    home = tmp_path_factory.mktemp("jupyter")
    settings = home / "settings" / "@jupyterlab" / "apputils-extension"
    settings.mkdir(parents=True)
    # no "get notified about Jupyter news?" toast over the notebook, no request outside
    (settings / "notification.jupyterlab-settings").write_text('{"fetchNews": "false"}')
    env = dict(
        os.environ,
        TRANSPORTLAB_ROOT=str(project),
        TRANSPORTLAB_RESULTS_CACHE=str(home / "cache"),
        JUPYTER_CONFIG_DIR=str(home / "config"),
        JUPYTER_RUNTIME_DIR=str(home / "runtime"),
        JUPYTERLAB_SETTINGS_DIR=str(home / "settings"),
        JUPYTERLAB_WORKSPACES_DIR=str(home / "workspaces"),
    )
    env.pop(notebooks.PUBLISH_ENV, None)
    port, token = _free_port(), secrets.token_hex(16)
    log = open(home / "server.log", "w")  # noqa: SIM115 - closed after the server
    server = subprocess.Popen(
        [
            sys.executable, "-m", "jupyterlab", "--no-browser", "--allow-root",
            "--ip=127.0.0.1", f"--port={port}", f"--IdentityProvider.token={token}",
            f"--ServerApp.root_dir={project}",
            "--LabApp.check_for_updates_class=jupyterlab.NeverCheckForUpdate",
        ],
        cwd=project, env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True,
    )  # fmt: skip
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 120
        while True:
            try:
                urllib.request.urlopen(f"{base}/api/status?token={token}", timeout=5)
                break
            except OSError:
                if server.poll() is not None or time.monotonic() > deadline:
                    log.flush()
                    pytest.fail(f"jupyter lab did not start:\n{(home / 'server.log').read_text()}")
                time.sleep(0.5)
        yield base, token
    finally:
        server.send_signal(signal.SIGTERM)  # stops the server and shuts its kernels down
        try:
            server.wait(timeout=30)
        except subprocess.TimeoutExpired:
            os.killpg(server.pid, signal.SIGKILL)  # the session started for this server
            server.wait()
        log.close()


@pytest.fixture(scope="module")
def browser():
    from playwright.sync_api import sync_playwright  # noqa: PLC0415 - optional

    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(
            executable_path=CHROMIUM, headless=True, args=CHROMIUM_FLAGS
        )
        yield chromium
        chromium.close()


@pytest.fixture
def notebook_page(lab, browser, request):
    """Notebook 00 open in JupyterLab, its kernel idle; a screenshot of the page as the
    test left it goes to build/lab-screenshots/<test>.png (for a failure's reader)."""
    base, token = lab
    page = browser.new_page(viewport={"width": 1400, "height": 1000})
    page.set_default_timeout(60_000)
    page.goto(f"{base}/lab/tree/{NOTEBOOK}?token={token}")
    page.locator(".jp-Notebook .jp-CodeCell").first.wait_for()
    page.wait_for_function(_KERNEL_IDLE, timeout=120_000)
    yield page
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / f"{request.node.name}.png"), full_page=True)
    page.close()


# ----------------------------------------------------------------------------- JupyterLab


#: the kernel JupyterLab shows is connected and idle: the toolbar names a kernel (not "No
#: Kernel"), the status bar says "<kernel> | Idle" and the execution indicator agrees
#: (before the kernel connects, the indicator alone already says idle)
_KERNEL_IDLE = """() => {
  const indicator = document.querySelector('.jp-Notebook-ExecutionIndicator');
  const name = document.querySelector('.jp-Notebook-toolbarKernelName, .jp-KernelName');
  const items = Array.from(document.querySelectorAll('#jp-main-statusbar .jp-StatusBar-TextItem'));
  return indicator !== null && indicator.dataset.status === 'idle' && name !== null
    && name.textContent.trim() !== 'No Kernel'
    && items.some(item => item.textContent.trim() === name.textContent.trim() + ' | Idle');
}"""

#: every code cell as JupyterLab shows it: prompt, source, outputs (MIME type and text)
_CELLS = """() => Array.from(document.querySelectorAll('.jp-Notebook .jp-CodeCell')).map(cell => ({
  prompt: cell.querySelector('.jp-InputPrompt')?.textContent.trim() ?? '',
  source: Array.from(cell.querySelectorAll('.jp-InputArea .cm-line'))
    .map(line => line.textContent).join('\\n'),
  outputs: Array.from(cell.querySelectorAll('.jp-OutputArea-output')).map(output => ({
    mime: output.getAttribute('data-mime-type'), text: output.textContent,
  })),
}))"""

#: a Run All has finished: the kernel is idle, no cell waits or runs ([*]), and the last
#: code cell ran after ``since`` or a cell shows a traceback (which stops Run All)
_RUN_ALL_DONE = """(since) => {
  const kernelIdle = KERNEL_IDLE;
  const prompts = Array.from(document.querySelectorAll('.jp-Notebook .jp-CodeCell .jp-InputPrompt'))
    .map(p => p.textContent);
  if (!kernelIdle() || prompts.length === 0 || prompts.some(p => p.includes('*'))) return false;
  const last = parseInt((prompts[prompts.length - 1].match(/\\[(\\d+)\\]/) || [0, 0])[1]);
  const traceback = Array.from(document.querySelectorAll(
    '.jp-Notebook .jp-OutputArea-output[data-mime-type="application/vnd.jupyter.stderr"]'))
    .some(o => o.textContent.includes('Traceback'));
  return last > since || traceback;
}""".replace("KERNEL_IDLE", _KERNEL_IDLE)


def _cells(page) -> list[dict]:
    return page.evaluate(_CELLS)


def _count(prompt: str) -> int:
    found = re.search(r"\[(\d+)\]", prompt)
    return int(found.group(1)) if found else 0


def _menu(page, menu: str, item: str) -> None:
    page.locator(".lm-MenuBar-itemLabel", has_text=re.compile(f"^{menu}$")).click()
    page.locator(".lm-Menu-itemLabel", has_text=re.compile(f"^{item}$")).click()


def _run_all(page) -> list[dict]:
    """Run > Run All Cells; wait until it has finished; the cells as shown."""
    since = max(_count(cell["prompt"]) for cell in _cells(page))
    _menu(page, "Run", "Run All Cells")
    page.wait_for_function(_RUN_ALL_DONE, arg=since, timeout=RUN_ALL_TIMEOUT_MS)
    return _cells(page)


def _text(cell: dict, mime: str = STDOUT) -> str:
    """The cell's outputs of one MIME type, as nbval compares them (trailing blanks off)."""
    text = "".join(o["text"] for o in cell["outputs"] if o["mime"] == mime)
    return "\n".join(line.rstrip() for line in text.strip().splitlines())


def _cell(cells: list[dict], marker: str) -> dict:
    (found,) = [cell for cell in cells if marker in cell["source"]]
    return found


def _tracebacks(cells: list[dict]) -> list[str]:
    return [
        f"cell {cell['prompt']} {cell['source'][:60]!r}:\n{output['text'][-1500:]}"
        for cell in cells
        for output in cell["outputs"]
        if output["mime"] == STDERR and "Traceback" in output["text"]
    ]


def _checked_outputs() -> dict[str, str]:
    """First source line -> committed stdout of each code cell nbval checks (quick mode)."""
    checked = {}
    for cell in nbformat.read(ROOT / NOTEBOOK, 4).cells:
        if cell.cell_type == "code" and "NBVAL_CHECK_OUTPUT" in cell.source:
            key = cell.source.splitlines()[1]  # the line after the marker
            text = "".join(o.get("text", "") for o in cell.outputs if o.get("name") == "stdout")
            checked[key] = "\n".join(line.rstrip() for line in text.strip().splitlines())
    return checked


# ----------------------------------------------------------------------------- tests


def test_run_all_twice_in_one_kernel(notebook_page):
    """Issue 27 item 1, in the browser: Run All, then Run All again in the same kernel."""
    page = notebook_page
    checked = _checked_outputs()
    assert len(checked) >= 4, "notebook 00 has fewer checked cells than expected"
    previous = 0  # the highest execution count before this Run All
    for attempt in (1, 2):
        cells = _run_all(page)
        assert not _tracebacks(cells), f"Run All #{attempt}:\n" + "\n".join(_tracebacks(cells))
        # nothing red: the simulation cell's progress bar is a widget, not stderr text
        stderr = [o["text"] for c in cells for o in c["outputs"] if o["mime"] == STDERR]
        assert not stderr, f"Run All #{attempt}: stderr output {stderr}"
        counts = [_count(cell["prompt"]) for cell in cells]
        # every code cell ran in this Run All, in order, in the same kernel
        assert counts == sorted(counts) and min(counts) > previous, counts
        previous = max(counts)
        delay = _text(_cell(cells, "expected_ns = round("))
        assert re.fullmatch(
            r"\d+ UDP packets, delays 31064000\.\.31064000 ns, "
            r"hand calculation 31064000 ns, all equal: True",
            delay,
        ), f"Run All #{attempt}: {delay!r}"
        for first_line, committed in checked.items():
            shown = _text(_cell(cells, first_line))
            assert shown == committed, f"Run All #{attempt}, cell {first_line!r}"
    assert "NotebookParameterError" not in page.locator(".jp-Notebook").text_content()


def test_explore_a_point_from_its_controls(notebook_page, project):
    """Issue 27 items 2 and 3, in the browser: type a value into an Explore control,
    press Run; the point goes to data/explore, committed files stay as they were."""
    page = notebook_page
    before, status_before = _digests(project), _git_status(*COMMITTED)
    cells = _run_all(page)  # a cached Run All: the Explore cell shows its controls
    assert not _tracebacks(cells), "\n".join(_tracebacks(cells))
    explore = page.locator(".jp-Notebook .jp-CodeCell").filter(
        has=page.locator(".cm-line", has_text="explorer = Explorer(results)")
    )
    output = explore.locator(".jp-OutputArea")
    box = output.locator(".widget-inline-hbox", has=page.locator("label", has_text="queue_packets"))
    field = box.locator("input")
    assert field.input_value() == "50"  # NS-2's default queue limit, the study's default
    field.fill("20")
    field.press("Tab")  # the value reaches the kernel when the box loses focus
    output.locator("button", has_text=re.compile(r"^\s*Run\s*$")).click()
    status = output.locator(".widget-html", has_text=re.compile(r"Done:|Not run:"))
    status.wait_for(timeout=RUN_ALL_TIMEOUT_MS)
    line = status.text_content()
    saved = re.search(r"saved to (data/explore/bottleneck_example/\S+?)\.?$", line.strip())
    assert saved, f"status line: {line!r}"
    assert "queue_packets" in line and "20" in line, line
    figure = project / saved.group(1)
    assert figure.is_file(), f"{figure} does not exist"
    assert figure.parents[1].name.startswith("quick-")  # keyed by the parameters
    provenance = json.loads((figure.parents[1] / "provenance.json").read_text())
    assert provenance["overrides"] == {"queue_packets": 20}  # the parameters beside it
    # the progress bar is tqdm's widget (a label, a bar, a count), full, and nothing went
    # to stderr (where tqdm's text bars go)
    stderr = output.locator(f'.jp-OutputArea-output[data-mime-type="{STDERR}"]')
    assert stderr.count() == 0, stderr.all_text_contents()
    bar = output.locator(".widget-hbox", has=page.locator(".widget-hprogress")).last
    assert bar.count() == 1, "no progress bar widget"
    assert bar.locator(".progress-bar").evaluate("bar => bar.style.width") == "100%"
    assert re.search(r"bottleneck_example/main:\s*100%.*\b(\d+)/\1\b", bar.text_content())
    # the point beside the committed figure, as images
    assert output.locator(".widget-image").count() == 2
    # nothing committed changed: not in the served copy, not in this checkout
    assert _digests(project) == before
    assert _git_status(*COMMITTED) == status_before
