"""The schema decides what arrives inside a call: small cases, one per design choice.

The description decides which tool; the schema decides what the call carries. Each case below
is a pair of schemas for the same job and a few proposed arguments, so a lesson can show which
ones each schema lets through:

* ``required`` wrong in both directions: over-marking forces the model to invent values,
  under-marking lets calls arrive short and the handler invents a default;
* an enum removes a decision the model would otherwise guess at;
* a format stated in the parameter's description (and a pattern) settles a shape;
* input examples attach valid inputs to the definition, and each is checked against the schema;
* strict mode needs a schema of a certain shape and a regex subset.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from typing import Any

from jsonschema import Draft202012Validator

from tooldesign.data import sap
from tooldesign.tools.schema import argument_errors


def _obj(props: dict, required: Sequence[str], closed: bool = True) -> dict:
    schema: dict[str, Any] = {"type": "object", "properties": props, "required": list(required)}
    if closed:
        schema["additionalProperties"] = False
    return schema


def valid(schema: Mapping[str, Any], arguments: Mapping[str, Any]) -> bool:
    """The verdict the dispatcher would give: the course's one validator, not a second opinion."""
    return not argument_errors(schema, dict(arguments))


# ---------- required, both directions ----------

CUSTOMER_PROPS = {
    "name": {"type": "string", "description": "Part of the customer's name, for example 'Donau'."},
    "customer": {"type": "string", "description": "The customer's number in digits, e.g. '10051'."},
    "city": {"type": "string", "description": "City of the customer's address."},
}
OVER_MARKED = _obj(CUSTOMER_PROPS, ["name", "customer", "city"])
RIGHT_MARKED = _obj(CUSTOMER_PROPS, ["name"])


def forced_inventions(schema: Mapping[str, Any], known: Mapping[str, Any]) -> list[str]:
    """Required fields the request gives no value for: the model must fill them with something."""
    return [name for name in schema.get("required", []) if name not in known]


def required_rows(known: Mapping[str, Any] | None = None) -> list[dict]:
    """'Find the customer Donau Retail': the request gives a name, nothing else."""
    known = known or {"name": "Donau Retail"}
    return [
        {
            "schema": label,
            "required": ", ".join(schema["required"]),
            "values the model must invent": ", ".join(forced_inventions(schema, known)) or "none",
        }
        for label, schema in (("over-marked", OVER_MARKED), ("right", RIGHT_MARKED))
    ]


SEARCH_CUSTOMER = {"description": "The customer's number in digits.", "type": "string"}
ORDER_SEARCH_UNDER = _obj({"customer": SEARCH_CUSTOMER}, [])
ORDER_SEARCH_RIGHT = _obj({"customer": SEARCH_CUSTOMER}, ["customer"])


def orders_with_default(arguments: Mapping[str, Any]) -> dict:
    """An under-marked handler: with no customer it quietly falls back to the first one it knows."""
    customer = arguments.get("customer") or "10023"  # the invented default the lesson warns about
    frame = sap.orders()
    numbers = frame.loc[frame["SoldToParty"] == customer, "SalesOrder"].tolist()
    return {"customer": customer, "orders": numbers}


def under_marked_rows(short_call: Mapping[str, Any] | None = None) -> list[dict]:
    """A short call ({}) against both schemas: one passes and answers for a customer nobody named."""
    short_call = short_call or {}
    rows = []
    for label, schema in (("under-marked", ORDER_SEARCH_UNDER), ("right", ORDER_SEARCH_RIGHT)):
        passes = valid(schema, short_call)
        answer = orders_with_default(short_call) if passes else "rejected: customer is required"
        rows.append({"schema": label, "call": dict(short_call), "passes": passes, "what comes back": answer})
    return rows


# ---------- enums ----------

DETAIL_FREE = _obj({"detail": {"type": "string", "description": "How much detail to return."}}, ["detail"])
DETAIL_ENUM = _obj(
    {
        "detail": {
            "enum": ["concise", "detailed"],
            "type": "string",
            "description": "'concise' unless dates or the PO number are needed.",
        }
    },
    ["detail"],
)
DETAIL_GUESSES = ("concise", "short", "full", "detailed", "verbose", "summary")


def enum_rows(guesses: Sequence[str] = DETAIL_GUESSES) -> list[dict]:
    """What a free string and an enum each let through; the handler understands two words only."""
    return [
        {
            "model writes": g,
            "free string passes": valid(DETAIL_FREE, {"detail": g}),
            "enum passes": valid(DETAIL_ENUM, {"detail": g}),
            "handler understands": g in ("concise", "detailed"),
        }
        for g in guesses
    ]


# ---------- formats ----------

ORDER_PLAIN = _obj({"sales_order": {"type": "string"}}, ["sales_order"])
ORDER_FORMATTED = _obj(
    {
        "sales_order": {
            "type": "string",
            "pattern": "^[0-9]{1,10}$",
            "description": "The order's number in digits, without 'SO-' or spaces, e.g. '4711'.",
        }
    },
    ["sales_order"],
)
ORDER_SPELLINGS = ("4711", "SO-4711", "4711 ", "#4711", "0000004711")


def format_rows(spellings: Sequence[str] = ORDER_SPELLINGS) -> list[dict]:
    """One row per spelling. Each is shown quoted, as JSON carries it: a trailing space stays visible."""
    return [
        {
            "model writes": json.dumps(s),
            "plain string passes": valid(ORDER_PLAIN, {"sales_order": s}),
            "stated format passes": valid(ORDER_FORMATTED, {"sales_order": s}),
        }
        for s in spellings
    ]


# ---------- input examples ----------

WINDOW = _obj(
    {
        "customer": {"type": "string", "pattern": "^[0-9]+$"},
        "window": _obj(
            {
                "from": {
                    "type": "string",
                    "pattern": r"^\d{4}-\d{2}-\d{2}$",
                    "description": "First day, YYYY-MM-DD.",
                },
                "to": {
                    "type": "string",
                    "pattern": r"^\d{4}-\d{2}-\d{2}$",
                    "description": "Last day, YYYY-MM-DD.",
                },
            },
            ["from", "to"],
        ),
    },
    ["customer", "window"],
)
WINDOW_EXAMPLES = (
    {"customer": "10023", "window": {"from": "2026-10-01", "to": "2026-10-31"}},
    {"customer": "10023", "window": {"from": "01.10.2026", "to": "31.10.2026"}},
)


def check_input_examples(schema: Mapping[str, Any], examples: Sequence[Mapping[str, Any]]) -> list[str]:
    """Every example must pass the tool's own schema; the API refuses a definition whose examples don't.

    Returns one message per invalid example; empty means the definition can be sent.
    """
    validator = Draft202012Validator(schema)
    out = []
    for n, example in enumerate(examples, start=1):
        for err in validator.iter_errors(dict(example)):
            where = ".".join(str(p) for p in err.absolute_path) or "(top level)"
            out.append(f"example {n}, {where}: {err.message}")
    return out


# ---------- strict mode ----------

# Regex features outside what strict mode compiles: backreferences, lookarounds, word boundaries.
UNSUPPORTED_REGEX = re.compile(r"\\[1-9]|\(\?[=!]|\(\?<[=!]|\\b|\\B")


def strict_problems(schema: Mapping[str, Any], path: str = "") -> list[str]:
    """What keeps a schema from strict mode: open objects, optional fields, unsupported patterns.

    Strict mode constrains the model's sampling to the schema, so an integer field arrives as an
    integer. It accepts a subset of JSON Schema; these are the checks the course makes offline.
    """
    out = []
    where = path or "(top level)"
    if schema.get("type") == "object":
        if schema.get("additionalProperties") is not False:
            out.append(f"{where}: set additionalProperties to false")
        props = schema.get("properties", {})
        missing = [p for p in props if p not in schema.get("required", [])]
        if missing:
            out.append(f"{where}: list {', '.join(missing)} in required; use null for 'not given'")
        for name, spec in props.items():
            out.extend(strict_problems(spec, f"{path}.{name}" if path else name))
    pattern = schema.get("pattern")
    if pattern and UNSUPPORTED_REGEX.search(pattern):
        out.append(f"{where}: pattern {pattern!r} uses a backreference, lookaround or word boundary")
    return out


LIMIT_LOOSE = {"type": "object", "properties": {"limit": {"type": ["integer", "null"]}}}
LIMIT_STRICT = {
    "type": "object",
    "additionalProperties": False,
    "required": ["limit"],
    "properties": {
        "limit": {
            "type": ["integer", "null"],
            "description": "At most this many orders, 1 to 20; null for the default of 5.",
        }
    },
}
