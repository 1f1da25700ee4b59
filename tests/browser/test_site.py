"""The course website in a real browser: built offline, served on 127.0.0.1, every page opened in Chromium.

Runs within `make test-browser`, or alone with COURSE_SITE_TESTS=1 (it needs Debian's chromium and the
packages of requirements-browser.txt and requirements-site.txt). Each page must load without a console
error and without asking anything of another host; every internal link lands on a page (and its
#anchor) that exists, and every image draws; each lesson page shows its plots and its printed quiz; the
site's search finds a tool name of lesson 05.
"""
from __future__ import annotations

import functools
import http.server
import importlib.util
import json
import os
import re
import sys
import threading
from pathlib import Path
from urllib.parse import unquote, urlsplit

import pytest

if "1" not in (os.environ.get("COURSE_SITE_TESTS"), os.environ.get("COURSE_BROWSER_TESTS")):
    pytest.skip("the website's browser test runs with COURSE_SITE_TESTS=1 or make test-browser (needs chromium)",
                allow_module_level=True)

import browserlab as lab

ROOT = lab.ROOT
_spec = importlib.util.spec_from_file_location("course_site_build", ROOT / "site" / "build.py")
site_build = importlib.util.module_from_spec(_spec)
sys.modules[_spec.name] = site_build
_spec.loader.exec_module(site_build)

TOOL_NAME = "customer_get_address_gaps"  # a tool lesson 05's workbench opens on
LESSONS = [p.stem for p in sorted((ROOT / "solutions").glob("[0-9][0-9]_*.ipynb"))]


class _Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):  # the test reports what matters itself
        pass


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    out = tmp_path_factory.mktemp("site") / "site"
    built = site_build.build(out)
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(_Quiet, directory=str(out)))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield built, f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()


@pytest.fixture(scope="module")
def browser():
    try:
        lab.chromium_path()
    except lab.BrowserSetupError as missing:
        pytest.fail(f"the site test cannot start: {missing}", pytrace=False)
    with lab.open_browser() as context:
        yield context


def pages(folder: Path) -> list[str]:
    return sorted(p.relative_to(folder).as_posix() for p in folder.rglob("*.html") if not {"_sources", "_static"} & set(p.parts))


def ids_of(path: Path) -> set[str]:
    return set(re.findall(r'\bid="([^"]+)"', path.read_text(encoding="utf-8")))


class Visit:
    """One page opened: what the console said, what failed to load, and what asked another host."""

    def __init__(self, context, base: str, page_path: str):
        self.page = context.new_page()
        self.errors: list[str] = []
        self.outside: list[str] = []
        self.failed: list[str] = []
        self.page.on("console", lambda m: self.errors.append(m.text) if m.type == "error" else None)
        self.page.on("pageerror", lambda e: self.errors.append(str(e)))
        self.page.on("requestfailed", lambda r: self.failed.append(r.url))
        self.page.on("response", lambda r: self.failed.append(f"{r.status} {r.url}") if r.status >= 400 else None)
        host = urlsplit(base).netloc

        def route(request_route):
            url = request_route.request.url
            if urlsplit(url).netloc == host or url.startswith(("data:", "blob:", "about:")):
                request_route.continue_()
            else:
                self.outside.append(url)
                request_route.abort()

        self.page.route("**/*", route)
        self.page.goto(f"{base}/{page_path}", wait_until="load")
        self.page.wait_for_load_state("networkidle")

    def close(self):
        self.page.close()


def broken_targets(folder: Path, page_path: str, hrefs: list[str], base: str) -> list[str]:
    """Every internal link of a page whose file, or #anchor in it, is missing from the built site."""
    problems = []
    for href in hrefs:
        parts = urlsplit(href)
        if f"{parts.scheme}://{parts.netloc}" != base:
            continue  # another site: not the course's to check offline
        target = folder / unquote(parts.path).lstrip("/")
        if target.is_dir():
            target = target / "index.html"
        if not target.is_file():
            problems.append(f"{page_path}: {href}: no such page")
        elif parts.fragment and target.suffix == ".html" and unquote(parts.fragment) not in ids_of(target):
            problems.append(f"{page_path}: {href}: no #{parts.fragment} there")
    return problems


def test_the_build_printed_every_widget(site):
    built, _base = site
    assert built.lessons == len(LESSONS) and built.widgets >= len(LESSONS), built
    for stem in LESSONS:
        text = (built.folder / "notebooks" / f"{stem}.html").read_text(encoding="utf-8")
        assert not re.search(r"\b[HV]Box\(children=", text), f"{stem}: a raw widget repr on the page"
        assert "widget-view+json" not in text and "embed-amd" not in text, f"{stem}: widget JavaScript asked for"


def test_every_page_loads_cleanly_and_its_links_and_images_land(site, browser):
    built, base = site
    problems = []
    for page_path in pages(built.folder):
        visit = Visit(browser, base, page_path)
        try:
            problems += [f"{page_path}: console: {e[:160]}" for e in visit.errors]
            problems += [f"{page_path}: asked another host for {u[:120]}" for u in visit.outside]
            problems += [f"{page_path}: failed to load {u[:120]}" for u in visit.failed]
            hrefs = visit.page.eval_on_selector_all("a[href]", "els => els.map(e => e.href)")
            problems += broken_targets(built.folder, page_path, hrefs, base)
            unloaded = visit.page.eval_on_selector_all(
                "img", "els => els.filter(e => !(e.complete && e.naturalWidth > 0)).map(e => e.src.slice(0, 80))")
            problems += [f"{page_path}: an image that does not draw: {src}" for src in unloaded]
        finally:
            visit.close()
    assert problems == [], "\n".join(problems[:40])


def plots_in(stem: str) -> int:
    notebook = json.loads((ROOT / "solutions" / f"{stem}.ipynb").read_text(encoding="utf-8"))
    return sum(1 for cell in notebook["cells"] for output in cell.get("outputs", [])
               if {"image/png", "image/svg+xml"} & set(output.get("data", {})))


def _flat(text: str) -> str:
    return " ".join(text.split())


@pytest.mark.parametrize("stem", LESSONS)
def test_each_lesson_page_shows_its_plots_and_its_printed_quiz(site, browser, stem):
    from workbook.quiz import lesson_quiz, plain

    _built, base = site
    visit = Visit(browser, base, f"notebooks/{stem}.html")
    try:
        drawn = visit.page.eval_on_selector_all(
            ".cell_output img", "els => els.filter(e => e.complete && e.naturalWidth > 0 && e.offsetWidth > 0).length")
        assert drawn >= plots_in(stem), f"{stem}: {drawn} plots drawn of {plots_in(stem)}"
        cells = visit.page.locator("div.cell").filter(has_text=f'quiz("{stem[:2]}")')
        assert cells.count() == 1, f"{stem}: no quiz cell on the page"
        output = cells.first.locator(".cell_output")
        assert output.is_visible(), f"{stem}: the quiz cell shows nothing"
        shown = _flat(output.inner_text())
        assert "VBox(" not in shown
        for question in lesson_quiz(stem[:2]).questions:
            assert _flat(plain(question.text))[:60] in shown, f"{stem}: the quiz lacks {question.text[:60]!r}"
            assert _flat(plain(question.choices[0].text))[:40] in shown, f"{stem}: a choice is missing"
    finally:
        visit.close()


def test_the_lessons_have_plots_to_check():
    assert sum(plots_in(stem) for stem in LESSONS) >= 10, "the plot check would pass on pages without plots"


def test_the_search_finds_a_tool_name(site, browser):
    _built, base = site
    visit = Visit(browser, base, f"search.html?q={TOOL_NAME}")
    try:
        results = visit.page.locator("#search-results li")
        results.first.wait_for(timeout=30_000)
        found = visit.page.eval_on_selector_all("#search-results li a", "els => els.map(e => e.href)")
        assert any("05_lint" in href for href in found), found[:10]
        assert visit.errors == [], visit.errors
    finally:
        visit.close()


def test_a_broken_link_or_anchor_is_caught(tmp_path):
    (tmp_path / "a.html").write_text('<h1 id="top">a</h1>', encoding="utf-8")
    base = "http://127.0.0.1:9"
    hrefs = [f"{base}/a.html#top", f"{base}/a.html#gone", f"{base}/missing.html", "https://example.com/x"]
    assert broken_targets(tmp_path, "p.html", hrefs, base) == [
        "p.html: http://127.0.0.1:9/a.html#gone: no #gone there",
        "p.html: http://127.0.0.1:9/missing.html: no such page",
    ]
