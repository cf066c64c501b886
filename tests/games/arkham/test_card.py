"""The scenario reference card as data (issue 20): starting a scenario fills in what its skull,
cultist, tablet and elder thing do for the campaign's difficulty; X asks for its count, a
condition switches to its alternative, a two-act card follows the act; what the group types
wins until the next scenario; the odds stay exact."""

import json
import re
from pathlib import Path

import pytest

from campaigns.engines import chaos
from campaigns.games.arkham import card, catalogue, data
from campaigns.games.arkham.bag_page import odds as odds_of
from campaigns.games.arkham.bag_page import percent
from campaigns.games.arkham.common import effects_for, signed
from tests.games.arkham.helpers import (
    Picks,
    brute_force_rich,
    index_of,
    make_arkham,
    odds_rows,
    post,
    set_bag,
    state,
    text,
)

FACTS = Path(catalogue.__file__).with_name("facts")
SHARED = Path("/work/shared/data/arkham_scenario_tokens.json")
EFFECTS = {"skull": "", "cultist": "", "tablet": "", "elder_thing": ""}


def start(campaign, owner, ref):
    campaign.apply("scenario.start", {"scenario": ref}, owner)
    return state(campaign)


def bag_page(client, campaign, query=""):
    response = client.get(f"/c/{campaign.pk}/p/bag/{query}")
    assert response.status_code == 200
    return text(response)


# The facts


def test_the_facts_keep_their_source_and_cover_every_scenario_of_the_list():
    facts = json.loads((FACTS / "scenario_tokens.json").read_text(encoding="utf-8"))
    assert "Kamalisk/arkhamdb-json-data" in json.dumps(facts["_about"]["sources"])
    steps = catalogue._load("scenarios.json")["campaigns"]
    assert set(facts["campaigns"]) == set(steps)
    for key, campaign in facts["campaigns"].items():
        ids = {s["id"] for s in steps[key]}
        assert set(campaign["scenarios"]) <= ids, key
        playable = {s["id"] for s in steps[key] if s["kind"] == "scenario"}
        assert playable <= set(campaign["scenarios"]), key
    assert sum(len(c["scenarios"]) for c in facts["campaigns"].values()) == 99


@pytest.mark.skipif(not SHARED.exists(), reason="the shared data is not beside this clone")
def test_the_copy_is_the_shared_data():
    ours = json.loads((FACTS / "scenario_tokens.json").read_text(encoding="utf-8"))
    assert ours == json.loads(SHARED.read_text(encoding="utf-8"))


# Starting a scenario fills in its effects


def every_step():
    for campaign, facts in card.CARDS.items():
        for ref in facts["scenarios"]:
            yield campaign, ref


@pytest.mark.sweep
@pytest.mark.parametrize("difficulty", ["easy", "standard", "hard", "expert"])
def test_starting_every_scenario_fills_in_each_symbol_its_card_has(owner, difficulty):
    side = "easy_standard" if difficulty in ("easy", "standard") else "hard_expert"
    for campaign, ref in every_step():
        ark = make_arkham(owner, campaign, difficulty)
        after = start(ark, owner, ref)
        facts = card.CARDS[campaign]["scenarios"][ref][side]
        effects = effects_for(after, None)
        has = {s for s in data.SCENARIO_SYMBOLS if facts.get(s)}
        assert set(effects) == has, (campaign, ref)
        odds = odds_of(after, None, {})
        assert odds["rows"] and not odds["too_long"], (campaign, ref)
        for symbol in has:
            line = facts[symbol]
            if line["modifier"] != "X" and not line.get("auto_fail"):
                assert effects[symbol]["modifier"] == line["modifier"], (campaign, ref, symbol)
            assert effects[symbol]["reveal_another"] == line["reveal_another"]
        ark.delete()


def test_easy_and_standard_read_one_side_hard_and_expert_the_other(owner):
    # The Gathering: the tablet is −2 on the Easy/Standard side, −4 on Hard/Expert.
    for difficulty, tablet in (("easy", -2), ("standard", -2), ("hard", -4), ("expert", -4)):
        ark = make_arkham(owner, "notz", difficulty)
        assert effects_for(start(ark, owner, "torch"), None)["tablet"]["modifier"] == tablet


def test_the_bag_page_says_each_line_in_our_words(owner, owner_client, ark):
    start(ark, owner, "torch")
    page = bag_page(owner_client, ark)
    card_html = page[page.index('id="bag-card"') : page.index('id="bag-odds"')]
    assert "Scenario card" in card_html
    assert "X = enemies of the card's trait at your location" in card_html
    assert "if you fail: 1 horror" in card_html
    assert "no line on this card" in card_html  # the elder thing
    # The odds know the card's lines: only X's count is still a guess.
    assert "Cultist: no effect entered" not in page
    assert "Tablet: no effect entered" not in page
    assert "Skull: enemies of the card's trait at your location not given: counted as 0" in page


def test_a_scenario_without_a_card_shows_none(owner, owner_client, ark):
    ark.apply("scenario.start", {"name": "A side story of ours"}, owner)
    assert "card" not in state(ark)
    assert effects_for(state(ark), None) == {}
    page = bag_page(owner_client, ark)
    assert "Scenario card" not in page


# X: one count for the scenario, named by what it counts


def test_x_asks_for_its_count_by_name_and_every_phone_sees_it(owner, owner_client, player, ark):
    start(
        ark, owner, "arkham"
    )  # The Midnight Masks, Standard: skull −X, X = most doom on a Cultist
    page = bag_page(owner_client, ark)
    assert "doom on Cultist enemies" in page
    assert "doom on Cultist enemies not given: counted as 0" in page
    response = post(
        owner_client, ark, "scenario.x", key="doom_on_cultist_enemies", value=3, region="bag-card"
    )
    assert response.status_code == 302, text(response)
    assert state(ark)["card"]["x"] == {"doom_on_cultist_enemies": 3}
    assert effects_for(state(ark), None)["skull"]["modifier"] == -3
    assert "not given" not in bag_page(owner_client, ark)
    # A draw reveals the skull as −3.
    set_bag(ark, {"skull": 1, "0": 1})
    ark.apply("bag.draw", {}, owner, rng=Picks(index_of({"skull": 1, "0": 1}, "skull")))
    assert state(ark)["draws"][-1]["tokens"][0]["modifier"] == -3


def test_a_bad_count_is_refused_next_to_the_field(owner, owner_client, ark):
    from tests.journeys import assert_refused

    start(ark, owner, "arkham")
    assert_refused(
        owner_client,
        ark,
        "do/scenario.x/",
        {"key": "doom_on_cultist_enemies", "value": "-1", "region": "bag-card"},
        status=422,
        message="greater than or equal to 0",
        htmx=True,
    )
    assert_refused(
        owner_client,
        ark,
        "do/scenario.x/",
        {"key": "doom_on_agenda", "value": "2", "region": "bag-card"},
        status=422,
        message="This scenario's card has no X that counts that.",
        htmx=True,
    )


def test_the_count_is_forgotten_when_the_next_scenario_starts(owner, ark):
    start(ark, owner, "arkham")
    ark.apply("scenario.x", {"key": "doom_on_cultist_enemies", "value": 2}, owner)
    after = start(ark, owner, "tentacles")
    assert after["card"]["x"] == {}


def test_a_halved_x_is_rounded_as_the_card_says(owner):
    # Find a card whose X is halved, and check the effect the odds read.
    for campaign, ref in every_step():
        line = card.CARDS[campaign]["scenarios"][ref]["easy_standard"].get("skull") or {}
        if line.get("x_multiplier") == 0.5:
            break
    ark = make_arkham(owner, campaign, "standard")
    start(ark, owner, ref)
    ark.apply("scenario.x", {"key": line["x_from"], "value": 5}, owner)
    expected = (5 + 1) // 2 if line.get("x_round") == "up" else 5 // 2
    expected += line.get("x_offset", 0)
    expected = min(expected, line.get("x_max", 99))
    assert effects_for(state(ark), None)["skull"]["modifier"] == -expected


# Alternatives and acts


def test_one_toggle_switches_a_symbol_to_its_alternative(owner, owner_client, ark):
    ark = make_arkham(owner, "notz", "hard")
    start(ark, owner, "arkham")  # Hard: the cultist reveals another under a condition
    assert effects_for(state(ark), None)["cultist"]["reveal_another"] is False
    page = bag_page(owner_client, ark)
    assert "Condition holds: reveal another" in page
    response = post(owner_client, ark, "scenario.alt", symbol="cultist", alt=1, region="bag-card")
    assert response.status_code == 302, text(response)
    effect = effects_for(state(ark), None)["cultist"]
    assert effect["reveal_another"] is True and effect["modifier"] == -2
    ark.apply("scenario.alt", {"symbol": "cultist", "alt": 0}, owner)
    assert effects_for(state(ark), None)["cultist"]["reveal_another"] is False


def test_an_alternative_the_line_does_not_have_is_refused(owner, owner_client, ark):
    from tests.journeys import assert_refused

    start(ark, owner, "torch")
    assert_refused(
        owner_client,
        ark,
        "do/scenario.alt/",
        {"symbol": "skull", "alt": "1", "region": "bag-card"},
        message="This symbol's line on the card has no condition.",
        htmx=True,
    )


def test_graded_alternatives_and_counting_as_a_frost():
    pit = card.CARDS["tic"]["scenarios"]["the_pit_of_despair"]["easy_standard"]["skull"]
    assert [card.effect(pit, n)["modifier"] for n in (0, 1, 2)] == [-1, -2, -3]
    heart = card.CARDS["eoe"]["scenarios"]["the_heart_of_madness_part_1"]["hard_expert"]["cultist"]
    assert card.effect(heart, 1) == {
        "modifier": -2,
        "reveal_another": True,
        "auto_fail": False,
        "as_frost": True,
    }


def test_an_act_variant_is_chosen_with_the_act(owner, owner_client):
    campaign, ref = next(
        (c, r) for c, r in every_step() if card.CARDS[c]["scenarios"][r].get("variants")
    )
    ark = make_arkham(owner, campaign, "standard")
    start(ark, owner, ref)
    facts = card.CARDS[campaign]["scenarios"][ref]
    assert (
        effects_for(state(ark), None)["cultist"]["modifier"]
        == facts["easy_standard"]["cultist"]["modifier"]
    )
    page = bag_page(owner_client, ark)
    assert "Act 1" in page and "Act 2" in page
    response = post(owner_client, ark, "scenario.act", act="act_2", region="bag-card")
    assert response.status_code == 302, text(response)
    act_2 = facts["variants"]["act_2"]["easy_standard"]["cultist"]["modifier"]
    assert effects_for(state(ark), None)["cultist"]["modifier"] == act_2


# Typed effects win until the next scenario


def test_a_typed_symbol_wins_over_the_card_until_the_next_scenario(owner, owner_client, ark):
    start(ark, owner, "torch")
    # A house rule: the cultist is −3; the others as the card says.
    ark.apply(
        "scenario.effects",
        {
            **EFFECTS,
            "skull": "card",
            "cultist": "modifier",
            "cultist_value": -3,
            "tablet": "card",
            "elder_thing": "card",
        },
        owner,
    )
    effects = effects_for(state(ark), None)
    assert effects["cultist"]["modifier"] == -3
    assert effects["tablet"]["modifier"] == -2  # still the card's
    assert "yours, typed by hand, counts instead" in bag_page(owner_client, ark)
    start(ark, owner, "arkham")
    start(ark, owner, "torch")  # played again: the card again
    assert effects_for(state(ark), None)["cultist"]["modifier"] == -1


def test_an_investigators_own_symbol_wins_for_their_tests(owner, owner_client, ark):
    from tests.games.arkham.helpers import add_investigator

    jim = add_investigator(owner_client, ark, name="Jim Culver")
    other = add_investigator(owner_client, ark, name="Agnes Baker")
    start(ark, owner, "torch")
    ark.apply(
        "investigator.symbol",
        {"investigator": jim, "symbol": "skull", "mode": "modifier", "value": 0},
        owner,
    )
    ark.refresh_from_db()
    assert effects_for(state(ark), jim)["skull"]["modifier"] == 0
    assert effects_for(state(ark), other)["skull"].get("modifier") == 0  # X not given yet
    ark.apply("scenario.x", {"key": "trait_enemies_at_location", "value": 2}, owner)
    assert effects_for(state(ark), other)["skull"]["modifier"] == -2
    assert effects_for(state(ark), jim)["skull"]["modifier"] == 0


# The odds on the page against brute force


SAMPLE = [
    # (campaign, difficulty, scenario, counts, alternatives)
    ("notz", "standard", "arkham", {"doom_on_cultist_enemies": 2}, {}),
    ("notz", "hard", "arkham", {"doom_in_play": 3}, {"cultist": 1}),
    ("notz", "hard", "tentacles", {}, {"elder_thing": 1}),
    ("tic", "standard", "the_pit_of_despair", {}, {"skull": 2}),
    ("tcu", "standard", "before_the_black_throne", {"doom_on_boss": 5}, {}),  # halved, up, ≥ 2
    ("tic", "hard", "in_too_deep", {"locations_east_in_row": 2, "barriers_around_location": 1}, {}),
    ("boa", "expert", "smoke_and_mirrors", {"elite_enemies_in_victory_and_under_act": 1}, {}),
    ("eoe", "hard", "the_heart_of_madness_part_1", {}, {"cultist": 1}),  # a frost, in addition
]


@pytest.mark.parametrize(("campaign", "difficulty", "ref", "counts", "alts"), SAMPLE)
def test_the_pages_odds_equal_a_brute_force_count(
    owner, owner_client, campaign, difficulty, ref, counts, alts
):
    ark = make_arkham(owner, campaign, difficulty)
    start(ark, owner, ref)
    for key, value in counts.items():
        ark.apply("scenario.x", {"key": key, "value": value}, owner)
    for symbol, alt in alts.items():
        ark.apply("scenario.alt", {"symbol": symbol, "alt": alt}, owner)
    bag = {
        "0": 1,
        "-1": 1,
        "-2": 1,
        "skull": 1,
        "cultist": 1,
        "tablet": 1,
        "elder_thing": 1,
        "auto_fail": 1,
    }
    set_bag(ark, bag)
    held = state(ark)["card"]
    lines = card.lines(state(ark))
    # The card's lines as written, read by the oracle with the counts as X.
    raw = {s: card.effect(line, held["alt"].get(s, 0)) for s, line in lines.items()}
    x = {s: counts.get(card.x_key(line), 0) for s, line in lines.items()}
    page = bag_page(owner_client, ark, "?skill=4&difficulty=3")
    shown = dict(odds_rows(page))
    for margin in (-1, 0, 2):
        expected = brute_force_rich(bag, 2 + margin, 2, raw, x)
        assert shown[signed(margin)] == percent(expected), (ref, margin)
    typed = re.search(r"<strong>([\d.]+%)</strong>", page).group(1)
    assert typed == percent(brute_force_rich(bag, 4, 3, raw, x))
    assert chaos.success_probability(bag, 4, 3, effects_for(state(ark), None)) == (
        brute_force_rich(bag, 4, 3, raw, x)
    )


def test_the_bag_page_offers_and_shows_an_investigators_own_symbol(owner, owner_client, ark):
    from tests.games.arkham.helpers import add_investigator

    jim = add_investigator(owner_client, ark, name="Jim Culver")
    ark.apply("bag.active", {"investigator": jim}, owner)
    start(ark, owner, "torch")
    page = bag_page(owner_client, ark)
    assert "A symbol this investigator changes" in page
    response = post(
        owner_client,
        ark,
        "investigator.symbol",
        investigator=jim,
        symbol="skull",
        mode="modifier",
        value=0,
        region="bag-elder",
        page="bag",
    )
    assert response.status_code == 302, text(response)
    assert "Skull for Jim Culver's tests: 0" in re.sub(
        r"</?bdi>|\u2068|\u2069", "", bag_page(owner_client, ark)
    )
    ark.apply("investigator.symbol", {"investigator": jim, "symbol": "skull", "mode": ""}, owner)
    assert "symbols" not in state(ark)["investigators"][0]


def test_the_card_says_what_x_is_now(owner, owner_client, ark):
    start(ark, owner, "arkham")
    ark.apply("scenario.x", {"key": "doom_on_cultist_enemies", "value": 4}, owner)
    page = bag_page(owner_client, ark)
    card_html = page[page.index('id="bag-card"') : page.index('id="bag-odds"')]
    assert "−X = −4" in card_html


@pytest.mark.parametrize(
    ("action", "posted", "message"),
    [
        ("scenario.x", {"key": "x" * 500, "value": "2"}, "Ensure this value has at most 60"),
        ("scenario.x", {"key": "doom_on_cultist_enemies", "value": "lots"}, "Enter a whole number"),
        ("scenario.alt", {"symbol": "bless", "alt": "1"}, "Select a valid choice"),
        ("scenario.alt", {"symbol": "skull", "alt": "9"}, "less than or equal to 5"),
        ("scenario.act", {"act": "act_9"}, "This scenario's card has no side for that act."),
        (
            "investigator.symbol",
            {"investigator": "1", "symbol": "skull", "mode": "fly"},
            "Select a valid choice",
        ),
    ],
)
def test_malformed_card_changes_are_refused_with_a_message(
    owner, owner_client, ark, action, posted, message
):
    from tests.journeys import assert_refused

    start(ark, owner, "arkham")
    assert_refused(
        owner_client,
        ark,
        f"do/{action}/",
        {**posted, "region": "bag-card"},
        message=message,
        htmx=True,
    )


def test_before_a_scenario_with_a_card_the_card_commands_are_refused(owner_client, ark):
    from tests.journeys import assert_refused

    assert_refused(
        owner_client,
        ark,
        "do/scenario.alt/",
        {"symbol": "skull", "alt": "1", "region": "bag-card"},
        message="Start a scenario from the list first: this is its card.",
        htmx=True,
    )


def test_the_effects_form_starts_as_the_card_says(owner, owner_client, ark):
    start(ark, owner, "torch")
    page = bag_page(owner_client, ark)
    effects = page[page.index('id="bag-effects"') :]
    assert re.search(r'<option value="card" selected>As the scenario card says</option>', effects)
    assert 'name="cultist_value" value="-1"' in effects
    # Sent back as shown, nothing is typed: the card still counts.
    ark.apply("scenario.effects", {s: "card" for s in EFFECTS}, owner)
    assert "easy-standard|torch" not in state(ark).get("effects", {})


def every_line():
    for campaign, ref in every_step():
        facts = card.CARDS[campaign]["scenarios"][ref]
        for sides in (facts, *facts.get("variants", {}).values()):
            for side in ("easy_standard", "hard_expert"):
                for symbol, line in sides[side].items():
                    if line:
                        yield symbol, line


@pytest.mark.sweep
def test_every_line_of_every_card_with_each_alternative_counts_exactly():
    # Every kind the facts hold (X multiplied, offset and capped, reveal another, automatic
    # failure or success, counting as a frost), each alternative on: the engine's odds equal
    # the cards' lines played out on every ordering of a small bag.
    checked = 0
    for symbol, line in every_line():
        for alt in range(card.alternatives(line) + 1):
            effect = card.effect(line, alt)
            bag = {"+1": 1, "-1": 1, "auto_fail": 1, symbol: 1, "frost": 1}
            for count in (0, 3, 7):
                resolved = chaos.with_x({symbol: effect}, {symbol: count})
                for skill in (1, 4):
                    expected = brute_force_rich(bag, skill, 3, {symbol: effect}, {symbol: count})
                    assert chaos.success_probability(bag, skill, 3, resolved) == expected, line
                    checked += 1
    assert checked > 4000
