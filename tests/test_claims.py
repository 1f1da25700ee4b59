"""A notebook never states a figure or a conclusion that its own outputs contradict.

Prose is written once; outputs change whenever the data, a rule, a description or a seed changes.
These tests read every solution notebook (the list comes from solutions/, nothing is hard-coded)
and check four kinds of claim:

* **The claim registry** (``CLAIMS``): each entry ties one sentence of one notebook to the output
  it rests on. ``prose`` is a regular expression over the notebook's markdown whose named groups
  capture what the sentence says (a figure, a ratio, a comparison word such as "higher" or "not
  among"); ``output`` reads the same notebook's outputs (a regular expression over the text, or a
  function over the parsed tables) and ``verdict`` says whether the two agree. The sentence must
  still be found, so a rewrite cannot silently drop its check: a failure names the claim and says
  what to update. Figures are never written into the registry; they are read from the outputs, so
  an output that changes after a redesign fails the sentence that no longer fits it.
* **Generic figure rules**, for every notebook: a figure with a unit ("843 characters") or a
  percentage in prose must be printed by some cell, passed to one in its code, or attributed to a
  source in the same sentence; an approximate figure ("about 13,000 tokens") may be within 20 % of
  a printed one.
* **Ratios, with no slack**: a ratio in prose ("4.4 times", "3.0x") must equal, at the precision it
  is stated, a ratio an output prints, or the quotient it shows beside it ("(1313 / 296)"), unless
  the sentence names its source.
* **Specification rules** (``SPEC_RULES``): statements that were true of an older revision of a
  specification and are not true of the current one. MCP revision 2025-11-25 makes arguments that
  fail a tool's input schema a tool execution error (a result with ``isError: true``, so the model
  can correct itself); calling them a protocol error is the 2025-06-18 rule. They apply to prose,
  quiz text and the README.

The doctored-copy tests prove each kind fails when a figure, a ratio, a comparison or a rule is
changed.
"""
from __future__ import annotations

import ast
import copy
import json
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from html.parser import HTMLParser
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SOLUTIONS = sorted((ROOT / "solutions").glob("[0-9][0-9]_*.ipynb"))
QUIZ_MODULES = ROOT / "src" / "workbook" / "quizzes"  # where a quiz cell's questions live

_NUMBER_WORDS = ("zero one two three four five six seven eight nine ten eleven twelve "
                 "thirteen fourteen fifteen sixteen seventeen eighteen nineteen twenty")
WORDS: dict[str, float] = {w: n for n, w in enumerate(_NUMBER_WORDS.split())}
WORDS.update({"twice": 2, "half": 0.5})


# ---------- the words the course says: prose, quizzes wherever they live, the README ----------
# One home for reading them: tests/test_seed_overlap.py imports these too.

QUIZ_CALLS = frozenset({"Question", "Choice"})


@dataclass(frozen=True)
class Passage:
    where: str  # "solutions/04_designed_tools.ipynb cell c007", "src/workbook/quiz_data.py line 12", "README.md"
    kind: str   # "prose", "quiz" or "readme"
    text: str


def load(path: Path) -> dict:
    return json.loads(path.read_text(encoding="utf-8"))


def _call_name(node: ast.Call) -> str:
    func = node.func
    return func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else ""


def _strings(node: ast.AST) -> list[str]:
    """The text of a string constant, or the literal parts of an f-string joined (adjacent literals are one)."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return [node.value]
    if isinstance(node, ast.JoinedStr):
        return ["".join(v.value for v in node.values if isinstance(v, ast.Constant) and isinstance(v.value, str))]
    return []


def quiz_strings(source: str) -> list[tuple[int, str]]:
    """(line, text) of each string given to a Question or Choice call in ``source``; [] if it does not parse."""
    try:
        tree = ast.parse(source)
    except SyntaxError:
        # A notebook cell may hold IPython syntax (%magic, top-level await); quizzes never do.
        return []
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and _call_name(node) in QUIZ_CALLS:
            for arg in [*node.args, *(k.value for k in node.keywords)]:
                if isinstance(arg, (ast.Constant, ast.JoinedStr)):
                    found += [(node.lineno, s) for s in _strings(arg) if s.strip()]
    return found


def notebook_passages(path: Path, notebook: dict | None = None) -> list[Passage]:
    notebook = load(path) if notebook is None else notebook
    found = []
    for n, cell in enumerate(notebook["cells"]):
        source = "".join(cell["source"])
        where = f"{path.parent.name}/{path.name} cell {cell.get('id', n)}"
        if cell["cell_type"] == "markdown":
            found.append(Passage(where, "prose", source))
        elif cell["cell_type"] == "code" and ("Question(" in source or "Choice(" in source):
            found += [Passage(f"{where} line {line}", "quiz", text) for line, text in quiz_strings(source)]
    return found


def module_strings(source: str) -> list[tuple[int, str]]:
    """(line, text) of every string literal in a module: a quiz module may keep its text in plain data."""
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return []
    # The literal parts of an f-string are read with their f-string, not again on their own.
    parts = {id(v) for node in ast.walk(tree) if isinstance(node, ast.JoinedStr) for v in node.values}
    return [(getattr(node, "lineno", 0), text) for node in ast.walk(tree)
            if isinstance(node, (ast.Constant, ast.JoinedStr)) and id(node) not in parts
            for text in _strings(node) if text.strip()]


def package_quiz_passages(src: Path = ROOT / "src") -> list[Passage]:
    """Quiz text kept in the packages, wherever it lives.

    A module whose path names a quiz (``quiz.py``, ``quizzes/lesson04.py``, ``lesson04_quiz.py``) gives
    every string literal it holds; any other module gives the strings it passes to Question or Choice.
    """
    found = []
    for package in ("workbook", "tooldesign"):
        for path in sorted((src / package).rglob("*.py")):
            source = path.read_text(encoding="utf-8")
            where = "src/" + path.relative_to(src).as_posix()
            if "quiz" in path.relative_to(src).as_posix().lower():
                strings = module_strings(source)
            elif "Question(" in source or "Choice(" in source:
                strings = quiz_strings(source)
            else:
                continue
            found += [Passage(f"{where} line {line}", "quiz", text) for line, text in strings]
    return found


# The README and the guides it links (docs/): the course's own words outside the notebooks.
GUIDES = ("README.md", "docs/learner.md", "docs/instructor.md", "docs/lab-day.md", "docs/real-models.md",
          "docs/mcp-server.md", "docs/glossary.md", "docs/references.md")


def readme_passage() -> Passage:
    text = "\n\n".join((ROOT / name).read_text(encoding="utf-8") for name in GUIDES)
    return Passage("README.md and the guides in docs/", "readme", text)


def all_passages() -> list[Passage]:
    found = [p for path in SOLUTIONS for p in notebook_passages(path)]
    return found + package_quiz_passages() + [readme_passage()]


# ---------- reading a notebook ----------

class _Tables(HTMLParser):
    """The HTML tables pandas writes for a DataFrame: one list of rows per table, each row a dict by header."""

    def __init__(self) -> None:
        super().__init__()
        self.tables: list[list[dict[str, str]]] = []
        self._header: list[str] | None = None
        self._row: list[str] | None = None
        self._cell: list[str] | None = None
        self._in_head = False

    def handle_starttag(self, tag, attrs):
        if tag == "table":
            self.tables.append([])
            self._header = None
        elif tag == "thead":
            self._in_head = True
        elif tag == "tr":
            self._row = []
        elif tag in ("th", "td"):
            self._cell = []

    def handle_data(self, data):
        if self._cell is not None:
            self._cell.append(data)

    def handle_endtag(self, tag):
        if tag in ("th", "td") and self._row is not None and self._cell is not None:
            self._row.append("".join(self._cell).strip())
            self._cell = None
        elif tag == "tr" and self._row is not None:
            if self._in_head:
                self._header = self._header or self._row  # the first header row names the columns
            elif self._header and self.tables:
                self.tables[-1].append(dict(zip(self._header, self._row)))
            self._row = None
        elif tag == "thead":
            self._in_head = False


Table = list[dict[str, str]]


@dataclass(frozen=True)
class Evidence:
    prose: tuple[str, ...]   # markdown cells
    outputs: str             # every text output (stream, text/plain, text/html), joined
    code: str                # every code cell's source, joined
    tables: tuple[Table, ...] = field(default=())  # every DataFrame output, parsed

    def table(self, *columns: str) -> Table:
        """The first table that has all these columns; AssertionError naming them if none has."""
        for rows in self.tables:
            if rows and all(c in rows[0] for c in columns):
                return rows
        raise AssertionError(f"no table with the columns {columns}")


def evidence(notebook: dict) -> Evidence:
    prose, outputs, code, tables = [], [], [], []
    for cell in notebook["cells"]:
        source = "".join(cell["source"])
        if cell["cell_type"] == "markdown":
            prose.append(source)
            continue
        if cell["cell_type"] != "code":
            continue
        code.append(source)
        shown = re.fullmatch(r'from workbook\.quiz import quiz\s+quiz\("(\d\d)"\)\s*', source)
        if shown:  # the quiz cell shows its lesson's questions: their text is what the page holds
            code.append(Path(QUIZ_MODULES, f"lesson{shown.group(1)}.py").read_text(encoding="utf-8"))
        for output in cell.get("outputs", []):
            if "text" in output:
                outputs.append("".join(output["text"]))
            for kind in ("text/plain", "text/html"):
                if kind in output.get("data", {}):
                    outputs.append("".join(output["data"][kind]))
            if "text/html" in output.get("data", {}):
                parser = _Tables()
                parser.feed("".join(output["data"]["text/html"]))
                tables += [t for t in parser.tables if t]
    return Evidence(tuple(prose), "\n\x00\n".join(outputs), "\n".join(code), tuple(tables))


def number(text: str) -> float:
    """'1,060' -> 1060, 'Seven' -> 7, '0.194' -> 0.194, '87%' -> 87."""
    word = WORDS.get(text.strip().lower())
    return float(word) if word is not None else float(text.strip().rstrip("%").replace(",", ""))


def decimals(text: str) -> int:
    return len(text.split(".")[1]) if "." in text else 0


def agree(prose_value: str, output_value: str) -> bool:
    """Equal, to the precision the prose states (0.194 agrees with 0.1938, 4.0 does not agree with 4.4)."""
    said, shown = number(prose_value), number(output_value)
    return abs(said - shown) <= 0.5 * 10 ** -decimals(prose_value) + 1e-9


# ---------- verdicts: does what the sentence says follow from what the output shows? ----------

Said = Mapping[str, str]
Shown = Mapping[str, object]
Verdict = Callable[[Said, Shown], list[str]]

# A comparison word and the relation it states between the output's `a` and `b`.
RELATIONS: dict[str, Callable[[float, float], bool]] = {}
for _words, _relation in (
    ("higher above more larger longer greater wider overtakes beats exceeds most highest largest dearest over", lambda a, b: a > b),
    ("lower below fewer smaller shorter less narrower under cheapest least lowest smallest fewest", lambda a, b: a < b),
    ("same equal unchanged", lambda a, b: a == b),
):
    for _word in _words.split():
        RELATIONS[_word] = _relation


def relation(word: str) -> Callable[[float, float], bool]:
    """The relation a comparison names: the last word of the phrase that is a comparison word."""
    known = [w for w in re.findall(r"[a-z]+", word.lower()) if w in RELATIONS]
    assert known, f"no comparison word in {word!r}; known: {sorted(RELATIONS)}"
    return RELATIONS[known[-1]]


def same_figures(said: Said, shown: Shown) -> list[str]:
    """Every named figure of the sentence equals the output's, at the sentence's precision."""
    return [f"the text says {name} = {said[name]}, the output shows {shown[name]}"
            for name in said if name in shown and not agree(said[name], str(shown[name]))]


def same_ratio(stated: str, printed: str | None, value: float) -> bool:
    """No slack. Against a printed ratio, the stated one read at the printed precision is the printed one
    ("4.0" and "4" are not "4.4"; "4.44" is); against a quotient, the two agree at the stated precision."""
    if printed is not None:
        places = decimals(printed)
        return f"{number(stated):.{places}f}" == f"{number(printed):.{places}f}"
    return abs(number(stated) - value) <= 0.5 * 10 ** -decimals(stated) + 1e-9


def exact_ratio(said: Said, shown: Shown) -> list[str]:
    """The stated ratio `x` is the printed one (`x`), or `num / den` at the stated precision: no slack."""
    if "x" in shown:
        printed = str(shown["x"])
        if same_ratio(said["x"], printed, number(printed)):
            return []
        return [f"the text says {said['x']} times, the output prints {printed}"]
    value = number(str(shown["num"])) / number(str(shown["den"]))
    if same_ratio(said["x"], None, value):
        return []
    return [f"the text says {said['x']} times, the output gives {value:.{max(decimals(said['x']), 1) + 1}f}"]


def comparison(said: Said, shown: Shown) -> list[str]:
    """The comparison word (`cmp`) holds between the output's `a` and `b`."""
    a, b = float(shown["a"]), float(shown["b"])  # type: ignore[arg-type]
    if relation(said["cmp"])(a, b):
        return []
    return [f"the text says {said['cmp']!r}, but the output compares {a:g} with {b:g}"]


def membership(said: Said, shown: Shown) -> list[str]:
    """'is among' / 'is not among' (`cmp`) holds for the item (`item`) and the printed list (`items`)."""
    items = list(shown["items"])  # type: ignore[call-overload]
    inside = said["item"] in items
    negated = bool(re.search(r"\bnot\b|\bmissing\b|\bleft out\b", said["cmp"]))
    if inside != negated:
        return []
    return [f"the text says {said['item']} {said['cmp']} the list, which is {items}"]


def position(said: Said, shown: Shown) -> list[str]:
    """'first' / 'not first' (`pos`) for the item (`item`) in the printed list (`items`)."""
    items = list(shown["items"])  # type: ignore[call-overload]
    if said["item"] not in items:
        return [f"{said['item']} is not in the list {items}"]
    first = items.index(said["item"]) == 0
    if first != bool(re.search(r"\bnot\b", said["pos"])):
        return []
    return [f"the text says {said['item']} is {said['pos']}, the list is {items}"]


def fastest_then_flat(said: Said, shown: Shown) -> list[str]:
    """A curve 'falls fastest' from `start` to `turn`, 'then flattens': the later slope under half the early one."""
    curve = shown["curve"]
    assert isinstance(curve, dict)
    start, turn = int(said["start"]), int(said["turn"])
    end = max(curve)
    early = (curve[start] - curve[turn]) / (turn - start)
    late = abs(curve[turn] - curve[end]) / (end - turn)
    problems = []
    if early <= 0:
        problems.append(f"the curve does not fall from {start} to {turn}: {curve[start]:g} -> {curve[turn]:g}")
    for size in curve:
        if start <= size < turn:
            continue
        later = [s for s in curve if s > size]
        if size >= turn and later:
            step = (curve[size] - curve[later[0]]) / (later[0] - size)
            if step > early:
                problems.append(f"it falls faster after {turn} ({size} -> {later[0]}) than from {start} to {turn}")
    if late >= early / 2:
        problems.append(f"it does not flatten after {turn}: {late:.2f} per step against {early:.2f} before")
    return problems


# ---------- the claim registry ----------

Reader = Callable[[Evidence], Shown]


@dataclass(frozen=True)
class Claim:
    notebook: str              # the two-digit prefix
    prose: str                 # regex over the markdown, with named groups
    output: str | Reader       # regex over the outputs with named groups, or a function of the evidence
    about: str                 # what the claim says, for the failure message
    verdict: Verdict = same_figures
    evidence_from: str = ""    # another notebook whose outputs back the sentence ("" for its own)


def _column(rows: Table, name: str) -> list[float]:
    return [number(r[name]) for r in rows]


def _row(rows: Table, column: str, value: str) -> dict[str, str]:
    found = [r for r in rows if r.get(column) == value]
    assert found, f"no row with {column} = {value!r}"
    return found[0]


def _search_against_all(which: str) -> Reader:
    """Search's accuracy against loading all (`b`): `a` for k = 1, or `each` k's for the k in "k>=2"."""
    def read(seen: Evidence) -> Shown:
        rows = seen.table("loading", "accuracy")
        everything = number(_row(rows, "loading", "load all")["accuracy"])
        ks = {int(r["loading"].split("=")[1]): number(r["accuracy"]) for r in rows if "k=" in r["loading"]}
        chosen = [acc for k, acc in ks.items() if (k >= 2 if which == "k>=2" else k == 1)]
        assert chosen, f"no search row for {which}"
        if which == "k>=2":
            return {"each": chosen, "b": everything}
        return {"a": chosen[0], "b": everything}
    return read


def every_comparison(said: Said, shown: Shown) -> list[str]:
    """The comparison word (`cmp`) holds for each of the output's values (`each`) against `b`."""
    each = list(shown["each"])  # type: ignore[call-overload]
    return [problem for a in each for problem in comparison(said, {"a": a, "b": shown["b"]})]


def _growth_curve(picker: str) -> Reader:
    def read(seen: Evidence) -> Shown:
        rows = seen.table("tools", f"{picker} accuracy")
        return {"curve": {int(r["tools"]): number(r[f"{picker} accuracy"]) for r in rows}}
    return read


def _growth_curves(seen: Evidence) -> Shown:
    rows = seen.table("tools", "words accuracy", "bm25 accuracy")
    return {picker: {int(r["tools"]): number(r[f"{picker} accuracy"]) for r in rows} for picker in ("words", "bm25")}


def _loss_between(said: Said, shown: Shown) -> list[str]:
    """The words stand-in's loss from `start` to `end` tools (`a`) against BM25's (`b`), by the word `cmp`."""
    start, end = int(said["start"]), int(said["end"])
    words, bm25 = shown["words"], shown["bm25"]
    assert isinstance(words, dict) and isinstance(bm25, dict)
    missing = [size for size in (start, end) if size not in words]
    if missing:
        return [f"the growth table has no row for {missing} tools"]
    return comparison(said, {"a": words[start] - words[end], "b": bm25[start] - bm25[end]})


def _tokens_at(size: int) -> Reader:
    def read(seen: Evidence) -> Shown:
        rows = seen.table("tools", "tokens (estimate)")
        return {"tokens": _row(rows, "tools", str(size))["tokens (estimate)"]}
    return read


def _tokens_per_tool(seen: Evidence) -> Shown:
    rows = seen.table("tools", "tokens (estimate)")
    sizes, tokens = _column(rows, "tools"), _column(rows, "tokens (estimate)")
    return {"per_tool": f"{(tokens[-1] - tokens[0]) / (sizes[-1] - sizes[0]):.1f}"}


def _consolidated_accuracy(seen: Evidence) -> Shown:
    rows = seen.table("set", "right first tool")
    return {"designed": _row(rows, "set", "designed")["right first tool"],
            "merged": _row(rows, "set", "consolidated")["right first tool"]}


def _found_list(seen: Evidence) -> Shown:
    match = re.search(r"\[\s*'(?:[^']+)',[^\]]*\]", seen.outputs)
    assert match, "no printed list of tool names"
    return {"items": ast.literal_eval(match.group(0))}


def _per_call(seen: Evidence) -> dict[str, dict[int, float]]:
    rows = seen.table("run", "model call", "tokens sent (est.)")
    calls: dict[str, dict[int, float]] = {}
    for r in rows:
        calls.setdefault(r["run"], {})[int(r["model call"])] = number(r["tokens sent (est.)"])
    return calls


def _overtakes(said: Said, shown: Shown) -> list[str]:
    """'A overtakes B at call n and never comes back': A <= B before n, A > B from n on."""
    mirror, designed = shown["mirror"], shown["designed"]
    assert isinstance(mirror, dict) and isinstance(designed, dict)
    n = int(said["call"])
    wrong = [c for c in mirror if (c < n) == (mirror[c] > designed[c])]
    return [f"at model call {c}: mirror {mirror[c]:g}, designed {designed[c]:g}" for c in wrong]


def _technique(name: str) -> Callable[[Evidence], float]:
    def read(seen: Evidence) -> float:
        return number(_row(seen.table("technique", "tokens sent (est.)"), "technique", name)["tokens sent (est.)"])
    return read


def _savers_that_lose(seen: Evidence) -> Shown:
    """Of the techniques that save tokens, how many keep every fact; and what keeping every fact saves at best."""
    rows = [r for r in seen.table("technique", "tokens saved", "facts kept") if r["technique"] != "mirror, as is"]
    whole = [r for r in rows if r["facts kept"].split("/")[0] == r["facts kept"].split("/")[1]]
    return {"savers_keeping_all": float(sum(1 for r in whole if number(r["tokens saved"]) > 0)),
            "best_saving_keeping_all": max((number(r["tokens saved"]) for r in whole), default=0.0)}


def _every_saver_loses(said: Said, shown: Shown) -> list[str]:
    if shown["savers_keeping_all"] or shown["best_saving_keeping_all"] > 0:
        return [f"a technique saves tokens and keeps every fact ({shown}), but the prose says none does"]
    return []


def _note_cost(seen: Evidence) -> Shown:
    return {"a": _technique("truncate at 1,000, with note")(seen) - _technique("truncate at 1,000, no note")(seen)}


def _under(said: Said, shown: Shown) -> list[str]:
    cost = float(shown["a"])  # type: ignore[arg-type]
    return [] if cost < number(said["n"]) else [f"the note costs {cost:g} tokens, not under {said['n']}"]


def _boundary_scores(seen: Evidence) -> Shown:
    """11's offline stand-ins: the largest change a clause makes to any picker's score (0: they cannot see it)."""
    rows = seen.table("picker", "descriptions", "right")
    by_picker: dict[str, dict[str, float]] = {}
    for r in rows:
        by_picker.setdefault(r["picker"], {})[r["descriptions"]] = number(r["right"])
    return {"a": max(abs(s["with clauses"] - s["without clauses"]) for s in by_picker.values()), "b": 0}


def _level_gap(seen: Evidence) -> Shown:
    match = re.search(r"mean gap (?P<gap>[\d.]+).*?run-to-run band (?P<band>[\d.]+)", seen.outputs, re.S)
    assert match, "no sweep verdict printed"
    return {"a": float(match["band"]), "b": float(match["gap"])}


def _readers_follow(seen: Evidence) -> Shown:
    rows = seen.table("note", "proposed a release of")
    return {"n": str(sum(r["proposed a release of"] != "-" for r in rows)), "total": str(len(rows))}


def _sizes_of_order_tools(seen: Evidence) -> Shown:
    sizes = {m["tool"]: number(m["size"]) for m in
             re.finditer(r"(?m)^(?P<tool>get_order\w*)\s+.*?->\s+(?P<size>[\d,]+) characters", seen.outputs)}
    assert "get_order_status" in sizes, "no sizes of the three order tools printed"
    return {"a": sizes["get_order_status"], "b": min(v for k, v in sizes.items() if k != "get_order_status")}


def _list_first(seen: Evidence) -> Shown:
    reads = [(m["first"], number(m["total"])) for m in
             re.finditer(r"results of \[(?P<first>\d+),[^\]]*\] characters -> the model reads (?P<total>[\d,]+)",
                          seen.outputs)]
    assert len(reads) == 2, "the two orders of the three calls are not printed"
    biggest = max(reads, key=lambda r: number(r[0]))
    return {"a": biggest[1], "b": next(total for first, total in reads if first != biggest[0])}


def _first_call(seen: Evidence) -> Shown:
    calls = _per_call(seen)
    return {"a": calls["designed"][1], "b": calls["mirror"][1]}


def _price_requests_lost(seen: Evidence) -> Shown:
    """06: the price development requests "Get prices." sends elsewhere, from the stand-in's "designed  n/m right"."""
    match = re.search(r"(?m)^designed\s+(?P<right>\d+)/(?P<total>\d+) right$", seen.outputs)
    assert match, "no score of the broken price description printed"
    return {"lost": str(int(match["total"]) - int(match["right"])), "total": match["total"]}


def _wordings(seen: Evidence) -> dict[str, dict[str, list[float]]]:
    """06's two wordings side by side: per wording and picker, the shares (%) on tuning, development, held-out.

    Read from the printed pivot (its HTML spans rows, so the parsed table would shift the cells)."""
    block = next((b for b in seen.outputs.split("\n\x00\n") if "designed-keyword-stuffed" in b and "held-out" in b),
                 "")
    shares: dict[str, dict[str, list[float]]] = {}
    wording = ""
    for line in block.splitlines():
        row = re.match(r"\s*(?:(?P<wording>designed(?:-keyword-stuffed)?)\s+)?(?P<picker>bm25|words)\s+(?P<rest>.*)",
                       line)
        if not row:
            continue
        wording = row["wording"] or wording
        shares.setdefault(wording, {})[row["picker"]] = [float(v) for v in re.findall(r"\((\d+)%\)", row["rest"])]
    assert set(shares) == {"designed", "designed-keyword-stuffed"}, f"no table of the two wordings: {shares}"
    return shares


def _bm25_note(seen: Evidence) -> Shown:
    """06: BM25 on the designed set, tuning right (of its requests) and held-out right and share, as printed."""
    match = re.search(r"designed\s+bm25\s+tuning\s+\d+% -> held-out\s+(?P<pct>\d+)%[^\n]*: (?P<held>\d+) of", seen.outputs)
    tuning = re.search(r"designed\s+bm25\s+(?P<tuning>\d+)/10 \(", seen.outputs)
    assert match and tuning, "no BM25 score of the designed set printed"
    return {"tuning": tuning["tuning"], "held": match["held"], "pct": match["pct"]}


def _stuffed_against_plain(seen: Evidence) -> Shown:
    shares = _wordings(seen)
    pairs = [(a, b) for picker in ("bm25", "words")
             for a, b in zip(shares["designed-keyword-stuffed"][picker], shares["designed"][picker], strict=True)]
    assert len(pairs) == 6, f"expected two pickers on three case sets, got {pairs}"
    return {"pairs": pairs}


def _on_every_pair(said: Said, shown: Shown) -> list[str]:
    """The comparison (`cmp`, "wins" or "loses") holds for the stuffed wording on every picker and case set."""
    word = {"wins": "higher", "loses": "lower"}[said["cmp"]]
    return [problem for a, b in shown["pairs"] for problem in comparison({"cmp": word}, {"a": a, "b": b})]


def _source_gaps(seen: Evidence) -> Shown:
    """10's published table: the gap from level three to four (and in tasks of 24), and the run-to-run gaps."""
    rows = seen.table("success A", "success B")
    a = {r[""]: number(r["success A"]) for r in rows}
    b = {r[""]: number(r["success B"]) for r in rows}
    gap = a["schema + example call"] - a["name + description + schema"]
    runs = [round(abs(a[level] - b[level]), 4) for level in a]
    assert runs[0] == runs[1], f"levels one and two differ by different amounts between the runs: {runs}"
    return {"gap": f"{gap:.4f}", "tasks": f"{gap * 24:.0f}", "band12": f"{runs[0]:.4f}",
            "band34": f"{max(runs[2:]):.4f}"}


CLAIMS: tuple[Claim, ...] = (
    Claim("01", r"(?P<count>\w+) of the (?P<total>\w+) orders belong to customer 10023",
          r"(?P<total>\d+) orders:.*?10023: (?P<count>\d+)", "orders of customer 10023"),
    Claim("03", r"The model gets (?P<chars>[\d,]+) characters for one fact",
          r"(?m)^(?P<chars>[\d,]+) characters, \d+ fields", "size of one mirrored order"),
    Claim("03", r"(?P<n>\w+) full records for a question", r"(?P<n>\d+) whole records", "records in the list"),
    Claim("04", r"mirror's size \((?P<designed>\d+) / (?P<mirror>\d+)\)",
          r"mirror\s+7 tools, definitions about\s+(?P<mirror>\d+) tokens[\s\S]*designed\s+5 tools, definitions about\s+(?P<designed>\d+) tokens",
          "definition tokens"),
    Claim("04", r"About (?P<x>[\d.]+) times the mirror's size",
          r"mirror\s+7 tools, definitions about\s+(?P<den>\d+) tokens[\s\S]*designed\s+5 tools, definitions about\s+(?P<num>\d+) tokens",
          "designed definitions against the mirror's, as a ratio", exact_ratio),
    Claim("04", r"returns (?P<showing>\d+) of (?P<total>\d+) orders by default",
          r'"total": (?P<total>\d+),\s*"showing": (?P<showing>\d+)', "the search's total and showing"),
    Claim("04", r"under a quarter of the size \((?P<designed>\d+) against (?P<mirror>\d+) characters\)",
          r"mirror\s+get_order\(.*?-> (?P<mirror>\d+) characters.*?designed sales_order_get_block_summary\(.*?"
          r"-> (?P<designed>\d+) characters", "designed summary against the mirrored order"),
    Claim("04", r"(?P<cmp>no offline stand-in|an offline stand-in) in this course can measure",
          _boundary_scores, "a boundary clause is invisible to the offline stand-ins (11's table)",
          lambda said, shown: comparison({"cmp": "same" if said["cmp"].startswith("no") else "higher"}, shown),
          evidence_from="11"),
    Claim("05", r"so it finds\s+(?P<n>\d+)", r"== mirror: 7 tools, (?P<n>\d+) finding", "mirror findings"),
    Claim("05", r"costs about (?P<x>[\d.]+)x the tokens", r"about (?P<x>[\d.]+)x the mirror's",
          "designed/mirror in the takeaways", exact_ratio),
    Claim("05", r"definitions about (?P<x>[\d.]+) times as long", r"about (?P<x>[\d.]+)x the mirror's",
          "designed/mirror after the lint", exact_ratio),
    Claim("06", r"word matching goes from (?P<tuning>\d+)% on tuning to (?P<held>\d+)% on held-out",
          r"designed\s+words\s+tuning\s+(?P<tuning>\d+)% -> held-out\s+(?P<held>\d+)%", "designed words: tuning to held-out"),
    Claim("06", r"BM25 rises from (?P<tuning>\d+)% to (?P<held>\d+)%",
          r"designed\s+bm25\s+tuning\s+(?P<tuning>\d+)% -> held-out\s+(?P<held>\d+)%", "designed BM25: tuning to held-out"),
    Claim("06", r"still falls from (?P<tuning>\d+)% to (?P<held>\d+)%",
          r"mirror\s+words\s+tuning\s+(?P<tuning>\d+)% -> held-out\s+(?P<held>\d+)%", "mirror: tuning to held-out"),
    Claim("06", r"the tuning set has (?P<n>\w+)\s+requests", r"\d+/(?P<n>\d+) \(\d+%\)\s+\d+/138", "size of the tuning set"),
    Claim("09", r"Setting the bulk tools to `code` saves (?P<cmp>less|more) here",
          lambda seen: {"a": number(seen.table("step", "share of the classic run removed")[1]
                                    ["share of the classic run removed"]),
                        "b": number(seen.table("step", "share of the classic run removed")[0]
                                    ["share of the classic run removed"])},
          "what 'code' access saves against what run_code saves", comparison),
    Claim("09", r"about (?P<x>[\d.]+) times fewer input\s+tokens",
          lambda seen: {"num": _row(seen.table("run", "input tokens (reported)"), "run", "classic")["input tokens (reported)"],
                        "den": _row(seen.table("run", "input tokens (reported)"), "run", "code mode, bulk code only")
                        ["input tokens (reported)"]},
          "UC AI's reported input tokens, classic against code only", exact_ratio),
    Claim("10", r"(?P<errors>\d+) of the (?P<calls>\d+) calls end in a tool error",
          r"name only\s+(?P<calls>\d+)\s+(?P<errors>\d+)", "name-only errors and calls"),
    Claim("10", r"Those (?P<n>\d+) calls ran", r"(?P<n>\d+) of \d+ valid calls called a tool outside",
          "valid calls off the task"),
    Claim("10", r"the mean gap\s+is (?P<gap>[\d.]+)", r"mean gap (?P<gap>[\d.]+)", "paired mean gap"),
    Claim("10", r"A bill of (?P<wrong>\d+) instead of (?P<right>\d+)",
          r"correct answer: (?P<right>\d+)\s+level 3 leaves (?P<wrong>\d+)", "G07 swapped at level three"),
    Claim("10", r"Single runs scatter (?P<cmp>wider|narrower) than the gap", _level_gap,
          "run-to-run band against the paired gap", comparison),
    Claim("13", r"(?P<none>\d+) of the (?P<total>\d+) need no tool at all",
          r"(?P<total>\d+) requests, (?P<none>\d+) of them need no tool", "requests that need no tool"),
    Claim("13", r"Each of the (?P<n>\d+) distractors gets one `desc-boundary`", r"'desc-boundary': (?P<n>\d+)",
          "boundary findings in the grown set"),
    Claim("13", r"(?P<n>\w+) `set-size` finding", r"'set-size': (?P<n>\d+)", "set-size findings"),
    Claim("13", r"and (?P<n>\d+) pairs of near twins", r"'set-twins': (?P<n>\d+)", "near-twin pairs"),
    Claim("13", r"The designed row's (?P<pct>\d+) %", r"(?m)^\s*0\s+designed\s+5\s+\d+\s+\d+\s+\d+\s+(?P<pct>\d+)%",
          "designed set in the consolidation table"),
    Claim("13", r"The designed row's (?P<pct>\d+) %", r"(?m)^\s*0\s+5\s+\d+\s+(?P<pct>\d+)%",
          "designed set at five tools in the growth table"),
    Claim("13", r"the right tool, `(?P<item>\w+)`, (?P<cmp>is among|is not among) the three found", _found_list,
          "the block summary among the three tools the search found", membership),
    Claim("13", r"search with k = 2 or more comes out (?P<cmp>the same as|higher than|lower than) loading all",
          _search_against_all("k>=2"), "search (k >= 2) against loading all", every_comparison),
    Claim("13", r"and with k = 1 (?P<cmp>the same|higher|lower)", _search_against_all("k=1"),
          "search (k = 1) against loading all", comparison),
    Claim("13", r"BM25's accuracy \(solid line\) (?P<cmp>falls) from (?P<start>\d+) to (?P<turn>\d+) tools, "
                r"then flattens",
          _growth_curve("bm25"), "BM25's curve as the catalog grows, neighbours first", fastest_then_flat),
    Claim("13", r"The word-matching stand-in loses (?P<cmp>the same as|more than|less than) BM25 "
                r"from (?P<start>\d+) to (?P<end>\d+) tools",
          _growth_curves, "the two stand-ins' loss over the growth table", _loss_between),
    Claim("13", r"\(dashed\), BM25 (?P<cmp>loses the same|loses less|loses more) per added tool",
          r"(?P<b>[\d.]+) points per tool when the neighbours join, (?P<a>[\d.]+) when unrelated",
          "loss per tool, unrelated tools against neighbours", comparison),
    Claim("13", r"more than our (?P<tokens>[\d,]+)\s+because", _tokens_at(50), "definitions at 50 tools"),
    Claim("13", r"about (?P<per_tool>\d+) per tool here", _tokens_per_tool, "tokens per added tool"),
    Claim("13", r"accuracy (?:drops|rises) a little \(from (?P<designed>\d+) % to (?P<merged>\d+) %\)",
          _consolidated_accuracy, "designed against consolidated accuracy"),
    Claim("13", r"accuracy (?P<cmp>drops|rises) a little \(from", _consolidated_accuracy,
          "the consolidated set's accuracy against the designed set's",
          lambda said, shown: comparison({"cmp": "lower" if said["cmp"] == "drops" else "higher"},
                                         {"a": number(str(shown["merged"])), "b": number(str(shown["designed"]))})),
    Claim("16", r"Each technique that saves tokens loses something, and the one that keeps every fact",
          _savers_that_lose, "the techniques that save tokens against the facts they keep", _every_saver_loses),
    Claim("16", r"The mirrored run overtakes it at call (?P<call>\d+)",
          lambda seen: _per_call(seen), "mirror against designed, call by call", _overtakes),
    Claim("16", r"The note\s+costs little \(under (?P<n>\d+) tokens", _note_cost, "what the truncation note costs",
          _under),
    Claim("16", r"costs \*(?P<cmp>more|less)\* than carrying everything",
          lambda seen: {"a": _technique("pages of 2, every page")(seen), "b": _technique("mirror, as is")(seen)},
          "every page against carrying everything", comparison),
    Claim("16", r"The designed set carries (?P<cmp>fewer|more) tokens than the mirror",
          lambda seen: {"a": _technique("designed, as is")(seen), "b": _technique("mirror, as is")(seen)},
          "designed against mirror over the task", comparison),
    Claim("03", r"`get_order_status` returns only the code fields, so it is the (?P<cmp>cheapest|dearest)",
          _sizes_of_order_tools, "the status tool's result against the other two", comparison),
    Claim("03", r"The big list read first costs the (?P<cmp>most|least)", _list_first,
          "the loop's reading, big result first against last", comparison),
    Claim("04", r"The designed summary is (?P<cmp>under|over) a quarter of the size \((?P<d>\d+) against (?P<m>\d+)",
          lambda seen: {"a": 0.0, "b": 0.25}, "the designed summary's share of the mirrored order",
          lambda said, shown: comparison(said, {"a": number(said["d"]) / number(said["m"]), "b": 0.25})),
    Claim("11", r"Each picker scores the (?P<cmp>same) with and without clauses", _boundary_scores,
          "the offline stand-ins with and without boundary clauses", comparison),
    Claim("13", r"a near\s+neighbour costs BM25 (?P<cmp>the same|more|less) accuracy (?:as|than) an unrelated tool",
          r"(?P<a>[\d.]+) points per tool when the neighbours join, (?P<b>[\d.]+) when unrelated",
          "what a near neighbour costs against an unrelated tool", comparison),
    Claim("16", r"The designed run starts (?P<cmp>higher|lower)", _first_call,
          "the first model call, designed against mirror", comparison),
    Claim("16", r"the mirrored run sent (?P<cmp>more|fewer) tokens than the designed one",
          lambda seen: {"a": _technique("mirror, as is")(seen), "b": _technique("designed, as is")(seen)},
          "the whole task, mirror against designed", comparison),
    Claim("17", r"The scripted reader follows (?P<n>\d+) of (?P<total>\d+)", _readers_follow,
          "records the literal reader follows"),
    Claim("07", r"still lost (?P<lost>\w+) of the (?P<total>\w+) price requests",
          r"yet (?P<lost>\d+) of (?P<total>\d+) price requests go elsewhere",
          "the design note: price requests the rule-abiding description loses"),
    Claim("07", r"and (?P<lost>\w+) of the (?P<total>\w+) price requests went to other tools", _price_requests_lost,
          "the design note: price requests 'Get prices.' loses"),
    Claim("07", r"the designed set gets (?P<tuning>\d+) of (?P<tuning_total>\d+) tuning requests right and the mirror "
                r"(?P<mirror>\d+) of (?P<mirror_total>\d+)",
          r"mirror\s+(?P<mirror>\d+)/(?P<mirror_total>\d+) right.*?designed\s+(?P<tuning>\d+)/(?P<tuning_total>\d+) right",
          "the design note: tuning scores with the word stand-in", evidence_from="06"),
    Claim("07", r"on the held-out set the designed set gets (?P<designed>\d+) of (?P<total>\d+) \((?P<dpct>\d+)%\) "
                r"and the mirror (?P<mirror>\d+) of \d+ \((?P<mpct>\d+)%\)",
          r"mirror\s+words\s+tuning\s+\d+% -> held-out\s+(?P<mpct>\d+)%[^\n]*: (?P<mirror>\d+) of \d+ held-out.*?"
          r"designed\s+words\s+tuning\s+\d+% -> held-out\s+(?P<dpct>\d+)%[^\n]*: (?P<designed>\d+) of (?P<total>\d+) held-out",
          "the design note: held-out scores with the word stand-in", evidence_from="06"),
    Claim("07", r"With BM25 the designed set goes from (?P<tuning>\d+) of 10 to (?P<held>\d+) of \d+ \((?P<pct>\d+)%\)",
          _bm25_note,
          "the design note: BM25's designed scores", evidence_from="06"),
    Claim("06", r"the stuffed wording (?P<cmp>wins|loses) with both stand-ins on every case set", _stuffed_against_plain,
          "the stuffed wording against the plain one, every picker and case set", _on_every_pair),
    Claim("10", r"levels three and four \((?P<gap>[\d.]+), (?P<tasks>\w+) tasks\)", _source_gaps,
          "the published gap from level three to four"),
    Claim("10", r"between its two runs: (?P<band12>[\d.]+) at levels one and two, (?P<band34>zero) at three and four",
          _source_gaps, "the published run-to-run gaps"),
)


def notebook_path(prefix: str) -> Path:
    found = [p for p in SOLUTIONS if p.name.startswith(prefix + "_")]
    assert found, f"no solution notebook starts with {prefix}_"
    return found[0]


def claim_problems(notebook: dict, claim: Claim, backing: dict | None = None) -> list[str]:
    """What is wrong with one claim in one notebook; [] when the prose and the output agree.

    ``backing`` is the notebook whose outputs back the sentence (by default, the same notebook).
    """
    seen = evidence(notebook)
    text = " ".join("\n".join(seen.prose).split())  # a sentence may break its line anywhere
    said = re.search(claim.prose, text, re.S)
    if not said:
        return [f"{claim.about}: the sentence /{claim.prose}/ is gone; update CLAIMS with the new wording"]
    source = evidence(backing) if backing is not None else seen
    if isinstance(claim.output, str):
        match = re.search(claim.output, source.outputs, re.S)
        if not match:
            return [f"{claim.about}: no output matches /{claim.output}/"]
        shown: Shown = match.groupdict()
    else:
        try:
            shown = claim.output(source)
        except AssertionError as error:
            return [f"{claim.about}: {error}"]
    stated = {k: v for k, v in said.groupdict().items() if v is not None}
    return [f"{claim.about}: {problem}" for problem in claim.verdict(stated, shown)]


def problems_of(claim: Claim, notebook: dict | None = None) -> list[str]:
    notebook = load(notebook_path(claim.notebook)) if notebook is None else notebook
    backing = load(notebook_path(claim.evidence_from)) if claim.evidence_from else None
    return claim_problems(notebook, claim, backing)


# ---------- generic figure rules ----------

UNITS = (r"characters|tokens|findings?|finding\(s\)|tools|orders|calls|errors|steps|requests|seeds|"
         r"shipments|readings|bytes|records")
FIGURE = re.compile(rf"(?<![\w.,])(\d(?:[\d,]*\d)?(?:\.\d+)?)\s+(?:\w+\s+)?(?:{UNITS})\b")
PERCENT = re.compile(r"(?<![\w.,])(\d+(?:\.\d+)?)\s?%")
# A sentence that names where its figure comes from, or that is an illustration, not a finding.
ATTRIBUTED = re.compile(r"\breport|\bsource|\blab\b|\bR\d+\b|Anthropic|OpenAI|UC AI|\bpublished|\bMCP\b|"
                        r"\bguid|\bnotebook \d\d|\bfor example|\be\.g\.|\bsay\b|\bimagine|\bif\b", re.I)
# A sentence that shows its own arithmetic ("50,700 + 1,800 = 52,500") backs its result itself.
ARITHMETIC = re.compile(r"\d\s*[=+/×*]\s*\d|\d\s+-\s+\d")
APPROXIMATE = re.compile(r"\b(about|roughly|nearly|around|some|almost|over|under|up to)\s+$", re.I)
# Figures that are neither printed nor attributed, each with the reason it may stand.
EXEMPT: dict[tuple[str, str], str] = {
    ("06", "24 calls"): "stated with its arithmetic in the same sentence: 12 requests, two sets",
    ("02", "24 shipments"): "drawn as the chart's 24 panels; no cell prints the count as a number",
}


def _sentences(markdown: str) -> list[str]:
    return [s for s in re.split(r"(?<=[.!?:])\s+|\n\s*[-*]\s+|\n\|", markdown) if s.strip()]


def _stem(unit: str) -> str:
    return unit.replace("(s)", "").rstrip("s")


def _blocks(seen: Evidence) -> list[str]:
    """Each output on its own, and the code, so a number counts only beside its own unit."""
    return [*seen.outputs.split("\n\x00\n"), seen.code]


def _printed(seen: Evidence) -> dict[str, set[float]]:
    """For each unit, the numbers printed in an output (or written in code) that names that unit."""
    found: dict[str, set[float]] = {}
    for block in _blocks(seen):
        values = set()
        for raw in re.findall(r"\d(?:[\d,]*\d)?(?:\.\d+)?", block):
            try:
                values.add(number(raw))
            except ValueError:
                continue
        lowered = block.lower()
        for unit in UNITS.split("|"):
            stem = _stem(unit.replace("\\", ""))
            if stem in lowered:
                found.setdefault(stem, set()).update(values)
    return found


def _percents(seen: Evidence) -> list[float]:
    shown = [float(v) for v in re.findall(r"(\d+(?:\.\d+)?)\s?%", seen.outputs)]
    shown += [100 * float(v) for v in re.findall(r"(?<![\d.])0\.\d+", seen.outputs)]
    shown += [float(v) for v in re.findall(r"(\d+(?:\.\d+)?)\s?%", seen.code)]
    return shown


def generic_problems(notebook: dict, prefix: str = "") -> list[str]:
    """Figures with a unit, and percentages, that no output, code or source in the sentence backs."""
    seen = evidence(notebook)
    printed, percents = _printed(seen), _percents(seen)
    problems = []
    for markdown in seen.prose:
        for sentence in _sentences(markdown):
            if ATTRIBUTED.search(sentence) or ARITHMETIC.search(sentence):
                continue
            for match in FIGURE.finditer(sentence):
                figure = " ".join(match.group(0).split())
                value, unit = number(match.group(1)), _stem(figure.split()[-1].lower())
                beside = printed.get(unit, set())
                if (prefix, f"{match.group(1)} {figure.split()[-1]}") in EXEMPT or value in beside:
                    continue
                if APPROXIMATE.search(sentence[:match.start()]) and \
                        any(abs(v - value) <= 0.2 * value for v in beside if v):
                    continue
                problems.append(f"'{figure}' is not printed by any cell: {sentence.strip()[:100]!r}")
            for match in PERCENT.finditer(sentence):
                value = float(match.group(1))
                if not any(round(v) == value or abs(v - value) < 0.05 for v in percents):
                    problems.append(f"'{match.group(0)}' is not printed by any cell: {sentence.strip()[:100]!r}")
    return problems


# ---------- ratios, with no slack ----------

RATIO = re.compile(r"(?<![\w.,])(\d+(?:\.\d+)?)\s*(?:x\b|×|times\b)(?!\s*\d)")  # a product such as "3 x 240" is no ratio
QUOTIENT = re.compile(r"\((\d[\d,]*(?:\.\d+)?)\s*/\s*(\d[\d,]*(?:\.\d+)?)\)")
# Sources a ratio may be quoted from (the generic ATTRIBUTED is broader: "if", "say" ... are not sources).
RATIO_SOURCE = re.compile(r"\bR\d+\b|\breport|\bsource|Anthropic|OpenAI|UC AI|\bpublished", re.I)


def _printed_ratios(seen: Evidence) -> list[str]:
    return RATIO.findall(seen.outputs)


def ratio_problems(notebook: dict) -> list[str]:
    """A ratio in prose equals a printed ratio, or its own (a / b), at the stated precision; 4.0 is not 4.4."""
    seen = evidence(notebook)
    printed = _printed_ratios(seen)
    problems = []
    for markdown in seen.prose:
        for sentence in _sentences(markdown):
            if RATIO_SOURCE.search(sentence):
                continue
            quotients = [number(a) / number(b) for a, b in QUOTIENT.findall(sentence) if number(b)]
            for match in RATIO.finditer(sentence):
                stated = match.group(1)
                if any(same_ratio(stated, p, number(p)) for p in printed) or \
                        any(same_ratio(stated, None, q) for q in quotients):
                    continue
                problems.append(f"'{match.group(0).strip()}' is no printed ratio (printed: {sorted(set(printed))}): "
                                f"{sentence.strip()[:100]!r}")
    return problems


# ---------- specification rules ----------

@dataclass(frozen=True)
class SpecRule:
    about: str
    says: re.Pattern[str]      # the outdated statement, within one clause
    unless: re.Pattern[str]    # the sentence places it in its revision ("until 2025-06-18 ...")
    current: str               # what the current revision says, for the failure message


_INPUT = (r"(invalid|bad|wrong|malformed|mistyped) (tool )?(arguments?|input|params|parameters)|"
          r"arguments? (that|which) (fail|break|do not (fit|match))|fails? (the|its) (input )?schema|"
          r"schema (validation|violations?)|input validation")
_PROTOCOL = r"protocol errors?|JSON-RPC errors?"
SPEC_RULES: tuple[SpecRule, ...] = (
    SpecRule(
        "MCP: arguments that fail the input schema",
        re.compile(rf"(?:{_INPUT})[^.;]{{0,90}}?(?:{_PROTOCOL})|(?:{_PROTOCOL})[^.;]{{0,60}}?"
                   rf"(?:for|such as|like|as|:|\(|includ\w*)[^.;]{{0,50}}?(?:{_INPUT})", re.I),
        re.compile(r"2025-06-18[^.]{0,120}\b(listed|was|were|called|used to|earlier|older)\b|"
                   r"\b(until|before|no longer|earlier revision|older revision|used to)\b|"
                   r"\b(not|never|rather than|instead of)\b[^.;]{0,20}\b(protocol|JSON-RPC) errors?", re.I),
        "since MCP revision 2025-11-25, input that fails a tool's schema is a tool execution error "
        "(a result with isError: true), not a protocol error"),
)


def _spec_sentences(text: str) -> list[str]:
    return [s for s in re.split(r"(?<=[.!?])\s+|\n\s*[-*]\s+|\n\||\n\n", text) if s.strip()]


def spec_problems(passages) -> list[str]:
    problems = []
    for passage in passages:
        for sentence in _spec_sentences(passage.text):
            for rule in SPEC_RULES:
                if rule.says.search(sentence) and not rule.unless.search(sentence):
                    problems.append(f"{passage.where}: {rule.about}: {' '.join(sentence.split())[:120]!r}; "
                                    f"{rule.current}")
    return problems


# ---------- the tests ----------

def test_there_are_notebooks_and_every_claim_names_one():
    assert SOLUTIONS, "no solution notebooks found"
    for claim in CLAIMS:
        notebook_path(claim.notebook)
        if claim.evidence_from:
            notebook_path(claim.evidence_from)


@pytest.mark.parametrize("claim", CLAIMS, ids=lambda c: f"{c.notebook}-{c.about}")
def test_every_claim_in_the_registry_agrees_with_its_output(claim):
    assert problems_of(claim) == []


@pytest.mark.parametrize("path", SOLUTIONS, ids=lambda p: p.stem)
def test_no_figure_in_the_prose_lacks_an_output_or_a_source(path):
    assert generic_problems(load(path), path.name[:2]) == []


@pytest.mark.parametrize("path", SOLUTIONS, ids=lambda p: p.stem)
def test_every_ratio_in_the_prose_is_the_printed_one(path):
    assert ratio_problems(load(path)) == []


@pytest.mark.parametrize("path", SOLUTIONS, ids=lambda p: p.stem)
def test_prose_and_quizzes_state_the_current_mcp_error_rule(path):
    assert spec_problems(notebook_passages(path)) == []


def test_readme_and_package_quizzes_state_the_current_mcp_error_rule():
    assert spec_problems([readme_passage(), *package_quiz_passages()]) == []


# ---------- doctored copies: each kind of check fails when the text stops fitting ----------

def _doctor_prose(notebook: dict, old: str, new: str) -> dict:
    doctored = copy.deepcopy(notebook)
    for cell in doctored["cells"]:
        if cell["cell_type"] == "markdown" and old in "".join(cell["source"]):
            cell["source"] = "".join(cell["source"]).replace(old, new)
            return doctored
    raise AssertionError(f"{old!r} not found in the prose")




def _doctor_output(notebook: dict, old: str, new: str) -> dict:
    doctored = copy.deepcopy(notebook)
    for cell in doctored["cells"]:
        for output in cell.get("outputs", []):
            texts = [("text", output)] if "text" in output else []
            texts += [(kind, output["data"]) for kind in ("text/plain", "text/html") if kind in output.get("data", {})]
            hit = False
            for key, holder in texts:
                if old in "".join(holder[key]):
                    holder[key] = "".join(holder[key]).replace(old, new)
                    hit = True
            if hit:
                return doctored
    raise AssertionError(f"{old!r} not found in the outputs")


def _said(prefix: str, pattern: str, group: str) -> str:
    """What the notebook's prose says today, so a doctored copy changes the real sentence, whatever its figures."""
    prose = "\n".join(evidence(load(notebook_path(prefix))).prose)
    match = re.search(pattern.replace(" ", r"\s+"), prose, re.S)
    assert match, f"/{pattern}/ not in {prefix}"
    return match.group(0), match.group(group)


def _claims_of(prefix: str) -> list[Claim]:
    return [c for c in CLAIMS if c.notebook == prefix]


def _caught(prefix: str, doctored: dict) -> bool:
    original = load(notebook_path(prefix))
    assert not any(problems_of(c, original) for c in _claims_of(prefix)), "the original must pass first"
    return any(problems_of(c, doctored) for c in _claims_of(prefix))


@pytest.mark.parametrize("prefix, where, old, new", [
    ("01", "prose", "Seven of the nine orders", "Six of the nine orders"),
    ("03", "prose", "gets 843 characters", "gets 900 characters"),
    ("04", "prose", "(995 / 296)", "(1060 / 296)"),
    ("05", "output", "7 tools, 67 findings", "7 tools, 57 findings"),
    ("10", "prose", "the mean gap\n  is 0.194", "the mean gap\n  is 0.166"),
    ("13", "prose", "Each of the 95 distractors", "Each of the 96 distractors"),
    ("13", "prose", "The designed row's 76 %", "The designed row's 84 %"),
    ("07", "prose", "still lost three of the", "still lost two of the"),
    ("07", "prose", "and three of the four price requests went", "and four of the four price requests went"),
    ("07", "prose", "the mirror 4 of 10;", "the mirror 5 of 10;"),
    ("07", "prose", "designed set gets 22 of 34", "designed set gets 24 of 34"),
    ("07", "prose", "goes from 6 of 10 to 25 of 34", "goes from 7 of 10 to 25 of 34"),
    ("07", "output", "yet 3 of 4 price requests go elsewhere", "yet 4 of 4 price requests go elsewhere"),
    ("10", "prose", "(0.1666, four tasks)", "(0.1666, five tasks)"),
    ("10", "prose", "0.0834 at levels one and two", "0.0417 at levels one and two"),
    ("10", "output", "<td>0.9583</td>\n      <td>0.9583</td>", "<td>0.9167</td>\n      <td>0.9583</td>"),
])
def test_doctored_figures_are_caught_by_the_registry(prefix, where, old, new):
    original = load(notebook_path(prefix))
    doctor = _doctor_prose if where == "prose" else _doctor_output
    assert _caught(prefix, doctor(original, old, new))


# A comparison reversed, in each notebook that states one: the word flipped, the rest untouched.
REVERSALS = [
    ("03", r"so it is the cheapest", "cheapest", "dearest"),
    ("03", r"The big list read first costs the most", "most", "least"),
    ("04", r"The designed summary is under a quarter", "under", "over"),
    ("13", r"a near neighbour costs BM25 the same accuracy", "the same", "more"),
    ("16", r"The designed run starts higher", "higher", "lower"),
    ("16", r"the mirrored run sent more tokens than the designed one", "more", "fewer"),
    ("09", r"Setting the bulk tools to `code` saves less here", "saves less", "saves more"),
    ("04", r"no offline stand-in in this course can measure", "no offline stand-in", "an offline stand-in"),
    ("10", r"Single runs scatter wider than the gap", "wider", "narrower"),
    ("13", r"is not among the three found", "is not among", "is among"),
    ("13", r"comes out the same as loading all", "the same as", "higher than"),
    ("13", r"and with k = 1 lower", "lower", "higher"),
    ("13", r"The word-matching stand-in loses the same as BM25", "the same as", "less than"),
    ("13", r"BM25 loses the same per added tool", "loses the same", "loses more"),
    ("13", r"accuracy drops a little", "drops", "rises"),
    ("16", r"costs \*more\* than carrying everything", "*more*", "*less*"),
    ("16", r"The designed set carries fewer tokens than the mirror", "fewer", "more"),
    ("06", r"the stuffed wording wins with both stand-ins on every case set", "wins", "loses"),
]


@pytest.mark.parametrize("prefix, pattern, old, new", REVERSALS, ids=lambda v: str(v)[:24])
def test_a_reversed_comparison_is_caught(prefix, pattern, old, new):
    sentence, _ = _said(prefix, pattern, 0)
    flipped = re.sub(r"\s+".join(map(re.escape, old.split())), new, sentence, count=1)
    assert flipped != sentence, f"{old!r} not in {sentence!r}"
    doctored = _doctor_prose(load(notebook_path(prefix)), sentence, flipped)
    assert _caught(prefix, doctored)


def test_a_reversed_table_is_caught_even_when_the_sentence_stays():
    """The other way round: the sentence stays and the output reverses under it (a redesign changed it)."""
    notebook = load(notebook_path("13"))
    rows = evidence(notebook).table("loading", "accuracy")
    everything = _row(rows, "loading", "load all")["accuracy"]
    doctored = _doctor_output(notebook, f"<td>load all</td>\n      <td>{everything}</td>",
                              "<td>load all</td>\n      <td>99%</td>")
    assert _caught("13", doctored)


def test_a_plain_wording_that_wins_one_column_contradicts_06():
    """06 says the stuffed wording wins on every picker and case set; one held-out share reversed is caught."""
    notebook = load(notebook_path("06"))
    assert _stuffed_against_plain(evidence(notebook))["pairs"]
    doctored = _doctor_output(notebook, "30/34 (88%)", "20/34 (59%)")
    assert _caught("06", doctored)


def test_a_technique_that_saves_and_keeps_everything_contradicts_12():
    """12 says every technique that saves tokens loses a fact; a table where reading every page saves is caught."""
    notebook = load(notebook_path("16"))
    saved = _row(evidence(notebook).table("technique", "tokens saved"), "technique", "pages of 2, every page")
    assert number(saved["tokens saved"]) <= 0
    doctored = _doctor_output(notebook, f"<td>{saved['tokens saved']}</td>", "<td>1200</td>")
    assert _caught("16", doctored)


def test_a_curve_that_does_not_flatten_is_caught():
    claim = next(c for c in CLAIMS if c.verdict is fastest_then_flat)
    steady = {5: 95.0, 10: 90.0, 15: 85.0, 20: 80.0, 25: 75.0, 30: 70.0, 50: 50.0, 100: 0.0}
    assert fastest_then_flat({"start": "5", "turn": "25"}, {"curve": steady})
    assert problems_of(claim) == []


@pytest.mark.parametrize("prefix, pattern, generic", [
    ("09", r"about (?P<x>[\d.]+) times fewer input", False),  # a reported figure: its sentence cites R20
    ("04", r"About (?P<x>[\d.]+) times the mirror's size", True),
    ("05", r"definitions about (?P<x>[\d.]+) times as long", True),
    ("05", r"costs about (?P<x>[\d.]+)x the tokens", True),
])
def test_a_ratio_changed_by_five_percent_is_caught(prefix, pattern, generic):
    sentence, stated = _said(prefix, pattern, "x")
    changed = f"{number(stated) * 1.05:.{decimals(stated)}f}"
    assert changed != stated
    doctored = _doctor_prose(load(notebook_path(prefix)), sentence, sentence.replace(stated, changed, 1))
    assert _caught(prefix, doctored)
    if generic:
        assert ratio_problems(doctored), "the generic ratio rule catches it too"


def test_a_ratio_is_held_to_the_printed_one_with_no_slack():
    """The finding of issue 25: '4.0 times' beside a printed 4.4x. 20 % slack let it pass; none may."""
    notebook = {"cells": [
        {"cell_type": "markdown", "source": "No findings, and definitions about 4.0 times as long."},
        {"cell_type": "code", "source": "print(ratio)", "outputs": [{"text": "about 4.4x the mirror's tokens\n"}]}]}
    assert ratio_problems(notebook)
    notebook["cells"][0]["source"] = "No findings, and definitions about 4.4 times as long."
    assert ratio_problems(notebook) == []
    notebook["cells"][0]["source"] = "No findings, and definitions about 4 times as long."
    assert ratio_problems(notebook), "coarser than printed is slack too: the output says 4.4"
    assert exact_ratio({"x": "4"}, {"x": "4.4"}) and exact_ratio({"x": "4.6"}, {"x": "4.4"})
    assert exact_ratio({"x": "4.4"}, {"x": "4.4"}) == [] and exact_ratio({"x": "4.44"}, {"x": "4.4"}) == []
    notebook["cells"][0]["source"] = "About 4.4 times the size (1313 / 296)."
    notebook["cells"][1]["outputs"] = []
    assert ratio_problems(notebook) == []
    notebook["cells"][0]["source"] = "About 4.6 times the size (1313 / 296)."
    assert ratio_problems(notebook)


@pytest.mark.parametrize("prefix, old, new", [
    ("03", "gets 843 characters", "gets 900 characters"),
    ("13", "The designed row's 76 %", "The designed row's 85 %"),
    ("04", "designed call (the repeat)", "designed call (the repeat, 318 characters)"),
    ("10", "Those 8\ncalls ran", "Those 11\ncalls ran"),  # not 9: quiz("10") in the code backs a 9
])
def test_doctored_copies_are_caught_by_the_generic_rules(prefix, old, new):
    original = load(notebook_path(prefix))
    assert generic_problems(original, prefix) == []
    assert generic_problems(_doctor_prose(original, old, new), prefix)


OLD_MCP_RULES = [
    "An unknown tool or invalid arguments get a JSON-RPC protocol error, for the host's code.",
    "Arguments that fail the input schema are a protocol error, so the host's code sees them.",
    "A protocol error (an unknown tool, invalid arguments) comes back as a JSON-RPC error instead of a result.",
    "Schema validation failures come back as JSON-RPC errors; the model never reads them.",
    "Invalid arguments are a protocol error, not a tool error.",
]


@pytest.mark.parametrize("sentence", OLD_MCP_RULES, ids=lambda s: s[:30])
def test_the_old_mcp_error_rule_is_caught_in_prose_quiz_and_readme(sentence):
    notebook = load(notebook_path("14"))
    assert spec_problems(notebook_passages(notebook_path("14"), _doctor_prose(notebook, "## 5.", f"{sentence}\n\n## 5.")))
    quiz_cell = {"cell_type": "code", "id": "q", "outputs": [], "source":
                 f"Quiz((Question('Where does a bad argument go?', (Choice('A protocol error', {sentence!r}, "
                 "correct=True),)),)).show()"}
    assert spec_problems(notebook_passages(Path("11_doctored.ipynb"), {"cells": [quiz_cell]}))
    readme = readme_passage()
    assert spec_problems([type(readme)(readme.where, readme.kind, readme.text + "\n" + sentence + "\n")])


@pytest.mark.parametrize("sentence", [
    "Since MCP revision 2025-11-25, arguments that fail the schema come back as a tool execution error with "
    "isError: true, so the model can correct them.",
    "The 2025-06-18 revision listed invalid arguments as a protocol error; the current one makes them a tool "
    "execution error.",
    "An unknown tool or a malformed request gets a JSON-RPC error, for the host's code.",
    "Since 2025-11-25, input that fails the schema is a tool execution error (isError: true), not a protocol error.",
    "Bad arguments come back as a result the model reads, never as a JSON-RPC error.",
], ids=lambda s: s[:30])
def test_the_current_mcp_error_rule_passes(sentence):
    assert spec_problems([readme_passage().__class__("x", "prose", sentence)]) == []


def test_a_sentence_that_names_its_source_may_quote_a_figure():
    notebook = {"cells": [{"cell_type": "markdown", "source": "Anthropic reports 55,000 tokens for 58 tools (R13)."},
                          {"cell_type": "code", "source": "print(1)", "outputs": [{"text": "1\n"}]}]}
    assert generic_problems(notebook) == []
    notebook["cells"][0]["source"] = "Fifty-eight tools take 55,000 tokens."
    assert generic_problems(notebook)


def test_the_registry_reads_figures_from_outputs_not_from_itself():
    """No figure of a notebook's output is written into the registry: each is read when the test runs."""
    source = (ROOT / "tests" / "test_claims.py").read_text(encoding="utf-8")
    registry = source[source.index("CLAIMS: tuple"):source.index("def notebook_path")]
    for figure in ("1313", "13327", "6784", "81%", "84%", "0.1938"):
        assert figure not in registry, f"{figure} is hard-coded in CLAIMS"
