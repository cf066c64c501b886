"""One way to draw: every campaign page by one path, and the answer to a change carries only the
regions it changed (`{% region %}`), each once; a refusal goes to its region by htmx headers.

Also forms drive the templates: a field's label, limits and errors come from its Django form.
"""

from __future__ import annotations

import re

import pytest
from django.test import RequestFactory

from campaigns.games import GAMES
from campaigns.views.render import page_context, page_url, render_regions
from tests import factories
from tests.factories import client_for, tracker_id
from tests.journeys import HTMX, assert_refused, text


def act(client, campaign, action, htmx=True, **data):
    return client.post(f"/c/{campaign.pk}/do/{action}/", data, **(HTMX if htmx else {}))


def ids(response) -> list[str]:
    """The live regions in an answer, in order."""
    return re.findall(r'<[a-z0-9]+ [^>]*?\bid="([a-z0-9-]+)"[^>]*\bdata-live', text(response))


def test_a_counter_step_answers_with_its_tracker_and_the_undo_bar_only(owner_client, campaign):
    doom = tracker_id(campaign, "Doom")
    response = act(
        owner_client, campaign, "counter.adjust", tracker=doom, delta=1, region=f"tracker-{doom}"
    )
    assert response.status_code == 200
    assert ids(response) == [f"tracker-{doom}", "undo-bar"]
    assert response["HX-Retarget"] == f"#tracker-{doom}"
    assert response["HX-Reswap"] == "outerHTML"
    assert response["X-Campaign-Version"] == "1"
    body = text(response)
    assert '<div hx-swap-oob="true" id="undo-bar"' in body
    assert "Doom +1 (now 1)" in body  # the undo bar names the change
    assert "Stickers" not in body and "campaign-title" not in body


def test_adding_a_tracker_brings_the_tracker_list_out_of_band(owner_client, campaign):
    response = act(
        owner_client, campaign, "tracker.add", kind="counter", name="Clues", region="add-tracker"
    )
    assert response.status_code == 200
    assert ids(response)[0] == "add-tracker"
    assert '<div hx-swap-oob="true" id="trackers"' in text(response)
    assert "Clues" in text(response)


def test_removing_a_tracker_deletes_its_region(owner_client, campaign):
    notes = tracker_id(campaign, "Notes")
    response = act(
        owner_client, campaign, "tracker.remove", tracker=notes, region=f"tracker-{notes}"
    )
    assert response.status_code == 200
    assert response["HX-Retarget"] == f"#tracker-{notes}"
    assert response["HX-Reswap"] == "delete"


def test_a_refusal_goes_to_its_region_with_the_typed_value_and_the_message_by_its_field(
    owner_client, campaign
):
    doom = tracker_id(campaign, "Doom")
    response = assert_refused(
        owner_client,
        campaign,
        "do/counter.set/",
        {"tracker": doom, "value": "99", "region": f"tracker-{doom}"},
        message="Doom cannot go above 12.",
        htmx=True,
    )
    assert response["HX-Retarget"] == f"#tracker-{doom}"
    body = text(response)
    field = re.search(
        r'<label class="grow">Value<input [^>]*></label>'
        r'<p class="error" role="alert">',
        body,
    )
    assert field and 'value="99"' in field.group(0) and 'aria-invalid="true"' in field.group(0)
    assert body.count("Doom cannot go above 12.") == 1  # by the field, not again at the top


def test_a_refusal_whose_region_is_gone_shows_on_the_undo_bar(owner_client, campaign):
    notes = tracker_id(campaign, "Notes")
    act(owner_client, campaign, "tracker.remove", tracker=notes, region=f"tracker-{notes}")
    response = act(
        owner_client, campaign, "notes.add", tracker=notes, text="Hello", region=f"tracker-{notes}"
    )
    assert response.status_code == 422
    assert response["HX-Retarget"] == "#undo-bar"
    assert ids(response) == ["undo-bar"]
    assert "That tracker is not in this campaign any more." in text(response)


def test_only_the_refused_form_of_a_region_keeps_what_was_typed(owner_client, campaign):
    banished = tracker_id(campaign, "Banished")
    region = f"tracker-{banished}"
    for card in ("Ashcan", "Bolt"):
        act(owner_client, campaign, "list.add", tracker=banished, text=card, region=region)
    first = campaign.__class__.objects.get(pk=campaign.pk).state["trackers"][2]["items"][0]["id"]
    response = act(
        owner_client,
        campaign,
        "list.remove",
        tracker=banished,
        item=first,
        reason="x" * 201,
        region=region,
    )
    assert response.status_code == 422
    assert text(response).count('value="' + "x" * 201) == 1


def test_forms_give_the_fields_their_limits_and_labels(owner_client, campaign):
    body = text(owner_client.get(f"/c/{campaign.pk}/"))
    assert '<label>Note<textarea name="text" cols="40" rows="2" maxlength="1000" required>' in body
    assert '<label>Name<input type="text" name="name" maxlength="60" required>' in body


@pytest.mark.parametrize("path", ["", "history/", "members/", "settings/"])
def test_every_campaign_page_is_drawn_the_same_way(owner_client, campaign, path):
    act(owner_client, campaign, "counter.adjust", tracker=tracker_id(campaign, "Doom"), delta=1)
    whole = owner_client.get(f"/c/{campaign.pk}/{path}")
    part = owner_client.get(f"/c/{campaign.pk}/{path}", **HTMX)
    for response in (whole, part):
        assert response.status_code == 200
        assert response["X-Campaign-Version"] == "1"
    assert "<html" in text(whole) and "<html" not in text(part)
    assert 'id="campaign-content"' in text(part)


def test_a_members_refusal_shows_in_the_member_list(owner_client, campaign):
    response = owner_client.post(f"/c/{campaign.pk}/members/remove/", {"member": "999"})
    assert response.status_code == 422
    assert re.search(r'id="member-list".*That member cannot be removed.', text(response), re.S)


def test_a_wrong_name_to_delete_shows_by_the_field(owner_client, campaign):
    response = owner_client.post(f"/c/{campaign.pk}/delete/", {"confirm": "Not it"})
    assert response.status_code == 422
    assert re.search(
        r'value="Not it"[^>]*></label><p class="error" role="alert">That is not', text(response)
    )


def live_ids(html: str) -> set[str]:
    return set(re.findall(r'<[a-z0-9]+ [^>]*?\bid="([a-z0-9-]+)"[^>]*\bdata-live', html))


@pytest.mark.sweep
@pytest.mark.parametrize("game", list(GAMES))
def test_every_live_part_of_every_page_is_a_region_the_answer_can_draw(db, game):
    """One way to render: a change's answer draws regions, and there is no whole-content answer
    to fall back on, so every `data-live` element of every page must be a `{% region %}`."""
    owner = factories.user("olive")
    campaign = factories.campaign(game, owner=owner)
    membership = campaign.memberships.get(user=owner)
    client = client_for(owner)
    for page in ["", *campaign.game_module.pages, "history", "members", "settings"]:
        url = page_url(campaign, page)
        wanted = live_ids(text(client.get(url)))
        assert wanted, url
        request = RequestFactory().get(url)
        request.user, request.htmx = owner, True
        context = page_context(request, campaign, membership, page)
        drawn = render_regions(request, campaign, page, context, wanted)
        assert drawn.seen == wanted, (url, wanted - drawn.seen)
