"""Investigators: trauma, XP, killed or insane, replacement, story assets and weaknesses."""

import re

import pytest

from tests.games.arkham.helpers import (
    add_investigator,
    investigator,
    post,
    scenario_post,
    state,
    text,
)
from tests.journeys import snapshot


@pytest.mark.parametrize("htmx", [False, True], ids=["post", "htmx"])
def test_trauma_kills_at_health_and_drives_insane_at_sanity(owner_client, ark, htmx):
    roland = add_investigator(owner_client, ark, health=2, sanity=1)
    for _ in range(2):
        response = post(
            owner_client,
            ark,
            "investigator.trauma",
            htmx,
            investigator=roland,
            kind="physical",
            delta=1,
            region=f"inv-{roland}",
        )
        assert response.status_code == (200 if htmx else 302)
    assert investigator(ark, roland)["status"] == "killed"
    page = text(owner_client.get(f"/c/{ark.pk}/"))
    assert "Replace Roland Banks" in page
    agnes = add_investigator(owner_client, ark, name="Agnes Baker", health=6, sanity=1)
    post(owner_client, ark, "investigator.trauma", investigator=agnes, kind="mental", delta=1)
    assert investigator(ark, agnes)["status"] == "insane"


def test_killed_stays_killed_for_the_rest_of_the_campaign(owner_client, owner, ark):
    # Killed or driven insane is for good: less trauma, or a tap on "in play", brings no one back;
    # only undoing the change that marked them does.
    roland = add_investigator(owner_client, ark, health=2)
    post(owner_client, ark, "investigator.trauma", investigator=roland, kind="physical", delta=2)
    post(owner_client, ark, "investigator.trauma", investigator=roland, kind="physical", delta=-1)
    assert investigator(ark, roland)["status"] == "killed"
    page = text(owner_client.get(f"/c/{ark.pk}/"))
    assert "Back in play" not in page
    before = snapshot(ark)
    tap = {"investigator": roland, "status": "active", "region": f"inv-{roland}"}
    response = post(owner_client, ark, "investigator.mark", True, **tap)
    assert response.status_code == 422
    assert (
        "Roland Banks was killed and cannot come back in this campaign: undo the change that "
        "marked them instead." in text(response)
    )
    assert snapshot(ark) == before
    ark.undo(owner)  # the trauma -1
    ark.undo(owner)  # the trauma +2 that killed him
    assert investigator(ark, roland)["status"] == "active"


def test_a_history_played_before_the_rule_still_replays_as_it_was_played(owner, ark):
    # A group that brought someone back before killed-is-for-good (the old "Back in play"
    # button) keeps its history: replay, undo and import read the stored event as it was.
    from campaigns.models import Event

    ark.apply("investigator.add", {"name": "Roland Banks", "health": 2, "sanity": 5}, owner)
    roland = ark.state["investigators"][-1]["id"]
    ark.apply("investigator.mark", {"investigator": roland, "status": "killed"}, owner)
    # The event the old button stored, written as it was then.
    last = ark.events.order_by("-seq").first()
    Event.objects.create(
        campaign=ark,
        seq=last.seq + 1,
        kind=Event.Kind.DO,
        action="investigator.mark",
        data={"investigator": roland, "status": "active", "name": "Roland Banks"},
        actor=last.actor,
        actor_name=last.actor_name,
    )
    assert next(i for i in ark.replay()["investigators"] if i["id"] == roland)["status"] == (
        "active"
    )


def test_insane_stays_insane_when_marked_by_the_group(owner_client, owner, ark):
    agnes = add_investigator(owner_client, ark, name="Agnes Baker")
    ark.apply("investigator.mark", {"investigator": agnes, "status": "insane"}, owner)
    response = post(
        owner_client,
        ark,
        "investigator.mark",
        True,
        investigator=agnes,
        status="active",
        region=f"inv-{agnes}",
    )
    assert response.status_code == 422
    assert "Agnes Baker was driven insane and cannot come back in this campaign" in text(response)
    assert investigator(ark, agnes)["status"] == "insane"


def test_negative_trauma_is_refused_next_to_the_investigator(owner_client, ark):
    roland = add_investigator(owner_client, ark)
    before = snapshot(ark)
    response = post(
        owner_client,
        ark,
        "investigator.trauma",
        True,
        investigator=roland,
        kind="mental",
        delta=-1,
        region=f"inv-{roland}",
    )
    assert response.status_code == 422
    body = text(response)
    assert "Roland Banks's mental trauma cannot go below 0." in body
    assert re.search(rf'id="inv-{roland}".*role="alert"', body, re.S)
    assert snapshot(ark) == before


def test_a_minus_that_can_go_no_further_is_off(owner_client, ark):
    """No trauma below 0 and no XP earned below what was spent: the table page draws those −
    steps disabled, as every counter's is at its bound, and enables them once they can go."""

    def minus(label: str) -> str:
        page = text(owner_client.get(f"/c/{ark.pk}/"))
        found = re.search(rf'<button[^>]*aria-label="{label} minus one"[^>]*>', page)
        assert found, label
        return "off" if " disabled" in found[0] else "on"

    roland = add_investigator(owner_client, ark)
    assert [minus(s) for s in ("Physical trauma", "Mental trauma", "XP")] == ["off"] * 3
    for kind in ("physical", "mental"):
        post(owner_client, ark, "investigator.trauma", investigator=roland, kind=kind, delta=1)
    post(owner_client, ark, "investigator.xp", investigator=roland, delta=2)
    assert [minus(s) for s in ("Physical trauma", "Mental trauma", "XP")] == ["on"] * 3
    post(owner_client, ark, "investigator.buy", investigator=roland, card="Lucky!", level=2)
    assert investigator(ark, roland)["spent"] == 2
    assert minus("XP") == "off"


def test_xp_is_earned_and_spent_at_its_level_at_least_one(owner_client, ark):
    roland = add_investigator(owner_client, ark)
    post(owner_client, ark, "investigator.xp", investigator=roland, delta=4)
    post(owner_client, ark, "investigator.buy", investigator=roland, card="Lucky!", level=0)
    post(owner_client, ark, "investigator.buy", investigator=roland, card="Deduction", level=2)
    found = investigator(ark, roland)
    assert (found["xp"], found["spent"]) == (4, 3)
    assert found["purchases"][-1] == {"card": "Deduction", "level": 2, "cost": 2}
    before = snapshot(ark)
    response = post(
        owner_client,
        ark,
        "investigator.buy",
        True,
        investigator=roland,
        card="Shotgun",
        level=4,
        region=f"inv-{roland}",
    )
    assert response.status_code == 422
    assert "Not enough XP: that costs 4 and Roland Banks has 1 unspent." in text(response)
    assert snapshot(ark) == before
    response = post(owner_client, ark, "investigator.xp", investigator=roland, delta=-2)
    assert response.status_code == 422
    assert snapshot(ark) == before
    history = text(owner_client.get(f"/c/{ark.pk}/history/"))
    assert "Roland Banks spent 2 XP on Deduction (level 2)" in history


def test_a_killed_investigator_is_replaced_and_stays_on_the_record(owner_client, owner, ark):
    roland = add_investigator(owner_client, ark)
    ark.apply("investigator.mark", {"investigator": roland, "status": "killed"}, owner)
    joe = add_investigator(
        owner_client, ark, name="Joe Diamond", health=8, sanity=6, replaces=roland
    )
    assert investigator(ark, roland)["replaced_by"] == joe
    assert investigator(ark, roland)["status"] == "killed"
    assert state(ark)["active"] == joe
    page = text(owner_client.get(f"/c/{ark.pk}/"))
    assert (
        "replaced by <bdi>Joe Diamond</bdi>" in page and "replaces <bdi>Roland Banks</bdi>" in page
    )
    response = post(
        owner_client,
        ark,
        "investigator.add",
        name="Zoey",
        health=9,
        sanity=5,
        replaces=roland,
        region="add-investigator",
    )
    assert response.status_code == 422
    assert "Roland Banks has already been replaced." in text(response)
    response = post(owner_client, ark, "investigator.mark", investigator=roland, status="active")
    assert response.status_code == 422


def test_story_assets_and_weaknesses_are_kept_per_investigator(owner_client, ark):
    roland = add_investigator(owner_client, ark)
    post(owner_client, ark, "investigator.item", investigator=roland, kind="asset", text="Lita")
    post(
        owner_client,
        ark,
        "investigator.item",
        investigator=roland,
        kind="weakness",
        text="Paranoia",
    )
    items = investigator(ark, roland)["items"]
    assert [(i["kind"], i["text"]) for i in items] == [("asset", "Lita"), ("weakness", "Paranoia")]
    post(owner_client, ark, "investigator.unitem", investigator=roland, item=items[0]["id"])
    assert [i["text"] for i in investigator(ark, roland)["items"]] == ["Paranoia"]
    history = text(owner_client.get(f"/c/{ark.pk}/history/"))
    assert "Roland Banks earned the weakness “Paranoia”" in history


def test_a_replaced_investigator_stays_off_the_table_whatever_their_trauma(owner_client, ark):
    roland = add_investigator(owner_client, ark, health=2)
    post(owner_client, ark, "investigator.trauma", investigator=roland, kind="physical", delta=2)
    assert investigator(ark, roland)["status"] == "killed"
    add_investigator(owner_client, ark, name="Joe Diamond", replaces=roland)
    post(owner_client, ark, "investigator.trauma", investigator=roland, kind="physical", delta=-1)
    assert investigator(ark, roland)["status"] == "killed"
    page = text(owner_client.get(f"/c/{ark.pk}/p/bag/"))
    assert "Joe Diamond</option>" in page
    assert "Roland Banks</option>" not in page


def test_the_groups_mark_wins_over_the_trauma_count(owner_client, ark):
    agnes = add_investigator(owner_client, ark, name="Agnes Baker", health=6, sanity=2)
    response = scenario_post(
        owner_client,
        ark,
        scenario="The Gathering",
        **{f"xp-{agnes}": 0, f"mental-{agnes}": 2, f"fate-{agnes}": "killed"},
    )
    assert response.status_code == 302
    assert investigator(ark, agnes)["status"] == "killed"


def test_a_killed_investigator_is_no_longer_the_one_testing(owner_client, owner, ark):
    roland = add_investigator(owner_client, ark)
    assert state(ark)["active"] == roland
    ark.apply("investigator.mark", {"investigator": roland, "status": "killed"}, owner)
    assert state(ark)["active"] is None


def test_back_in_play_is_refused_on_the_card(owner_client, ark):
    roland = add_investigator(owner_client, ark, health=1)
    post(owner_client, ark, "investigator.trauma", investigator=roland, kind="physical", delta=1)
    assert investigator(ark, roland)["status"] == "killed"
    before = snapshot(ark)
    tap = {"investigator": roland, "status": "active", "region": f"inv-{roland}"}
    response = post(owner_client, ark, "investigator.mark", True, **tap)
    assert response.status_code == 422
    page = text(response)
    card = page[page.index(f'id="inv-{roland}"') :]
    message = (
        "Roland Banks was killed and cannot come back in this campaign: undo the change that "
        "marked them instead."
    )
    assert f'<p class="error" role="alert">{message}</p>' in card[: card.index("</article>")]
    assert snapshot(ark) == before


def test_a_purchase_beyond_the_unspent_xp_is_refused_next_to_the_level(owner_client, ark):
    roland = add_investigator(owner_client, ark)
    tap = {"investigator": roland, "card": "Shotgun", "level": 4, "region": f"inv-{roland}"}
    response = post(owner_client, ark, "investigator.buy", True, **tap)
    assert response.status_code == 422
    page = text(response)
    level = page.index('name="level"')
    message = "Not enough XP: that costs 4 and Roland Banks has 0 unspent."
    after = page[level:]
    assert after.index(message) < after.index("</label>") + 80  # right after the level field
    assert 'value="Shotgun"' in page  # what was typed stays


# Spending XP: Myriad, Adaptable and story cards (Rules Reference "Myriad", "Adaptable")


def spent(ark, who):
    found = investigator(ark, who)
    return found["spent"], [p["cost"] for p in found["purchases"]]


def test_myriad_pays_once_for_every_copy_of_one_level(owner_client, ark):
    roland = add_investigator(owner_client, ark)
    post(owner_client, ark, "investigator.xp", investigator=roland, delta=10)
    buy = {"investigator": roland, "card": "Flurry", "level": 2, "myriad": "on"}
    for _ in range(3):  # three copies, one price
        assert post(owner_client, ark, "investigator.buy", **buy).status_code == 302
    assert spent(ark, roland) == (2, [2, 0, 0])
    post(owner_client, ark, "investigator.buy", **{**buy, "level": 4, "upgrade_from": 2})
    post(owner_client, ark, "investigator.buy", **{**buy, "level": 4, "upgrade_from": 2})
    assert spent(ark, roland) == (4, [2, 0, 0, 2, 0])  # the upgrade too, once
    history = text(owner_client.get(f"/c/{ark.pk}/history/"))
    assert "Roland Banks spent 2 XP on Flurry (level 2, Myriad)" in history
    assert "Roland Banks took another copy of Flurry (level 2, Myriad): no XP" in history


def test_myriad_needs_the_cards_name(owner_client, ark):
    roland = add_investigator(owner_client, ark)
    post(owner_client, ark, "investigator.xp", investigator=roland, delta=2)
    before = snapshot(ark)
    response = post(
        owner_client,
        ark,
        "investigator.buy",
        True,
        investigator=roland,
        level=1,
        myriad="on",
        region=f"inv-{roland}",
    )
    assert response.status_code == 422
    assert "Name the card: Myriad's one price covers its copies by name." in text(response)
    assert snapshot(ark) == before


def test_adaptable_swaps_level_zero_cards_at_no_cost(owner_client, ark):
    roland = add_investigator(owner_client, ark)
    buy = {"investigator": roland, "card": "Lucky!", "level": 0, "adaptable": "on"}
    assert post(owner_client, ark, "investigator.buy", **buy).status_code == 302
    assert spent(ark, roland) == (0, [0])
    before = snapshot(ark)
    response = post(
        owner_client,
        ark,
        "investigator.buy",
        True,
        **{**buy, "level": 2},
        region=f"inv-{roland}",
    )
    assert response.status_code == 422
    page = text(response)
    message = "Adaptable swaps a level-0 card for another level-0 card."
    assert page.index(message) > page.index('name="level"')
    assert snapshot(ark) == before
    history = text(owner_client.get(f"/c/{ark.pk}/history/"))
    assert "Roland Banks swapped in Lucky! with Adaptable: no XP" in history


def test_a_story_card_costs_nothing(owner_client, ark):
    roland = add_investigator(owner_client, ark)
    buy = {"investigator": roland, "card": "Lita", "level": 3, "story": "on"}
    assert post(owner_client, ark, "investigator.buy", **buy).status_code == 302
    assert spent(ark, roland) == (0, [0])
    history = text(owner_client.get(f"/c/{ark.pk}/history/"))
    assert "Roland Banks added the story card Lita: no XP" in history


def test_a_typed_name_too_long_is_refused_for_its_length_alone(owner_client, ark):
    """The name was typed: the refusal says it is too long, not that none was picked."""
    response = post(
        owner_client, ark, "investigator.add", htmx=True, name="R" * 5000, health=9, sanity=5
    )
    assert response.status_code == 422
    page = text(response)
    assert "at most" in page
    assert "Pick an investigator, or type a name." not in page
    assert state(ark)["investigators"] == []
