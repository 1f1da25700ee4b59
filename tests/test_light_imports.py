"""What a learner waits for: the course's own machinery loads only what it uses.

`make check NB=NN` imports the lesson's exercise definitions in the terminal's process before the
notebook runs, and every lesson that shows records imports ``tooldesign.record``. Neither needs a
provider's SDK, the MCP package, matplotlib or pandas: the capstone once pulled the Anthropic SDK into
lesson 19's exercise module and every record cell (over four seconds of `make check NB=19`,
measured with benchmarks/bench_learner_wait.py). The imports run in a fresh interpreter and the test
reads which packages they loaded, so the verdict does not depend on the machine's speed.
"""

from __future__ import annotations

import json
import subprocess
import sys

from workbook import SOLUTIONS_DIR

HEAVY = ("anthropic", "openai", "mcp", "matplotlib", "py_mini_racer", "ipywidgets", "pandas")
LIGHT = [
    *(f"workbook.exercises.lesson{p.name[:2]}" for p in sorted(SOLUTIONS_DIR.glob("[0-9][0-9]_*.ipynb"))),
    "workbook.cli",
    "tooldesign.record",
    "tooldesign.capstone",
    "tooldesign.capstone.agent",
    "tooldesign.capstone.scripts",
    "tooldesign.capstone.reference",
    "tooldesign.capstone.tasks",
]

# One interpreter imports the modules in turn and notes what each one pulled in first: the union is
# empty exactly when no module loads a heavy package, and the first to load one is named.
PROBE = """
import importlib, json, sys
heavy, first = set(HEAVY), {}
for name in MODULES:
    importlib.import_module(name)
    for package in {m.split('.')[0] for m in sys.modules} & heavy:
        first.setdefault(package, name)
print(json.dumps(first))
"""


def first_loaders(modules: list[str]) -> dict[str, str]:
    """Heavy package -> the first of ``modules`` whose import loaded it (fresh interpreter)."""
    code = f"HEAVY = {list(HEAVY)!r}\nMODULES = {modules!r}\n{PROBE}"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_exercise_definitions_records_and_the_capstones_names_load_no_sdk_and_no_plotting():
    loaded = first_loaders(LIGHT)
    assert not loaded, "; ".join(
        f"{module} loads {package}: import it where it is used" for package, module in sorted(loaded.items())
    )


def test_the_probe_names_the_module_that_loads_a_heavy_package():
    assert first_loaders(["json", "anthropic.types", "workbook.cli"]) == {"anthropic": "anthropic.types"}


def test_every_name_the_capstone_package_lists_is_found_where_it_says():
    import tooldesign.capstone as capstone

    assert sorted(capstone.__all__) == sorted(capstone._HOMES)
    for name in capstone.__all__:
        assert getattr(capstone, name) is not None


def test_mcps_dialect_and_result_schemas_load_the_protocols_types_not_its_sdk():
    """Lesson 18 shows a definition in MCP's dialect beside the providers'; that needs ``mcp_types`` alone."""
    loaded = first_loaders(["tooldesign.mcp.results", "tooldesign.mcp.listing", "tooldesign.wire.dialects"])
    assert "mcp" not in loaded, f"{loaded['mcp']} loads the mcp SDK (its server and transports)"
    assert set(loaded) <= {"anthropic", "openai"}, loaded  # the providers' types are what lesson 18 is about


def test_every_name_the_mcp_package_lists_is_found_where_it_says():
    import tooldesign.mcp as mcp_package

    assert sorted(mcp_package.__all__) == sorted(mcp_package._HOMES)
    for name in mcp_package.__all__:
        assert getattr(mcp_package, name) is not None


def test_lazy_probes_are_computed_once_and_read_as_the_tuple_they_stand_for():
    import ast

    from workbook.exercises.kinds import LazyProbes

    made: list[int] = []

    def make():
        made.append(1)
        return [("a", 1), ("b", {"k": [2]})]

    probes = LazyProbes(make)
    assert made == []  # declaring computes nothing
    want = (("a", 1), ("b", {"k": [2]}))
    assert probes == want and want == probes and tuple(probes) == want and list(probes) == list(want)
    assert len(probes) == 2 and probes[1] == want[1] and probes[-1:] == want[-1:]
    assert repr(probes) == repr(want) and ast.literal_eval(repr(probes)) == probes
    assert probes != (("a", 1),) and probes != list(want)
    assert made == [1]  # once, however often it is read
    assert hash(LazyProbes(lambda: [(1,)])) == hash(((1,),))


def test_the_lessons_computed_probes_are_the_ones_their_functions_compute():
    from workbook.exercises import lesson09, lesson11

    assert lesson09._access_probes() == lesson09.ACCESS_PROBES and len(lesson09.ACCESS_PROBES) == 8
    assert lesson09._budgets() == lesson09.FILLER_PROBES
    assert lesson11._fix_probes() == lesson11.FIX_PROBES and len(lesson11.FIX_PROBES) == 7
