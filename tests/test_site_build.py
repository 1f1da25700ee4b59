"""The website's build steps that need no Sphinx and no browser (the browser test is tests/browser/test_site.py)."""
from __future__ import annotations

import copy
import importlib.util
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
_spec = importlib.util.spec_from_file_location("course_site_build", ROOT / "site" / "build.py")
site = importlib.util.module_from_spec(_spec)
sys.modules[_spec.name] = site
_spec.loader.exec_module(site)

VIEW = "application/vnd.jupyter.widget-view+json"


def _notebook(outputs: list[dict], state: dict) -> dict:
    return {"cells": [{"cell_type": "code", "source": "quiz('05')", "outputs": outputs}],
            "metadata": {"widgets": {"application/vnd.jupyter.widget-state+json": {"state": state}}}}


STATE = {
    "box": {"model_name": "VBoxModel", "state": {"children": ["IPY_MODEL_q", "IPY_MODEL_r", "IPY_MODEL_b"]}},
    "q": {"model_name": "HTMLModel", "state": {"value": "<b>1. Which tool?</b><script>alert(1)</script>"}},
    "r": {"model_name": "RadioButtonsModel", "state": {"_options_labels": ["first", "second"], "index": None}},
    "b": {"model_name": "ButtonModel", "state": {"description": "Check"}},
    "helper": {"model_name": "HTMLModel",
               "state": {"value": "<style>x{}</style><img src='data:,' style='display:none' onerror=\"go()\">"}},
}


def test_a_raw_widget_repr_becomes_its_printed_form():
    output = {"output_type": "display_data",
              "data": {"text/plain": "VBox(children=(HTML(value='1. Which tool?'),))", VIEW: {"model_id": "box"}}}
    notebook, replaced = site.printed_widgets(_notebook([output], copy.deepcopy(STATE)))
    assert replaced == 1 and "widgets" not in notebook["metadata"]
    data = notebook["cells"][0]["outputs"][0]["data"]
    assert set(data) == {"text/html"}
    printed = data["text/html"]
    assert "1. Which tool?" in printed and "first" in printed and "second" in printed and "Check" in printed
    assert "<script" not in printed and "VBox(" not in printed
    assert site.raw_widget_texts(notebook) == []


def test_a_printed_form_the_output_already_has_is_kept():
    output = {"output_type": "display_data",
              "data": {"text/plain": "Quiz: 1. Which tool?", "text/html": "<p>1. Which tool?</p>", VIEW: {"model_id": "box"}}}
    notebook, _ = site.printed_widgets(_notebook([output], copy.deepcopy(STATE)))
    assert notebook["cells"][0]["outputs"][0]["data"] == {"text/plain": "Quiz: 1. Which tool?",
                                                          "text/html": "<p>1. Which tool?</p>"}


def test_code_that_runs_on_load_is_left_out():
    printed = site.widget_html(STATE, "helper")
    assert "onerror" not in printed and "<img" not in printed and "<style>" in printed


def test_a_raw_repr_left_on_a_page_is_caught():
    bare = {"cells": [{"cell_type": "code", "outputs": [{"data": {"text/plain": "HBox(children=(Button(),))"}}]}]}
    assert site.raw_widget_texts(bare) == ["HBox(children=(Button(),))"]
    assert site.raw_widget_texts({"cells": [{"cell_type": "code", "outputs": [{"data": {"text/plain": "Box(3)"}}]}]}) == []


@pytest.mark.parametrize("path", sorted((ROOT / "solutions").glob("[0-9][0-9]_*.ipynb")), ids=lambda p: p.stem)
def test_every_lesson_has_no_raw_widget_left_on_its_page(path):
    notebook, _ = site.printed_widgets(json.loads(path.read_text(encoding="utf-8")))
    assert site.raw_widget_texts(notebook) == []


def test_the_course_map_page_sums_to_the_readmes_total():
    page = site.course_map(site.lessons())
    total = int(re.search(r"In all about ([\d,]+) minutes", page)[1].replace(",", ""))
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert re.search(rf"About {total:,} minutes in all", readme, re.I), "the course map and the README disagree"
    assert page.count("](notebooks/") == len(site.lessons()) == 20


def test_links_to_a_references_row_become_html_links_to_the_built_page():
    text = "[R19](../docs/references.md#r19) and [R3](https://example.com) and [g](../docs/glossary.md)"
    assert site._site_markdown(text) == ('<a href="../docs/references.html#r19">R19</a> and [R3](https://example.com)'
                                         " and [g](../docs/glossary.md)")
    badge = "[![Launch](https://mybinder.org/badge.svg)](https://mybinder.org/v2/x)"
    assert site._site_markdown(badge) == "[Launch](https://mybinder.org/v2/x)"


def test_the_pages_workflow_builds_as_make_site_does_and_deploys():
    flow = (ROOT / ".github" / "workflows" / "pages.yml").read_text(encoding="utf-8")
    for needed in ("requirements-site.txt", "site/build.py --out build/site", "actions/upload-pages-artifact", "path: build/site", "actions/deploy-pages",
                   "pages: write", "id-token: write"):
        assert needed in flow, needed
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    assert "\nsite: setup" in makefile and "requirements-site.txt" in makefile
    assert "site/build.py --out build/site" in makefile
    ignored = subprocess.run(["git", "check-ignore", "-q", "build/site/index.html"], cwd=ROOT)
    assert ignored.returncode == 0, "the built site must be git-ignored"


def test_the_site_pins_are_exact():
    pins = [line for line in (ROOT / "requirements-site.txt").read_text().splitlines() if line and not line.startswith("#")]
    assert pins and all(re.fullmatch(r"[A-Za-z0-9_.-]+==[\w.]+", pin) for pin in pins), pins
