"""The three cold-chain tools of the code-mode lesson, with a first-draft and a corrected description each.

The handlers read the course's cold-chain data. The two description sets differ in the one thing
code mode depends on: the draft says what a tool is for and stops, the corrected one names every
field the tool returns and says what each argument is. A program sees nothing else about a tool,
so with the draft it has to guess field names, and it guesses wrong.

A fourth tool, ``CC_FILE_CLAIM``, stands for a tool that writes; it joins only the deployment
exercise, where its access has to keep it away from programs. It is the one write in the course
that cannot be taken back (the carrier receives the claim), so its annotations say so and the
dispatcher's gate gives it to a person: ``claim_tool_set`` is the model's direct list with it.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Callable, Iterable, Mapping
from functools import lru_cache
from pathlib import Path
from typing import Any

from tooldesign.codemode.registry import Registry
from tooldesign.data import coldchain
from tooldesign.tools.base import Tool, ToolSet

__all__ = [
    "CODES",
    "CORRECTED",
    "DEPLOYED",
    "DRAFT",
    "FILE_CLAIM",
    "HANDLERS",
    "file_claim",
    "FILE_CLAIM_ANNOTATIONS",
    "claim_tool_set",
    "register_deployment",
    "SCHEMAS",
    "TAG",
    "get_limits",
    "get_readings",
    "list_shipments",
    "register",
    "result_fields",
    "sample_arguments",
    "tool_set",
]

TAG = "coldchain"
LIST, READINGS, LIMITS = "CC_LIST_SHIPMENTS", "CC_GET_READINGS", "CC_GET_LIMITS"
CODES = (LIST, READINGS, LIMITS)
PRODUCT_CLASSES = tuple(coldchain.LIMITS)


# ---------- the data, read once ----------


@lru_cache(maxsize=4)
def _shipments(folder: Path) -> tuple[dict, ...]:
    # to_dict gives numpy-free Python values, so results serialise as plain JSON
    return tuple(coldchain.shipments(folder).to_dict(orient="records"))


@lru_cache(maxsize=4)
def _readings(folder: Path) -> dict[int, list[dict]]:
    return coldchain.readings_by_shipment(folder)


@lru_cache(maxsize=4)
def _limits(folder: Path) -> tuple[dict, ...]:
    return tuple(coldchain.limits(folder).to_dict(orient="records"))


# ---------- the handlers ----------


def list_shipments(arguments: Mapping[str, Any], folder: Path = coldchain.FOLDER) -> list[dict]:
    """Every shipment, or those of one product class."""
    product_class = arguments.get("product_class")
    if product_class is not None and product_class not in PRODUCT_CLASSES:
        raise ValueError(
            f"product_class must be one of {', '.join(PRODUCT_CLASSES)} or left out; got {product_class!r}"
        )
    return [
        dict(row)
        for row in _shipments(Path(folder))
        if product_class is None or row["product_class"] == product_class
    ]


def get_readings(arguments: Mapping[str, Any], folder: Path = coldchain.FOLDER) -> dict:
    """The readings of one shipment. The error names the id a caller should have passed, because
    the likeliest mistake is the shipment number in place of the id."""
    shipment_id = arguments.get("shipment_id")
    if not isinstance(shipment_id, int) or isinstance(shipment_id, bool):
        raise ValueError(
            f"shipment_id must be the numeric id from CC_LIST_SHIPMENTS (such as 108), not {shipment_id!r}"
        )
    readings = _readings(Path(folder))
    if shipment_id not in readings:
        raise ValueError(f"no shipment with shipment_id {shipment_id}; CC_LIST_SHIPMENTS lists the ids")
    return {"shipment_id": shipment_id, "readings": copy.deepcopy(readings[shipment_id])}


def get_limits(arguments: Mapping[str, Any], folder: Path = coldchain.FOLDER) -> list[dict]:
    """The two rows of the claim rule, one per product class."""
    return [dict(row) for row in _limits(Path(folder))]


HANDLERS: dict[str, Callable[[Mapping[str, Any]], Any]] = {
    LIST: list_shipments,
    READINGS: get_readings,
    LIMITS: get_limits,
}


# ---------- a fourth tool that writes, for the deployment exercise ----------

FILE_CLAIM = "CC_FILE_CLAIM"
DEPLOYED = (*CODES, FILE_CLAIM)


def file_claim(arguments: Mapping[str, Any], folder: Path = coldchain.FOLDER) -> dict:
    """Pretend to file a claim with the carrier. A stand-in: nothing is sent or stored anywhere,
    but a caller must treat it as the write it stands for."""
    shipment_id, eur = arguments.get("shipment_id"), arguments.get("eur")
    if shipment_id not in _readings(Path(folder)):
        raise ValueError(f"no shipment with shipment_id {shipment_id!r}; CC_LIST_SHIPMENTS lists the ids")
    if not isinstance(eur, (int, float)) or isinstance(eur, bool) or eur <= 0:
        raise ValueError(f"eur must be the claim amount in euros, more than 0; got {eur!r}")
    return {"claim_id": f"CL-{shipment_id}", "status": "filed"}


FILE_CLAIM_DESCRIPTION = (
    "File a temperature claim with the carrier of ONE shipment; the carrier receives it and it cannot be "
    "taken back. shipment_id: the numeric id from CC_LIST_SHIPMENTS; eur: the amount in euros. Returns "
    "{ claim_id, status }."
)
FILE_CLAIM_SCHEMA = {
    "type": "object",
    "properties": {
        "shipment_id": {"type": "integer", "description": "The numeric id from CC_LIST_SHIPMENTS."},
        "eur": {"type": "number", "description": "The claim amount in euros."},
    },
    "required": ["shipment_id", "eur"],
    "additionalProperties": False,
}


# What the claim does to the world, in MCP's hints: it writes, it adds rather than destroys, a repeat
# files a second claim, and the carrier outside receives it. Open world means it cannot be called
# back, so ``tooldesign.dispatch.who_decides`` gives it to a person, whatever a policy check says.
FILE_CLAIM_ANNOTATIONS = {
    "readOnlyHint": False,
    "destructiveHint": False,
    "idempotentHint": False,
    "openWorldHint": True,
}


def register_deployment(
    registry: Registry, access: Mapping[str, str | None], descriptions: Mapping[str, str] | None = None
) -> None:
    """The deployment script of the exercise: the three tools and CC_FILE_CLAIM, with merge_tool.

    A value of None in ``access`` passes nothing, so the stored access stays.
    """
    register(registry, descriptions or CORRECTED, access={code: access.get(code) for code in CODES})
    registry.merge_tool(
        FILE_CLAIM,
        FILE_CLAIM_DESCRIPTION,
        FILE_CLAIM_SCHEMA,
        function_call=f"{__name__}:file_claim",
        tags=[TAG],
        code_mode_access=access.get(FILE_CLAIM),
    )


# Where a registry row says the code lives, in the spirit of the source's function_call column.
FUNCTION_CALLS = {code: f"{__name__}:{handler.__name__}" for code, handler in HANDLERS.items()}


# ---------- what the model and the program are told ----------

SCHEMAS: dict[str, dict] = {
    LIST: {
        "type": "object",
        "properties": {
            "product_class": {
                "type": "string",
                "enum": list(PRODUCT_CLASSES),
                "description": "FROZEN or CHILLED to keep one class; leave it out for every shipment.",
            }
        },
        "additionalProperties": False,
    },
    READINGS: {
        "type": "object",
        "properties": {
            "shipment_id": {
                "type": "integer",
                "description": "A shipment's numeric id as CC_LIST_SHIPMENTS returns it, not its SHP- number.",
            }
        },
        "required": ["shipment_id"],
        "additionalProperties": False,
    },
    LIMITS: {"type": "object", "properties": {}, "additionalProperties": False},
}

# First drafts: each says what the tool is for, and nothing about what comes back.
DRAFT: dict[str, str] = {
    LIST: "List the refrigerated shipments, optionally only those of one product class.",
    READINGS: "Get the temperature readings recorded for a shipment.",
    LIMITS: "Get the temperature limits and claim rules.",
}

# Corrected: the result's fields by name, and what each argument is rather than what it is called.
CORRECTED: dict[str, str] = {
    LIST: (
        "List refrigerated shipments. product_class: FROZEN or CHILLED to keep one class, or leave "
        "it out for all of them. Returns an array of { shipment_id, shipment_number, carrier, lane, "
        "product_class, departure }. shipment_id is the number the other CC_ tools take; "
        "shipment_number is the SHP- label people use; departure is an ISO time in UTC."
    ),
    READINGS: (
        "Temperature log of ONE shipment, oldest first. shipment_id: the numeric id that "
        "CC_LIST_SHIPMENTS returns (such as 108), never the SHP- number. Returns "
        "{ shipment_id, readings }, readings being an array of { ts, temp_c } with one row "
        "every 30 minutes (49 rows); temp_c is in degrees Celsius, ts is an ISO time in UTC."
    ),
    LIMITS: (
        "The claim rule of each product class; takes no arguments. Returns an array of "
        "{ product_class, max_temp_c, max_minutes_above, sample_minutes, claim_per_hour_eur }. "
        "A reading breaches when temp_c is strictly above max_temp_c; readings are sample_minutes "
        "apart; a run of breaching readings lasting longer than max_minutes_above earns "
        "claim_per_hour_eur for every started hour of the run."
    ),
}

# What each tool is called with when the course needs a real result to look at.
SAMPLE_ARGUMENTS: dict[str, dict] = {LIST: {}, READINGS: {"shipment_id": 108}, LIMITS: {}}


def sample_arguments(code: str) -> dict:
    return dict(SAMPLE_ARGUMENTS[code])


# The one tool whose result a person may well ask to read: the claim rules, two small rows.
PERSON_ASKS = frozenset({LIMITS})
CLAIM_SAMPLE = {"shipment_id": 108, "eur": 720}


def deployment_facts() -> dict[str, dict]:
    """What a deployment script knows of each of the four tools it registers, as plain data.

    ``name``, ``writes`` and ``irreversible`` (a write nobody can take back), ``result_chars`` (the JSON of one
    sample call's result) and ``person_asks`` (a person may well ask to read that result). The
    access exercise decides each tool's ``code_mode_access`` from such a description, so it holds
    the facts and no access value.
    """
    calls = {code: (HANDLERS[code], sample_arguments(code)) for code in CODES}
    calls[FILE_CLAIM] = (file_claim, dict(CLAIM_SAMPLE))
    return {
        code: {
            "name": code,
            "writes": code == FILE_CLAIM,
            "irreversible": code == FILE_CLAIM,
            "result_chars": len(json.dumps(handler(arguments))),
            "person_asks": code in PERSON_ASKS,
        }
        for code, (handler, arguments) in calls.items()
    }


def register(
    registry: Registry,
    descriptions: Mapping[str, str] = CORRECTED,
    *,
    access: Mapping[str, str | None] | None = None,
    merge: bool = True,
) -> list[int]:
    """Register the three tools and return their ids.

    With ``merge=True`` this behaves like a re-runnable deployment script: an access value that is
    not given (None) keeps what the registry already holds. ``access`` maps codes to values.
    """
    access = dict(access or {})
    ids = []
    for code in CODES:
        fields: dict[str, Any] = dict(
            json_schema=SCHEMAS[code], function_call=FUNCTION_CALLS[code], tags=[TAG]
        )
        if merge:
            ids.append(
                registry.merge_tool(code, descriptions[code], code_mode_access=access.get(code), **fields)
            )
        else:
            ids.append(
                registry.create_tool(
                    code, descriptions[code], code_mode_access=access.get(code) or "both", **fields
                )
            )
    return ids


def tool_set(descriptions: Mapping[str, str] = CORRECTED, codes: Iterable[str] = CODES) -> ToolSet:
    """The tools in the course's common shape, for the model's direct tool list."""
    tools = tuple(
        Tool(code, descriptions[code], SCHEMAS[code], HANDLERS[code], {"readOnlyHint": True})
        for code in codes
    )
    return ToolSet("coldchain-code-mode", tools)


def claim_tool_set(descriptions: Mapping[str, str] = CORRECTED) -> ToolSet:
    """The model's direct tools after the deployment: the three reads and CC_FILE_CLAIM, gated by its hints."""
    claim = Tool(FILE_CLAIM, FILE_CLAIM_DESCRIPTION, FILE_CLAIM_SCHEMA, file_claim, FILE_CLAIM_ANNOTATIONS)
    return ToolSet("coldchain-claims", (*tool_set(descriptions).tools, claim))


def _keys(value: Any) -> set[str]:
    if isinstance(value, dict):
        return set(value).union(*(_keys(item) for item in value.values()))
    if isinstance(value, list):
        return set().union(*(_keys(item) for item in value))
    return set()


def result_fields(code: str, handler: Callable[[Mapping[str, Any]], Any] | None = None) -> set[str]:
    """Every field name in a real result of the tool, at any depth.

    Derived by calling the tool rather than written down, so a check built on it cannot drift from
    what the tool actually returns.
    """
    return _keys((handler or HANDLERS[code])(sample_arguments(code)))
