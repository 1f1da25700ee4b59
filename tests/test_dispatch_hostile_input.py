"""Python objects a model client might hand the dispatcher, and approvers that misbehave in new ways.

test_dispatch_bad_input.py covers every JSON shape; this file covers what JSON cannot spell but a
client library can pass: mappings whose methods raise, subclasses of str and int, numbers of
thousands of digits, NaN, lone surrogates, memoryviews, reply objects with ``model_dump``. Each is
answered with an error result that UTF-8 can carry, and nothing runs that was not validated.
"""
from __future__ import annotations

import json
from collections import UserDict
from functools import reduce

import pytest

from tooldesign.dispatch import Decision, Dispatcher, ToolCall, ToolResult, allow_all
from tooldesign.dispatch.boundary import tools as boundary_tools
from tooldesign.dispatch.gate import release_policy
from tooldesign.tools.base import NotJSON, json_plain
from tooldesign.tools.designed import EXAMPLES, build_designed_set
from tooldesign.tools.mirror import build_mirror_set

READ, WRITE = "sales_order_get_block_summary", "release_request_create"
GOOD_WRITE = {"sales_order": "4711",
              "justification": "Exposure 52,500 EUR is 5% over the 50,000 EUR limit; paid on time for years."}


class Exploding:
    def __getattr__(self, name):
        raise RuntimeError("boom")


class RaisingMapping(UserDict):
    def __getitem__(self, key):
        raise RuntimeError("getitem")

    def __contains__(self, key):
        raise RuntimeError("contains")


class RaisingDict(dict):
    def __iter__(self):
        raise RuntimeError("iter")

    def items(self):
        raise RuntimeError("items")

    def keys(self):
        raise RuntimeError("keys")


class TouchyStr(str):
    """A str subclass whose == raises: a lookup by it must never reach a comparison."""
    def __eq__(self, other):
        raise RuntimeError("eq")

    __hash__ = str.__hash__


class Reply:
    """Stands in for a client library's tool-use block: a pydantic object with model_dump()."""
    def __init__(self, **fields):
        self._fields = fields

    def model_dump(self, **_):
        return dict(self._fields)


DEEP = reduce(lambda inner, _: [inner], range(5000), 1)

HOSTILE = {
    "a mapping whose [] raises": RaisingMapping({"name": READ}),
    "a dict whose iteration raises": RaisingDict(name=READ),
    "an object whose attributes raise": Exploding(),
    "bytes": b'{"name": "x"}',
    "a tuple": (READ, {}),
    "a set": {1, 2},
    "an int of 5,000 digits": 10 ** 5000,
    "NaN": float("nan"),
    "a list 5,000 deep": DEEP,
    "a lone surrogate as name": {"name": "\ud800", "input": {}},
    "control characters as name": {"name": "sales\x00order\u202e", "input": {}},
    "a name of a million characters": {"name": "n" * 1_000_000, "input": {}},
    "a reply object naming no tool": Reply(id="x", input={}),
    "arguments: a mapping whose [] raises": ToolCall(READ, RaisingMapping({"a": 1})),
    "arguments: a dict whose items() raises": ToolCall(READ, RaisingDict(sales_order="4711")),
    "arguments: an object whose attributes raise": ToolCall(READ, Exploding()),
    "arguments: an int of 5,000 digits": ToolCall(READ, {"sales_order": 10 ** 5000, "detail": "concise"}),
    "arguments: JSON text with 5,000 digits": ToolCall(READ, '{"sales_order": ' + "9" * 5000 + "}"),
    "arguments: NaN": ToolCall(READ, {"sales_order": float("nan"), "detail": "concise"}),
    "arguments: NaN as JSON text": ToolCall(READ, '{"sales_order": NaN, "detail": "concise"}'),
    "arguments: infinity": ToolCall("sales_order_search", {"customer": "10023", "blocked_only": True,
                                                           "limit": float("inf")}),
    "arguments: a lone surrogate": ToolCall(READ, '{"sales_order": "\\ud800", "detail": "concise"}'),
    "arguments: a lone surrogate as key": ToolCall(READ, '{"\\ud800": 1}'),
    "arguments: invalid UTF-8 bytes": ToolCall(READ, b"\xff\xfe{"),
    "arguments: UTF-16 bytes": ToolCall(READ, '{"a": 1}'.encode("utf-16")),
    "arguments: a memoryview": ToolCall(READ, memoryview(b"[1]")),
    "arguments: an object 3,000 deep as text": ToolCall(READ, '{"a":' * 3000 + "1" + "}" * 3000),
    "arguments: limit true": ToolCall("sales_order_search", {"customer": "10023", "blocked_only": True,
                                                             "limit": True}),
    "arguments: a full-width number": ToolCall(READ, {"sales_order": "４７１１", "detail": "concise"}),
    "arguments: an Arabic-Indic number": ToolCall(READ, {"sales_order": "٤٧١١", "detail": "concise"}),
    "arguments: a number and a newline": ToolCall(READ, {"sales_order": "4711\n", "detail": "concise"}),
    "arguments: 11 digits": ToolCall(READ, {"sales_order": "12345678901", "detail": "concise"}),
    "id: an object whose attributes raise": {"name": READ, "input": {"sales_order": "x"}, "id": Exploding()},
}


def _readable(result: ToolResult) -> str:
    text = result.block()["content"]
    text.encode("utf-8")  # a result that cannot be encoded breaks whoever sends it on
    result.call_id.encode("utf-8")
    return text


@pytest.mark.parametrize("label", list(HOSTILE))
@pytest.mark.parametrize("tools", ["designed", "mirror"])
def test_a_hostile_proposal_is_an_error_result_that_utf8_can_carry(tools, label):
    toolset = build_designed_set() if tools == "designed" else build_mirror_set()
    dispatcher = Dispatcher(toolset, approve=allow_all)
    result = dispatcher.dispatch(HOSTILE[label])
    assert isinstance(result, ToolResult) and result.is_error, result
    assert len(_readable(result)) < 1500
    assert len(dispatcher.audit) == 1
    record = dispatcher.audit.records[0]
    json.loads(record.proposed_json)  # the audit holds JSON text, whatever was proposed


def test_str_subclasses_as_name_and_keys_run_as_plain_text():
    dispatcher = Dispatcher(build_designed_set(), approve=allow_all)
    for proposal in ({"name": TouchyStr(READ), "input": EXAMPLES[READ]},
                     ToolCall(READ, {TouchyStr("sales_order"): TouchyStr("4711"), "detail": "concise"})):
        result = dispatcher.dispatch(proposal)
        assert not result.is_error and result.ran
    assert all(type(r.tool) is str for r in dispatcher.audit)
    assert type(dispatcher.handler_calls[-1].arguments["sales_order"]) is str


def test_openai_shaped_calls_and_reply_objects_are_read():
    dispatcher = Dispatcher(build_designed_set(), approve=allow_all)
    openai = {"id": "call_9", "type": "function",
              "function": {"name": READ, "arguments": json.dumps(EXAMPLES[READ])}}
    anthropic = Reply(type="tool_use", id="toolu_1", name=READ, input=EXAMPLES[READ])
    for proposal, call_id in ((openai, "call_9"), (anthropic, "toolu_1")):
        result = dispatcher.dispatch(proposal)
        assert result.ran and not result.is_error and result.call_id == call_id


def test_a_write_proposed_as_an_object_still_needs_a_decision():
    dispatcher = Dispatcher(build_designed_set())
    result = dispatcher.dispatch(Reply(id="t", name=WRITE, input=GOOD_WRITE))
    assert result.is_error and not result.ran and "nothing was queued" in result.content


# ---------- approvers ----------

def _raising(error: BaseException):
    def approve(call, tool):
        raise error
    return approve


@pytest.mark.parametrize("stop", [KeyboardInterrupt(), SystemExit(1), GeneratorExit()],
                         ids=lambda e: type(e).__name__)
def test_an_approver_stopping_the_program_propagates_after_the_audit_says_nothing_ran(stop):
    ran = []
    tools = build_designed_set()
    dispatcher = Dispatcher(tools, approve=_raising(stop))
    dispatcher.handler_calls = ran
    with pytest.raises(type(stop)):
        dispatcher.dispatch(ToolCall(WRITE, dict(GOOD_WRITE)))
    assert not ran
    (record,) = dispatcher.audit.records
    assert record.ran is False and "interrupted" in record.decision and record.proposed == GOOD_WRITE


def _forced(decision: Decision, **fields) -> Decision:
    for name, value in fields.items():
        object.__setattr__(decision, name, value)
    return decision


class RaisingDecision(Decision):
    @property
    def allowed(self):
        raise RuntimeError("x")


JUNK_DECISIONS = {
    "a behavior forced to 'maybe'": _forced(Decision.allow(), behavior="maybe"),
    "a message forced to None": _forced(Decision.allow(), message=None),
    "a deny forced to an empty message": _forced(Decision.deny("no"), message=""),
    "updated_input forced to a raising mapping": _forced(Decision.allow(), updated_input=RaisingMapping({"a": 1})),
    "updated_input forced to a list": _forced(Decision.allow(), updated_input=[1, 2]),
    "updated_input JSON text that is not an object": Decision("allow", "[1]"),
    "updated_input with a raising mapping inside": _forced(Decision.allow(), updated_input={"x": RaisingDict()}),
    "updated_input with NaN": Decision("allow", {**GOOD_WRITE, "sales_order": float("nan")}),
    "updated_input with a 5,000-digit number": _forced(Decision.allow(), updated_input={"sales_order": 10 ** 5000}),
}


@pytest.mark.parametrize("label", list(JUNK_DECISIONS))
def test_a_forged_or_junk_decision_runs_nothing_and_says_so(label):
    ran: list = []
    dispatcher = Dispatcher(build_designed_set(), approve=lambda call, tool: JUNK_DECISIONS[label])
    dispatcher.handler_calls = ran
    result = dispatcher.dispatch(ToolCall(WRITE, dict(GOOD_WRITE)))
    assert result.is_error and not result.ran and not ran, result
    _readable(result)
    assert dispatcher.audit.records[-1].ran is False


@pytest.mark.parametrize("decision", [RaisingDecision("allow"), _forced(Decision.allow(), behavior=TouchyStr("allow"))],
                         ids=["a subclass whose property raises", "a behavior that is a str subclass"])
def test_a_decision_is_rebuilt_from_its_fields_so_no_override_reaches_the_gate(decision):
    dispatcher = Dispatcher(build_designed_set(), approve=lambda call, tool: decision)
    result = dispatcher.dispatch(ToolCall(WRITE, dict(GOOD_WRITE)))
    assert result.ran and not result.is_error
    assert dispatcher.audit.records[-1].decision == "allow"


def test_an_approvers_megabyte_denial_reaches_the_model_cut_short():
    denial = _forced(Decision.deny("no"), message="because " * 200_000)
    result = Dispatcher(build_designed_set(), approve=lambda c, t: denial).dispatch(ToolCall(WRITE, dict(GOOD_WRITE)))
    assert result.is_error and len(result.content) < 1300


def test_an_edit_with_a_value_json_cannot_spell_is_refused_not_run():
    def edits(call, tool):
        call.arguments["sales_order"] = {"4711"}
        call.arguments["me"] = call.arguments  # and a cycle
        return Decision.allow()
    dispatcher = Dispatcher(build_designed_set(), approve=edits)
    result = dispatcher.dispatch(ToolCall(WRITE, dict(GOOD_WRITE)))
    assert result.is_error and not result.ran and "not usable" in result.content


@pytest.mark.parametrize("number", ["SO-４７１１", "SO-٤٧١١", "SO-4711\n", "SO 4_711"])
def test_the_release_policy_corrects_only_ascii_digits(number):
    result = Dispatcher(build_designed_set(), approve=release_policy).dispatch(
        ToolCall(WRITE, {**GOOD_WRITE, "sales_order": number}))
    assert result.is_error and not result.ran
    assert "approver's edited input" not in result.content  # refused at the schema, before any approver


def test_the_audit_cannot_be_changed_through_what_it_returns():
    dispatcher = Dispatcher(build_designed_set(), approve=allow_all)
    dispatcher.dispatch(ToolCall("sales_order_search", {"customer": "10023", "blocked_only": False, "limit": 3}))
    record = dispatcher.audit.records[0]
    record.proposed["customer"] = "99999"
    record.executed["limit"] = 20
    dispatcher.audit.rows()[0]["proposed"]["customer"] = "1"
    with pytest.raises(AttributeError):
        record.proposed_json = "{}"  # type: ignore[misc]
    again = dispatcher.audit.records[0]
    assert again.proposed == again.executed == {"customer": "10023", "blocked_only": False, "limit": 3}
    assert isinstance(dispatcher.audit.records, tuple)


# ---------- the one plain-JSON gate ----------

@pytest.mark.parametrize("value, plain", [
    ((1, [2, (3,)]), [1, [2, [3]]]),
    ({"a": TouchyStr("x")}, {"a": "x"}),
    (True, True),
    (10 ** 300, 10 ** 300),
    (-0.0, -0.0),
])
def test_json_plain_copies_to_exact_builtin_types(value, plain):
    copy = json_plain(value)
    assert copy == plain
    assert json.dumps(copy) == json.dumps(plain)


@pytest.mark.parametrize("value", [float("nan"), float("-inf"), 10 ** 400, "\udfff", {"\ud800": 1}, {1: 2},
                                   {(1, 2): 3}, {1, 2}, b"x", Exploding(), RaisingDict(a=1), RaisingMapping({"a": 1}),
                                   DEEP, object()],
                         ids=lambda v: type(v).__name__)
def test_json_plain_refuses_in_one_short_sentence(value):
    with pytest.raises(NotJSON) as caught:
        json_plain(value)
    assert 0 < len(str(caught.value)) < 200 and "\n" not in str(caught.value)


# ---------- the tools themselves, called directly ----------

ODD_VALUES = [None, True, 0, -1, 5.0, 10 ** 30, 10 ** 5000, float("nan"), float("inf"), "", " ", "-1", "+4711",
              "4711\n", "4_711", "4,711", "４７１１", "٤٧١１", "4711\x00", "\ud800", "x" * 1_000_000, "SO-4711",
              ["4711"], ("4711",), {"4711"}, {"a": 1}, b"4711", Exploding(), TouchyStr("4711"), RaisingDict(), 1 + 2j]


def _all_tools():
    for toolset in (build_designed_set(), build_mirror_set(), boundary_tools()):
        for tool in toolset:
            yield tool


@pytest.mark.parametrize("tool", list(_all_tools()), ids=lambda t: t.name)
def test_every_tool_called_directly_answers_odd_values_with_a_short_result(tool):
    fields = list(tool.parameters.get("properties", {}))
    base = dict(EXAMPLES.get(tool.name, {f: "4711" for f in fields}))
    for field in fields:
        for value in ODD_VALUES:
            result = tool.run({**base, field: value})
            text = json.dumps(result, ensure_ascii=False)
            text.encode("utf-8")
            assert len(text) < 3000, (field, repr(value)[:40], text[:200])
    for whole in (None, [], "x", ("a",), RaisingDict(), Exploding(), {1: 2}, {"k" * 1_000_000: 1}):
        text = json.dumps(tool.run(whole), ensure_ascii=False)
        assert len(text) < 3000


@pytest.mark.parametrize("number", ["04711", "0000004711"])
def test_leading_zeros_name_the_same_order_as_sap_pads_them(number):
    tools = build_designed_set()
    result = tools[READ].run({"sales_order": number, "detail": "concise"})
    assert result["sales_order"] == "4711" and "error" not in result
    exposure = tools["customer_get_credit_exposure"].run({"customer": "0010023", "sales_order": number})
    assert exposure["customer"] == "10023" and "error" not in exposure


# ---------- a fuzz over what a Python client can hand over, not only JSON ----------

from hypothesis import HealthCheck, given, settings, strategies as st  # noqa: E402

ATOMS = (st.none() | st.booleans() | st.integers() | st.integers(min_value=10 ** 400, max_value=10 ** 401)
         | st.floats() | st.text(max_size=8) | st.binary(max_size=4) | st.sampled_from(["\ud800", TouchyStr("4711")])
         | st.builds(Exploding) | st.complex_numbers(allow_nan=False, max_magnitude=10))
PYTHON = st.recursive(ATOMS, lambda inner: (st.lists(inner, max_size=3) | st.tuples(inner, inner)
                                            | st.frozensets(st.integers(), max_size=2)
                                            | st.dictionaries(st.text(max_size=6) | st.integers(), inner, max_size=3)),
                      max_leaves=10)
NAMES = st.sampled_from([READ, WRITE, "get_order", "nope", ""]) | PYTHON


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(name=NAMES, arguments=PYTHON, call_id=PYTHON, shape=st.sampled_from(["toolcall", "tool_use", "openai", "bare"]))
def test_dispatch_never_raises_on_python_objects_and_runs_only_valid_calls(name, arguments, call_id, shape):
    tools = build_designed_set().with_tools(list(build_mirror_set()))
    proposal = {"toolcall": lambda: ToolCall(name, arguments, call_id),
                "tool_use": lambda: {"name": name, "input": arguments, "id": call_id},
                "openai": lambda: {"id": call_id, "function": {"name": name, "arguments": arguments}},
                "bare": lambda: arguments}[shape]()
    dispatcher = Dispatcher(tools, approve=allow_all)
    result = dispatcher.dispatch(proposal)
    _readable(result)
    for ran in dispatcher.handler_calls:
        json.dumps(ran.arguments, allow_nan=False)  # whatever ran was plain JSON


def test_the_audit_keeps_a_megabyte_proposal_bounded_but_identifiable():
    import hashlib
    from tooldesign.dispatch.gate import AUDIT_KEPT_CHARS, MAX_AUDIT_CHARS
    huge = {"sales_order": "4711", "justification": "EUR " * 250_000}
    dispatcher = Dispatcher(build_designed_set(), approve=allow_all)
    for _ in range(3):
        dispatcher.dispatch(ToolCall(WRITE, huge))
    for record in dispatcher.audit:
        assert len(record.proposed_json) < MAX_AUDIT_CHARS
        kept = record.proposed
        whole = json.dumps(huge, ensure_ascii=False)
        assert kept["clipped"] is True and kept["chars"] == len(whole)
        assert kept["sha256"] == hashlib.sha256(whole.encode()).hexdigest()
        assert whole.startswith(kept["start"]) and len(kept["start"]) == AUDIT_KEPT_CHARS
    small = Dispatcher(build_designed_set(), approve=allow_all)
    small.dispatch(ToolCall(READ, EXAMPLES[READ]))
    assert small.audit.records[0].proposed == EXAMPLES[READ]
