"""Build the course website: the README, the guides and every lesson with its stored outputs.

    .venv/bin/python site/build.py [--out build/site]      # what `make site` runs

A pipeline of named steps. ``stage`` lays out, under ``build/site-src``, the same tree the repository
has (README.md, docs/, notebooks/), so every relative link the course writes lands on the site as it
does on GitHub; the lesson pages are the solution notebooks, whose outputs are committed. ``printed_widgets``
replaces each widget view in them by its printed form, read from the widget state stored in the
notebook (a quiz prints its questions and choices, an explorer the values it showed): a static page
cannot run a widget, and a bare ``VBox(...)`` tells a reader nothing. ``sphinx`` renders the tree with
myst-nb without running a cell, and nothing is fetched: the build works with the network unplugged.
"""

from __future__ import annotations

import argparse
import html
import json
import re
import shutil
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SITE = Path(__file__).resolve().parent
WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"
WIDGET_STATE = "application/vnd.jupyter.widget-state+json"
TIME_LINE = re.compile(r"\*\*Time:\*\* about (\d+) minutes")
# A badge image from another site: on the website it is a plain link (nothing is loaded from elsewhere).
BADGE = re.compile(r"\[!\[([^\]]*)\]\([^)]*\)\]\(([^)]*)\)")
# The text form ipywidgets gives a widget: a class name and its fields, unreadable to a person.
RAW_WIDGET = re.compile(r"^[A-Z]\w*\((?:children|value|options|description|layout)=", re.S)
# A link to a row of the References table: the row's anchor is raw HTML (<a id="r20">), which Sphinx
# cannot resolve, so on the site such a link is written as HTML to the built page.
ROW_LINK = re.compile(r"\[([^\]]+)\]\(((?:\.\./)*(?:docs/)?references)\.md#(r\d+)\)")
GUIDES = ("learner", "real-models", "mcp-server", "instructor", "lab-day", "AUTHORING", "references", "glossary")


class SiteError(Exception):
    """A build that cannot go on; the message says what to do."""


@dataclass(frozen=True)
class Lesson:
    stem: str  # "05_lint"
    title: str
    minutes: int | None


@dataclass(frozen=True)
class Built:
    folder: Path
    pages: int
    lessons: int
    widgets: int


# ---------- the widgets' printed form ----------


def _model(state: dict, ref: str) -> dict | None:
    return state.get(ref.removeprefix("IPY_MODEL_")) if isinstance(ref, str) else None


def widget_html(state: dict, model_id: str) -> str:
    """The printed form of one widget and its children, from the state the notebook stored."""
    model = state.get(model_id)
    if model is None:
        return ""
    name, fields = model["model_name"], model.get("state", {})
    description = html.escape(str(fields.get("description", "") or ""))
    label = f"<b>{description}</b> " if description else ""
    if name in ("VBoxModel", "BoxModel", "GridBoxModel", "AccordionModel", "TabModel", "HBoxModel"):
        inner = "".join(widget_html(state, ref.removeprefix("IPY_MODEL_")) for ref in fields.get("children", []))
        return f'<div class="course-row">{inner}</div>' if name == "HBoxModel" else f"<div>{inner}</div>"
    if name in ("HTMLModel", "HTMLMathModel"):
        return f"<div>{label}{_without_scripts(str(fields.get('value', '')))}</div>"
    if name == "LabelModel":
        return f"<div>{html.escape(str(fields.get('value', '')))}</div>"
    if name == "ButtonModel":
        return f'<button type="button" disabled>{description or html.escape(str(fields.get("icon", "")))}</button>'
    if name in ("RadioButtonsModel", "DropdownModel", "SelectModel", "ToggleButtonsModel", "SelectMultipleModel"):
        labels = fields.get("_options_labels", [])
        chosen = fields.get("index")
        chosen = set(chosen) if isinstance(chosen, list) else {chosen}
        items = "".join(f"<li>{'●' if i in chosen else '○'} {html.escape(str(text))}</li>" for i, text in enumerate(labels))
        return f'<div>{label}<ul class="course-choices">{items}</ul></div>'
    if name in ("TextareaModel", "TextModel"):
        return f"<div>{label}<pre>{html.escape(str(fields.get('value', '')))}</pre></div>"
    if name == "CheckboxModel":
        return f"<div>{'☑' if fields.get('value') else '☐'} {description}</div>"
    if name.endswith(("SliderModel", "TextModel", "ProgressModel")) or name == "BoundedIntTextModel":
        return f"<div>{label}{html.escape(str(fields.get('value', '')))}</div>"
    if name == "OutputModel":
        return "".join(_output_html(output) for output in fields.get("outputs", []))
    return ""


def _without_scripts(text: str) -> str:
    """HTML with nothing that runs: no <script>, and no element that runs code when it loads or fails
    (the course's page helper is an invisible image whose onerror installs keyboard handlers)."""
    text = re.sub(r"<script\b.*?</script>", "", text, flags=re.S | re.I)
    return re.sub(r"<(?:img|svg|iframe)\b[^>]*\son\w+\s*=[^>]*>", "", text, flags=re.S | re.I)


def _output_html(output: dict) -> str:
    data = output.get("data", {})
    if "text/html" in data:
        return _without_scripts("".join(data["text/html"]))
    if "image/png" in data:
        return f'<img alt="a chart" src="data:image/png;base64,{"".join(data["image/png"]).strip()}">'
    text = output.get("text") or data.get("text/plain") or ""
    return f"<pre>{html.escape(''.join(text))}</pre>" if text else ""


def printed_widgets(notebook: dict) -> tuple[dict, int]:
    """The notebook with each widget view replaced by its printed form; how many were replaced.

    An output that already carries a printed form of its own (text/html, an image) keeps it; one whose
    only other form is the raw ``VBox(...)`` text gets the form drawn from the stored widget state."""
    state = notebook.get("metadata", {}).pop("widgets", {}).get(WIDGET_STATE, {}).get("state", {})
    replaced = 0
    for cell in notebook["cells"]:
        for output in cell.get("outputs", []):
            data = output.get("data", {})
            view = data.pop(WIDGET_VIEW, None)
            if view is None:
                continue
            replaced += 1
            plain = "".join(data.get("text/plain", ""))
            if RAW_WIDGET.match(plain):
                data.pop("text/plain")
            if not ({"text/html", "image/png", "image/svg+xml", "text/markdown"} & set(data)):
                printed = widget_html(state, view.get("model_id", ""))
                data["text/html"] = (
                    '<div class="course-widget"><div class="course-widget-note">An interactive widget, shown '
                    "as the notebook left it; open the notebook in JupyterLab to use it.</div>"
                    f"{printed}</div>"
                )
    return notebook, replaced


def raw_widget_texts(notebook: dict) -> list[str]:
    """Every output a reader would see as a raw widget repr (none, once printed_widgets has run)."""
    found = []
    for cell in notebook["cells"]:
        for output in cell.get("outputs", []):
            data = output.get("data", {})
            shown = "".join(data.get("text/plain", "")) if set(data) <= {"text/plain"} else ""
            if RAW_WIDGET.match(shown) or WIDGET_VIEW in data:
                found.append(shown[:60] or WIDGET_VIEW)
    return found


# ---------- the pages ----------


def lessons(root: Path = ROOT) -> list[Lesson]:
    found = []
    for path in sorted((root / "solutions").glob("[0-9][0-9]_*.ipynb")):
        cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
        first = "".join(cells[0]["source"]) if cells else ""
        title = next((line.lstrip("# ").strip() for line in first.splitlines() if line.startswith("#")), path.stem)
        match = TIME_LINE.search(first)
        found.append(Lesson(path.stem, title, int(match[1]) if match else None))
    return found


def course_map(found: list[Lesson]) -> str:
    rows = "\n".join(
        f"| {lesson.stem[:2]} | [{lesson.title}](notebooks/{lesson.stem}.ipynb) | "
        f"{'about ' + format(lesson.minutes, ',') if lesson.minutes else 'not stated'} |"
        for lesson in found
    )
    total = sum(lesson.minutes or 0 for lesson in found)
    return (
        "# Course map\n\nThe lessons in order, each with the time its notebook states for a careful learner "
        "who runs every cell, does every exercise and answers every quiz.\n\n"
        f"| # | lesson | minutes |\n|---|---|---|\n{rows}\n\n"
        f"In all about {total:,} minutes. The [README](README.md) says what each lesson does.\n"
    )


def toctree(caption: str, entries: Iterator[str] | list[str]) -> str:
    lines = "\n".join(entries)
    return f"\n```{{toctree}}\n:hidden:\n:caption: {caption}\n\n{lines}\n```\n"


def _site_markdown(text: str) -> str:
    return ROW_LINK.sub(r'<a href="\2.html#\3">\1</a>', BADGE.sub(r"[\1](\2)", text))


def stage(root: Path, src: Path) -> int:
    """Lay out the site's sources as the repository's tree; return how many widgets were printed."""
    if src.exists():
        shutil.rmtree(src)
    (src / "docs").mkdir(parents=True)
    (src / "notebooks").mkdir()
    shutil.copytree(SITE / "_static", src / "_static")
    shutil.copy2(SITE / "conf.py", src / "conf.py")
    found = lessons(root)
    readme = _site_markdown((root / "README.md").read_text(encoding="utf-8"))
    readme += toctree("Course", ["course-map"] + [f"notebooks/{lesson.stem}" for lesson in found])
    readme += toctree("Guides", [f"docs/{name}" for name in GUIDES])
    (src / "README.md").write_text(readme, encoding="utf-8")
    (src / "course-map.md").write_text(course_map(found), encoding="utf-8")
    for name in GUIDES:
        text = (root / "docs" / f"{name}.md").read_text(encoding="utf-8")
        (src / "docs" / f"{name}.md").write_text(_site_markdown(text), encoding="utf-8")
    widgets = 0
    for lesson in found:
        notebook = json.loads((root / "solutions" / f"{lesson.stem}.ipynb").read_text(encoding="utf-8"))
        notebook, count = printed_widgets(notebook)
        for cell in notebook["cells"]:
            if cell["cell_type"] == "markdown":
                cell["source"] = _site_markdown("".join(cell["source"]))
            # A Markdown output (a table of published figures) is rendered as it stands, so its links
            # to the guides are rewritten here as a cell's are.
            for output in cell.get("outputs", []):
                data = output.get("data", {})
                if "text/markdown" in data:
                    data["text/markdown"] = _site_markdown("".join(data["text/markdown"]))
        widgets += count
        left = raw_widget_texts(notebook)
        if left:
            raise SiteError(f"{lesson.stem}: a widget output still reads {left[0]!r}; give it a printed form")
        (src / "notebooks" / f"{lesson.stem}.ipynb").write_text(json.dumps(notebook, ensure_ascii=False), encoding="utf-8")
    return widgets


def sphinx(src: Path, out: Path) -> None:
    if out.exists():
        shutil.rmtree(out)
    done = subprocess.run(
        [sys.executable, "-m", "sphinx", "-b", "html", "-q", "-j", "1", "-c", str(src), str(src), str(out)],
        capture_output=True, text=True,
    )
    if done.returncode != 0:
        raise SiteError(f"sphinx-build failed:\n{done.stderr.strip()[-2000:]}")
    warnings = [line for line in done.stderr.splitlines() if "WARNING" in line or "ERROR" in line]
    if warnings:
        raise SiteError("the site has broken parts; fix these:\n" + "\n".join(warnings[:40]))
    # GitHub Pages and a plain web server open index.html; the README is the front page.
    shutil.copy2(out / "README.html", out / "index.html")


def build(out: Path, root: Path = ROOT) -> Built:
    try:
        import myst_nb  # noqa: F401
        import sphinx_book_theme  # noqa: F401
    except ImportError:
        raise SiteError("the site's packages are missing: .venv/bin/pip install -r requirements-site.txt "
                        "(make site does this)") from None
    src = out.parent / f"{out.name}-src"
    widgets = stage(root, src)
    sphinx(src, out)
    pages = len(list(out.rglob("*.html")))
    return Built(out, pages, len(lessons(root)), widgets)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Build the course website from the notebooks' stored outputs.")
    parser.add_argument("--out", type=Path, default=ROOT / "build" / "site", help="where (default: build/site)")
    args = parser.parse_args(argv)
    try:
        built = build(args.out.resolve())
    except SiteError as error:
        print(f"site: {error}", file=sys.stderr)
        return 1
    print(f"site built in {built.folder}: {built.pages:,} pages, {built.lessons:,} lessons, "
          f"{built.widgets:,} widgets in their printed form; open {built.folder / 'index.html'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
