"""Nothing lost at the table: a change sent twice (its answer was lost) is applied once, and a
change refused as made from an old screen says whose change came first and what it was."""

import pytest

from campaigns.commands import CommandError, need_choice
from campaigns.models import Event
from tests.factories import client_for, tracker_id
from tests.journeys import HTMX, snapshot, text

PHONE = "phoneAAAA1234"


def act(client, campaign, action: str, htmx: bool = True, **data):
    if "tracker" in data:
        data.setdefault("region", f"tracker-{data['tracker']}")
    return client.post(f"/c/{campaign.pk}/do/{action}/", data, **(HTMX if htmx else {}))


def doom_value(campaign) -> int:
    campaign.refresh_from_db()
    return next(t["value"] for t in campaign.state["trackers"] if t["name"] == "Doom")


@pytest.mark.parametrize("htmx", [False, True], ids=["post", "htmx"])
def test_the_same_change_sent_twice_is_applied_once(owner_client, campaign, htmx):
    doom = tracker_id(campaign, "Doom")
    first = act(
        owner_client, campaign, "counter.adjust", htmx, tracker=doom, delta=1, change=f"{PHONE}.1"
    )
    again = act(
        owner_client, campaign, "counter.adjust", htmx, tracker=doom, delta=1, change=f"{PHONE}.1"
    )
    assert first.status_code == again.status_code == (200 if htmx else 302)
    assert doom_value(campaign) == 1
    assert Event.objects.filter(campaign=campaign).count() == 1
    # The second answer is the current state, as if the first answer had arrived.
    if htmx:
        assert '<output class="value" aria-live="polite">1</output>' in text(again)
    # A new tap (a new id) is a new change.
    act(owner_client, campaign, "counter.adjust", htmx, tracker=doom, delta=1, change=f"{PHONE}.2")
    assert doom_value(campaign) == 2


def test_a_retry_of_a_set_is_not_refused_as_stale_by_its_own_first_try(owner_client, campaign):
    doom = tracker_id(campaign, "Doom")
    data = {"tracker": doom, "value": 5, "version": 0, "change": f"{PHONE}.7"}
    assert act(owner_client, campaign, "counter.set", **data).status_code == 200
    retry = act(owner_client, campaign, "counter.set", **data)
    assert retry.status_code == 200
    assert "Not changed" not in text(retry)
    assert doom_value(campaign) == 5
    assert campaign.version == 1


def test_an_id_is_one_change_even_from_another_member(owner_client, player, campaign):
    doom = tracker_id(campaign, "Doom")
    act(owner_client, campaign, "counter.adjust", tracker=doom, delta=1, change=f"{PHONE}.1")
    act(client_for(player), campaign, "counter.adjust", tracker=doom, delta=1, change=f"{PHONE}.1")
    assert doom_value(campaign) == 1


@pytest.mark.parametrize("which", ["undo", "redo"])
def test_undo_and_redo_sent_twice_happen_once(owner_client, campaign, which):
    doom = tracker_id(campaign, "Doom")
    for n in range(3):
        act(owner_client, campaign, "counter.adjust", tracker=doom, delta=1, change=f"{PHONE}.{n}")
    if which == "redo":
        owner_client.post(f"/c/{campaign.pk}/undo/", {"change": f"{PHONE}.u1"}, **HTMX)
        owner_client.post(f"/c/{campaign.pk}/undo/", {"change": f"{PHONE}.u2"}, **HTMX)
    before = doom_value(campaign)
    for _ in range(2):
        response = owner_client.post(
            f"/c/{campaign.pk}/{which}/", {"change": f"{PHONE}.again"}, **HTMX
        )
        assert response.status_code == 200
    assert doom_value(campaign) == before + (1 if which == "redo" else -1)


@pytest.mark.parametrize("change", ["", "short", "a" * 80, "bad id!", "phoneAAAA1234.x.y"])
def test_a_missing_or_malformed_id_changes_as_before(owner_client, campaign, change):
    doom = tracker_id(campaign, "Doom")
    for _ in range(2):
        assert (
            act(
                owner_client, campaign, "counter.adjust", tracker=doom, delta=1, change=change
            ).status_code
            == 200
        )
    assert doom_value(campaign) == 2


def test_a_stale_refusal_names_another_phone_and_what_it_did(owner_client, player, campaign):
    doom = tracker_id(campaign, "Doom")
    act(
        client_for(player),
        campaign,
        "counter.adjust",
        tracker=doom,
        delta=2,
        change="otherphone99.1",
    )
    before = snapshot(campaign)
    response = act(
        owner_client, campaign, "counter.set", tracker=doom, value=7, version=0, change=f"{PHONE}.2"
    )
    assert response.status_code == 409
    assert "Changed meanwhile on another phone (Doom +2 (now 2))" in text(response)
    assert "this phone" not in text(response)
    assert snapshot(campaign) == before


def test_a_stale_refusal_after_this_phones_own_tap_says_so(owner_client, campaign):
    doom = tracker_id(campaign, "Doom")
    notes = tracker_id(campaign, "Notes")
    act(owner_client, campaign, "notes.add", tracker=notes, text="A clue", change=f"{PHONE}.1")
    response = act(
        owner_client, campaign, "counter.set", tracker=doom, value=7, version=0, change=f"{PHONE}.2"
    )
    assert response.status_code == 409
    assert "Changed meanwhile by your earlier tap on this phone" in text(response)
    assert "another phone" not in text(response)
    # The same person's other phone is another phone.
    response = act(
        owner_client,
        campaign,
        "counter.set",
        tracker=doom,
        value=7,
        version=0,
        change="laptopBBBB5678.1",
    )
    assert "Changed meanwhile on another phone" in text(response)


def test_a_stale_refusal_after_many_changes_names_the_latest_three(owner_client, player, campaign):
    doom = tracker_id(campaign, "Doom")
    for _ in range(5):
        act(client_for(player), campaign, "counter.adjust", tracker=doom, delta=1)
    response = act(owner_client, campaign, "counter.set", tracker=doom, value=7, version=0)
    assert response.status_code == 409
    assert "Doom +1 (now 3); Doom +1 (now 4); Doom +1 (now 5) and 2 earlier changes" in text(
        response
    )


@pytest.mark.parametrize("value", [["a"], {"a": 1}, 1, None, True])
def test_need_choice_refuses_a_value_that_is_not_a_choice(value):
    with pytest.raises(CommandError) as refused:
        need_choice({"kind": value}, "kind", {"counter": "Counter", "notes": "Notes"})
    assert refused.value.field == "kind"
    assert need_choice({"kind": "notes"}, "kind", ("counter", "notes")) == "notes"
