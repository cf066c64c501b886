"""Names as the group's cards print them (issue 20): a Japanese phone is offered the Japanese
edition's names where a source gives them, and the group names an Ancient One or investigator
once for the whole campaign, keeping every fact of the data's."""

import re

from tests import factories
from tests.factories import client_for
from tests.games.eldritch.helpers import game, make_eldritch, post, state, text
from tests.journeys import assert_refused


def options(page: str, field: str) -> dict[str, str]:
    select = re.search(rf'<select name="{field}"[^>]*>.*?</select>', page, re.S)
    assert select, field
    return dict(re.findall(r'<option value="([^"]*)"[^>]*>([^<]*)</option>', select[0]))


def test_a_japanese_phone_is_offered_the_japanese_editions_names(owner_client):
    owner_client.cookies["django_language"] = "ja"
    page = text(owner_client.get("/new/eldritch/"))
    ancient = options(page, "ancient_one")
    assert ancient["Azathoth"] == "アザトース"
    assert ancient["Yog-Sothoth"] == "ヨグ=ソトース"
    assert ancient["Hastur"] == "Hastur"  # no source: the data's name, never a guess
    assert options(page, "investigator_1")["Jim Culver"].startswith("ジム・カルヴァー · ")
    owner_client.cookies["django_language"] = "zh-hans"  # no Chinese edition's names known
    page = text(owner_client.get("/new/eldritch/"))
    assert options(page, "ancient_one")["Azathoth"] == "Azathoth"


def test_the_table_reads_the_japanese_editions_names_for_a_japanese_phone(owner):
    eh = make_eldritch(owner)
    phone = client_for(owner)
    phone.cookies["django_language"] = "ja"
    page = text(phone.get(f"/c/{eh.pk}/"))
    assert '<h2 id="eh-status-h"><bdi>アザトース</bdi></h2>' in page
    assert "<bdi>アカチ・オニール</bdi>" in page
    english = text(client_for(owner).get(f"/c/{eh.pk}/"))
    assert '<h2 id="eh-status-h"><bdi>Azathoth</bdi></h2>' in english


def test_the_groups_names_show_on_every_phone_and_in_the_history(owner, player):
    eh = make_eldritch(owner)
    eh.memberships.create(user=player, role="player")
    phone = client_for(owner)
    akachi = game(eh)["investigators"][0]
    for key, called in (("Azathoth", "魔王アザトース"), ("Akachi Onyele", "アカチ")):
        response = post(phone, eh, "eh.rename", key=key, called=called, region="eh-status")
        assert response.status_code == 302, text(response)
    post(phone, eh, "eh.track", investigator=akachi["id"], track="health", delta=-1)
    # The data's facts stay: the same key, health, sanity, skills, doom and deck.
    after = game(eh)
    assert after["ancient_one"] == "Azathoth" and after["starting_doom"] == 15
    person = after["investigators"][0]
    assert (person["name"], person["max_health"], person["max_sanity"]) == ("Akachi Onyele", 5, 7)
    assert person["skills"] == akachi["skills"] and person["health"] == 4
    for language in ("en", "zh-hant"):
        other = client_for(player)
        other.cookies["django_language"] = language
        page = text(other.get(f"/c/{eh.pk}/"))
        assert '<h2 id="eh-status-h"><bdi>魔王アザトース</bdi></h2>' in page
        assert "<bdi>アカチ</bdi>" in page
        assert "Akachi Onyele</bdi>" not in page
    history = re.sub(r"</?bdi>|[\u2066-\u2069]", "", text(phone.get(f"/c/{eh.pk}/history/")))
    assert "Azathoth is now called 魔王アザトース" in history
    assert "アカチ: Health -1" in history


def test_an_empty_name_goes_back_and_undo_takes_a_name_back(owner):
    eh = make_eldritch(owner)
    phone = client_for(owner)
    post(phone, eh, "eh.rename", key="Azathoth", called="Sleeper", region="eh-status")
    assert state(eh)["names"] == {"Azathoth": "Sleeper"}
    eh = factories.play(eh, owner, [("undo",)])
    assert state(eh).get("names", {}) == {}
    eh = factories.play(eh, owner, [("redo",)])
    assert state(eh)["names"] == {"Azathoth": "Sleeper"}
    post(phone, eh, "eh.rename", key="Azathoth", called=" ", region="eh-status")
    assert state(eh)["names"] == {}
    phone.cookies["django_language"] = "ja"
    assert "<bdi>アザトース</bdi>" in text(phone.get(f"/c/{eh.pk}/"))


def test_a_rename_is_refused_next_to_the_field_when_it_cannot_be(owner):
    eh = make_eldritch(owner)
    phone = client_for(owner)
    post(phone, eh, "eh.rename", key="Charlie Kane", called="Kane", region="eh-status")
    for data, message in (
        ({"key": "Cthulhu", "called": "Big C"}, "That name is not in this campaign."),
        ({"key": "Azathoth", "called": "kane"}, "already called kane"),
        ({"key": "Azathoth", "called": "x" * 61}, "at most 60 characters"),
        ({"called": "No key"}, "This field is required."),
    ):
        assert_refused(
            phone,
            eh,
            "do/eh.rename/",
            {**data, "region": "eh-status"},
            message=message,
            htmx=True,
        )


def test_the_round_asks_for_a_new_investigator_by_the_groups_name(owner):
    eh = make_eldritch(owner)
    charlie = game(eh)["investigators"][1]["id"]
    eh = factories.play(
        eh,
        owner,
        [
            ("eh.rename", {"key": "Charlie Kane", "called": "ケイン議員"}),
            ("eh.status", {"investigator": charlie, "status": "defeated"}),
            ("eh.phase", {"phase": "action"}),
            ("eh.phase", {"phase": "encounter"}),
        ],
    )
    assert_refused(
        client_for(owner),
        eh,
        "do/eh.phase/",
        {"phase": "mythos", "region": "eh-round"},
        message="First a new investigator for ケイン議員 (or eliminated).",
        htmx=True,
    )


def test_the_next_game_against_a_renamed_ancient_one_reads_so_in_the_history(owner):
    eh = make_eldritch(owner)
    setup = dict(factories.SETUPS["eldritch"]["game"])
    factories.play(
        eh,
        owner,
        [
            ("eh.rename", {"key": "Azathoth", "called": "魔王"}),
            ("eh.log", {"date": "2026-11-01", "result": "loss", "reason": "doom", "rounds": 5}),
            ("eh.start", {"game": setup}),
        ],
    )
    history = re.sub(
        r"</?bdi>|[\u2066-\u2069]", "", text(client_for(owner).get(f"/c/{eh.pk}/history/"))
    )
    assert "New game against 魔王" in history


def test_the_next_games_set_up_offers_the_japanese_editions_names_too(owner):
    eh = make_eldritch(owner)
    english = text(client_for(owner).get(f"/c/{eh.pk}/p/setup/"))
    assert options(english, "ancient_one")["Azathoth"] == "Azathoth"
    phone = client_for(owner)
    phone.cookies["django_language"] = "ja"
    page = text(phone.get(f"/c/{eh.pk}/p/setup/"))
    assert options(page, "ancient_one")["Azathoth"] == "アザトース"
    assert options(page, "investigator_1")["Jim Culver"].startswith("ジム・カルヴァー · ")
