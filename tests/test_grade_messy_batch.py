"""One batch of hostile and messy submissions, graded for real: with bubblewrap when it is installed
(skipped otherwise) and without it (``--no-sandbox``, as CI's .ci/without-bwrap run sees it). One run
per mode proves every kind at once: a notebook that leaves a 5,000-deep folder tree, folders without
rights, link loops and undecodable names, one that fills its disk quota and one that kills its parent
cost only their own rows; the notebook is graded beside its PDF or HTML export, inside a zip, in
nbformat 3 and 4.2; names outside ASCII match the roster; swapped grade_ids are graded by the cells'
own ids; and a file that matches no roster row is named in the summary."""

from __future__ import annotations

import json
import unicodedata
import zipfile
from pathlib import Path

import nbformat
import pytest
from grading_run import private_grade_tmp

from workbook import SOLUTIONS_DIR
from workbook.grade import GradeOptions, grade
from workbook.grade.kernel import Limits
from workbook.grade.results import Status
from workbook.notebook_files import write_notebook
from workbook.release import learner_copy, read_notebook

NB00, NB01 = "00_start_here", "01_sap_orders_data"

DEEP = "import os as _os\n_top = _os.getcwd()\nfor _ in range(5000):\n    _os.mkdir('d'); _os.chdir('d')\n_os.chdir(_top)\n"
LOCKED = (
    "import os as _os\n_os.makedirs('locked/inner/deeper'); open('locked/inner/f', 'w').write('x')\n"
    "_os.chmod('locked/inner/deeper', 0); _os.chmod('locked/inner', 0o500); _os.chmod('locked', 0)\n"
    "_os.makedirs('/tmp/zero'); _os.chmod('/tmp/zero', 0)\n"
)
LINKS = (
    "import os as _os\n_os.symlink('loop', 'loop'); _os.mkdir('sub'); _os.symlink('..', 'sub/up')\n"
    "_os.symlink('/', 'root'); _os.mkdir(b'bad\\xff'); open(b'bad\\xff/\\x80', 'wb').write(b'x')\n"
)
FILL = "with open('/tmp/big', 'wb') as _f:\n    for _ in range(200):\n        _f.write(b'x' * (1 << 20))\n"
KILL = "import os as _os, signal as _signal\n_os.kill(_os.getppid(), _signal.SIGKILL)\n"


def _solved(stem: str, extra: str = "") -> nbformat.NotebookNode:
    """The released notebook with the solution's answers; ``extra`` run after the first answer."""
    notebook = learner_copy(read_notebook(SOLUTIONS_DIR / f"{stem}.ipynb"))
    solution = {c.metadata.get("nbgrader", {}).get("grade_id"): c for c in read_notebook(SOLUTIONS_DIR / f"{stem}.ipynb").cells}
    first = True
    for cell in notebook.cells:
        meta = cell.metadata.get("nbgrader", {})
        if meta.get("solution") and not meta.get("grade"):
            cell.source = solution[meta["grade_id"]].source + ("\n" + extra if first and extra else "")
            first = False
    return notebook


def _older(notebook: nbformat.NotebookNode, major: int, minor: int) -> str:
    if major == 3:
        return nbformat.writes(nbformat.convert(notebook, 3), version=3)
    data = json.loads(nbformat.writes(notebook))
    data["nbformat_minor"] = minor
    for cell in data["cells"]:
        cell.pop("id", None)
    return json.dumps(data)


def _swapped(stem: str) -> nbformat.NotebookNode:
    """The two answer cells' grade_ids swapped (each cell keeps its own id and answer)."""
    notebook = _solved(stem)
    answers = [c for c in notebook.cells if c.metadata.get("nbgrader", {}).get("solution")
               and not c.metadata["nbgrader"].get("grade")]
    first, second = answers[0].metadata["nbgrader"], answers[1].metadata["nbgrader"]
    first["grade_id"], second["grade_id"] = second["grade_id"], first["grade_id"]
    return notebook


def _write(path: Path, notebook: nbformat.NotebookNode) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    write_notebook(path, notebook)


def _class(root: Path) -> Path:
    root.mkdir(parents=True)
    for learner, extra in (("deep", DEEP), ("locked", LOCKED), ("links", LINKS), ("filler", FILL), ("killer", KILL),
                           ("control", "")):
        _write(root / learner / f"{NB00}.ipynb", _solved(NB00, extra))
    # Canvas: the PDF uploaded after the notebook, the name written in NFD as a Mac unpacks it
    canvas = unicodedata.normalize("NFD", "müllerjürgen_12345_900_00_start_here.ipynb")
    _write(root / canvas, _solved(NB00))
    (root / unicodedata.normalize("NFD", "müllerjürgen_12345_901_00_start_here.pdf")).write_bytes(b"%PDF-1.4")
    # Moodle in folders: an HTML export beside a notebook saved in format 4.2 (no cell ids)
    moodle = root / "Zoë Ångström_77_assignsubmission_file_"
    moodle.mkdir()
    (moodle / f"{NB00}.ipynb").write_text(_older(_solved(NB00), 4, 2))
    (moodle / f"{NB00}.html").write_text("<html>the notebook as a page</html>")
    (root / "old3").mkdir()
    (root / "old3" / f"{NB00}.ipynb").write_text(_older(_solved(NB00), 3, 0))
    (root / "zipper").mkdir()
    with zipfile.ZipFile(root / "zipper" / "lab.zip", "w") as archive:
        archive.writestr(f"lab/{NB00}.ipynb", nbformat.writes(_solved(NB00)))
        archive.writestr(f"lab/{NB00}.pdf", b"%PDF-1.4")
        archive.writestr(f"lab/.ipynb_checkpoints/{NB00}-checkpoint.ipynb", b"{}")
    _write(root / "swapper" / f"{NB01}.ipynb", _swapped(NB01))
    _write(root / "stranger_5_6_00_start_here.ipynb", _solved(NB00))
    return root


ROSTER = (
    "learner,name,canvas_id\n"
    "deep,,\nlocked,,\nlinks,,\nfiller,,\nkiller,,\ncontrol,,\n"
    "jm,\"Müller, Jürgen\",\nzoe,Zoë Ångström,\nold3,,\nzipper,,\nswapper,,\nghost,,\n"
)


@pytest.fixture(scope="module", params=["bwrap", "none"])
def batch(request, tmp_path_factory):
    from workbook.grade.sandbox import detect

    if request.param == "bwrap" and not detect().isolated:
        pytest.skip("needs bubblewrap (bwrap) that can make a sandbox here")
    base = tmp_path_factory.mktemp(f"messy-{request.param}")
    roster = base / "roster.csv"
    roster.write_text(ROSTER, encoding="utf-8")
    with private_grade_tmp("wbm") as work:
        report = grade(GradeOptions(_class(base / "in"), base / "out", jobs=1, timeout=120, progress=False,
                       sandbox=None if request.param == "bwrap" else False, roster=roster,
                       limits=Limits(memory=1024 << 20, disk=64 << 20), say=lambda text: None))
        left = sorted(p.name for p in work.iterdir())
    rows = {}
    for row in report.rows:
        rows.setdefault(row.learner, []).append(row)
    return report, rows, left, base / "out"


CANVAS_KEY, MOODLE_KEY = "müllerjürgen_12345", "zoe-angstrom_77"


def _one(rows, learner):
    """The learner's one graded row (a roster learner also gets a "missing" row for the other notebook)."""
    [row] = [r for r in rows[learner] if r.status is not Status.MISSING]
    return row


def test_every_learner_gets_a_row_and_the_gradebook_is_written(batch):
    report, rows, left, out = batch
    assert set(rows) == {"deep", "locked", "links", "filler", "killer", "control", CANVAS_KEY, MOODLE_KEY, "old3",
                         "zipper", "swapper", "ghost", "stranger_5", "jm", "zoe"}
    assert (out / "gradebook.csv").is_file() and len(report.feedback) == len(rows)
    assert left == []  # every work folder removed, the 5,000-deep tree too


def test_what_a_notebook_leaves_in_its_folder_costs_it_nothing(batch):
    _, rows, _, _ = batch
    control = _one(rows, "control")
    assert control.status is Status.GRADED and control.total == control.max > 0
    for learner in ("deep", "locked", "links"):
        row = _one(rows, learner)
        assert (row.status, row.total) == (Status.GRADED, control.max), (learner, row.reason, row.notes)


def test_filling_the_disk_or_killing_the_parent_costs_only_that_row_with_a_reason(batch):
    _, rows, _, _ = batch
    filler, killer = _one(rows, "filler"), _one(rows, "killer")
    assert filler.status is Status.DISK_LIMIT and "disk quota" in filler.reason
    if killer.sandbox == "unsandboxed":  # its parent is the grading process, which dies: that row only
        assert killer.status is Status.CRASHED and "killed" in killer.reason
    else:  # in bubblewrap its parent is the sandbox's init, which a signal from inside cannot kill
        assert killer.status is Status.GRADED and killer.total == killer.max


def test_the_notebook_is_graded_beside_its_exports_and_the_feedback_names_them(batch):
    _, rows, _, out = batch
    full = _one(rows, "control").max
    for learner, ignored in ((CANVAS_KEY, ".pdf"), (MOODLE_KEY, ".html"), ("zipper", ".pdf")):
        row = _one(rows, learner)
        assert (row.status, row.total) == (Status.GRADED, full), (learner, row.reason)
        assert any("not graded" in n and ignored in n for n in row.notes), row.notes
    feedback = "".join(p.read_text(encoding="utf-8") for p in (out / "feedback").iterdir())
    assert "müllerjürgen_12345_901_00_start_here.pdf" in unicodedata.normalize("NFC", feedback)


def test_older_notebook_formats_are_graded(batch):
    _, rows, _, _ = batch
    for learner in ("old3", MOODLE_KEY):
        row = _one(rows, learner)
        assert row.total == row.max > 0, (learner, row.reason)


def test_swapped_grade_ids_are_graded_by_the_cells_own_ids_and_said(batch):
    _, rows, _, _ = batch
    row = _one(rows, "swapper")
    assert row.total == row.max > 0, [(e.grade_id, e.message) for e in row.exercises]
    assert any("swapped" in note for note in row.notes)


def test_names_outside_ascii_match_the_roster_and_a_stranger_is_named(batch):
    report, rows, _, out = batch
    assert {r.status for r in rows["ghost"]} == {Status.MISSING}
    # matched by name: their only "missing" row is for the notebook they did not send (01), not for 00
    for entry in ("jm", "zoe"):
        assert {(r.notebook, r.status) for r in rows[entry]} == {(NB01, Status.MISSING)}
    line = next(line for line in report.summary if line.startswith("submissions with no roster row"))
    assert "stranger_5" in line and ": 1 (" in line
    assert "no roster row\tstranger_5" in (out / "roster-report.txt").read_text(encoding="utf-8")
