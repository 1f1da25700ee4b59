"""Tool sets over the course's SAP data: the shape they share, the mirrored set and the designed set."""
from tooldesign.tools.base import Tool, ToolSet, estimate_tokens, result_size

__all__ = ["Tool", "ToolSet", "estimate_tokens", "result_size"]
