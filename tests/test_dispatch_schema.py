"""The schema cases: required both ways, enums, formats, input examples, strict mode."""
from __future__ import annotations

from tooldesign.dispatch import schema as sc


def test_over_marking_forces_inventions():
    rows = {r["schema"]: r for r in sc.required_rows()}
    assert rows["over-marked"]["values the model must invent"] == "customer, city"
    assert rows["right"]["values the model must invent"] == "none"


def test_under_marking_answers_for_a_customer_nobody_named():
    rows = {r["schema"]: r for r in sc.under_marked_rows()}
    assert rows["under-marked"]["passes"] and rows["under-marked"]["what comes back"]["customer"] == "10023"
    assert not rows["right"]["passes"]


def test_enum_lets_through_only_what_the_handler_understands():
    for row in sc.enum_rows():
        assert row["free string passes"]
        assert row["enum passes"] == row["handler understands"]


def test_stated_format():
    rows = {r["model writes"]: r for r in sc.format_rows()}
    assert all(r["plain string passes"] for r in rows.values())
    assert [w for w, r in rows.items() if r["stated format passes"]] == ['"4711"', '"0000004711"']


def test_the_format_table_shows_a_trailing_space():
    """A table renders '4711 ' and '4711' alike; quoted as JSON carries them, they differ on screen."""
    import pandas as pd
    shown = pd.DataFrame(sc.format_rows()).to_string()
    assert '"4711 "' in shown and '"4711"' in shown


def test_input_examples_are_checked():
    assert sc.check_input_examples(sc.WINDOW, sc.WINDOW_EXAMPLES[:1]) == []
    found = sc.check_input_examples(sc.WINDOW, sc.WINDOW_EXAMPLES)
    assert len(found) == 2 and all(f.startswith("example 2, window.") for f in found)


def test_strict_problems():
    assert sc.strict_problems(sc.LIMIT_STRICT) == []
    loose = sc.strict_problems(sc.LIMIT_LOOSE)
    assert any("additionalProperties" in p for p in loose) and any("required" in p for p in loose)
    for pattern in (r"^(\d)\1$", r"^(?=4)\d+$", r"\bSO\b"):
        schema = {"type": "object", "additionalProperties": False, "required": ["x"],
                  "properties": {"x": {"type": "string", "pattern": pattern}}}
        assert sc.strict_problems(schema) == [f"x: pattern {pattern!r} uses a backreference, lookaround or word boundary"]
    assert sc.valid(sc.LIMIT_STRICT, {"limit": 5}) and not sc.valid(sc.LIMIT_STRICT, {"limit": "5"})
