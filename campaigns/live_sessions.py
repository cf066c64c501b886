"""What a stream checks of its session and its membership (campaigns/live.py asks).

A stream pushes whole pages, so it must stop as soon as the phone could no longer ask for them
itself: its session ended or expired, its user's password changed, its member was removed or
given another role. These read that for many streams at once, in a few queries.
"""

from __future__ import annotations

import hashlib
from importlib import import_module
from typing import TYPE_CHECKING

from django.conf import settings
from django.contrib.sessions.base_session import AbstractBaseSession
from django.db import connection
from django.db.models import F
from django.utils import timezone
from django.utils.crypto import constant_time_compare

if TYPE_CHECKING:
    from campaigns.live import Watch


def digest(session_key: str) -> str:
    """What a notice names a session by: its key stays out of the notices (PostgreSQL shows
    them to every listener)."""
    return hashlib.sha256(session_key.encode()).hexdigest()[:32]


def session_model() -> type[AbstractBaseSession]:
    """The model the site's sessions are kept in. A stream checks its session without a request
    of its own, so the sessions must be in the database (Django's default engine, as here)."""
    return import_module(settings.SESSION_ENGINE).SessionStore.get_model_class()


def refused(watches: list[Watch]) -> dict[Watch, str]:
    """Why each of these streams may not go on, in three queries for all of them: "login" (its
    session ended or expired, or its user changed the password or was deactivated, as
    `django.contrib.auth.get_user` would find on the phone's next request), "removed" or
    "role" (the member's role is not the one the page was drawn for). The streams that may go
    on learn when their session expires now (a session saved meanwhile lasts longer)."""
    from django.contrib.auth import get_user_model

    from campaigns.models import Membership

    # (A stream still opening is checked as it opens.)
    members = {
        watch: watch.user_id for watch in watches if watch.user_id is not None and watch.opened
    }
    if not members:
        return {}
    try:
        sessions = dict(
            session_model()
            .objects.filter(
                session_key__in={watch.session_key for watch in members},
                expire_date__gt=timezone.now(),
            )
            .values_list("session_key", "expire_date")
        )
        users = {
            pk: (password, active)
            for pk, password, active in get_user_model()
            .objects.filter(pk__in=set(members.values()))
            .values_list("pk", "password", "is_active")
        }
        roles = {
            (campaign, user): role
            for campaign, user, role in Membership.objects.filter(
                campaign_id__in={watch.campaign_id for watch in members},
                user_id__in=users,
            ).values_list("campaign_id", "user_id", "role")
        }
    finally:
        if not connection.in_atomic_block:
            connection.close()
    verdicts = {}
    for watch, user_id in members.items():
        expires = sessions.get(watch.session_key)
        password, active = users.get(user_id, ("", False))
        role = roles.get((watch.campaign_id, user_id))
        if expires is None or not active or not same_password(watch, password):
            verdicts[watch] = "login"
        elif role is None:
            verdicts[watch] = "removed"
        elif role != watch.role:
            verdicts[watch] = "role"
        else:
            watch.expires = expires.timestamp()
    return verdicts


def same_password(watch: Watch, password: str) -> bool:
    """Whether the user's session auth hash (Django's, made from the password hash) is still
    the one the stream's session holds: worked out again only when the password changed."""
    if password == watch.password:
        return True
    from django.contrib.auth import get_user_model

    user = get_user_model()(pk=watch.user_id, password=password)
    return constant_time_compare(user.get_session_auth_hash(), watch.auth_hash)


def concerns_who_may_look(notice: str) -> bool:
    """Whether a notice (campaigns/live.py) changes who may look: a session ended (`session …`),
    an account saved (`user …`), a member removed or given another role, the table display's
    link made anew (`<campaign> left|role|display …`)."""
    first, _, rest = notice.partition(" ")
    return first in {"session", "user"} or rest.split(" ", 1)[0] in {"left", "role", "display"}


def who_may_look_moved(using: str) -> None:
    """Count a change to who may look, in the change's own transaction (SQLite: the watchers of
    every process read the count)."""
    from campaigns.models import LiveStamp

    stamps = LiveStamp.objects.using(using)
    if not stamps.filter(pk=1).update(changes=F("changes") + 1):
        stamps.get_or_create(pk=1, defaults={"changes": 1})


def who_may_look_count() -> int:
    from campaigns.models import LiveStamp

    return LiveStamp.objects.filter(pk=1).values_list("changes", flat=True).first() or 0
