"""Notebook 18: tool calls on the wire. The answering turn, one definition in another dialect, the cache."""

from __future__ import annotations

import random
from typing import Any

from workbook.exercises.kinds import Exercise, WrongAnswer
from workbook.verdicts import Verdict, failed, passed, probe_error

NOTEBOOK = "18_tool_calls_on_the_wire"


# ---------- exercise 1: the turn that answers parallel calls ----------


def _use(call_id: str, name: str, **arguments: Any) -> dict:
    return {"type": "tool_use", "id": call_id, "name": name, "input": arguments}


def _out(text: str, is_error: bool = False) -> dict:
    return {"text": text, "is_error": is_error}


# Probes the notebook never shows: text before the calls, an output left over from an earlier turn,
# one call, three calls, errors in first and last place.
ANSWER_PROBES: tuple[tuple[list[dict], dict[str, dict]], ...] = (
    (
        [
            {"type": "text", "text": "Looking both up."},
            _use("toolu_a", "sales_order_search", customer="10023"),
            _use("toolu_b", "customer_get_credit_exposure", customer="10023"),
        ],
        {"toolu_b": _out('{"exposure": 52500}'), "toolu_a": _out('{"total": 1}')},
    ),
    (
        [_use("toolu_x", "customer_get_address_gaps", customer="10051")],
        {"toolu_x": _out('{"missing": ["street"]}'), "toolu_old": _out("from an earlier turn")},
    ),
    (
        [
            _use("t1", "sales_order_get_block_summary", sales_order="4711"),
            _use("t2", "sales_order_get_block_summary", sales_order="SO-9"),
            _use("t3", "release_request_create", sales_order="4711"),
        ],
        {
            "t1": _out("Blocked by the credit check."),
            "t2": _out("sales_order must be digits only", True),
            "t3": _out("needs a person's decision; it was not run", True),
        },
    ),
    (
        [_use("only", "sales_order_search", customer="10099"), {"type": "text", "text": "One moment."}],
        {"only": _out("no customer 10099", True)},
    ),
)


def _answer_turn(content: list[dict], outputs: dict[str, dict]) -> dict:
    """The reference: one user turn, one tool_result per tool_use of this reply, is_error where it failed."""
    blocks = []
    for block in content:
        if block.get("type") != "tool_use":
            continue
        output = outputs[block["id"]]
        result = {"type": "tool_result", "tool_use_id": block["id"], "content": output["text"]}
        if output["is_error"]:
            result["is_error"] = True
        blocks.append(result)
    return {"role": "user", "content": blocks}


def _gen_answer(rng: random.Random) -> tuple:
    names = ("sales_order_search", "customer_get_credit_exposure", "customer_get_address_gaps")
    content: list[dict] = []
    outputs: dict[str, dict] = {}
    if rng.random() < 0.4:
        content.append({"type": "text", "text": "Checking."})
    for i in range(rng.randint(1, 4)):
        call_id = f"toolu_{rng.randrange(10**6):06d}_{i}"
        content.append(_use(call_id, rng.choice(names), customer=str(rng.randint(10000, 10099))))
        outputs[call_id] = _out(f"result {rng.randint(0, 999)}", rng.random() < 0.3)
    if rng.random() < 0.3:
        outputs["toolu_earlier"] = _out("left from an earlier turn")
    shuffled = list(outputs.items())
    rng.shuffle(shuffled)
    return (content, dict(shuffled))


def _same_answer(got: Any, want: Any) -> bool:
    """Right in any order of the results, with is_error false or left out on a success."""
    if type(got) is not dict or got.get("role") != "user" or type(got.get("content")) is not list:
        return False
    if set(got) != {"role", "content"}:
        return False

    def norm(block: Any) -> Any:
        if type(block) is not dict:
            return None
        plain = dict(block)
        if plain.get("is_error") is False:
            plain.pop("is_error")
        return sorted(plain.items())

    return sorted(map(repr, map(norm, got["content"]))) == sorted(map(repr, map(norm, want["content"])))


def _answer_problem(got: Any, content: list[dict], outputs: dict[str, dict]) -> str | None:
    """What is wrong with a turn, read from the rule itself (no answer key): None when it is right."""
    ids = [b["id"] for b in content if b.get("type") == "tool_use"]
    if type(got) is list:
        return "return ONE user turn (a dict) whose content holds every result, not a list of messages"
    if type(got) is not dict:
        return f"return a message dict {{'role': 'user', 'content': [...]}}, not a {type(got).__name__}"
    if got.get("role") != "user":
        return "tool results go back in a turn with role 'user'"
    if set(got) != {"role", "content"}:
        return "the turn has two keys, 'role' and 'content'"
    blocks = got["content"]
    if type(blocks) is not list:
        return "content should be a list of tool_result blocks"
    if any(type(b) is dict and b.get("type") == "text" for b in blocks):
        return "send only tool_result blocks here: the assistant's own text stays in its own turn"
    if any(type(b) is not dict or b.get("type") != "tool_result" for b in blocks):
        return "every block needs 'type': 'tool_result'"
    sent = [str(b.get("tool_use_id")) for b in blocks]
    if sorted(sent) != sorted(ids):
        if set(ids) < set(sent):
            return (
                "answer only this reply's tool_use ids: an output from an earlier turn does not belong here"
            )
        return "one tool_result per tool_use, each carrying its call's id in 'tool_use_id'"
    for block in blocks:
        output = outputs[block["tool_use_id"]]
        if not set(block) <= {"type", "tool_use_id", "content", "is_error"}:
            return "a tool_result holds type, tool_use_id, content and (on a failure) is_error, nothing else"
        if block.get("content") != output["text"]:
            return "each result's 'content' is the text of the output for its id"
        if block.get("is_error", False) is not output["is_error"]:
            return "set 'is_error': True on a result that reports a failure, and only there"
    return None


def _judge_answer(results: Any) -> Verdict:
    for (content, outputs), got in zip(ANSWER_PROBES, results):
        error = probe_error(got)
        call = f"answer_turn(<a reply with {sum(b['type'] == 'tool_use' for b in content)} tool_use blocks>, ...)"
        if error is not None:
            return failed(f"{call} raised {error}")
        problem = _answer_problem(got, content, outputs)
        if problem is not None:
            return failed(f"{call}: {problem}")
    return passed("one user turn, one tool_result per tool_use_id, errors flagged: the model can pair them.")


def _as_list(content: list[dict], outputs: dict[str, dict]) -> Any:
    return [{"role": "user", "content": [b]} for b in _answer_turn(content, outputs)["content"]]


def _no_error_flag(content: list[dict], outputs: dict[str, dict]) -> Any:
    turn = _answer_turn(content, outputs)
    for block in turn["content"]:
        block.pop("is_error", None)
    return turn


def _every_output(content: list[dict], outputs: dict[str, dict]) -> Any:
    blocks = [
        {
            "type": "tool_result",
            "tool_use_id": k,
            "content": v["text"],
            **({"is_error": True} if v["is_error"] else {}),
        }
        for k, v in outputs.items()
    ]
    return {"role": "user", "content": blocks}


def _as_assistant(content: list[dict], outputs: dict[str, dict]) -> Any:
    return {**_answer_turn(content, outputs), "role": "assistant"}


def _keeps_text(content: list[dict], outputs: dict[str, dict]) -> Any:
    turn = _answer_turn(content, outputs)
    text = [b for b in content if b.get("type") == "text"]
    return {"role": "user", "content": text + turn["content"]}


# ---------- exercise 2: one definition, from Anthropic's dialect to Chat Completions ----------

_SCHEMA = {
    "type": "object",
    "properties": {"customer": {"type": "string"}},
    "required": ["customer"],
    "additionalProperties": False,
}
CONVERT_PROBES: tuple[tuple[dict], ...] = (
    (
        {
            "name": "customer_get_address_gaps",
            "description": "Lists missing address fields.",
            "input_schema": _SCHEMA,
            "strict": True,
        },
    ),
    (
        {
            "name": "sales_order_search",
            "description": "Finds a customer's orders.",
            "input_schema": {"type": "object", "properties": {"customer": {"type": "string"}}},
            "cache_control": {"type": "ephemeral"},
        },
    ),
    (
        {
            "name": "release_request_create",
            "description": "Drafts a release request.",
            "input_schema": _SCHEMA,
            "strict": True,
            "defer_loading": True,
            "allowed_callers": ["direct"],
            "input_examples": [{"customer": "10023"}],
        },
    ),
)
ANTHROPIC_ONLY = (
    "cache_control",
    "defer_loading",
    "allowed_callers",
    "input_examples",
    "eager_input_streaming",
)


def _to_chat_tool(definition: dict) -> dict:
    """The reference: the same name, description and schema in OpenAI's envelope; strict carried over."""
    function = {
        "name": definition["name"],
        "description": definition["description"],
        "parameters": definition["input_schema"],
    }
    if "strict" in definition:
        function["strict"] = definition["strict"]
    return {"type": "function", "function": function}


def _gen_convert(rng: random.Random) -> tuple:
    properties = {
        f"field_{i}": {"type": rng.choice(["string", "integer", "boolean"])} for i in range(rng.randint(1, 3))
    }
    schema: dict[str, Any] = {"type": "object", "properties": properties}
    definition: dict[str, Any] = {"name": f"tool_{rng.randrange(1000)}", "description": "Does one thing."}
    if rng.random() < 0.5:
        schema.update(required=list(properties), additionalProperties=False)
        definition["strict"] = True
    definition["input_schema"] = schema
    for key in rng.sample(ANTHROPIC_ONLY[:3], rng.randint(0, 2)):
        definition[key] = {
            "cache_control": {"type": "ephemeral"},
            "defer_loading": True,
            "allowed_callers": ["direct"],
        }[key]
    return (definition,)


def _convert_hint(got: Any, want: dict) -> str:
    if type(got) is not dict:
        return f"return a dict, not a {type(got).__name__}"
    if got.get("type") != "function" or "function" not in got:
        return "Chat Completions wraps the definition: {'type': 'function', 'function': {...}}"
    function = got["function"]
    if type(function) is not dict:
        return "'function' should be a dict of name, description and parameters"
    if "input_schema" in function or "parameters" not in function:
        return "OpenAI calls the schema 'parameters', not 'input_schema'"
    if any(key in function or key in got for key in ANTHROPIC_ONLY):
        return (
            "leave out Anthropic-only fields (cache_control, defer_loading, allowed_callers, input_examples)"
        )
    if function.get("strict") != want["function"].get("strict"):
        return "carry 'strict' over inside 'function' when the definition sets it"
    return "keep the name, description and schema exactly as they are"


def _judge_convert(results: Any) -> Verdict:
    for (definition,), got in zip(CONVERT_PROBES, results):
        error = probe_error(got)
        call = f"to_chat_tool(<{definition['name']}>)"
        if error is not None:
            return failed(f"{call} raised {error}")
        want = _to_chat_tool(definition)
        if got != want or type(got) is not dict:
            return failed(f"{call}: {_convert_hint(got, want)}")
    return passed("the same definition in OpenAI's envelope: one source, two dialects.")


def _not_wrapped(definition: dict) -> Any:
    return _to_chat_tool(definition)["function"]


def _keeps_input_schema(definition: dict) -> Any:
    out = _to_chat_tool(definition)
    out["function"]["input_schema"] = out["function"].pop("parameters")
    return out


def _copies_everything(definition: dict) -> Any:
    rest = {k: v for k, v in definition.items() if k != "input_schema"}
    return {"type": "function", "function": {**rest, "parameters": definition["input_schema"]}}


def _drops_strict(definition: dict) -> Any:
    out = _to_chat_tool(definition)
    out["function"].pop("strict", None)
    return out


# ---------- exercise 3: what a change does to the prompt cache ----------

# For each change between two steps of a loop: the first part of the prefix it invalidates
# ("tools", "system", "messages"), or "none" when everything sent before is still read from the cache.
# None of them is one the notebook compares before the exercise (results appended, tool_choice auto ->
# any, an edited system prompt, sorted tools, a tool_reference, a found tool added): the rule is shown
# on those, and the exercise applies it to these.
CHANGES = (
    "append the clerk's follow-up question as a new user turn",
    "drop a tool the loop no longer needs from the tools array",
    "add an input example to one tool's definition",
    "force one named tool with tool_choice for one step",
    "shorten an earlier tool_result in the history to save tokens",
    "put the customer's name into the system prompt for this session",
    "drop the oldest turn of the history to stay under a budget",
)
BREAKS = {
    CHANGES[0]: "none",
    CHANGES[1]: "tools",
    CHANGES[2]: "tools",
    CHANGES[3]: "messages",
    CHANGES[4]: "messages",
    CHANGES[5]: "system",
    CHANGES[6]: "messages",
}
SEGMENTS = ("tools", "system", "messages", "none")
_WHY = {
    CHANGES[0]: "a new turn at the end changes nothing before it",
    CHANGES[1]: "a tools array with a tool less is a different tools array, the first part of the prefix: "
    "nothing stays cached",
    CHANGES[
        2
    ]: "an input example is part of a tool's definition: the tools array changed, so nothing stays cached",
    CHANGES[3]: "any tool_choice change, to a named tool too, keeps tools and system cached and invalidates "
    "the messages",
    CHANGES[
        4
    ]: "the messages are cached up to the first one that changed, and an earlier result is one of them",
    CHANGES[5]: "a changed system prompt keeps only the tools before it",
    CHANGES[
        6
    ]: "with the oldest turn gone, the first message differs: the messages are cached up to the first "
    "one that changed",
}


def _judge_breaks(answer: Any) -> Verdict:
    if type(answer) is not dict:
        return failed(f"breaks should be a dict from each change to a part, not a {type(answer).__name__}")
    missing = [c for c in CHANGES if c not in answer]
    if missing:
        return failed(f"give a part for every change in CHANGES; missing: {missing[0]!r}")
    for change in CHANGES:
        value = answer[change]
        if value not in SEGMENTS:
            return failed(f"{change!r}: answer one of {', '.join(SEGMENTS)}, not {value!r}")
        if value != BREAKS[change]:
            return failed(f"{change!r}: {_WHY[change]}")
    if set(answer) != set(CHANGES):
        return failed("answer only the changes listed in CHANGES")
    return passed(
        "keep the tools array and the system prompt as they are, and change the history only by "
        "appending to it."
    )


EXERCISES = [
    Exercise(
        "ex18-answer-turn",
        NOTEBOOK,
        "answer_turn",
        3,
        _judge_answer,
        kind="function",
        probes=ANSWER_PROBES,
        prompt="Write answer_turn(content, outputs): the user turn that answers every tool_use of a reply.",
        wrong_answers=(
            WrongAnswer(_as_list, "ONE user turn"),
            WrongAnswer(_no_error_flag, "is_error"),
            WrongAnswer(_every_output, "earlier turn"),
            WrongAnswer(_as_assistant, "role 'user'"),
            WrongAnswer(_keeps_text, "only tool_result blocks"),
        ),
    ),
    Exercise(
        "ex18-chat-tool",
        NOTEBOOK,
        "to_chat_tool",
        2,
        _judge_convert,
        kind="function",
        probes=CONVERT_PROBES,
        prompt="Write to_chat_tool(definition): an Anthropic tool definition in Chat Completions' format.",
        wrong_answers=(
            WrongAnswer(_not_wrapped, "wraps the definition"),
            WrongAnswer(_keeps_input_schema, "'parameters'"),
            WrongAnswer(_copies_everything, "Anthropic-only"),
            WrongAnswer(_drops_strict, "strict"),
        ),
    ),
    Exercise(
        "ex18-cache-breaks",
        NOTEBOOK,
        "breaks",
        0,
        _judge_breaks,
        kind="prediction",
        prompt="For each change, the first part of the cached prefix it invalidates.",
        wrong_answers=(
            WrongAnswer({**BREAKS, CHANGES[2]: "none"}, "input example"),
            WrongAnswer({**BREAKS, CHANGES[3]: "tools"}, "tool_choice"),
            WrongAnswer({**BREAKS, CHANGES[1]: "none"}, "a tool less"),
            WrongAnswer({**BREAKS, CHANGES[0]: "messages"}, "new turn"),
            WrongAnswer({**BREAKS, CHANGES[5]: "messages"}, "system prompt"),
            WrongAnswer({**BREAKS, CHANGES[4]: "none"}, "earlier result"),
            WrongAnswer({**BREAKS, CHANGES[6]: "none"}, "oldest turn"),
            WrongAnswer(list(BREAKS.values()), "dict"),
        ),
    ),
]
