"""The event core (issue 22): a tap and an import refuse a change through the one exception
(CommandError), in the same words, whatever a hostile payload holds at whatever level; never a
500, nothing changed and nothing made."""

import copy
import datetime
import json

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.utils.html import escape

from campaigns.commands import Command, CommandError, default_resolve
from campaigns.games import GAMES
from campaigns.models import Campaign, Event
from campaigns.transfer import export_campaign
from tests import factories

# Values of the wrong kind for a field, and lists and objects holding them one and two levels
# further down (where a command's apply reads a list of ids, a mapping of cards...).
WRONG = [
    None,
    True,
    -1,
    10**30,
    2.5,
    "",
    "x" * 300,
    [],
    {},
    [None],
    [[[]]],
    {"id": []},
    [{"id": {"x": None}}],
    {"0": [1, "a", None]},
]


def hostile_payloads(command: Command) -> list[dict]:
    """The command's own fields (its form's) all missing, then all set to each wrong value."""
    fields = list(command.form().fields)
    return [{}, *(dict.fromkeys(fields, value) for value in WRONG)]


def tap(campaign: Campaign, action: str, payload: dict, user) -> tuple[str | None, dict]:
    """Make the change as a tap does (`Campaign.apply`): the refusal's words (None when the
    change went through) and the state it left (a change that went through is then undone, so
    that the next tap meets the same state)."""
    before = (campaign.version, campaign.state)
    try:
        campaign.apply(action, payload, user)
    except CommandError as refused:
        campaign.refresh_from_db()
        assert (campaign.version, campaign.state) == before, (action, payload)
        assert refused.message
        return refused.message, campaign.state
    after = campaign.state
    campaign.undo(user)
    campaign.refresh_from_db()
    assert campaign.state == before[1]
    return None, after


@pytest.mark.sweep  # every command of every game
@pytest.mark.parametrize("game", sorted(GAMES))
def test_every_command_refuses_a_hostile_tap_with_a_command_error(game, owner):
    """Whatever the payload holds, a change either fits or is refused with words for the user
    (a KeyError or a TypeError from a command's code was a server error)."""
    campaign = factories.campaign(game, owner=owner)
    refused = 0
    for action, command in sorted(campaign.game_module.commands.items()):
        for payload in hostile_payloads(command):
            refused += tap(campaign, action, payload, owner)[0] is not None
    assert refused > 10 * len(campaign.game_module.commands)
    assert campaign.replay() == campaign.state


def file_with(document: dict, action: str, payload: dict) -> SimpleUploadedFile:
    """The exported file of a campaign, with this change as one more event."""
    event = {
        "seq": document["version"] + 1,
        "kind": "do",
        "action": action,
        "data": payload,
        "target": None,
        "actor": None,
        "created": datetime.datetime.now(datetime.UTC).isoformat(),
    }
    events = [*document["events"], event]
    raw = json.dumps({**document, "version": len(events), "events": events}).encode()
    return SimpleUploadedFile("campaign.json", raw, content_type="application/json")


def wrong_at_every_level(payload: object) -> list[object]:
    """The payload with one value, at one place at any depth, replaced by a wrong one."""
    if isinstance(payload, dict):
        places = list(payload.items())
    elif isinstance(payload, list):
        places = list(enumerate(payload))
    else:
        return []
    variants: list[object] = []
    for key, value in places:
        for wrong in [*WRONG, *wrong_at_every_level(value)]:
            variant = copy.deepcopy(payload)
            # A dict or a list, by where `key` came from: mypy sees only the union.
            variant[key] = wrong  # type: ignore[index]
            variants.append(variant)
    return variants


# A few changes of each game, as a phone would make them on the set-up of
# `factories.campaign(game)`.
CHANGES = {
    "any": lambda state: [
        ("counter.adjust", {"tracker": tracker(state, "Doom")["id"], "delta": 1}),
        (
            "checklist.check",
            {
                "tracker": tracker(state, "Stickers")["id"],
                "item": tracker(state, "Stickers")["items"][1]["id"],
                "done": True,
            },
        ),
        ("list.add", {"tracker": tracker(state, "Banished")["id"], "text": "Goblin", "reason": ""}),
        (
            "results.add",
            {
                "tracker": tracker(state, "Results")["id"],
                "date": "2024-05-01",
                "result": "win",
                "score": 7,
            },
        ),
        ("campaign.rename", {"name": "Our second campaign"}),
    ],
    "arkham": lambda state: [
        ("bag.change", {"token": "bless", "delta": 3}),
        ("bag.set", {"token": "-1", "count": 2}),
        ("round.doom", {"delta": 1}),
    ],
    "eldritch": lambda state: [
        ("eh.gate", {"colour": "blue", "delta": 1}),
        ("eh.mystery", {"current": "The Key", "tokens": 2}),
        ("eh.log", {"date": "2026-11-01", "result": "loss", "reason": "doom", "rounds": 5}),
    ],
    "aeonsend": lambda state: [
        ("ae.banish", {"text": "Spark", "game": 1, "reason": "Too good"}),
        ("ae.card", {"name": "Spark", "kind": "spell", "cost": 1}),
        ("ae.sets", {"sets": ["AE"]}),
        ("ae.start", {"nemesis": "Rageborne", "nemesis_life": 60, "difficulty": "standard"}),
    ],
    "noir": lambda state: [
        ("noir.count", {"column": column(state), "count": "cards", "delta": 1}),
        ("noir.victim", {"column": column(state), "name": "Ada"}),
        ("noir.pile", {"pile": "madness", "delta": 1}),
    ],
}


def tracker(state: dict, name: str) -> dict:
    return next(tracker for tracker in state["trackers"] if tracker["name"] == name)


def column(state: dict) -> object:
    return state["play"]["columns"][0]["id"]


@pytest.mark.sweep  # a wrong value at every place of each game's changes
@pytest.mark.parametrize("game", sorted(GAMES))
def test_a_hostile_import_is_refused_whole_in_the_words_of_the_tap(game, owner, client):
    """A change with a wrong value at any place of its payload, made by a tap and found in an
    imported file: the tap is refused with words and changes nothing; the file is refused whole
    (422, the words next to the file field, nothing made) in the very words the tap was, or, when
    the tap took the change, because its state does not match."""
    client.force_login(owner)
    campaign = factories.campaign(game, owner=owner)
    document = export_campaign(campaign)
    refused = 0
    for action, valid in CHANGES[game](campaign.state):
        assert tap(campaign, action, valid, owner)[0] is None, (action, valid)
        # A tracker's change also keeps what it changed, for the history: taken when the tap
        # resolves, so a file holds it and a tap does not.
        same = campaign.game_module.commands[action].resolve is default_resolve
        for payload in wrong_at_every_level(valid):
            words, after = tap(campaign, action, payload, owner)
            response = client.post("/import/", {"file": file_with(document, action, payload)})
            body = response.content.decode()
            if not same:
                assert response.status_code in (302, 422), (action, payload)
                assert response.status_code == 302 or "(event 1)" in body or "match" in body
            elif words is not None:
                refused += 1
                assert response.status_code == 422, (action, payload)
                said = f"The events do not fit together (event 1): {words}"
                assert escape(said) in body, (action, payload)
            elif after != campaign.state:
                assert response.status_code == 422, (action, payload)
                assert escape("The file's state does not match its events.") in body
            else:  # a change that changes nothing: the file is the campaign as it is
                assert response.status_code == 302, (action, payload)
            if response.status_code != 302:
                assert 'class="errorlist' in body
                assert Campaign.objects.count() == 1
            Campaign.objects.exclude(pk=campaign.pk).delete()
            campaign.refresh_from_db()
            assert Event.objects.count() == campaign.version
    assert refused >= 10


def test_a_value_of_the_wrong_kind_inside_a_list_is_refused_by_tap_and_import_alike(owner, client):
    """Aeon's End's sets hold names: a list where a name goes (its code looked the name up and
    raised a TypeError, a server error for a tap) is refused in the core's words, both ways."""
    client.force_login(owner)
    campaign = factories.campaign("aeonsend", owner=owner)
    document = export_campaign(campaign)
    payload = {"sets": [["AE"]]}
    words, _after = tap(campaign, "ae.sets", payload, owner)
    assert words == "This change holds a value of the wrong kind."
    response = client.post("/import/", {"file": file_with(document, "ae.sets", payload)})
    assert response.status_code == 422
    said = "The events do not fit together (event 1): This change holds a value of the wrong kind."
    assert said in response.content.decode()
    assert Campaign.objects.count() == 1
