"""Text from a program or a learner, made safe to show: the one function every printout passes.

Text a program printed reaches a terminal, a notebook and a model's context. Some characters in it
are commands to whatever shows them, not text: ESC starts sequences that clear a screen, set a
window's title or write the clipboard; a carriage return lets a later line overwrite an earlier
one; the bidirectional controls (U+202A..U+202E, U+2066..U+2069) reorder what follows, so a line
reads differently from what it holds; zero-width and other format characters hide text. Each of
them is shown as its escape (``\\x1b``, ``\\r``, ``\\u202e``), so a reader sees that it was there
and nothing acts on it. Newlines and tabs stay: they are how printed text is laid out.
"""

from __future__ import annotations

import re
import unicodedata

__all__ = ["visible"]

# The categories that act rather than show: controls (Cc: C0, DEL, C1 with ESC and CSI), format
# characters (Cf: bidi controls, zero-width ones, the byte-order mark), line and paragraph
# separators (Zl, Zp), and surrogates that are not part of a pair (Cs).
_ACTING = ("Cc", "Cf", "Zl", "Zp", "Cs")
_CANDIDATE = re.compile(r"[^\x20-\x7e\n\t]")  # printable ASCII never acts; the rest is looked up
_NAMED = {"\r": "\\r", "\x1b": "\\x1b"}


def _shown(found: re.Match[str]) -> str:
    char = found.group()
    if unicodedata.category(char) not in _ACTING:
        return char
    if char in _NAMED:
        return _NAMED[char]
    code = ord(char)
    if code < 0x100:
        return f"\\x{code:02x}"
    return f"\\u{code:04x}" if code < 0x10000 else f"\\U{code:08x}"


def visible(text: str) -> str:
    """``text`` with every character that would act on the display written as its escape."""
    return _CANDIDATE.sub(_shown, text)
