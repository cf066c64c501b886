"""The Arkham Noir engine without Django: each rule test names the line of
``shared/spec/rules.md`` it checks (§4, lines 696-771)."""

import copy
import subprocess
import sys

import pytest
from hypothesis import given
from hypothesis import strategies as st

from campaigns.engines import noir, noir_corrections


def card(column=1, clue_type=1, **symbols) -> noir.Card:
    symbols_ = (
        "puzzle",
        "hourglass",
        "key",
        "keyhole",
        "flash",
        "master_key",
        "three",
        "special_key",
    )
    base = dict.fromkeys(symbols_, False)
    # The symbols are keys of the TypedDict given by name at run time: mypy cannot follow them.
    return {"column": column, "type": clue_type, **base, **symbols}  # type: ignore[typeddict-item]


def action_phase(play: noir.Play) -> noir.Play:
    """Through the end phase with nothing on the table to trigger."""
    for step in noir.END_STEPS:
        play = noir.end_step(play, step, "count")
    return play


def test_the_engine_imports_without_django():
    code = "import sys, campaigns.engines.noir; assert 'django' not in sys.modules"
    subprocess.run([sys.executable, "-c", code], check=True)


def test_set_up_six_victims_one_boxed_two_drawn_three_left():  # rules.md:704, 720-726
    play = noir.new_play("case2", 6)
    assert play["victims_left"] == 3
    assert len(play["columns"]) == 2 and play["victims_used"] == 2
    assert (play["row"], play["hand"], play["storms_left"]) == (5, 3, 4)
    assert play["phase"] == "action" and play["round"] == 1


def test_case_one_has_no_storm_cards():  # arkham_noir.json case2 components_note
    play = noir.new_play("case1", 6)
    assert play["storms_left"] == 0
    play["columns"][0]["hourglasses"] = 2
    play = noir.play_card(play, card(hourglass=True))
    assert play["storm_due"] is None
    with pytest.raises(noir.NoirError):
        noir_corrections.adjust_pile(play, "storms_left", 1)


# Sanity check: the 8th or later card in a column [rules.md:728]


@pytest.mark.parametrize(("already", "due"), [(6, 0), (7, 1), (8, 1)])
def test_the_eighth_and_later_cards_ask_for_a_sanity_check(already, due):  # rules.md:728
    play = noir.new_play("case2", 6)
    play["columns"][0]["cards"] = already
    play = noir.play_card(play, card())
    assert play["sanity_due"] == due
    assert play["columns"][0]["cards"] == already + 1


@pytest.mark.parametrize(
    ("outcome", "pile"), [("madness", "madness"), ("timeout", "timeout"), ("discard", "discard")]
)
def test_the_flipped_card_goes_where_it_shows(outcome, pile):  # rules.md:729-731
    play = noir.new_play("case2", 6)
    play["columns"][0]["cards"] = 7
    play = noir.answer_sanity_check(noir.play_card(play, card()), outcome)
    assert play[pile] == 1 and play["sanity_due"] == 0


def test_nothing_goes_on_while_a_sanity_check_is_due():  # rules.md:727-731
    play = noir.new_play("case2", 6)
    play["columns"][0]["cards"] = 7
    play = noir.play_card(play, card())
    with pytest.raises(noir.NoirError):
        noir.end_step(play, "a", "count")


# The storm: the 3rd hourglass in a column [rules.md:732]


@pytest.mark.parametrize(("before", "storm"), [(1, False), (2, True), (3, False)])
def test_the_third_hourglass_calls_a_storm_card(before, storm):  # rules.md:732, G-AN-5
    play = noir.new_play("case2", 6)
    play["columns"][1]["hourglasses"] = before
    play = noir.play_card(play, card(column=2, hourglass=True))
    assert (play["storm_due"] == 2) is storm


def test_the_storm_card_goes_to_the_end_of_that_column():  # rules.md:732
    play = noir.new_play("case2", 6)
    play["columns"][1]["hourglasses"] = 2
    play = noir.draw_storm(noir.play_card(play, card(column=2, hourglass=True)), lightning=True)
    column = play["columns"][1]
    assert (column["cards"], column["storms"], column["lightning"]) == (2, 1, True)
    assert play["storms_left"] == 3 and play["storm_due"] is None


# Playing a card: keys, flash [rules.md:743-745]


def test_a_keyhole_needs_a_key_of_its_own():  # rules.md:743
    play = noir.new_play("case2", 6)
    with pytest.raises(noir.NoirError) as refused:
        noir.play_card(play, card(keyhole=True))
    assert refused.value.field == "keyhole"
    play["columns"][0]["keys"] = 1
    play = noir.play_card(play, card(keyhole=True))
    assert play["columns"][0]["keyholes"] == 1


def test_one_flash_card_per_column_and_only_after_lightning():  # rules.md:745
    play = noir.new_play("case2", 6)
    with pytest.raises(noir.NoirError):
        noir.play_card(play, card(flash=True))
    play["columns"][0]["lightning"] = True
    played = noir.play_card(play, card(flash=True))
    assert played["columns"][0]["flash"]
    played = action_phase(played)
    with pytest.raises(noir.NoirError) as refused:
        noir.play_card(played, card(flash=True))
    assert refused.value.field == "flash"


# Closing a case and scoring its puzzle pieces [rules.md:751-753]


def with_types(play, types, puzzles=()):
    play["columns"][0]["types"] = list(types)
    play["columns"][0]["puzzles"] = list(puzzles)
    return play


def test_four_clue_types_do_not_close_a_case():  # rules.md:751
    play = with_types(noir.new_play("case2", 6), [1, 2, 3, 4])
    with pytest.raises(noir.NoirError) as refused:
        noir.close_case(play, 1, False)
    assert refused.value.params == {"types": 4}


def test_five_types_close_it_and_its_puzzle_pieces_score():  # rules.md:751-753
    play = with_types(noir.new_play("case2", 6), [1, 2, 3, 4, 5], puzzles=[2, 6])
    play["columns"][0].update(cards=9, storms=1)
    play = noir.close_case(play, 1, taken_hourglass=True)
    assert play["big_picture"] == [2, 6]
    # The whole column, the victim card included, but storm cards and scored puzzle pieces
    # [seed 004:55].
    assert play["closed"] == 1 + 9 - 1 - 2
    assert [c["id"] for c in play["columns"]] == [2]
    assert play["timeout"] == 1


def test_puzzle_pieces_need_five_types_among_the_other_cards():  # rules.md:752
    play = with_types(noir.new_play("case2", 6), [1, 2, 3, 4], puzzles=[5])
    play["columns"][0]["cards"] = 5
    assert noir.can_close(play["columns"][0]) and not noir.would_score(play["columns"][0])
    play = noir.close_case(play, 1, False)
    assert play["big_picture"] == [] and play["closed"] == 1 + 5  # the victim card too


# The hand: at most three [rules.md:739]


def test_a_fourth_card_in_hand_asks_for_a_discard():  # rules.md:739
    play = noir.take_into_hand(noir.new_play("case2", 6))
    assert play["hand"] == 4
    with pytest.raises(noir.NoirError):
        noir.end_step(play, "a", "count")
    play = noir.discard_from_hand(play, hourglass=True)
    assert (play["hand"], play["timeout"]) == (3, 1)
    with pytest.raises(noir.NoirError):
        noir.discard_from_hand(play, hourglass=False)


def test_a_sixth_card_in_the_row_is_refused():  # rules.md:707
    with pytest.raises(noir.NoirError) as refused:
        noir_corrections.adjust_pile(noir.new_play("case2", 6), "row", 1)
    assert refused.value.field == "delta"


def test_no_pile_goes_below_nothing():  # rules.md:700-717
    for pile in noir.PILES:
        if pile in ("row", "hand", "victims_left", "storms_left"):
            continue
        with pytest.raises(noir.NoirError):
            noir_corrections.adjust_pile(noir.new_play("case2", 6), pile, -1)


def test_a_pile_past_what_the_set_up_allows_is_refused_naming_the_count():  # rules.md:700-717
    play = noir.new_play("case2", 6)
    play["hand"] = noir.HAND_LIMIT + 1
    with pytest.raises(noir.NoirError) as refused:
        noir_corrections.adjust_pile(play, "hand", 1)
    assert str(refused.value) == "That pile cannot hold 5 cards."
    assert refused.value.field == "delta"


def test_a_column_count_stays_between_none_and_the_box():  # rules.md:700-717
    play = noir.new_play("case2", 6)
    column = play["columns"][0]["id"]
    with pytest.raises(noir.NoirError) as below:
        noir_corrections.adjust_column(play, column, "keys", -1)
    assert (str(below.value), below.value.field) == ("A count cannot go below 0.", "delta")
    play["columns"][0]["keys"] = noir.MOST
    with pytest.raises(noir.NoirError) as above:
        noir_corrections.adjust_column(play, column, "keys", 1)
    assert str(above.value) == "That is more cards than the box holds."
    counted = noir_corrections.adjust_column(play, column, "keys", -1)
    assert counted["columns"][0]["keys"] == noir.MOST - 1


# The end phase a)-d) and every win and loss [rules.md:757-771]


def step(name, big=(), madness=0, timeout=0, victims=3, row=4, rule="count"):
    return noir.end_phase_step(name, list(big), madness, timeout, victims, row, rule)


@pytest.mark.parametrize(("scored", "result"), [(4, ""), (5, "won")])
def test_five_puzzle_pieces_win(scored, result):  # rules.md:765
    assert step("a", big=[1] * scored)["result"] == result


@pytest.mark.parametrize(("types", "result"), [([1, 2, 3, 4, 4], ""), ([1, 2, 3, 4, 5], "won")])
def test_five_of_different_types_win_under_the_other_wording(types, result):  # rules.md:766
    assert step("a", big=types, rule="distinct")["result"] == result


@pytest.mark.parametrize(("madness", "result"), [(4, ""), (5, "lost")])
def test_five_in_the_madness_area_lose(madness, result):  # rules.md:769
    assert step("b", madness=madness)["result"] == result


@pytest.mark.parametrize(("timeout", "new_case"), [(4, False), (5, True)])
def test_five_time_out_cards_bring_a_new_case(timeout, new_case):  # rules.md:760
    outcome = step("c", timeout=timeout)
    assert outcome["new_case"] is new_case and outcome["result"] == ""
    assert outcome["timeout_to_discard"] == (timeout if new_case else 0)


@pytest.mark.parametrize(("victims", "result"), [(1, ""), (0, "lost")])
def test_five_time_out_cards_and_no_victim_lose(victims, result):  # rules.md:770
    assert step("c", timeout=5, victims=victims)["result"] == result


def test_the_row_is_refilled_to_five():  # rules.md:761
    assert step("d", row=2)["refill"] == 3


def test_an_end_phase_that_draws_a_new_case():  # rules.md:733, 760
    play = noir.pass_turn(noir.new_play("case2", 6), taken_hourglass=False)
    play["timeout"] = 5
    for name in "abc":
        play = noir.end_step(play, name, "count")
    assert len(play["columns"]) == 3 and play["victims_left"] == 2
    assert (play["timeout"], play["discard"]) == (0, 1 + 5)  # the card passed, then the five
    play = noir.end_step(play, "d", "count")
    assert (play["round"], play["phase"], play["row"]) == (2, "action", 5)


def test_the_steps_go_in_order():  # rules.md:757
    play = noir.pass_turn(noir.new_play("case2", 6), taken_hourglass=False)
    with pytest.raises(noir.NoirError):
        noir.end_step(play, "b", "count")


@pytest.mark.parametrize(("victims", "result"), [(1, ""), (0, "lost")])
def test_the_clue_deck_running_out_reveals_a_victim_or_loses(victims, result):  # rules.md:734
    play = noir.new_play("case2", 6)
    play.update(victims_left=victims, discard=7)
    after = noir.clue_deck_ran_out(play)
    assert after["result"] == result
    if not result:
        assert len(after["columns"]) == 3 and after["discard"] == 0
        assert after["reason"] == ""
    else:
        assert after["reason"] == "deck"


def test_one_action_per_round():  # rules.md:738
    play = noir.take_into_hand(noir.new_play("case2", 6))
    play = noir.discard_from_hand(play, False)
    with pytest.raises(noir.NoirError):
        noir.pass_turn(play, False)


@given(
    moves=st.lists(
        st.sampled_from(["take", "play", "pass", "end", "sanity", "storm", "discard", "out"]),
        max_size=60,
    ),
    columns=st.integers(1, 3),
)
def test_no_count_ever_goes_below_nothing_and_the_play_is_never_changed_in_place(moves, columns):
    play = noir.new_play("case2", 6)
    for move in moves:
        before = copy.deepcopy(play)
        try:
            if move == "take":
                play = noir.take_into_hand(play)
            elif move == "play":
                play = noir.play_card(play, card(column=columns, hourglass=True))
            elif move == "pass":
                play = noir.pass_turn(play, True)
            elif move == "end":
                play = noir.end_step(play, play["end_step"], "count")
            elif move == "sanity":
                play = noir.answer_sanity_check(play, "madness")
            elif move == "storm":
                play = noir.draw_storm(play, True)
            elif move == "discard":
                play = noir.discard_from_hand(play, True)
            else:
                play = noir.clue_deck_ran_out(play)
        except noir.NoirError:
            assert play == before
        for pile in noir.PILES:
            # A pile named by a loop over PILES, not a literal key.
            assert play[pile] >= 0  # type: ignore[literal-required]
        assert play["row"] <= 5 and play["hand"] <= 4


def test_the_big_picture_is_corrected_one_card_at_a_time():  # rules.md:714
    play = noir_corrections.adjust_big_picture(noir.new_play("case2", 6), 3, 1)
    play = noir_corrections.adjust_big_picture(play, 1, 1)
    assert play["big_picture"] == [3, 1]
    assert noir_corrections.adjust_big_picture(play, 3, -1)["big_picture"] == [1]
    with pytest.raises(noir.NoirError) as refused:
        noir_corrections.adjust_big_picture(play, 2, -1)
    assert refused.value.field == "delta"


# The symbols that ask for something already in the column [seed 004:37, 41]


def test_a_three_card_needs_three_cards_already_in_the_column():  # seed 004:37
    play = noir.new_play("case2", 6)
    play["columns"][0]["cards"] = 2
    with pytest.raises(noir.NoirError) as refused:
        noir.play_card(play, card(three=True))
    assert refused.value.field == "three" and refused.value.params == {"cards": 2}
    play["columns"][0]["cards"] = 3
    assert noir.play_card(play, card(three=True))["columns"][0]["cards"] == 4


def test_a_special_key_needs_a_master_key_already_played():  # seed 004:41
    play = noir.new_play("case2", 6)
    with pytest.raises(noir.NoirError) as refused:
        noir.play_card(play, card(special_key=True))
    assert refused.value.field == "special_key"
    with pytest.raises(noir.NoirError):  # the master key must come first, not with it
        noir.play_card(play, card(special_key=True, master_key=True))
    play = noir.play_card(play, card(master_key=True))
    play = action_phase(play)
    assert noir.play_card(play, card(special_key=True))["columns"][0]["cards"] == 2
