"""Where learner code runs: a throw-away copy of the course, and bubblewrap around it when installed.

Every submission gets a fresh temporary folder laid out like the repository, holding only what a
notebook needs, taken from the *student edition* (``workbook.handout``): the two packages without
answers (no lesson answer keys, no references, graded functions stubbed, no grader), a writable
copy of ``data/``, ``requirements.txt`` (the doctor reads it) and an empty ``notebooks/`` to run
in. No ``solutions/``, no hidden checks, no ``.git``. Because ``tooldesign.DATA_DIR`` is computed from
the package's own location, a notebook that rebuilds its data writes into the copy, never into the
course. The kernel gets a clean environment too: no API keys or tokens from the instructor's shell,
a private HOME, and Python told not to look at the user's site-packages.

With bubblewrap (``bwrap``) the kernel sees a root file system made of read-only system folders
(``/usr`` and the links into it, a few files of ``/etc``), the Python installation read-only, the
temporary folder read-write, and nothing else: no network (its own empty network namespace), no
home folders, no repository. Without it the grader still uses the copy and the clean environment,
but only when told ``--no-sandbox``: then learner code runs with the instructor's rights (it can
read every file the instructor can, use the network, and write anywhere the instructor can while
its kernel runs), so every row says ``unsandboxed`` and its score is not to be trusted.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

from tooldesign.figures import OFF, PICTURES

PACKAGES = ("tooldesign", "workbook")
# /etc entries a Python kernel may read (shared libraries, users, time zone, MIME types, fonts);
# the rest of /etc (keys, passwords, machine configuration) stays out of sight.
ETC_ENTRIES = (
    "ld.so.cache",
    "ld.so.conf",
    "ld.so.conf.d",
    "localtime",
    "timezone",
    "passwd",
    "group",
    "nsswitch.conf",
    "hosts",
    "mime.types",
    "fonts",
    "alternatives",
)
SYSTEM_DIRS = ("/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32")


@dataclass(frozen=True)
class Sandbox:
    """How kernels are started in this run: ``kind`` is "bwrap" or "none"; ``note`` says why, once."""

    kind: str
    note: str = ""

    @property
    def isolated(self) -> bool:
        return self.kind == "bwrap"


def python_roots() -> list[str]:
    """The folders the kernel's Python needs: the virtual environment and the installation under it."""
    roots = {
        os.path.realpath(p) for p in (sys.prefix, sys.exec_prefix, sys.base_prefix, sys.base_exec_prefix)
    }
    roots.add(os.path.dirname(os.path.dirname(os.path.realpath(sys.executable))))
    # Keep only the outermost folders, so one bind does not hide another.
    return sorted(r for r in roots if not any(r != o and r.startswith(o.rstrip("/") + "/") for o in roots))


def bwrap_args(work_root: Path) -> list[str]:
    """bubblewrap's options: read-only system and Python, the temporary folder writable, nothing else."""
    args = ["bwrap", "--unshare-all", "--die-with-parent", "--new-session"]
    if hasattr(os, "geteuid") and os.geteuid() == 0:
        args += ["--cap-drop", "ALL"]  # root keeps no powers inside; others never have any there
    for folder in SYSTEM_DIRS:
        if os.path.islink(folder):
            args += ["--symlink", os.readlink(folder), folder]
        elif os.path.isdir(folder):
            args += ["--ro-bind", folder, folder]
    for name in ETC_ENTRIES:
        path = f"/etc/{name}"
        if os.path.exists(path):
            args += ["--ro-bind", path, path]
    # /tmp is the work folder's own tmp/, so what a notebook writes there counts against its disk quota.
    args += ["--proc", "/proc", "--dev", "/dev", "--bind", str(work_root / "tmp"), "/tmp"]
    for root in python_roots():
        args += ["--ro-bind", root, root]
    root = str(work_root)
    # The kernel's parent inside the sandbox is bubblewrap's own init, not the grader; without this
    # ipykernel would think its parent had gone and quit. --die-with-parent does that job instead.
    args += [
        "--bind",
        root,
        root,
        "--chdir",
        str(work_root / "course" / "notebooks"),
        "--unsetenv",
        "JPY_PARENT_PID",
        "--",
    ]
    return args


def detect(prefer: bool | None = None) -> Sandbox:
    """Use bubblewrap when it is installed and works here; ``prefer=False`` turns it off on purpose."""
    if prefer is False:
        return Sandbox(
            "none",
            "the sandbox is turned off: learner code runs unsandboxed, with your "
            "rights, your network and your files (solutions/ and any hidden checks too)",
        )
    if sys.platform != "linux":
        return Sandbox(
            "none",
            "bubblewrap runs on Linux only, so learner code runs unsandboxed here: with your "
            "rights, your network and your files (solutions/ and any hidden checks too). "
            "Grade on a Linux machine with the package bubblewrap to isolate it",
        )
    if shutil.which("bwrap") is None:
        return Sandbox(
            "none",
            "bubblewrap (bwrap) is not installed, so learner code runs unsandboxed: with "
            "your rights, your network and your files (solutions/ and any hidden checks "
            "too). On Debian or Ubuntu: sudo apt install bubblewrap",
        )
    try:
        with tempfile.TemporaryDirectory(prefix="workbook-grade-") as folder:
            (Path(folder) / "course" / "notebooks").mkdir(parents=True)
            (Path(folder) / "tmp").mkdir()
            done = subprocess.run(
                [*bwrap_args(Path(folder)), sys.executable, "-c", "pass"],
                capture_output=True,
                text=True,
                timeout=60,
            )
    except (OSError, subprocess.TimeoutExpired) as error:
        reason = str(error)
    else:
        if done.returncode == 0:
            return Sandbox(
                "bwrap",
                "learner code runs in bubblewrap: no network, read-only system, "
                "no view of solutions/ or your home",
            )
        reason = (done.stderr.strip().splitlines() or [f"exit status {done.returncode}"])[0]
    return Sandbox(
        "none",
        f"bubblewrap is installed but cannot make a sandbox here ({reason}), so learner "
        "code runs unsandboxed: with your rights, your network and your files",
    )


class NoSandbox(RuntimeError):
    """No sandbox here, and --no-sandbox was not given: the grader refuses to run learner code."""


@dataclass(frozen=True)
class _Built:
    folder: Path
    course: str  # the state of the course's sources it was built from
    files: str  # a digest of every file it held when it was built


_editions: dict[str, _Built] = {}


def student_edition() -> Path:
    """The student edition of this course, built once per process into a temporary folder.

    Building it runs the package's own uses of every graded function (seconds to tens of seconds), so a
    process that grades several times (the tests, an instructor's notebook) builds it once. It is taken
    again only if it is exactly as built: learner code run unsandboxed could write into it, and a course
    whose sources changed since needs a new one. Either way it is built again.
    """
    from workbook.handout import source_state, tree_digest

    course = source_state()
    built = _editions.get("built")
    if (
        built is not None
        and built.course == course
        and built.folder.is_dir()
        and tree_digest(built.folder, [built.folder], True) == built.files
    ):
        return built.folder
    import atexit

    from workbook.handout import build

    folder = Path(tempfile.mkdtemp(prefix="wbedition-"))
    atexit.register(shutil.rmtree, folder, True)
    build(folder / "edition", notebooks=False, self_checks=False)
    edition = folder / "edition"
    _editions["built"] = _Built(edition, course, tree_digest(edition, [edition], True))
    return edition


def prepare(work_root: Path, edition: Path | None = None) -> Path:
    """Lay out the throw-away course copy under ``work_root``; return the folder the kernel runs in.

    Everything comes from the student edition ``edition`` (built on first use when None): the
    kernel never sees the instructor's repository.
    """
    edition = edition or student_edition()
    course = work_root / "course"
    for package in PACKAGES:
        shutil.copytree(
            edition / "src" / package,
            course / "src" / package,
            ignore=shutil.ignore_patterns("__pycache__", "*.pyc"),
        )
    if (edition / "data").is_dir():
        shutil.copytree(edition / "data", course / "data")
    requirements = edition / "requirements.txt"
    if requirements.exists():
        shutil.copy2(requirements, course / "requirements.txt")
    for folder in ("notebooks", "home", "tmp"):
        (course / folder if folder == "notebooks" else work_root / folder).mkdir(parents=True, exist_ok=True)
    return course / "notebooks"


def kernel_env(work_root: Path) -> dict[str, str]:
    """A clean environment: nothing from the instructor's shell except what finds programs and text."""
    keep = ("PATH", "LANG", "LC_ALL", "SYSTEMROOT", "WINDIR", "COMSPEC", "PATHEXT")
    env = {name: os.environ[name] for name in keep if name in os.environ}
    home, tmp = work_root / "home", work_root / "tmp"
    env["PATH"] = os.pathsep.join([os.path.dirname(sys.executable), env.get("PATH", os.defpath)])
    env.update(
        {
            "HOME": str(home),
            "USERPROFILE": str(home),
            "TMPDIR": str(tmp),
            "TEMP": str(tmp),
            "TMP": str(tmp),
            "IPYTHONDIR": str(home / ".ipython"),
            "MPLCONFIGDIR": str(home / ".matplotlib"),
            "XDG_CACHE_HOME": str(home / ".cache"),
            "XDG_CONFIG_HOME": str(home / ".config"),
            "JUPYTER_CONFIG_DIR": str(home / ".jupyter"),
            "JUPYTER_DATA_DIR": str(home / ".local/share/jupyter"),
            "JUPYTER_RUNTIME_DIR": str(tmp),
            "PYTHONPATH": str(work_root / "course" / "src"),  # the copy comes before the installed packages
            "PYTHONNOUSERSITE": "1",
            "PYTHONDONTWRITEBYTECODE": "1",
            "PYTHONHASHSEED": "0",
            "PYTHONIOENCODING": "utf-8",
            # The grader never looks at pictures: matplotlib draws off screen, and the course's plots
            # are not drawn at all (tooldesign.figures), which is most of some notebooks' time.
            "MPLBACKEND": "Agg",
            PICTURES: OFF,
        }
    )
    env.setdefault("LANG", "C.UTF-8")
    _seed_matplotlib_cache(home / ".matplotlib")
    return env


def _seed_matplotlib_cache(folder: Path) -> None:
    """Copy matplotlib's font list, so that each fresh HOME does not rebuild it (a second or more)."""
    try:
        import matplotlib

        cache = Path(matplotlib.get_cachedir())
    except Exception:  # no matplotlib, or no cache yet: the kernel builds its own
        return
    for found in cache.glob("fontlist-*.json"):
        folder.mkdir(parents=True, exist_ok=True)
        shutil.copy2(found, folder / found.name)
