"""The mythos deck engine: counts per stage, a draw from the first stage with cards, no
reshuffle, and every card drawn once."""

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from campaigns.engines import mythos

AZATHOTH = [[1, 2, 1], [2, 3, 1], [2, 4, 0]]


@given(seed=st.integers(0, 2**32))
def test_drawing_the_whole_deck_gives_each_stage_in_turn(seed):
    rng = random.Random(seed)
    deck = mythos.build(AZATHOTH)
    stages = []
    colours: dict[int, list[str]] = {0: [], 1: [], 2: []}
    while mythos.cards_left(deck):
        colour = mythos.pick(deck, rng)
        stage = mythos.take(deck, colour)
        stages.append(stage)
        colours[stage].append(colour)
    assert stages == [0] * 4 + [1] * 6 + [2] * 6
    for index, counts in enumerate(AZATHOTH):
        assert sorted(colours[index]) == sorted(
            ["green"] * counts[0] + ["yellow"] * counts[1] + ["blue"] * counts[2]
        )
    with pytest.raises(mythos.DeckError):
        mythos.pick(deck, rng)


def test_a_recorded_colour_must_be_in_the_current_stage():
    deck = mythos.build([[0, 1, 0], [1, 0, 0], [0, 0, 0]])
    with pytest.raises(mythos.DeckError):
        mythos.take(deck, "green")  # stage I has only a yellow card
    assert mythos.take(deck, "yellow") == 0
    assert mythos.take(deck, "green") == 1
    assert mythos.current_stage(deck) is None


def test_a_deck_has_three_stages_of_three_counts():
    with pytest.raises(mythos.DeckError):
        mythos.build([[1, 2, 1]])
    with pytest.raises(mythos.DeckError):
        mythos.build([[1, 2, -1], [0, 0, 0], [0, 0, 0]])
