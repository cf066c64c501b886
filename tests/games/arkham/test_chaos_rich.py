"""The richer token effects (issue 9): reveal N more, cancel or double the other modifiers,
raise the difficulty, −X / +X set at the test; a scenario card's X (issue 20: a count halved,
doubled, offset and capped), counting as a frost; exact against brute force on small bags.

Rules: ``shared/spec/rules.md`` §1b — more than one token can be revealed (line 94), the
modified skill is the skill plus the token effects and modifiers (line 99), success when it is
at least the difficulty (line 101), automatic failure beats everything (line 104).
"""

import random
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from campaigns.engines import chaos
from campaigns.engines.chaos import (
    SYMBOLS,
    ChaosError,
    chain,
    draw_chain,
    pass_table,
    reveal,
    success_probability,
    with_x,
    x_amount,
)
from campaigns.engines.chaos_count import Kind, knapsack, walk
from tests.games.arkham.helpers import (
    NOTZ_STANDARD,
    Outcome,
    brute_force_probability,
    brute_force_rich,
    card_x,
    outcome_distribution,
)

# --- by hand -----------------------------------------------------------------------------------


def test_minus_x_takes_the_number_set_at_the_test():
    # A skull "−X" with X = 2 Ghouls at the location is a −2 (rules.md line 99).
    effects = {"skull": {"per_x": -1}}
    assert with_x(effects, {"skull": 2})["skull"]["modifier"] == -2
    assert success_probability({"skull": 1}, 3, 2, with_x(effects, {"skull": 2})) == 0
    assert success_probability({"skull": 1}, 4, 2, with_x(effects, {"skull": 2})) == 1


def test_an_x_not_set_is_refused_rather_than_guessed():
    with pytest.raises(ChaosError, match="X of 'skull'"):
        success_probability({"skull": 1}, 3, 2, {"skull": {"per_x": -1}})
    with pytest.raises(ChaosError, match="X of 'skull'"):
        with_x({"skull": {"per_x": -1}}, {})


def test_elder_sign_plus_x():
    # Roland's elder sign: +1 for each clue on his location (X set at the test).
    effects = with_x({"elder_sign": {"per_x": 1}}, {"elder_sign": 3})
    assert reveal("elder_sign", effects).modifier == 3


def test_a_cards_x_is_the_count_multiplied_offset_and_capped():
    # "X is half the doom, rounded up": 5 doom is −3; "X is the act number + 1, at most 4".
    half = {"skull": {"per_x": -1, "x_per": 2, "x_up": True}}
    assert with_x(half, {"skull": 5})["skull"]["modifier"] == -3
    assert (
        with_x({"skull": {**half["skull"], "x_up": False}}, {"skull": 5})["skull"]["modifier"] == -2
    )
    capped = {"tablet": {"per_x": -1, "x_plus": 1, "x_max": 4}}
    assert [with_x(capped, {"tablet": n})["tablet"]["modifier"] for n in (0, 2, 3, 9)] == [
        -1,
        -3,
        -4,
        -4,
    ]
    twice = {"cultist": {"per_x": -1, "x_times": 2, "x_min": 1}}
    assert [with_x(twice, {"cultist": n})["cultist"]["modifier"] for n in (0, 1, 3)] == [-1, -2, -6]
    assert x_amount(7, {"x_per": 2}) == 3


def test_reveal_another_with_x_is_exact():
    # A skull "−X, reveal another" (X = doom on the agenda, 2): skill 3 against 2, bag skull, 0,
    # −1.
    effects = {"skull": {"per_x": -1, "reveal_another": True}}
    bag = {"skull": 1, "0": 1, "-1": 1}
    resolved = with_x(effects, {"skull": 2})
    # Orderings: skull,0 → −2 (pass: 1 ≥ 2? no); skull,−1 → −3 (no); 0 first → pass; −1 first
    # → 2 ≥ 2 pass. So 2 of the 3 first tokens pass: 4 of 6 orderings.
    assert success_probability(bag, 3, 2, resolved) == Fraction(2, 3)
    assert brute_force_rich(bag, 3, 2, effects, {"skull": 2}) == Fraction(2, 3)


def test_a_symbol_that_counts_as_a_frost():
    # The Heart of Madness: a cultist that counts as a frost reveals another, and a real frost
    # after it is a second frost: automatic failure (rules.md §1b, frost).
    effects = {"cultist": {"modifier": -1, "reveal_another": True, "as_frost": True}}
    revealed = [reveal("cultist", effects), reveal("frost")]
    assert chain(revealed).auto_fail
    assert success_probability({"cultist": 1, "frost": 1}, 5, 0, effects) == 0
    assert success_probability({"cultist": 1, "0": 1}, 1, 0, effects) == 1
    dist = outcome_distribution({"cultist": 1, "frost": 1, "0": 1}, effects)
    assert dist[Outcome(0, auto_fail=True)] == Fraction(2, 6)


def test_reveal_two_more_keeps_drawing_until_both_came_out():
    # Line 94: an effect can reveal more than one token.
    effects = {"tablet": {"reveal": 2}}
    assert chain([reveal("tablet", effects), reveal("0")]).goes_on
    assert not chain([reveal("tablet", effects), reveal("0"), reveal("0")]).goes_on
    # Tablet first (1/3) reveals both −1s: −2; a −1 first ends at −1.
    dist = outcome_distribution({"tablet": 1, "-1": 2}, effects)
    assert dist == {Outcome(-2): Fraction(1, 3), Outcome(-1): Fraction(2, 3)}


def test_cancel_and_double_the_other_modifiers():
    cancel = {"cultist": {"modifier": -1, "reveal_another": True, "others": "cancel"}}
    assert chain([reveal("cultist", cancel), reveal("-4")]).total == -1
    double = {"cultist": {"modifier": 0, "reveal_another": True, "others": "double"}}
    assert chain([reveal("bless"), reveal("cultist", double), reveal("-3")]).total == 4 - 6


def test_raising_the_difficulty():
    effects = {"elder_thing": {"modifier": 0, "harder": 2}}
    assert chain([reveal("elder_thing", effects)]).harder == 2
    assert success_probability({"elder_thing": 1}, 4, 3, effects) == 0
    assert success_probability({"elder_thing": 1}, 5, 3, effects) == 1
    # An automatic success treats the difficulty as 0 (line 102): the raise no longer counts.
    both = {
        "elder_thing": {"harder": 5, "reveal_another": True},
        "elder_sign": {"auto_succeed": True},
    }
    assert success_probability({"elder_thing": 1, "elder_sign": 1}, 0, 1, both) == 1


def test_old_effects_answer_exactly_as_before():
    # The contract success_probability(bag, skill, difficulty, effects=None) is unchanged.
    effects = {"skull": {"modifier": -2}, "cultist": {"reveal_another": True, "modifier": -1}}
    for skill in range(6):
        expected = brute_force_probability(
            {"skull": 2, "cultist": 1, "0": 2, "-1": 2}, skill, 3, effects
        )
        assert (
            success_probability({"skull": 2, "cultist": 1, "0": 2, "-1": 2}, skill, 3, effects)
            == expected
        )
    assert success_probability(NOTZ_STANDARD, 3, 3) == Fraction(8, 16)


def test_bad_rich_effects_are_refused():
    for effect, message in (
        ({"reveal": 9}, "'reveal'"),
        ({"harder": -1}, "'harder'"),
        ({"others": "triple"}, "'others'"),
        ({"per_x": 1.5}, "'per_x'"),
        ({"per_x": -1, "x_per": 0}, "'x_per'"),
        ({"per_x": -1, "x_min": 3, "x_max": 2}, "'x_min'"),
        ({"as_frost": 1}, "'as_frost'"),
        ({"x_up": "yes"}, "'x_up'"),
    ):
        with pytest.raises(ChaosError, match=message):
            chaos.validate_effects({"skull": effect})


# --- properties against brute force --------------------------------------------------------------

rich_entry = st.fixed_dictionaries(
    {},
    optional={
        "modifier": st.integers(-4, 3),
        "reveal_another": st.booleans(),
        "reveal": st.integers(0, 3),
        "auto_fail": st.booleans(),
        "auto_succeed": st.booleans(),
        "others": st.sampled_from(["", "cancel", "double"]),
        "harder": st.integers(0, 3),
        "per_x": st.integers(-2, 2),
        "x_times": st.integers(1, 2),
        "x_per": st.integers(1, 2),
        "x_up": st.booleans(),
        "x_plus": st.integers(0, 2),
        "x_min": st.integers(0, 2),
        "x_max": st.integers(2, 5),
        "as_frost": st.booleans(),
    },
)
rich_effects = st.dictionaries(st.sampled_from(SYMBOLS), rich_entry, max_size=5)
xs = st.fixed_dictionaries({s: st.integers(0, 4) for s in SYMBOLS})


def small_bags(max_tokens):
    names = st.sampled_from(["+1", "0", "-2", "auto_fail", *SYMBOLS, "bless", "curse", "frost"])
    return st.lists(names, min_size=1, max_size=max_tokens).map(
        lambda tokens: {name: tokens.count(name) for name in tokens}
    )


@settings(max_examples=60, deadline=None)
@given(
    count=st.integers(0, 40),
    times=st.integers(1, 5),
    per=st.integers(1, 5),
    up=st.booleans(),
    plus=st.integers(-5, 5),
)
def test_x_amount_equals_the_schemas_arithmetic(count, times, per, up, plus):
    rule = {"x_times": times, "x_per": per, "x_up": up, "x_plus": plus, "x_min": 0, "x_max": 8}
    assert x_amount(count, rule) == card_x(rule, count)


@settings(max_examples=150, deadline=None)
@given(
    bag=small_bags(7),
    effects=rich_effects,
    x=xs,
    skill=st.integers(0, 6),
    difficulty=st.integers(0, 6),
)
def test_rich_effects_equal_brute_force_on_small_bags(bag, effects, x, skill, difficulty):
    expected = brute_force_rich(bag, skill, difficulty, effects, x)
    assert success_probability(bag, skill, difficulty, with_x(effects, x)) == expected


@settings(max_examples=80, deadline=None)
@given(bag=small_bags(18), effects=rich_effects, x=xs, difficulty=st.integers(0, 6))
def test_rich_probabilities_are_sane(bag, effects, x, difficulty):
    resolved = with_x(effects, x)
    dist = outcome_distribution(bag, resolved)
    assert sum(dist.values()) == 1
    chances = list(pass_table(bag, resolved, difficulty, range(-8, 9)).values())
    assert chances == sorted(chances)  # more skill never lowers the chance


plain_entry = st.fixed_dictionaries(
    {},
    optional={
        "modifier": st.integers(-4, 3),
        "reveal_another": st.booleans(),
        "auto_fail": st.booleans(),
        "auto_succeed": st.booleans(),
    },
)


@settings(max_examples=80, deadline=None)
@given(bag=small_bags(16), effects=st.dictionaries(st.sampled_from(SYMBOLS), plain_entry))
def test_the_walk_and_the_knapsack_count_the_same(bag, effects):
    rows = []
    for name, count in chaos.validate_bag(bag).items():
        r = reveal(name, effects)
        rows.append(
            Kind(
                count,
                r.modifier or 0,
                r.modifier is None,
                r.succeed,
                int(r.again),
                1,
                0,
                name == "frost",
            )
        )
    assert walk(rows) == knapsack(rows)


@settings(max_examples=100, deadline=None)
@given(bag=small_bags(10), effects=rich_effects, x=xs, seed=st.integers(0, 2**32))
def test_a_drawn_rich_chain_stops_where_the_rule_says(bag, effects, x, seed):
    resolved = with_x(effects, x)
    drawn = draw_chain(bag, resolved, random.Random(seed))
    revealed = [reveal(token, resolved) for token in drawn]
    for end in range(1, len(drawn)):
        assert chain(revealed[:end]).goes_on
    assert not chain(revealed).goes_on or len(drawn) == sum(bag.values())
