"""Tool sets over the course's SAP data: the shape they share, the mirrored set and the designed set."""

from tooldesign.tokens import estimate_tokens
from tooldesign.tools.base import Tool, ToolSet, result_size

__all__ = ["Tool", "ToolSet", "estimate_tokens", "result_size", "SET_NAMES", "VARIANT_NAMES", "tool_set"]

SET_NAMES = ("mirror", "designed")
# A variant is kept for one lesson's comparison, never offered as a set to build on: notebook 06 shows
# what the designed descriptions looked like after being tuned to the word matcher.
VARIANT_NAMES = ("designed-keyword-stuffed",)


def tool_set(name: str) -> ToolSet:
    """A fresh tool set by name ("mirror" or "designed"); fresh means its own empty draft store.

    "designed-keyword-stuffed" is the designed set with the synonym-list descriptions it once had
    (notebook 06 only): same tools, same schemas, other words.
    """
    # Imported here so that importing the shape never loads the data files.
    from tooldesign.tools.designed import KEYWORD_STUFFED_DESCRIPTIONS, build_designed_set
    from tooldesign.tools.mirror import build_mirror_set

    if name == "designed-keyword-stuffed":
        return build_designed_set(descriptions=KEYWORD_STUFFED_DESCRIPTIONS, name=name)
    builders = {"mirror": build_mirror_set, "designed": build_designed_set}
    if name not in builders:
        raise ValueError(f"unknown tool set {name!r}; choose one of {', '.join(SET_NAMES + VARIANT_NAMES)}")
    return builders[name]()
