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


# What a text may hold and still show nothing (`visible`):
# - spaces and line breaks, and control characters (Unicode's separators, Zs Zl Zp, and Cc);
# - format characters (Cf): zero-width spaces and joiners, direction marks, tags, the soft
#   hyphen... all but the few drawn with a glyph of their own, the signs that sit before
#   a number (Unicode's Prepended_Concatenation_Mark: the Arabic number sign U+0600);
# - combining marks (Mn Mc Me, variation selectors among them): a mark shows on the letter
#   before it, so a text of marks alone, or of marks on spaces, shows nothing;
# - what Unicode asks to draw as nothing (its Default_Ignorable_Code_Point set, the Hangul
#   fillers among them, and the code points it keeps for more of them);
# - the blanks drawn as an empty space: the braille blank and the musical null notehead.
UNSEEN = frozenset({"Zs", "Zl", "Zp", "Cc"})
MARKS = frozenset({"Mn", "Mc", "Me"})
DRAWN_FORMATS = frozenset("\u0600\u0601\u0602\u0603\u0604\u0605\u06dd\u070f\u0890\u0891\u08e2")
DRAWN_FORMATS |= frozenset("\U000110bd\U000110cd")
BLANKS = frozenset("\u2800\U0001d159")
# Unicode 15.1's Default_Ignorable_Code_Point (DerivedCoreProperties.txt), first to last of
# each run; `unicodedata` does not hold the property. Its format characters and marks (most of
# it) are nothing by their category already; this adds the fillers and the reserved ones.
IGNORABLE = (
    (0x00AD, 0x00AD),
    (0x034F, 0x034F),
    (0x061C, 0x061C),
    (0x115F, 0x1160),
    (0x17B4, 0x17B5),
    (0x180B, 0x180F),
    (0x200B, 0x200F),
    (0x202A, 0x202E),
    (0x2060, 0x206F),
    (0x3164, 0x3164),
    (0xFE00, 0xFE0F),
    (0xFEFF, 0xFEFF),
    (0xFFA0, 0xFFA0),
    (0xFFF0, 0xFFF8),
    (0x1BCA0, 0x1BCA3),
    (0x1D173, 0x1D17A),
    (0xE0000, 0xE0FFF),
)


def ignorable(character: str) -> bool:
    """Whether Unicode asks to draw the character as nothing (Default_Ignorable_Code_Point)."""
    point = ord(character)
    return any(first <= point <= last for first, last in IGNORABLE)


def seen(character: str) -> bool:
    """Whether the character shows something of its own (a mark shows only on a letter)."""
    category = unicodedata.category(character)
    if category in UNSEEN or category in MARKS:
        return False
    if category == "Cf":
        return character in DRAWN_FORMATS
    return character not in BLANKS and not ignorable(character)


def visible(text: str) -> bool:
    """Whether a text the group typed shows anything: a name of zero-width spaces, of Hangul
    fillers or of an accent with no letter under it does not; "e" with an accent does."""
    return any(seen(character) for character in text)


def joined(items: object) -> str:
    """The items in a row; `items` may be a payload's value, read in the history: anything but
    a list (or other iterable, a text aside) reads as no items."""
    if not isinstance(items, Iterable) or isinstance(items, str):
        return ""
    return pgettext("between the items of a list", ", ").join(str(item) for item in items)
