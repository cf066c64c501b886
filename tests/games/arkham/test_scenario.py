"""Starting a scenario and recording it afterwards as one event."""

import re

import pytest

from tests import factories
from tests.factories import client_for
from tests.games.arkham.helpers import (
    add_investigator,
    investigator,
    post,
    scenario_post,
    section,
    state,
    text,
)
from tests.journeys import snapshot


def test_a_scenario_is_recorded_as_one_event_and_one_undo_takes_it_back(owner_client, owner, ark):
    roland = add_investigator(owner_client, ark)
    agnes = add_investigator(owner_client, ark, name="Agnes Baker", health=6, sanity=8)
    post(owner_client, ark, "bag.change", token="bless", delta=2)
    post(owner_client, ark, "bag.change", token="frost", delta=1)
    ark.apply("bag.seal", {"token": "bless"}, owner)
    interrogated = section(ark, "Cultists We Interrogated")["id"]
    before = snapshot(ark)
    response = scenario_post(
        owner_client,
        ark,
        scenario="The Gathering",
        resolution="Resolution 1",
        **{
            f"xp-{roland}": 2,
            f"physical-{roland}": 1,
            f"mental-{roland}": 0,
            f"xp-{agnes}": 3,
            f"mental-{agnes}": 8,
            f"fate-{agnes}": "",
            f"entry-{interrogated}": "Herman Collins\n\nPeter Warren",
            "bag_op_1": "add",
            "bag_token_1": "cultist",
            "bag_count_1": 1,
            "bag_op_2": "remove",
            "bag_token_2": "-4",
            "bag_count_2": 1,
        },
    )
    assert response.status_code == 302
    after = state(ark)
    assert ark.version == before[0] + 1
    assert investigator(ark, roland)["physical"] == 1 and investigator(ark, roland)["xp"] == 2
    assert investigator(ark, agnes)["status"] == "insane"
    assert after["bag"]["cultist"] == 2 and "-4" not in after["bag"]
    assert "bless" not in after["bag"] and after["sealed"] == {}  # bless left with the scenario
    assert after["bag"]["frost"] == 1  # frost stays
    assert [e["text"] for e in section(ark, "Cultists We Interrogated")["entries"]] == [
        "Herman Collins",
        "Peter Warren",
    ]
    [result] = after["scenarios"]
    assert (result["name"], result["resolution"]) == ("The Gathering", "Resolution 1")
    page = text(owner_client.get(f"/c/{ark.pk}/"))
    assert "Roland Banks: 2 XP, 1 physical trauma" in page
    assert "Agnes Baker: 3 XP, 8 mental trauma, <strong>insane</strong>" in page
    assert "Bag: added 1 × Cultist" in page and "Bag: removed 1 × −4" in page
    assert "Recorded the scenario “The Gathering”: Resolution 1" in text(
        owner_client.get(f"/c/{ark.pk}/history/")
    )
    ark.undo(owner)
    assert snapshot(ark)[1] == before[1]


def test_scenario_results_are_listed_in_order(owner_client, ark):
    add_investigator(owner_client, ark)
    for name in ("The Gathering", "The Midnight Masks", "The Devourer Below"):
        assert scenario_post(owner_client, ark, scenario=name).status_code == 302
    page = text(owner_client.get(f"/c/{ark.pk}/"))
    assert page.index("The Gathering") < page.index("The Midnight Masks")
    assert page.index("The Midnight Masks") < page.index("The Devourer Below")


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        ("physical", -1, "Trauma gained cannot be negative."),
        ("mental", -2, "Trauma gained cannot be negative."),
        ("xp", -1, "XP gained must be from 0 to 100."),
        ("xp", 101, "XP gained must be from 0 to 100."),
        ("xp", "lots", "Enter a whole number."),
    ],
)
def test_a_bad_scenario_record_is_refused_next_to_the_field(
    owner_client, ark, field, value, message
):
    roland = add_investigator(owner_client, ark)
    before = snapshot(ark)
    response = post(
        owner_client,
        ark,
        "scenario.record",
        True,
        region="record-scenario",
        scenario="The Gathering",
        **{f"{field}-{roland}": value, f"xp-{roland}": value if field == "xp" else 1},
    )
    assert response.status_code == 422
    body = text(response)
    assert message in body
    # The message sits in the investigator's fieldset, and what was typed is kept.
    fieldset = re.search(r'<fieldset class="scenario-investigator">.*?</fieldset>', body, re.S)
    assert message.split(": ", 1)[-1] in fieldset.group()
    assert 'value="The Gathering"' in body
    assert snapshot(ark) == before


# A bag row of the "after a scenario" form, as the page draws it (n: the row's number).
BAG_ROW = r'<div class="bag-row[^"]*">.*?name="bag_token_{n}".*?</div>'


def test_a_bag_row_with_a_number_and_no_token_is_refused_next_to_its_token(owner_client, ark):
    """It was recorded with the number dropped without a word."""
    before = snapshot(ark)
    response = scenario_post(owner_client, ark, scenario="X", bag_op_1="add", bag_count_1=2)
    assert response.status_code == 422
    row = re.search(BAG_ROW.format(n=1), text(response), re.S)
    assert row is not None and "Choose the token for this row." in row.group()
    assert snapshot(ark) == before


def test_a_scenario_cannot_remove_a_token_that_is_not_in_the_bag(owner_client, ark):
    """Said next to the row that asks it, not at the top of the long form."""
    before = snapshot(ark)
    response = scenario_post(
        owner_client, ark, scenario="X", bag_op_2="remove", bag_token_2="-8", bag_count_2=1
    )
    assert response.status_code == 422
    row = re.search(BAG_ROW.format(n=2), text(response), re.S)
    assert row is not None and "no −8 token left in the bag" in row.group()
    assert text(response).count("no −8 token left in the bag") == 1
    assert snapshot(ark) == before


def test_a_bag_change_recorded_before_rows_were_named_still_replays(ark):
    """Older histories' bag changes carry no row: they apply as they did."""
    was = state(ark)["bag"].get("-8", 0)
    factories.history(
        ark, [("scenario.record", {"scenario": "X", "bag": [{"token": "-8", "delta": 1}]})]
    )
    assert state(ark)["bag"]["-8"] == was + 1


def test_sealed_tokens_go_back_into_the_bag_when_the_scenario_ends(owner_client, owner, ark):
    add_investigator(owner_client, ark)
    ark.apply("bag.seal", {"token": "elder_sign"}, owner)
    assert state(ark)["sealed"] == {"elder_sign": 1}
    assert scenario_post(owner_client, ark, scenario="The Gathering").status_code == 302
    assert state(ark)["sealed"] == {}
    assert state(ark)["bag"]["elder_sign"] == 1


def test_starting_another_scenario_clears_bless_and_curse(owner_client, owner, ark):
    ark.apply("scenario.start", {"name": "The Gathering"}, owner)
    post(owner_client, ark, "bag.change", token="bless", delta=2)
    post(owner_client, ark, "bag.change", token="frost", delta=1)
    ark.apply("scenario.start", {"name": "The Midnight Masks"}, owner)
    assert "bless" not in state(ark)["bag"]
    assert state(ark)["bag"]["frost"] == 1


# Double taps (issue 12): starting and recording a scenario are refused from a stale screen


def test_starting_a_scenario_twice_from_the_same_screen_starts_it_once(owner_client, player, ark):
    seen = ark.version
    tap = {"region": "ark-overview", "version": seen}
    first = post(owner_client, ark, "scenario.start", True, name="The Gathering", **tap)
    assert first.status_code == 200
    second = post(client_for(player), ark, "scenario.start", True, name="Midnight Masks", **tap)
    assert second.status_code == 409
    assert "Changed meanwhile on another phone" in text(second)
    assert "The Gathering" in text(second)  # what the other tap did
    assert state(ark)["scenario"] == "The Gathering"
    assert ark.events.filter(action="scenario.start").count() == 1


def test_recording_a_scenario_twice_from_the_same_screen_records_it_once(owner_client, ark):
    roland = add_investigator(owner_client, ark)
    ark.refresh_from_db()
    record = {"scenario": "The Gathering", f"xp-{roland}": 2, "version": ark.version}
    assert scenario_post(owner_client, ark, **record).status_code == 302
    response = scenario_post(owner_client, ark, **record, htmx=True)
    assert response.status_code == 409
    assert "Changed meanwhile by your earlier tap on this phone" in text(response)
    assert len(state(ark)["scenarios"]) == 1
    assert investigator(ark, roland)["xp"] == 2


def test_a_section_the_group_typed_reads_as_typed_in_the_scenario_results(owner_client, ark):
    """A typed name is never passed through translation, even one that matches a word of the
    site ("History"); the sections the campaign came with read in the reader's language."""
    add_investigator(owner_client, ark)
    post(owner_client, ark, "tracker.add", kind="notes", name="History", region="add-section")
    typed = section(ark, "History")["id"]
    interrogated = section(ark, "Cultists We Interrogated")["id"]
    response = scenario_post(
        owner_client,
        ark,
        scenario="The Gathering",
        **{f"entry-{typed}": "Lita joined us", f"entry-{interrogated}": "Herman Collins"},
    )
    assert response.status_code == 302
    page = text(owner_client.get(f"/c/{ark.pk}/", HTTP_ACCEPT_LANGUAGE="ja"))
    results = page[page.index('id="scenario-results"') :]
    assert "History" in results and "履歴" not in results
    assert "尋問したカルト信者" in results
