"""Fixtures for the Aeon's End: Legacy tests."""

import pytest

from tests.games.aeonsend.helpers import CARDS, make_ae


@pytest.fixture
def ae(owner):
    return make_ae(owner)


@pytest.fixture
def furnished(owner):
    """A 3-player campaign with something in every list, so ids in the garbage can hit."""
    campaign = make_ae(owner, "Ada", "Bo", "Cy")
    row = {"date": "2024-03-01", "chapter": 1, "nemesis": "Maelstrom", "result": "win"}
    row.update(gravehold=12, nemesis_life=0, life_1=4, life_2=0, life_3=1, rounds=9, notes="")
    for action, values in [
        ("ae.start", {"nemesis": "Maelstrom", "nemesis_life": 50}),
        ("ae.banish", {"text": "Spark", "game": None, "reason": ""}),
        ("ae.mage", {"player": 0, "kind": "upgrade", "text": "x", "game": None}),
        ("ae.score", row),
        *(("ae.card", {"name": n, "kind": k, "cost": c}) for n, k, c in CARDS),
        ("ae.supply", {"piles": list("ABCDEFGHI")}),
        ("ae.present", {"piles": ["X", "Y", "Z"]}),
    ]:
        campaign.apply(action, values, owner)
    for _ in range(2):
        campaign.apply("ae.draw", {}, owner)
        pending = campaign.state["table"]["deck"]["pending"]
        if pending:
            campaign.apply("ae.choose", {"name": pending["options"][0]}, owner)
    return campaign
