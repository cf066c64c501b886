"""Who makes a change, and who may: the id a phone gives each change, the double tap's
window, and the roles that may make, undo or redo a command (campaigns/models.py applies them).
"""

from __future__ import annotations

import datetime
import re
from typing import TYPE_CHECKING, TypedDict

from django.conf import settings
from django.utils.translation import gettext

from campaigns.commands import CommandError

if TYPE_CHECKING:
    from django.contrib.auth.models import AnonymousUser
    from django.contrib.auth.models import User as AuthUser

    from campaigns.games.base import Game
    from campaigns.models import Event, Membership

# Who makes a change: a member, a visitor not logged in, or no one (a script, a test).
type User = AuthUser | AnonymousUser | None


class Asked(TypedDict, total=False):
    """How an undo or redo was asked for, beside who asked and the event the phone showed."""

    change: str | None  # the id the phone gave it (a change sent again is made once)
    role: str | None  # the member's role (None: no member asks, a script or a test)


# The id a phone gives each change it sends ("<phone>.<tap>", made by live.js), so a change sent
# again after its answer was lost (the Wi-Fi dropped, the server restarted) is applied once.
CHANGE_ID = re.compile(r"^[A-Za-z0-9_-]{8,40}(\.[A-Za-z0-9_-]{1,20})?$")


def phone_of(change: str | None) -> str:
    return change.partition(".")[0] if change else ""


# A tap on a button with a random outcome this soon after the same phone's previous one is
# that tap again: a double tap whose second tap came after the first one's answer (issue 21).
def same_tap() -> datetime.timedelta:
    return datetime.timedelta(milliseconds=settings.COMPANION_SAME_TAP_MS)


class NotAllowed(CommandError):
    """The member's role may not make (nor undo, nor redo) this change."""


def check_role(game: Game, action: str, role: str | None) -> None:
    command = game.commands.get(action)
    if role is not None and command is not None and role not in command.roles:
        raise NotAllowed(gettext("Only the owner can do that."))


def may_make(game: Game, event: Event | None, membership: Membership) -> bool:
    """Whether the member may undo or redo this change (False when there is none)."""
    if event is None or not membership.can_change:
        return False
    command = game.commands.get(event.action)
    return command is None or membership.role in command.roles
