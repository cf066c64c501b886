"""Arkham Noir's refusals: a change the rules (or the numbers on the table) do not allow, with
an English message marked for translation (``rules.md`` §4; used by ``noir`` and
``noir_corrections``)."""

from __future__ import annotations


def gettext_noop(message: str) -> str:
    """Marks a message for the catalogues; the caller translates it when it shows it."""
    return message


class NoirError(ValueError):
    """A change the rules (or the numbers on the table) do not allow."""

    def __init__(self, message: str, field: str = "", **params: object) -> None:
        super().__init__(message % params if params else message)
        self.message = message
        self.field = field
        self.params = params
