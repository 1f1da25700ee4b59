"""The code-mode tool registry: one SQLite table that decides which tools exist and who may call them.

It follows UC AI's tools table and registration calls as UC AI's lesson "Tell the program what your
tools return" describes them (R20 in docs/references.md): the ``code_mode_access`` column, descriptions
of at most 4,000 characters, ``create_tool_from_schema`` and ``merge_tool_from_schema``.

A tool is registered once and then offered two ways: as a normal tool the model calls directly,
and as a function a program calls with ``callTool``. The column ``code_mode_access`` says which:

* ``direct`` - a normal tool only; a program cannot call it.
* ``code``   - only a program can call it; the model's own tool list does not show it.
* ``both``   - either way; what a newly created tool gets.

The registry is a real database file (or ``":memory:"`` for quick experiments), so the rules are the
database's rules: the CHECK constraints refuse an unknown access value or an over-long description
even when someone bypasses this module and writes SQL by hand.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, cast

__all__ = [
    "ACCESS_VALUES",
    "MAX_DESCRIPTION_CHARS",
    "VERIFICATION_QUERY",
    "DescriptionTooLong",
    "Registry",
    "ToolRow",
    "UnknownTool",
]

ACCESS_VALUES = ("direct", "code", "both")
CODE_CALLABLE = ("code", "both")
DIRECT_CALLABLE = ("direct", "both")
MAX_DESCRIPTION_CHARS = 4000  # UC AI's description column (R20)

# The table mirrors the one the lesson's source queries. The limits live in the schema itself, so a
# hand-written UPDATE is refused as firmly as a call through Registry.
SCHEMA = """
CREATE TABLE IF NOT EXISTS tools (
    id               INTEGER PRIMARY KEY,
    code             TEXT    NOT NULL UNIQUE,
    description      TEXT    NOT NULL CHECK (length(description) <= 4000),
    json_schema      TEXT    NOT NULL DEFAULT '{}',
    function_call    TEXT,
    tags             TEXT    NOT NULL DEFAULT '[]',
    code_mode_access TEXT    NOT NULL DEFAULT 'both'
                     CHECK (code_mode_access IN ('direct', 'code', 'both')),
    active           INTEGER NOT NULL DEFAULT 1 CHECK (active IN (0, 1))
)
"""

# Which cold-chain tools are registered, with what access. The underscore is a LIKE wildcard, so it
# is escaped to mean a literal underscore: 'CC\_%' matches CC_GET_LIMITS but not CCX.
VERIFICATION_QUERY = r"""select code, code_mode_access, active
  from tools
 where code like 'CC\_%' escape '\'
 order by code"""

_COLUMNS = "id, code, description, json_schema, function_call, tags, code_mode_access, active"


class DescriptionTooLong(ValueError):
    """A description the table cannot hold; raised before the database is touched."""


class UnknownTool(KeyError):
    """No tool with that code is registered."""

    def __str__(self) -> str:  # KeyError would print the message with quotes around it
        return str(self.args[0])


@dataclass(frozen=True)
class ToolRow:
    """One row of the registry, with the JSON columns decoded."""

    id: int
    code: str
    description: str
    json_schema: dict
    function_call: str | None
    tags: tuple[str, ...]
    code_mode_access: str
    active: bool

    @property
    def code_callable(self) -> bool:
        """True when a program may call the tool, which is what puts it in the catalog."""
        return self.active and self.code_mode_access in CODE_CALLABLE

    @property
    def direct_callable(self) -> bool:
        """True when the model's own tool list shows the tool."""
        return self.active and self.code_mode_access in DIRECT_CALLABLE

    @property
    def argument_names(self) -> list[str]:
        """The argument names from the JSON schema: all that the catalog line keeps of it."""
        return list(self.json_schema.get("properties", {}))

    @classmethod
    def from_db(cls, row: Sequence[Any]) -> ToolRow:
        id_, code, description, schema, function_call, tags, access, active = row
        return cls(
            id_,
            code,
            description,
            json.loads(schema),
            function_call,
            tuple(json.loads(tags)),
            access,
            bool(active),
        )


def _check_description(code: str, description: str) -> None:
    if not isinstance(description, str):
        raise TypeError(f"description of {code} must be a string, not {type(description).__name__}")
    if len(description) > MAX_DESCRIPTION_CHARS:
        raise DescriptionTooLong(
            f"description of {code} has {len(description):,} characters; the registry holds at most "
            f"{MAX_DESCRIPTION_CHARS:,}. Shorten it: say what the tool does, what each argument is "
            f"and which fields it returns, then stop."
        )


def _check_access(access: str | None) -> None:
    if access is not None and access not in ACCESS_VALUES:
        raise ValueError(f"code_mode_access must be one of {', '.join(ACCESS_VALUES)}; got {access!r}")


class Registry:
    """A tool registry in one SQLite file.

    ``create_tool`` and ``merge_tool`` follow the two registration calls of the lesson's source,
    including the difference that matters in a deployment script: ``create_tool`` gives a new tool
    access ``both`` unless told otherwise, while ``merge_tool`` keeps the access a tool already has
    when you leave the argument out.
    """

    def __init__(self, path: str | Path = ":memory:") -> None:
        self.path = str(path)
        self._con = sqlite3.connect(self.path)
        with self._con:
            self._con.execute(SCHEMA)

    # ---------- lifecycle ----------

    def close(self) -> None:
        self._con.close()

    def __enter__(self) -> Registry:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"Registry({self.path!r}, {len(self)} tools)"

    def __len__(self) -> int:
        return self._con.execute("SELECT count(*) FROM tools").fetchone()[0]

    # ---------- writing ----------

    def create_tool(
        self,
        code: str,
        description: str,
        json_schema: Mapping[str, Any] | None = None,
        *,
        function_call: str | None = None,
        tags: Iterable[str] = (),
        code_mode_access: str = "both",
        active: bool = True,
    ) -> int:
        """Register a new tool and return its id; a second tool with the same code is refused."""
        _check_description(code, description)
        _check_access(code_mode_access)
        try:
            with self._con:
                cursor = self._con.execute(
                    "INSERT INTO tools (code, description, json_schema, function_call, tags,"
                    " code_mode_access, active) VALUES (?, ?, ?, ?, ?, ?, ?)",
                    (
                        code,
                        description,
                        json.dumps(dict(json_schema or {})),
                        function_call,
                        json.dumps(list(tags)),
                        code_mode_access,
                        int(active),
                    ),
                )
        except sqlite3.IntegrityError as error:
            if "UNIQUE" in str(error):
                raise ValueError(
                    f"a tool named {code} is already registered; use merge_tool to change it"
                ) from None
            raise
        # sqlite3 sets lastrowid after every INSERT; it is None only before the first.
        return cast(int, cursor.lastrowid)

    # The deployment trap sits in one word: coalesce(:access, code_mode_access) keeps the stored
    # value whenever the caller passes nothing.
    _MERGE = """
        INSERT INTO tools (code, description, json_schema, function_call, tags, code_mode_access, active)
        VALUES (:code, :description, :json_schema, :function_call, coalesce(:tags, '[]'),
                coalesce(:access, 'both'), coalesce(:active, 1))
        ON CONFLICT (code) DO UPDATE SET
            description      = excluded.description,
            json_schema      = excluded.json_schema,
            function_call    = coalesce(:function_call, tools.function_call),
            tags             = coalesce(:tags, tools.tags),
            code_mode_access = coalesce(:access, tools.code_mode_access),
            active           = coalesce(:active, tools.active)
    """

    def merge_tool(
        self,
        code: str,
        description: str,
        json_schema: Mapping[str, Any] | None = None,
        *,
        function_call: str | None = None,
        tags: Iterable[str] | None = None,
        code_mode_access: str | None = None,
        active: bool | None = None,
    ) -> int:
        """Insert the tool or update it in place; return its id.

        Every argument left as None keeps what the row already holds. For ``code_mode_access``
        that is the trap: re-running an old script that never mentions access leaves a tool at
        ``code`` (or ``direct``) without a word. Pass the value explicitly in a deployment script.
        """
        _check_description(code, description)
        _check_access(code_mode_access)
        with self._con:
            self._con.execute(
                self._MERGE,
                {
                    "code": code,
                    "description": description,
                    "json_schema": json.dumps(dict(json_schema or {})),
                    "function_call": function_call,
                    "tags": None if tags is None else json.dumps(list(tags)),
                    "access": code_mode_access,
                    "active": None if active is None else int(active),
                },
            )
        return self.get(code).id

    def set_access(self, code: str, code_mode_access: str) -> None:
        """Change who may call a tool, leaving everything else as it is."""
        _check_access(code_mode_access)
        self._update(code, "code_mode_access = ?", code_mode_access)

    def set_active(self, code: str, active: bool) -> None:
        self._update(code, "active = ?", int(active))

    def delete_tool(self, code: str) -> None:
        self._update(code, None, None)

    def _update(self, code: str, assignment: str | None, value: Any) -> None:
        with self._con:
            if assignment is None:
                cursor = self._con.execute("DELETE FROM tools WHERE code = ?", (code,))
            else:
                cursor = self._con.execute(f"UPDATE tools SET {assignment} WHERE code = ?", (value, code))
        if cursor.rowcount == 0:
            raise UnknownTool(f"no tool named {code} is registered")

    # ---------- reading ----------

    def get(self, code: str) -> ToolRow:
        row = self._con.execute(f"SELECT {_COLUMNS} FROM tools WHERE code = ?", (code,)).fetchone()
        if row is None:
            raise UnknownTool(f"no tool named {code} is registered")
        return ToolRow.from_db(row)

    def rows(self, tags: Iterable[str] | None = None, *, active_only: bool = True) -> list[ToolRow]:
        """Tools in the order the store returns them.

        There is deliberately no ORDER BY: SQL promises no order without one, and the catalog takes
        the rows as they come, like the lesson's source does. SQLite happens to return a plain table
        scan in insertion order, which is what lets the notebook show two registries with the same
        tools producing different catalogs. ``tags`` keeps the tools carrying at least one of them.
        """
        sql = f"SELECT {_COLUMNS} FROM tools" + (" WHERE active = 1" if active_only else "")
        found = [ToolRow.from_db(row) for row in self._con.execute(sql)]
        if tags is None:
            return found
        wanted = set(tags)
        return [row for row in found if wanted.intersection(row.tags)]

    def code_callable(self, tags: Iterable[str] | None = None) -> list[ToolRow]:
        """What a program may call, in store order: the candidates for the catalog."""
        return [row for row in self.rows(tags) if row.code_callable]

    def direct_callable(self, tags: Iterable[str] | None = None) -> list[ToolRow]:
        """What the model's own tool list shows, in store order."""
        return [row for row in self.rows(tags) if row.direct_callable]

    def query(self, sql: str, parameters: Sequence[Any] | Mapping[str, Any] = ()) -> list[tuple]:
        """Run any SQL against the registry and return the rows, for looking inside."""
        return self._con.execute(sql, parameters).fetchall()

    def verify(self) -> list[tuple[str, str, int]]:
        """The lesson's verification query: code, access and active flag of every CC_ tool."""
        return self.query(VERIFICATION_QUERY)

    def __iter__(self) -> Iterator[ToolRow]:
        return iter(self.rows(active_only=False))
