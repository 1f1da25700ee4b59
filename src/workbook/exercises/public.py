"""Checks without answers: what the student edition's lesson modules are made of.

In the student edition (``.venv/bin/workbook handout``) a lesson module holds no right answer in
clear. A value exercise keeps only salted digests: the digest of the right answer and of each
known wrong answer, and the message for each, encrypted with a key that only that same answer
derives. So a right answer still hears its confirmation and a known mistake still gets its hint,
while reading the module tells nothing, and trying answers costs a slow key derivation each.
A function exercise keeps the lesson's public examples and a digest of each right result (an
example's result may be known; the grader judges on inputs drawn at grade time anyway).

The same ``canonical`` form is used when the student edition is built and when a check runs: two
answers that are equal as plain data (dict order, an integral float and its int, surrounding
spaces of a text) have the same digest.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from functools import lru_cache
from typing import Any

from workbook.exercises.kinds import Exercise
from workbook.verdicts import Verdict, failed, probe_error, readable

ROUNDS = 60_000  # key derivation rounds: tens of milliseconds per check, hours to try 100,000 answers


def _normal(value: Any) -> Any:
    if type(value) is float:
        return int(value) if value.is_integer() else float(f"{value:.9g}")
    if type(value) is str:
        return value.strip()
    if type(value) is list:
        return [_normal(item) for item in value]
    if type(value) is dict:
        return {key: _normal(item) for key, item in value.items()}
    return value


def canonical(plain: Any) -> bytes:
    """One byte string per plain value: keys sorted, numbers and texts in a normal form."""
    return json.dumps(_normal(plain), sort_keys=True, ensure_ascii=True, separators=(",", ":")).encode()


def derive(salt: str, plain: Any) -> tuple[str, bytes]:
    """(digest, key) of a value: the digest identifies it, the key opens its message."""
    return _derived(salt, canonical(plain))


@lru_cache(maxsize=4096)
def _derived(salt: str, data: bytes) -> tuple[str, bytes]:
    # Slow on purpose, once per value: a process that builds several editions, or checks the same
    # answer again, pays for each (salt, answer) once. It only remembers what it was given.
    material = hashlib.pbkdf2_hmac("sha256", data, salt.encode(), ROUNDS, dklen=64)
    return material[:32].hex(), material[32:]


def quick(salt: str, plain: Any) -> str:
    """A fast digest, for the results of public examples."""
    return hashlib.sha256(salt.encode() + b"\0" + canonical(plain)).hexdigest()


def _stream(key: bytes, length: int) -> bytes:
    out = b""
    counter = 0
    while len(out) < length:
        out += hashlib.sha256(key + counter.to_bytes(4, "big")).digest()
        counter += 1
    return out[:length]


def seal(key: bytes, message: str) -> str:
    data = message.encode("utf-8")
    return bytes(a ^ b for a, b in zip(data, _stream(key, len(data)))).hex()


def unseal(key: bytes, sealed: str) -> str:
    data = bytes.fromhex(sealed)
    return bytes(a ^ b for a, b in zip(data, _stream(key, len(data)))).decode("utf-8", errors="replace")


def _digest_judge(spec: dict) -> Callable[[Any], Verdict]:
    salt, answers = spec["salt"], {digest: (status, sealed) for digest, status, sealed in spec["answers"]}
    fallback = spec["fallback"]

    def judge(plain: Any) -> Verdict:
        digest, key = derive(salt, plain)
        if digest in answers:
            status, sealed = answers[digest]
            return Verdict(status, unseal(key, sealed))
        if spec["kind"] == "function":
            return _first_wrong_example(spec, plain)
        return failed(fallback)

    return judge


def _first_wrong_example(spec: dict, results: Any) -> Verdict:
    """Name the first public example whose result is not the right one."""
    if type(results) is not list:
        return failed(spec["fallback"])
    for index, (args, got, right) in enumerate(zip(spec["probes"], results, spec["examples"])):
        if quick(spec["salt"], got) == right:
            continue
        shown = ", ".join(readable(arg) for arg in args)
        call = f"{spec['answer']}({shown})"
        if (raised := probe_error(got)) is not None:
            return failed(f"{call} raised {raised}")
        general = (spec.get("general") or [None] * len(spec["examples"]))[index]
        if general:  # the repository's own hint for this example, without the right result
            return failed(general.replace("{got}", readable(got)))
        return failed(f"{call} returned {readable(got)}. {spec['fallback']}")
    return failed(spec["fallback"])


def _untested(spec: dict) -> Callable[[Any], Verdict]:
    def judge(plain: Any) -> Verdict:
        asks = spec["prompt"].strip().rstrip(".")
        return failed(
            "This edition cannot check this exercise: your instructor's grader judges it. "
            + (f"Compare your answer with what the exercise asks ({asks})." if asks else "")
        )

    return judge


def build(specs: list[dict], judges: dict[str, Callable] | None = None) -> list[Exercise]:
    """The exercises of one lesson in the student edition, from the specs the handout wrote."""
    judges = judges or {}
    out = []
    for spec in specs:
        if spec["grade_id"] in judges:
            judge = judges[spec["grade_id"]]
        elif spec.get("answers"):
            judge = _digest_judge(spec)
        else:
            judge = _untested(spec)
        out.append(
            Exercise(
                spec["grade_id"],
                spec["notebook"],
                spec["answer"],
                spec["points"],
                judge,
                kind=spec["kind"],
                probes=tuple(tuple(p) for p in spec["probes"]),
                prompt=spec["prompt"],
            )
        )
    return out
