"""The game's shape (issues 7 and 22): pages get what they need as plain values, never the
request, no module grows past what a reader holds in mind, and each rule of the chaos bag lives
in one module named for it."""

import ast
from pathlib import Path

from campaigns.engines import chaos
from campaigns.games import GAMES
from campaigns.games.arkham import bag_page, sealing, trauma
from campaigns.games.base import Viewing
from tests.games.arkham.helpers import NOTZ_STANDARD

PACKAGE = Path(bag_page.__file__).parent


def test_the_game_reads_no_request():
    for module in PACKAGE.glob("*.py"):
        source = module.read_text()
        for concern in ("request", "resolver_match", "POST", "headers"):
            assert concern not in source, (module.name, concern)


def test_no_module_of_the_game_is_over_about_500_lines():
    for module in PACKAGE.glob("*.py"):
        assert len(module.read_text().splitlines()) <= 520, module.name


def test_the_bag_page_takes_the_typed_odds_as_plain_values():
    game = GAMES["arkham"]
    state = game.initial_state({"campaign": "notz", "difficulty": "standard"})
    shown = game.context(None, state, Viewing(page="bag", query={"skill": "4", "difficulty": "3"}))
    expected = bag_page.percent(chaos.success_probability(NOTZ_STANDARD, 4, 3))
    assert shown["ark"]["odds"]["typed"] == expected
    assert game.context(None, state, Viewing(page=""))["ark"]["odds"] is None  # table page
    live = game.context(None, state, Viewing(live=True, acted="bag.draw", acted_in="bag-actions"))
    assert live["ark"]["buzz"] and live["ark"]["acted_in"] == "bag-actions"


# Issue 22: "where is bless handled?" has one answer. Each rule of the game (the chaos bag's,
# trauma, XP), by the module named for it, and the functions that carry it: defined there and in no
# other module of the game (the others call them).
RULES = {
    "reveals": (
        "reveals_of",
        "store_outcome",
        "wants_another",
        "wants_x",
        "x_of",
        "test_effects",
        "reveal",
        "draw_chain",
        "close_test",
    ),
    "bless_curse": ("resting_bag", "return_to_pool", "leave_at_scenario_end", "pool_after"),
    "frost": ("mark_second_frosts", "counts_as_frost"),
    "sealing": ("apply_seal", "apply_release", "release_all", "seal_after", "ReleaseForm"),
    "trauma": (
        "refresh_status",
        "keep_active_in_play",
        "trauma_of",
        "set_trauma",
        "apply_trauma",
        "resolve_mark",
        "apply_mark",
        "after_scenario",
    ),
    "xp": (
        "apply_xp",
        "xp_cost",
        "apply_buy",
        "refuse_past_limit",
        "gained_after_scenario",
        "earn_after_scenario",
    ),
}


def definitions() -> dict[str, set[str]]:
    """Each function or class defined at the top of a module of the game: where it is."""
    found: dict[str, set[str]] = {}
    for module in PACKAGE.glob("*.py"):
        for node in ast.parse(module.read_text()).body:
            if isinstance(node, ast.FunctionDef | ast.ClassDef):
                found.setdefault(node.name, set()).add(module.stem)
    return found


def misplaced(defined: dict[str, set[str]]) -> dict[str, list[str]]:
    """Each rule's function or class that is not defined in its module alone: where it is."""
    return {
        name: sorted(defined.get(name, set()))
        for rule, names in RULES.items()
        for name in names
        if defined.get(name) != {rule}
    }


def test_each_rule_of_the_bag_is_defined_in_the_module_named_for_it_alone():
    assert misplaced(definitions()) == {}


def test_the_rule_check_sees_a_rule_defined_elsewhere_too_or_missing():
    defined = definitions()
    defined["pool_after"] = {"bless_curse", "draw"}
    del defined["mark_second_frosts"]
    assert misplaced(defined) == {"pool_after": ["bless_curse", "draw"], "mark_second_frosts": []}


def test_the_rule_modules_register_their_commands():
    assert {command.name for command in sealing.COMMANDS} == {"bag.seal", "bag.release"}
    assert {command.name for command in trauma.COMMANDS} == {
        "investigator.trauma",
        "investigator.mark",
    }
    for command in (*sealing.COMMANDS, *trauma.COMMANDS):
        assert GAMES["arkham"].commands[command.name] is command


def test_the_readme_names_each_rule_s_module():
    readme = (PACKAGE.parents[2] / "README.md").read_text()
    assert "`bag.py` (where bless" not in readme
    for rule in RULES:
        assert f"`{rule}.py`" in readme, rule
