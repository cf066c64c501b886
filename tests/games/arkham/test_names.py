"""Names as the group's cards print them (issue 20): the picker tells two cards of one
investigator apart, and the group gives a picked investigator its own name once, which every
phone, the history and the table display show while the card's facts stay."""

import random
import re
from collections import Counter

from django.test import Client
from django.utils import translation

from campaigns.views.display import display_url
from tests import factories
from tests.factories import SAMPLE_POSTS, SAMPLE_SETUPS, client_for, sample_data
from tests.games.arkham.helpers import (
    add_investigator,
    investigator,
    make_arkham,
    post,
    state,
    text,
)
from tests.journeys import assert_refused


def picker_labels(page: str) -> list[str]:
    """The investigator list's entries as the phone shows them (label and health/sanity)."""
    select = re.search(r'<select name="code".*?</select>', page, re.S)
    assert select, "no investigator list on the page"
    return [
        " ".join(label.split())
        for label in re.findall(r'<option value="\d+\w?"[^>]*>([^<]*)</option>', select[0])
    ]


def pick(client, campaign, code: str, player: str = "Olive") -> int:
    response = post(
        client, campaign, "investigator.add", code=code, player=player, region="add-investigator"
    )
    assert response.status_code == 302, text(response)
    return state(campaign)["investigators"][-1]["id"]


def rename(client, campaign, who: int, called: str, htmx=False):
    return post(
        client,
        campaign,
        "investigator.rename",
        htmx,
        investigator=who,
        called=called,
        region=f"inv-{who}",
    )


# --- the picker ------------------------------------------------------------------------------


def test_no_two_entries_of_the_picker_read_the_same(owner_client, ark):
    labels = picker_labels(text(owner_client.get(f"/c/{ark.pk}/")))
    assert len(labels) > 90
    assert [label for label, n in Counter(labels).items() if n > 1] == []


def test_two_cards_of_one_investigator_show_their_class_version_and_box(owner_client, ark):
    labels = picker_labels(text(owner_client.get(f"/c/{ark.pk}/")))
    for expected in (
        # The same name, title, health and sanity: the class tells them apart.
        "Agatha Crane: The Parapsychologist · Seeker (6/8)",
        "Agatha Crane: The Parapsychologist · Mystic (6/8)",
        # A parallel version.
        "Roland Banks: The Fed · Guardian (9/5)",
        "Roland Banks: The Fed · Guardian · parallel (9/5)",
        # The same class in two boxes: the box.
        "Dexter Drake: The Magician · Mystic · The Innsmouth Conspiracy (6/8)",
        "Dexter Drake: The Magician · Mystic · Core Set (2026) (6/8)",
        "Marie Lambeau: The Entertainer · Mystic · starter deck (8/7)",
    ):
        assert expected in labels


def test_a_chinese_phone_reads_the_chinese_editions_names_in_the_picker(owner_client, ark):
    owner_client.cookies["django_language"] = "zh-hans"
    labels = picker_labels(text(owner_client.get(f"/c/{ark.pk}/")))
    assert "罗兰·班克斯: 联邦调查员 · 守护者 (9/5)" in labels
    owner_client.cookies["django_language"] = "zh-hant"
    labels = picker_labels(text(owner_client.get(f"/c/{ark.pk}/")))
    assert "羅蘭·班克斯: 聯邦調查員 · 守衛者 (9/5)" in labels


# --- the group's own name --------------------------------------------------------------------


def test_a_renamed_investigator_keeps_the_cards_facts_and_reads_the_groups_name(
    owner, owner_client, player, ark
):
    roland = pick(owner_client, ark, "01001")
    post(owner_client, ark, "investigator.trauma", investigator=roland, kind="physical", delta=1)
    ark.apply("bag.draw", {}, owner)
    response = rename(owner_client, ark, roland, " ローランド・バンクス ")
    assert response.status_code == 302, text(response)
    found = investigator(ark, roland)
    assert (found["name"], found["code"]) == ("ローランド・バンクス", "01001")
    assert (found["health"], found["sanity"], found["physical"]) == (9, 5, 1)
    post(owner_client, ark, "investigator.trauma", investigator=roland, kind="mental", delta=1)

    # Another phone, in another language, reads the group's name on the table page.
    friend = client_for(player)
    friend.cookies["django_language"] = "zh-hans"
    page = text(friend.get(f"/c/{ark.pk}/"))
    assert f'<bdi id="inv-{roland}-name">ローランド・バンクス</bdi>' in page
    assert "罗兰·班克斯</bdi>" not in page
    english = text(owner_client.get(f"/c/{ark.pk}/"))
    assert f'<bdi id="inv-{roland}-name">ローランド・バンクス</bdi>' in english
    assert "health 9, sanity 5" in english
    assert "physical 1/9" in english
    # The history: the rename itself, and what came after it.
    history = text(client_for(owner).get(f"/c/{ark.pk}/history/"))
    assert "Roland Banks is now called ローランド・バンクス" in " ".join(
        re.sub(r"</?bdi>|\u2068|\u2069", "", history).split()
    )
    assert "ローランド・バンクス: mental trauma +1" in re.sub(r"</?bdi>|\u2068|\u2069", "", history)
    # The table display: the last test drawn names them the group's way.
    display = text(Client().get(display_url(ark)))
    assert "<bdi>ローランド・バンクス</bdi>" in display


def test_what_was_recorded_of_a_picked_card_reads_in_the_readers_language(
    owner, owner_client, player, ark
):
    """A picked investigator keeps the card's English name in the state and in what was recorded
    of them (a test drawn, a change's words); a Chinese phone reads the Chinese edition's name
    there too, as it does on the table page: the drawn line, the undo bar, the history and the
    table display."""
    roland = pick(owner_client, ark, "01001")
    ark.apply("bag.draw", {}, owner)
    post(owner_client, ark, "bag.done", region="bag-test")
    post(owner_client, ark, "investigator.trauma", investigator=roland, kind="physical", delta=1)
    assert investigator(ark, roland)["name"] == "Roland Banks"

    def plain(page: str) -> str:
        return " ".join(re.sub(r"</?bdi[^>]*>|\u2068|\u2069", "", page).split())

    friend = client_for(player)
    for language, name in (("zh-hans", "罗兰·班克斯"), ("zh-hant", "羅蘭·班克斯")):
        friend.cookies["django_language"] = language
        bag = plain(text(friend.get(f"/c/{ark.pk}/p/bag/")))
        assert "Roland Banks" not in bag, language
        drawn = re.search(r'<ol class="list draws">.*?</ol>', bag, re.S)
        assert drawn and re.search(rf'<span class="text">[^<]* · {name} </span>', drawn[0])
        undo_bar = re.search(r'<details class="what">.*?</details>', bag, re.S)
        assert undo_bar and name in undo_bar[0], language
        history = plain(text(friend.get(f"/c/{ark.pk}/history/")))
        assert name in history and "Roland Banks" not in history, language
        tablet = Client()
        tablet.cookies["django_language"] = language
        assert f"<bdi>{name}</bdi>" in text(tablet.get(display_url(ark)))
    # An English phone reads the card's English name; a Japanese one too (no Japanese edition's
    # name is known).
    for language in ("en", "ja"):
        friend.cookies["django_language"] = language
        history = plain(text(friend.get(f"/c/{ark.pk}/history/")))
        assert "Roland Banks" in history and "罗兰" not in history, language
    friend.cookies["django_language"] = "en"
    assert "Roland Banks: physical trauma +1" in plain(text(friend.get(f"/c/{ark.pk}/history/")))
    # A refusal names them so too.
    friend.cookies["django_language"] = "zh-hans"
    refused = post(
        friend,
        ark,
        "investigator.trauma",
        True,
        investigator=roland,
        kind="mental",
        delta=-1,
        region=f"inv-{roland}",
    )
    assert refused.status_code == 422
    said = re.findall(r'role="alert">([^<]*)<', text(refused))
    assert said and "罗兰·班克斯" in said[0] and "Roland" not in said[0], said


def test_the_bag_page_names_the_one_testing_the_groups_way(owner, owner_client, ark):
    roland = pick(owner_client, ark, "01001")
    owner_client.cookies["django_language"] = "zh-hant"  # before: the card's name, read so
    page = text(owner_client.get(f"/c/{ark.pk}/p/bag/"))
    assert f'<option value="{roland}" selected>羅蘭·班克斯</option>' in page
    owner_client.cookies["django_language"] = "en"
    rename(owner_client, ark, roland, "ローランド")
    page = text(owner_client.get(f"/c/{ark.pk}/p/bag/"))
    assert f'<option value="{roland}" selected>ローランド</option>' in page


def test_a_rename_is_undone_and_an_empty_name_goes_back_to_the_card(owner, owner_client, ark):
    roland = pick(owner_client, ark, "01001")
    rename(owner_client, ark, roland, "ローランド")
    ark = factories.play(ark, owner, [("undo",)])
    assert investigator(ark, roland)["name"] == "Roland Banks"
    ark = factories.play(ark, owner, [("redo",)])
    assert investigator(ark, roland)["name"] == "ローランド"
    rename(owner_client, ark, roland, "  ")
    assert investigator(ark, roland)["name"] == "Roland Banks"
    # Back to the card's name, a Chinese phone reads the Chinese edition's again.
    owner_client.cookies["django_language"] = "zh-hant"
    page = text(owner_client.get(f"/c/{ark.pk}/"))
    assert f'<bdi id="inv-{roland}-name">羅蘭·班克斯</bdi>' in page


def test_the_rename_field_offers_the_name_in_the_readers_language(owner_client, ark):
    pick(owner_client, ark, "01001")
    owner_client.cookies["django_language"] = "zh-hans"
    page = text(owner_client.get(f"/c/{ark.pk}/"))
    assert re.search(r'<input type="text" name="called" value="罗兰·班克斯"', page)
    owner_client.cookies["django_language"] = "ja"  # no Japanese edition's name known
    page = text(owner_client.get(f"/c/{ark.pk}/"))
    assert re.search(r'<input type="text" name="called" value="Roland Banks"', page)


def test_a_rename_is_refused_next_to_the_field_when_it_cannot_be(owner_client, ark):
    roland = pick(owner_client, ark, "01001")
    daisy = pick(owner_client, ark, "01002", player="Bo")
    wendy = add_investigator(owner_client, ark, name="Wendy", player="Cy", health=7, sanity=7)
    cases = [
        ({"investigator": daisy, "called": "roland  banks"}, "already called Roland Banks"),
        # What a Chinese phone reads for Roland is his too.
        ({"investigator": daisy, "called": "罗兰·班克斯"}, "already called Roland Banks"),
        ({"investigator": wendy, "called": ""}, "Type the name your group calls"),
        ({"investigator": roland, "called": "x" * 81}, "at most 80 characters"),
        ({"investigator": 999, "called": "Someone"}, "not in this campaign"),
        ({"investigator": "one", "called": "Someone"}, "Enter a whole number"),
    ]
    for data, message in cases:
        region = f"inv-{data['investigator'] if data['investigator'] in (daisy, wendy) else roland}"
        response = assert_refused(
            owner_client,
            ark,
            "do/investigator.rename/",
            {**data, "region": region},
            message=message,
            htmx=True,
        )
        assert response.status_code == 422


# --- a scenario ------------------------------------------------------------------------------


def test_a_renamed_scenario_reads_the_groups_name_and_stays_the_same_scenario(
    owner, owner_client, player, ark
):
    roland = pick(owner_client, ark, "01001")
    post(owner_client, ark, "scenario.start", scenario="torch", region="ark-overview")
    response = post(
        owner_client,
        ark,
        "scenario.rename",
        scenario="torch",
        called="ギャザリング",
        region="ark-overview",
    )
    assert response.status_code == 302, text(response)
    assert (state(ark)["scenario_id"], state(ark)["scenario"]) == ("torch", "The Gathering")
    friend = client_for(player)
    friend.cookies["django_language"] = "zh-hans"
    table = text(friend.get(f"/c/{ark.pk}/"))
    assert "<strong>ギャザリング</strong>" in re.sub(r"[\u2066-\u2069]", "", table)
    assert ">ギャザリング ✓<" not in table and ">ギャザリング<" in table  # the list too
    for page in ("bag", "round"):
        assert "ギャザリング" in text(friend.get(f"/c/{ark.pk}/p/{page}/"))
    # Recorded, the result keeps the group's name; the history says what was renamed.
    post(
        owner_client,
        ark,
        "scenario.record",
        scenario_id="torch",
        resolution="R1",
        region="record-scenario",
        **{f"xp-{roland}": 2},
    )
    results = text(friend.get(f"/c/{ark.pk}/"))
    assert re.search(r"<strong>\u2068?ギャザリング\u2069?</strong> · \u2068?R1", results)
    history = re.sub(
        r"</?bdi>|[\u2066-\u2069]", "", text(owner_client.get(f"/c/{ark.pk}/history/"))
    )
    assert "The Gathering is now called ギャザリング" in history
    assert "Recorded the scenario “ギャザリング”: R1" in history
    post(owner_client, ark, "scenario.start", scenario="torch", region="ark-overview")
    history = re.sub(
        r"</?bdi>|[\u2066-\u2069]", "", text(owner_client.get(f"/c/{ark.pk}/history/"))
    )
    assert "Started the scenario “ギャザリング”" in history


def test_a_scenario_rename_is_undone_and_refused_for_a_scenario_not_in_the_list(
    owner, owner_client, ark
):
    post(owner_client, ark, "scenario.start", scenario="torch", region="ark-overview")
    ark.apply("scenario.rename", {"scenario": "torch", "called": "Ours"}, owner)
    assert state(ark)["scenario_names"] == {"torch": "Ours"}
    ark = factories.play(ark, owner, [("undo",)])
    assert state(ark).get("scenario_names", {}) == {}
    for data, message in (
        ({"scenario": "curtain_call", "called": "X"}, "not in this campaign's list"),
        ({"scenario": "torch", "called": "x" * 81}, "at most 80 characters"),
    ):
        assert_refused(
            owner_client,
            ark,
            "do/scenario.rename/",
            {**data, "region": "ark-overview"},
            message=message,
            htmx=True,
        )


def test_a_scenario_played_more_than_once_is_numbered_in_the_list(owner, owner_client):
    eoe = make_arkham(owner, campaign="eoe", name="Edge")
    page = text(owner_client.get(f"/c/{eoe.pk}/"))
    start = re.search(r'<select name="scenario".*?</select>', page, re.S)
    assert start
    labels = [" ".join(t.split()) for t in re.findall(r">([^<]+)</option>", start[0])]
    assert [label for label in labels if "Fatal Mirage" in label] == [
        "Fatal Mirage (1)",
        "Fatal Mirage (2)",
        "Fatal Mirage (3)",
    ]
    assert len(labels) == len(set(labels))


def test_every_change_that_names_a_picked_investigator_reads_it_in_the_readers_language(
    owner, monkeypatch
):
    """Every Arkham command of the sweep's samples, played with two investigators picked from
    the cards instead of typed: no history line names them in English on a Chinese phone. A new
    description that forgot catalogue.reader_name would."""
    # The same draws every run, as the sweeps draw: a sample seals a token a draw may have
    # left in the bag or not.
    monkeypatch.setattr("campaigns.models._system_random", random.Random(12))
    steps = [
        ("investigator.add", {"code": "01001", "player": "Ann"}),
        ("investigator.add", {"code": "01002", "player": "Bo"}),
        *SAMPLE_POSTS["arkham"][2:],
    ]
    campaign = factories.campaign("arkham", owner=owner, setup=SAMPLE_SETUPS["arkham"])
    acting = client_for(owner)
    for action, sample in steps:
        data, _made = sample_data(campaign, owner, sample)
        response = acting.post(f"/c/{campaign.pk}/do/{action}/", data)
        assert response.status_code == 302, (action, data)
    game = campaign.game_module
    with translation.override("zh-hans"):
        lines = [event.describe(game) for event in campaign.events.order_by("seq")]
    english = [line for line in lines if "Roland Banks" in line or "Daisy Walker" in line]
    assert english == []
    assert sum("罗兰·班克斯" in line for line in lines) >= 10, lines


def test_a_recorded_scenario_names_a_picked_investigator_in_the_readers_language(owner):
    ark = make_arkham(owner)
    client = client_for(owner)
    roland = pick(client, ark, "01001")
    ark.apply(
        "scenario.record",
        {
            "scenario": "The Gathering",
            "resolution": "R1",
            f"xp-{roland}": 2,
            f"physical-{roland}": 1,
        },
        owner,
    )
    results = re.search(
        r'id="scenario-results".*?</section>',
        text(client.get(f"/c/{ark.pk}/", HTTP_ACCEPT_LANGUAGE="zh-hans")),
        re.DOTALL,
    )
    assert results is not None
    plain = re.sub(r"<[^>]+>|\u2068|\u2069", "", results.group())
    assert "罗兰·班克斯：2 经验值" in plain and "Roland Banks" not in plain
    # Chinese punctuation between the parts, not the English ", " (the template's own).
    assert ", " not in plain and "2 经验值、1" in plain
    english = text(client.get(f"/c/{ark.pk}/", HTTP_ACCEPT_LANGUAGE="en"))
    assert re.search(r"Roland Banks(</bdi>|\u2069)?: 2 XP", english)


def test_a_refusal_names_a_picked_investigator_in_the_readers_language(owner):
    """Not enough XP, on a Chinese phone: the investigator's Chinese name, as on their card."""
    ark = make_arkham(owner)
    client = client_for(owner)
    roland = pick(client, ark, "01001")
    client.cookies["django_language"] = "zh-hans"
    response = post(
        client, ark, "investigator.buy", investigator=roland, card="Deduction", level=5,
        region="x",
    )  # fmt: skip
    assert response.status_code == 422
    assert "罗兰·班克斯" in text(response) and "Roland Banks 只有" not in text(response)
