"""The game on the table as the rules say (rules.md §3): doom and awakening, the omen and
gates, defeat, mysteries and the win, investigators' bounds, the round and replacements."""

import re

import pytest

from tests import factories
from tests.games.eldritch.helpers import game, make_eldritch, post, text
from tests.journeys import assert_refused


@pytest.fixture
def eh(owner):
    return make_eldritch(owner)


# Cthulhu's awakening starts the final mystery (Azathoth's ends the game).
CTHULHU = {"ancient_one": "Cthulhu", "starting_doom": 12, "awakening": "mystery"}


@pytest.fixture
def cthulhu(owner):
    return make_eldritch(owner, **CTHULHU)


def act(client, campaign, action, **data):
    campaign.refresh_from_db()
    response = post(client, campaign, action, version=campaign.version, **data)
    assert response.status_code == 302, text(response)[-1500:]
    return game(campaign)


def test_the_table_shows_where_the_group_stopped(eh, owner_client):
    page = text(owner_client.get(f"/c/{eh.pk}/"))
    assert "Azathoth" in page
    assert "Round 1 · Action phase · Doom 15 · Omen Green · Mysteries 0 of 3" in page
    assert "<bdi>Akachi Onyele</bdi> (5/7, Normal)" in page


def test_doom_awakens_at_zero_and_then_cannot_retreat(cthulhu, owner_client):
    eh = cthulhu
    for _ in range(12):
        g = act(owner_client, eh, "eh.doom", step="advance", region="eh-doom")
    assert g["doom"] == 0 and g["awakened"]
    page = text(owner_client.get(f"/c/{eh.pk}/"))
    assert "The Ancient One has awakened." in page
    assert "The final mystery is now also required to win." in page
    assert_refused(
        owner_client,
        eh,
        "do/eh.doom/",
        {"step": "retreat", "region": "eh-doom"},
        message="The Ancient One has awakened: doom cannot retreat.",
    )


def test_azathoths_awakening_ends_the_game_as_a_loss(eh, owner_client):
    # His sheet's back: the investigators lose (eldritch_horror.json's Azathoth "awakening").
    for _ in range(14):
        g = act(owner_client, eh, "eh.doom", step="advance", region="eh-doom")
    assert g["outcome"] is None
    g = act(owner_client, eh, "eh.doom", step="advance", region="eh-doom")
    assert g["awakened"] and g["outcome"] == {"result": "loss", "reason": "doom"}
    page = text(owner_client.get(f"/c/{eh.pk}/"))
    assert "Loss: Doom (the Ancient One's back)" in page
    assert "Azathoth has awakened: the investigators lose." in page
    assert "The final mystery is now also required to win." not in page
    assert "Mysteries 0 of 3" in page and "Final mystery" not in page
    assert_refused(
        owner_client,
        eh,
        "do/eh.solve/",
        {"region": "eh-mysteries"},
        message="This game is over: log it, or undo the last change.",
    )


def test_the_omen_onto_a_comet_advances_doom_by_the_gates_of_its_colour(eh, owner_client):
    for _ in range(2):
        act(owner_client, eh, "eh.gate", colour="blue", delta=1, region="eh-doom")
    act(owner_client, eh, "eh.gate", colour="red", delta=1, region="eh-doom")
    g = act(owner_client, eh, "eh.omen", region="eh-doom")  # green → blue
    assert (g["omen"], g["doom"]) == (1, 13)
    g = act(owner_client, eh, "eh.omen", region="eh-doom")  # blue → red
    assert (g["omen"], g["doom"]) == (2, 12)
    g = act(owner_client, eh, "eh.omen", region="eh-doom")  # red → blue
    g = act(owner_client, eh, "eh.omen", region="eh-doom")  # blue → green, no gate
    assert (g["omen"], g["doom"]) == (0, 10)


def test_a_defeated_investigator_advances_doom_and_is_replaced_at_the_end_of_mythos(
    eh, owner_client
):
    charlie = game(eh)["investigators"][1]["id"]
    act(owner_client, eh, "eh.lead", investigator=charlie, region="eh-round")
    for _ in range(4):
        g = act(
            owner_client,
            eh,
            "eh.track",
            investigator=charlie,
            track="health",
            delta=-1,
            region=f"eh-inv-{charlie}",
        )
    assert g["investigators"][1]["status"] == "defeated" and g["doom"] == 14
    assert g["lead"] != charlie  # the lead passed on
    assert_refused(
        owner_client,
        eh,
        "do/eh.replace/",
        {"investigator": charlie, "chosen": "Jim Culver", "region": f"eh-inv-{charlie}"},
        message="A new investigator comes at the end of the Mythos phase.",
    )
    act(owner_client, eh, "eh.phase", phase="action", region="eh-round")
    act(owner_client, eh, "eh.phase", phase="encounter", region="eh-round")
    assert_refused(
        owner_client,
        eh,
        "do/eh.phase/",
        {"phase": "mythos", "region": "eh-round"},
        message="First a new investigator for Charlie Kane",
    )
    assert_refused(
        owner_client,
        eh,
        "do/eh.replace/",
        {"investigator": charlie, "chosen": "Charlie Kane", "region": f"eh-inv-{charlie}"},
        message="Charlie Kane was defeated or devoured this game",
    )
    g = act(
        owner_client,
        eh,
        "eh.replace",
        investigator=charlie,
        chosen="Jim Culver",
        region=f"eh-inv-{charlie}",
    )
    assert [p["name"] for p in g["investigators"]][1] == "Jim Culver"
    assert g["investigators"][1]["health"] == 7
    g = act(owner_client, eh, "eh.phase", phase="mythos", region="eh-round")
    assert (g["round"], g["phase"]) == (2, "action")


def test_after_awakening_a_defeat_eliminates_and_all_eliminated_lose(cthulhu, owner_client):
    eh = cthulhu
    for _ in range(12):
        act(owner_client, eh, "eh.doom", step="advance", region="eh-doom")
    for person in game(eh)["investigators"]:
        g = act(
            owner_client,
            eh,
            "eh.status",
            investigator=person["id"],
            status="devoured",
            region=f"eh-inv-{person['id']}",
        )
    assert {p["status"] for p in g["investigators"]} == {"eliminated"}
    assert g["outcome"] == {"result": "loss", "reason": "eliminated"}
    assert "Loss: All eliminated" in text(owner_client.get(f"/c/{eh.pk}/"))


def test_the_win_needs_the_final_mystery_after_awakening(owner, owner_client):
    eh = make_eldritch(owner, mysteries=1)
    g = act(owner_client, eh, "eh.solve", region="eh-mysteries")
    assert g["outcome"] == {"result": "win", "reason": "mysteries"}
    eh = make_eldritch(owner, mysteries=1, **CTHULHU)
    for _ in range(12):
        act(owner_client, eh, "eh.doom", step="advance", region="eh-doom")
    g = act(owner_client, eh, "eh.solve", region="eh-mysteries")
    assert g["outcome"] is None
    assert "The final mystery is solved" in text(owner_client.get(f"/c/{eh.pk}/"))
    g = act(owner_client, eh, "eh.solve", region="eh-mysteries")
    assert g["outcome"] == {"result": "win", "reason": "mysteries"}
    assert "Win: Mysteries solved" in text(owner_client.get(f"/c/{eh.pk}/"))


def test_bad_input_is_refused_next_to_the_field_and_changes_nothing(eh, owner_client):
    akachi = game(eh)["investigators"][0]["id"]
    region = f"eh-inv-{akachi}"
    response = assert_refused(
        owner_client,
        eh,
        "do/eh.track/",
        {"investigator": akachi, "track": "health", "delta": 1, "region": region},
        message="Akachi Onyele's Health is at its maximum (5).",
        htmx=True,
    )
    assert f'id="{region}"' in text(response)
    for kind in ("train", "ship"):
        act(owner_client, eh, "eh.ticket", investigator=akachi, kind=kind, delta=1, region=region)
    assert_refused(
        owner_client,
        eh,
        "do/eh.ticket/",
        {"investigator": akachi, "kind": "train", "delta": 1, "region": region},
        message="At most two travel tickets together",
    )
    act(owner_client, eh, "eh.condition", investigator=akachi, condition="Debt", region=region)
    response = assert_refused(
        owner_client,
        eh,
        "do/eh.condition/",
        {"investigator": akachi, "condition": "debt", "region": region},
        message="Akachi Onyele already has debt: no condition twice.",
        htmx=True,
    )
    assert 'value="debt"' in text(response)  # what was typed stays, next to its message
    for _ in range(2):
        act(
            owner_client,
            eh,
            "eh.improve",
            investigator=akachi,
            skill="will",
            delta=1,
            region=region,
        )
    assert_refused(
        owner_client,
        eh,
        "do/eh.improve/",
        {"investigator": akachi, "skill": "will", "delta": 1, "region": region},
        message="A skill is improved at most twice",
    )
    assert_refused(
        owner_client,
        eh,
        "do/eh.track/",
        {"investigator": 999, "track": "health", "delta": -1, "region": region},
        message="That investigator is not in this game.",
    )
    assert_refused(
        owner_client,
        eh,
        "do/eh.gate/",
        {"colour": "green", "delta": -1, "region": "eh-doom"},
        message="Open gates are counted from 0 to 20.",
    )
    for junk in ({"colour": "purple", "delta": 1}, {"colour": "green", "delta": "x"}):
        response = owner_client.post(f"/c/{eh.pk}/do/eh.gate/", {**junk, "region": "eh-doom"})
        assert response.status_code == 422


def test_a_surge_with_no_gate_of_the_omens_colour_spawns_one_gate(eh, owner_client):  # 001:468
    act(owner_client, eh, "eh.draw", region="eh-mythos")
    page = text(owner_client.get(f"/c/{eh.pk}/"))
    assert "Monster surge: no Green gate is open: spawn 1 gate instead." in page
    act(owner_client, eh, "eh.gate", colour="green", delta=1, region="eh-doom")
    page = text(owner_client.get(f"/c/{eh.pk}/"))
    assert "Monster surge: 2 monsters at each Green gate (1 open)" in page
    assert "spawn 1 gate instead" not in page


@pytest.mark.parametrize(
    ("difficulty", "words"),
    [
        ("easy", "Before building the mythos deck, remove the hard mythos cards."),
        ("normal", "Build the mythos deck from the easy, normal and hard cards alike."),
        ("hard", "Before building the mythos deck, remove the easy mythos cards."),
    ],
)
def test_the_mythos_difficulty_says_which_cards_go(owner, owner_client, difficulty, words):
    eh = make_eldritch(owner, difficulty=difficulty)
    assert words in text(owner_client.get(f"/c/{eh.pk}/p/setup/"))


def test_a_game_set_up_before_keeps_its_mixed_difficulty_and_final_mystery(owner, owner_client):
    # Stored set-ups from before: "mixed" and no awakening fact still replay as they were played.
    old = dict(factories.SETUPS["eldritch"]["game"], difficulty="mixed")
    del old["awakening"]
    eh = factories.campaign("eldritch", owner=owner, setup={"game": old})
    assert game(eh)["awakening"] == "mystery"
    assert "Mixed" in text(owner_client.get(f"/c/{eh.pk}/"))


class Faces:
    """Dice that show these faces, in turn."""

    def __init__(self, *faces: int) -> None:
        self.faces = list(faces)

    def randint(self, low: int, high: int) -> int:
        return self.faces.pop(0)


def test_once_rolled_the_odds_start_from_the_dice_on_the_table(eh, owner, owner_client):
    """After a roll, the table of chances reads from its dice: a success rolled is kept, and the
    investigator's clues can only add to it (before, it showed the odds before rolling)."""
    charlie = game(eh)["investigators"][1]["id"]
    for _ in range(2):
        act(owner_client, eh, "eh.clues", investigator=charlie, delta=1)
    factories.play(
        eh,
        owner,
        [("eh.roll", {"dice": 4, "bonus": "normal", "investigator": charlie})],
        rng=Faces(5, 2, 3, 4),
    )
    page = text(owner_client.get(f"/c/{eh.pk}/p/dice/"))
    table = page[page.index('<table class="odds">') :]
    rows = re.findall(r"<tr><th>(\d)</th><td>([^<]*)</td><td>([^<]*)</td></tr>", table)
    # One success on the table (5 or 6 succeeds); two clues reroll a failed die twice.
    assert rows[:4] == [
        ("1", "100.0 %", "100.0 %"),
        ("2", "0.0 %", "55.6 %"),  # 1 − (2/3)²
        ("3", "0.0 %", "11.1 %"),  # (1/3)²
        ("4", "0.0 %", "0.0 %"),
    ]
    # A roll for no investigator: no clues known, so no column for them.
    factories.play(eh, owner, [("eh.roll", {"dice": 2, "bonus": "normal"})], rng=Faces(6, 1))
    page = text(owner_client.get(f"/c/{eh.pk}/p/dice/"))
    table = page[page.index('<table class="odds">') :].split("</table>")[0]
    assert "With the clues" not in table
    assert re.findall(r"<tr><th>(\d)</th><td>([^<]*)</td></tr>", table) == [
        ("1", "100.0 %"),
        ("2", "0.0 %"),
    ]


def test_the_next_roll_is_for_the_investigator_who_rolled_last(eh, owner, owner_client):
    """A player rolls several tests in a row: the picker keeps them, on every phone."""
    charlie = game(eh)["investigators"][1]["id"]
    picked = re.compile(r'<option\s+value="(\d+)"\s+selected>')
    page = text(owner_client.get(f"/c/{eh.pk}/p/dice/"))
    assert picked.findall(page) == []
    factories.play(
        eh, owner, [("eh.roll", {"dice": 2, "bonus": "normal", "investigator": charlie})]
    )
    page = text(owner_client.get(f"/c/{eh.pk}/p/dice/"))
    assert picked.findall(page) == [str(charlie)]
    factories.play(eh, owner, [("eh.roll", {"dice": 2, "bonus": "normal"})])
    assert picked.findall(text(owner_client.get(f"/c/{eh.pk}/p/dice/"))) == []


def test_the_odds_before_rolling_show_what_was_asked_and_say_what_is_wrong(eh, owner_client):
    """The form shows again the dice, clues and bonus it sent, beside their odds; numbers out of
    range get a message instead of no table at all."""
    page = text(owner_client.get(f"/c/{eh.pk}/p/dice/?dice=4&clues=2&bonus=blessed"))
    odds = page[page.index('id="eh-odds-h"') :]
    assert 'name="dice" min="1" max="20" inputmode="numeric" value="4"' in odds
    assert 'name="clues" min="0" max="20" inputmode="numeric" value="2"' in odds
    assert re.search(r'<option value="blessed"\s+selected>', odds)
    assert '<table class="odds">' in odds and 'class="error"' not in odds
    for asked in ("dice=-1", "dice=4&clues=99", "dice=x", "dice=4&bonus=lucky"):
        odds = text(owner_client.get(f"/c/{eh.pk}/p/dice/?{asked}"))
        odds = odds[odds.index('id="eh-odds-h"') :]
        assert "Choose 1 to 20 dice and 0 to 20 clues." in odds, asked
        assert '<table class="odds">' not in odds, asked


def test_a_card_our_data_lacks_has_its_skills_typed_once(owner, owner_client):
    """Our data has skills for the core box's investigators only: another's show "?" until the
    group types them from the card, once; a known card's are never typed over."""
    people = [dict(p) for p in factories.SETUPS["eldritch"]["game"]["investigators"]]
    people[0] = {**people[0], "name": "Naomi", "skills": None}
    eh = make_eldritch(owner, investigators=people)
    naomi, charlie = (p["id"] for p in game(eh)["investigators"][:2])
    page = text(owner_client.get(f"/c/{eh.pk}/"))
    assert page.count("Skills as printed on the card") == 1
    typed = {"lore": 3, "influence": 2, "observation": 2, "strength": 3, "will": 4}
    region = f"eh-inv-{naomi}"
    for wrong, message in (
        ({"lore": 10}, "Ensure this value is less than or equal to 9."),
        ({"will": ""}, "This field is required."),
        ({"strength": "three"}, "Enter a whole number."),
    ):
        response = assert_refused(
            owner_client,
            eh,
            "do/eh.skills/",
            {"investigator": naomi, **typed, **wrong, "region": region},
            message=message,
        )
        field = next(iter(wrong))
        said = re.search(
            rf'name="{field}".*?</label>\s*<p class="error"[^>]*>([^<]*)', text(response), re.S
        )
        assert said is not None and said.group(1) == message
    g = act(owner_client, eh, "eh.skills", investigator=naomi, region=region, **typed)
    assert g["investigators"][0]["skills"] == typed
    page = text(owner_client.get(f"/c/{eh.pk}/"))
    assert "Skills as printed on the card" not in page
    history = text(owner_client.get(f"/c/{eh.pk}/history/"))
    assert (
        "Naomi's skills, as printed: Lore 3, Influence 2, Observation 2, Strength 3, Will 4"
        in history
    )
    for who in (naomi, charlie):
        assert_refused(
            owner_client,
            eh,
            "do/eh.skills/",
            {"investigator": who, **typed, "region": f"eh-inv-{who}"},
            message="skills are known: they are not typed.",
        )
