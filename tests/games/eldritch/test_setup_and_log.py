"""Setting up a game from the data (or typed), the set-up page's numbers, the games log with
its chart, and the random pick from the group's boxes."""

import random
import re

import pytest

from campaigns.games import GAMES
from campaigns.games.eldritch.setup import setup_of
from campaigns.games.eldritch.state import EldritchState
from campaigns.models import Campaign
from tests import factories
from tests.factories import problems
from tests.games.eldritch.helpers import game, make_eldritch, post, state, text
from tests.journeys import assert_refused

ONE = {"players": 1, "difficulty": "easy", "investigator_1": "Lily Chen"}
NEW = {"name": "Eldritch nights", "ancient_one": "Azathoth", "difficulty": "normal"}


def test_an_investigator_picked_twice_is_said_next_to_the_second_picker(owner_client):
    fields = {"players": 3, "investigator_1": "Lily Chen", "investigator_3": "Lily Chen"}
    page = text(owner_client.post("/new/eldritch/", {**NEW, **fields, "typed": "Ann, 5, 5"}))
    third = page.index('name="investigator_3"')
    message = page.index("Each investigator can be chosen once.")
    assert third < message < page.index('name="typed"')


def test_a_new_campaign_takes_the_investigators_from_the_data(owner_client):
    response = owner_client.post(
        "/new/eldritch/",
        {**NEW, "players": 2, "investigator_1": "Lily Chen", "investigator_2": "Silas Marsh"},
    )
    assert response.status_code == 302, text(response)[-2000:]
    g = Campaign.objects.get().state["game"]
    lily = g["investigators"][0]
    assert (lily["name"], lily["health"], lily["sanity"]) == ("Lily Chen", 6, 6)
    assert g["doom"] == 15 and g["reference"] == {
        "spawn_gates": 1,
        "spawn_clues": 1,
        "monster_surge": 1,
    }


def test_the_players_list_says_how_many_pickers_count(owner_client):
    """Players is a list of 1 to 8; the form shows one investigator picker per player (the rest
    are hidden by the page's style) and a picker left set beyond them counts for nothing."""
    page = text(owner_client.get("/new/eldritch/"))
    assert '<select name="players" class="pick-count"' in page
    assert '<option value="2" selected>2</option>' in page
    assert page.count('name="investigator_') == 8 and '<div class="picks">' in page
    response = owner_client.post(
        "/new/eldritch/",
        {
            **NEW,
            "players": 2,
            "investigator_1": "Lily Chen",
            "investigator_2": "Silas Marsh",
            "investigator_3": "Akachi Onyele",  # picked, then the group said two players
        },
    )
    assert response.status_code == 302, text(response)[-2000:]
    g = Campaign.objects.get().state["game"]
    assert [i["name"] for i in g["investigators"]] == ["Lily Chen", "Silas Marsh"]


def test_bad_set_ups_are_refused_next_to_the_field(owner_client):
    cases = [
        ({"players": 9}, "Eldritch Horror is for 1 to 8 players."),
        (
            {"players": 2, "investigator_1": "Lily Chen"},
            "Choose one investigator per player: 1 of 2 chosen.",
        ),
        (
            {"players": 2, "investigator_1": "Lily Chen", "investigator_2": "Lily Chen"},
            "Each investigator can be chosen once.",
        ),
        (
            {"players": 1, "ancient_one": "custom", "typed": "Ann, 5, 5"},
            "Type the Ancient One&#x27;s name.",
        ),
        ({"players": 1, "typed": "Ann, 55, 5"}, "write name, health, sanity"),
        ({"players": 1, "ancient_one": "Syzygy", "typed": "Ann, 5, 5"}, "type it"),
        # Easy, normal and hard are the rules' difficulties: no other is offered.
        ({"players": 1, "typed": "Ann, 5, 5", "difficulty": "mixed"}, "Select a valid choice"),
    ]
    for fields, message in cases:
        response = owner_client.post("/new/eldritch/", {**NEW, **fields})
        assert response.status_code in (200, 422), fields
        assert message in response.content.decode(), (fields, message)
    assert not Campaign.objects.exists()


# A new game against an Ancient One the group types, with one typed investigator.
TYPED = {
    **NEW,
    "ancient_one": "custom",
    "custom_name": "Mi-go",
    "custom_doom": 12,
    "custom_mysteries": 3,
    "custom_deck": "1 2 1, 2 3 1, 2 4 0",
    "players": 1,
    "typed": "Ann Lee, 6, 4",
}


def test_a_typed_ancient_one_with_its_numbers(owner_client):
    response = owner_client.post("/new/eldritch/", TYPED)
    assert response.status_code == 302, text(response)[-2000:]
    g = Campaign.objects.get().state["game"]
    assert (g["ancient_one"], g["doom"], g["built"][1]) == ("Mi-go", 12, [2, 3, 1])
    assert g["investigators"][0]["skills"] is None
    assert g["awakening"] == "mystery"  # unless the group says otherwise


def test_typed_lines_read_the_commas_a_japanese_or_chinese_keyboard_types(owner_client):
    """、 and ， (and full-width digits) are what those keyboards type between the numbers; the
    names stay as typed. A superscript is no digit: refused with the message, not an error."""
    typed = "ダイシー・ウォーカー、5、7\n林　美，６，6"
    deck = "1 2 1、2 3 1，２ ４ ０"
    response = owner_client.post(
        "/new/eldritch/", {**TYPED, "custom_deck": deck, "players": 2, "typed": typed}
    )
    assert response.status_code == 302, text(response)[-2000:]
    g = Campaign.objects.get().state["game"]
    assert g["built"][2] == [2, 4, 0]
    people = [(i["name"], i["health"], i["sanity"]) for i in g["investigators"]]
    assert people == [("ダイシー・ウォーカー", 5, 7), ("林　美", 6, 6)]
    refused = owner_client.post("/new/eldritch/", {**TYPED, "custom_deck": "1 2 ², 2 3 1, 2 4 0"})
    assert refused.status_code == 422 and "Write three stages" in text(refused)
    assert Campaign.objects.count() == 1


def test_a_typed_ancient_one_whose_awakening_loses(owner_client):
    response = owner_client.post(
        "/new/eldritch/", {**TYPED, "custom_doom": 1, "custom_awakening": "loss"}
    )
    assert response.status_code == 302, text(response)[-2000:]
    campaign = Campaign.objects.get()
    assert "The investigators lose" in text(owner_client.get(f"/c/{campaign.pk}/p/setup/"))
    post(owner_client, campaign, "eh.doom", step="advance", region="eh-doom")
    assert game(campaign)["outcome"] == {"result": "loss", "reason": "doom"}


def test_the_set_up_page_lists_the_reference_card_and_the_deck(owner, owner_client):
    eh = make_eldritch(owner)
    page = text(owner_client.get(f"/c/{eh.pk}/p/setup/"))
    for words in ("Starting doom", "Gates per mythos card", "Monsters per surge"):
        assert words in page
    assert "<dt>Clues per mythos card</dt><dd>2</dd>" in page  # 3 players
    assert "<tr><th>III</th><td>2</td><td>4</td><td>0</td></tr>" in page


def test_logging_a_game_and_the_chart(owner, owner_client):
    eh = make_eldritch(owner)
    response = post(
        owner_client,
        eh,
        "eh.log",
        date="2026-11-30",
        result="win",
        reason="mysteries",
        rounds=9,
        notes="",
        region="eh-log",
        version=eh.version,
    )
    assert response.status_code == 302
    assert state(eh)["game"] is None
    logged = state(eh)["games"][0]
    assert logged["investigators"] == ["Akachi Onyele", "Charlie Kane", "Diana Stanley"]
    page = text(owner_client.get(f"/c/{eh.pk}/p/log/"))
    assert "Wins 1 · losses 0" in page and "2026-11-30 · Azathoth" in page
    assert "No game on the table" in text(owner_client.get(f"/c/{eh.pk}/"))
    eh.refresh_from_db()
    assert_refused(
        owner_client,
        eh,
        "do/eh.draw/",
        {"version": eh.version, "region": "eh-mythos"},
        message="No game is on the table: start one first.",
    )


@pytest.mark.parametrize(
    "result, reason, message",
    [
        ("win", "doom", "A game is won by solving the mysteries"),
        ("win", "eliminated", "A game is won by solving the mysteries"),
        ("loss", "mysteries", "Solving the mysteries wins the game"),
    ],
)
def test_a_result_its_reason_cannot_give_is_refused(owner, owner_client, result, reason, message):
    eh = make_eldritch(owner)
    before = state(eh)
    values = {"date": "2026-11-30", "result": result, "reason": reason, "rounds": 9}
    assert_refused(owner_client, eh, "do/eh.log/", {**values, "region": "eh-log"}, message=message)
    assert state(eh) == before


@pytest.mark.parametrize("date", ["2099-11-30", "1969-12-31"])
def test_a_game_logged_on_a_day_not_yet_come_or_before_1970_is_refused(owner, owner_client, date):
    eh = make_eldritch(owner)
    before = state(eh)
    values = {"date": date, "result": "loss", "reason": "doom", "rounds": 9, "region": "eh-log"}
    assert_refused(owner_client, eh, "do/eh.log/", values, message="Pick a day from 1970 to today.")
    assert state(eh) == before


def test_a_history_that_logged_such_a_result_before_still_replays(owner):
    """The check is the form's, when a phone sends it: a game logged before it ("win", "doom")
    stays in the log, and an undo and redo replays it."""
    eh = make_eldritch(owner)
    values = {"date": "2026-11-30", "result": "win", "reason": "doom", "rounds": 9}
    factories.play(eh, owner, [("eh.log", values), ("undo",), ("redo",)])
    assert [(g["result"], g["reason"]) for g in state(eh)["games"]] == [("win", "doom")]


def test_the_log_reads_in_japanese(owner, owner_client):
    """The timeline's letters and the result's brackets are the reader's."""
    eh = make_eldritch(owner)
    values = {"date": "2026-11-30", "result": "loss", "reason": "doom", "rounds": 9}
    assert post(owner_client, eh, "eh.log", region="eh-log", **values).status_code == 302
    owner_client.cookies["django_language"] = "ja"
    page = text(owner_client.get(f"/c/{eh.pk}/p/log/"))
    assert re.search(r'<li class="loss"\s+title="[^"]*">負</li>', page)
    assert "敗北（" in page


def test_a_random_pick_skips_the_last_games_and_fills_the_next_set_up(owner, owner_client):
    eh = make_eldritch(owner)
    core = {"expansions": ["Core"], "region": "eh-pick"}
    factories.play(
        eh,
        owner,
        [
            ("eh.log", {"date": "2026-11-01", "result": "loss", "reason": "doom", "rounds": 5}),
            ("eh.start", {"game": setup_of({**ONE, "ancient_one": "Cthulhu"})}),
            ("eh.log", {"date": "2026-11-02", "result": "win", "reason": "mysteries", "rounds": 7}),
        ],
    )
    for _ in range(5):
        response = post(owner_client, eh, "eh.pick", players=3, skip=2, **core)
        assert response.status_code == 302
        pick = state(eh)["pick"]
        assert pick["ancient_one"] in ("Shub-Niggurath", "Yog-Sothoth")
        assert not {"Lily Chen", "Akachi Onyele", "Charlie Kane"} & set(pick["investigators"])
    page = text(owner_client.get(f"/c/{eh.pk}/p/setup/"))
    assert f'<option value="{pick["ancient_one"]}" selected>' in page
    assert_refused(
        owner_client,
        eh,
        "do/eh.pick/",
        {**core, "players": 9, "skip": 0},
        message="Eldritch Horror is for 1 to 8 players.",
    )
    assert_refused(
        owner_client,
        eh,
        "do/eh.pick/",
        {**core, "players": 3, "skip": 2, "expansions": ["Forsaken Lore"]},
        message="Too few investigators are left",
    )


def test_a_replay_gives_the_same_state(owner):
    eh = make_eldritch(owner, rng=random.Random(3))
    factories.play(eh, owner, [("eh.draw", {}), ("eh.roll", {"dice": 4, "bonus": "blessed"})])
    folded = GAMES["eldritch"].initial_state(eh.setup)
    assert game(eh)["draws"] and folded["game"]["draws"] == []


def test_every_state_the_table_makes_is_an_eldritch_state(owner, owner_client):
    """The TypedDicts say what is stored: a game played through its commands fits them."""
    eh = make_eldritch(owner, rng=random.Random(5))
    assert problems(state(eh), EldritchState) == []
    charlie = state(eh)["game"]["investigators"][1]["id"]
    factories.play(
        eh,
        owner,
        [
            ("eh.draw", {}),
            ("eh.record", {"colour": "yellow"}),
            ("eh.roll", {"dice": 3, "bonus": "cursed", "investigator": charlie}),
            ("eh.gate", {"colour": "red", "delta": 1}),
            ("eh.omen", {}),
            ("eh.condition", {"investigator": charlie, "condition": "Debt"}),
            ("eh.status", {"investigator": charlie, "status": "devoured"}),
            ("eh.pick", {"expansions": ["Core"], "players": 2, "skip": 0}),
            ("eh.log", {"date": "2026-11-30", "result": "loss", "reason": "doom", "rounds": 1}),
        ],
        rng=random.Random(5),
    )
    assert problems(state(eh), EldritchState) == []
