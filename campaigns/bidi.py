"""Text the group typed, isolated for direction.

A name holding a right-to-left character or a direction control (U+202E, the right-to-left
override) would reverse the words around it where it is shown. Such a text is wrapped in
U+2068 FIRST STRONG ISOLATE … U+2069 POP DIRECTIONAL ISOLATE, what `<bdi>` does in markup, so
it keeps its own direction and leaves the rest alone; it can go where markup cannot (inside a
translated sentence, the words of a change in the history). A text with no such character
reads the same isolated or not, and is left as it is.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Mapping

from django.utils.safestring import SafeString, mark_safe

FSI, PDI = "\u2068", "\u2069"
# Right-to-left letters and digits, and the explicit embeddings, overrides and isolates.
TURNING = {"R", "AL", "AN", "RLE", "LRE", "RLO", "LRO", "PDF", "RLI", "LRI", "FSI", "PDI"}


def turns(text: str) -> bool:
    """Whether the text could change the direction of what is around it."""
    return any(unicodedata.bidirectional(c) in TURNING for c in text)


def isolate[T](value: T) -> T | str:
    """A typed text isolated for direction when it needs to be; markup is kept as it is."""
    if not isinstance(value, str) or not turns(value):
        return value
    if isinstance(value, SafeString):
        return mark_safe(f"{FSI}{value}{PDI}")
    return f"{FSI}{value}{PDI}"


def isolate_payload(payload: Mapping[str, object]) -> dict[str, object]:
    """Every typed text in a change's payload isolated, for its words in the history."""
    return {key: isolate_all(value) for key, value in payload.items()}


def isolate_all(value: object) -> object:
    """Every typed text in a change's payload isolated (lists and mappings walked)."""
    if isinstance(value, str):
        return isolate(value)
    if isinstance(value, list):
        return [isolate_all(v) for v in value]
    if isinstance(value, dict):
        return {k: isolate_all(v) for k, v in value.items()}
    return value
