"""Punctuation that belongs to the reader's language: a list reads "a, b" in English and
"a、b" in Japanese and Chinese."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.utils.translation import pgettext


def joined(items: Iterable[Any]) -> str:
    return pgettext("between the items of a list", ", ").join(str(item) for item in items)
