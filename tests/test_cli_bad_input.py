"""Every command line of the course answers bad input with one line on stderr and a non-zero exit.

Each case runs as ``python -m MODULE ...`` with the course's Python, in a throw-away copy of the
course where the case needs broken data or a broken notebook, so the real course is never touched. A
traceback anywhere in the answer fails the case. The cases run in children forked from a Python that
has the heavy third-party packages imported already (``course_copy.run_preloaded``: a quarter of the
time); a sample of them, one per entry point and one per kind of damage, runs as real subprocesses too
and must give the same exit code and the same words.
"""
from __future__ import annotations

import importlib
import json
import shutil
from pathlib import Path
from typing import Callable

import pytest

from course_copy import make_copy, run_in, run_preloaded

from tooldesign.cli import LESSON_TOOLS

Damage = Callable[[Path], None]


def intact(course: Path) -> None:
    pass


def no_data(course: Path) -> None:
    shutil.rmtree(course / "data/sap")
    shutil.rmtree(course / "data/coldchain")


def data_deleted(course: Path) -> None:
    shutil.rmtree(course / "data")


def recordings_deleted(course: Path) -> None:
    shutil.rmtree(course / "data/codemode")


def truncated_orders(course: Path) -> None:
    path = course / "data/sap/sales_orders.csv"
    path.write_bytes(path.read_bytes()[:700])


def empty_row_in_orders(course: Path) -> None:
    path = course / "data/sap/sales_orders.csv"
    lines = path.read_text().splitlines(keepends=True)
    path.write_text("".join(lines[:3] + ["\n"] + lines[3:]))


def corrupt_readings(course: Path) -> None:
    path = course / "data/coldchain/readings.json"
    path.write_text(path.read_text()[:-200] + "}{")


def truncated_limits(course: Path) -> None:
    path = course / "data/coldchain/limits.csv"
    path.write_text(path.read_text().splitlines()[0] + "\n")


def corrupt_manifest(course: Path) -> None:
    (course / "data/sap/MANIFEST.json").write_text("{\"files\": ")


def damaged_customers(course: Path) -> None:
    path = course / "data/sap/customers.csv"
    path.write_text(path.read_text().replace("50000.00", "90000.00"))


def unwritable_data(course: Path) -> None:
    shutil.rmtree(course / "data/sap")
    (course / "data/sap").write_text("a file where the folder should be")


def bad_notebooks(course: Path) -> None:
    bad = course / "bad"
    bad.mkdir()
    (bad / "03_mirrored_tools.ipynb").write_text("{}")
    (bad / "04_designed_tools.ipynb").write_text("[1, 2]")
    (bad / "05_lint.ipynb").write_text('"just a string"')
    (bad / "06_selection_test.ipynb").write_text(json.dumps({"cells": [], "metadata": {}, "nbformat": 4,
                                                              "nbformat_minor": 5}))
    (bad / "08_code_mode_catalog.ipynb").write_bytes(bytes(range(256)) * 4)
    (bad / "10_definition_levels.ipynb").write_text("null")
    (bad / "11_dispatch_and_errors.ipynb").write_text("")
    (bad / "13_tool_set_size.ipynb").write_text(json.dumps({"nbformat": 4, "cells": "not a list"}))
    (course / "empty_submissions").mkdir()


def changed_copy_and_lost_manifest(course: Path) -> None:
    (course / "notebooks/.released.json").write_text("{broken")
    mine = course / "notebooks/02_coldchain_data.ipynb"
    mine.write_text(mine.read_text().replace("Exercise", "Exercise (my notes)", 1))


def manifest_wrong_shape(course: Path) -> None:
    path = course / "data/sap/MANIFEST.json"
    manifest = json.loads(path.read_text())
    manifest["files"]["sales_orders.csv"]["columns"] = 5
    path.write_text(json.dumps(manifest))


def folder_for_orders(course: Path) -> None:
    (course / "data/sap/sales_orders.csv").unlink()
    (course / "data/sap/sales_orders.csv").mkdir()


def odd_notebooks(course: Path) -> None:
    odd = course / "odd"
    odd.mkdir()
    (odd / "03_mirrored_tools.ipynb").write_text(json.dumps({"nbformat": 4, "nbformat_minor": 5, "metadata": {},
                                                             "cells": [{"cell_type": "code", "metadata": {}}]}))
    (odd / "04_designed_tools.ipynb").write_text(json.dumps({"nbformat": 3, "nbformat_minor": 0, "metadata": {},
                                                             "worksheets": [{"cells": []}]}))
    (odd / "05_lint.ipynb").write_text(json.dumps({"nbformat": 4, "nbformat_minor": 5, "metadata": {},
                                                   "cells": [1, "x"]}))
    (odd / "my_notes.ipynb").write_text((course / "notebooks/02_coldchain_data.ipynb").read_text())
    (odd / "02_coldchain_data.ipynb").write_text((course / "notebooks/05_lint.ipynb").read_text())
    (odd / "script.py").write_text("# %%\nprint(1)\n")
    (odd / "a_file").write_text("not a notebook")
    (odd / "hidden_checks_that_fail.py").write_text('raise RuntimeError("first line\\nsecond line\\nthird")\n')
    (odd / "plain.py").write_text("print('no cell marker here')\n")
    (odd / "binary.py").write_bytes(b"\xff\xfe\x00# %%\n")


def odd_names(course: Path) -> None:
    """Files and folders named the way a hurried learner names them."""
    odd = course / "odd names"
    odd.mkdir()
    (odd / "dir.ipynb").mkdir()
    (odd / "05_empty.ipynb").write_text("")
    (odd / "05 my try ü.ipynb").write_text((course / "notebooks/05_lint.ipynb").read_text())
    (odd / "05_json_not_notebook.ipynb").write_text(json.dumps({"metadata": {}, "nbformat": 4}))


def dotenv_bad_line(course: Path) -> None:
    (course / ".env").write_text("OPENAI_API_KEY=k\nthis line is not a setting\n")


def dotenv_bad_address(course: Path) -> None:
    (course / ".env").write_text("OPENAI_API_KEY=k\nANTHROPIC_API_KEY=k\nOPENAI_BASE_URL=http://localhost:abc/v1\n"
                                 "ANTHROPIC_BASE_URL=api.anthropic.com\nOLLAMA_BASE_URL=http://localhost:99999/v1\n")


def dotenv_not_text(course: Path) -> None:
    (course / ".env").write_bytes(b"\xff\xfeOPENAI_API_KEY=k\n")


def dotenv_bad_provider(course: Path) -> None:
    (course / ".env").write_text("TOOLDESIGN_PROVIDER=chatgpt\nOPENAI_API_KEY=k\n")


DAMAGES: dict[str, Damage] = {f.__name__: f for f in (
    intact, no_data, data_deleted, recordings_deleted, truncated_orders, empty_row_in_orders, corrupt_readings, truncated_limits, corrupt_manifest,
    damaged_customers, unwritable_data, bad_notebooks, changed_copy_and_lost_manifest, manifest_wrong_shape,
    folder_for_orders, odd_notebooks, odd_names, dotenv_bad_line, dotenv_bad_address, dotenv_not_text,
    dotenv_bad_provider)}

TD, CM, WB = ("-m", "tooldesign"), ("-m", "tooldesign.codemode"), ("-m", "workbook")
LONG = "x" * 100_000

# (damage, argv, a fragment the one line must hold)
CASES = [
    # python -m tooldesign
    ("intact", (*TD,), "required: command"),
    ("intact", (*TD, "nonsense"), "invalid choice"),
    ("intact", (*TD, "lint", "--set", "neither"), "invalid choice"),
    ("intact", (*TD, "lint", "--set", LONG), "invalid choice"),
    ("intact", (*TD, "select", "--sample", "--picker", "bm25"), "not allowed with"),
    ("intact", (*TD, "select", "--provider", "sap"), "--provider only applies"),
    ("intact", (*TD, "select", "--model", "some-model"), "OPENAI_API_KEY is not set"),
    ("truncated_orders", (*TD, "respond"), "data/sap/sales_orders.csv is damaged"),
    ("empty_row_in_orders", (*TD, "respond"), "data/sap/sales_orders.csv is damaged"),
    ("corrupt_manifest", (*TD, "respond"), "data/sap/MANIFEST.json is damaged"),
    ("damaged_customers", (*TD, "select"), "data/sap/customers.csv is damaged"),
    ("no_data", (*TD, "lint"), "data/sap/sales_orders.csv is missing; run make data"),
    ("unwritable_data", (*TD, "data"), "data/sap"),
    # python -m tooldesign.codemode
    ("no_data", (*CM, "runs"), "is missing; run make data"),
    ("data_deleted", (*CM, "runs"), "is missing; run make data"),
    ("recordings_deleted", (*CM, "runs"), "data/codemode/"),
    ("data_deleted", ("-m", "tooldesign.scale.growth"), "is missing; run make data"),
    ("corrupt_readings", (*CM, "runs"), "data/coldchain/readings.json is damaged"),
    ("truncated_limits", (*CM, "runs"), "data/coldchain/limits.csv is damaged"),
    # python -m tooldesign.scale.*
    ("no_data", ("-m", "tooldesign.scale.growth"), "is missing; run make data"),
    ("damaged_customers", ("-m", "tooldesign.scale.growth"), "customers.csv is damaged"),
    ("intact", ("-m", "tooldesign.scale.growth", "--bogus"), "unrecognized arguments"),
    ("no_data", ("-m", "tooldesign.scale.search"), "is missing; run make data"),
    ("truncated_orders", ("-m", "tooldesign.scale.consolidate"), "sales_orders.csv is damaged"),
    # python -m workbook
    ("intact", (*WB,), "required: command"),
    ("intact", (*WB, "bogus"), "invalid choice"),
    ("intact", (*WB, "doctor", "--bogus"), "unrecognized arguments"),
    ("intact", (*WB, "check"), "required: notebook"),
    ("intact", (*WB, "check", "42"), "no notebook '42'"),
    ("intact", (*WB, "check", LONG), "no notebook"),
    ("intact", (*WB, "check", "02", "--timeout", "0"), "--timeout needs a number of seconds above 0"),
    ("intact", (*WB, "check", "02", "--timeout", "soon"), "invalid int value"),
    ("bad_notebooks", (*WB, "check", "bad/03_mirrored_tools.ipynb"), "valid JSON but not a notebook"),
    ("bad_notebooks", (*WB, "check", "bad/04_designed_tools.ipynb"), "not a notebook (a list)"),
    ("bad_notebooks", (*WB, "check", "bad/05_lint.ipynb"), "not a notebook (a string)"),
    ("bad_notebooks", (*WB, "check", "bad/06_selection_test.ipynb"), "has no cells"),
    ("bad_notebooks", (*WB, "check", "bad/08_code_mode_catalog.ipynb"), "not even text"),
    ("bad_notebooks", (*WB, "check", "bad/10_definition_levels.ipynb"), "not a notebook (null)"),
    ("bad_notebooks", (*WB, "check", "bad/11_dispatch_and_errors.ipynb"), "not valid JSON"),
    ("bad_notebooks", (*WB, "check", "bad/13_tool_set_size.ipynb"), "not a notebook"),
    ("intact", (*WB, "release", "99"), "no notebook '99'"),
    ("intact", (*WB, "release", "--bogus"), "unrecognized arguments"),
    ("changed_copy_and_lost_manifest", (*WB, "release"), "make notebooks FORCE=1"),
    ("intact", (*WB, "execute", "99"), "no notebook '99'"),
    ("intact", (*WB, "execute", "02", "--timeout", "-1"), "--timeout needs a number of seconds above 0"),
    ("intact", (*WB, "grade", "no-such-folder"), "does not exist"),
    ("bad_notebooks", (*WB, "grade", "empty_submissions", "--jobs", "0"), "--jobs needs 1 or more"),
    ("bad_notebooks", (*WB, "grade", "empty_submissions", "--jobs", "many"), "invalid int value"),
    ("bad_notebooks", (*WB, "grade", "empty_submissions", "--hidden-checks", "nope.py"), "nope.py"),
    ("intact", (*WB, "author", "no-such-script.py", "out.ipynb"), "no-such-script.py"),
    # a manifest of the wrong shape, a folder in a file's place: every entry point, one line
    ("manifest_wrong_shape", (*TD, "respond"), "data/sap/MANIFEST.json is damaged"),
    ("manifest_wrong_shape", ("-m", "tooldesign.loop"), "data/sap/MANIFEST.json is damaged"),
    ("manifest_wrong_shape", ("-m", "tooldesign.injection"), "data/sap/MANIFEST.json is damaged"),
    ("manifest_wrong_shape", ("-m", "tooldesign.scale.search"), "data/sap/MANIFEST.json is damaged"),
    ("folder_for_orders", (*TD, "lint"), "sales_orders.csv is a folder where a data file should be"),
    ("folder_for_orders", ("-m", "tooldesign.loop"), "sales_orders.csv is a folder where a data file should be"),
    ("folder_for_orders", ("-m", "tooldesign.scale.consolidate"), "is a folder where a data file should be"),
    ("folder_for_orders", ("-m", "tooldesign.scale.growth"), "is a folder where a data file should be"),
    ("folder_for_orders", (*TD, "data"), "is a folder where a file should be; move it away"),
    # check: notebooks that are damaged inside, too old, unnamed or of another lesson
    ("odd_notebooks", (*WB, "check", "odd/03_mirrored_tools.ipynb"), "cell 1 has no source text"),
    ("odd_notebooks", (*WB, "check", "odd/04_designed_tools.ipynb"), "old notebook format 3"),
    ("odd_notebooks", (*WB, "check", "odd/05_lint.ipynb"), "cell 1 is not a cell"),
    ("odd_notebooks", (*WB, "check", "odd/my_notes.ipynb"), "not named after a course notebook"),
    ("odd_notebooks", (*WB, "check", "odd/02_coldchain_data.ipynb"), "holds the checks of lesson 05"),
    ("odd_notebooks", (*WB, "check", "odd"), "no notebook 'odd'"),
    ("odd_notebooks", (*WB, "check", ""), "no notebook ''"),
    ("odd_notebooks", (*WB, "check", "-1"), "no notebook '-1'"),
    ("odd_notebooks", (*WB, "release", "odd/05_lint.ipynb"), "cell 1 is not a cell"),
    ("odd_notebooks", (*WB, "execute", "odd/03_mirrored_tools.ipynb"), "cell 1 has no source text"),
    # grade: argument parsing only
    ("odd_notebooks", (*WB, "grade", ""), "an empty path names no file or folder"),
    ("odd_notebooks", (*WB, "grade", "odd/a_file"), "is a file but not a notebook"),
    ("odd_notebooks", (*WB, "grade", "odd", "--timeout", "nan"), "--timeout a number of seconds above 0"),
    ("odd_notebooks", (*WB, "grade", "odd", "--timeout", "inf"), "--timeout a number of seconds above 0"),
    ("odd_notebooks", (*WB, "grade", "odd", "--jobs", "-1"), "--jobs needs 1 or more"),
    ("odd_notebooks", (*WB, "grade", "odd", "--memory", "0"), "--memory and --disk need a whole number of MB"),
    ("odd_notebooks", (*WB, "grade", "odd", "--disk", "-5"), "--memory and --disk need a whole number of MB"),
    ("odd_notebooks", (*WB, "grade", "odd", "--memory", "99999999999999"), "from 1 to 1048576"),
    ("odd_notebooks", (*WB, "grade", "odd", "--memory", "2GB"), "invalid int value"),
    ("intact", (*TD, "injection", "--model", ""), "--model needs a model's name"),
    ("intact", (*TD, "injection", "--model", " "), "--model needs a model's name"),
    ("intact", (*TD, "injection", "--provider", "anthropic", "--model", ""), "--model needs a model's name"),
    ("odd_notebooks", (*WB, "grade", "odd", "--out", "odd/a_file"), "is a file; give a folder"),
    ("odd_notebooks", (*WB, "grade", "odd", "--out", "notebooks"), "inside the learner's notebooks/"),
    ("odd_notebooks", (*WB, "grade", "odd", "--out", "odd/results"), "inside the submissions"),
    ("odd_notebooks", (*WB, "grade", "odd", "--out", ""), "an empty path"),
    ("odd_notebooks", (*WB, "grade", "odd", "--hidden-checks", "odd/a_file"), "not a Python file"),
    ("odd_notebooks", (*WB, "grade", "odd", "--hidden-checks", "odd/hidden_checks_that_fail.py", "--no-sandbox"),
     "first line second line third"),
    ("intact", (*WB, "handout", ""), "an empty path names no file or folder"),
    ("intact", (*WB, "handout", "   "), "an empty path names no file or folder"),
    ("intact", (*WB, "handout", "Makefile"), "Makefile is a file; give a new, empty folder"),
    ("intact", (*WB, "handout", "/proc/no-such-folder/edition"), "cannot create /proc/no-such-folder/edition"),
    ("intact", (*WB, "handout", "notebooks"), "inside the course's notebooks/"),
    ("intact", (*WB, "handout", "."), ". is not empty"),
    ("intact", (*WB, "handout", "data/edition"), "inside the course's data/"),
    ("intact", (*WB, "handout", "notebooks/edition"), "inside the course's notebooks/"),
    ("intact", (*WB, "handout", "solutions/edition"), "inside the course's solutions/"),
    ("intact", (*WB, "handout", "src/edition"), "inside the course's src/"),
    ("intact", (*WB, "handout", "scripts/x/y"), "inside the course's scripts/"),
    ("intact", (*WB, "handout", "student\nedition"), "holds a control character ('\\n')"),
    ("intact", (*WB, "handout", "student\tedition"), "holds a control character ('\\t')"),
    ("intact", (*WB, "handout", "Makefile/edition"), "cannot create Makefile/edition"),
    ("intact", (*WB, "handout", "/dev/null"), "is a file; give a new, empty folder"),
    ("intact", (*WB, "handout"), "required: out"),
    # lessons that do not exist, in every spelling; timeouts too small or too large
    ("intact", (*WB, "check", "abc"), "no notebook 'abc'"),
    ("intact", (*WB, "check", "../x"), "no notebook '../x'"),
    ("intact", (*WB, "check", "../x.ipynb"), "no notebook '../x.ipynb'"),
    ("intact", (*WB, "check", "NB=02"), "no notebook 'NB=02'"),
    ("intact", (*WB, "check", "02\n"), "no notebook '02\\n'"),
    ("intact", (*WB, "check", "99"), "the course has no lesson 99"),
    ("intact", (*WB, "check", "02", "--timeout", "100000"), "up to 86400"),
    ("intact", (*WB, "check", "02", "--timeout", "99999999999999999999"), "up to 86400"),
    ("intact", (*WB, "check", "02", "--timeout", "-5"), "above 0"),
    ("intact", (*WB, "execute", "02", "--timeout", "86401"), "up to 86400"),
    ("intact", (*WB, "execute", "abc"), "no notebook 'abc'"),
    ("intact", (*WB, "execute", "../solutions/02"), "no notebook"),
    ("intact", (*WB, "release", "abc"), "no notebook 'abc'"),
    ("intact", (*WB, "release", "../x"), "no notebook '../x'"),
    ("intact", (*WB, "release", ""), "no notebook ''"),
    ("intact", (*WB, "new-lesson", "abc", "caching_results"), "two digits"),
    ("intact", (*WB, "new-lesson", "99", "caching_results"), "without gaps"),
    ("intact", (*WB, "new-lesson", "02", "caching_results"), "lesson 02 exists"),
    ("intact", (*WB, "new-lesson", "20", "Bad Name"), "lowercase words"),
    ("intact", (*WB, "new-lesson", "20", "../x"), "lowercase words"),
    ("intact", (*WB, "new-lesson"), "required: number, name"),
    ("intact", (*WB, "author", "Makefile", "no-folder/x.ipynb"), "has no '# %%' line"),
    ("intact", (*WB, "list", "extra"), "unrecognized arguments"),
    ("odd_names", (*WB, "check", "odd names/dir.ipynb"), "is a folder, not a notebook"),
    ("odd_names", (*WB, "check", "odd names/05_empty.ipynb"), "not valid JSON"),
    ("odd_names", (*WB, "check", "odd names/05_json_not_notebook.ipynb"), "valid JSON but not a notebook"),
    ("odd_names", (*WB, "release", "odd names/05_empty.ipynb"), "not valid JSON"),
    ("odd_names", (*WB, "execute", "odd names/05_json_not_notebook.ipynb"), "not a notebook"),
    ("odd_names", (*WB, "author", "odd names/05_empty.ipynb", "x.ipynb"), "05_empty.ipynb"),
    # tooldesign: paths and counts a record cannot use, refused before any model is asked
    ("intact", (*TD, "select", "--model", "m", "--record", ""), "--record needs a new file name"),
    ("intact", (*TD, "select", "--model", "m", "--record", "runs/a\nb.json"), "holds a control character"),
    ("intact", (*TD, "select", "--model", "m", "--record", "data"), "data exists"),
    ("intact", (*TD, "select", "--model", "m", "--repeat", "101"), "at most 100"),
    ("intact", (*TD, "select", "--model", "m", "--repeat", "-5"), "1 or more"),
    ("intact", (*TD, "select", "--model", "m", "--repeat", "many"), "invalid int value"),
    ("intact", (*TD, "record", "--provider", "openai", "--repeat", "0"), "1 or more"),
    ("intact", (*TD, "record", "--provider", "openai", "--repeat", "99999999999"), "at most 100"),
    ("intact", (*TD, "record", "--provider", "openai", "--out", ""), "--out needs a folder"),
    ("intact", (*TD, "record", "--provider", "openai", "--out", "Makefile"), "is not a folder"),
    ("intact", (*TD, "record", "--provider", "openai", "--out", "Makefile/runs"), "Makefile is not a folder"),
    ("intact", (*TD, "record", "--provider", "sap"), "invalid choice"),
    ("intact", (*TD, "record"), "required: --provider"),
    ("intact", (*TD, "serve", "--transport", "http", "--port", "-1"), "from 1 to 65535"),
    # settings in a .env file: a bad line, a bad address, not text, an unknown provider
    ("dotenv_bad_line", (*TD, "select", "--model", "m"), "line 2 is not NAME=value"),
    ("dotenv_bad_line", (*TD, "record", "--provider", "openai"), "line 2 is not NAME=value"),
    ("dotenv_bad_line", (*TD, "injection", "--model", "m"), "line 2 is not NAME=value"),
    ("dotenv_bad_address", (*TD, "select", "--model", "m"), "OPENAI_BASE_URL (in "),
    ("dotenv_bad_address", (*TD, "select", "--model", "m", "--provider", "anthropic"), "ANTHROPIC_BASE_URL (in "),
    ("dotenv_bad_address", (*TD, "select", "--provider", "ollama"), "OLLAMA_BASE_URL (in "),
    ("dotenv_bad_address", (*TD, "record", "--provider", "openai"), "the port 'abc' is not a number"),
    ("dotenv_bad_address", (*TD, "record", "--provider", "anthropic"), "does not start with http"),
    ("dotenv_bad_address", (*TD, "record", "--provider", "ollama"), "the port '99999'"),
    ("dotenv_bad_address", (*TD, "injection", "--model", "m"), "OPENAI_BASE_URL (in "),
    ("dotenv_not_text", (*TD, "select", "--model", "m"), "is not UTF-8 text"),
    ("dotenv_bad_provider", (*TD, "select", "--model", "m"), "TOOLDESIGN_PROVIDER (in "),
    # modules without options refuse an argument instead of ignoring it; ports and model names are checked
    ("intact", ("-m", "tooldesign.dispatch.boundary", "--bogus"), "takes no arguments"),
    ("intact", ("-m", "tooldesign.scale.search", "extra"), "takes no arguments"),
    ("intact", ("-m", "tooldesign.scale.consolidate", "-v"), "takes no arguments"),
    ("intact", (*TD, "serve", "--transport", "http", "--port", "0"), "from 1 to 65535"),
    ("intact", (*TD, "serve", "--transport", "http", "--port", "99999"), "from 1 to 65535"),
    ("intact", (*TD, "select", "--model", ""), "--model needs a model's name"),
    ("intact", (*TD, "select", "--model", "  "), "--model needs a model's name"),
    # author never writes a learner's copy and never replaces a file unasked
    ("odd_notebooks", (*WB, "author", "odd/script.py", "notebooks/02_coldchain_data.ipynb"), "author never writes"),
    ("odd_notebooks", (*WB, "author", "odd/script.py", "odd/my_notes.ipynb"), "exists; add --force"),
    ("odd_notebooks", (*WB, "author", "odd", "x.ipynb"), "is not a file"),
    ("odd_notebooks", (*WB, "author", "odd/plain.py", "x.ipynb"), "has no '# %%' line"),
    ("odd_notebooks", (*WB, "author", "odd/binary.py", "x.ipynb"), "is not UTF-8 text"),
    ("odd_notebooks", (*WB, "author", "solutions/02_coldchain_data.ipynb", "x.ipynb"), "is a notebook already"),
    ("odd_notebooks", (*WB, "execute", "notebooks/02_coldchain_data.ipynb"), "execute never rewrites"),
    ("odd_notebooks", (*WB, "execute", "02", "notebooks/05_lint.ipynb"), "execute never rewrites"),
    ("odd_notebooks", (*WB, "author", "odd/script.py", "odd"), "is a folder"),
    # the lessons' own command lines as tooldesign subcommands: the same one-line answers
    ("intact", (*TD, "codemode", "bogus"), "invalid choice"),
    ("intact", (*TD, "codemode", "runs", "extra.js"), "runs takes no file"),
    ("intact", (*TD, "codemode", "run"), "run needs a file"),
    ("intact", (*TD, "codemode", "run", "no-such-program.js"), "cannot read no-such-program.js"),
    ("intact", (*TD, "codemode", "--budget", "many"), "invalid int value"),
    ("intact", (*TD, "codemode", "runs", "--budget", "-3"), "apply to one program"),
    ("intact", (*TD, "codemode", "limit", "--time-limit", "0"), "apply to one program"),
    ("intact", (*CM, "verify", "--memory-mb", "1"), "apply to one program"),
    ("intact", (*TD, "codemode", "runs", "--time-limit", "5"), "apply to one program"),
    ("no_data", (*TD, "codemode", "runs"), "is missing; run make data"),
    ("recordings_deleted", (*TD, "codemode", "runs"), "data/codemode/"),
    ("intact", (*TD, "loop", "--bogus"), "takes no arguments"),
    ("manifest_wrong_shape", (*TD, "loop"), "data/sap/MANIFEST.json is damaged"),
    ("intact", (*TD, "injection", "--provider", "openai"), "--provider needs --model NAME"),
    ("intact", (*TD, "injection", "--bogus"), "unrecognized arguments"),
    ("no_data", (*TD, "injection"), "is missing; run make data"),
    ("intact", (*TD, "boundary", "extra"), "takes no arguments"),
    ("intact", (*TD, "scale", "search", "-v"), "takes no arguments"),
    ("intact", (*TD, "scale"), "required: table"),
    ("intact", (*TD, "scale", "bogus"), "invalid choice"),
    ("intact", (*TD, "scale", "growth", "--bogus"), "takes no arguments"),
    ("no_data", (*TD, "scale", "search"), "is missing; run make data"),
    ("truncated_orders", (*TD, "scale", "consolidate"), "sales_orders.csv is damaged"),
    ("folder_for_orders", (*TD, "scale", "growth"), "is a folder where a data file should be"),
    # and their python -m spellings, which call the same functions
    ("intact", ("-m", "tooldesign.loop", "x"), "takes no arguments"),
    ("intact", ("-m", "tooldesign.injection", "--bogus"), "unrecognized arguments"),
    ("intact", (*CM, "run", "no-such-program.js"), "cannot read no-such-program.js"),
    ("intact", (*CM, "--memory-mb", "lots"), "invalid int value"),
]


@pytest.fixture(scope="module")
def courses(tmp_path_factory) -> Callable[[str], Path]:
    """One copy of the course per kind of damage, made when a case first needs it."""
    made: dict[str, Path] = {}

    def course(damage: str) -> Path:
        if damage not in made:
            made[damage] = make_copy(tmp_path_factory.mktemp(damage))
            DAMAGES[damage](made[damage])
        return made[damage]
    return course


def test_the_table_is_large_and_covers_every_entry_point():
    assert len(CASES) >= 30
    entry = {argv[1] if argv[0] == "-m" else argv[0] for _, argv, _ in CASES}
    assert {"tooldesign", "tooldesign.codemode", "tooldesign.scale.growth", "tooldesign.scale.search",
            "tooldesign.scale.consolidate", "workbook"} <= entry
    assert {argv[2] for _, argv, _ in CASES if argv[:2] == WB and len(argv) > 2} >= {
        "doctor", "check", "release", "execute", "grade"}


@pytest.mark.parametrize("damage, argv, fragment", CASES,
                         ids=[f"{d}:{' '.join(a[1:])[:50]}" for d, a, _ in CASES])
def test_bad_input_is_one_line_and_a_non_zero_exit(courses, damage, argv, fragment):
    course = courses(damage)
    done = run_preloaded(course, *argv, timeout=240)
    assert done.returncode != 0, done.stdout[-300:]
    assert "Traceback" not in done.stderr and "Traceback" not in done.stdout
    assert done.stderr.count("\n") == 1 and done.stderr.endswith("\n"), done.stderr[-600:]
    assert fragment in done.stderr, done.stderr
    assert len(done.stderr) < 600


def test_no_bad_command_changes_a_learner_notebook(courses):
    """Every case above ran in copies; in the one with odd arguments, notebooks/ is byte for byte as released."""
    course = courses("odd_notebooks")
    fresh = make_copy(course.parent / "fresh")
    for case in ((*WB, "author", "odd/script.py", "notebooks/02_coldchain_data.ipynb"),
                 (*WB, "grade", "odd", "--out", "notebooks"),
                 (*WB, "execute", "notebooks/02_coldchain_data.ipynb")):
        run_preloaded(course, *case, timeout=240)
    for path in sorted((fresh / "notebooks").iterdir()):
        if path.is_file():
            assert (course / "notebooks" / path.name).read_bytes() == path.read_bytes(), path.name
    assert sorted(p.name for p in (course / "notebooks").iterdir()) == sorted(
        p.name for p in (fresh / "notebooks").iterdir())


def _sample() -> list[tuple[str, tuple[str, ...], str]]:
    """The first case of each entry point and of each kind of damage."""
    seen: set[str] = set()
    sample = []
    for case in CASES:
        damage, argv, _ = case
        keys = {f"module {argv[1]}", f"damage {damage}"}
        if keys - seen:
            seen |= keys
            sample.append(case)
    return sample


SAMPLE = _sample()


def test_the_sample_covers_every_entry_point_and_every_damage():
    assert {argv[1] for _, argv, _ in SAMPLE} == {argv[1] for _, argv, _ in CASES}
    assert {damage for damage, _, _ in SAMPLE} == {damage for damage, _, _ in CASES}


@pytest.mark.parametrize("damage, argv, fragment", SAMPLE,
                         ids=[f"{d}:{' '.join(a[1:])[:50]}" for d, a, _ in SAMPLE])
def test_a_forked_case_answers_as_the_subprocess_does(courses, damage, argv, fragment):
    """The forked child is a stand-in for ``python -m``: on these cases both answer word for word alike."""
    course = courses(damage)
    forked, real = run_preloaded(course, *argv, timeout=240), run_in(course, *argv, timeout=240)
    assert (forked.returncode, forked.stdout, forked.stderr) == (real.returncode, real.stdout, real.stderr)
    assert fragment in real.stderr, real.stderr


@pytest.mark.parametrize("tool", LESSON_TOOLS, ids=lambda tool: " ".join(tool.words))
def test_each_lesson_tool_returns_the_code_of_a_bad_option_in_process(tool, capsys):
    """Called in-process (as tests and notebooks do), a lesson's main returns 2 rather than raising SystemExit."""
    main = importlib.import_module(tool.module).main
    assert main(["--no-such-option"], prog="tooldesign " + " ".join(tool.words)) == 2
    said = capsys.readouterr().err
    assert said.count("\n") == 1 and "--no-such-option" in said, said
