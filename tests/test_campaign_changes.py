"""Every change a phone can make to a campaign, through the real views, plus undo, redo and replay.

Each change is posted the way the page's forms post it: a plain POST (the page comes back by a
redirect) and an htmx POST (the region's new content comes back at once, status 200).
"""

import datetime
import re
import zoneinfo

import pytest
from django.test import Client
from hypothesis import HealthCheck, given
from hypothesis import settings as hypothesis_settings
from hypothesis import strategies as st

from campaigns.models import Event
from tests.factories import STEP, make_campaign, play_and_check_replay, step_data, tracker_id
from tests.journeys import HTMX, assert_refused, snapshot, text


def act_url(campaign, action: str) -> str:
    return f"/c/{campaign.pk}/do/{action}/"


def post(client, campaign, action: str, htmx: bool = False, **data):
    """POST as the page's forms do: a tracker's form names its region (the hidden fields)."""
    if "tracker" in data:
        data.setdefault("region", f"tracker-{data['tracker']}")
    return client.post(act_url(campaign, action), data, **(HTMX if htmx else {}))


def history_lines(client, campaign) -> list[str]:
    """The history page's lines, newest first, as the reader sees them."""
    page = text(client.get(f"/c/{campaign.pk}/history/"))
    return re.findall(r'<li class="kind-\w+"><span class="text">(.*?)</span>', page)


def tracker_names(campaign) -> list[str]:
    campaign.refresh_from_db()
    return [t["name"] for t in campaign.state["trackers"]]


def tracker(campaign, name: str) -> dict:
    campaign.refresh_from_db()
    return next(t for t in campaign.state["trackers"] if t["name"] == name)


def assert_redirect_to_campaign(response, campaign, region: str | None = None):
    assert response.status_code == 302
    expected = f"/c/{campaign.pk}/"
    if region:
        expected += f"#{region}"
    assert response.url == expected


def assert_region(response):
    """An htmx answer is the live regions the change redrew (all of them for an undo), never a
    whole page."""
    assert response.status_code == 200
    body = text(response)
    assert "data-live" in body and 'id="undo-bar"' in body
    assert "<html" not in body


def counter_output(value: int) -> str:
    return f'<output class="value" aria-live="polite">{value}</output>'


@pytest.fixture
def player_client(player):
    client = Client()
    client.force_login(player)
    return client


# Counters


@pytest.mark.parametrize("htmx", [False, True], ids=["post", "htmx"])
def test_counter_adjust_within_bounds_changes_the_value(owner_client, campaign, htmx):
    doom = tracker_id(campaign, "Doom")
    response = post(owner_client, campaign, "counter.adjust", htmx, tracker=doom, delta=3)
    if htmx:
        assert_region(response)
        assert counter_output(3) in text(response)
    else:
        assert_redirect_to_campaign(response, campaign, f"tracker-{doom}")
        assert counter_output(3) in text(owner_client.get(response.url))
    assert tracker(campaign, "Doom")["value"] == 3
    assert campaign.version == 1
    event = campaign.events.get()
    assert (event.kind, event.action) == (Event.Kind.DO, "counter.adjust")
    assert event.data["to"] == 3
    post(owner_client, campaign, "counter.adjust", htmx, tracker=doom, delta=-2)
    assert tracker(campaign, "Doom")["value"] == 1


def test_counter_adjust_reaches_both_bounds_exactly(owner_client, campaign):
    doom = tracker_id(campaign, "Doom")
    post(owner_client, campaign, "counter.adjust", tracker=doom, delta=12)
    assert tracker(campaign, "Doom")["value"] == 12
    post(owner_client, campaign, "counter.adjust", tracker=doom, delta=-12)
    assert tracker(campaign, "Doom")["value"] == 0
    assert campaign.version == 2


@pytest.mark.parametrize("htmx", [False, True], ids=["post", "htmx"])
@pytest.mark.parametrize(
    ("start", "delta", "message"),
    [(0, -1, "Doom cannot go below 0."), (12, 1, "Doom cannot go above 12.")],
    ids=["below", "above"],
)
def test_counter_adjust_beyond_bounds_is_refused_and_changes_nothing(
    owner_client, campaign, htmx, start, delta, message
):
    doom = tracker_id(campaign, "Doom")
    if start:
        post(owner_client, campaign, "counter.adjust", tracker=doom, delta=start)
    before = snapshot(campaign)
    response = post(
        owner_client,
        campaign,
        "counter.adjust",
        htmx,
        tracker=doom,
        delta=delta,
        region=f"tracker-{doom}",
    )
    assert response.status_code == 422
    assert message in text(response)
    assert 'role="alert"' in text(response)
    assert snapshot(campaign) == before
    assert tracker(campaign, "Doom")["value"] == start


def test_counter_set_changes_the_value(owner_client, campaign):
    doom = tracker_id(campaign, "Doom")
    response = post(
        owner_client, campaign, "counter.set", tracker=doom, value=7, version=campaign.version
    )
    assert_redirect_to_campaign(response, campaign, f"tracker-{doom}")
    assert tracker(campaign, "Doom")["value"] == 7
    response = post(owner_client, campaign, "counter.set", True, tracker=doom, value=9, version=1)
    assert_region(response)
    assert counter_output(9) in text(response)
    assert "Doom set to 9" in text(owner_client.get(f"/c/{campaign.pk}/history/"))


def test_counter_set_beyond_bounds_is_refused(owner_client, campaign):
    doom = tracker_id(campaign, "Doom")
    assert_refused(
        owner_client,
        campaign,
        "do/counter.set/",
        {"tracker": doom, "value": 13, "version": 0, "region": f"tracker-{doom}"},
        message="Doom cannot go above 12.",
    )


@pytest.mark.parametrize("htmx", [False, True], ids=["post", "htmx"])
def test_counter_set_from_a_stale_screen_is_refused_with_409(owner_client, campaign, htmx):
    doom = tracker_id(campaign, "Doom")
    seen = campaign.version
    post(owner_client, campaign, "counter.adjust", tracker=doom, delta=2)  # another phone
    before = snapshot(campaign)
    response = post(
        owner_client,
        campaign,
        "counter.set",
        htmx,
        tracker=doom,
        value=5,
        version=seen,
        region=f"tracker-{doom}",
    )
    assert response.status_code == 409
    assert "Changed meanwhile" in text(response)
    # The answer carries the fresh state, so the phone sees what the other phone did.
    assert counter_output(2) in text(response)
    assert response["X-Campaign-Version"] == "1"
    assert snapshot(campaign) == before


# Checklists


@pytest.mark.parametrize("htmx", [False, True], ids=["post", "htmx"])
def test_checklist_check_and_uncheck_are_idempotent(owner_client, campaign, htmx):
    stickers = tracker(campaign, "Stickers")
    a = stickers["items"][0]["id"]

    def done():
        return [item["done"] for item in tracker(campaign, "Stickers")["items"]]

    for _ in range(2):
        response = post(
            owner_client,
            campaign,
            "checklist.check",
            htmx,
            tracker=stickers["id"],
            item=a,
            done="true",
        )
        assert response.status_code == (200 if htmx else 302)
        assert done() == [True, False, False]
    if htmx:
        assert 'aria-checked="true"' in text(response)
    for _ in range(2):
        post(
            owner_client,
            campaign,
            "checklist.check",
            htmx,
            tracker=stickers["id"],
            item=a,
            done="false",
        )
        assert done() == [False, False, False]


def test_checklist_add_item(owner_client, campaign):
    stickers = tracker_id(campaign, "Stickers")
    response = post(owner_client, campaign, "checklist.add", True, tracker=stickers, label=" D ")
    assert_region(response)
    assert [i["label"] for i in tracker(campaign, "Stickers")["items"]] == ["A", "B", "C", "D"]


def test_checklist_check_of_a_missing_item_is_refused(owner_client, campaign):
    stickers = tracker_id(campaign, "Stickers")
    assert_refused(
        owner_client,
        campaign,
        "do/checklist.check/",
        {"tracker": stickers, "item": 999, "done": "true"},
        message="That entry is not there any more.",
    )


# Lists


def test_a_lists_field_is_labelled_by_what_it_takes_and_its_button_by_what_it_does(
    owner_client, campaign
):
    page = text(owner_client.get(f"/c/{campaign.pk}/"))
    form = re.search(r'<form[^>]*action="[^"]*/do/list\.add/".*?</form>', page, re.DOTALL)
    assert form is not None
    assert re.search(r'<label>Name<input[^>]*name="text"', form.group())
    assert re.search(r'<button type="submit">Add</button>', form.group())


@pytest.mark.parametrize("htmx", [False, True], ids=["post", "htmx"])
def test_list_add_remove_restore_keep_their_reasons(owner_client, campaign, htmx):
    banished = tracker_id(campaign, "Banished")
    response = post(
        owner_client,
        campaign,
        "list.add",
        htmx,
        tracker=banished,
        text="Goblin",
        reason="Too strong",
    )
    assert response.status_code == (200 if htmx else 302)
    [goblin] = tracker(campaign, "Banished")["items"]
    assert (goblin["text"], goblin["reason"], goblin["removed"]) == ("Goblin", "Too strong", False)
    page = text(owner_client.get(f"/c/{campaign.pk}/"))
    assert "Goblin" in page
    assert "Too strong" in page

    response = post(
        owner_client,
        campaign,
        "list.remove",
        htmx,
        tracker=banished,
        item=goblin["id"],
        reason="Back in the deck",
    )
    assert response.status_code == (200 if htmx else 302)
    [goblin] = tracker(campaign, "Banished")["items"]
    assert goblin["removed"] is True
    assert goblin["removed_reason"] == "Back in the deck"
    page = text(owner_client.get(f"/c/{campaign.pk}/"))
    assert "Taken out (1)" in page
    assert "Back in the deck" in page

    # Taking it out twice is refused.
    before = snapshot(campaign)
    response = post(
        owner_client, campaign, "list.remove", htmx, tracker=banished, item=goblin["id"]
    )
    assert response.status_code == 422
    assert "“Goblin” is already taken out." in text(response)
    assert snapshot(campaign) == before

    response = post(
        owner_client, campaign, "list.restore", htmx, tracker=banished, item=goblin["id"]
    )
    assert response.status_code == (200 if htmx else 302)
    [goblin] = tracker(campaign, "Banished")["items"]
    assert (goblin["removed"], goblin["removed_reason"]) == (False, "")

    before = snapshot(campaign)
    response = post(
        owner_client, campaign, "list.restore", htmx, tracker=banished, item=goblin["id"]
    )
    assert response.status_code == 422
    assert "“Goblin” is already in the list." in text(response)
    assert snapshot(campaign) == before

    history = text(owner_client.get(f"/c/{campaign.pk}/history/"))
    assert "Banished: added “Goblin”" in history
    assert "Banished: took out “Goblin”" in history
    assert "Banished: restored “Goblin”" in history


# Notes


@pytest.mark.parametrize("htmx", [False, True], ids=["post", "htmx"])
def test_notes_add_cross_and_restore(owner_client, campaign, htmx):
    notes = tracker_id(campaign, "Notes")
    response = post(owner_client, campaign, "notes.add", htmx, tracker=notes, text="Met the king")
    assert response.status_code == (200 if htmx else 302)
    [note] = tracker(campaign, "Notes")["entries"]
    assert (note["text"], note["crossed"]) == ("Met the king", False)

    response = post(owner_client, campaign, "notes.cross", htmx, tracker=notes, item=note["id"])
    assert response.status_code == (200 if htmx else 302)
    assert tracker(campaign, "Notes")["entries"][0]["crossed"] is True
    page = text(owner_client.get(f"/c/{campaign.pk}/"))
    assert '<span class="text crossed">Met the king</span>' in page

    before = snapshot(campaign)
    response = post(owner_client, campaign, "notes.cross", htmx, tracker=notes, item=note["id"])
    assert response.status_code == 422
    assert "That note is already crossed out." in text(response)
    assert snapshot(campaign) == before

    response = post(owner_client, campaign, "notes.restore", htmx, tracker=notes, item=note["id"])
    assert response.status_code == (200 if htmx else 302)
    assert tracker(campaign, "Notes")["entries"][0]["crossed"] is False

    before = snapshot(campaign)
    response = post(owner_client, campaign, "notes.restore", htmx, tracker=notes, item=note["id"])
    assert response.status_code == 422
    assert "That note is not crossed out." in text(response)
    assert snapshot(campaign) == before


# Results


@pytest.mark.parametrize("htmx", [False, True], ids=["post", "htmx"])
def test_results_add_and_remove(owner_client, campaign, htmx):
    results = tracker_id(campaign, "Results")
    response = post(
        owner_client,
        campaign,
        "results.add",
        htmx,
        tracker=results,
        date="2024-03-05",
        result="win",
        score="42",
        notes="close one",
    )
    assert response.status_code == (200 if htmx else 302)
    response = post(
        owner_client,
        campaign,
        "results.add",
        htmx,
        tracker=results,
        date="2024-03-12",
        result="loss",
        score="",
    )
    rows = tracker(campaign, "Results")["rows"]
    assert [(r["date"], r["result"], r["score"], r["notes"]) for r in rows] == [
        ("2024-03-05", "win", 42, "close one"),
        ("2024-03-12", "loss", None, ""),
    ]
    page = text(owner_client.get(f"/c/{campaign.pk}/"))
    assert "1 won, 1 lost" in page
    assert '<td>2024-03-05</td><td>Win</td><td class="score">42</td>' in page

    response = post(
        owner_client, campaign, "results.remove", htmx, tracker=results, item=rows[0]["id"]
    )
    assert response.status_code == (200 if htmx else 302)
    assert [r["date"] for r in tracker(campaign, "Results")["rows"]] == ["2024-03-12"]
    history = text(owner_client.get(f"/c/{campaign.pk}/history/"))
    assert "Results: added a row for 2024-03-05 (Win)" in history
    assert "Results: removed the row of 2024-03-05" in history


def test_results_add_with_a_bad_date_or_result_is_refused(owner_client, campaign):
    results = tracker_id(campaign, "Results")
    before = snapshot(campaign)
    not_played = "Pick a day from 1970 to today."
    for data, message in (
        ({"date": "2024-02-30", "result": "win"}, "Enter a valid date."),
        ({"date": "yesterday", "result": "win"}, "Enter a valid date."),
        ({"date": "2024-02-03", "result": "draw"}, "Select a valid choice."),
        ({"date": "2099-02-03", "result": "win"}, not_played),
        ({"date": "1969-12-31", "result": "win"}, not_played),
    ):
        response = post(owner_client, campaign, "results.add", tracker=results, **data)
        assert response.status_code == 422
        assert 'role="alert"' in text(response)
        assert message in text(response), data
    assert snapshot(campaign) == before


def test_a_result_can_be_logged_today_where_the_phone_is(owner_client, campaign):
    """Today where the phone is may be the server's tomorrow (Kiritimati is 14 hours ahead of
    UTC): it is a day played."""
    results = tracker_id(campaign, "Results")
    owner_client.cookies["tz"] = "Pacific/Kiritimati"
    today = datetime.datetime.now(zoneinfo.ZoneInfo("Pacific/Kiritimati")).date().isoformat()
    data = {"tracker": results, "date": today, "result": "win"}
    response = post(owner_client, campaign, "results.add", **data)
    assert response.status_code == 302
    assert [r["date"] for r in tracker(campaign, "Results")["rows"]] == [today]


# Adding and removing trackers


@pytest.mark.parametrize(
    ("data", "expected"),
    [
        (
            {"kind": "counter", "name": "Life", "minimum": "0", "maximum": "30", "start": "30"},
            {"kind": "counter", "minimum": 0, "maximum": 30, "value": 30, "start": 30},
        ),
        (
            {"kind": "counter", "name": "Round"},
            {"kind": "counter", "minimum": None, "maximum": None, "value": 0},
        ),
        (
            {"kind": "checklist", "name": "Envelopes", "items": "X, Y ,, Z"},
            {"kind": "checklist"},
        ),
        # As a Japanese or Chinese keyboard writes the commas (the field's label says so).
        (
            {"kind": "checklist", "name": "Seals", "items": "X、Y，，Z"},
            {"kind": "checklist"},
        ),
        ({"kind": "list", "name": "Dead heroes"}, {"kind": "list", "items": []}),
        ({"kind": "notes", "name": "Rumours"}, {"kind": "notes", "entries": []}),
        ({"kind": "results", "name": "Scores"}, {"kind": "results", "rows": []}),
    ],
    ids=[
        "counter",
        "open-counter",
        "checklist",
        "checklist-full-width",
        "list",
        "notes",
        "results",
    ],
)
def test_tracker_add_for_each_kind(owner_client, campaign, data, expected):
    response = post(owner_client, campaign, "tracker.add", True, region="add-tracker", **data)
    assert_region(response)
    assert f'<h2 id="tracker-9-name">{data["name"]}</h2>' in text(response)
    added = tracker(campaign, data["name"])
    assert added["id"] == 9
    for key, value in expected.items():
        assert added[key] == value
    if data["kind"] == "checklist":
        assert [i["label"] for i in added["items"]] == ["X", "Y", "Z"]
        assert all(not i["done"] for i in added["items"])
    assert f"Added the tracker “{data['name']}”" in text(
        owner_client.get(f"/c/{campaign.pk}/history/")
    )


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"kind": "counter", "name": "doom"}, "There is already a tracker called “doom”."),
        (
            {"kind": "counter", "name": "Life", "minimum": "10", "maximum": "0"},
            "The lowest value is above the highest.",
        ),
        (
            {"kind": "counter", "name": "Life", "minimum": "0", "maximum": "10", "start": "11"},
            "The start value is outside the bounds.",
        ),
        ({"kind": "dial", "name": "Dial"}, "Select a valid choice."),
        ({"kind": "list", "name": ""}, "This field is required."),
    ],
    ids=["duplicate", "low-above-high", "start-outside", "unknown-kind", "no-name"],
)
def test_tracker_add_refused_with_a_message(owner_client, campaign, data, message):
    data = {**data, "region": "add-tracker"}
    assert_refused(owner_client, campaign, "do/tracker.add/", data, message=message, htmx=True)


@pytest.mark.parametrize("htmx", [False, True], ids=["post", "htmx"])
def test_tracker_remove(owner_client, campaign, htmx):
    banished = tracker_id(campaign, "Banished")
    response = post(owner_client, campaign, "tracker.remove", htmx, tracker=banished)
    assert response.status_code == (200 if htmx else 302)
    assert "Banished" not in tracker_names(campaign)
    assert 'id="tracker-6"' not in text(owner_client.get(f"/c/{campaign.pk}/"))
    assert "Removed the tracker “Banished”" in text(owner_client.get(f"/c/{campaign.pk}/history/"))

    before = snapshot(campaign)
    response = post(owner_client, campaign, "tracker.remove", htmx, tracker=banished)
    assert response.status_code == 422
    assert snapshot(campaign) == before


def test_a_change_to_a_tracker_removed_meanwhile_says_why_it_was_refused(owner_client, campaign):
    banished = tracker_id(campaign, "Banished")
    post(owner_client, campaign, "tracker.remove", tracker=banished)
    before = snapshot(campaign)
    # The second phone still shows the list and adds to it (its form names region tracker-6).
    response = post(owner_client, campaign, "list.add", tracker=banished, text="Goblin")
    assert response.status_code == 422
    assert snapshot(campaign) == before
    assert "That tracker is not in this campaign any more." in text(response)


# The campaign itself


@pytest.mark.parametrize("htmx", [False, True], ids=["post", "htmx"])
def test_campaign_rename(owner_client, campaign, htmx):
    response = post(
        owner_client,
        campaign,
        "campaign.rename",
        htmx,
        name="  Second act ",
        version=campaign.version,
    )
    assert response.status_code == (200 if htmx else 302)
    campaign.refresh_from_db()
    assert campaign.name == "Second act"
    assert campaign.state["name"] == "Second act"
    assert "<title>Second act · Companion</title>" in text(owner_client.get(f"/c/{campaign.pk}/"))
    assert "Renamed the campaign to “Second act”" in text(
        owner_client.get(f"/c/{campaign.pk}/history/")
    )


def test_campaign_rename_from_a_stale_screen_is_refused(owner_client, campaign):
    doom = tracker_id(campaign, "Doom")
    post(owner_client, campaign, "counter.adjust", tracker=doom, delta=1)
    before = snapshot(campaign)
    for htmx in (False, True):
        response = post(owner_client, campaign, "campaign.rename", htmx, name="Later", version=0)
        assert response.status_code == 409
        assert snapshot(campaign) == before
    assert campaign.name == "Our campaign"


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"name": "Later", "version": "0"}, "Changed meanwhile"),
        ({"name": "   ", "version": "1"}, "This field is required."),
    ],
    ids=["stale", "blank"],
)
def test_a_refused_rename_from_the_settings_page_says_why(owner_client, campaign, data, message):
    doom = tracker_id(campaign, "Doom")
    post(owner_client, campaign, "counter.adjust", tracker=doom, delta=1)
    before = snapshot(campaign)
    response = post(owner_client, campaign, "campaign.rename", region="rename", **data)
    assert response.status_code in (409, 422)
    assert snapshot(campaign) == before
    assert message in text(response)


def test_campaign_rename_by_a_player_is_allowed(player_client, campaign):
    response = post(player_client, campaign, "campaign.rename", name="Pat's idea")
    assert response.status_code == 302
    campaign.refresh_from_db()
    assert campaign.name == "Pat's idea"


def test_campaign_archive_and_bring_back_by_the_owner(owner_client, campaign):
    response = post(owner_client, campaign, "campaign.archive", archived="on")
    assert_redirect_to_campaign(response, campaign)
    campaign.refresh_from_db()
    assert campaign.archived is True
    assert campaign.state["archived"] is True
    assert "(archived)" in text(owner_client.get("/"))
    assert "Bring it back" in text(owner_client.get(f"/c/{campaign.pk}/settings/"))

    post(owner_client, campaign, "campaign.archive", archived="")
    campaign.refresh_from_db()
    assert campaign.archived is False
    assert "(archived)" not in text(owner_client.get("/"))


def test_campaign_archive_by_a_player_is_forbidden(player_client, campaign):
    before = snapshot(campaign)
    response = post(player_client, campaign, "campaign.archive", archived="on")
    assert response.status_code == 403
    assert snapshot(campaign) == before


# Undo and redo


def undo(client, campaign, htmx=False, **data):
    return client.post(f"/c/{campaign.pk}/undo/", data, **(HTMX if htmx else {}))


def redo(client, campaign, htmx=False, **data):
    return client.post(f"/c/{campaign.pk}/redo/", data, **(HTMX if htmx else {}))


def test_three_changes_undo_two_redo_one(owner_client, campaign):
    doom = tracker_id(campaign, "Doom")
    stickers = tracker(campaign, "Stickers")
    post(owner_client, campaign, "counter.adjust", tracker=doom, delta=1)
    post(owner_client, campaign, "counter.adjust", tracker=doom, delta=1)
    post(
        owner_client,
        campaign,
        "checklist.check",
        tracker=stickers["id"],
        item=stickers["items"][0]["id"],
        done="true",
    )
    assert tracker(campaign, "Doom")["value"] == 2
    assert tracker(campaign, "Stickers")["items"][0]["done"] is True

    assert undo(owner_client, campaign).status_code == 302
    response = undo(owner_client, campaign, back="history")
    assert response.status_code == 302
    assert response.url == f"/c/{campaign.pk}/history/"
    assert tracker(campaign, "Doom")["value"] == 1
    assert tracker(campaign, "Stickers")["items"][0]["done"] is False

    response = redo(owner_client, campaign, htmx=True)
    assert_region(response)
    assert counter_output(2) in text(response)
    assert tracker(campaign, "Doom")["value"] == 2
    assert tracker(campaign, "Stickers")["items"][0]["done"] is False
    assert campaign.version == 6

    assert history_lines(owner_client, campaign) == [
        "Redid: Doom +1 (now 2)",
        "Undid: Doom +1 (now 2)",
        "Undid: Stickers: ticked “A”",
        "Stickers: ticked “A”",
        "Doom +1 (now 2)",
        "Doom +1 (now 1)",
    ]
    # What is left to undo and to redo, as the page's bar says it.
    page = text(owner_client.get(f"/c/{campaign.pk}/"))
    assert '<bdi>Doom +1 (now 2)</bdi> · <bdi class="who">' in page
    assert 'title="Stickers: ticked “A”"' in page


def test_undo_of_a_change_that_is_no_longer_the_newest_is_refused(owner_client, campaign):
    doom = tracker_id(campaign, "Doom")
    post(owner_client, campaign, "counter.adjust", tracker=doom, delta=1)
    first = campaign.events.get(seq=1)
    post(owner_client, campaign, "counter.adjust", tracker=doom, delta=1)  # another phone
    before = snapshot(campaign)
    for htmx in (False, True):
        response = undo(owner_client, campaign, htmx=htmx, event=first.pk)
        assert response.status_code == 409
        assert "Changed meanwhile" in text(response)
        assert snapshot(campaign) == before
    assert tracker(campaign, "Doom")["value"] == 2


def test_undo_and_redo_naming_the_right_event_work(owner_client, campaign):
    doom = tracker_id(campaign, "Doom")
    post(owner_client, campaign, "counter.adjust", tracker=doom, delta=4)
    newest = campaign.events.get(seq=1)
    assert undo(owner_client, campaign, event=newest.pk).status_code == 302
    assert tracker(campaign, "Doom")["value"] == 0
    undo_event = campaign.events.get(seq=2)
    assert redo(owner_client, campaign, event=undo_event.pk).status_code == 302
    assert tracker(campaign, "Doom")["value"] == 4


def test_redo_naming_an_older_undo_is_refused(owner_client, campaign):
    doom = tracker_id(campaign, "Doom")
    post(owner_client, campaign, "counter.adjust", tracker=doom, delta=1)
    post(owner_client, campaign, "counter.adjust", tracker=doom, delta=1)
    undo(owner_client, campaign)
    first_undo = campaign.events.get(seq=3)
    undo(owner_client, campaign)  # another phone undoes once more
    assert_refused(
        owner_client,
        campaign,
        "redo/",
        {"event": first_undo.pk},
        status=409,
        message="Changed meanwhile",
        htmx=True,
    )
    assert tracker(campaign, "Doom")["value"] == 0


def test_what_people_type_is_shown_as_text_not_markup(owner_client, campaign):
    notes = tracker_id(campaign, "Notes")
    post(owner_client, campaign, "notes.add", tracker=notes, text="<script>alert(1)</script>")
    post(owner_client, campaign, "tracker.add", kind="list", name="<b>Foes</b>")
    for url in (f"/c/{campaign.pk}/", f"/c/{campaign.pk}/history/"):
        page = text(owner_client.get(url))
        assert "<script>alert(1)</script>" not in page
        assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page
        assert "<b>Foes</b>" not in page
        assert "&lt;b&gt;Foes&lt;/b&gt;" in page


def test_nothing_to_undo_on_a_new_campaign(owner_client, campaign):
    assert_refused(owner_client, campaign, "undo/", message="There is nothing to undo.")
    assert "Nothing to undo" in text(owner_client.get(f"/c/{campaign.pk}/"))


def test_a_new_change_after_an_undo_leaves_nothing_to_redo(owner_client, campaign):
    doom = tracker_id(campaign, "Doom")
    post(owner_client, campaign, "counter.adjust", tracker=doom, delta=1)
    undo(owner_client, campaign)
    campaign.refresh_from_db()
    assert campaign.redo_top is not None
    post(owner_client, campaign, "counter.adjust", tracker=doom, delta=5)
    assert_refused(owner_client, campaign, "redo/", message="There is nothing to redo.")
    assert tracker(campaign, "Doom")["value"] == 5
    page = text(owner_client.get(f"/c/{campaign.pk}/"))
    assert 'title="Redo"' in page


def test_undo_brings_back_a_removed_tracker(owner_client, campaign):
    banished = tracker_id(campaign, "Banished")
    post(owner_client, campaign, "list.add", tracker=banished, text="Goblin", reason="why not")
    kept = tracker(campaign, "Banished")
    post(owner_client, campaign, "tracker.remove", tracker=banished)
    assert "Banished" not in tracker_names(campaign)
    response = undo(owner_client, campaign, htmx=True)
    assert_region(response)
    assert "Goblin" in text(response)
    assert tracker(campaign, "Banished") == kept
    assert tracker_names(campaign) == ["Doom", "Stickers", "Banished", "Notes", "Results"]
    assert history_lines(owner_client, campaign)[0] == "Undid: Removed the tracker “Banished”"


def test_undo_of_a_rename_gives_the_old_name_back(owner_client, campaign):
    post(owner_client, campaign, "campaign.rename", name="New name")
    undo(owner_client, campaign)
    campaign.refresh_from_db()
    assert campaign.name == "Our campaign"
    assert campaign.state["name"] == "Our campaign"


# Replay: the cached state is always what the events add up to


@hypothesis_settings(
    max_examples=25,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(steps=st.lists(STEP, min_size=1, max_size=14))
def test_replay_equals_the_cached_state_after_any_sequence(owner, steps):
    campaign = make_campaign(owner)
    fresh = play_and_check_replay(
        campaign, owner, steps, lambda campaign, step: (*step_data(campaign, step), None)
    )
    assert fresh.name == fresh.state["name"]
    assert fresh.archived == fresh.state["archived"]
