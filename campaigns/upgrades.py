"""Campaigns from earlier releases brought to this release's shape: a campaign file of an older
`format_version` (campaigns.transfer) and the campaigns already stored (migration 0007) go
through the same functions, one list per game.

A game's state changes shape now and then (806fe27 gave Eldritch Horror's game `awakening`).
Each change of shape adds one function to its game's list in `STATE`, named for the commit that
made it: it takes a state of the shape before and brings it to the shape after, in place, and
leaves a state already in that shape as it is (a file or a database holds states of every
release since 0f9b593, some of them already upgraded). They run in order, oldest first.

A change of rule can also make an old change replay differently: since 915eb5a an Arkham
scenario that starts fills in its scenario card, so a scenario started before it (and the draws
made in it) would replay with the card's symbols the group never played with. Such a change
adds a reading to `READINGS`: the history as it was played, the old changes marked so that they
replay as they did (`"card": false` on a scenario's start). Which of a history's changes were
made before the new rule is not written anywhere, so `as_played` tries the history as it is
first, then with the earliest changes marked, and takes the one whose replay gives the state the
file (or the database) holds.

Nothing here may read the models: a migration calls it with the rows' values.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Iterator
from typing import Any

from campaigns import history
from campaigns.commands import CommandError, State

# One event as a file writes it: seq, kind, action, data, target (the seq of the change an undo
# or redo takes).
Item = dict[str, object]
Upgrade = Callable[[State], None]
Reading = Callable[[list[Item]], Iterator[list[Item]]]


def eldritch_awakening_806fe27(state: State) -> None:
    """806fe27: the game on the table says what its Ancient One's awakening does. A game set up
    before played on to the final mystery, as new_game reads a set-up without one."""
    game = state.get("game")
    if isinstance(game, dict) and "awakening" not in game:
        game["awakening"] = "mystery"


STATE: dict[str, list[Upgrade]] = {
    "any": [],
    "arkham": [],
    "aeonsend": [],
    "eldritch": [eldritch_awakening_806fe27],
    "noir": [],
}


def upgrade_state(game: str, state: State) -> State:
    """A copy of `state` in this release's shape (the same state when already in it)."""
    upgraded = copy.deepcopy(state)
    for upgrade in STATE.get(game, []):
        upgrade(upgraded)
    return upgraded


def arkham_cards_915eb5a(events: list[Item]) -> Iterator[list[Item]]:
    """915eb5a: the first k scenario starts (k = all of them, then fewer) made before a start
    filled in the scenario's card, marked so that they replay without one."""
    starts = [
        item["seq"]
        for item in events
        if item.get("kind") == history.DO
        and item.get("action") == "scenario.start"
        and isinstance(item.get("data"), dict)
        and "card" not in item["data"]  # type: ignore[operator]
    ]
    for k in range(len(starts), 0, -1):
        marked = set(starts[:k])
        yield [
            {**item, "data": {**item["data"], "card": False}}  # type: ignore[dict-item]
            if item.get("seq") in marked or item.get("target") in marked
            else item
            for item in events
        ]


READINGS: dict[str, list[Reading]] = {"arkham": [arkham_cards_915eb5a]}


def fold(game: str, initial: State, events: list[Item]) -> State | None:
    """The state after `events` (None when they do not replay)."""
    from campaigns.games import GAMES

    replay = history.Replay(GAMES[game].commands, initial)
    try:
        for item in events:
            data = item.get("data")
            seq, kind, action = item.get("seq"), item.get("kind"), item.get("action")
            if not isinstance(data, dict) or not isinstance(seq, int):
                return None
            replay.step(seq, str(kind), str(action), data, item.get("target"))
    except (CommandError, history.WrongChange, *history.MALFORMED):
        return None
    return replay.state


def as_played(game: str, initial: State, events: list[Any], state: State) -> list[Any]:
    """The reading of `events` whose replay from `initial` gives `state`: the events as they
    are when they do (or when none does), else the first reading of an older release that
    does."""
    readings = READINGS.get(game, [])
    if not readings or not all(isinstance(item, dict) for item in events):
        return events
    if fold(game, initial, events) == state:
        return events
    for reading in readings:
        for candidate in reading(events):
            if fold(game, initial, candidate) == state:
                return candidate
    return events


def upgrade_stored(campaign_model: Any, event_model: Any, snapshot_model: Any) -> None:
    """Bring every stored campaign to this release's shape: its cached state, its initial
    state and every snapshot through `STATE`, its history through `READINGS` (the events whose
    payload a reading marks are saved so). Called by the data migrations with their historical
    models, so it reads only fields every migration since 0001 has."""
    for campaign in campaign_model.objects.order_by("pk").iterator():
        game = campaign.game
        state = upgrade_state(game, campaign.state)
        initial = upgrade_state(game, campaign.initial_state)
        if (state, initial) != (campaign.state, campaign.initial_state):
            campaign.state, campaign.initial_state = state, initial
            campaign.save(update_fields=["state", "initial_state"])
        for snapshot in snapshot_model.objects.filter(event__campaign=campaign.pk).iterator():
            upgraded = upgrade_state(game, snapshot.state)
            if upgraded != snapshot.state:
                snapshot.state = upgraded
                snapshot.save(update_fields=["state"])
        if game not in READINGS:
            continue
        rows = event_model.objects.filter(campaign=campaign.pk).order_by("seq")
        ids, events = [], []
        for pk, seq, kind, action, data, target in rows.values_list(
            "pk", "seq", "kind", "action", "data", "target__seq"
        ):
            ids.append(pk)
            events.append(
                {"seq": seq, "kind": kind, "action": action, "data": data, "target": target}
            )
        played = as_played(game, initial, events, state)
        for pk, before, after in zip(ids, events, played, strict=True):
            if after["data"] != before["data"]:
                event_model.objects.filter(pk=pk).update(data=after["data"])
