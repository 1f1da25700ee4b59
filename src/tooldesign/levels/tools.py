"""The five tools: plain Python functions, each in the course's one tool shape.

A tool reports its own failures as a result with the key ``hata``
(error): a missing field, an unknown subscriber, a search with no hit.
That is the only kind of error the lesson counts (TM5). A tool never
raises; the agent reads the error and spends a step.

The tools take keyword arguments only and every one defaults to ``None``:
at the call boundary a declared field may be left unfilled, and the tool
must notice that for itself.

Each tool is a :class:`tooldesign.tools.base.Tool`, like every other tool in the course: its
description is what levels two and up show, its schema's properties are the declared fields (in the
order the boundary fills them), and ``readOnlyHint`` marks the one tool with a side effect.
"""

from __future__ import annotations

from collections.abc import Callable

from tooldesign.levels.environment import DOCUMENTS, SUBSCRIBERS, TYPES, charge, meter_difference
from tooldesign.tokens import piece_set
from tooldesign.tools.base import Tool

MISSING = {"hata": "eksik alan"}  # a declared field was not filled


def read_meter(*, abone: str | None = None) -> dict:
    """``sayac_oku``: a subscriber's two indexes, type and region."""
    record = SUBSCRIBERS.get(abone) if abone is not None else None
    if record is None:
        return {"hata": "abone yok"}
    return {key: record[key] for key in ("onceki", "simdiki", "tip", "bolge")}


def consumption(*, onceki: int | None = None, simdiki: int | None = None) -> dict:
    """``tuketim``: m3 between two indexes.

    It cannot tell a swapped pair from a meter that rolled over, so a swap
    gives a valid result near 100000.
    """
    if onceki is None or simdiki is None:
        return dict(MISSING)
    return {"m3": meter_difference(onceki, simdiki)}


def tariff(*, m3: int | None = None, tip: str | None = None) -> dict:
    """``tarife``: the period charge.

    ``tip`` is declared but optional: left unfilled, the tool assumes a
    residential subscriber, which quietly undercharges a commercial one.
    """
    if m3 is None:
        return dict(MISSING)
    return {"tutar": charge(m3, tip or "mesken")}


def search_docs(*, anahtar: str | None = None) -> dict:
    """``belge_ara``: the document sharing the most tokens with the query.

    Ties go to the document listed first; no shared token is an error.
    """
    if not anahtar:
        return dict(MISSING)
    query = piece_set(str(anahtar))
    overlap = {code: len(query & piece_set(text)) for code, text in DOCUMENTS.items()}
    best = max(overlap, key=overlap.__getitem__)  # first of the equals wins
    if overlap[best] == 0:
        return {"hata": "bulunamadi"}
    return {"kod": best, "metin": DOCUMENTS[best]}


def write_record(*, abone: str | None = None, sutun: str | None = None, deger: object = None) -> dict:
    """``kayit_yaz``: write one value to a subscriber's column (a side effect)."""
    if not abone or not sutun or deger is None:
        return dict(MISSING)
    return dict(yazildi=True, abone=abone, sutun=sutun, deger=deger)


def _tool(
    name: str,
    function: Callable[..., dict],
    description: str,
    fields: dict[str, dict],
    required: tuple[str, ...],
    writes: bool = False,
) -> Tool:
    """``function`` in the shared shape; its handler passes the arguments as keywords."""

    def handler(arguments: dict) -> dict:
        return function(**arguments)

    schema = {"type": "object", "properties": fields, "required": list(required)}
    return Tool(name, description, schema, handler, {"readOnlyHint": not writes})


_TEXT, _WHOLE = {"type": "string"}, {"type": "integer"}

# ``fields`` order matters: each field the boundary fills consumes one draw from the definition stream.
TOOLS: dict[str, Tool] = {
    tool.name: tool
    for tool in (
        _tool(
            "sayac_oku",
            read_meter,
            "abonenin onceki ve simdiki sayac endeksini dondurur",
            {"abone": _TEXT},
            ("abone",),
        ),
        _tool(
            "tuketim",
            consumption,
            "iki endeks arasindaki farki metrekup olarak verir",
            {"onceki": _WHOLE, "simdiki": _WHOLE},
            ("onceki", "simdiki"),
        ),
        _tool(
            "tarife",
            tariff,
            "metrekup ve abone tipinden donem bedelini hesaplar",
            {"m3": _WHOLE, "tip": {"type": "string", "enum": list(TYPES)}},
            ("m3",),
        ),
        _tool(
            "belge_ara",
            search_docs,
            "anahtar metne en yakin kurgu belgeyi getirir",
            {"anahtar": _TEXT},
            ("anahtar",),
        ),
        _tool(
            "kayit_yaz",
            write_record,
            "bir abonenin bir sutununa deger yazar ; yan etkilidir",
            {"abone": _TEXT, "sutun": _TEXT, "deger": {}},
            ("abone", "sutun", "deger"),
            writes=True,
        ),
    )
}
TOOL_NAMES: tuple[str, ...] = tuple(TOOLS)  # the order a random pick indexes into
