"""Parse the arguments; never compare them as strings.

The same arguments can arrive as different text: ``/`` escaped or not, non-ASCII letters as
``\\u`` escapes or as themselves, keys in another order, other whitespace. Model versions and
client libraries differ in exactly these choices, so a check that matches on the serialised
string passes today and fails after an upgrade. Parse the JSON, then compare values.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from tooldesign.tools.base import MAX_DEPTH, NotJSON, clip, echo, json_plain
from tooldesign.wording import a_kind


class ArgumentsNotParsed(ValueError):
    """The arguments were not a JSON object; raised with a message the model can act on."""


def plain_copy(value: Any) -> Any:
    """A deep copy of a JSON value made of fresh dicts and lists, or ArgumentsNotParsed.

    The copy is what makes later steps safe: nobody who holds the original (a caller, an approver)
    can change what was validated, what runs or what the audit shows. What counts as plain is
    decided once, by ``json_plain``; this only words the refusal for arguments.
    """
    try:
        return json_plain(value)
    except NotJSON as error:
        text = str(error)
        raise ArgumentsNotParsed(f"The arguments are not plain JSON: {text}") from None


def parse_arguments(raw: Any) -> dict:
    """Arguments as a fresh dict, whether they came as JSON text or already parsed; anything else is refused."""
    if isinstance(raw, Mapping):
        return plain_copy(raw)
    if isinstance(raw, memoryview):
        raw = raw.tobytes()
    if not isinstance(raw, (str, bytes, bytearray)):
        raise ArgumentsNotParsed(f"The arguments must be a JSON object, not {_kind(raw)} ({echo(raw)})")
    try:
        value = json.loads(raw)
    except (TypeError, ValueError) as err:
        raise ArgumentsNotParsed(f"The arguments are not valid JSON ({clip(str(err))})") from None
    except RecursionError:
        raise ArgumentsNotParsed(f"The arguments are nested more than {MAX_DEPTH} levels deep") from None
    if not isinstance(value, dict):
        raise ArgumentsNotParsed(f"The arguments must be a JSON object, not {_kind(value)} ({echo(value)})")
    return plain_copy(value)


def _kind(value: Any) -> str:
    """The JSON name of a value's type, the words a model knows."""
    names = {
        type(None): "null",
        bool: "a boolean",
        int: "a number",
        float: "a number",
        str: "a string",
        list: "an array",
        tuple: "an array",
        dict: "an object",
    }
    return names.get(type(value)) or a_kind(value)


def same_arguments(a: str | Mapping[str, Any], b: str | Mapping[str, Any]) -> bool:
    """True when two serialisations carry the same values: the comparison to use."""
    return parse_arguments(a) == parse_arguments(b)


def spellings(arguments: Mapping[str, Any]) -> dict[str, str]:
    """One value written several ways, each a spelling some encoder really produces."""
    compact = json.dumps(arguments, ensure_ascii=False, separators=(",", ":"))
    return {
        "compact, UTF-8": compact,
        "\\u escapes": json.dumps(arguments, ensure_ascii=True, separators=(",", ":")),
        # "/" only occurs inside strings in JSON, so escaping every one is a valid spelling.
        "escaped slashes": compact.replace("/", "\\/"),
        "keys reordered": json.dumps(
            dict(reversed(list(arguments.items()))), ensure_ascii=False, separators=(",", ":")
        ),
        "spaces and newlines": json.dumps(arguments, ensure_ascii=False, indent=2),
    }


def comparison(arguments: Mapping[str, Any]) -> list[dict]:
    """Each spelling against the compact one: equal as strings? equal once parsed?"""
    variants = spellings(arguments)
    reference = variants["compact, UTF-8"]
    return [
        {
            "spelling": label,
            "text": text if len(text) <= 70 else text[:67] + "...",
            "same string": text == reference,
            "same once parsed": same_arguments(text, reference),
        }
        for label, text in variants.items()
    ]


# Pairs that must NOT compare equal: parsing is not a licence to ignore real differences.
DIFFERENT_VALUES = (
    ('{"sales_order":"4711"}', '{"sales_order":4711}', "a string and a number are different values"),
    ('{"sales_order":"4711"}', '{"sales_order":"04711"}', "a leading zero changes the string"),
)
