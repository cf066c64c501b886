"""Chaos bag engine: hand-worked odds, properties against brute force, draws and bad input."""

import itertools
import random
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from campaigns.engines.chaos import (
    SYMBOLS,
    TOKENS,
    ChaosError,
    chain,
    draw,
    draw_chain,
    pass_table,
    reveal,
    reveals_another,
    success_probability,
    token_modifier,
    validate_bag,
    validate_effects,
)
from tests.games.arkham.helpers import (
    NOTZ_STANDARD,
    Outcome,
    brute_force_probability,
    outcome_distribution,
)

# --- token tables ----------------------------------------------------------------------------


def test_token_lists():
    assert TOKENS[:3] == ("+1", "0", "-1")
    assert TOKENS[9] == "-8"
    assert TOKENS[10:] == (
        "skull",
        "cultist",
        "tablet",
        "elder_thing",
        "auto_fail",
        "elder_sign",
        "bless",
        "curse",
        "frost",
    )
    assert SYMBOLS == ("skull", "cultist", "tablet", "elder_thing", "elder_sign")
    assert issubclass(ChaosError, ValueError)


def test_token_modifier_fixed_tokens():
    assert token_modifier("+1") == 1
    assert token_modifier("0") == 0
    assert token_modifier("-8") == -8
    assert token_modifier("bless") == 2
    assert token_modifier("curse") == -2
    assert token_modifier("frost") == -1
    assert token_modifier("auto_fail") is None


def test_token_modifier_symbols_follow_effects():
    assert token_modifier("skull") == 0
    assert token_modifier("skull", {"skull": {"modifier": -3}}) == -3
    assert token_modifier("tablet", {"tablet": {"modifier": -2, "auto_fail": True}}) is None
    assert token_modifier("elder_sign", {"elder_sign": {"auto_succeed": True}}) == 0


def test_reveals_another():
    assert reveals_another("bless")
    assert reveals_another("curse")
    assert reveals_another("frost")
    assert not reveals_another("-1")
    assert not reveals_another("auto_fail")
    assert not reveals_another("cultist")
    assert reveals_another("cultist", {"cultist": {"reveal_another": True}})


def test_validate_bag_drops_zero_counts_and_orders_for_display():
    clean = validate_bag({"curse": 1, "skull": 0, "-1": 2, "+1": 1})
    assert clean == {"+1": 1, "-1": 2, "curse": 1}
    assert list(clean) == ["+1", "-1", "curse"]
    assert validate_bag({}) == {}


def test_validate_effects_fills_defaults():
    assert validate_effects(None) == {}
    assert validate_effects({"skull": {"modifier": -1}}) == {
        "skull": {
            "modifier": -1,
            "reveal_another": False,
            "auto_fail": False,
            "auto_succeed": False,
        }
    }


# --- hand-computed odds ----------------------------------------------------------------------


def test_two_tokens_half_chance():
    assert success_probability({"0": 1, "-1": 1}, 3, 3) == Fraction(1, 2)


def test_bless_chains_into_the_next_token():
    bag = {"bless": 1, "0": 1}
    # Bless first (1/2) reveals the 0 too: +2. The 0 first ends the test at +0.
    assert outcome_distribution(bag) == {
        Outcome(0): Fraction(1, 2),
        Outcome(2): Fraction(1, 2),
    }
    assert success_probability(bag, 2, 4) == Fraction(1, 2)
    assert success_probability(bag, 2, 2) == 1


def test_bless_alone_resolves_when_the_bag_runs_dry():
    assert outcome_distribution({"bless": 1}) == {Outcome(2): 1}
    assert outcome_distribution({"curse": 2}) == {Outcome(-4): 1}
    assert success_probability({"bless": 1}, 1, 3) == 1


def test_second_frost_is_automatic_failure():
    assert outcome_distribution({"frost": 2}) == {Outcome(0, auto_fail=True): 1}
    assert success_probability({"frost": 2}, 20, 0) == 0
    # frost,frost: 2/3*1/2 = 1/3 fail; frost,+1: 1/3 at total 0; +1 first: 1/3 at total +1.
    bag = {"frost": 2, "+1": 1}
    assert outcome_distribution(bag) == {
        Outcome(0): Fraction(1, 3),
        Outcome(1): Fraction(1, 3),
        Outcome(0, auto_fail=True): Fraction(1, 3),
    }
    assert success_probability(bag, 3, 3) == Fraction(2, 3)


def test_single_frost_only_modifies():
    assert outcome_distribution({"frost": 1, "0": 1}) == {
        Outcome(-1): Fraction(1, 2),
        Outcome(0): Fraction(1, 2),
    }


def test_modified_skill_floors_at_zero():
    assert success_probability({"-8": 1}, 1, 0) == 1
    assert success_probability({"-8": 1}, 8, 1) == 0
    assert pass_table({"-8": 1}, None, 0) == {m: Fraction(1) for m in range(-2, 7)}


def test_auto_fail_token_fails_even_against_zero():
    assert success_probability({"auto_fail": 1, "+1": 1}, 10, 0) == Fraction(1, 2)


def test_auto_succeed_passes_whatever_the_numbers():
    effects = {"elder_sign": {"modifier": -5, "auto_succeed": True}}
    assert success_probability({"elder_sign": 1, "-8": 1}, 0, 5, effects) == Fraction(1, 2)


def test_auto_fail_beats_auto_succeed_in_one_chain():
    effects = {"skull": {"auto_succeed": True, "reveal_another": True}}
    assert success_probability({"skull": 1, "auto_fail": 1}, 5, 0, effects) == 0
    # Skull first succeeds automatically even though it also reveals a 0 that would fail.
    assert success_probability({"skull": 1, "0": 1}, 0, 9, effects) == Fraction(1, 2)


def test_symbol_effect_that_auto_fails_and_chains():
    effects = {"elder_thing": {"auto_fail": True, "reveal_another": True}}
    dist = outcome_distribution({"elder_thing": 1, "+1": 1}, effects)
    assert dist == {Outcome(1): Fraction(1, 2), Outcome(0, auto_fail=True): Fraction(1, 2)}


def test_symbol_without_entry_is_zero():
    assert success_probability({"tablet": 1}, 2, 2) == 1
    assert success_probability({"tablet": 1}, 1, 2) == 0


def test_symbol_effect_with_reveal_another_adds_up():
    effects = {"cultist": {"modifier": -2, "reveal_another": True}}
    # Cultist first: -2 then -1 = 4-3 = 1 < 2. The -1 first: 3 >= 2.
    assert success_probability({"cultist": 1, "-1": 1}, 4, 2, effects) == Fraction(1, 2)


def test_notz_standard_bag_by_hand():
    # 16 tokens, symbols at 0 apart from the auto-fail. Skill 2 vs difficulty 2 passes on
    # +1, 0, 0, skull, skull, cultist, tablet, elder_sign = 8 tokens.
    assert success_probability(NOTZ_STANDARD, 2, 2) == Fraction(8, 16)


def test_pass_table_matches_success_probability():
    effects = {"skull": {"modifier": -1}, "cultist": {"modifier": -2, "reveal_another": True}}
    bag = {**NOTZ_STANDARD, "bless": 2, "curse": 3, "frost": 2}
    for difficulty in (0, 1, 3):
        table = pass_table(bag, effects, difficulty)
        assert list(table) == list(range(-2, 7))
        for margin, chance in table.items():
            skill = difficulty + margin
            assert chance == success_probability(bag, skill, difficulty, effects)


def test_pass_table_custom_margins():
    assert pass_table({"0": 1, "-1": 1}, None, 3, margins=[0, 1]) == {0: Fraction(1, 2), 1: 1}


def test_big_bag_distribution_is_exact_and_symmetric():
    # Equal bless and curse around zeros: every total t is as likely as -t.
    dist = outcome_distribution({"0": 30, "bless": 10, "curse": 10})
    assert sum(dist.values()) == 1
    for outcome, chance in dist.items():
        assert dist[Outcome(-outcome.total)] == chance


# --- properties ------------------------------------------------------------------------------

effect_entry = st.fixed_dictionaries(
    {},
    optional={
        "modifier": st.integers(-4, 2),
        "reveal_another": st.booleans(),
        "auto_fail": st.booleans(),
        "auto_succeed": st.booleans(),
    },
)
effects_strategy = st.none() | st.dictionaries(st.sampled_from(SYMBOLS), effect_entry, max_size=5)


def bags(max_tokens: int):
    # Weighted towards the tokens that make chains, where the engine has most to get right.
    names = st.sampled_from(
        ["+1", "0", "-1", "-3", "-8", "auto_fail", *SYMBOLS, "bless", "curse", "frost"]
    )
    return st.lists(names, min_size=1, max_size=max_tokens).map(
        lambda tokens: {name: tokens.count(name) for name in tokens}
    )


@settings(max_examples=120, deadline=None)
@given(
    bag=bags(7),
    effects=effects_strategy,
    skill=st.integers(0, 6),
    difficulty=st.integers(0, 6),
)
def test_equals_brute_force_on_small_bags(bag, effects, skill, difficulty):
    expected = brute_force_probability(bag, skill, difficulty, effects)
    assert success_probability(bag, skill, difficulty, effects) == expected


@settings(max_examples=80, deadline=None)
@given(bag=bags(25), effects=effects_strategy, difficulty=st.integers(0, 8))
def test_probabilities_are_sane(bag, effects, difficulty):
    dist = outcome_distribution(bag, effects)
    assert sum(dist.values()) == 1
    assert all(0 < chance <= 1 for chance in dist.values())
    assert all(not (o.auto_fail and o.auto_succeed) for o in dist)
    table = pass_table(bag, effects, difficulty, margins=range(-10, 11))
    chances = list(table.values())
    assert all(0 <= chance <= 1 for chance in chances)
    # More skill never lowers the chance.
    assert chances == sorted(chances)


@settings(max_examples=60, deadline=None)
@given(
    bag=bags(20),
    effects=effects_strategy,
    skill=st.integers(0, 8),
    difficulty=st.integers(0, 8),
)
def test_adding_auto_fail_never_helps(bag, effects, skill, difficulty):
    before = success_probability(bag, skill, difficulty, effects)
    more = {**bag, "auto_fail": bag.get("auto_fail", 0) + 1}
    assert success_probability(more, skill, difficulty, effects) <= before


# --- drawing ---------------------------------------------------------------------------------


def test_draw_returns_every_token_in_the_bag_and_nothing_else():
    rng = random.Random(1234)
    bag = {**NOTZ_STANDARD, "bless": 1, "curse": 0, "elder_thing": 0}
    seen = {draw(bag, rng) for _ in range(3000)}
    assert seen == {name for name, count in bag.items() if count > 0}


def test_draw_is_weighted_by_count():
    rng = random.Random(99)
    draws = [draw({"0": 3, "-1": 1}, rng) for _ in range(4000)]
    share = draws.count("0") / len(draws)
    assert 0.7 < share < 0.8


def test_sealed_token_never_comes_out():
    rng = random.Random(7)
    assert {draw({"elder_sign": 0, "skull": 1}, rng) for _ in range(200)} == {"skull"}


def test_draw_same_seed_same_token():
    assert draw(NOTZ_STANDARD, random.Random(5)) == draw(NOTZ_STANDARD, random.Random(5))


# --- bad input -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("bag", "message"),
    [
        ({"-9": 1}, "Unknown chaos token '-9'"),
        ({"Skull": 1}, "Unknown chaos token 'Skull'"),
        ({"0": -1}, "cannot be negative"),
        ({"0": 1.0}, "must be a whole number"),
        ({"0": "2"}, "must be a whole number"),
        ({"0": True}, "must be a whole number"),
        (["0", "-1"], "must map token names to counts"),
    ],
)
def test_bad_bag_raises(bag, message):
    with pytest.raises(ChaosError, match=message):
        validate_bag(bag)
    with pytest.raises(ChaosError, match=message):
        success_probability(bag, 3, 3)
    with pytest.raises(ChaosError, match=message):
        draw(bag, random.Random(0))


@pytest.mark.parametrize("bag", [{}, {"0": 0, "bless": 0}])
def test_empty_bag_raises(bag):
    with pytest.raises(ChaosError, match="empty"):
        success_probability(bag, 3, 3)
    with pytest.raises(ChaosError, match="empty"):
        outcome_distribution(bag)
    with pytest.raises(ChaosError, match="empty"):
        pass_table(bag, None, 3)
    with pytest.raises(ChaosError, match="empty"):
        draw(bag, random.Random(0))
    with pytest.raises(ChaosError, match="empty"):
        brute_force_probability(bag, 3, 3)


@pytest.mark.parametrize(
    ("effects", "message"),
    [
        ({"skull": {"modifer": -1}}, "Unknown effect key"),
        ({"bless": {"modifier": 3}}, "fixed effect"),
        ({"-1": {"modifier": 0}}, "fixed effect"),
        ({"tentacle": {"modifier": 0}}, "Unknown chaos token"),
        ({"skull": {"modifier": "-1"}}, "modifier of 'skull' must be a whole number"),
        ({"skull": {"reveal_another": 1}}, "must be True or False"),
        ({"skull": -1}, "must be a mapping"),
        ([("skull", {})], "must map symbol tokens"),
    ],
)
def test_bad_effects_raise(effects, message):
    with pytest.raises(ChaosError, match=message):
        success_probability({"skull": 1}, 3, 3, effects)
    with pytest.raises(ChaosError, match=message):
        token_modifier("skull", effects)


def test_bad_test_numbers_raise():
    with pytest.raises(ChaosError, match="skill value must be a whole number"):
        success_probability({"0": 1}, 2.5, 3)
    with pytest.raises(ChaosError, match="difficulty cannot be negative"):
        success_probability({"0": 1}, 2, -1)
    with pytest.raises(ChaosError, match="difficulty must be a whole number"):
        pass_table({"0": 1}, None, None)
    with pytest.raises(ChaosError, match="margin must be a whole number"):
        pass_table({"0": 1}, None, 2, margins=[0.5])


def test_unknown_token_in_lookups_raises():
    with pytest.raises(ChaosError, match="Unknown chaos token"):
        token_modifier("star")
    with pytest.raises(ChaosError, match="Unknown chaos token"):
        reveals_another("star")


# --- the chain rule, one token at a time (what a draw at the table follows) -------------------


def chance_by_walking_the_chain(bag, skill, difficulty, effects):
    """Pass or fail on every ordering of the physical tokens, revealing one token at a time as
    `chain` says, with no counting shortcut."""
    tokens = [name for name, count in bag.items() for _ in range(count)]
    passed = orderings = 0
    for ordering in itertools.permutations(tokens):
        orderings += 1
        revealed = []
        for token in ordering:
            revealed.append(reveal(token, effects))
            if not chain(revealed).goes_on:
                break
        outcome = chain(revealed)
        if not outcome.auto_fail and (
            outcome.auto_succeed or max(0, skill + outcome.total) >= difficulty
        ):
            passed += 1
    return Fraction(passed, orderings)


@settings(max_examples=80, deadline=None)
@given(
    bag=bags(6),
    effects=effects_strategy,
    skill=st.integers(0, 6),
    difficulty=st.integers(0, 6),
)
def test_the_chain_rule_token_by_token_gives_the_exact_odds(bag, effects, skill, difficulty):
    expected = success_probability(bag, skill, difficulty, effects)
    assert chance_by_walking_the_chain(bag, skill, difficulty, effects) == expected


def test_bless_curse_and_frost_ask_for_another_and_add_their_value():
    outcome = chain([reveal("bless"), reveal("curse"), reveal("frost"), reveal("-1")])
    assert outcome.total == 2 - 2 - 1 - 1
    assert not outcome.auto_fail and not outcome.goes_on
    assert chain([reveal("bless")]).goes_on


def test_a_second_frost_fails_the_test_and_ends_the_chain():
    outcome = chain([reveal("frost"), reveal("frost")])
    assert outcome.auto_fail and outcome.second_frosts == (1,) and not outcome.goes_on
    assert chain([reveal("frost"), reveal("bless"), reveal("frost")]).second_frosts == (2,)
    assert not chain([reveal("frost"), reveal("0")]).auto_fail


def test_nothing_goes_on_after_an_automatic_failure():
    effects = {"skull": {"auto_fail": True, "reveal_another": True}}
    assert reveal("skull", effects).modifier is None
    assert not chain([reveal("skull", effects)]).goes_on


def test_an_automatic_success_is_beaten_by_a_later_automatic_failure():
    effects = {"elder_sign": {"auto_succeed": True}, "tablet": {"reveal_another": True}}
    assert chain([reveal("elder_sign", effects)]).auto_succeed
    outcome = chain([reveal("bless"), reveal("elder_sign", effects)])
    assert outcome.auto_succeed and not outcome.auto_fail
    outcome = chain([reveal("tablet", effects), reveal("auto_fail")])
    assert outcome.auto_fail and not outcome.auto_succeed


@settings(max_examples=150, deadline=None)
@given(bag=bags(12), effects=effects_strategy, seed=st.integers(0, 2**32))
def test_a_drawn_chain_stops_exactly_where_the_rule_says(bag, effects, seed):
    drawn = draw_chain(bag, effects, random.Random(seed))
    for token in set(drawn):
        assert drawn.count(token) <= bag[token]  # without replacement
    revealed = [reveal(token, effects) for token in drawn]
    for end in range(1, len(drawn)):
        assert chain(revealed[:end]).goes_on
    assert not chain(revealed).goes_on or len(drawn) == sum(bag.values())


def test_a_chain_going_on_counts_the_frost_already_revealed():
    class Last(random.Random):
        def randrange(self, n, *args):
            return n - 1  # frost: the last token in the engine's order

    # A new test: frost asks for another, and the 0 ends the chain.
    assert draw_chain({"0": 1, "frost": 1}, None, Last()) == ["frost", "0"]
    # The test already shows a frost: the frost drawn now is the second, an automatic failure.
    assert draw_chain({"0": 1, "frost": 1}, None, Last(), [reveal("frost")]) == ["frost"]
