"""Aeon's End: Legacy: the supply and its guided upgrade."""

from tests.games.aeonsend.helpers import act, state_of
from tests.journeys import snapshot, text

# The supply and its upgrade


def test_the_supply_upgrade_adds_two_and_banishes_the_rest(owner_client, ae):
    piles = [f"Pile {n}" for n in range(1, 10)]
    response = act(owner_client, ae, "ae.supply", piles="\n".join(piles), version=ae.version)
    assert response.status_code == 302
    assert state_of(ae)["supply"] == piles
    act(owner_client, ae, "ae.present", piles="New A\nNew B\nNew C")
    assert state_of(ae)["upgrade"] == {"presented": ["New A", "New B", "New C"]}
    page = text(owner_client.get(f"/c/{ae.pk}/"))
    assert 'name="add" value="New C"' in page and 'name="banish" value="Pile 9"' in page
    before = snapshot(ae)
    bad = act(owner_client, ae, "ae.upgrade", add=["New A"], banish=["Pile 1", "Pile 2"])
    assert bad.status_code == 422
    assert "exactly two of the presented piles" in text(bad)
    assert snapshot(ae) == before
    response = owner_client.post(
        f"/c/{ae.pk}/do/ae.upgrade/",
        {"add": ["New A", "New C"], "banish": ["Pile 2", "Pile 5"], "game": "1", "region": "s"},
    )
    assert response.status_code == 302
    state = state_of(ae)
    assert len(state["supply"]) == 9
    assert "New A" in state["supply"] and "Pile 2" not in state["supply"]
    assert [b["text"] for b in state["banished"]] == ["Pile 2", "Pile 5", "New B"]
    assert state["upgrade"] is None
    assert ae.version == before[0] + 1
    history = text(owner_client.get(f"/c/{ae.pk}/history/"))
    assert "added New A, New C; banished Pile 2, Pile 5 and New B" in history
    assert act(owner_client, ae, "ae.supply", piles="\n".join(["x"] * 2)).status_code == 422
    ten = "\n".join(f"P{n}" for n in range(10))
    assert act(owner_client, ae, "ae.supply", piles=ten).status_code == 422


def test_a_pasted_wall_of_text_is_told_in_lines_and_changes_nothing(owner_client, ae):
    """The textarea's whole limit reads as what it stands for: nine lines of 60 characters."""
    before = snapshot(ae)
    response = act(owner_client, ae, "ae.supply", piles="x" * 5000, region="supply")
    assert response.status_code == 422
    assert "At most 9 lines of 60 characters each." in text(response)
    assert "characters (it has 5000)" not in text(response)
    assert snapshot(ae) == before
