"""`make wheelhouse`: every pinned package, for every platform the course supports, in one folder.

A classroom lab is many people setting up on one day on one network. An instructor runs this
once, online, and shares the folder (a USB stick, a file share, `python -m http.server`); each
learner then runs `make lab WHEELS=...` and installs from that folder alone.

What it writes into the output folder (default wheelhouse/):
- the wheels (and, where a package publishes none, what it did instead: see summary.txt);
- locks/<platform>-cp<XY>.txt: the resolved set for one platform and Python, every line pinned
  with its sha256, so `pip install --require-hashes` checks each file (scripts/setup_env.py);
- manifest.csv: file, platform, pythons, sha256, bytes, kind;
- summary.txt: one line per platform with its size, and the packages that had no wheel there.

It reads requirements.txt as it is, so a pin added there is in the next wheelhouse.
"""
from __future__ import annotations

import argparse
import csv
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import urllib.parse
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PYTHONS = ("3.10", "3.11", "3.12", "3.13")
# The setuptools the editable install of the course is built with, offline (see pyproject.toml).
BUILD_BACKEND = "setuptools>=70.1"


def _manylinux(arch: str) -> list[str]:
    """Newest first, so pip prefers the wheel an online install would pick; glibc 2.28 at most."""
    tags = [f"manylinux_2_{minor}_{arch}" for minor in range(28, 16, -1)]
    return tags + [f"manylinux2014_{arch}"] + ([f"manylinux_2_12_{arch}", f"manylinux2010_{arch}",
                                                f"manylinux_2_5_{arch}", f"manylinux1_{arch}"]
                                               if arch == "x86_64" else [])


# pip widens a macOS tag to every older macOS release itself; the manylinux tags it does not.
PLATFORMS: dict[str, list[str]] = {
    "linux_x86_64": _manylinux("x86_64"),
    "linux_aarch64": _manylinux("aarch64"),
    "macos_arm64": ["macosx_12_0_arm64"],
    "macos_x86_64": ["macosx_12_0_x86_64"],
    "windows_amd64": ["win_amd64"],
}
WHAT_IT_RUNS_ON = {
    "linux_x86_64": "Linux x86_64 with glibc 2.28 or newer",
    "linux_aarch64": "Linux aarch64 with glibc 2.28 or newer",
    "macos_arm64": "macOS 12 or newer on Apple silicon",
    "macos_x86_64": "macOS 12 or newer on Intel",
    "windows_amd64": "64-bit Windows",
}


@dataclass(frozen=True)
class Target:
    platform: str
    python: str

    @property
    def name(self) -> str:
        return f"{self.platform}-cp{self.python.replace('.', '')}"

    def pip_options(self) -> list[str]:
        options = ["--only-binary=:all:", "--implementation", "cp", "--python-version", self.python]
        for tag in PLATFORMS[self.platform]:
            options += ["--platform", tag]
        return options


@dataclass(frozen=True)
class Item:
    """One resolved package for one target: the file pip chose and its sha256."""
    name: str
    version: str
    file: str
    sha256: str
    url: str


@dataclass
class Outcome:
    target: Target
    items: list[Item] = field(default_factory=list)
    problem: str = ""


@dataclass
class Notes:
    """What had no wheel, and what was done about it, per package."""
    built: dict[str, str] = field(default_factory=dict)       # package -> wheel built from its sdist
    sdist_only: dict[str, str] = field(default_factory=dict)  # package -> sdist kept (needs a compiler)


def here() -> Target:
    """This machine's platform and Python, named as setup_env.py names them."""
    sys.path.insert(0, str(ROOT / "scripts"))
    import setup_env
    return Target(setup_env.this_platform(), "%d.%d" % sys.version_info[:2])


def pip(*args: str, capture: bool = True) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "pip", *args, "--disable-pip-version-check"],
                          capture_output=capture, text=True, cwd=ROOT)


def sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as stream:
        for block in iter(lambda: stream.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def requirement_args() -> list[str]:
    return ["-r", str(ROOT / "requirements.txt"), BUILD_BACKEND]


# ---------------------------------------------------------------- resolving

def resolve(target: Target, out: Path) -> tuple[list[Item] | None, str]:
    """pip's own resolver, for another platform: which file of which version each package needs."""
    with tempfile.TemporaryDirectory(prefix="wheelhouse-") as scratch:
        report = Path(scratch) / "report.json"
        done = pip("install", "--dry-run", "--ignore-installed", "--quiet", "--target", str(Path(scratch) / "t"),
                   "--report", str(report), "--find-links", str(out), *target.pip_options(), *requirement_args())
        if done.returncode != 0:
            return None, done.stderr + done.stdout
        items = []
        for entry in json.loads(report.read_text())["install"]:
            info = entry["download_info"]
            url = info["url"]
            hashes = info.get("archive_info", {}).get("hashes", {})
            file_name = urllib.parse.unquote(Path(urllib.parse.urlparse(url).path).name)
            items.append(Item(entry["metadata"]["name"], entry["metadata"]["version"], file_name,
                              hashes.get("sha256", ""), url))
        return items, ""


def missing_requirement(message: str) -> str | None:
    found = re.search(r"No matching distribution found for ([^\s;]+)", message)
    return found.group(1) if found else None


def build_from_sdist(requirement: str, out: Path, notes: Notes) -> bool:
    """A package with no wheel: fetch its source archive; if it builds to a pure wheel, keep that."""
    name = re.split(r"[<>=!~ ;\[]", requirement, maxsplit=1)[0]
    with tempfile.TemporaryDirectory(prefix="wheelhouse-sdist-") as scratch:
        got = pip("download", "--no-deps", "--no-binary=:all:", "-d", scratch, requirement)
        sdists = list(Path(scratch).iterdir())
        if got.returncode != 0 or not sdists:
            return False
        built_dir = Path(scratch) / "built"
        pip("wheel", "--no-deps", "-w", str(built_dir), str(sdists[0]))
        wheels = list(built_dir.glob("*.whl")) if built_dir.is_dir() else []
        if wheels and re.search(r"-py[23.]*-none-any\.whl$", wheels[0].name):
            shutil.copy2(wheels[0], out / wheels[0].name)
            notes.built[name] = wheels[0].name
            return True
        shutil.copy2(sdists[0], out / sdists[0].name)
        notes.sdist_only[name] = sdists[0].name
        return False


def resolve_target(target: Target, out: Path, notes: Notes) -> Outcome:
    tried: set[str] = set()
    while True:
        items, message = resolve(target, out)
        if items is not None:
            return Outcome(target, items)
        requirement = missing_requirement(message)
        if requirement is None or requirement in tried:
            tail = " ".join(message.strip().splitlines()[-1:])
            return Outcome(target, problem=f"no wheel of {requirement} for this platform" if requirement
                           else f"pip could not resolve the pins: {tail}")
        tried.add(requirement)
        if not build_from_sdist(requirement, out, notes):
            return Outcome(target, problem=f"no wheel of {requirement} (only a source archive that needs a compiler)")


# ---------------------------------------------------------------- downloading

def download(outcome: Outcome, out: Path) -> None:
    """`pip download` the exact files the resolver chose, then check each one's sha256."""
    wanted = [item for item in outcome.items if not (out / item.file).is_file()]
    local = [item for item in wanted if item.url.startswith("file:")]
    for item in local:  # found through a find-links folder of this machine
        shutil.copy2(urllib.parse.unquote(urllib.parse.urlparse(item.url).path), out / item.file)
    remote = [item for item in wanted if not item.url.startswith("file:")]
    if remote:
        with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as pins:
            pins.write("".join(f"{item.name}=={item.version}\n" for item in remote))
        try:
            done = pip("download", "--no-deps", "--quiet", "-d", str(out), *outcome.target.pip_options(),
                       "-r", pins.name)
        finally:
            os.unlink(pins.name)
        if done.returncode != 0:
            outcome.problem = "download failed: " + " ".join(done.stderr.strip().splitlines()[-1:])
            return
    for item in outcome.items:
        path = out / item.file
        if not path.is_file():
            outcome.problem = f"pip did not save {item.file}"
            return
        if item.sha256 and sha256(path) != item.sha256:
            outcome.problem = f"{item.file} does not match the index's sha256"
            return


def build_course_wheel(out: Path) -> Path:
    """The course is one distribution holding both packages (tooldesign and workbook)."""
    for old in out.glob("tooldesign_workbook-*.whl"):
        old.unlink()
    done = pip("wheel", "--no-deps", "--quiet", "-w", str(out), ".")
    wheels = sorted(out.glob("tooldesign_workbook-*.whl"))
    if done.returncode != 0 or not wheels:
        sys.exit("[wheelhouse] building the course's wheel failed: " + done.stderr.strip()[-400:])
    return wheels[-1]


# ---------------------------------------------------------------- writing

def write_lock(outcome: Outcome, out: Path) -> None:
    lines = [f"# {outcome.target.name}: written by scripts/wheelhouse.py; install with "
             f"pip --no-index --find-links <wheelhouse> --require-hashes -r <this file>\n"]
    for item in sorted(outcome.items, key=lambda i: i.name.lower()):
        lines.append(f"{item.name}=={item.version} --hash=sha256:{sha256(out / item.file)}  # file: {item.file}\n")
    (out / "locks").mkdir(exist_ok=True)
    (out / "locks" / f"{outcome.target.name}.txt").write_text("".join(lines))


def kind_of(file: str, notes: Notes) -> str:
    if file.startswith("tooldesign_workbook-"):
        return "course"
    if file in notes.built.values():
        return "wheel built from sdist"
    if file in notes.sdist_only.values():
        return "sdist"
    return "wheel"


def write_manifest(outcomes: list[Outcome], course: Path, out: Path, notes: Notes) -> dict[str, int]:
    """One row per file and platform; returns the bytes each platform needs."""
    used: dict[str, dict[str, set[str]]] = {}
    for outcome in outcomes:
        for item in outcome.items:
            used.setdefault(item.file, {}).setdefault(outcome.target.platform, set()).add(outcome.target.python)
    platforms = sorted({outcome.target.platform for outcome in outcomes})
    size: dict[str, int] = {platform: course.stat().st_size for platform in platforms}
    rows = [[course.name, "any", " ".join(PYTHONS), sha256(course), course.stat().st_size, "course"]]
    extra = sorted(set(notes.sdist_only.values()) - set(used))
    for file in sorted(used) + extra:
        path = out / file
        digest, nbytes = sha256(path), path.stat().st_size
        where = used.get(file, {})
        for platform in where:
            size[platform] += nbytes
        if set(where) == set(platforms) and len({frozenset(v) for v in where.values()}) == 1:
            rows.append([file, "any", " ".join(sorted(next(iter(where.values())))), digest, nbytes, kind_of(file, notes)])
        else:
            for platform in sorted(where) or ["none"]:
                rows.append([file, platform, " ".join(sorted(where.get(platform, ()))), digest, nbytes,
                             kind_of(file, notes)])
    with (out / "manifest.csv").open("w", newline="") as stream:
        writer = csv.writer(stream)
        writer.writerow(["file", "platform", "pythons", "sha256", "bytes", "kind"])
        writer.writerows(rows)
    return size


def summary_lines(outcomes: list[Outcome], size: dict[str, int], notes: Notes, out: Path) -> list[str]:
    lines = []
    for platform in sorted(size):
        mine = [o for o in outcomes if o.target.platform == platform]
        ok = [o for o in mine if not o.problem]
        pythons = ", ".join(o.target.python for o in ok) or "none"
        packages = sorted({len(o.items) for o in ok})
        notes_here = [f"{o.target.python}: {o.problem}" for o in mine if o.problem]
        files_here = {item.file for o in mine for item in o.items}
        notes_here += [f"{name} has no wheel, built {wheel} from its sdist"
                       for name, wheel in sorted(notes.built.items()) if wheel in files_here]
        line = (f"{platform} ({WHAT_IT_RUNS_ON.get(platform, platform)}): {size[platform] / 1e6:.0f} MB, "
                f"Python {pythons}, {'/'.join(map(str, packages)) or 0} packages each")
        lines.append(line + ("; " + "; ".join(notes_here) if notes_here else "; every package as a wheel"))
    for name, sdist in sorted(notes.sdist_only.items()):
        lines.append(f"{name}: no wheel on some platform and no pure wheel builds from its sdist; kept {sdist}")
    total = sum(path.stat().st_size for path in out.iterdir() if path.is_file())
    lines.append(f"total: {total / 1e6:.0f} MB in {out}")
    return lines


# ---------------------------------------------------------------- main

def targets(platforms: str, pythons: str) -> list[Target]:
    mine = here()
    chosen_platforms = [mine.platform if p == "here" else p for p in platforms.split()] or list(PLATFORMS)
    chosen_pythons = [mine.python if p == "here" else p for p in pythons.split()] or list(PYTHONS)
    unknown = [p for p in chosen_platforms if p not in PLATFORMS]
    if unknown:
        sys.exit(f"[wheelhouse] unknown platform {unknown[0]}; choose from {', '.join(PLATFORMS)} or here")
    bad = [p for p in chosen_pythons if p not in PYTHONS]
    if bad:
        sys.exit(f"[wheelhouse] the course supports Python {', '.join(PYTHONS)}, not {bad[0]}")
    return [Target(p, v) for p in chosen_platforms for v in chosen_pythons]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default=str(ROOT / "wheelhouse"), help="folder to fill (default wheelhouse/)")
    parser.add_argument("--platforms", default="", help=f"space-separated, from: {' '.join(PLATFORMS)} here")
    parser.add_argument("--pythons", default="", help=f"space-separated, from: {' '.join(PYTHONS)} here")
    parser.add_argument("--jobs", type=int, default=2, help="platforms resolved at once")
    args = parser.parse_args(argv)
    out = Path(args.out).resolve()
    out.mkdir(parents=True, exist_ok=True)
    chosen = targets(args.platforms, args.pythons)
    notes = Notes()
    print(f"[wheelhouse] resolving {len(chosen)} platform/Python pairs into {out}", flush=True)
    course = build_course_wheel(out)
    with ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        outcomes = list(pool.map(lambda t: resolve_target(t, out, notes), chosen))
    for outcome in outcomes:
        if not outcome.problem:
            download(outcome, out)
        if outcome.problem:
            print(f"[wheelhouse] {outcome.target.name}: {outcome.problem}", flush=True)
            stale = out / "locks" / f"{outcome.target.name}.txt"
            stale.unlink(missing_ok=True)
        else:
            write_lock(outcome, out)
            print(f"[wheelhouse] {outcome.target.name}: {len(outcome.items)} packages", flush=True)
    size = write_manifest(outcomes, course, out, notes)
    lines = summary_lines(outcomes, size, notes, out)
    (out / "summary.txt").write_text("\n".join(lines) + "\n")
    (out / "README.txt").write_text(
        "A wheelhouse for the tool-design workbook, made by `make wheelhouse`.\n"
        "Learners set up from it with no package index:  make lab WHEELS=<this folder or its web address>\n"
        "Share it on a USB stick, a file share, or with `python -m http.server 8000` run in this folder.\n"
        "manifest.csv lists every file with its sha256; locks/ holds the hashed pins for each platform.\n")
    print("\n".join(lines))
    return 1 if any(outcome.problem for outcome in outcomes) else 0


if __name__ == "__main__":
    sys.exit(main())
