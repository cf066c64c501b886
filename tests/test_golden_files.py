"""Nothing lost across an upgrade: every campaign file in tests/data, exported by an earlier
release (or this one) with a game in progress, imports into this release forever, in this
release's shape, and plays on. tests/data/make_golden.py made them (its docstring says how to
add a release's files); tests/data/README.md lists the releases and the shapes they hold."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from campaigns.games import GAMES
from campaigns.models import Campaign
from campaigns.transfer import FORMAT_VERSION
from campaigns.upgrades import upgrade_state
from tests.factories import client_for
from tests.journeys import page_urls, upload

DATA = Path(__file__).parent / "data"
FILES = sorted(DATA.glob("*.json"))


def test_every_game_has_a_file_of_the_oldest_release_and_of_this_one():
    games = {path.name.split("-")[0] for path in FILES}
    assert games == set(GAMES)
    for game in GAMES:
        versions = {
            json.loads(path.read_text())["format_version"]
            for path in FILES
            if path.name.startswith(f"{game}-")
        }
        assert (DATA / f"{game}-0f9b593.json").exists(), game
        assert {1, FORMAT_VERSION} <= versions, game


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_a_file_of_any_release_imports_shows_and_plays_on(path, owner):
    raw = path.read_bytes()
    document = json.loads(raw)
    game = document["game"]
    client = client_for(owner)
    response = upload(client, raw)
    assert response.status_code == 302, response.content.decode()[-1500:]
    campaign = Campaign.objects.get()
    assert response.url == f"/c/{campaign.pk}/"
    assert f"Imported “{document['name']}”." in client.get(response.url).content.decode()

    # What the file shows, in this release's shape; the stored history replays to it.
    assert campaign.version == document["version"]
    assert campaign.state == upgrade_state(game, document["state"])
    assert campaign.replay() == campaign.state
    if game == "eldritch":
        # A game set up before the awakening was the Ancient One's fact goes to the final
        # mystery, as it did when it was played.
        assert campaign.state["game"]["awakening"] == "mystery"
    if game == "arkham":
        # The tests drawn read as they were drawn (a scenario started before the scenario
        # cards has no card's symbols).
        assert campaign.state["draws"] == document["state"]["draws"]
        assert ("card" in campaign.state) == ("card" in document["state"])
    for url in page_urls(campaign):
        assert client.get(url).status_code == 200, url

    # It plays on: the latest change undoes and comes back.
    imported = campaign.state
    response = client.post(f"/c/{campaign.pk}/undo/", {"version": campaign.version})
    assert response.status_code == 302
    campaign.refresh_from_db()
    assert campaign.version == document["version"] + 1
    assert campaign.state != imported
    assert client.get(f"/c/{campaign.pk}/").status_code == 200
    response = client.post(f"/c/{campaign.pk}/redo/", {"version": campaign.version})
    assert response.status_code == 302
    campaign.refresh_from_db()
    assert campaign.state == imported
