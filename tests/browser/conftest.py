"""Fixtures of the browser tests: one JupyterLab over a copy of the course, one Chromium, one page per notebook.

These tests need Chromium and Playwright, so `make test` leaves them out; `make test-browser`
(which sets COURSE_BROWSER_TESTS=1) runs them. The website's test (test_site.py) runs there too, or
alone with COURSE_SITE_TESTS=1. The fixture notebook under fixtures/ is broken on
purpose and is never collected by nbval.
"""
from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

import browserlab as lab

collect_ignore = ["fixtures"]
if os.environ.get("COURSE_BROWSER_TESTS") != "1":
    # test_site.py is collected everywhere and says in one skip line why it did not run.
    collect_ignore_glob = ["test_browser_*.py"]

HERE = Path(__file__).resolve().parent
FAILURES = Path(os.environ.get("BROWSER_FAILURES", lab.ROOT / "browser-failures"))
RESULTS: dict[str, dict] = {}


def pytest_configure(config):
    # pytest-xdist registers it only when it runs; the website's test runs with -p no:xdist.
    config.addinivalue_line("markers", "xdist_group(name): the tests of one notebook stay on one worker")


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(items):
    """Under `-n 2 --dist loadgroup` (make test-browser) each worker has its own JupyterLab and Chromium:
    a notebook's tests stay on one worker, so it is opened and run once there (the same group in every
    file), and a file's other tests stay together, so its broken fixture notebook is opened once too."""
    for item in items:
        if HERE not in item.path.parents:
            continue
        params = getattr(getattr(item, "callspec", None), "params", {})
        group = Path(params["notebook"]).stem if "notebook" in params else item.path.stem
        item.add_marker(pytest.mark.xdist_group(group))


def pytest_sessionfinish(session):
    """A worker hands its figures to the process that prints the summary."""
    output = getattr(session.config, "workeroutput", None)
    if output is not None:
        output["browser_figures"] = json.dumps(RESULTS)


@pytest.hookimpl(optionalhook=True)
def pytest_testnodedown(node, error):
    for name, record in json.loads(getattr(node, "workeroutput", {}).get("browser_figures", "{}")).items():
        RESULTS.setdefault(name, {}).update(record)


@pytest.fixture(scope="session")
def lab_server(tmp_path_factory):
    try:
        lab.chromium_path()
        import playwright  # noqa: F401
    except (lab.BrowserSetupError, ImportError) as missing:
        pytest.fail(f"the browser tests cannot start: {missing}", pytrace=False)
    with lab.lab_server(tmp_path_factory.mktemp("lab")) as server:
        yield server


@pytest.fixture(scope="session")
def browser(lab_server):
    with lab.open_browser() as context:
        yield context


def relative(notebook: Path) -> str:
    return notebook.resolve().relative_to(lab.ROOT).as_posix()


@pytest.fixture(scope="session", params=[relative(p) for p in lab.learner_notebooks()], ids=lambda p: Path(p).stem)
def notebook(request, browser, lab_server):
    """One learner notebook, opened and run through once (Run All), shared by every test of that notebook
    in every file (pytest runs them together; a test that changes the page's width puts it back)."""
    page = lab.NotebookPage.open(browser, lab_server, request.param)
    record = RESULTS.setdefault(Path(request.param).stem, {"problems": 0})
    try:
        record["run_all_s"] = page.run_all()
        yield page
    finally:
        page.close()


@pytest.fixture
def on_failure(request):
    """Call with a page: if the test then fails, a screenshot and the outputs are kept, and the folder named."""
    pages = []
    yield pages.append
    report = getattr(request.node, "rep_call", None)
    if report is not None and report.failed:
        for page in pages:
            folder = page.record_failure(FAILURES, request.node.name, str(report.longrepr))
            print(f"\n[browser] screenshot and outputs of {page.notebook}: {folder}")
            report.sections.append(("browser failure", f"screenshot and outputs in {folder}"))


@pytest.hookimpl(hookwrapper=True, tryfirst=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    report = outcome.get_result()
    if report.when == "call":
        item.rep_call = report


def pytest_terminal_summary(terminalreporter):
    if not RESULTS:
        return
    terminalreporter.section("browser figures (timings are figures, not verdicts)")
    for name, record in sorted(RESULTS.items()):
        slowest = max(record.get("settle_s", [0.0]) or [0.0])
        terminalreporter.write_line(
            f"{name}: Run All {record.get('run_all_s', float('nan')):.1f} s; widgets {record.get('widgets', '?')}, "
            f"quizzes {record.get('quizzes', '?')}, explorers/testers/panels {record.get('interactive', '?')}; "
            f"slowest change->settled {slowest:.2f} s"
            + (f"; text ahead of chart by up to {max(record['text_first_ms']):.0f} ms while drawing"
               if record.get("text_first_ms") else "")
            + (f"; layout: {'; '.join(record['layout'])}" if record.get("layout") else ""))
