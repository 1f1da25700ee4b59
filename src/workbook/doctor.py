"""``workbook doctor``: is this machine ready for the course?

One line per requirement, [OK] or [FAIL], and for each failure the command that fixes it. The
pins come from requirements.txt, the same file the set-up installs from.
"""

from __future__ import annotations

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


WRITE_TEST_BYTES = 64 * 1024  # written and flushed to disk: an empty file still fits on a full disk
# What the course needs free where it lives, and why (measured 5 December 2026):
# - the course folder (data/): a data rebuild (about 60 KB), notebooks saved with their outputs
#   and JupyterLab's checkpoint of each (a few MB), records in runs/ and a student edition (2.5 MB);
COURSE_NEEDS = 50 * 1024 * 1024
# - .venv/: reinstalling one pinned package (`make lab`); the largest unpack to about 80 MB
#   (py_mini_racer 82 MB, pandas 79 MB) and pip holds the download beside the unpacked copy.
VENV_NEEDS = 200 * 1024 * 1024


def check_data_writable(folder: Path = DATA_DIR) -> DoctorFinding:
    """A real write, flushed to the disk: on a full disk creating a file succeeds and writing fails."""
    from tooldesign.disk import problem_of, write_advice

    probe = None
    try:
        folder.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile(dir=folder, prefix=".doctor-", delete=True) as probe:
            probe.write(b"\0" * WRITE_TEST_BYTES)
            probe.flush()
            os.fsync(probe.fileno())
    except OSError as error:
        problem = problem_of(error, folder)
        fix = write_advice(problem, folder, _shown(folder), WRITE_TEST_BYTES)
        return DoctorFinding(False, f"cannot write to {_shown(folder)}/ ({error.strerror or error})", fix)
    return DoctorFinding(True, f"write access to {_shown(folder)}/")


def _shown(folder: Path) -> str:
    try:
        return (
            os.path.relpath(folder, REPO_ROOT) if folder.resolve().is_relative_to(REPO_ROOT) else str(folder)
        )
    except (OSError, ValueError):
        return str(folder)


def check_free_space(places: dict[str, tuple[Path, int]] | None = None) -> list[DoctorFinding]:
    """Free space on each disk the course lives on (data/ and .venv/), against what it needs there.

    Two places on one disk are one finding that needs both amounts."""
    from tooldesign.disk import WriteProblem, existing_folder, free_space, size, write_advice

    places = places or {"data/": (DATA_DIR, COURSE_NEEDS), ".venv/": (Path(sys.prefix), VENV_NEEDS)}
    disks: dict[int, tuple[list[str], Path, int]] = {}
    for name, (folder, needed) in places.items():
        try:
            device = existing_folder(folder).stat().st_dev
        except OSError:
            device = -len(disks) - 1
        names, first, total = disks.get(device, ([], folder, 0))
        disks[device] = ([*names, name], first, total + needed)
    findings = []
    for names, folder, needed in disks.values():
        room = free_space(folder, needed)
        where = " and ".join(names)
        if room.free is None:
            findings.append(DoctorFinding(True, f"free space on the disk of {where} (not measurable here)"))
        elif room.enough:
            findings.append(DoctorFinding(True, f"{size(room.free)} free on the disk of {where}"))
        else:
            what = f"the disk of {where} has {size(room.free)} free; the course needs about {size(needed)}"
            findings.append(
                DoctorFinding(False, what, write_advice(WriteProblem.FULL, folder, where, needed))
            )
    return findings


def check_model_settings() -> DoctorFinding:
    """The real-model settings (environment and .env) a learner may have written: a malformed address
    or a .env line python-dotenv cannot read would otherwise only show when a model is first asked."""
    from tooldesign.selection import config

    try:
        config.load_env()
        names = [name for name in config.ENDPOINT_EXAMPLES if os.environ.get(name) is not None]
        for name in names:
            config.endpoint(name)
        if os.environ.get(config.PROVIDER_ENV) is not None:
            config.default_provider()
    except config.SettingError as error:
        return DoctorFinding(
            False,
            "a real-model setting cannot be used",
            str(error).replace(
                "remove it to use the default", "remove it (the course runs offline without it)"
            ),
        )
    shown = ", ".join(names) if names else "none set: the course runs offline"
    return DoctorFinding(True, f"real-model addresses ({shown})")


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
    findings += [check_widget_extension(), check_data_writable(), *check_free_space(), check_data_files()]
    findings.append(check_model_settings())
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
