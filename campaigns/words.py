"""Punctuation that belongs to the reader's language: a list reads "a, b" in English and
"a、b" in Japanese and Chinese. And what the group types, read as typed: full-width input as
plain, and whether a text shows anything at all (`visible`)."""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable

from django.utils.translation import pgettext

# Phones with Japanese or Chinese keyboards type full-width punctuation and digits: what the
# group types is read through this first (a line "ダイシー、5、7" as "ダイシー,5,7").
FULL_WIDTH = str.maketrans("：，、　－＋０１２３４５６７８９", ":,, -+0123456789")


# What a text may hold and still show nothing: spaces and line breaks, zero-width characters,
# direction marks (Unicode's separators and its control and format characters).
UNSEEN = frozenset({"Zs", "Zl", "Zp", "Cc", "Cf"})


def visible(text: str) -> bool:
    """Whether a text the group typed shows anything: a name of zero-width spaces does not."""
    return any(unicodedata.category(character) not in UNSEEN for character in text)


def joined(items: object) -> str:
    """The items in a row; `items` may be a payload's value, read in the history: anything but
    a list (or other iterable, a text aside) reads as no items."""
    if not isinstance(items, Iterable) or isinstance(items, str):
        return ""
    return pgettext("between the items of a list", ", ").join(str(item) for item in items)
