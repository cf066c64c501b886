"""A campaign of any registered game, in a given state, in one line.

    campaign = factories.campaign("arkham", owner=user, events=[("bag.draw", {...})])

djangoproject.com's `Factory` idea without a library: plain functions with defaults that make a
valid object, keyword arguments for what a test cares about. Events go through the same
`Campaign.apply`, `undo` and `redo` a tap goes through, so the campaign is one a player could
have made; `history` bulk-inserts a long one for the benchmarks and the snapshot tests.

Tests import what makes data from here (and only from here, tests/journeys.py and their game's
helpers.py: tests/test_suite_shape.py holds them to it): users, campaigns, a signed-in client, a
valid post for every command of every game (tests/samples.py), hypothesis steps for an Any game,
and the replay check.
"""

from __future__ import annotations

import copy
import datetime
import random
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from django.contrib.auth import get_user_model
from django.test import Client
from django.utils import timezone
from hypothesis import strategies as st

from campaigns.bulk import write_history
from campaigns.commands import CommandError
from campaigns.games import GAMES
from campaigns.games.eldritch.setup import setup_of
from campaigns.history import Replay
from campaigns.models import Campaign, Event, Membership
from tests.samples import SAMPLE_POSTS, SAMPLE_SETUPS, NotYet, sample_data
from tests.typecheck import problems

__all__ = [
    "SAMPLE_POSTS",
    "SAMPLE_SETUPS",
    "STEP",
    "NotYet",
    "problems",
    "sample_data",
]

THREE_INVESTIGATORS = {
    "difficulty": "normal",
    "investigator_1": "Akachi Onyele",
    "investigator_2": "Charlie Kane",
    "investigator_3": "Diana Stanley",
}

# A set-up every registered game accepts; a test passes its own `setup` when it cares.
SETUPS: dict[str, dict[str, Any]] = {
    "any": {
        "trackers": [
            {"kind": "counter", "name": "Doom", "minimum": 0, "maximum": 12},
            {"kind": "checklist", "name": "Stickers", "items": ["A", "B", "C"]},
            {"kind": "list", "name": "Banished"},
            {"kind": "notes", "name": "Notes", "shipped": True},
            {"kind": "results", "name": "Results", "shipped": True},
        ]
    },
    "arkham": {"campaign": "notz", "difficulty": "standard"},
    "eldritch": {
        "game": setup_of({"ancient_one": "Azathoth", "players": 3, **THREE_INVESTIGATORS})
    },
    "aeonsend": {
        "players": [
            {
                "player": "Player 0",
                "character": "Ada",
                "mat": "0",
                "side": "front",
                "colour": "red",
            },
            {
                "player": "Player 1",
                "character": "Bo",
                "mat": "1",
                "side": "front",
                "colour": "white",
            },
        ],
        "solo": False,
    },
    "noir": {"case": "case2", "clue_types": 6, "win_rule": "count"},
}

# One step of a campaign's history: ("undo",), ("redo",) or (action, form data).
Step = tuple[str] | tuple[str, Mapping[str, Any]]


def user(name: str = "olive", **fields: Any) -> Any:
    """A user who signs in with "a-long-password-1", shown as the name in title case."""
    fields.setdefault("first_name", name.title())
    return get_user_model().objects.create_user(
        username=name, password="a-long-password-1", **fields
    )


def campaign(
    game: str = "any",
    *,
    owner: Any = None,
    name: str | None = None,
    setup: Mapping[str, Any] | None = None,
    members: Mapping[Any, str] | None = None,
    events: Iterable[Step] = (),
    rng: random.Random | None = None,
) -> Campaign:
    """A new campaign of `game`, owned by `owner` (made when not given), with `members`
    ({user: "player" | "viewer"}) and `events` applied in order by the owner."""
    module = GAMES[game]
    setup = copy.deepcopy(dict(setup if setup is not None else SETUPS[game]))
    name = name or {"any": "Our campaign", "arkham": "Arkham nights"}.get(game, "Gravehold")
    state = module.initial_state(setup)
    state.update(name=name, archived=False)
    made = Campaign.objects.create(
        game=game, name=name, setup=setup, initial_state=state, state=state
    )
    owner = owner if owner is not None else user(f"owner-of-{made.pk}")
    Membership.objects.create(campaign=made, user=owner, role=Membership.Role.OWNER)
    for member, role in (members or {}).items():
        Membership.objects.create(campaign=made, user=member, role=role)
    return play(made, owner, events, rng=rng)


def play(
    campaign: Campaign, user: Any, events: Iterable[Step], rng: random.Random | None = None
) -> Campaign:
    """Apply each step as `user` would from a phone: ("undo",), ("redo",) or (action, data)."""
    rng = rng or random.Random(0)
    for step in events:
        if step[0] == "undo":
            campaign.undo(user)
        elif step[0] == "redo":
            campaign.redo(user)
        else:
            action, data = step[0], step[1] if len(step) > 1 else {}
            campaign.apply(action, dict(data), user, rng=rng)
    campaign.refresh_from_db()
    return campaign


def history(campaign: Campaign, payloads: Sequence[tuple[str, Mapping[str, Any]]]) -> Campaign:
    """Append these already-resolved changes (action, payload) in bulk, as if tapped one by one
    on a campaign with no events yet: folded in memory with their snapshots and written the way
    an import writes, so a campaign of 100,000 events takes seconds, not 100,000 requests."""
    assert campaign.version == 0, "history() starts a campaign's history"
    folded = Replay(campaign.game_module.commands, campaign.initial_state)
    rows = []
    for seq, (action, payload) in enumerate(payloads, start=1):
        change = folded.do(seq, action, dict(payload))
        rows.append(
            {
                "seq": seq,
                "kind": Event.Kind.DO,
                "action": action,
                "data": dict(payload),
                "target": None,
                "chain": change.chain,
                "budget": change.budget,
                "actor": "",
                "created": timezone.now(),
            }
        )
    pks = write_history(campaign, rows, folded.snapshots)
    Campaign.objects.filter(pk=campaign.pk).update(
        state=folded.state,
        version=len(rows),
        undo_top_id=pks.get(folded.top) if folded.top is not None else None,
        redo_top_id=None,
    )
    campaign.refresh_from_db()
    return campaign


# What the new-campaign page posts for a two-player Aeon's End game (the server tests post it over
# HTTP).
TWO_PLAYER_POST = {
    "player_count": "2",
    "p1_player": "Kim",
    "p1_character": "Adelheim",
    "p1_side": "front",
    "p1_colour": "red",
    "p2_player": "Lou",
    "p2_character": "Brama",
    "p2_side": "front",
    "p2_colour": "blue",
}


def make_user(name: str) -> Any:
    return user(name)


def make_campaign(owner: Any, name: str = "Our campaign", trackers: Any = None) -> Campaign:
    """An Any game campaign with the usual trackers (or these), owned by `owner`."""
    setup = {"trackers": trackers} if trackers is not None else None
    return campaign("any", owner=owner, name=name, setup=setup)


def client_for(user: Any) -> Client:
    """A test client signed in as `user`."""
    client = Client()
    client.force_login(user)
    return client


def tracker_id(campaign: Campaign, name: str) -> int:
    campaign.refresh_from_db()
    return next(t["id"] for t in campaign.state["trackers"] if t["name"] == name)


def counts() -> tuple[int, int, int]:
    """How many campaigns, events and memberships the database holds."""
    return Campaign.objects.count(), Event.objects.count(), Membership.objects.count()


def play_and_check_replay(campaign: Campaign, user: Any, steps: Any, command_for: Any) -> Campaign:
    """Play steps on a campaign: "undo", "redo", or a command that command_for(campaign, step)
    turns into (action, data, rng), or None to skip it (a form the view would refuse). A refused
    step changes nothing; at the end the cached state equals a replay of the events."""
    for step in steps:
        before = (campaign.version, copy.deepcopy(campaign.state))
        try:
            if step[0] == "undo":
                campaign.undo(user)
            elif step[0] == "redo":
                campaign.redo(user)
            elif (command := command_for(campaign, step)) is not None:
                action, data, rng = command
                campaign.apply(action, data, user, rng=rng)
        except CommandError:
            campaign.refresh_from_db()
            assert (campaign.version, campaign.state) == before
    fresh = Campaign.objects.get(pk=campaign.pk)
    assert fresh.replay() == fresh.state
    assert fresh.version == fresh.events.count()
    return fresh


# Steps on an Any game campaign for hypothesis: step_data turns one into a tap's command.
STEP = st.one_of(
    st.tuples(st.just("adjust"), st.integers(-4, 4)),
    st.tuples(st.just("set"), st.integers(-1, 13)),
    st.tuples(st.just("check"), st.integers(0, 3), st.booleans()),
    st.tuples(st.just("list.add"), st.sampled_from(["Goblin", "Orc", "Troll"])),
    st.tuples(st.just("list.remove"), st.integers(0, 3)),
    st.tuples(st.just("list.restore"), st.integers(0, 3)),
    st.tuples(st.just("notes.add"), st.sampled_from(["a", "b"])),
    st.tuples(st.just("notes.cross"), st.integers(0, 2)),
    st.tuples(st.just("results.add"), st.sampled_from(["win", "loss", "other"])),
    st.tuples(st.just("tracker.add"), st.sampled_from(["counter", "list", "notes", "checklist"])),
    st.tuples(st.just("tracker.remove"), st.integers(1, 12)),
    st.tuples(st.just("rename"), st.sampled_from(["One", "Two"])),
    st.tuples(st.just("archive"), st.booleans()),
    st.just(("undo",)),
    st.just(("undo",)),
    st.just(("redo",)),
)


def step_data(campaign: Campaign, step: tuple) -> tuple[str, dict]:
    """The command and the cleaned form data a tap would have produced for this step."""
    state = campaign.state
    by_kind = {t["kind"]: t for t in reversed(state["trackers"])}
    kind = step[0]
    missing = 999
    if kind in ("adjust", "set"):
        counter = by_kind.get("counter", {"id": missing})
        key = "delta" if kind == "adjust" else "value"
        return f"counter.{kind}", {"tracker": counter["id"], key: step[1]}
    if kind == "check":
        checklist = by_kind.get("checklist", {"id": missing, "items": []})
        items = checklist["items"]
        item = items[step[1]]["id"] if step[1] < len(items) else missing
        return "checklist.check", {"tracker": checklist["id"], "item": item, "done": step[2]}
    if kind == "list.add":
        found = by_kind.get("list", {"id": missing})
        return kind, {"tracker": found["id"], "text": step[1], "reason": ""}
    if kind in ("list.remove", "list.restore"):
        found = by_kind.get("list", {"id": missing, "items": []})
        items = found["items"]
        item = items[step[1]]["id"] if step[1] < len(items) else missing
        data = {"tracker": found["id"], "item": item}
        if kind == "list.remove":
            data["reason"] = "r"
        return kind, data
    if kind == "notes.add":
        found = by_kind.get("notes", {"id": missing})
        return kind, {"tracker": found["id"], "text": step[1]}
    if kind == "notes.cross":
        found = by_kind.get("notes", {"id": missing, "entries": []})
        entries = found["entries"]
        item = entries[step[1]]["id"] if step[1] < len(entries) else missing
        return kind, {"tracker": found["id"], "item": item}
    if kind == "results.add":
        found = by_kind.get("results", {"id": missing})
        return kind, {
            "tracker": found["id"],
            "date": datetime.date(2024, 1, 2),
            "result": step[1],
            "score": 3,
            "notes": "",
        }
    if kind == "tracker.add":
        data = {"kind": step[1], "name": f"{step[1]} {state.get('next_id', 1)}"}
        if step[1] == "counter":
            data.update(minimum=0, maximum=5, start=None)
        if step[1] == "checklist":
            data["items"] = ["p", "q"]
        return kind, data
    if kind == "tracker.remove":
        return kind, {"tracker": step[1]}
    if kind == "rename":
        return "campaign.rename", {"name": step[1]}
    return "campaign.archive", {"archived": step[1]}
