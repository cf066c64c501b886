"""The dice odds engine (campaigns.engines.dice) against enumeration of every roll and every
reroll on small cases, and the numbers the rules give."""

import itertools
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from campaigns.engines import dice


def enumerate_after(faces: tuple[int, ...], needed: int, success_on: int, left: int) -> Fraction:
    """From these faces, every outcome of each reroll of a failed die while fewer than `needed`
    succeed and clues are left: the exact chance, by brute force."""
    hits = sum(1 for f in faces if f >= success_on)
    if hits >= needed:
        return Fraction(1)
    failed = [i for i, f in enumerate(faces) if f < success_on]
    if not left or not failed:
        return Fraction(0)
    die = failed[0]
    outcomes = (
        enumerate_after((*faces[:die], face, *faces[die + 1 :]), needed, success_on, left - 1)
        for face in range(1, 7)
    )
    return sum(outcomes, Fraction(0)) / 6


def enumerate_at_least(count: int, needed: int, success_on: int, rerolls: int) -> Fraction:
    """Every roll of `count` dice, then its rerolls (`enumerate_after`)."""
    rolls = list(itertools.product(range(1, 7), repeat=count))
    return sum((enumerate_after(r, needed, success_on, rerolls) for r in rolls), Fraction(0)) / len(
        rolls
    )


@given(
    count=st.integers(0, 3),
    needed=st.integers(0, 4),
    success_on=st.sampled_from([4, 5, 6]),
    rerolls=st.integers(0, 2),
)
def test_the_odds_match_every_roll_enumerated(count, needed, success_on, rerolls):
    assert dice.at_least(count, needed, success_on, rerolls) == enumerate_at_least(
        count, needed, success_on, rerolls
    )


@given(
    faces=st.lists(st.integers(1, 6), min_size=1, max_size=4).map(tuple),
    needed=st.integers(0, 5),
    success_on=st.sampled_from([4, 5, 6]),
    rerolls=st.integers(0, 3),
)
def test_the_odds_once_rolled_match_every_reroll_enumerated(faces, needed, success_on, rerolls):
    have = dice.count(list(faces), success_on)
    assert dice.still_at_least(len(faces), have, needed, success_on, rerolls) == enumerate_after(
        faces, needed, success_on, rerolls
    )


@given(count=st.integers(1, 8), success_on=st.sampled_from([4, 5, 6]), rerolls=st.integers(0, 4))
def test_more_successes_are_never_likelier_and_clues_never_hurt(count, success_on, rerolls):
    chances = [dice.at_least(count, k, success_on, rerolls) for k in range(count + 2)]
    assert chances[0] == 1 and chances[-1] == 0
    assert chances == sorted(chances, reverse=True)
    for k in range(count + 1):
        assert dice.at_least(count, k, success_on, rerolls + 1) >= chances[k]


def test_the_rules_numbers():
    assert dice.at_least(1, 1) == Fraction(1, 3)  # 5 or 6
    assert dice.at_least(1, 1, success_on=4) == Fraction(1, 2)  # blessed: 4–6
    assert dice.at_least(1, 1, success_on=6) == Fraction(1, 6)  # cursed: only 6
    assert dice.at_least(1, 1, rerolls=1) == Fraction(1, 3) + Fraction(2, 3) * Fraction(1, 3)
    assert dice.at_least(2, 2) == Fraction(1, 9)


def test_a_reroll_takes_a_failed_die():
    class Fixed:
        def randint(self, a, b):
            return 6

    assert dice.reroll_one([5, 2, 1], 5, Fixed()) == (1, 6)
    with pytest.raises(dice.DiceError):
        dice.reroll_one([5, 6], 5, Fixed())
    with pytest.raises(dice.DiceError):
        dice.at_least(2, 1, success_on=7)
