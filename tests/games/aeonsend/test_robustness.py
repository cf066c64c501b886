"""Aeon's End: Legacy: malformed posts and hostile payloads are refused, never a 500; an export
imports with the same state."""

import copy
import json

import pytest

from campaigns.commands import CommandError
from campaigns.models import Campaign
from campaigns.transfer import export_campaign, import_campaign
from tests.games.aeonsend.helpers import GAME
from tests.journeys import HTMX

# Malformed requests are refused, never a 500

GARBAGE = ["", "abc", "-1", "9" * 30, "\x00", "x" * 6000]


@pytest.mark.sweep
def test_every_malformed_post_to_an_action_is_refused_not_a_500(owner_client, furnished):
    for action in sorted(GAME.commands):
        fields = list(GAME.commands[action].form().fields)
        url = f"/c/{furnished.pk}/do/{action}/"
        payloads: list[dict] = [{}]
        for index, value in enumerate(GARBAGE):
            payload = {**dict.fromkeys(fields, value), "region": value, "version": value}
            if index % 2:
                payload.update(item="1", player="0", who="0")
            payloads.append(payload)
        payloads.append(
            {field: [value, "1"] for field, value in zip(fields, GARBAGE, strict=False)}
        )
        for index, payload in enumerate(payloads):
            headers = {} if index == 0 else HTMX
            response = owner_client.post(url, payload, **headers)
            assert response.status_code in (200, 302, 409, 422), (action, payload)
    furnished.refresh_from_db()
    assert furnished.replay() == furnished.state


HOSTILE = [
    {"card": 5},
    {"card": None},
    {"card": ["Ada"]},
    {"letters": "A"},
    {"letters": [1, 2]},
    {"who": 0, "delta": 1},
    {"item": "1"},
    {"picked": {"a": 1}, "gems": 1, "relics": 0, "spells": 0, "gem3": False},
    {"tiers": "x", "players": 2},
    {"tiers": [[1.5], [], []], "players": 2},
    {"players": 9},
    {"key": ["stop-E"], "opened": True, "note": ""},
    {"to": None},
    {"add": "New A", "banish": [], "game": None},
]


def test_a_hostile_payload_is_refused_by_apply(owner, furnished):
    """An imported file's payloads go through apply: each command refuses what does not fit
    with a CommandError, never another exception."""

    for payload in HOSTILE:
        for action, command in GAME.commands.items():
            state = copy.deepcopy(furnished.state)
            try:
                command.apply(state, copy.deepcopy(payload))
            except CommandError:
                pass
            except Exception as error:  # pragma: no cover - the assertion says which
                raise AssertionError(f"{action} with {payload}: {error!r}") from error


# Export and import


def test_an_exported_campaign_imports_with_the_same_state(owner, owner_client, furnished):

    furnished.undo(owner)
    furnished.refresh_from_db()
    document = export_campaign(furnished)

    copy_ = import_campaign(json.dumps(document).encode(), owner)
    assert copy_.state == furnished.state
    assert copy_.game == "aeonsend"
    copy_.redo(owner)
    furnished.redo(owner)
    assert Campaign.objects.get(pk=copy_.pk).state["table"] == furnished.state["table"]
