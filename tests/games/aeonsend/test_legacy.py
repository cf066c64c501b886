"""Aeon's End: Legacy: the legacy record: the chapter and its stickers, sealed contents, the
Legacy deck, banished cards and the mages' upgrades."""

import re

import pytest

from campaigns.games.aeonsend import data
from tests import factories
from tests.games.aeonsend.helpers import act, state_of
from tests.journeys import HTMX, snapshot, text

# The chapter and the stickers due


def move_to(client, campaign, point: str) -> None:
    while state_of(campaign)["chapter"] != point:
        here = data.POINTS.index(campaign.state["chapter"])
        response = act(client, campaign, "ae.chapter", to=data.POINTS[here + 1])
        assert response.status_code == 302


def test_the_chapter_moves_forward_one_point_at_a_time(owner_client, ae):
    page = text(owner_client.get(f"/c/{ae.pk}/"))
    assert "At the beginning of Chapter 1" in page
    assert "Move on to the end of Chapter 1" in page
    before = snapshot(ae)
    response = act(owner_client, ae, "ae.chapter", region="chapter", to="2-end")
    assert response.status_code == 422
    assert snapshot(ae) == before
    move_to(owner_client, ae, "1-end")
    page = text(owner_client.get(f"/c/{ae.pk}/"))
    assert "Next: the beginning of Chapter 2. There the rulebook unlocks the stickers S." in page
    # In Japanese the two sentences follow each other with no space, as Japanese writes them.
    owner_client.cookies["django_language"] = "ja"
    page = text(owner_client.get(f"/c/{ae.pk}/"))
    assert re.search(r"次：[^<。]+。そこでシールSが解禁されます。", page)
    assert "。 " not in page


def test_end_of_chapter_2_lists_the_stickers_due_and_applies_them_in_one_event(owner_client, ae):
    move_to(owner_client, ae, "2-end")
    page = text(owner_client.get(f"/c/{ae.pk}/"))
    due = re.findall(r'name="letters" value="(\w)" checked', page)
    assert due == ["A", "N", "O", "Q", "Y"]
    # S (beginning of Chapter 2) was not applied: it is offered, not ticked.
    assert re.findall(r'name="letters" value="(\w)">', page) == ["S"]
    version = state_of(ae)["stickers"] and ae.version
    response = owner_client.post(
        f"/c/{ae.pk}/do/ae.stickers/",
        {"letters": ["A", "N", "O", "Q", "Y"], "game": "3", "region": "chapter"},
    )
    assert response.status_code == 302
    stickers = state_of(ae)["stickers"]
    assert ae.version == version + 1
    assert [k for k, s in stickers.items() if s["applied"]] == ["A", "N", "O", "Q", "Y"]
    assert stickers["A"]["game"] == 3
    page = text(owner_client.get(f"/c/{ae.pk}/"))
    assert 'value="A" checked' not in page
    assert "Applied the stickers A, N, O, Q, Y" in text(owner_client.get(f"/c/{ae.pk}/history/"))


@pytest.mark.parametrize("letters", [["AA"], ["A", "Ä"], ["1"], [""], []])
def test_a_sticker_letter_that_does_not_exist_is_refused(owner_client, ae, letters):
    before = snapshot(ae)
    response = owner_client.post(
        f"/c/{ae.pk}/do/ae.stickers/", {"letters": letters, "region": "chapter"}, **HTMX
    )
    assert response.status_code == 422
    body = text(response)
    assert "There is no sticker slot" in body or "Tick at least one sticker" in body
    assert 'role="alert"' in body
    assert snapshot(ae) == before


def test_a_sticker_that_has_not_unlocked_yet_is_refused(owner_client, ae):
    before = snapshot(ae)
    response = act(owner_client, ae, "ae.stickers", letters=["D"], region="chapter")
    assert response.status_code == 422
    assert "Sticker D unlocks at" in text(response)
    assert snapshot(ae) == before


def test_a_sticker_applied_twice_is_refused(owner_client, ae):
    move_to(owner_client, ae, "2-beginning")
    act(owner_client, ae, "ae.stickers", letters=["S"])
    before = snapshot(ae)
    response = act(owner_client, ae, "ae.stickers", letters=["S"], region="chapter")
    assert response.status_code == 422
    assert "already applied" in text(response)
    assert snapshot(ae) == before


def test_one_sticker_is_edited_with_its_note_and_the_unknown_timings_can_be_set(owner_client, ae):
    response = act(
        owner_client,
        ae,
        "ae.sticker",
        region="sticker-s",
        letter="S",
        applied="on",
        game="2",
        text="Our words",
        version=ae.version,
    )
    assert response.status_code == 302
    sticker = state_of(ae)["stickers"]["S"]
    assert sticker == {"timing": "2-beginning", "applied": True, "game": 2, "text": "Our words"}
    act(owner_client, ae, "ae.sticker", letter="F", timing="4-end", text="", version=ae.version)
    assert state_of(ae)["stickers"]["F"]["timing"] == "4-end"
    before = snapshot(ae)
    response = act(owner_client, ae, "ae.sticker", letter="A", timing="4-end", version=ae.version)
    assert response.status_code == 422
    assert "only the timing of F, G, H, I and V" in text(response)
    response = act(owner_client, ae, "ae.sticker", letter="ZZ", version=ae.version)
    assert response.status_code == 422
    assert "There is no sticker slot “ZZ”" in text(response)
    assert snapshot(ae) == before
    page = text(owner_client.get(f"/c/{ae.pk}/p/legacy/"))
    assert "Insight 2a" in page and "Insight 10" in page and "During setup,…" in page
    assert page.count('class="ae-letter') == 26


# Sealed contents and the Legacy deck


def test_opening_a_sealed_item_records_when(owner_client, ae):
    move_to(owner_client, ae, "2-beginning")
    response = act(owner_client, ae, "ae.seal", key="stop-Ic", opened="true", region="sealed")
    assert response.status_code == 302
    sealed = state_of(ae)["sealed"]
    assert sealed["stop-Ic"] == {"opened": True, "point": "2-beginning", "game": 0, "note": ""}
    assert len(sealed) == 13 + 4 + 5 + 7
    page = text(owner_client.get(f"/c/{ae.pk}/p/legacy/"))
    assert "Stop deck Ic" in page and "beginning of Chapter 2" in page
    before = snapshot(ae)
    assert act(owner_client, ae, "ae.seal", key="stop-Ic", opened="true").status_code == 422
    assert act(owner_client, ae, "ae.seal", key="stop-IX", opened="true").status_code == 422
    assert snapshot(ae) == before


def test_the_legacy_deck_erratum_e07_to_l17(owner_client, ae):
    act(owner_client, ae, "ae.legacy", card="l02")
    act(owner_client, ae, "ae.legacy", card="E07")
    assert state_of(ae)["legacy"] == {"last": "E07", "read": ["L02", "E07"]}
    page = text(owner_client.get(f"/c/{ae.pk}/p/legacy/"))
    assert "read the front of <strong>L17</strong> instead" in page
    before = snapshot(ae)
    response = act(owner_client, ae, "ae.legacy", card="L19", region="legacy-deck")
    assert response.status_code == 422
    assert "read the front of L17, not L19" in text(response)
    assert snapshot(ae) == before
    act(owner_client, ae, "ae.legacy", card="Ｌ１７")  # as a Japanese keyboard types it
    assert state_of(ae)["legacy"]["last"] == "L17"
    before = snapshot(ae)
    for typed in ("!!", "ZZZ99", "L", "99", "L0000", "L.02"):
        response = act(owner_client, ae, "ae.legacy", card=typed, region="legacy-deck")
        assert response.status_code == 422, typed
        assert "Type a card number such as L02." in text(response)
    assert snapshot(ae) == before


def test_a_card_number_kept_before_the_stricter_check_still_replays(owner, ae):
    """A phone's card number must read like L02 (the form's check); a history that kept one of
    the older, looser kind replays all the same."""
    factories.play(ae, owner, [("ae.legacy", {"card": "AB12"}), ("undo",), ("redo",)])
    assert state_of(ae)["legacy"]["read"] == ["AB12"]


# Banished cards


def test_banish_search_and_restore(owner_client, ae):
    for name, reason in [("Crystal", "flawed"), ("Spark", ""), ("Amethyst Shard", "upgrade")]:
        response = act(owner_client, ae, "ae.banish", text=name, game="1", reason=reason)
        assert response.status_code == 302
    page = text(owner_client.get(f"/c/{ae.pk}/?q=SPARK"))
    assert "<strong>Spark</strong>" in page and "<strong>Crystal</strong>" not in page
    assert "1 found for “SPARK”" in page
    page = text(owner_client.get(f"/c/{ae.pk}/"))
    assert '<datalist id="ae-card-names">' in page
    assert '<option value="Amethyst Shard">' in page
    crystal = next(b for b in state_of(ae)["banished"] if b["text"] == "Crystal")
    act(owner_client, ae, "ae.restore", item=crystal["id"], reason="Legacy card said so")
    page = text(owner_client.get(f"/c/{ae.pk}/?q=crystal"))
    assert "No banished card matches." in page
    assert '<span class="text crossed">Crystal</span>' in page
    before = snapshot(ae)
    assert act(owner_client, ae, "ae.restore", item=crystal["id"]).status_code == 422
    assert act(owner_client, ae, "ae.banish", text="   ").status_code == 422
    assert snapshot(ae) == before


# Mages


def test_mage_upgrades_and_equipment(owner_client, ae):
    act(owner_client, ae, "ae.mage", player=1, kind="equipment", text="A fine staff", game=2)
    act(owner_client, ae, "ae.mage", player=0, kind="upgrade", text="Breach IV opened")
    state = state_of(ae)
    assert state["players"][1]["notes"][0]["text"] == "A fine staff"
    page = text(owner_client.get(f"/c/{ae.pk}/"))
    assert "A fine staff" in page and "Breach IV opened" in page
    assert act(owner_client, ae, "ae.mage", player=3, kind="upgrade", text="x").status_code == 422
    note = state["players"][1]["notes"][0]["id"]
    act(owner_client, ae, "ae.mage_remove", player=1, item=note)
    assert state_of(ae)["players"][1]["notes"] == []
    assert "Bo: crossed out “A fine staff”" in text(owner_client.get(f"/c/{ae.pk}/history/"))
