"""Drive the course's notebooks in a real JupyterLab, in headless Chromium, and read what a learner sees.

nbval compares a widget's text form only; whether the widget draws, answers a click and keeps its
text and chart in step shows only in a browser. This module holds the pieces the browser tests
and benchmarks/bench_browser.py share:

- ``LabServer``: JupyterLab on 127.0.0.1 with a token, serving a temporary copy of the course;
- ``open_browser``: Debian's Chromium, launched by path through Playwright (nothing downloaded);
- ``NotebookPage``: open a notebook, run all cells, read outputs from the page;
- the checks (``error_outputs``, ``widget_problems``, ``quiz_problems``, ``interaction_problems``),
  each returning a list of problems in words, so a test asserts the list is empty and the test
  of the tests asserts it is not.

Every wait has a bound (generous: only a hang reaches it), and no verdict depends on how fast the
machine is: "settled" means the kernel has gone busy and back to idle after a change and the page
then holds still, not that some number of seconds passed.
"""
from __future__ import annotations

import json
import os
import re
import secrets
import shutil
import socket
import subprocess
import time
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterator

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM_FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                  "--disable-component-update", "--disable-sync", "--no-first-run"]
RUN_ALL_BOUND_S = 600      # one notebook's Run All; the slowest takes well under a minute
SETTLE_BOUND_S = 120       # one widget change until its output holds still
START_BOUND_S = 120        # JupyterLab, or a kernel, starting
# Once the kernel is idle, the page must look the same for QUIET_POLLS polls in a row: 0.4 s held still.
# A learner notebook makes about 235 such waits in each of the two workers (measured by counting them in
# one run of make test-widgets), so the poll is short: at 0.2 s the waits alone took about 170 s per worker.
QUIET_POLLS = 4
POLL_S = 0.1
NOT_DONE = "not done yet"
WIDGET_MIME = "application/vnd.jupyter.widget-view+json"


class BrowserSetupError(RuntimeError):
    """Something the tests need is missing; the message says what to install."""


class RunAllError(RuntimeError):
    """JupyterLab's Run All command returned without running a cell."""


def chromium_path() -> str:
    """Debian's Chromium (or $CHROMIUM); the tests never download a browser."""
    candidates = [os.environ.get("CHROMIUM", ""), "/usr/bin/chromium", "/usr/bin/chromium-browser",
                  shutil.which("chromium") or "", shutil.which("chromium-browser") or ""]
    for candidate in candidates:
        if candidate and Path(candidate).is_file():
            return candidate
    raise BrowserSetupError("no Chromium found: install Debian's (apt-get install chromium) or set CHROMIUM=path")


def learner_notebooks(folder: Path = ROOT / "notebooks") -> list[Path]:
    """Every learner notebook, whatever the course's length ($BROWSER_NOTEBOOKS overrides, space-separated)."""
    chosen = os.environ.get("BROWSER_NOTEBOOKS", "").split()
    if chosen:
        return [Path(p).resolve() for p in chosen]
    return sorted(folder.glob("[0-9][0-9]_*.ipynb"))


# ---------------------------------------------------------------- the server

def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def copy_course(into: Path) -> Path:
    """A temporary copy of the course: what git tracks, plus .venv by link (rebuilding it would take minutes).

    Kernels import the copy's src/ (PYTHONPATH), so data/ and notebooks/ are the copy's, never the clone's.
    """
    course = into / "course"
    listed = subprocess.run(["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"], cwd=ROOT, capture_output=True, check=False)
    names = [n for n in listed.stdout.decode().split("\0") if n] if listed.returncode == 0 else []
    if names:
        for name in names:
            source = ROOT / name
            if source.is_file():
                target = course / name
                target.parent.mkdir(parents=True, exist_ok=True)
                shutil.copy2(source, target)
    else:  # not a git clone: copy the folder
        shutil.copytree(ROOT, course, ignore=shutil.ignore_patterns(".venv", ".git", "__pycache__", "wheelhouse"))
    (course / ".venv").symlink_to(ROOT / ".venv", target_is_directory=True)
    return course


def course_env(course: Path) -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(course / "src")] + ([env["PYTHONPATH"]] if env.get("PYTHONPATH") else []))
    env["MPLBACKEND"] = "module://matplotlib_inline.backend_inline"
    env.pop("JUPYTER_PLATFORM_DIRS", None)
    return env


def _lab_settings(folder: Path) -> None:
    """No news, no update checks, every cell kept in the page (so each can be read)."""
    settings = {
        "@jupyterlab/apputils-extension/notification.jupyterlab-settings":
            {"fetchNews": "false", "checkForUpdates": False},
        "@jupyterlab/notebook-extension/tracker.jupyterlab-settings": {"windowingMode": "none"},
        "@jupyterlab/docmanager-extension/plugin.jupyterlab-settings": {"autosave": False},
    }
    for name, value in settings.items():
        path = folder / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(value))


@dataclass
class LabServer:
    course: Path
    port: int
    token: str
    process: subprocess.Popen
    log: Path

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def url(self, notebook: str) -> str:
        """A workspace of its own for each tab: two tabs on one workspace make JupyterLab move one of them."""
        workspace = f"course-{secrets.token_hex(4)}"
        return f"{self.base}/lab/workspaces/{workspace}/tree/{notebook}?token={self.token}&reset"


@contextmanager
def lab_server(tmp: Path) -> Iterator[LabServer]:
    """JupyterLab on 127.0.0.1 with a token, over a temporary copy of the course; stopped afterwards."""
    course = copy_course(tmp)
    state = tmp / "jupyter"
    _lab_settings(state / "settings")
    env = course_env(course)
    env.update(JUPYTER_CONFIG_DIR=str(state / "config"), JUPYTER_RUNTIME_DIR=str(state / "runtime"),
               JUPYTERLAB_SETTINGS_DIR=str(state / "settings"), JUPYTERLAB_WORKSPACES_DIR=str(state / "workspaces"),
               IPYTHONDIR=str(state / "ipython"))
    port, token = _free_port(), secrets.token_hex(16)
    log = tmp / "jupyterlab.log"
    command = [str(ROOT / ".venv/bin/python"), "-m", "jupyter", "lab", "--no-browser", "--ip=127.0.0.1",
               f"--port={port}", "--ServerApp.port_retries=0", f"--IdentityProvider.token={token}",
               f"--ServerApp.root_dir={course}", "--LabApp.expose_app_in_browser=True",
               "--LabApp.news_url=", "--LabApp.check_for_updates_class=jupyterlab.NeverCheckForUpdate",
               "--LabApp.extension_manager=readonly", "--ServerApp.open_browser=False"]
    if hasattr(os, "getuid") and os.getuid() == 0:
        command.append("--allow-root")
    with log.open("w") as out:
        process = subprocess.Popen(command, cwd=course, env=env, stdout=out, stderr=subprocess.STDOUT)
    server = LabServer(course, port, token, process, log)
    try:
        _wait_for_port(port, process, log)
        yield server
    finally:
        process.terminate()
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout=30)


def _wait_for_port(port: int, process: subprocess.Popen, log: Path) -> None:
    deadline = time.monotonic() + START_BOUND_S
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise BrowserSetupError(f"JupyterLab stopped at start; see {log}:\n{log.read_text()[-2000:]}")
        with socket.socket() as sock:
            if sock.connect_ex(("127.0.0.1", port)) == 0:
                return
        time.sleep(POLL_S)
    raise BrowserSetupError(f"JupyterLab did not listen on port {port} within {START_BOUND_S} s; see {log}")


@contextmanager
def open_browser(width: int = 1400, height: int = 1000) -> Iterator[Any]:
    """Debian's Chromium by path, headless, with no network of its own."""
    try:
        from playwright.sync_api import sync_playwright
    except ImportError as missing:
        raise BrowserSetupError("Playwright is not installed: .venv/bin/pip install -r requirements-browser.txt "
                                "(or run make test-browser)") from missing
    executable = chromium_path()
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=executable, headless=True, args=CHROMIUM_FLAGS)
        try:
            context = browser.new_context(viewport={"width": width, "height": height})
            yield context
        finally:
            browser.close()


# ---------------------------------------------------------------- one notebook in the page

# JavaScript run in the page. `window.jupyterapp` is there because the server was started with
# --LabApp.expose_app_in_browser=True; every read goes through JupyterLab's own models.
JS_PANEL = "() => { const w = window.jupyterapp && window.jupyterapp.shell.currentWidget; return w && w.content && w.content.widgets ? w : null; }"

JS_READY = """() => {
  const panel = (%s)();
  if (!panel || !panel.context.isReady) return 'no notebook';
  const kernel = panel.sessionContext.session && panel.sessionContext.session.kernel;
  if (!kernel) return 'no kernel';
  if (!window.__courseStatus) {
    // The session's signal, not one kernel connection's: it follows the kernel if JupyterLab swaps it.
    window.__courseStatus = {busy: 0};
    panel.sessionContext.statusChanged.connect((_, status) => {
      if (status === 'busy') window.__courseStatus.busy += 1;
    });
  }
  return kernel.status;
}""" % JS_PANEL

JS_RUN_STATE = """() => {
  const panel = (%s)();
  const cells = panel.content.widgets.filter(c => c.model.type === 'code');
  const running = cells.filter(c => c.model.executionState === 'running' || (c.promptNode && c.promptNode.textContent.includes('*'))).length;
  const done = cells.filter(c => c.model.executionCount !== null).length;
  const errored = cells.some(c => c.model.outputs.toJSON().some(o => o.output_type === 'error'));
  const kernel = panel.sessionContext.session && panel.sessionContext.session.kernel;
  return {status: kernel ? kernel.status : 'none', busy: window.__courseStatus.busy, running, done,
          total: cells.length, errored, command: window.__courseRunAll || null};
}""" % JS_PANEL

JS_OUTPUTS = """() => {
  const panel = (%s)();
  return panel.content.widgets.map((c, i) => ({index: i, type: c.model.type,
      source: c.model.sharedModel.getSource(),
      outputs: c.model.type === 'code' ? c.model.outputs.toJSON() : []}));
}""" % JS_PANEL

JS_STATUS = """() => {
  const panel = (%s)();
  const kernel = panel && panel.sessionContext.session && panel.sessionContext.session.kernel;
  return {status: kernel ? kernel.status : 'none', busy: window.__courseStatus ? window.__courseStatus.busy : 0};
}""" % JS_PANEL


# Run All through JupyterLab's command, as the menu does; the command's promise is kept, not awaited
# (it lasts as long as the cells run, and the waits here have bounds).
JS_RUN_ALL = """() => {
  const record = window.__courseRunAll = {settled: false};
  window.jupyterapp.commands.execute('notebook:run-all-cells').then(
      value => { record.settled = true; record.value = value; },
      error => { record.settled = true; record.error = String(error); });
  return true;
}"""

# What a hang leaves on the page, for the failure message: focus, dialogs, the session, unfinished cells.
JS_DIAGNOSIS = """() => {
  const shell = window.jupyterapp.shell, panel = (%s)();
  const found = {current: shell.currentWidget ? shell.currentWidget.id : null, focus: document.hasFocus(),
                 visibility: document.visibilityState,
                 dialogs: Array.from(document.querySelectorAll('.jp-Dialog')).map(d => d.innerText.slice(0, 200))};
  if (!panel) return found;
  const context = panel.sessionContext, kernel = context.session && context.session.kernel;
  found.kernel = kernel ? {status: kernel.status, connection: kernel.connectionStatus} : null;
  found.session = {ready: context.isReady, terminating: context.isTerminating, restarting: context.isRestarting,
                   pendingInput: context.pendingInput};
  found.activeCell = panel.content.activeCellIndex;
  found.unfinished = panel.content.widgets.map((c, i) => ({i, c})).filter(({c}) => c.model.type === 'code'
      && (c.model.executionCount === null || c.model.executionState === 'running')).slice(0, 8)
      .map(({i, c}) => ({cell: i, state: c.model.executionState, prompt: c.promptNode ? c.promptNode.textContent : null}));
  return found;
}""" % JS_PANEL


@dataclass(frozen=True)
class CellOutput:
    index: int
    source: str
    outputs: tuple[dict, ...]


@dataclass
class NotebookPage:
    """One notebook open in JupyterLab; the methods wait for the kernel, never for a fixed time."""
    page: Any
    server: LabServer
    notebook: str                      # path relative to the course, e.g. notebooks/02_coldchain_data.ipynb

    @classmethod
    def open(cls, context: Any, server: LabServer, notebook: str) -> "NotebookPage":
        page = context.new_page()
        page.set_default_timeout(SETTLE_BOUND_S * 1000)
        page.goto(server.url(notebook), wait_until="domcontentloaded", timeout=START_BOUND_S * 1000)
        me = cls(page, server, notebook)
        seen: list[str] = []

        def ready() -> bool:
            seen.append(str(page.evaluate(JS_READY)))
            return seen[-1] == "idle"
        try:
            me._wait(ready, START_BOUND_S, "the notebook's kernel to start")
        except TimeoutError:
            # A first page load can miss the kernel's status (seen once, never twice in a row): load the page
            # again before calling it a failure, and say what the page last reported if that fails too.
            page.reload(wait_until="domcontentloaded", timeout=START_BOUND_S * 1000)
            page.evaluate("() => { window.__courseStatus = undefined; return true; }")
            try:
                me._wait(ready, START_BOUND_S, "the notebook's kernel to start (after a reload)")
            except TimeoutError as error:
                raise TimeoutError(f"{error}; the page last reported {seen[-1] if seen else 'nothing'!r}") from None
        return me

    def _wait(self, ready, bound_s: float, what: str) -> None:
        deadline = time.monotonic() + bound_s
        while time.monotonic() < deadline:
            if ready():
                return
            time.sleep(POLL_S)
        raise TimeoutError(f"waited {bound_s} s for {what} in {self.notebook}")

    def run_all(self) -> float:
        """Run All, as the menu does; returns the seconds it took (a figure, never a verdict).

        The command's own promise says whether it ran: it resolves at once, not true, when there was
        no notebook or active cell to run, and then this fails at once instead of waiting out the bound.
        A timeout says what the page last showed: the session, the kernel, the cells still queued.
        """
        before = self.page.evaluate(JS_RUN_STATE)["busy"]
        started = time.monotonic()
        self.page.evaluate(JS_RUN_ALL)
        last: dict = {}

        def finished() -> bool:
            state = self.page.evaluate(JS_RUN_STATE)
            last.update(state)
            command = state["command"]
            if (command["settled"] and command.get("value") is not True and state["busy"] == before
                    and state["done"] == 0 and state["running"] == 0):
                raise RunAllError(f"Run All did nothing in {self.notebook}: {command}; the page: {self.page.evaluate(JS_DIAGNOSIS)}")
            return (state["busy"] > before and state["status"] == "idle" and state["running"] == 0
                    and (state["done"] == state["total"] or state["errored"]))
        try:
            self._wait(finished, RUN_ALL_BOUND_S, "Run All to finish")
        except TimeoutError as error:
            raise TimeoutError(f"{error}; last seen {last}; the page: {self.page.evaluate(JS_DIAGNOSIS)}") from None
        seconds = time.monotonic() - started
        self.wait_quiet(self.page.locator(".jp-Notebook"))
        return seconds

    def outputs(self) -> list[CellOutput]:
        return [CellOutput(c["index"], c["source"], tuple(c["outputs"])) for c in self.page.evaluate(JS_OUTPUTS)]

    def busy_count(self) -> int:
        return self.page.evaluate(JS_STATUS)["busy"]

    def wait_settled(self, busy_before: int, scope: Any, bound_s: float = SETTLE_BOUND_S) -> None:
        """The kernel took the change (went busy), finished (idle), and the page then holds still."""
        def settled() -> bool:
            status = self.page.evaluate(JS_STATUS)
            return status["busy"] > busy_before and status["status"] == "idle"
        self._wait(settled, bound_s, "the kernel to take a widget change and go idle")
        self.wait_quiet(scope, bound_s)

    def wait_quiet(self, scope: Any, bound_s: float = SETTLE_BOUND_S) -> None:
        """The same text and images for QUIET_POLLS polls in a row (the page has drawn what came)."""
        last, same = None, 0
        deadline = time.monotonic() + bound_s
        while time.monotonic() < deadline:
            now = snapshot(scope)
            same = same + 1 if now == last else 0
            if same >= QUIET_POLLS:
                return
            last = now
            time.sleep(POLL_S)
        raise TimeoutError(f"the page kept changing for {bound_s} s in {self.notebook}")

    def save(self) -> None:
        """Save as a learner does (Ctrl+S), then wait until the file on disk is what the page holds."""
        self.page.locator(".jp-Notebook").first.click(position={"x": 5, "y": 5})
        self.page.keyboard.press("Control+s")
        path = self.server.course / self.notebook

        def saved() -> bool:
            return not self.page.evaluate(f"() => ({JS_PANEL})().context.model.dirty")
        self._wait(saved, SETTLE_BOUND_S, "the notebook to be saved")
        assert path.is_file()

    def close(self) -> None:
        """Stop the notebook's kernel, then close the tab."""
        try:
            self.page.evaluate(f"() => Promise.race([({JS_PANEL})().sessionContext.shutdown(),"
                               f" new Promise(done => setTimeout(done, {SETTLE_BOUND_S * 1000}))])")
        except Exception:
            pass
        self.page.close()

    def record_failure(self, folder: Path, label: str, message: str = "") -> Path:
        """A screenshot of the page and of each cell the failure names, and the notebook's outputs."""
        folder.mkdir(parents=True, exist_ok=True)
        stem = re.sub(r"[^A-Za-z0-9_.-]+", "_", f"{Path(self.notebook).stem}-{label}")
        try:
            self.page.screenshot(path=str(folder / f"{stem}.png"))
            for index in sorted({int(n) for n in re.findall(r"cell (\d+)", message)})[:6]:
                cell_locator(self, index).screenshot(path=str(folder / f"{stem}-cell{index}.png"), timeout=30_000)
        except Exception as error:  # a crashed page still gets its outputs written
            (folder / f"{stem}.screenshot-error.txt").write_text(str(error))
        try:
            outputs = [{"cell": c.index, "source": c.source, "outputs": list(c.outputs)} for c in self.outputs()]
        except Exception as error:
            outputs = [{"error": str(error)}]
        (folder / f"{stem}.outputs.json").write_text(json.dumps(outputs, indent=1))
        return folder


# ---------------------------------------------------------------- reading the page

# Images are read by their bytes: an image widget's src is a fresh blob: address on every update.
JS_SNAPSHOT = """async (root) => {
  const pick = sel => Array.from(root.querySelectorAll(sel));
  const texts = pick('.widget-html-content, .widget-htmlmath-content, .widget-output, .jp-OutputArea-output .jp-RenderedText')
      .filter(e => !e.closest('.widget-radio-box'))
      .map(e => e.innerText.trim());
  const digest = async (img) => {
    const src = img.getAttribute('src') || '';
    if (!src) return 'empty';
    try {
      const bytes = await (await fetch(src)).arrayBuffer();
      const hash = new Uint8Array(await crypto.subtle.digest('SHA-256', bytes));
      return Array.from(hash.slice(0, 8)).map(b => b.toString(16).padStart(2, '0')).join('');
    } catch (e) { return 'unreadable:' + src.slice(0, 40); }
  };
  const images = [];
  // The course's page-helper image (aria-hidden, never drawn) is no chart.
  for (const img of pick('img:not([aria-hidden="true"])')) images.push(await digest(img));
  return {texts, images};
}"""


def snapshot(scope: Any) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The output text and a digest of each image under ``scope`` (controls and their labels left out)."""
    shot = scope.first.evaluate(JS_SNAPSHOT) if hasattr(scope, "first") else scope.evaluate(JS_SNAPSHOT)
    return tuple(shot["texts"]), tuple(shot["images"])


def error_outputs(cells: list[CellOutput]) -> list[str]:
    """Every error, and every line on stderr, other than a check's 'not done yet'."""
    problems = []
    for cell in cells:
        for output in cell.outputs:
            if output.get("output_type") == "error":
                problems.append(f"cell {cell.index}: {output.get('ename')}: {output.get('evalue')}"[:300])
            elif output.get("output_type") == "stream" and output.get("name") == "stderr":
                text = "".join(output.get("text", ""))
                lines = [line for line in text.splitlines() if line.strip() and NOT_DONE not in line]
                if lines:
                    problems.append(f"cell {cell.index} wrote to stderr: {lines[0][:200]}")
    return problems


def widget_cells(cells: list[CellOutput]) -> list[int]:
    return [cell.index for cell in cells if any(WIDGET_MIME in o.get("data", {}) for o in cell.outputs)]


def cell_locator(page: NotebookPage, index: int) -> Any:
    return page.page.locator(".jp-Notebook .jp-Cell").nth(index)


FALLBACK_TEXT = re.compile(r"^(VBox|HBox|Box|GridBox|Tab|Accordion|[A-Z][A-Za-z]*(Slider|Text|Dropdown|Button|HTML|Image|"
                           r"Output|Textarea|RadioButtons))\(", re.MULTILINE)


def widget_problems(page: NotebookPage, cells: list[CellOutput]) -> list[str]:
    """Each widget output drawn as a live view: no text fallback, no 'Error displaying widget'."""
    problems = []
    for index in widget_cells(cells):
        expected = sum(WIDGET_MIME in o.get("data", {}) for o in cells[index].outputs)
        cell = cell_locator(page, index)
        views = cell.locator(".jp-OutputArea-output .jupyter-widgets").evaluate_all(
            "els => els.filter(e => !e.parentElement.closest('.jupyter-widgets'))"
            ".map(e => ({text: e.innerText, error: e.classList.contains('jupyter-widgets-error-widget') "
            "|| e.innerText.includes('Error displaying widget') || e.innerText.includes('Error rendering')}))")
        text = cell.locator(".jp-Cell-outputArea").inner_text()
        if len(views) < expected:
            problems.append(f"cell {index}: {expected} widget(s) in the notebook, {len(views)} drawn as live views")
        if any(v["error"] for v in views) or "Error displaying widget" in text:
            problems.append(f"cell {index}: the page says the widget could not be displayed")
        if FALLBACK_TEXT.search(text) or "Loading widget" in text:
            problems.append(f"cell {index}: a widget shows as text, not as a live view")
    return problems


# Labels cut off (text wider than its box) and controls drawn over each other, at JupyterLab's own size.
JS_LAYOUT = """(root) => {
  const shown = Array.from(root.querySelectorAll('.widget-label, .widget-readout, select, input, textarea, button, .noUi-target'))
      .filter(e => e.offsetParent !== null && getComputedStyle(e).display !== 'none');
  const cut = shown.filter(e => e.matches('.widget-label, button') && e.innerText.trim() && e.scrollWidth > e.clientWidth + 1)
      .map(e => e.innerText.trim());
  const boxes = shown.map(e => ({e, r: e.getBoundingClientRect()})).filter(p => p.r.width > 0 && p.r.height > 0);
  const overlaps = [];
  for (let i = 0; i < boxes.length; i++) for (let j = i + 1; j < boxes.length; j++) {
    const a = boxes[i], b = boxes[j];
    if (a.e.contains(b.e) || b.e.contains(a.e)) continue;
    const w = Math.min(a.r.right, b.r.right) - Math.max(a.r.left, b.r.left);
    const h = Math.min(a.r.bottom, b.r.bottom) - Math.max(a.r.top, b.r.top);
    if (w > 2 && h > 2) overlaps.push((a.e.innerText || a.e.tagName).trim() + ' over ' + (b.e.innerText || b.e.tagName).trim());
  }
  return {cut, overlaps};
}"""


def layout_problems(page: NotebookPage, cells: list[CellOutput]) -> list[str]:
    """Every widget's labels readable: none cut off, no control drawn over another."""
    problems = []
    for index in widget_cells(cells):
        found = cell_locator(page, index).locator(".jp-Cell-outputArea").evaluate(JS_LAYOUT)
        problems += [f"cell {index}: the label {label!r} is cut off" for label in found["cut"]]
        problems += [f"cell {index}: {pair} (controls overlap)" for pair in found["overlaps"]]
    return problems


# ---------------------------------------------------------------- quizzes

SCORE = re.compile(r"(\d+) of (\d+) right \((\d+) answered[;)]")


def is_quiz(cell: Any) -> bool:
    return cell.locator(".widget-radio-box").count() > 0 and bool(SCORE.search(cell.locator(".jp-Cell-outputArea").inner_text()))


def quiz_problems(page: NotebookPage, index: int) -> list[str]:
    """Answer every question (its first choice, then Check): each shows an explanation and the score follows."""
    cell = cell_locator(page, index)
    area = cell.locator(".jp-Cell-outputArea")
    questions = cell.locator(".widget-radio-box")
    count = questions.count()
    problems: list[str] = []
    first = SCORE.search(area.inner_text())
    if not first or first.group(3) != "0":
        return [f"cell {index}: the quiz does not start at '0 answered'"]
    rights = 0
    for number in range(count):
        box = questions.nth(number)
        busy = page.busy_count()
        box.locator("input[type=radio]").first.check()
        # Picking grades nothing: the question's Check button (the radio group's next sibling) does.
        box.locator("xpath=../following-sibling::*[1]").click()
        try:
            page.wait_settled(busy, area)
        except TimeoutError as error:
            return problems + [f"cell {index}, question {number + 1}: {error}"]
        explanation = box.locator("xpath=../following-sibling::*[2]").inner_text().strip()
        if not re.match(r"^(Right|Not quite)\.\s+\S", explanation):
            problems.append(f"cell {index}, question {number + 1}: no explanation after a click (shows {explanation[:60]!r})")
        rights += explanation.startswith("Right.")
        score = SCORE.search(area.inner_text())
        if not score:
            problems.append(f"cell {index}: the score line is gone after question {number + 1}")
            continue
        if (int(score.group(1)), int(score.group(3))) != (rights, number + 1):
            problems.append(f"cell {index}, question {number + 1}: the score says {score.group(0)!r}, "
                            f"the page shows {rights} right of {number + 1} answered")
    return problems


# ---------------------------------------------------------------- explorers, workbenches, testers, panels

@dataclass(frozen=True)
class Control:
    """One way to change a widget's state and come back: a name, and how to reach state k."""
    kind: str
    label: str
    states: int  # how many distinct states ``go`` can reach (0 is where it started)


def _label(element: Any) -> str:
    try:
        text = element.evaluate("e => { const box = e.closest('.widget-inline-hbox, .widget-hbox, .widget-box') || e;"
                                " const l = box.querySelector('.widget-label'); return (l && l.innerText) || e.getAttribute('placeholder') || ''; }")
        return text.replace("\u200b", "").strip() or element.evaluate("e => e.tagName.toLowerCase()")
    except Exception:
        return ""


class Driver:
    """Finds the controls of one widget output and moves them; generic over the course's widgets."""

    def __init__(self, page: NotebookPage, index: int):
        self.page, self.index = page, index
        self.cell = cell_locator(page, index)
        self.area = self.cell.locator(".jp-Cell-outputArea")

    def controls(self) -> list[tuple[Control, Any]]:
        """Dropdowns first (a new option changes most), then sliders, toggle buttons, check boxes, buttons, text boxes."""
        found: list[tuple[Control, Any]] = []
        for select in self.area.locator(".widget-dropdown select").all():
            options = select.locator("option").count()
            if options >= 2 and select.is_enabled():
                found.append((Control("dropdown", _label(select), min(options, 3)), select))
        for handle in self.area.locator(".widget-slider .noUi-handle").all():
            found.append((Control("slider", _label(handle), 3), handle))
        for group in self.area.locator(".widget-toggle-buttons").all():
            options = group.locator("button").count()
            if options >= 2:
                found.append((Control("toggle", _label(group), min(options, 3)), group))
        for box in self.area.locator(".widget-checkbox input[type=checkbox]").all():
            if box.is_enabled():
                found.append((Control("checkbox", _label(box), 2), box))
        for button in self.area.locator("button.widget-button").all():
            if button.is_enabled():
                found.append((Control("button", button.inner_text().strip(), 1), button))
        for box in self.area.locator(".widget-text input, .widget-textarea textarea").all():
            if box.is_editable():
                found.append((Control("text", _label(box), 3), box))
        return found

    def go(self, control: Control, element: Any, state: int, start: Any) -> None:
        """Move ``control`` to ``state`` (0 = where it started; ``start`` is what it held then)."""
        if control.kind == "dropdown":
            element.select_option(index=(start + state) % element.locator("option").count())
        elif control.kind == "slider":
            # Away from the nearer end, so two steps always exist; the handle remembers its state.
            towards = element.evaluate("e => { if (e.__courseTowards === undefined) {"
                                       " const now = +e.getAttribute('aria-valuenow'), lo = +e.getAttribute('aria-valuemin'),"
                                       " hi = +e.getAttribute('aria-valuemax'); e.__courseTowards = (hi - now) >= (now - lo) ? 1 : -1; }"
                                       " return e.__courseTowards; }")
            steps = (state - element.evaluate("e => e.__courseState || 0")) * towards
            element.focus()
            for _ in range(abs(steps)):
                element.press("ArrowRight" if steps > 0 else "ArrowLeft")
        elif control.kind == "toggle":
            buttons = element.locator("button")
            buttons.nth((start + state) % buttons.count()).click()
        elif control.kind == "checkbox":
            if element.is_checked() != (bool(start) != bool(state % 2)):
                element.click()
        elif control.kind == "button":
            element.click()
        elif control.kind == "text":
            element.fill(start if state == 0 else f"{start} {['', 'and its items', 'for customer 10051'][state]}")
            element.dispatch_event("change")  # a box with continuous_update=False sends its value on change

    def start_value(self, control: Control, element: Any) -> Any:
        if control.kind == "dropdown":
            return element.evaluate("e => e.selectedIndex")
        if control.kind == "text":
            return element.input_value()
        if control.kind == "toggle":
            return element.evaluate("g => Array.from(g.querySelectorAll('button')).findIndex(b => b.classList.contains('mod-active'))")
        if control.kind == "checkbox":
            return element.is_checked()
        return None

    def move(self, control: Control, element: Any, state: int, start: Any) -> tuple[Any, float, dict]:
        """Make one change, wait until it has settled; return what the page shows and how long it took."""
        self.page.page.evaluate(JS_WATCH, self.area.element_handle())
        busy = self.page.busy_count()
        began = time.monotonic()
        self.go(control, element, state, start)
        if control.kind == "slider":
            element.evaluate(f"e => {{ e.__courseState = {state}; }}")
        self.page.wait_settled(busy, self.area)
        order = self.page.page.evaluate("() => window.__courseWatch")
        # The figure is when the output last changed, not when the quiet polls ended.
        seconds = order["last_ms"] / 1000 if order["last_ms"] is not None else time.monotonic() - began
        return snapshot(self.area), seconds, order


# Records, for one change, when the output text and the images under the widget first changed.
JS_WATCH = """(root) => {
  const read = () => ({t: Array.from(root.querySelectorAll('.widget-html-content, .widget-htmlmath-content, .widget-output'))
                          .filter(e => !e.closest('.widget-radio-box')).map(e => e.innerText).join('\\n'),
                       i: Array.from(root.querySelectorAll('img:not([aria-hidden="true"])')).map(i => i.getAttribute('src') || '').join('|')});
  if (window.__courseObserver) window.__courseObserver.disconnect();
  const first = read(), start = performance.now();
  window.__courseWatch = {text_ms: null, image_ms: null, last_ms: null, disagreements: 0};
  const seen = window.__courseWatch;
  window.__courseObserver = new MutationObserver(() => {
    const now = read(), t = performance.now() - start;
    if (now.t !== first.t || now.i !== first.i) seen.last_ms = t;
    if (seen.text_ms === null && now.t !== first.t) seen.text_ms = t;
    if (seen.image_ms === null && now.i !== first.i) seen.image_ms = t;
    if ((seen.text_ms === null) !== (seen.image_ms === null)) seen.disagreements += 1;
  });
  window.__courseObserver.observe(root, {subtree: true, childList: true, attributes: true, characterData: true});
}"""


@dataclass
class InteractionResult:
    index: int
    control: str
    problems: list[str]
    seconds: list[float]         # per change: until the output last changed on the page
    text_first_ms: list[float]   # how long the text led the chart while a change was drawn (0 if together)


def interaction_problems(page: NotebookPage, index: int) -> InteractionResult:
    """One widget: change it and check its output follows, and that text and chart agree once settled.

    Agreement is read from the page without knowing what the chart draws: the widget is moved
    through states 0 -> 1 -> 2 -> 1 -> 0. Once settled, the same state must show the same text and
    the same picture whatever path led there (a chart a step behind, or stuck, breaks that), the
    text must differ between states, and a chart, if there is one, must change at least once.
    """
    driver = Driver(page, index)
    controls = driver.controls()
    if not controls:
        return InteractionResult(index, "none", [], [], [])
    initial = snapshot(driver.area)
    tried: list[str] = []
    for control, element in controls:
        start = driver.start_value(control, element)
        path = [1] if control.kind == "button" else ([1, 0, 1, 0] if control.states == 2 else [1, 2, 1, 0])
        seen: dict[int, Any] = {0: initial}
        seconds: list[float] = []
        leads: list[float] = []
        problems: list[str] = []
        try:
            for state in path:
                shown, took, order = driver.move(control, element, state, start)
                seconds.append(took)
                if order["text_ms"] is not None and order["image_ms"] is not None:
                    leads.append(max(0.0, order["image_ms"] - order["text_ms"]))
                if state in seen and seen[state] != shown:
                    problems.append(f"cell {index}: after moving {control.kind} {control.label!r} back to state {state}, "
                                    f"{_differs(seen[state], shown)} differs from before: text and chart do not agree")
                seen.setdefault(state, shown)
        except TimeoutError as error:
            return InteractionResult(index, control.kind, [f"cell {index}: {error}"], seconds, leads)
        if seen.get(1, initial)[0] == initial[0]:
            tried.append(f"{control.kind} {control.label!r}")
            continue  # this control changes no output text; try the next one
        if initial[1] and all(seen[s][1] == initial[1] for s in seen):
            problems.append(f"cell {index}: the chart never changed while {control.kind} {control.label!r} "
                            f"changed the text")
        return InteractionResult(index, f"{control.kind} {control.label!r}", problems, seconds, leads)
    return InteractionResult(index, "none", [f"cell {index}: no control changed the output ({', '.join(tried)})"], [], [])


def _differs(before: Any, after: Any) -> str:
    parts = [name for name, a, b in (("the text", before[0], after[0]), ("the chart", before[1], after[1])) if a != b]
    return " and ".join(parts) or "nothing"


def interactive_cells(page: NotebookPage, cells: list[CellOutput]) -> tuple[list[int], list[int]]:
    """(quizzes, other widgets with controls) among the cells that show widgets."""
    quizzes, others = [], []
    for index in widget_cells(cells):
        cell = cell_locator(page, index)
        if is_quiz(cell):
            quizzes.append(index)
        elif Driver(page, index).controls():
            others.append(index)
    return quizzes, others


# ---------------------------------------------------------------- an exercise typed in the page

def solution_of(notebook: str, grade_id: str) -> str | None:
    """The solution region of one exercise, from solutions/ (what a learner would have typed)."""
    source = ROOT / "solutions" / Path(notebook).name
    if not source.is_file():
        return None
    for cell in json.loads(source.read_text())["cells"]:
        if cell.get("metadata", {}).get("nbgrader", {}).get("grade_id") == grade_id:
            text = "".join(cell["source"])
            return re.sub(r"^[ \t]*### (BEGIN|END) SOLUTION[ \t]*\n?", "", text, flags=re.MULTILINE)
    return None


def first_exercise(notebook: Path) -> tuple[int, str] | None:
    """(cell index, grade_id) of the notebook's first answer cell."""
    for index, cell in enumerate(json.loads(notebook.read_text())["cells"]):
        meta = cell.get("metadata", {}).get("nbgrader", {})
        if cell["cell_type"] == "code" and meta.get("solution") and meta.get("grade_id"):
            return index, meta["grade_id"]
    return None


def type_into_cell(page: NotebookPage, index: int, text: str) -> None:
    """Replace a cell's text through its editor, as a learner's paste does."""
    editor = cell_locator(page, index).locator(".jp-InputArea-editor .cm-content")
    editor.click()
    page.page.keyboard.press("Control+a")
    page.page.keyboard.press("Delete")
    page.page.keyboard.insert_text(text)


def run_cell_and_next(page: NotebookPage, index: int) -> int:
    """Shift+Enter in cell ``index`` and in the one after it (its check), as a learner does; returns that index."""
    for cell in (index, index + 1):
        busy = page.busy_count()
        cell_locator(page, cell).locator(".jp-InputArea-editor").click()
        page.page.keyboard.press("Shift+Enter")
        page.wait_settled(busy, cell_locator(page, cell))
    return index + 1


def make_check(course: Path, number: str) -> subprocess.CompletedProcess:
    """`make check NB=NN` in the copy of the course (its .venv is the clone's, its files its own)."""
    env = course_env(course)
    env.pop("MPLBACKEND", None)
    return subprocess.run(["make", "check", f"NB={number}"], cwd=course, env=env, capture_output=True, text=True, timeout=RUN_ALL_BOUND_S)


# ---------------------------------------------------------------- keyboard, names, label widths, plot sentences

LAYOUT_WIDTH = 1280  # the width the label test measures at: a laptop's, narrower than the other tests' page

# Every label-like text a widget draws, with what it shows and what it holds: a label is cut when its
# text is wider than its box (the browser then clips it or ends it in "…").
JS_LABEL_WIDTHS = """(root) => {
  const selector = '.widget-label, .widget-label-basic, .widget-label-basic span, .widget-checkbox label span,'
                 + ' .widget-toggle-button, button.widget-button, .widget-radio-box label, .widget-readout';
  return Array.from(root.querySelectorAll(selector))
    .filter(e => e.offsetParent !== null && e.innerText.trim())
    .filter(e => e.scrollWidth > e.clientWidth + 1)
    .map(e => ({text: e.innerText.trim(), holds: e.getAttribute('title') || e.textContent.trim(),
                shown: e.clientWidth, needs: e.scrollWidth}));
}"""


def label_width_problems(page: NotebookPage, cells: list[CellOutput]) -> list[str]:
    """Every widget label, button and readout as wide as its text (measured at the page's width)."""
    problems = []
    for index in widget_cells(cells):
        area = cell_locator(page, index).locator(".jp-Cell-outputArea")
        for cut in area.evaluate(JS_LABEL_WIDTHS):
            problems.append(f"cell {index}: the label {cut['holds'][:60]!r} is cut: {cut['needs']} px of text "
                            f"in a {cut['shown']} px box")
    return problems


JS_GROUP_NAME = """(group) => {
  const id = group.getAttribute('aria-labelledby'), title = id && document.getElementById(id);
  return {role: group.getAttribute('role'), name: title ? title.innerText.trim() : (group.getAttribute('aria-label') || '')};
}"""

JS_ACTIVE_CELL = "() => window.jupyterapp.shell.currentWidget.content.activeCellIndex"


def quiz_keyboard_problems(page: NotebookPage, index: int) -> list[str]:
    """Each question: a radio group named by its question; an arrow key changes the answer and keeps focus.

    The check reads the page right after the key (the choice is made in the page before the kernel
    hears of it), then waits for the kernel only when a choice was made: a key that JupyterLab takes
    instead leaves nothing to wait for.
    """
    cell = cell_locator(page, index)
    area = cell.locator(".jp-Cell-outputArea")
    groups = cell.locator(".widget-radio-box")
    problems: list[str] = []
    for number in range(groups.count()):
        group = groups.nth(number)
        named = group.evaluate(JS_GROUP_NAME)
        if named["role"] != "radiogroup" or not named["name"]:
            problems.append(f"cell {index}, question {number + 1}: the choices are not a radio group named by "
                            f"its question (role {named['role']!r}, name {named['name'][:40]!r})")
        radios = group.locator("input[type=radio]")
        start = group.evaluate("g => Array.from(g.querySelectorAll('input')).findIndex(r => r.checked)")
        radios.nth(max(start, 0)).focus()
        before = page.page.evaluate(JS_ACTIVE_CELL)
        busy = page.busy_count()
        page.page.keyboard.press("ArrowDown")
        after = group.evaluate("g => ({checked: Array.from(g.querySelectorAll('input')).findIndex(r => r.checked),"
                               " focus: g.contains(document.activeElement)})")
        moved = page.page.evaluate(JS_ACTIVE_CELL) != before
        if after["checked"] in (-1, start) or not after["focus"] or moved:
            problems.append(f"cell {index}, question {number + 1}: ArrowDown did not change the answer in place "
                            f"(answer {start} -> {after['checked']}, focus kept: {after['focus']}, "
                            f"JupyterLab moved to another cell: {moved})")
            continue
        try:
            page.wait_settled(busy, area)
        except TimeoutError as error:
            problems.append(f"cell {index}, question {number + 1}: {error}")
    return problems


def plot_sentence_problems(cells: list[CellOutput]) -> list[str]:
    """Every image the page shows is followed by a sentence saying what it shows (printed or in the next cell)."""
    from tooldesign.figures import says_what_it_shows

    problems = []
    by_index = {c.index: c for c in cells}
    for cell in cells:
        for at, output in enumerate(cell.outputs):
            if "image/png" not in output.get("data", {}):
                continue
            after = "".join("".join(o.get("text", "")) for o in cell.outputs[at + 1:] if o.get("output_type") == "stream")
            following = by_index.get(cell.index + 1)
            opening = following.source if following and not following.outputs else ""
            if not (says_what_it_shows(after) or says_what_it_shows(opening)):
                problems.append(f"cell {cell.index}: a plot with no sentence saying what it shows")
    return problems
