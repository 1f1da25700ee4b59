"""Tool sets over the course's SAP data: the shape they share, the mirrored set and the designed set."""

from tooldesign.tokens import estimate_tokens
from tooldesign.tools.base import Tool, ToolSet, result_size

__all__ = ["Tool", "ToolSet", "estimate_tokens", "result_size", "SET_NAMES", "tool_set"]

SET_NAMES = ("mirror", "designed")


def tool_set(name: str) -> ToolSet:
    """A fresh tool set by name ("mirror" or "designed"); fresh means its own empty draft store."""
    # Imported here so that importing the shape never loads the data files.
    from tooldesign.tools.designed import build_designed_set
    from tooldesign.tools.mirror import build_mirror_set

    builders = {"mirror": build_mirror_set, "designed": build_designed_set}
    if name not in builders:
        raise ValueError(f"unknown tool set {name!r}; choose one of {', '.join(SET_NAMES)}")
    return builders[name]()
