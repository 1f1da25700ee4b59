"""The few lines of the grader that run inside a learner's kernel: take one answer out as plain text.

The grader sends this module's source to the kernel before any learner code runs and executes it
in a private namespace whose builtins are a snapshot (see ``kernel.boot_code``), so an answer is
copied with the original ``type``, ``ascii`` and friends even after a learner patches them. The
extractor never judges anything: it copies the answer into fresh containers of exact built-in
types (checked with ``is``, so no ``__eq__`` and no metaclass can pretend) and writes them with
``ascii()``.

Nothing here is trusted. Learner code shares the process and can replace the extractor or forge
its text, so what comes back is only a *claim* of a value: the grader parses it with
``ast.literal_eval`` outside the kernel, converts it again with ``workbook.plain.to_plain`` and
judges it in its own process, on inputs the kernel cannot know in advance (drawn at grade time)
with right answers the kernel never holds. A forged claim can only claim a value, and a value is
exactly what gets judged. There is no key in here: any secret in the kernel belongs to the learner.

This module imports nothing from ``workbook`` (``to_plain`` and ``NotPlainData`` are handed in),
so the same code runs in the kernel and, for the tests, in plain Python.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

MAX_DEPTH = 64
MAX_INT_DIGITS = 4000
MAX_INT_BITS = 13_287  # 2 ** 13_287 has 4,000 digits


def make_extractor(
    namespace: dict, to_plain: Callable, not_plain: type[Exception], limit: int
) -> Callable[[str, str, tuple], str]:
    """Capture everything now and return ``extract(name, kind, probes) -> text``."""
    absent = object()

    def strict(value: Any, where: str, depth: int = 0) -> Any:
        """A fresh copy of plain data, types compared by identity; anything else is refused."""
        if depth > MAX_DEPTH:
            raise not_plain(f"{where} is nested more than {MAX_DEPTH} levels deep")
        kind = type(value)  # compared with `is` only: a metaclass can make == and dict lookups lie
        if kind is int and value.bit_length() > MAX_INT_BITS:
            # Python refuses to write such an integer as text (its 4,300-digit limit) and no judge wants one.
            raise not_plain(f"{where} is a whole number of more than {MAX_INT_DIGITS:,} digits")
        if value is None or kind is bool or kind is int or kind is str:
            return value
        if kind is float:
            if value != value or value == float("inf") or value == float("-inf"):
                raise not_plain(f"{where} is {value!r}; use a finite number")
            return value
        if kind is list or kind is tuple:
            return [strict(item, f"{where}[{index}]", depth + 1) for index, item in enumerate(value)]
        if kind is dict:
            copy = {}
            for key, item in value.items():
                if type(key) is not str:
                    raise not_plain(f"{where} has a key that is not a string")
                copy[key] = strict(item, f"{where}[{key!r}]", depth + 1)
            return copy
        raise not_plain(
            f"{where} is a {type(value).__name__}, not plain data; use numbers, strings, lists and dicts"
        )

    def fresh(value: Any) -> Any:
        # Each call gets its own copy of the inputs, so a function that changes them changes no later probe.
        if type(value) is list:
            return [fresh(item) for item in value]
        if type(value) is tuple:
            return tuple(fresh(item) for item in value)
        if type(value) is dict:
            return {key: fresh(item) for key, item in value.items()}
        return value

    def describe(error: BaseException) -> str:
        try:
            text = str(error)
        except BaseException:  # a learner's exception whose __str__ fails says at least its type
            text = ""
        return f"{type(error).__name__}: {text}" if type(text) is str else type(error).__name__

    def plain(value: Any, where: str) -> Any:
        return strict(to_plain(value, where), where)

    def call(function: Callable, args: tuple) -> Any:
        try:
            return plain(function(*fresh(args)), "what your function returned")
        except NotImplementedError:
            raise
        except not_plain as error:
            return {"error": f"NotPlainData: {describe(error).partition(': ')[2]}"}
        except KeyboardInterrupt:  # the grader's own interrupt after a timeout: let it end the request
            raise
        except BaseException as error:  # the learner's bug (even SystemExit) is data for the hint
            return {"error": describe(error)}

    def collect(name: str, kind: str, probes: tuple) -> dict:
        answer = namespace.get(name, absent)
        if answer is absent:
            return {"status": "missing"}
        if answer is Ellipsis:
            return {"status": "not_done"}
        try:
            if kind == "function":
                if not callable(answer):
                    return {
                        "status": "not_plain",
                        "message": f"{name} should be a function (def {name}(...):), "
                        f"not a {type(answer).__name__}",
                    }
                return {"status": "ok", "data": [call(answer, args) for args in probes]}
            return {"status": "ok", "data": plain(answer, name)}
        except NotImplementedError:
            return {"status": "not_done"}
        except not_plain as error:
            return {"status": "not_plain", "message": describe(error).partition(": ")[2]}

    def extract(name: str, kind: str, probes: tuple) -> str:
        try:
            text = ascii(collect(name, kind, probes))
        except KeyboardInterrupt:
            raise
        except BaseException as error:  # e.g. RecursionError on a list that contains itself
            text = ascii({"status": "error", "message": describe(error)})
        if len(text) > limit:
            text = ascii(
                {
                    "status": "too_big",
                    "message": f"{name} is {len(text):,} characters as plain data; "
                    f"the grader reads at most {limit:,}",
                }
            )
        return text

    return extract
