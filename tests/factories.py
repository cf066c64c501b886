"""A campaign of any registered game, in a given state, in one line.

    campaign = factories.campaign("arkham", owner=user, events=[("bag.draw", {...})])

djangoproject.com's `Factory` idea without a library: plain functions with defaults that make a
valid object, keyword arguments for what a test cares about. Events go through the same
`Campaign.apply`, `undo` and `redo` a tap goes through, so the campaign is one a player could
have made; `history` bulk-inserts a long one for the benchmarks and the snapshot tests.
"""

from __future__ import annotations

import copy
import random
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from django.contrib.auth import get_user_model
from django.utils import timezone

from campaigns.bulk import write_history
from campaigns.games import GAMES
from campaigns.games.eldritch.setup import setup_of
from campaigns.history import Replay
from campaigns.models import Campaign, Event, Membership

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
