"""``workbook doctor``: is this machine ready for the course?

One line per requirement, [OK] or [FAIL], and for each failure the command that fixes it. The
pins come from requirements.txt, the same file the set-up installs from.
"""

from __future__ import annotations

import errno
import os
import sys
import tempfile
from dataclasses import dataclass
from importlib import metadata
from pathlib import Path

from packaging.requirements import InvalidRequirement, Requirement

from workbook import DATA_DIR, REPO_ROOT

FIX_SETUP = "run `make lab` (or `python scripts/setup_env.py`) to reinstall the pinned versions"


@dataclass(frozen=True)
class DoctorFinding:
    ok: bool
    what: str
    fix: str = ""

    def line(self) -> str:
        text = f"[{'OK' if self.ok else 'FAIL'}] {self.what}"
        return text if self.ok else f"{text}\n       fix: {self.fix}"


def pinned(requirements: Path = REPO_ROOT / "requirements.txt") -> dict[str, str]:
    """name -> version for every ``name==version`` line that applies to this machine.

    pip's own parser (packaging) reads each line, so the doctor understands a line exactly as the
    set-up's pip does, markers included; comments, options (-r, -e) and ranges are not pins.
    """
    pins = {}
    for line in requirements.read_text().splitlines():
        text = line.split("#", 1)[0].strip()
        if not text or text.startswith("-"):
            continue
        try:
            requirement = Requirement(text)
        except InvalidRequirement:
            continue
        if requirement.marker is not None and not requirement.marker.evaluate():
            continue
        exact = [spec.version for spec in requirement.specifier if spec.operator == "=="]
        if len(exact) == 1:
            pins[requirement.name] = exact[0]
    return pins


def check_python() -> DoctorFinding:
    version = ".".join(map(str, sys.version_info[:3]))
    # The doctor may run under an older interpreter than the package supports: say so rather than fail.
    if sys.version_info >= (3, 10):  # noqa: UP036
        return DoctorFinding(True, f"Python {version}")
    return DoctorFinding(
        False, f"Python {version} is too old", "install Python 3.10 or newer, then run `make lab`"
    )


def check_package(name: str, wanted: str) -> DoctorFinding:
    try:
        found = metadata.version(name)
    except metadata.PackageNotFoundError:
        return DoctorFinding(False, f"{name} is not installed (want {wanted})", FIX_SETUP)
    if found != wanted:
        return DoctorFinding(False, f"{name} {found} is installed, the course pins {wanted}", FIX_SETUP)
    return DoctorFinding(True, f"{name} {found}")


def check_widget_extension() -> DoctorFinding:
    """ipywidgets draws nothing in JupyterLab without its front-end extension."""
    try:
        metadata.version("jupyterlab_widgets")
    except metadata.PackageNotFoundError:
        return DoctorFinding(
            False, "the JupyterLab widget extension (jupyterlab_widgets) is missing", FIX_SETUP
        )
    extension = Path(sys.prefix) / "share/jupyter/labextensions/@jupyter-widgets/jupyterlab-manager"
    if not extension.is_dir():
        return DoctorFinding(False, f"the widget extension's files are not in {extension}", FIX_SETUP)
    return DoctorFinding(True, "JupyterLab widget extension")


def check_data_writable(folder: Path = DATA_DIR) -> DoctorFinding:
    try:
        folder.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile(dir=folder, prefix=".doctor-", delete=True):
            pass
    except OSError as error:
        from tooldesign.data.files import (
            writable_advice,
        )  # one home for the advice the data builder gives too

        fix = writable_advice(folder, read_only=error.errno == errno.EROFS) + ", then run `make lab` there"
        return DoctorFinding(False, f"cannot write to {folder} ({error.strerror})", fix)
    return DoctorFinding(True, f"write access to {os.path.relpath(folder, REPO_ROOT)}/")


def check_data_files(folder: Path = DATA_DIR) -> DoctorFinding:
    """Every data file is there and is what the builder wrote (sizes and checksums in each MANIFEST.json)."""
    try:
        from tooldesign.data import check_all

        found = check_all(folder)
    except ImportError as error:
        return DoctorFinding(False, f"the course package cannot be imported ({error})", FIX_SETUP)
    if found:
        more = f" (and {len(found) - 1} more)" if len(found) > 1 else ""
        return DoctorFinding(
            False,
            found[0].split(";")[0] + more,
            "run `make data` (or .venv/bin/tooldesign data) to rebuild data/",
        )
    return DoctorFinding(True, f"data files in {os.path.relpath(folder, REPO_ROOT)}/ match their manifests")


def run_checks() -> list[DoctorFinding]:
    findings = [check_python()]
    findings += [check_package(name, version) for name, version in pinned().items()]
    findings += [check_widget_extension(), check_data_writable(), check_data_files()]
    return findings


def main() -> int:
    findings = run_checks()
    for finding in findings:
        print(finding.line())
    failures = sum(not f.ok for f in findings)
    print(
        f"\n{len(findings) - failures} OK, {failures} FAIL" + ("" if failures else ": ready for the course.")
    )
    from tooldesign.selection.models import local_model_status  # optional: never a FAIL, at most 2 s

    print(f"[info] {local_model_status().message}")
    return 1 if failures else 0


def report() -> None:
    """The doctor for a notebook cell: prints the findings and returns nothing."""
    main()
