"""The chaos bag through the real views: draws, chains, bless and curse, frost, sealing,
recording a physical draw, and what each phone sees."""

import random
import re
from pathlib import Path

import pytest
from django.conf import settings
from django.test import Client

from campaigns.commands import CommandError
from campaigns.engines import chaos
from campaigns.games.arkham import data
from campaigns.models import Campaign, Membership
from tests.factories import client_for
from tests.games.arkham.helpers import (
    NOTZ_STANDARD,
    Picks,
    add_investigator,
    make_arkham,
    post,
    set_bag,
    state,
    text,
)
from tests.journeys import snapshot


def test_the_starting_bag_can_be_corrected_before_play(owner_client, ark):
    response = post(owner_client, ark, "bag.change", token="-3", delta=1, region="bag-contents")
    assert response.status_code == 302
    response = post(
        owner_client, ark, "bag.change", True, token="+1", delta=-1, page="bag", region="b"
    )
    assert response.status_code == 200
    assert state(ark)["bag"]["-3"] == 2
    assert "+1" not in state(ark)["bag"]
    assert "In the bag: 16 tokens" in text(response)


def test_a_draw_through_the_page_reveals_one_token_for_the_active_investigator(owner_client, ark):
    add_investigator(owner_client, ark)
    response = post(owner_client, ark, "bag.draw", True, page="bag", region="bag-actions")
    assert response.status_code == 200
    [test] = state(ark)["draws"]
    assert test["open"] and test["who"] == "Roland Banks"
    [entry] = test["tokens"]  # nothing in the Zealot's standard bag chains
    assert entry["token"] in NOTZ_STANDARD
    label = str(data.TOKEN_LABELS[entry["token"]])
    body = text(response)
    assert "data-buzz" in body and f'<span class="token-name">{label}</span>' in body
    assert state(ark)["stats"] == {"tests": 1, "tokens": {entry["token"]: 1}}
    history = text(owner_client.get(f"/c/{ark.pk}/history/"))
    assert f"Drew {label} for Roland Banks" in history


def test_reveal_another_continues_the_test_without_replacement(owner, ark):
    s = state(ark)
    s["bag"] = {"0": 1, "-1": 1}
    Campaign.objects.filter(pk=ark.pk).update(state=s, initial_state=s)
    ark.refresh_from_db()
    ark.apply("bag.draw", {}, owner, rng=Picks(0))
    ark.apply("bag.another", {}, owner, rng=Picks(0))
    test = state(ark)["draws"][-1]
    assert [e["token"] for e in test["tokens"]] == ["0", "-1"]
    assert test["total"] == -1
    with pytest.raises(CommandError, match="press Done"):
        ark.apply("bag.another", {}, owner, rng=Picks(0))
    ark.apply("bag.done", {}, owner)
    assert state(ark)["bag"] == {"0": 1, "-1": 1}
    assert not state(ark)["draws"][-1]["open"]


def test_bless_reveals_another_in_the_same_command_and_goes_back_to_the_pool(owner, ark):
    set_bag(ark, {"-1": 1, "bless": 1})
    event = ark.apply("bag.draw", {}, owner, rng=Picks(1, 0))  # bless first, then −1
    assert event.data["tokens"] == ["bless", "-1"]
    test = state(ark)["draws"][-1]
    assert test["total"] == 1 and not test["auto_fail"]
    assert test["tokens"][1]["auto"] is True
    ark.apply("bag.done", {}, owner)
    assert state(ark)["bag"] == {"-1": 1}  # the bless went back to the pool


def test_a_second_frost_in_one_test_is_an_automatic_failure(owner, ark):
    set_bag(ark, {"+1": 1, "frost": 2})
    ark.apply("bag.draw", {}, owner, rng=Picks(1, 1))  # frost, then the other frost
    test = state(ark)["draws"][-1]
    assert [e["token"] for e in test["tokens"]] == ["frost", "frost"]
    assert test["auto_fail"] is True
    ark.apply("bag.done", {}, owner)
    assert state(ark)["bag"] == {"+1": 1, "frost": 2}  # frost stays in the bag


def test_drawing_from_an_empty_bag_is_refused_and_changes_nothing(owner_client, owner):
    made = make_arkham(owner, "custom")
    before = snapshot(made)
    response = post(owner_client, made, "bag.draw", True, page="bag", region="bag-actions")
    assert response.status_code == 422
    assert "The bag is empty: put tokens in it before drawing." in text(response)
    assert 'role="alert"' in text(response)
    assert snapshot(made) == before


def test_a_sealed_token_never_comes_out(owner, ark):
    set_bag(ark, {"0": 1, "skull": 1})
    ark.apply("bag.seal", {"token": "skull"}, owner)
    assert state(ark)["bag"] == {"0": 1} and state(ark)["sealed"] == {"skull": 1}
    for _ in range(5):
        ark.apply("bag.draw", {}, owner, rng=random.Random())
        assert state(ark)["draws"][-1]["tokens"][0]["token"] == "0"
    ark.apply("bag.done", {}, owner)
    ark.apply("bag.release", {"token": "skull"}, owner)
    assert state(ark)["bag"] == {"0": 1, "skull": 1} and state(ark)["sealed"] == {}


def test_recording_a_physical_draw_counts_like_a_drawn_one(owner_client, ark):
    add_investigator(owner_client, ark)
    response = post(owner_client, ark, "bag.record", token="skull", into="new", page="bag")
    assert response.status_code == 302
    post(owner_client, ark, "bag.record", token="-2", into="same", page="bag")
    test = state(ark)["draws"][-1]
    assert [e["token"] for e in test["tokens"]] == ["skull", "-2"]
    assert test["physical"] and test["who"] == "Roland Banks"
    assert state(ark)["stats"] == {"tests": 1, "tokens": {"skull": 1, "-2": 1}}
    page = text(owner_client.get(f"/c/{ark.pk}/p/bag/"))
    assert "physical bag" in page


# The region each form sits in on the bag page (where its message shows).
REGION_OF = {
    "bag.record": "bag-record",
    "bag.change": "bag-pool",
    "bag.set": "bag-pool",
    "bag.seal": "bag-seal",
    "bag.release": "bag-seal",
    "bag.another": "bag-actions",
    "bag.done": "bag-actions",
}


@pytest.mark.parametrize(
    ("action", "data", "message"),
    [
        ("bag.record", {"token": "tentacle", "into": "new"}, "no chaos token called “tentacle”"),
        ("bag.change", {"token": "joker", "delta": 1}, "no chaos token called “joker”"),
        ("bag.set", {"token": "bless", "count": 11}, "At most 10 Bless tokens"),
        ("bag.change", {"token": "curse", "delta": 11}, "At most 10 Curse tokens"),
        ("bag.change", {"token": "-8", "delta": -1}, "no −8 token left in the bag"),
        ("bag.seal", {"token": "frost"}, "no Frost token in the bag to seal"),
        ("bag.release", {"token": "skull"}, "No Skull token is sealed"),
        ("bag.another", {}, "No test is going on"),
        ("bag.done", {}, "No test is going on"),
        ("bag.record", {"token": "skull", "into": "same"}, "No test is going on"),
    ],
)
def test_bad_bag_changes_are_refused_with_a_message(owner_client, ark, action, data, message):
    before = snapshot(ark)
    region = REGION_OF[action]
    response = post(owner_client, ark, action, True, page="bag", region=region, **data)
    assert response.status_code == 422
    assert message in text(response)
    assert snapshot(ark) == before


def test_bless_and_curse_count_sealed_ones_towards_ten(owner_client, owner, ark):
    post(owner_client, ark, "bag.set", token="bless", count=10, version=ark.version)
    ark.apply("bag.seal", {"token": "bless"}, owner)
    assert state(ark)["bag"]["bless"] == 9 and state(ark)["sealed"]["bless"] == 1
    response = post(owner_client, ark, "bag.change", token="bless", delta=1, region="bag-pool")
    assert response.status_code == 422
    assert "sealed ones included" in text(response)


def test_only_the_last_twenty_draws_are_listed(owner, ark):
    for _ in range(23):
        ark.apply("bag.draw", {}, owner, rng=random.Random())
    draws = state(ark)["draws"]
    assert len(draws) == 20
    assert state(ark)["stats"]["tests"] == 23
    assert [d["open"] for d in draws] == [False] * 19 + [True]


def test_undo_removes_a_draw_made_by_mistake(owner_client, owner, ark):
    ark.apply("bag.draw", {}, owner, rng=Picks(0))
    ark.undo(owner)
    assert state(ark)["draws"] == []
    assert state(ark)["stats"] == {"tests": 0, "tokens": {}}
    page = text(owner_client.get(f"/c/{ark.pk}/p/bag/"))
    assert "Nothing drawn yet." in page


def test_no_response_holds_the_next_token(owner_client, owner, ark):
    """Nothing about a future draw exists: the state keeps counts, a draw is decided at draw
    time with the rng, and two draws from the same state can differ."""
    before = state(ark)
    assert before["bag"] == NOTZ_STANDARD
    first = ark.apply("bag.draw", {}, owner, rng=Picks(0)).data["tokens"]
    ark.undo(owner)
    assert state(ark)["bag"] == before["bag"]
    second = ark.apply("bag.draw", {}, owner, rng=Picks(15)).data["tokens"]
    assert first != second
    export = text(owner_client.get(f"/c/{ark.pk}/export.json"))
    assert "order" not in export and "next" not in export.replace("next_id", "")


def test_only_the_other_phones_buzz_for_a_new_token(owner_client, owner, ark):
    ark.apply("bag.draw", {}, owner, rng=Picks(0))
    test = state(ark)["draws"][-1]["id"]
    marker = f'id="drawn-{test}-0" class="newest" data-buzz'
    refreshed = text(
        owner_client.get(f"/c/{ark.pk}/p/bag/", HTTP_HX_REQUEST="true", HTTP_X_LIVE_REFRESH="true")
    )
    assert f"{marker}>" in refreshed  # a live refresh on another phone: buzz once
    opened = text(owner_client.get(f"/c/{ark.pk}/p/bag/"))
    assert f"{marker} data-buzzed>" in opened  # opening the page is no news


def test_a_viewer_follows_the_bag_but_cannot_draw(ark, owner, stranger):
    Membership.objects.create(campaign=ark, user=stranger, role=Membership.Role.VIEWER)
    ark.apply("bag.draw", {}, owner, rng=Picks(0))
    client = Client()
    client.force_login(stranger)
    for path in ("/", "/p/bag/", "/p/round/", "/history/"):
        assert client.get(f"/c/{ark.pk}{path}").status_code == 200
    page = text(client.get(f"/c/{ark.pk}/p/bag/"))
    assert 'class="newest"' in page
    assert "Draw for a new test" not in page and "Record a physical draw" not in page
    before = snapshot(ark)
    assert post(client, ark, "bag.draw").status_code == 403
    assert snapshot(ark) == before


def test_every_token_has_an_icon_of_our_own():
    """One sprite holds every token's face, each a symbol of its own; nothing in it loads
    anything (its only links point inside the sprite)."""
    sprite = (Path(settings.BASE_DIR) / "static" / "icons" / "arkham" / "tokens.svg").read_text()
    assert sprite.startswith("<svg")
    assert "<script" not in sprite and "<image" not in sprite and "<style" not in sprite
    assert set(re.findall(r'href="([^"]*)"', sprite)) == {"#face"}
    for token in chaos.TOKENS:
        assert f'<symbol id="{data.TOKEN_ICONS[token]}" viewBox="0 0 100 100">' in sprite


def test_done_from_a_phone_that_saw_an_older_test_is_refused(owner_client, owner, ark):
    add_investigator(owner_client, ark)
    ark.apply("bag.draw", {}, owner)
    first = state(ark)["draws"][-1]["id"]
    ark.apply("bag.draw", {}, owner)  # another phone starts a new test meanwhile
    before = snapshot(ark)
    for action in ("bag.done", "bag.another"):
        response = post(owner_client, ark, action, htmx=True, test=first, region="bag-drawn")
        assert response.status_code == 422
        assert "That test ended on another phone meanwhile" in text(response)
        assert snapshot(ark) == before
    current = state(ark)["draws"][-1]["id"]
    assert post(owner_client, ark, "bag.done", test=current).status_code == 302


# Double draws (issue 12): a draw starts a new test, so it is refused from a stale screen


def test_two_phones_drawing_from_the_same_screen_make_one_draw(owner_client, player, ark):
    """Two phones (or a double tap) post Draw with the version both screens saw: the first draws,
    the second is refused as changed meanwhile and shows the test the first one drew."""
    seen = ark.version
    tap = {"page": "bag", "region": "bag-actions", "version": seen}
    first = post(owner_client, ark, "bag.draw", True, **tap)
    assert first.status_code == 200
    [test] = state(ark)["draws"]
    second = post(client_for(player), ark, "bag.draw", True, **tap)
    assert second.status_code == 409
    assert "Changed meanwhile on another phone" in text(second)
    assert state(ark)["draws"] == [test] and state(ark)["stats"]["tests"] == 1
    label = str(data.TOKEN_LABELS[test["tokens"][0]["token"]])
    assert f'<span class="token-name">{label}</span>' in text(second)  # what the other tap drew
    again = post(owner_client, ark, "bag.draw", page="bag", version=state_version(ark))
    assert again.status_code == 302 and len(state(ark)["draws"]) == 2


def state_version(campaign) -> int:
    campaign.refresh_from_db()
    return campaign.version


def test_reveal_another_and_done_name_their_test_instead_of_a_version(owner, owner_client, ark):
    set_bag(ark, {"0": 2, "-1": 1})
    ark.apply("bag.draw", {}, owner, rng=Picks(0))
    test = state(ark)["draws"][-1]["id"]
    old = ark.version - 1  # a screen older than the draw still says which test it means
    response = post(owner_client, ark, "bag.another", test=test, version=old, page="bag")
    assert response.status_code == 302
    assert len(state(ark)["draws"][-1]["tokens"]) == 2


# The bag holds at most what the game provides (the rules issue: a bag of hundreds of tokens is
# not a bag anyone owns, and its odds stalled the server). Counts: shared/data/
# arkham_campaign_log.json "token_limits", bless and curse 10 each and frost 8, sealed included.


@pytest.mark.parametrize("token", chaos.TOKENS)
def test_a_token_goes_in_up_to_what_the_game_provides_and_no_further(owner_client, owner, token):
    made = make_arkham(owner, "custom")
    limit = data.TOKEN_LIMITS[token]
    response = post(owner_client, made, "bag.set", token=token, count=limit, region="bag-contents")
    assert response.status_code == 302
    assert state(made)["bag"][token] == limit
    before = snapshot(made)
    response = post(owner_client, made, "bag.change", True, token=token, delta=1, page="bag")
    assert response.status_code == 422
    label = str(data.TOKEN_LABELS[token])
    assert f"At most {limit} {label} tokens" in text(response)
    assert snapshot(made) == before


def test_frost_counts_the_sealed_ones_towards_eight(owner_client, owner):
    made = make_arkham(owner, "custom")
    post(owner_client, made, "bag.set", token="frost", count=8, region="bag-contents")
    made.apply("bag.seal", {"token": "frost"}, owner)
    made.apply("bag.seal", {"token": "frost"}, owner)
    assert state(made)["bag"]["frost"] == 6 and state(made)["sealed"]["frost"] == 2
    before = snapshot(made)
    tap = {"token": "frost", "delta": 1, "page": "bag", "region": "bag-contents"}
    response = post(owner_client, made, "bag.change", True, **tap)
    assert response.status_code == 422
    assert "At most 8 Frost tokens, sealed ones included." in text(response)
    assert snapshot(made) == before
    made.apply("bag.release", {"token": "frost"}, owner)  # back in the bag: still 8 in all
    assert state(made)["bag"]["frost"] == 7


def test_the_refusal_shows_in_the_bag_it_is_about(owner_client, owner):
    made = make_arkham(owner, "custom")
    made.apply("bag.set", {"token": "skull", "count": 4}, owner)
    tap = {"token": "skull", "delta": 1, "page": "bag", "region": "bag-correct"}
    response = post(owner_client, made, "bag.change", True, **tap)
    assert response.status_code == 422
    page = text(response)
    region = page[page.index('id="bag-correct"') :]
    assert 'role="alert">At most 4 Skull tokens.' in region[: region.index("</details>")]


def test_every_starting_bag_fits_in_the_tokens_the_game_provides():
    for campaign, bags in data.BAGS.items():
        for difficulty, bag in bags.items():
            for token, count in bag.items():
                assert count <= data.TOKEN_LIMITS[token], (campaign, difficulty, token)


def test_taking_out_of_a_bag_above_the_limits_is_still_allowed(owner, ark):
    """A campaign made before the limits may hold more: it can always be brought down."""
    set_bag(ark, {"-1": 9})
    ark.apply("bag.change", {"token": "-1", "delta": -1}, owner)
    assert state(ark)["bag"] == {"-1": 8}
