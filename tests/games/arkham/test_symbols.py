"""What the symbol tokens do: a scenario's effects and an investigator's elder sign."""

from tests.games.arkham.helpers import (
    Picks,
    add_investigator,
    set_bag,
    state,
    text,
)


def test_a_scenario_token_marked_reveal_another_chains(owner, ark):
    set_bag(ark, {"0": 1, "skull": 1}, scenario="The Gathering")
    ark.apply(
        "scenario.effects",
        {"skull": "again", "skull_value": -1, "cultist": "fail", "tablet": "", "elder_thing": ""},
        owner,
    )
    ark.apply("bag.draw", {}, owner, rng=Picks(1, 0))
    test = state(ark)["draws"][-1]
    assert [e["token"] for e in test["tokens"]] == ["skull", "0"]
    assert test["total"] == -1


def test_an_elder_sign_of_automatic_success_passes_the_test(owner_client, owner, ark):
    roland = add_investigator(owner_client, ark)
    ark.apply(
        "investigator.elder", {"investigator": roland, "modifier": 0, "auto_succeed": True}, owner
    )
    set_bag(ark, {"elder_sign": 1})
    ark.apply("bag.draw", {}, owner, rng=Picks(0))
    assert state(ark)["draws"][-1]["auto_succeed"] is True
    assert "Automatic success" in text(owner_client.get(f"/c/{ark.pk}/p/bag/"))
