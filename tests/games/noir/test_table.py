"""The Arkham Noir table through the site: what a phone posts, what it reads back, and bad input
refused next to its field with nothing changed (rules.md §4 lines cited where a rule decides)."""

import re

import pytest

from campaigns.games.noir.state import NoirState
from tests import factories
from tests.factories import SAMPLE_POSTS, problems
from tests.journeys import HTMX, assert_refused, text


def post(client, campaign, action, htmx=False, **data):
    return client.post(f"/c/{campaign.pk}/do/{action}/", data, **(HTMX if htmx else {}))


def table(client, campaign) -> str:
    return text(client.get(f"/c/{campaign.pk}/"))


def test_the_new_case_page_sets_up_case_two(owner_client):
    response = owner_client.post(
        "/new/noir/",
        {"name": "Thunder", "case": "case2", "clue_types": 6, "win_rule": "distinct"},
    )
    assert response.status_code == 302
    page = text(owner_client.get(response["Location"]))
    assert "Case 2: Called Forth by Thunder" in page
    assert "Shuffle the four storm cards." in page  # rules.md:726
    assert "Five puzzle-piece cards of different clue types in the Big Picture" in page


def test_case_one_leaves_out_the_storm(owner_client, owner):
    campaign = factories.campaign(
        "noir", owner=owner, setup={"case": "case1", "clue_types": 6, "win_rule": "count"}
    )
    page = table(owner_client, campaign)
    assert "Case 1: The Witch Cult Murders" in page
    assert "Shuffle the four storm cards." not in page
    assert "Set the formula cards and the expert cards aside." not in page
    assert "Set the expert cards aside." in page
    assert 'data-pile="storms_left"' not in page


def test_a_bad_set_up_is_refused_next_to_its_field(owner_client):
    response = owner_client.post(
        "/new/noir/", {"name": "Thunder", "case": "case3", "clue_types": 4, "win_rule": "count"}
    )
    assert response.status_code == 422
    assert "Select a valid choice" in text(response)
    assert "Ensure this value is greater than or equal to 5" in text(response)


def test_a_sixth_clue_row_card_is_refused(owner_client, case):  # rules.md:707
    assert_refused(
        owner_client,
        case,
        "do/noir.pile/",
        {"pile": "row", "delta": 1, "region": "noir-piles"},
        message="The clue row holds five cards, no more.",
    )


def test_a_negative_pile_is_refused(owner_client, case):  # rules.md:700-717
    assert_refused(
        owner_client,
        case,
        "do/noir.pile/",
        {"pile": "madness", "delta": -1, "region": "noir-piles"},
        message="A pile cannot hold fewer than no cards.",
    )


def test_a_second_flash_card_in_a_column_is_refused_next_to_the_field(owner_client, case):
    # rules.md:745: at most one flash card per column, after a lightning storm card.
    for step in (("noir.flag", "lightning"), ("noir.flag", "flash")):
        response = post(
            owner_client, case, step[0], column=1, flag=step[1], on="true", region="noir-columns"
        )
        assert response.status_code == 302
    response = assert_refused(
        owner_client,
        case,
        "do/noir.play/",
        {"column": 1, "type": 2, "flash": "on", "region": "noir-now"},
        message="A case column holds at most one flash card.",
        htmx=True,
    )
    page = text(response)
    # The message sits with the flash checkbox, and the form keeps what was tapped.
    flash_label = page.index('name="flash"')
    assert page.index("A case column holds at most one flash card.") > flash_label
    assert re.search(r'<input type="radio" name="type" value="2"[^>]* checked', page)


def test_closing_a_case_with_four_clue_types_is_refused(owner_client, case):  # rules.md:751
    for clue_type in (1, 2, 3, 4):
        post(owner_client, case, "noir.type", column=1, type=clue_type, present="true")
    assert_refused(
        owner_client,
        case,
        "do/noir.close/",
        {"column": 1, "region": "noir-now"},
        message="This case shows 4 clue types: closing it takes five.",
    )


@pytest.mark.parametrize("htmx", [False, True])
@pytest.mark.parametrize("name", ["", "   ", "\u200b", "\u3164", "\u0301"])
def test_naming_a_victim_with_nothing_to_see_is_refused(owner_client, case, name, htmx):
    assert_refused(
        owner_client,
        case,
        "do/noir.victim/",
        {"column": 1, "name": name, "region": "noir-column-1"},
        message="Type the victim's name.",
        htmx=htmx,
    )
    assert "Named a victim" not in text(owner_client.get(f"/c/{case.pk}/history/"))


@pytest.mark.parametrize(
    ("action", "data"),
    [
        ("noir.play", {"column": "x", "type": 99}),
        ("noir.play", {"column": 99, "type": 1}),
        ("noir.pile", {"pile": "deck", "delta": 5}),
        ("noir.end", {"step": "z"}),
        ("noir.end", {"step": "a"}),  # not in the end phase
        ("noir.sanity", {"outcome": "madness"}),  # none due
        ("noir.storm", {}),
        ("noir.discard", {}),
        ("noir.new", {"case": "case1", "clue_types": 6}),  # the case is not over
        ("noir.victim", {"column": 1, "name": "x" * 61}),
        ("noir.count", {"column": 1, "count": "cards", "delta": -1}),
        ("noir.puzzle", {"column": 1, "type": 1, "delta": -1}),
        ("noir.win_rule", {"win_rule": "most"}),
    ],
)
def test_bad_posts_are_refused_and_change_nothing(owner_client, case, action, data):
    before = (case.version, case.state)
    response = post(owner_client, case, action, htmx=True, region="noir-now", **data)
    assert response.status_code == 422
    case.refresh_from_db()
    assert (case.version, case.state) == before


def test_a_whole_play_keeps_the_state_its_types_describe_and_writes_the_log(owner_client, case):
    for action, data in SAMPLE_POSTS["noir"]:
        response = post(owner_client, case, action, **data)
        assert response.status_code == 302, (action, text(response)[-500:])
        case.refresh_from_db()
        assert problems(case.state, NoirState) == [], action
    assert [e["result"] for e in case.state["log"]] == ["lost"]
    assert case.state["log"][0]["reason"] == "madness"  # rules.md:769


def test_the_log_page_shows_the_play(owner_client, owner):
    campaign = factories.campaign("noir", owner=owner)
    steps = [("noir.pile", {"pile": "madness", "delta": 1})] * 5 + [("noir.pass", {})]
    steps += [("noir.end", {"step": "a"}), ("noir.end", {"step": "b"})]
    factories.play(campaign, owner, steps)
    page = text(owner_client.get(f"/c/{campaign.pk}/p/log/"))
    assert "Five or more cards in the madness area." in page
    assert "Lost" in page
    page = table(owner_client, campaign)
    assert "The case is lost." in page and "Set up a new case" in page


def test_the_storm_names_its_case_column(owner_client, case):  # rules.md:732
    for _ in range(2):
        post(owner_client, case, "noir.count", column=2, count="hourglasses", delta=1)
    post(owner_client, case, "noir.play", column=2, type=1, hourglass="on")
    page = table(owner_client, case)
    assert "The third hourglass in case 2:" in page
    assert "A storm card with lightning" in page


def test_a_three_card_into_a_short_column_is_refused_next_to_its_box(owner_client, case):
    # seed 004:37: a card with the "3" symbol needs that many cards already in the column.
    post(owner_client, case, "noir.count", column=1, count="cards", delta=1)
    response = assert_refused(
        owner_client,
        case,
        "do/noir.play/",
        {"column": 1, "type": 2, "three": "on", "region": "noir-now"},
        message="A card with the “3” symbol needs three cards in the column: it has 1.",
        htmx=True,
    )
    page = text(response)
    assert page.index("needs three cards in the column") > page.index('name="three"')


def test_a_special_key_without_a_master_key_is_refused(owner_client, case):  # seed 004:41
    assert_refused(
        owner_client,
        case,
        "do/noir.play/",
        {"column": 2, "type": 1, "special_key": "on", "region": "noir-now"},
        message="A special key needs a master key already played in the column.",
        htmx=True,
    )
    post(owner_client, case, "noir.flag", column=2, flag="master_key", on="true")
    assert (
        post(owner_client, case, "noir.play", column=2, type=1, special_key="on").status_code == 302
    )


def test_the_set_up_steps_are_numbered_without_repeats(owner_client, owner):
    for setup_case in ("case1", "case2"):
        campaign = factories.campaign(
            "noir", owner=owner, setup={"case": setup_case, "clue_types": 6, "win_rule": "count"}
        )
        page = owner_client.get(f"/c/{campaign.pk}/").content.decode()
        steps = re.search(r'<ol class="setup-steps">(.*?)</ol>', page, re.S)
        assert steps
        numbers = re.findall(r'<span class="letter">(\d+)</span>', steps.group(1))
        assert numbers == [str(n) for n in range(1, len(numbers) + 1)], setup_case


def test_the_end_phase_win_check_reads_with_the_readers_colon(owner_client, owner):
    """Step a of the end phase names the win rule, then "not yet.": a full-width colon in
    Japanese (it was the template's ASCII one)."""
    campaign = factories.campaign("noir", owner=owner)
    factories.play(campaign, owner, [("noir.pass", {})])
    plain = re.compile(r"<[^>]+>|\u2068|\u2069|\s+(?=[:：])")
    assert re.search(r"Big Picture: not yet\.", plain.sub("", table(owner_client, campaign)))
    owner_client.cookies["django_language"] = "ja"
    page = plain.sub("", table(owner_client, campaign))
    assert "パズルピースのカード5枚：まだです。" in page
