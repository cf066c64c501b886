"""The exact odds the bag page shows, against the engine."""

import re
from fractions import Fraction

import pytest

from campaigns.engines import chaos
from campaigns.games.arkham.bag_page import percent
from campaigns.games.arkham.common import signed
from tests.games.arkham.helpers import (
    NOTZ_STANDARD,
    add_investigator,
    make_arkham,
    odds_rows,
    post,
    text,
)


def test_percent_has_one_decimal_rounded_half_up():
    assert percent(Fraction(1, 16)) == "6.3%"
    assert percent(Fraction(1, 3)) == "33.3%"
    assert percent(Fraction(2, 3)) == "66.7%"
    assert percent(Fraction(0)) == "0.0%"
    assert percent(Fraction(1)) == "100.0%"


def test_the_odds_table_gives_every_margin_from_the_engine(owner_client, ark):
    page = text(owner_client.get(f"/c/{ark.pk}/p/bag/"))
    table = chaos.pass_table(NOTZ_STANDARD, {}, 2, range(-2, 7))
    expected = [(signed(m), percent(c)) for m, c in table.items()]
    assert odds_rows(page) == expected
    assert ("0", "50.0%") in expected
    # Adding a token changes the odds on the next look.
    post(owner_client, ark, "bag.change", token="+1", delta=2)
    bag = {**NOTZ_STANDARD, "+1": 3}
    table = chaos.pass_table(bag, {}, 2, range(-2, 7))
    page = text(owner_client.get(f"/c/{ark.pk}/p/bag/"))
    assert odds_rows(page) == [(signed(m), percent(c)) for m, c in table.items()]


def test_the_odds_follow_the_scenario_effects_and_the_elder_sign(owner_client, owner, ark):
    roland = add_investigator(owner_client, ark)
    ark.apply("scenario.start", {"name": "The Gathering"}, owner)
    ark.apply(
        "scenario.effects",
        {
            "skull": "modifier",
            "skull_value": -2,
            "cultist": "fail",
            "tablet": "again",
            "tablet_value": -1,
            "elder_thing": "",
        },
        owner,
    )
    ark.apply(
        "investigator.elder", {"investigator": roland, "modifier": 2, "auto_succeed": False}, owner
    )
    effects = {
        "skull": {"modifier": -2},
        "cultist": {"auto_fail": True},
        "tablet": {"modifier": -1, "reveal_another": True},
        "elder_sign": {"modifier": 2},
    }
    page = text(owner_client.get(f"/c/{ark.pk}/p/bag/?skill=4&difficulty=3"))
    chance = chaos.success_probability(NOTZ_STANDARD, 4, 3, effects)
    assert f"Skill 4 against 3: <strong>{percent(chance)}</strong>" in page
    table = chaos.pass_table(NOTZ_STANDARD, effects, 2, range(-2, 7))
    assert odds_rows(page) == [(signed(m), percent(c)) for m, c in table.items()]
    assert "For Roland Banks (elder sign: +2)" in page


@pytest.mark.parametrize(
    ("query", "message"),
    [
        ("skill=-1&difficulty=3", "Skill: Ensure this value is greater than or equal to 0."),
        ("skill=abc&difficulty=3", "Skill: Enter a whole number."),
        ("skill=3&difficulty=999", "Difficulty: Ensure this value is less than or equal to 40."),
        ("skill=3", "Difficulty: This field is required."),
    ],
)
def test_bad_odds_queries_say_why_and_never_fail(owner_client, ark, query, message):
    response = owner_client.get(f"/c/{ark.pk}/p/bag/?{query}")
    assert response.status_code == 200
    # The message sits right under its field (label: the field's label).
    label, message = message.split(": ", 1)
    field = rf'{label}<input type="number" name="{label.lower()}"[^>]*>\s*</label>'
    assert re.search(
        field + rf'<p class="error" role="alert">{re.escape(message)}</p>', text(response)
    )


def test_an_empty_bag_has_no_odds(owner_client, owner):
    made = make_arkham(owner, "custom")
    page = text(owner_client.get(f"/c/{made.pk}/p/bag/?skill=3&difficulty=2"))
    assert "The bag is empty: there are no odds to give." in page
