"""The Aeon's End: Legacy turn order deck engine (rules.md §2b, §2c)."""

import copy
import json
import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from campaigns.engines.turn_order import (
    NEMESIS,
    WILD,
    TurnOrderError,
    check_name,
    choose,
    compose,
    draw,
    new_deck,
    public_view,
    put_on_bottom,
    put_on_top,
    reveal_top,
    seat_pairs,
    shuffle_into_deck,
)

PLAYERS = {
    1: ["Abby"],
    2: ["Abby", "Bob"],
    3: ["Abby", "Bob", "Claire"],
    4: ["Abby", "Bob", "Claire", "Dax"],
}


def deck_cards(state: dict) -> list[str]:
    return state["top"] + state["pool"] + state["bottom"]


def all_cards(state: dict) -> list[str]:
    return deck_cards(state) + state["discard"]


def draw_resolved(state: dict, rng: random.Random) -> tuple[dict, str]:
    """Draw, and settle any wild or pair choice on the first option."""
    state, card = draw(state, rng)
    if state["pending"] is not None:
        state = choose(state, state["pending"]["options"][0])
    return state, card


# --- composition -------------------------------------------------------------------------


def test_one_player_has_four_cards_and_two_nemesis_cards():
    assert Counter(compose(["Abby"])) == {"Abby": 4, NEMESIS: 2}


def test_two_players_have_two_cards_each():
    assert Counter(compose(["Abby", "Bob"])) == {"Abby": 2, "Bob": 2, NEMESIS: 2}


def test_three_players_have_one_card_each_and_the_wild_card():
    assert Counter(compose(PLAYERS[3])) == {"Abby": 1, "Bob": 1, "Claire": 1, WILD: 1, NEMESIS: 2}


def test_four_players_use_two_matching_pairs_so_each_name_is_on_two_cards():
    cards = compose(PLAYERS[4])
    assert Counter(cards) == {"Abby/Bob": 2, "Claire/Dax": 2, NEMESIS: 2}
    names_on_cards = Counter(name for card in cards if card != NEMESIS for name in card.split("/"))
    assert names_on_cards == {"Abby": 2, "Bob": 2, "Claire": 2, "Dax": 2}


@pytest.mark.parametrize("count", [1, 2, 3, 4])
def test_every_deck_has_six_cards(count):
    assert len(compose(PLAYERS[count])) == 6


@pytest.mark.parametrize(
    "names",
    [
        [],
        ["A", "B", "C", "D", "E"],
        ["Abby", ""],
        ["  "],
        ["Abby", "Abby"],
        ["Abby", "abby"],
        ["Ab/by"],
        ["Wild", "Bob"],
        ["nemesis"],
    ],
)
def test_bad_player_names_are_refused(names):
    with pytest.raises(TurnOrderError):
        compose(names)
    with pytest.raises(TurnOrderError):
        new_deck(names)


def test_error_messages_are_plain_english_with_their_params_apart():
    """str() reads in English; .message (marked for the catalogues) and .params let a caller
    show it in the reader's language."""
    with pytest.raises(TurnOrderError, match="1 to 4 players, not 5") as refused:
        compose(["A", "B", "C", "D", "E"])
    assert (
        refused.value.message == "The turn order deck is for 1 to %(most)d players, not %(count)d."
    )
    assert refused.value.params == {"most": 4, "count": 5}


@pytest.mark.parametrize(
    ("name", "taken", "message"),
    [
        ("", [], "Type the character's name."),
        ("Ab/by", [], "A character's name cannot contain “/”."),
        ("wild", [], "That is the name of a turn order card."),
        ("ABBY", ["Abby"], "Two characters cannot have the same name."),
    ],
)
def test_a_name_that_cannot_go_on_a_card_says_why(name, taken, message):
    with pytest.raises(TurnOrderError) as refused:
        check_name(name, taken)
    assert refused.value.message == message and str(refused.value) == message
    assert check_name("  Abby ", ["Bob"]) == "Abby"


# --- a fresh deck and one pass -----------------------------------------------------------


def test_new_deck_is_all_pool_round_one_and_json():
    state = new_deck(PLAYERS[2])
    assert state["pool"] == sorted(compose(PLAYERS[2]))
    assert state["top"] == state["bottom"] == state["discard"] == []
    assert state["round"] == 1
    assert state["current"] is None and state["pending"] is None
    assert json.loads(json.dumps(state)) == state


@given(count=st.integers(1, 4), seed=st.integers(0, 2**32))
def test_one_pass_draws_every_card_once_without_a_reshuffle(count, seed):
    rng = random.Random(seed)
    state = new_deck(PLAYERS[count])
    drawn = []
    for _ in range(6):
        state, card = draw_resolved(state, rng)
        drawn.append(card)
    assert Counter(drawn) == Counter(compose(PLAYERS[count]))
    assert state["round"] == 1
    assert state["discard"] == drawn
    assert deck_cards(state) == []


def test_reshuffle_happens_only_when_the_seventh_card_is_needed():
    rng = random.Random(7)
    state = new_deck(PLAYERS[1])
    for _ in range(6):
        state, _ = draw(state, rng)
    assert state["round"] == 1 and len(state["discard"]) == 6
    state, _ = draw(state, rng)
    assert state["round"] == 2
    assert len(state["discard"]) == 1 and len(state["pool"]) == 5


def test_reveal_on_an_empty_deck_also_reshuffles():
    rng = random.Random(3)
    state = new_deck(PLAYERS[2])
    for _ in range(6):
        state, _ = draw(state, rng)
    state, card = reveal_top(state, rng)
    assert state["round"] == 2
    assert state["top"] == [card] and state["discard"] == []


def test_draws_are_uniform_over_physical_cards():
    # One player: 4 "Abby" and 2 "Nemesis", so the first card is the nemesis a third of the time.
    rng = random.Random(2024)
    fresh = new_deck(PLAYERS[1])
    nemesis_first = sum(draw(fresh, rng)[1] == NEMESIS for _ in range(6000))
    assert 1850 < nemesis_first < 2150


def test_the_same_rng_gives_the_same_draws():
    a = new_deck(PLAYERS[3])
    b = copy.deepcopy(a)
    rng_a, rng_b = random.Random(11), random.Random(11)
    for _ in range(10):
        a, card_a = draw_resolved(a, rng_a)
        b, card_b = draw_resolved(b, rng_b)
        assert card_a == card_b
    assert a == b


# --- moving cards ------------------------------------------------------------------------


@given(count=st.integers(1, 4), seed=st.integers(0, 2**32), draws_before=st.integers(0, 8))
def test_reveal_then_draw_gives_the_revealed_card(count, seed, draws_before):
    rng = random.Random(seed)
    state = new_deck(PLAYERS[count])
    for _ in range(draws_before):
        state, _ = draw_resolved(state, rng)
    state, revealed = reveal_top(state, rng)
    state, again = reveal_top(state, rng)
    assert again == revealed
    state, drawn = draw(state, rng)
    assert drawn == revealed


@given(seed=st.integers(0, 2**32))
def test_a_card_put_on_the_bottom_comes_out_last(seed):
    rng = random.Random(seed)
    state = new_deck(PLAYERS[2])
    state, first = draw(state, rng)
    state = put_on_bottom(state, first)
    drawn = []
    while deck_cards(state):
        state, card = draw(state, rng)
        drawn.append(card)
    assert len(drawn) == 6 and drawn[-1] == first
    assert state["round"] == 1


def test_a_card_put_on_top_comes_out_next():
    rng = random.Random(5)
    state = new_deck(PLAYERS[2])
    state, first = draw(state, rng)
    state = put_on_top(state, first)
    assert public_view(state)["known_top"] == [first]
    state, again = draw(state, rng)
    assert again == first


def test_shuffling_a_card_in_forgets_known_positions():
    rng = random.Random(9)
    state = new_deck(PLAYERS[2])
    state, first = draw(state, rng)
    state, second = draw(state, rng)
    state = put_on_bottom(state, first)
    state, _ = reveal_top(state, rng)
    state = shuffle_into_deck(state, second)
    assert state["top"] == [] and state["bottom"] == []
    assert len(state["pool"]) == 6 and state["discard"] == []
    assert state["pool"] == sorted(state["pool"])


def test_moving_a_card_not_in_the_discard_is_refused():
    state = new_deck(PLAYERS[2])
    with pytest.raises(TurnOrderError, match="Nemesis is not in the turn order discard"):
        put_on_top(state, NEMESIS)
    state, _ = draw(state, random.Random(1))
    for move in (put_on_top, put_on_bottom, shuffle_into_deck):
        with pytest.raises(TurnOrderError, match="not in the turn order discard"):
            move(state, "Zed")


# --- whose turn --------------------------------------------------------------------------


def test_a_nemesis_card_is_the_nemesis_turn():
    state = {**new_deck(PLAYERS[2]), "top": [NEMESIS], "pool": ["Abby", "Abby", "Bob", "Bob"]}
    state["pool"].append(NEMESIS)
    state["pool"].sort()
    state, card = draw(state, random.Random(0))
    assert card == NEMESIS
    assert state["current"] == {"card": NEMESIS, "player": None, "nemesis": True}


def test_a_named_card_is_that_players_turn():
    state = new_deck(PLAYERS[1])
    state = {**state, "top": ["Abby"], "pool": ["Abby", "Abby", "Abby", NEMESIS, NEMESIS]}
    state, card = draw(state, random.Random(0))
    assert card == "Abby"
    assert state["current"] == {"card": "Abby", "player": "Abby", "nemesis": False}
    assert state["pending"] is None


def stacked(players: list[str], order: list[str]) -> dict:
    """A deck whose order the test knows, built with reveals' own field: everything on top."""
    state = new_deck(players)
    assert Counter(order) == Counter(state["pool"])
    return {**state, "top": list(order), "pool": []}


def test_three_players_choose_who_takes_the_wild_turn():
    state = stacked(PLAYERS[3], [WILD, "Abby", "Bob", "Claire", NEMESIS, NEMESIS])
    state, card = draw(state, random.Random(0))
    assert card == WILD
    assert state["pending"] == {"card": WILD, "options": PLAYERS[3]}
    assert state["current"] == {"card": WILD, "player": None, "nemesis": False}
    with pytest.raises(TurnOrderError, match="choose who takes the turn"):
        draw(state, random.Random(0))
    with pytest.raises(TurnOrderError, match="choose one of"):
        choose(state, "Dax")
    state = choose(state, "Claire")
    assert state["pending"] is None
    assert state["current"] == {"card": WILD, "player": "Claire", "nemesis": False}
    assert state["tokens"] == {}


def test_four_player_pair_card_then_matching_card_goes_to_the_other_player():
    order = ["Abby/Bob", NEMESIS, "Claire/Dax", "Abby/Bob", "Claire/Dax", NEMESIS]
    state = stacked(PLAYERS[4], order)
    rng = random.Random(0)
    assert state["tokens"] == {"Abby/Bob": None, "Claire/Dax": None}

    state, _ = draw(state, rng)
    assert state["pending"] == {"card": "Abby/Bob", "options": ["Abby", "Bob"]}
    state = choose(state, "Bob")
    assert state["tokens"] == {"Abby/Bob": "Bob", "Claire/Dax": None}
    assert state["current"]["player"] == "Bob"

    state, _ = draw(state, rng)
    assert state["current"]["nemesis"]

    state, _ = draw(state, rng)
    state = choose(state, "Claire")
    assert state["tokens"] == {"Abby/Bob": "Bob", "Claire/Dax": "Claire"}

    # The matching card: Bob has gone, so Abby must, and the token returns to the middle.
    state, _ = draw(state, rng)
    assert state["pending"] is None
    assert state["current"] == {"card": "Abby/Bob", "player": "Abby", "nemesis": False}
    assert state["tokens"] == {"Abby/Bob": None, "Claire/Dax": "Claire"}

    state, _ = draw(state, rng)
    assert state["current"]["player"] == "Dax"
    assert state["tokens"] == {"Abby/Bob": None, "Claire/Dax": None}


def test_choose_refuses_when_nothing_is_pending_and_a_stranger():
    state = stacked(
        PLAYERS[4], ["Abby/Bob", "Abby/Bob", "Claire/Dax", "Claire/Dax"] + [NEMESIS] * 2
    )
    with pytest.raises(TurnOrderError, match="no turn to hand out"):
        choose(state, "Abby")
    state, _ = draw(state, random.Random(0))
    with pytest.raises(TurnOrderError):
        choose(state, "Claire")
    for blocked in (
        lambda s: reveal_top(s, random.Random(0)),
        lambda s: put_on_top(s, "Abby/Bob"),
        lambda s: put_on_bottom(s, "Abby/Bob"),
        lambda s: shuffle_into_deck(s, "Abby/Bob"),
    ):
        with pytest.raises(TurnOrderError, match="choose who takes the turn"):
            blocked(state)


def test_damaged_states_are_refused():
    state = new_deck(PLAYERS[2])
    with pytest.raises(TurnOrderError):
        draw({**state, "pool": state["pool"][1:]}, random.Random(0))
    with pytest.raises(TurnOrderError):
        draw({**state, "round": 0}, random.Random(0))
    with pytest.raises(TurnOrderError):
        public_view({"pool": []})


# --- hidden information ------------------------------------------------------------------


def test_public_view_shows_counts_and_known_cards_but_no_order():
    rng = random.Random(4)
    state = new_deck(PLAYERS[2])
    state, first = draw(state, rng)
    state, revealed = reveal_top(state, rng)
    view = public_view(state)
    assert view["deck_count"] == 5
    assert view["remaining"] == sorted(deck_cards(state))
    assert view["known_top"] == [revealed]
    assert view["discard"] == [first]
    assert view["round"] == 1
    assert view["current"]["card"] == first
    assert "pool" not in view
    assert json.loads(json.dumps(view)) == view


# --- any sequence of operations ----------------------------------------------------------

OPERATIONS = ["draw", "draw", "draw", "reveal", "top", "bottom", "shuffle"]


@settings(max_examples=60, deadline=None)
@given(
    count=st.integers(1, 4),
    seed=st.integers(0, 2**32),
    ops=st.lists(st.tuples(st.sampled_from(OPERATIONS), st.integers(0, 10)), max_size=40),
)
def test_any_sequence_keeps_six_cards_hides_order_and_leaves_inputs_alone(count, seed, ops):
    rng = random.Random(seed)
    expected = Counter(compose(PLAYERS[count]))
    state = new_deck(PLAYERS[count])
    for op, pick in ops:
        before = state
        snapshot = copy.deepcopy(state)
        deck_was_empty = not deck_cards(state)
        if state["pending"] is not None:
            options = state["pending"]["options"]
            state = choose(state, options[pick % len(options)])
        elif op == "draw":
            state, _ = draw(state, rng)
        elif op == "reveal":
            state, _ = reveal_top(state, rng)
        elif state["discard"]:
            label = state["discard"][pick % len(state["discard"])]
            move = {"top": put_on_top, "bottom": put_on_bottom, "shuffle": shuffle_into_deck}[op]
            state = move(before, label)
        else:
            continue

        # Pure: the previous state is untouched, so undo is just keeping it.
        assert before == snapshot and before is not state
        assert Counter(all_cards(state)) == expected
        assert state["pool"] == sorted(state["pool"])
        assert json.loads(json.dumps(state)) == state

        reshuffled = deck_was_empty and before["pending"] is None and op in {"draw", "reveal"}
        assert state["round"] == before["round"] + (1 if reshuffled else 0)


def test_four_players_can_be_paired_other_than_by_seat():
    # rules.md §2b "4 players: the two-colour cards" [003:248]: who shares a card is the cards'
    # colours; the engine takes the pairs from its caller and keeps them through every step.
    state = new_deck(PLAYERS[4], [[0, 2], [1, 3]])
    assert state["tokens"] == {"Abby/Claire": None, "Bob/Dax": None}
    assert Counter(state["pool"]) == {"Abby/Claire": 2, "Bob/Dax": 2, NEMESIS: 2}
    state, card = draw(state, random.Random(1))
    assert card in {"Abby/Claire", "Bob/Dax", NEMESIS}
    assert seat_pairs(state) == [[0, 2], [1, 3]]
    assert seat_pairs(new_deck(PLAYERS[2])) is None


def test_pairs_that_do_not_split_four_seats_are_refused():
    for pairs in ([[0, 1], [1, 2]], [[0, 1]], [[0, 1], [2, 7]], "ab"):
        with pytest.raises(TurnOrderError):
            new_deck(PLAYERS[4], pairs)
