"""Exercises whose one fixed answer the lesson prints: what is printed must not be the answer.

ex09-access and ex11-fixed-call once asked for a value the notebook (or the error above the exercise)
wrote out, so typing it in scored full marks. Both are now functions judged on the lesson's probes and
on inputs drawn at grade time. Here every submission is built only from what the student edition ships
and prints (the printed values typed as literals, a lookup of the probes the edition ships, a wrapper
around a package piece), and goes through the grader's own path (``draw_for``, the kernel's extractor,
``verdict_for``) on several secret seeds: each scores 0, beside an honest control and a right answer
written differently, which score full marks on every seed.
"""
from __future__ import annotations

import ast
import re
from types import SimpleNamespace

import pytest

from test_grade_borrowed import SOLUTIONS
from workbook.exercises import get_exercise
from workbook.grade.borrowed import borrowed
from workbook.grade.kernel import PAYLOAD_LIMIT, read_payload
from workbook.grade.probe import make_extractor
from workbook.grade.runner import draw_for, verdict_for
from workbook.plain import NotPlainData, to_plain

SEEDS = ("printed-1", "printed-2", "printed-3", "printed-4", "printed-5")
ACCESS, FIXED = "ex09-access", "ex11-fixed-call"


def _score(grade_id: str, answer, seed: str) -> tuple[int, str]:
    """Points and message for one submitted answer, as one grading run with this seed gives them."""
    exercise = get_exercise(grade_id)
    drawn = draw_for(exercise, seed)
    extract = make_extractor({exercise.answer: answer}, to_plain, NotPlainData, PAYLOAD_LIMIT)
    taken = read_payload(extract(exercise.answer, exercise.kind, drawn.probes))
    verdict = verdict_for(SimpleNamespace(exercise=exercise), taken, drawn, SimpleNamespace(timeout=5))
    return (exercise.points if verdict.passed else 0), verdict.message


def _solution(grade_id: str):
    """The lesson's own answer cell, run on its own (both answers need nothing the cells above define)."""
    namespace: dict = {}
    exec(compile(SOLUTIONS[grade_id], grade_id, "exec"), namespace)
    return namespace[get_exercise(grade_id).answer]


def _shipped_probes(edition, lesson: str, grade_id: str) -> list[tuple]:
    """The fixed probes exactly as the student edition's lesson module holds them (a learner can read them)."""
    source = (edition.folder / "src" / "workbook" / "exercises" / f"{lesson}.py").read_text(encoding="utf-8")
    for node in ast.parse(source).body:
        if isinstance(node, ast.Assign) and any(getattr(t, "id", "") == "SPECS" for t in node.targets):
            specs = ast.literal_eval(node.value)
            return [tuple(probe) for spec in specs if spec["grade_id"] == grade_id for probe in spec["probes"]]
    raise AssertionError(f"no SPECS in the edition's {lesson}")


def _key(args) -> str:
    import json

    return json.dumps(list(args), sort_keys=True)


def _lookup(table: dict, fallback):
    def answer(*args):
        key = _key(args)
        return table[key] if key in table else fallback(*args)
    return answer


# ---------- ex09-access: access_for(tool) ----------

# What notebook 09 prints and states: cell "Hide the two bulk tools" says the bulk tools become code and
# the limits stay both; the exercise's reasons put the claim on direct. Typed in as the edition shows them.
PRINTED_ACCESS = {"CC_LIST_SHIPMENTS": "code", "CC_GET_READINGS": "code", "CC_GET_LIMITS": "both",
                  "CC_FILE_CLAIM": "direct"}


def access_other_words(tool):
    """Right, written another way: by what the result costs and who reads it, in any spelling."""
    if tool["writes"] is True:
        return " Direct "
    bulk_nobody_reads = tool["result_chars"] > 1_000 and not tool["person_asks"]
    return "CODE" if bulk_nobody_reads else "Both"


def _registry_of_the_lesson(tool):
    """A wrapper around the package: the registry as the lesson's deployment leaves it, read back."""
    from tooldesign.codemode import coldchain_tools as cc
    from tooldesign.codemode.registry import Registry

    with Registry() as registry:
        cc.register_deployment(registry, PRINTED_ACCESS)
        rows = {code: access for code, access, _active in registry.verify()}
    return rows.get(tool["name"], "both")


ACCESS_TAMPERED = {
    "the printed values typed as a dict": PRINTED_ACCESS,
    "the printed values, 'both' for any other tool": lambda tool: PRINTED_ACCESS.get(tool["name"], "both"),
    "the printed values, 'code' for any other tool": lambda tool: PRINTED_ACCESS.get(tool["name"], "code"),
    "the printed values, 'direct' for any other tool": lambda tool: PRINTED_ACCESS.get(tool["name"], "direct"),
    "the printed values, None for any other tool": lambda tool: PRINTED_ACCESS.get(tool["name"]),
    "the registry the lesson deployed, read back": _registry_of_the_lesson,
    "the tool's name read for its verb": lambda tool: (
        "direct" if any(w in tool["name"] for w in ("FILE", "CLAIM", "SET", "CANCEL")) else
        "code" if any(w in tool["name"] for w in ("LIST", "READINGS", "HISTORY")) else "both"),
    "the description's size alone": lambda tool: "code" if tool["result_chars"] > 1_000 else "both",
}


def test_access_a_lookup_of_every_shipped_probe_scores_0(student_edition):
    """Every probe the edition ships, answered right by hand, with each printed fallback: the drawn tools fail."""
    probes = _shipped_probes(student_edition, "lesson09", ACCESS)
    assert len(probes) >= 8 and {p[0]["name"] for p in probes} >= set(PRINTED_ACCESS)
    table = {_key(p): access_other_words(*p) for p in probes}
    for fallback in ("both", "code", "direct"):
        answer = _lookup(table, lambda tool, value=fallback: value)
        assert _score(ACCESS, answer, "printed-probes")[0] == 0, fallback
    # the same table passes the lesson's own check: it is the drawn tools that catch it
    from workbook.checks import evaluate
    assert evaluate(ACCESS, _lookup(table, lambda tool: "both")).passed


def test_access_no_answer_key_in_the_edition(student_edition):
    shipped = (student_edition.folder / "src" / "workbook" / "exercises" / "lesson09.py").read_text(encoding="utf-8")
    assert "_RIGHT" not in shipped and "def _judge_access" not in shipped and "_LESSON_VALUES" not in shipped
    assert not (student_edition.folder / "src" / "workbook" / "exercises" / "references.py").exists()
    facts = (student_edition.folder / "src" / "tooldesign" / "codemode" / "coldchain_tools.py").read_text(
        encoding="utf-8")
    # the description the exercise decides from is shipped, and holds no access value to copy
    function = next(node for node in ast.parse(facts).body
                    if isinstance(node, ast.FunctionDef) and node.name == "deployment_facts")
    texts = {node.value for node in ast.walk(function) if isinstance(node, ast.Constant) and isinstance(node.value, str)}
    assert not texts & {"direct", "code", "both"}, texts


# ---------- ex11-fixed-call: fixed_call(request, call, error) ----------

# What notebook 11 prints: the rejected call, the error (its example included), and the corrected call.
PRINTED_FIX = {"sales_order": "4725", "detail": "concise"}
ERROR_EXAMPLE = re.compile(r"Example: (\{.*?\})\. Correct")


def fix_other_words(request, call, error):
    """Right, written another way: the fields the error names are rebuilt from the request, the rest kept."""
    import json

    allowed = json.loads(ERROR_EXAMPLE.search(error).group(1)).keys()  # the fields the tool takes
    fixed = {key: value for key, value in call.items() if key in allowed}
    digits = "".join(ch for ch in re.search(r"\d[\d]*", request).group() if ch.isdigit())
    fixed["sales_order"] = digits
    words = set(re.findall(r"[a-z]+", request.lower()))
    fixed["detail"] = "detailed" if words & {"date", "dates", "po", "item", "items"} else "concise"
    return fixed


def _examples_of_the_package(request, call, error):
    """A wrapper around the package: the designed set's example call, which the error prints."""
    from tooldesign.tools.designed import EXAMPLES

    return dict(EXAMPLES["sales_order_get_block_summary"])


def _first_call_the_dispatcher_accepts(request, call, error):
    """A wrapper around the course's dispatcher: repair the shape until the schema lets it through."""
    from tooldesign.dispatch import Dispatcher, ToolCall
    from tooldesign.tools import tool_set

    dispatcher = Dispatcher(tool_set("designed"))
    order = re.sub(r"\D", "", str(call.get("sales_order", ""))) or re.search(r"\d+", request).group()
    for detail in ("concise", "detailed"):
        again = {"sales_order": order, "detail": detail}
        if dispatcher.dispatch(ToolCall("sales_order_get_block_summary", again)).ran:  # the schema let it by
            return again
    return again


def _the_errors_values_only(request, call, error):
    """Everything the error says, nothing the request says: digits from the call, the enum's first value."""
    order = re.sub(r"\D", "", str(call.get("sales_order", "")))
    first = re.search(r'detail: one of "(\w+)"', error)
    return {"sales_order": order, "detail": first.group(1) if first else call.get("detail", "concise")}


FIX_TAMPERED = {
    "the printed corrected call typed as a dict": PRINTED_FIX,
    "the printed corrected call, returned for every input": lambda request, call, error: dict(PRINTED_FIX),
    "the error's example, read from the error": lambda request, call, error: __import__("json").loads(
        ERROR_EXAMPLE.search(error).group(1)),
    "the package's example call": _examples_of_the_package,
    "the first call the dispatcher accepts": _first_call_the_dispatcher_accepts,
    "the error's values, the request ignored": _the_errors_values_only,
}


def test_fixed_call_a_lookup_of_every_shipped_probe_scores_0(student_edition):
    probes = _shipped_probes(student_edition, "lesson11", FIXED)
    assert len(probes) >= 6 and all(isinstance(p[2], str) and "was not run" in p[2] for p in probes)
    table = {_key(p): fix_other_words(*p) for p in probes}
    for label in ("the printed corrected call, returned for every input", "the error's values, the request ignored"):
        answer = _lookup(table, FIX_TAMPERED[label])
        assert _score(FIXED, answer, "printed-probes")[0] == 0, label
    from workbook.checks import evaluate
    assert evaluate(FIXED, _lookup(table, FIX_TAMPERED["the printed corrected call, returned for every input"])).passed


def test_the_drawn_rejections_are_the_dispatchers_own_and_need_the_request():
    """Every drawn input is a call the course's dispatcher refuses, with its real error; and the same error
    comes with requests whose right answers differ, so the error alone cannot give the answer."""
    exercise = get_exercise(FIXED)
    by_error: dict[str, set[str]] = {}
    for seed in SEEDS:
        drawn = draw_for(exercise, seed)
        for (request, call, error), want in zip(drawn.drawn, drawn.expected):
            from workbook.exercises.lesson11 import rejection
            assert error == rejection(call)
            by_error.setdefault(re.sub(r"\d+", "N", error), set()).add(want["detail"])
    assert any(len(details) == 2 for details in by_error.values())


@pytest.mark.parametrize("grade_id", [ACCESS, FIXED])
def test_the_honest_answers_are_not_flagged_and_no_neighbour_gives_them(grade_id):
    assert borrowed(grade_id, SOLUTIONS[grade_id]) is None


# ---------- both exercises: the controls score full marks, every answer built from the edition 0 ----------

CONTROLS = {ACCESS: access_other_words, FIXED: fix_other_words}
TAMPERED = {ACCESS: ACCESS_TAMPERED, FIXED: FIX_TAMPERED}


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("grade_id", sorted(CONTROLS))
def test_the_controls_score_full_marks(grade_id, seed):
    for label, answer in (("the lesson's answer", _solution(grade_id)), ("other words", CONTROLS[grade_id])):
        points, message = _score(grade_id, answer, seed)
        assert points == get_exercise(grade_id).points, (label, message)


@pytest.mark.parametrize("grade_id, label", [(g, label) for g in sorted(TAMPERED) for label in sorted(TAMPERED[g])])
def test_an_answer_built_from_what_the_edition_prints_scores_0(grade_id, label):
    for seed in SEEDS:
        points, message = _score(grade_id, TAMPERED[grade_id][label], seed)
        assert points == 0, (label, seed, message)
