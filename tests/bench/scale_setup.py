"""bench_scale's phones, made in the site's database (`manage.py shell`): the watched campaign
(Arkham, a scenario under way), the idle ones, their members and a session for each phone, as
if each had logged in. Prints them as JSON."""

from __future__ import annotations

import json
import secrets
from datetime import timedelta

from django.contrib.auth import get_user_model
from django.contrib.sessions.backends.db import SessionStore
from django.contrib.sessions.models import Session
from django.utils import timezone

from campaigns.games import GAMES
from campaigns.models import Campaign, Membership

User = get_user_model()
INVESTIGATORS = (("Roland Banks", "Ann"), ("Daisy Walker", "Bo"), ("Agnes Baker", "Cy"))
IDLE_SETUP = {"trackers": [{"kind": "counter", "name": "Doom", "minimum": 0, "maximum": 12}]}


def campaign(game: str, setup: dict, name: str) -> Campaign:
    state = GAMES[game].initial_state(setup)
    state.update(name=name, archived=False)
    return Campaign.objects.create(
        game=game, name=name, setup=setup, initial_state=state, state=state
    )


def people(prefix: str, count: int) -> list:
    """`count` users who have no password (they have a session only)."""
    User.objects.bulk_create(
        [User(username=f"{prefix}{n}", first_name=f"P{n}", password="!") for n in range(count)]
    )
    return list(User.objects.filter(username__startswith=prefix).order_by("pk"))


def sessions(users: list) -> list[str]:
    """A logged-in session for each user: the session keys, the phones' cookies."""
    store, keys, rows = SessionStore(), [], []
    later = timezone.now() + timedelta(days=1)
    for user in users:
        key = secrets.token_hex(16)
        data = {
            "_auth_user_id": str(user.pk),
            "_auth_user_hash": user.get_session_auth_hash(),
            "_auth_user_backend": "django.contrib.auth.backends.ModelBackend",
        }
        rows.append(Session(session_key=key, session_data=store.encode(data), expire_date=later))
        keys.append(key)
    Session.objects.bulk_create(rows)
    return keys


def make(watchers: int, idle_campaigns: int, idle_each: int) -> None:
    owner = people("owner", 1)[0]
    watched = campaign("arkham", {"campaign": "notz", "difficulty": "standard"}, "Watched table")
    Membership.objects.create(campaign=watched, user=owner, role="owner")
    watching = people("watcher", watchers)
    Membership.objects.bulk_create(
        [Membership(campaign=watched, user=user, role="player") for user in watching]
    )
    for name, player in INVESTIGATORS:
        investigator = {"name": name, "player": player, "health": 9, "sanity": 5}
        watched.apply("investigator.add", investigator, owner)
    watched.apply("scenario.start", {"name": "The Gathering"}, owner)
    idle_users = people("idle", idle_campaigns * idle_each)
    idle, members = [], []
    for n in range(idle_campaigns):
        table = campaign("any", IDLE_SETUP, f"Idle {n}")
        for user in idle_users[n * idle_each : (n + 1) * idle_each]:
            members.append(Membership(campaign=table, user=user, role="player"))
            idle.append(table.pk)
    Membership.objects.bulk_create(members)
    made = {
        "campaign": watched.pk,
        "owner": sessions([owner])[0],
        "watchers": sessions(watching),
        "idle": list(zip(idle, sessions(idle_users), strict=True)),
    }
    print(json.dumps(made))
