"""Set-up time from a wheelhouse beside set-up time from the package index, and the wheelhouse's size.

Run: .venv/bin/python benchmarks/bench_wheelhouse.py --run [--wheels FOLDER]
Without --wheels it first builds a wheelhouse for this machine's platform and Python in a
temporary folder (about 120 MB from the package index). Each set-up is a fresh copy of the course
with no .venv; the one from the index runs with pip's cache off, as on a learner's new laptop;
the one from the wheelhouse with the index pointed at a closed port. With a full wheelhouse
(`make wheelhouse`), pass it with --wheels to print every platform's size from its summary.txt.
It downloads, so `make bench` skips it unless BENCH_WHEELHOUSE=1. Prints figures; asserts nothing.
"""
from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CLOSED_PORT = "http://127.0.0.1:9/"


def fresh_copy(into: Path) -> Path:
    listed = subprocess.run(["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
                            cwd=ROOT, capture_output=True, check=True)
    for name in filter(None, listed.stdout.decode().split("\0")):
        if (ROOT / name).is_file():
            (into / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(ROOT / name, into / name)
    return into


def timed_setup(course: Path, env: dict[str, str], *args: str) -> float:
    started = time.monotonic()
    subprocess.run([sys.executable, "scripts/setup_env.py", *args], cwd=course, env=env, check=True,
                   stdout=subprocess.DEVNULL)
    return time.monotonic() - started


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--run", action="store_true", help="really download and install")
    parser.add_argument("--wheels", help="an existing wheelhouse (default: build one for this machine)")
    parser.add_argument("--skip-index", action="store_true", help="time only the set-up from the wheelhouse")
    args = parser.parse_args()
    if not (args.run or os.environ.get("BENCH_WHEELHOUSE") == "1"):
        print("skipped: downloads about 600 MB; run with --run (or BENCH_WHEELHOUSE=1 make bench)")
        return 0
    with tempfile.TemporaryDirectory(prefix="bench-wheelhouse-") as tmp:
        house = Path(args.wheels).resolve() if args.wheels else Path(tmp) / "wheelhouse"
        if not args.wheels:
            started = time.monotonic()
            subprocess.run([sys.executable, str(ROOT / "scripts/wheelhouse.py"), "--out", str(house),
                            "--platforms", "here", "--pythons", "here"], check=True, stdout=subprocess.DEVNULL)
            print(f"wheelhouse for this machine built in {time.monotonic() - started:.0f} s")
        for line in (house / "summary.txt").read_text().splitlines():
            print(f"size  {line}")
        offline = {k: v for k, v in os.environ.items() if not k.startswith("PIP_")}
        offline.update(PIP_INDEX_URL=CLOSED_PORT, HTTP_PROXY=CLOSED_PORT, HTTPS_PROXY=CLOSED_PORT)
        wheels_s = timed_setup(fresh_copy(Path(tmp) / "from-wheels"), offline, "--wheels", str(house))
        print(f"set-up from the wheelhouse, index unreachable: {wheels_s:.0f} s (target: under 60 s)")
        if not args.skip_index:
            cold = dict(os.environ, PIP_NO_CACHE_DIR="1")
            index_s = timed_setup(fresh_copy(Path(tmp) / "from-index"), cold)
            print(f"set-up from the package index, pip's cache off: {index_s:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
