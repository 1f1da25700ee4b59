"""The audit behind ``workbook.grade.borrowed``: which exercise answers the package itself can compute.

Three sweeps, each over the whole package rather than a list of known cases:

* every ``tooldesign`` value (a module's constant) that passes a value exercise's own judge;
* every ``tooldesign`` function a reference computes its answer with (followed through the course's
  helpers), which an answer could call just the same;
* for each pair found (and the composite ones a reader found, such as the size-limit explorer that
  builds the very catalog ex09-fillers counts in), an answer built on the neighbour really passes the
  exercise's judge, and the grader flags it.

A tooldesign piece a reference uses that an honest answer uses too (a word list, a parser the prompt
names) is listed in BUILDING_BLOCKS with the reason it is not an answer."""

from __future__ import annotations

import inspect
import pkgutil
import types

import pytest

import tooldesign
from workbook.checks import collect, judge_plain
from workbook.exercises import all_exercises, get_exercise, grading_for
from workbook.grade.borrowed import borrowed, neighbours
from workbook.plain import to_plain

GRADED = [e for e in all_exercises() if e.kind not in ("manual", "prediction")]
SKIP_MODULES = ("tooldesign.__main__", "tooldesign.codemode.js_host")  # a CLI and a process that ends itself
# grade_id -> {"module:name": why an honest answer uses it too}
BUILDING_BLOCKS = {
    "ex12-approval": {"tooldesign.dispatch.gate:checked_exposure": "the figure parser the lesson shows; the policy is the answer"},
    "ex13-catch-all": {"tooldesign.scale.consolidate:CHOICE_WORDS": "the word list the prompt hands over"},
}


def _modules() -> list[types.ModuleType]:
    import importlib

    found = [tooldesign]
    for info in pkgutil.walk_packages(tooldesign.__path__, "tooldesign."):
        if info.name in SKIP_MODULES:
            continue
        found.append(importlib.import_module(info.name))
    return found


def _constants() -> dict[str, object]:
    """Every module-level value of the package that an answer cell could hand in: text and containers."""
    out = {}
    for module in _modules():
        for name, value in vars(module).items():
            if not name.startswith("__") and isinstance(value, (str, dict, list, tuple, frozenset)):
                out.setdefault(f"{module.__name__}:{name}", value)
    return out


def _passes(exercise, value) -> bool:
    try:
        return judge_plain(exercise, to_plain(value, exercise.answer)).passed
    except Exception:
        return False


@pytest.mark.parametrize("exercise", [e for e in GRADED if e.kind == "value"], ids=lambda e: e.grade_id)
def test_every_package_value_that_passes_a_value_exercise_is_flagged(exercise):
    constants = _constants()
    passing = [key for key, value in constants.items() if _passes(exercise, value)]
    module_of = {key: key.partition(":")[0] for key in passing}
    for key in passing:
        name = key.partition(":")[2]
        answer = f"import {module_of[key]} as package\n{exercise.answer} = package.{name}\n"
        found = borrowed(exercise.grade_id, answer)
        assert found is not None, f"{key} passes {exercise.grade_id} and is not flagged"


def _tooldesign_used(function, seen: set[int]) -> set[str]:
    """The tooldesign callables ``function`` uses, followed through the course's own helpers."""
    if id(function) in seen or not isinstance(function, types.FunctionType):
        return set()
    seen.add(id(function))
    names: set[str] = set()

    def walk(code: types.CodeType) -> None:
        names.update(code.co_names)
        for const in code.co_consts:
            if isinstance(const, types.CodeType):
                walk(const)

    walk(function.__code__)
    out = set()
    scope = dict(function.__globals__)
    for name in names:
        value = scope.get(name)
        if value is None:
            try:
                value = _local_import(function, name)
            except Exception:
                value = None
        module = getattr(value, "__module__", None)
        if isinstance(module, str) and module.startswith("tooldesign") and callable(value):
            out.add(f"{module}:{name}")
        elif isinstance(value, types.FunctionType) and (module or "").startswith("workbook"):
            out |= _tooldesign_used(value, seen)
    for key in _imported_names(function):
        out.add(key)
    return out


def _local_import(function, name):
    for key in _imported_names(function):
        if key.partition(":")[2] == name:
            return pkgutil.resolve_name(key)
    return None


def _imported_names(function) -> set[str]:
    import ast
    import textwrap

    try:
        tree = ast.parse(textwrap.dedent(inspect.getsource(function)))
    except (OSError, TypeError, SyntaxError):
        return set()
    return {
        f"{node.module}:{alias.name}"
        for node in ast.walk(tree)
        if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("tooldesign")
        for alias in node.names
    }


@pytest.mark.parametrize("exercise", GRADED, ids=lambda e: e.grade_id)
def test_every_package_function_a_reference_computes_with_is_a_neighbour_or_a_named_building_block(exercise):
    grading = grading_for(exercise.grade_id)
    reference = pkgutil.resolve_name(grading.reference) if isinstance(grading.reference, str) else grading.reference
    used = _tooldesign_used(reference, set()) if reference is not None else set()
    if isinstance(grading.reference, str):
        used.add(grading.reference)
    allowed = set(neighbours(exercise.grade_id)) | set(BUILDING_BLOCKS.get(exercise.grade_id, {}))
    modules = {n.partition(":")[0] + ":*" for n in allowed}
    unknown = sorted(u for u in used if u not in allowed and u not in modules)
    assert not unknown, f"{exercise.grade_id}'s reference computes with {unknown}: a neighbour, or a building block?"


# ---------- the pairs found: a real pass on the judge, and the flag ----------

BORROWED = {
    "ex09-fillers explore": (
        "ex09-fillers",
        "from tooldesign.codemode.sizelimit import explore\n"
        "def fillers_that_fit(budget):\n"
        "    return sum(code.startswith('CC_FILLER_') for code in explore(budget).codes)\n",
    ),
    "ex09-fillers registry and catalog": (
        "ex09-fillers",
        "from tooldesign.codemode import sizelimit, catalog\n"
        "def fillers_that_fit(budget):\n"
        "    with sizelimit.demo_registry() as r:\n"
        "        return sum(c.startswith('CC_FILLER_') for c in catalog.catalog_for(r, budget=budget, logger=None).codes)\n",
    ),
    "ex07-broken the check tool's description": (
        "ex07-broken",
        "from tooldesign.scale import consolidate\nbroken = consolidate.CHECK_DESCRIPTION\n",
    ),
    "ex13-catch-all the rule's finding": (
        "ex13-catch-all",
        "from tooldesign.scale.consolidate import _catch_all\nfrom tooldesign.tools import Tool\n"
        "def catch_all_fields(definition):\n"
        "    tool = Tool(definition['name'], definition.get('description', ''), definition['parameters'], lambda a: {})\n"
        "    return [m.split(\"'\")[1] for m in _catch_all(tool, [])]\n",
    ),
}


@pytest.mark.parametrize("case", sorted(BORROWED))
def test_an_answer_the_package_computes_passes_the_judge_and_is_flagged(case):
    grade_id, source = BORROWED[case]
    exercise = get_exercise(grade_id)
    namespace: dict = {}
    exec(compile(source, case, "exec"), namespace)  # noqa: S102 (the course's own test source)
    answer = namespace[exercise.answer]
    verdict = judge_plain(exercise, collect(exercise, answer))
    assert verdict.passed, f"the borrowed answer does not even pass ({verdict.message}): the case proves nothing"
    found = borrowed(grade_id, source)
    assert found is not None and found.grade_id == grade_id and "your own code" in found.reason
