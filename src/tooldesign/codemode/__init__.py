"""Code mode (notebooks 08 and 09): what a program is told about tools, result fields, the sandbox, access, and the catalog's size limit.

``registry``        the tool registry in SQLite: code, description, schema, tags, access, active
``coldchain_tools`` CC_LIST_SHIPMENTS, CC_GET_READINGS, CC_GET_LIMITS with draft and corrected descriptions
``catalog``         the run_code description: preamble plus one line per code-callable tool, within a budget
``runner``          runs a JavaScript program in a fresh V8 isolate whose only bridge is callTool
``runs``            one question three ways: classic, code mode, code mode with the bulk tools code only
``sizelimit``       fillers, two store orders, three ways to stay inside; the explorer's logic
``widgets``         the catalog explorer widget (a thin shell over ``sizelimit``)

Run ``tooldesign codemode`` (or ``python -m tooldesign.codemode``) to print the lesson's figures.
"""

from tooldesign.codemode.catalog import BUDGET_BYTES, Catalog, build_catalog, catalog_for, model_tool_names
from tooldesign.codemode.registry import VERIFICATION_QUERY, DescriptionTooLong, Registry, ToolRow
from tooldesign.codemode.runner import ProgramCall, RunResult, run_program

__all__ = [
    "BUDGET_BYTES",
    "Catalog",
    "DescriptionTooLong",
    "Registry",
    "RunResult",
    "ToolRow",
    "VERIFICATION_QUERY",
    "ProgramCall",
    "build_catalog",
    "catalog_for",
    "model_tool_names",
    "run_program",
]
