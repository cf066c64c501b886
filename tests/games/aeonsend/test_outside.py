"""Aeon's End: Legacy outside the campaign: the supply randomizer and the nemesis deck builder."""

import copy
import re

import pytest

from campaigns.games.aeonsend import data
from tests.games.aeonsend.helpers import CARDS, GAME, act, state_of
from tests.journeys import snapshot, text

# Outside the campaign


def add_cards(client, campaign, cards):
    for name, kind, cost in cards:
        response = act(client, campaign, "ae.card", name=name, kind=kind, cost=cost)
        assert response.status_code == 302, text(response)


def roll(client, campaign, **values):
    values = {"gems": "3", "relics": "2", "spells": "4", "gem3": "on", "region": "roll", **values}
    return act(client, campaign, "ae.roll", **values)


def test_the_randomizer_leaves_out_banished_cards_and_keeps_a_gem_costing_3(owner_client, ae):
    add_cards(owner_client, ae, CARDS)
    act(owner_client, ae, "ae.banish", text="gem 1")  # cost 3
    act(owner_client, ae, "ae.banish", text="Spell 0")
    for _ in range(8):
        assert roll(owner_client, ae).status_code == 302
        outside = state_of(ae)["outside"]
        cards = {c["id"]: c for c in outside["cards"]}
        picked = [cards[i] for i in outside["supply"]]
        assert [c["kind"] for c in picked].count("gem") == 3
        assert [c["kind"] for c in picked].count("relic") == 2
        assert [c["kind"] for c in picked].count("spell") == 4
        assert "Gem 1" not in [c["name"] for c in picked]
        assert "Spell 0" not in [c["name"] for c in picked]
        assert any(c["kind"] == "gem" and c["cost"] == 3 for c in picked)


def test_locked_cards_stay_on_a_re_roll(owner_client, ae):
    add_cards(owner_client, ae, CARDS)
    roll(owner_client, ae)
    outside = state_of(ae)["outside"]
    keep = outside["supply"][:2]
    for item in keep:
        assert act(owner_client, ae, "ae.lock", item=item, locked="true").status_code == 302
    for _ in range(5):
        roll(owner_client, ae)
        assert set(keep) <= set(state_of(ae)["outside"]["supply"])
    page = text(owner_client.get(f"/c/{ae.pk}/p/outside/"))
    assert page.count('aria-checked="true"') == 2


def test_the_randomizer_says_when_the_list_is_too_short(owner_client, ae):
    add_cards(owner_client, ae, CARDS[:2])
    before = snapshot(ae)
    response = roll(owner_client, ae)
    assert response.status_code == 422
    assert "Your list has only 2 gems that are not banished; 3 are needed." in text(response)
    assert roll(owner_client, ae, gems="9", relics="1").status_code == 422
    assert snapshot(ae) == before


def test_a_rolled_payload_that_does_not_fit_is_refused_on_apply(owner, ae, owner_client):
    add_cards(owner_client, ae, CARDS)
    state = state_of(ae)
    gems = [c["id"] for c in state["outside"]["cards"] if c["kind"] == "gem"][:3]
    payload = {"gems": 3, "relics": 0, "spells": 0, "gem3": False, "picked": gems[:2]}
    with pytest.raises(Exception, match="does not match"):
        GAME.commands["ae.roll"].apply(copy.deepcopy(state), payload)


def test_the_nemesis_deck_builder_follows_the_chart(owner_client, ae):
    page = text(owner_client.get(f"/c/{ae.pk}/p/outside/"))
    for players, tiers in data.NEMESIS_CHART.items():
        for tier, value in zip(data.TIERS, tiers, strict=True):
            cell = re.search(rf'<input type="number" name="c{players}_{tier}"[^>]*>', page)
            assert cell, (players, tier)
            for attribute in (f'value="{value}"', 'min="0"', 'max="30"', "required"):
                assert attribute in cell.group(0)
    act(owner_client, ae, "ae.build", players="2")
    page = text(owner_client.get(f"/c/{ae.pk}/p/outside/"))
    assert "For 2 players" in page and "+ 3 basic cards" in page and "+ 5 basic cards" in page
    chart = {
        f"c{p}_{t}": str(v)
        for p, tiers in data.NEMESIS_CHART.items()
        for t, v in zip(data.TIERS, tiers, strict=True)
    }
    chart["c2_1"] = "2"
    state_of(ae)
    response = act(owner_client, ae, "ae.chart", version=ae.version, **chart)
    assert response.status_code == 302
    assert state_of(ae)["outside"]["chart"]["2"] == [2, 5, 7]
    for n in range(3):
        act(owner_client, ae, "ae.nemesis_card", name=f"Basic {n}", tier="1")
    act(owner_client, ae, "ae.build", players="2")
    build = state_of(ae)["outside"]["build"]
    assert len(build["tiers"][0]) == 2 and build["tiers"][1] == []
    response = act(owner_client, ae, "ae.build", players="4", region="nemesis-deck")
    assert response.status_code == 422
    assert "Tier 1 needs 8 basic cards; your list has 3." in text(response)


def test_a_roll_or_a_build_from_a_screen_that_had_not_seen_the_last_one_is_refused(
    owner_client, ae
):
    add_cards(owner_client, ae, CARDS)
    ae.refresh_from_db()
    seen = ae.version
    assert roll(owner_client, ae, version=seen, htmx=True).status_code == 200
    rolled = state_of(ae)["outside"]["supply"]
    second = roll(owner_client, ae, version=seen, htmx=True)
    assert second.status_code == 409
    assert "Changed meanwhile by your earlier tap on this phone" in text(second)
    assert state_of(ae)["outside"]["supply"] == rolled and ae.version == seen + 1
    shown = {c["id"]: c["name"] for c in state_of(ae)["outside"]["cards"]}
    assert all(shown[i] in text(second) for i in rolled)

    seen = ae.version
    build = {"players": "2", "region": "nemesis-deck", "version": seen}
    assert act(owner_client, ae, "ae.build", htmx=True, **build).status_code == 200
    assert act(owner_client, ae, "ae.build", htmx=True, **build).status_code == 409
    ae.refresh_from_db()
    assert ae.version == seen + 1
