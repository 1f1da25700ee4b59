"""Turning an answer into plain data, the only thing a check ever judges.

A check must not trust the object a learner hands it: an object can claim to equal anything.
So every answer is first copied into JSON-shaped values of exact built-in types (None, bool,
int, float, str, list, dict with string keys). Anything else is refused with a reason the
learner can act on. The grader uses the same conversion inside the learner's kernel.
"""

from __future__ import annotations

import dataclasses
import enum
import math
from typing import Any


class NotPlainData(TypeError):
    """The answer holds a value that is not plain data; the message says which and what to use."""


def _numpy_item(value: Any) -> Any:
    # numpy scalars (np.int64, np.float64, np.bool_) are common in pandas answers: accept their value.
    module = type(value).__module__
    if module == "numpy" and hasattr(value, "item") and getattr(value, "shape", None) == ():
        return value.item()
    return value


# Deeper than any answer in the course; shallow enough that a list holding itself is refused, not a crash.
MAX_DEPTH = 64
# How much of a key a message quotes: enough to find it, never a screenful.
_KEY_SHOWN = 40


def _key_text(key: Any) -> str:
    try:
        shown = repr(key)
    except Exception:  # a key whose repr fails is named by its type
        shown = f"<a {type(key).__name__}>"
    return shown if len(shown) <= _KEY_SHOWN else shown[: _KEY_SHOWN - 1] + "…"


def to_plain(value: Any, where: str = "the answer") -> Any:
    """Return a deep copy of ``value`` built only from exact JSON types, or raise NotPlainData."""
    return _plain(value, where, 0)


def _plain(value: Any, where: str, depth: int) -> Any:
    if depth > MAX_DEPTH:
        raise NotPlainData(
            f"{where} is nested more than {MAX_DEPTH} levels deep (or holds itself); use a flat list or dict"
        )
    value = _numpy_item(value)
    kind = type(value)
    # Identity, never ==: a class whose metaclass claims equality with everything must not pass.
    if value is None or kind is bool or kind is int or kind is str:
        return value
    if kind is float:
        if math.isnan(value) or math.isinf(value):
            raise NotPlainData(f"{where} is {value!r}; use a finite number")
        return value
    if kind is list or kind is tuple:
        return [_plain(item, f"{where}[{i}]", depth + 1) for i, item in enumerate(value)]
    if kind is dict:
        out = {}
        for key, item in value.items():
            key = _numpy_item(key)
            if type(key) is not str:
                if type(key) is int and key.bit_length() <= 64:
                    key = str(key)
                elif type(key) is int:
                    raise NotPlainData(
                        f"{where} has a key that is a number too long to be one; use strings as keys"
                    )
                else:
                    raise NotPlainData(
                        f"{where} has the key {_key_text(key)}; use strings (or whole numbers) as keys"
                    )
            out[key] = _plain(item, f"{where}[{_key_text(key)}]", depth + 1)
        return out
    if kind.__module__.startswith("tooldesign."):
        # The course's own typed results (a frozen dataclass, an enum) read as the plain data they hold.
        if isinstance(value, enum.Enum):
            return _plain(value.value, where, depth + 1)
        if dataclasses.is_dataclass(value) and not isinstance(value, type):
            fields = {f.name: getattr(value, f.name) for f in dataclasses.fields(value)}
            return _plain(fields, where, depth + 1)
    name = f"{kind.__module__}.{kind.__qualname__}" if kind.__module__ != "builtins" else kind.__qualname__
    if name in ("set", "frozenset"):
        raise NotPlainData(f"{where} is a {name}; use a sorted list instead")
    if name.startswith("pandas."):
        raise NotPlainData(
            f"{where} is a {name}; turn it into plain values first, for example with .tolist() or .to_dict()"
        )
    raise NotPlainData(f"{where} is a {name}, not plain data; use numbers, strings, lists and dicts")
